"""RSASSA-PSS keys (``openssl genpkey -algorithm RSA-PSS``) in the Python
package: loaded with their restriction, signing with the padding the
restriction allows (openssl verifies), refusing PKCS#1 v1.5, another hash
or a shorter salt with ``redc.Error`` naming why."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import redc
from redc import hashes, padding
from redc import serialization as rs

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")

MESSAGE = b"a message for an RSA-PSS key"


@pytest.fixture(scope="module")
def pss_key(tmp_path_factory):
    d = tmp_path_factory.mktemp("pss")
    key = d / "k.pem"
    subprocess.run(
        ["openssl", "genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048"]
        + ["-pkeyopt", "rsa_pss_keygen_md:sha256", "-pkeyopt", "rsa_pss_keygen_mgf1_md:sha256"]
        + ["-pkeyopt", "rsa_pss_keygen_saltlen:32", "-out", str(key)],
        check=True,
        capture_output=True,
    )
    return d, key


def test_a_restricted_key_signs_within_its_restriction(pss_key):
    d, path = pss_key
    key = redc.load_pem_private_key(path.read_bytes(), None)
    good = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)
    sig = key.sign(MESSAGE, good, hashes.SHA256())
    key.public_key().verify(sig, MESSAGE, good, hashes.SHA256())
    pub = d / "k.pub"
    pub.write_bytes(key.public_key().public_bytes(rs.Encoding.PEM, rs.PublicFormat.SubjectPublicKeyInfo))
    (d / "msg").write_bytes(MESSAGE)
    (d / "sig").write_bytes(sig)
    out = subprocess.run(
        ["openssl", "dgst", "-sha256", "-verify", str(pub), "-signature", str(d / "sig"), str(d / "msg")],
        capture_output=True,
        text=True,
    )
    assert "Verified OK" in out.stdout, out.stderr
    for pad, algorithm, why in [
        (padding.PKCS1v15(), hashes.SHA256(), "for PSS signatures only"),
        (padding.PSS(mgf=padding.MGF1(hashes.SHA1()), salt_length=32), hashes.SHA256(), "MGF1 hash asked for is sha1"),
        (padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=20), hashes.SHA256(), "salt length asked for is 20"),
        (padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48), hashes.SHA384(), "restricted to sha256"),
    ]:
        with pytest.raises(redc.Error, match=why):
            key.sign(MESSAGE, pad, algorithm)
    with pytest.raises(redc.Error, match="not OAEP encryption"):
        key.public_key().encrypt(b"m", padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None))
    # PKCS#8 keeps the algorithm; PKCS#1 cannot hold it.
    der = key.private_bytes(rs.Encoding.DER, rs.PrivateFormat.PKCS8, rs.NoEncryption())
    with pytest.raises(redc.Error, match="for PSS signatures only"):
        redc.load_der_private_key(der, None).sign(MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(redc.Error, match="PKCS#1"):
        key.private_bytes(rs.Encoding.PEM, rs.PrivateFormat.TraditionalOpenSSL, rs.NoEncryption())
