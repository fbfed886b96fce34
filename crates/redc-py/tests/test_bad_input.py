"""Bad input raises a Python exception (TypeError, ValueError, a redc.Error
subclass) whose message starts with the argument it is about, and never
crashes the interpreter; a batch answers every item, a bad one with its
own exception naming ``messages[i]``. pyca/cryptography is the oracle of
what is refused where it has the same operation."""

from __future__ import annotations

import copy
import hashlib
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pyarrow as pa
import pytest
from cryptography.hazmat.primitives import hashes as ch
from cryptography.hazmat.primitives import serialization as cs
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519
from cryptography.hazmat.primitives.asymmetric import padding as cp
from cryptography.hazmat.primitives.asymmetric import utils as cu

import redc
from redc import hashes as rh
from redc import padding as rp
from redc import serialization as rs
from redc.utils import Prehashed

PSS = rp.PSS(rp.MGF1(rh.SHA256()), rp.PSS.MAX_LENGTH)
OAEP = rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), None)
PKCS = rp.PKCS1v15()
SHA256 = rh.SHA256()

NOENC = rs.NoEncryption()


@pytest.fixture(scope="session")
def pub(key):
    return key.public_key()


@pytest.fixture(scope="session")
def files(key):
    """redc's key files of ``key``."""
    return {
        "priv_pem": key.private_bytes(rs.Encoding.PEM, rs.PrivateFormat.PKCS8, NOENC),
        "priv_der": key.private_bytes(rs.Encoding.DER, rs.PrivateFormat.PKCS8, NOENC),
        "priv_pkcs1_pem": key.private_bytes(rs.Encoding.PEM, rs.PrivateFormat.TraditionalOpenSSL, NOENC),
        "pub_pem": key.public_key().public_bytes(rs.Encoding.PEM, rs.PublicFormat.SubjectPublicKeyInfo),
        "pub_der": key.public_key().public_bytes(rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo),
        "pub_pkcs1_pem": key.public_key().public_bytes(rs.Encoding.PEM, rs.PublicFormat.PKCS1),
        "enc_pem": key.private_bytes(rs.Encoding.PEM, rs.PrivateFormat.PKCS8, rs.BestAvailableEncryption(b"secret")),
        "enc_der": key.private_bytes(rs.Encoding.DER, rs.PrivateFormat.PKCS8, rs.BestAvailableEncryption(b"secret")),
    }


def raises(exc, prefix: str):
    """``pytest.raises`` of ``exc`` whose message starts with ``prefix``
    (the argument's name, then a colon)."""
    import re

    return pytest.raises(exc, match="^" + re.escape(prefix) + ":")


# --- wrong types ----------------------------------------------------------------

WRONG_VALUES = [
    pytest.param("text", "str", id="str"),
    pytest.param(None, "NoneType", id="None"),
    pytest.param(42, "int", id="int"),
    pytest.param(["a", "list"], "list", id="list"),
]


@pytest.mark.parametrize("value, typename", WRONG_VALUES)
def test_single_operations_refuse_non_bytes(key, pub, value, typename):
    sig = key.sign(b"m", PKCS, SHA256)
    cases = [
        (lambda: key.sign(value, PKCS, SHA256), "data"),
        (lambda: pub.verify(value, b"m", PKCS, SHA256), "signature"),
        (lambda: pub.verify(sig, value, PKCS, SHA256), "data"),
        (lambda: pub.encrypt(value, OAEP), "plaintext"),
        (lambda: key.decrypt(value, OAEP), "ciphertext"),
        (lambda: redc.load_pem_private_key(value, None), "data"),
        (lambda: redc.load_der_public_key(value), "data"),
    ]
    for call, what in cases:
        with raises(TypeError, what) as e:
            call()
        assert typename in str(e.value)


@pytest.mark.parametrize(
    "call, exc, what",
    [
        pytest.param(lambda k: k.sign(b"m", None, SHA256), TypeError, "padding", id="padding-None"),
        pytest.param(lambda k: k.sign(b"m", "PSS", SHA256), TypeError, "padding", id="padding-str"),
        pytest.param(lambda k: k.sign(b"m", PKCS, None), TypeError, "algorithm", id="algorithm-None"),
        pytest.param(lambda k: k.sign(b"m", PKCS, hashlib.sha256), TypeError, "algorithm", id="algorithm-hashlib"),
        pytest.param(lambda k: k.sign(b"m", PKCS, "md4"), redc.Error, "algorithm", id="hash-name-md4"),
        pytest.param(lambda k: k.sign(b"m", PKCS, ch.MD5()), redc.Error, "algorithm", id="hash-pyca-md5"),
        pytest.param(lambda k: k.sign(b"m", PKCS, ch.SM3()), redc.Error, "algorithm", id="hash-pyca-sm3"),
        pytest.param(
            lambda k: k.sign(b"m", rp.PSS(rp.MGF1(ch.MD5()), 0), SHA256), redc.Error, "mgf", id="mgf-unknown"
        ),
        pytest.param(lambda k: k.sign(b"m", rp.PSS(None, 0), SHA256), TypeError, "mgf", id="mgf-None"),
        pytest.param(
            lambda k: k.public_key().encrypt(b"m", rp.OAEP(rp.MGF1(SHA256), SHA256, "label")),
            TypeError,
            "label",
            id="label-str",
        ),
        pytest.param(
            lambda k: k.public_key().encrypt(b"m", rp.OAEP(rp.MGF1(SHA256), rh.SHA1(), None)),
            None,
            None,
            id="oaep-mixed-ok",
        ),
        pytest.param(lambda k: k.sign(b"m", OAEP, SHA256), redc.Error, "padding", id="OAEP-to-sign"),
        pytest.param(
            lambda k: k.public_key().verify(b"s" * 256, b"m", OAEP, SHA256), redc.Error, "padding", id="OAEP-to-verify"
        ),
        pytest.param(lambda k: k.public_key().encrypt(b"m", PSS), redc.Error, "padding", id="PSS-to-encrypt"),
        pytest.param(lambda k: k.decrypt(b"c" * 256, PSS), redc.Error, "padding", id="PSS-to-decrypt"),
        pytest.param(
            lambda k: k.public_key().encrypt_batch([b"m"], PSS), redc.Error, "padding", id="PSS-to-encrypt_batch"
        ),
        pytest.param(
            lambda k: k.sign(b"m", rp.PSS(rp.MGF1(SHA256), rp.PSS.AUTO), SHA256),
            redc.Error,
            "salt_length",
            id="AUTO-to-sign",
        ),
        pytest.param(
            lambda k: k.sign(b"m", cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.AUTO), ch.SHA256()),
            redc.Error,
            "salt_length",
            id="pyca-AUTO-to-sign",
        ),
        pytest.param(
            lambda k: k.sign_batch([b"m"], rp.PSS(rp.MGF1(SHA256), rp.PSS.AUTO), SHA256),
            redc.Error,
            "salt_length",
            id="AUTO-to-sign_batch",
        ),
        pytest.param(
            lambda k: k.sign(b"m", rp.PSS(rp.MGF1(SHA256), 2**64), SHA256), redc.Error, "salt_length", id="salt-2**64"
        ),
        pytest.param(lambda k: rp.PSS(rp.MGF1(SHA256), -1), ValueError, "salt_length", id="salt-negative"),
        pytest.param(lambda k: rp.PSS(rp.MGF1(SHA256), "max"), TypeError, "salt_length", id="salt-str"),
        pytest.param(
            lambda k: k.sign(b"m" * 31, PKCS, Prehashed(SHA256)), redc.Error, "data", id="prehashed-short-digest"
        ),
        pytest.param(
            lambda k: k.sign(b"m" * 32, PKCS, cu.Prehashed(ch.SHA512())), redc.Error, "data", id="pyca-prehashed-short"
        ),
        pytest.param(lambda k: k.sign_batch([b"m"], PKCS, SHA256, backend="bogus"), redc.Error, "backend", id="backend"),
        pytest.param(lambda k: redc.modexp(2, 3, 5, backend="gpu0"), redc.Error, "backend", id="modexp-backend"),
        pytest.param(lambda k: redc.engine_info("nope"), redc.Error, "backend", id="engine_info-backend"),
        pytest.param(lambda k: k.private_bytes("PEM", rs.PrivateFormat.PKCS8, NOENC), ValueError, "encoding", id="enc-str"),
        pytest.param(
            lambda k: k.private_bytes(cs.Encoding.OpenSSH, rs.PrivateFormat.PKCS8, NOENC),
            ValueError,
            "encoding",
            id="enc-openssh",
        ),
        pytest.param(
            lambda k: k.private_bytes(rs.Encoding.PEM, cs.PrivateFormat.OpenSSH, NOENC), ValueError, "format", id="fmt-openssh"
        ),
        pytest.param(
            lambda k: k.private_bytes(rs.Encoding.PEM, rs.PublicFormat.PKCS1, NOENC), ValueError, "format", id="fmt-public"
        ),
        pytest.param(
            lambda k: k.public_key().public_bytes(rs.Encoding.PEM, rs.PrivateFormat.PKCS8),
            ValueError,
            "format",
            id="public-fmt-private",
        ),
        pytest.param(
            lambda k: k.public_key().public_bytes(cs.Encoding.PEM, cs.PublicFormat.OpenSSH),
            ValueError,
            "format",
            id="public-fmt-openssh",
        ),
        pytest.param(
            lambda k: k.private_bytes(rs.Encoding.PEM, rs.PrivateFormat.PKCS8, None),
            TypeError,
            "encryption_algorithm",
            id="encryption-None",
        ),
        pytest.param(
            lambda k: k.private_bytes(
                rs.Encoding.PEM, rs.PrivateFormat.TraditionalOpenSSL, rs.BestAvailableEncryption(b"pw")
            ),
            redc.Error,
            "encryption_algorithm",
            id="encrypted-pkcs1",
        ),
        pytest.param(lambda k: rs.BestAvailableEncryption(b""), ValueError, "password", id="empty-password"),
        pytest.param(lambda k: redc.generate_private_key("65537", 2048), TypeError, "public_exponent", id="gen-e-str"),
        pytest.param(lambda k: redc.generate_private_key(4, 1024), redc.Error, "public_exponent", id="gen-e-even"),
        pytest.param(lambda k: redc.generate_private_key(2**257 + 1, 1024), redc.Error, "public_exponent", id="gen-e-big"),
        pytest.param(lambda k: redc.generate_private_key(-3, 1024), ValueError, "public_exponent", id="gen-e-neg"),
        pytest.param(lambda k: redc.generate_private_key(65537, 512), redc.Error, "key_size", id="gen-512"),
        pytest.param(lambda k: redc.generate_private_key(65537, 1024.0), TypeError, "key_size", id="gen-float"),
        pytest.param(lambda k: redc.generate_private_key(65537, 10**30), redc.Error, "key_size", id="gen-10**30"),
        pytest.param(lambda k: redc.generate_private_key(65537, 2**64), redc.Error, "key_size", id="gen-2**64"),
        pytest.param(lambda k: redc.generate_private_key(65537, 1024, primes=0), ValueError, "primes", id="gen-primes-0"),
        pytest.param(
            lambda k: redc.generate_private_key(65537, 1024, primes=2**70), redc.Error, "primes", id="gen-primes-huge"
        ),
        pytest.param(
            lambda k: redc.generate_private_key(65537, 1024, primes=4), redc.Error, "primes", id="gen-primes-4-of-1024"
        ),
        pytest.param(lambda k: redc.modexp("3", 1, 5), TypeError, "base", id="modexp-base-str"),
        pytest.param(lambda k: redc.modexp(3, 1.0, 5), TypeError, "exp", id="modexp-exp-float"),
        pytest.param(lambda k: redc.modexp(3, 1, None), TypeError, "mod", id="modexp-mod-None"),
        pytest.param(lambda k: redc.modexp(3, 1, 0), ValueError, "mod", id="modexp-mod-0"),
        pytest.param(lambda k: redc.modexp(6, -1, 9), ValueError, "base", id="modexp-not-invertible"),
    ],
)
def test_bad_argument_named(key, call, exc, what):
    if exc is None:  # a control: the call is fine
        call(key)
        return
    with raises(exc, what):
        call(key)


def test_bad_modexp_arguments_as_pow(key):
    # pow is the oracle: the same exception type for the same input.
    for args in ((3, 1, 0), (6, -1, 9), (0, -2, 5)):
        with pytest.raises(ValueError):
            pow(*args)
        with pytest.raises(ValueError):
            redc.modexp(*args)
    with pytest.raises(TypeError):
        pow(3, 1.5, 5)
    with pytest.raises(TypeError):
        redc.modexp(3, 1.5, 5)


# --- lone bytes as a batch, and other non-sequences -------------------------------

LONE = [
    pytest.param(b"abc", "bytes", id="bytes"),
    pytest.param(bytearray(b"abc"), "bytearray", id="bytearray"),
    pytest.param("abc", "str", id="str"),
    pytest.param(None, "NoneType", id="None"),
    pytest.param(7, "int", id="int"),
]


@pytest.mark.parametrize("value, typename", LONE)
def test_batch_refuses_a_lone_item(key, pub, value, typename):
    sig = key.sign(b"m", PKCS, SHA256)
    cases = [
        (lambda: key.sign_batch(value, PKCS, SHA256), "messages"),
        (lambda: key.decrypt_batch(value, PKCS), "ciphertexts"),
        (lambda: pub.encrypt_batch(value, PKCS), "messages"),
        (lambda: pub.verify_batch(value, [sig], PKCS, SHA256), "messages"),
        (lambda: pub.verify_batch([b"m"], value, PKCS, SHA256), "signatures"),
        (lambda: redc.modexp_batch(value, 3, 5), "bases"),
    ]
    for call, what in cases:
        with raises(TypeError, what) as e:
            call()
        assert typename in str(e.value)


def test_batch_refuses_multidimensional_arrays(key):
    with raises(TypeError, "messages"):
        key.sign_batch(np.array([[b"a", b"b"]], dtype=object), PKCS, SHA256)
    with raises(TypeError, "messages"):
        key.sign_batch(np.zeros((2, 2), dtype="S4"), PKCS, SHA256)


def test_verify_batch_length_mismatch(key, pub):
    sigs = key.sign_batch([b"a", b"b"], PKCS, SHA256)
    with raises(redc.Error, "signatures") as e:
        pub.verify_batch([b"a", b"b", b"c"], sigs, PKCS, SHA256)
    assert "2 signatures for 3 messages" in str(e.value)
    with raises(redc.Error, "signatures"):
        pub.verify_batch([b"a"], sigs, PKCS, SHA256)
    with raises(redc.Error, "signatures"):
        pub.verify_batch([], sigs, PKCS, SHA256)


def test_modexp_batch_length_mismatch():
    with raises(ValueError, "exponents"):
        redc.modexp_batch([1, 2, 3], [1, 2], 5)
    with raises(ValueError, "moduli"):
        redc.modexp_batch([1, 2, 3], 1, [5, 7])
    with raises(TypeError, "bases[1]"):
        redc.modexp_batch([1, "2", 3], 1, 5)
    with raises(TypeError, "moduli[0]"):
        redc.modexp_batch([1], 1, [5.0])


# --- wrong key kinds ---------------------------------------------------------------


def test_public_key_file_to_private_loader(files):
    for data in (files["pub_pem"], files["pub_pkcs1_pem"]):
        with raises(redc.Error, "data") as e:
            redc.load_pem_private_key(data, None)
        assert "public key" in str(e.value)
    with raises(redc.Error, "data"):
        redc.load_der_private_key(files["pub_der"], None)
    with raises(redc.Error, "data"):
        redc.load_private_key(files["pub_der"])


def test_private_key_file_to_public_loader(files):
    for data in (files["priv_pem"], files["priv_pkcs1_pem"]):
        with raises(redc.Error, "data") as e:
            redc.load_pem_public_key(data)
        assert "private key" in str(e.value)
    with raises(redc.Error, "data"):
        redc.load_der_public_key(files["priv_der"])
    # load_public_key (not pyca's name) takes the public half on purpose.
    assert redc.load_public_key(files["priv_pem"]) == redc.load_public_key(files["pub_pem"])


@pytest.fixture(scope="session")
def other_keys():
    """Non-RSA keys written by pyca: (name, private PEM, private DER, public PEM)."""
    out = []
    for name, k in (
        ("EC", ec.generate_private_key(ec.SECP256R1())),
        ("DSA", dsa.generate_private_key(1024)),
        ("Ed25519", ed25519.Ed25519PrivateKey.generate()),
    ):
        out.append(
            (
                name,
                k.private_bytes(cs.Encoding.PEM, cs.PrivateFormat.PKCS8, cs.NoEncryption()),
                k.private_bytes(cs.Encoding.DER, cs.PrivateFormat.PKCS8, cs.NoEncryption()),
                k.public_key().public_bytes(cs.Encoding.PEM, cs.PublicFormat.SubjectPublicKeyInfo),
            )
        )
        if name != "Ed25519":  # "EC PRIVATE KEY", "DSA PRIVATE KEY"
            trad = k.private_bytes(cs.Encoding.PEM, cs.PrivateFormat.TraditionalOpenSSL, cs.NoEncryption())
            out.append((name + "-traditional", trad, None, None))
    return out


def test_non_rsa_keys_refused(other_keys):
    for name, pem, der, pub_pem in other_keys:
        with raises(redc.Error, "data"):
            redc.load_pem_private_key(pem, None)
        if der is not None:
            with raises(redc.Error, "data") as e:
                redc.load_der_private_key(der, None)
            assert "RSA" in str(e.value), name
        if pub_pem is not None:
            with raises(redc.Error, "data") as e:
                redc.load_pem_public_key(pub_pem)
            assert "RSA" in str(e.value), name


# --- lengths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rpad, cpad, longest",
    [
        pytest.param(OAEP, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), None), 256 - 66, id="oaep-sha256"),
        pytest.param(
            rp.OAEP(rp.MGF1(rh.SHA1()), rh.SHA1(), b"l"), cp.OAEP(cp.MGF1(ch.SHA1()), ch.SHA1(), b"l"), 256 - 42, id="oaep-sha1"
        ),
        pytest.param(PKCS, cp.PKCS1v15(), 256 - 11, id="pkcs1v15"),
    ],
)
def test_over_long_plaintext(key, key_pyca, rpad, cpad, longest):
    pub = key.public_key()
    # The oracle draws the line at the same length.
    key_pyca.public_key().encrypt(b"x" * longest, cpad)
    with pytest.raises(ValueError):
        key_pyca.public_key().encrypt(b"x" * (longest + 1), cpad)
    assert key.decrypt(pub.encrypt(b"x" * longest, rpad), rpad) == b"x" * longest
    for n in (longest + 1, 256, 10_000):
        with raises(redc.Error, "plaintext") as e:
            pub.encrypt(b"x" * n, rpad)
        assert "too long" in str(e.value)
    # In a batch: the slot, named, and the rest answered.
    out = pub.encrypt_batch([b"a", b"x" * (longest + 1), b"b"], rpad)
    assert isinstance(out[1], redc.Error) and str(out[1]).startswith("messages[1]:")
    assert [key_pyca.decrypt(out[i], cpad) for i in (0, 2)] == [b"a", b"b"]


def test_oaep_hash_too_big_for_key(key3, key3_pyca_public):
    # OAEP-SHA-512 needs 2*64+2 = 130 bytes of a 128-byte modulus: pyca
    # refuses even an empty message, and so does redc, naming it.
    with pytest.raises(ValueError):
        key3_pyca_public.encrypt(b"", cp.OAEP(cp.MGF1(ch.SHA512()), ch.SHA512(), None))
    with raises(redc.Error, "plaintext"):
        key3.public_key().encrypt(b"", rp.OAEP(rp.MGF1(rh.SHA512()), rh.SHA512(), None))


@pytest.mark.parametrize("pad, cpad", [(OAEP, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), None)), (PKCS, cp.PKCS1v15())])
def test_ciphertext_of_wrong_length_or_too_big(key, key_pyca, pad, cpad):
    good = key.public_key().encrypt(b"hello", pad)
    n = key.public_key().public_numbers().n
    bad = [b"", good[:-1], good + b"\x00", b"\x00" + good, (2**2048 - 1).to_bytes(256, "big"), (n).to_bytes(256, "big")]
    for c in bad:
        with pytest.raises(ValueError):  # the oracle refuses each
            key_pyca.decrypt(c, cpad)
        with raises(redc.DecryptionError, "ciphertext"):
            key.decrypt(c, pad)
    out = key.decrypt_batch([good] + bad + [good], pad)
    assert out[0] == out[-1] == b"hello"
    for i in range(1, len(bad) + 1):
        assert isinstance(out[i], redc.DecryptionError)
        assert str(out[i]).startswith(f"ciphertexts[{i}]:")


def test_signature_of_wrong_length_is_invalid(key, pub):
    sig = key.sign(b"m", PSS, SHA256)
    for bad in (b"", sig[:-1], sig + b"\x00", b"\x00" + sig, b"\xff" * 256):
        with pytest.raises(redc.InvalidSignature):
            pub.verify(bad, b"m", PSS, SHA256)
    assert pub.verify_batch([b"m"] * 3, [sig, sig[:-1], b""], PSS, SHA256).tolist() == [True, False, False]


# --- passwords -----------------------------------------------------------------------


def test_wrong_or_missing_password(files, pyca_key):
    pyca_enc = pyca_key.private_bytes(cs.Encoding.PEM, cs.PrivateFormat.PKCS8, cs.BestAvailableEncryption(b"secret"))
    for data in (files["enc_pem"], files["enc_der"], pyca_enc):
        load = redc.load_pem_private_key if data.startswith(b"-----") else redc.load_der_private_key
        with raises(redc.WrongPassword, "data") as e:
            load(data, b"not the password")
        assert "wrong password" in str(e.value)
        with raises(redc.WrongPassword, "data") as e:
            load(data, None)
        assert "password" in str(e.value)
        with raises(TypeError, "password"):
            load(data, "secret")
        assert load(data, b"secret").key_size == 2048
        # pyca agrees on which password opens it.
        pyca_load = cs.load_pem_private_key if data.startswith(b"-----") else cs.load_der_private_key
        with pytest.raises(ValueError):
            pyca_load(data, b"not the password")
    assert issubclass(redc.WrongPassword, ValueError)


def test_legacy_encrypted_pem_refused_with_advice(pyca_key):
    legacy = pyca_key.private_bytes(cs.Encoding.PEM, cs.PrivateFormat.TraditionalOpenSSL, cs.BestAvailableEncryption(b"pw"))
    assert b"Proc-Type: 4,ENCRYPTED" in legacy
    with raises(redc.Error, "data") as e:
        redc.load_pem_private_key(legacy, b"pw")
    assert "openssl pkcs8" in str(e.value)


# --- garbage key files -----------------------------------------------------------------

GARBAGE = [
    b"",
    b"\x00",
    b"hello",
    b"\x30",
    b"\x30\x00",
    b"\x30\x03\x02\x01\x00",
    b"\x30\x84\xff\xff\xff\xff" + bytes(16),  # a 4 GiB length
    b"\x30\x89" + b"\xff" * 9 + bytes(16),  # a length longer than 8 bytes
    b"-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n",
    b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    b"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n",
    b"-----BEGIN PRIVATE KEY-----\nMIIB\n",  # no END line
    b"-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n",
    b"-----BEGIN RSA PUBLIC KEY-----\nMAA=\n-----END RSA PUBLIC KEY-----\n",
    bytes(range(256)) * 8,
]


@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_key_files(data):
    for load in (
        lambda d: redc.load_pem_private_key(d, None),
        lambda d: redc.load_der_private_key(d, b"pw"),
        redc.load_pem_public_key,
        redc.load_der_public_key,
        redc.load_public_key,
    ):
        with raises(redc.Error, "data"):
            load(data)
    # The oracle refuses them too.
    with pytest.raises((ValueError, TypeError)):
        cs.load_der_private_key(data, None)


def test_truncated_and_bit_flipped_key_files(key, files):
    der = files["priv_der"]
    # Every prefix (in steps) is refused with a named error.
    for end in list(range(0, len(der), 13)) + [len(der) - 1]:
        with raises(redc.Error, "data"):
            redc.load_der_private_key(der[:end], None)
    # A flipped bit anywhere either is refused or gives a key that signs
    # correctly (checked by pyca); it never loads a key that signs wrongly.
    for i in range(0, len(der), 5):
        flipped = bytearray(der)
        flipped[i] ^= 0x10
        try:
            k = redc.load_der_private_key(bytes(flipped), None)
        except redc.Error as e:
            assert str(e).startswith("data:")
            continue
        try:
            sig = k.sign(b"m", PKCS, SHA256)
        except redc.Error:
            continue
        n = k.public_key().public_bytes(rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo)
        cs.load_der_public_key(n).verify(sig, b"m", cp.PKCS1v15(), ch.SHA256())


# --- batches with bad items ----------------------------------------------------------


@pytest.mark.parametrize("position", [0, 2, 4])
def test_sign_batch_bad_item_answered_in_its_slot(key, key_pyca, backend, position):
    msgs = [b"zero", b"one", b"two", b"three", b"four"]
    bad_items = ["text", None, 3, memoryview(b"x")]
    for bad in bad_items:
        items = list(msgs)
        items[position] = bad
        out = key.sign_batch(items, PKCS, SHA256, backend=backend)
        assert len(out) == len(items)
        err = out[position]
        assert isinstance(err, TypeError)
        assert str(err).startswith(f"messages[{position}]:")
        assert type(bad).__name__ in str(err)
        for i, m in enumerate(items):
            if i != position:
                assert out[i] == key_pyca.sign(m, cp.PKCS1v15(), ch.SHA256())


def test_batches_with_several_bad_items(key, key_pyca, backend):
    pub = key.public_key()
    good = key.sign(b"b", PKCS, SHA256)
    # verify_batch: a malformed item is just not valid.
    got = pub.verify_batch([b"a", "b", b"b", None], [good, good, good, good], PKCS, SHA256, backend=backend)
    assert got.tolist() == [False, False, True, False]
    got = pub.verify_batch([b"b", b"b"], [None, good], PKCS, SHA256, backend=backend)
    assert got.tolist() == [False, True]
    # encrypt_batch / decrypt_batch: the exceptions in their slots.
    cts = pub.encrypt_batch([b"a", None, b"c", "d"], OAEP, backend=backend)
    assert [type(c) for c in cts] == [bytes, TypeError, bytes, TypeError]
    assert str(cts[1]).startswith("messages[1]:") and str(cts[3]).startswith("messages[3]:")
    pts = key.decrypt_batch([cts[0], cts[1], cts[2], b"\x00" * 256, 5], OAEP, backend=backend)
    assert pts[0] == b"a" and pts[2] == b"c"
    assert isinstance(pts[1], TypeError) and str(pts[1]).startswith("ciphertexts[1]:")
    assert isinstance(pts[3], redc.DecryptionError) and str(pts[3]).startswith("ciphertexts[3]:")
    assert isinstance(pts[4], TypeError) and str(pts[4]).startswith("ciphertexts[4]:")
    # modexp_batch: pow's errors in their slots.
    out = redc.modexp_batch([2, 6, 3, 4], [5, -1, 2, 1], [7, 9, 0, 5], backend=backend)
    assert out[0] == pow(2, 5, 7) and out[3] == pow(4, 1, 5)
    assert isinstance(out[1], ValueError) and str(out[1]).startswith("bases[1]:")
    assert isinstance(out[2], ValueError) and str(out[2]).startswith("moduli[2]:")


def test_sign_batch_prehashed_wrong_digest_in_slot(key, key_pyca):
    d = hashlib.sha256(b"x").digest()
    out = key.sign_batch([d, d[:-1], d], PKCS, Prehashed(SHA256))
    assert out[0] == out[2] == key_pyca.sign(b"x", cp.PKCS1v15(), ch.SHA256())
    assert isinstance(out[1], redc.Error) and str(out[1]).startswith("messages[1]:")


# --- NumPy and Arrow inputs ----------------------------------------------------------------


def test_numpy_object_arrays(key, key_pyca, backend):
    msgs = [b"a", b"", b"ccc\x00"]
    arr = np.array(msgs, dtype=object)
    out = key.sign_batch(arr, PKCS, SHA256, backend=backend)
    assert out == [key_pyca.sign(m, cp.PKCS1v15(), ch.SHA256()) for m in msgs]
    sigs = np.array(out, dtype=object)
    assert key.public_key().verify_batch(arr, sigs, PKCS, SHA256, backend=backend).tolist() == [True] * 3
    # A bad object in the array: its slot, named.
    out = key.sign_batch(np.array([b"a", None, "s"], dtype=object), PKCS, SHA256, backend=backend)
    assert out[0] == key_pyca.sign(b"a", cp.PKCS1v15(), ch.SHA256())
    assert isinstance(out[1], TypeError) and str(out[1]).startswith("messages[1]:")
    assert isinstance(out[2], TypeError) and str(out[2]).startswith("messages[2]:")
    # A unicode array: every item is a str, each refused in its slot.
    out = key.sign_batch(np.array(["x", "y"]), PKCS, SHA256)
    assert all(isinstance(o, TypeError) and "str" in str(o) for o in out)


def test_numpy_fixed_width_arrays_are_refused(key):
    # NumPy's 'S' items drop trailing zero bytes (arr[1] == b"ab"): taking
    # them item by item would sign or verify other bytes than the caller's,
    # taking them whole other bytes than NumPy shows. Refused, naming the fix.
    arr = np.array([b"ab", b"ab\x00"], dtype="S4")
    assert arr[1] == b"ab"  # NumPy's own view
    for call in (
        lambda: key.sign_batch(arr, PKCS, SHA256),
        lambda: key.public_key().verify_batch([b"ab", b"ab"], arr, PKCS, SHA256),
        lambda: key.decrypt_batch(arr, OAEP),
    ):
        with pytest.raises(TypeError, match="dtype=object"):
            call()
    # The same items as an object array are taken as they are.
    obj = np.array([b"ab", b"ab\x00"], dtype=object)
    out = key.sign_batch(obj, PKCS, SHA256)
    assert out[0] != out[1]

def test_arrow_arrays_with_a_null(key, key_pyca, backend):
    expect = key_pyca.sign(b"a", cp.PKCS1v15(), ch.SHA256()), key_pyca.sign(b"c", cp.PKCS1v15(), ch.SHA256())
    for arr in (
        pa.array([b"a", None, b"c"], pa.binary()),
        pa.array([b"a", None, b"c"], pa.large_binary()),
        pa.chunked_array([[b"a", None], [b"c"]], pa.binary()),
        pa.chunked_array([[b"a"], [], [None, b"c"]], pa.large_binary()),
    ):
        out = key.sign_batch(arr, PKCS, SHA256, backend=backend)
        assert (out[0], out[2]) == expect
        assert isinstance(out[1], TypeError) and str(out[1]).startswith("messages[1]:")
        assert "NoneType" in str(out[1])
        sigs = pa.array([out[0], None, out[2]], pa.binary())
        assert key.public_key().verify_batch(arr, sigs, PKCS, SHA256, backend=backend).tolist() == [True, False, True]
    # Ciphertexts from Arrow.
    cts = pa.chunked_array([[key.public_key().encrypt(b"x", OAEP)], [None]], pa.binary())
    out = key.decrypt_batch(cts, OAEP, backend=backend)
    assert out[0] == b"x" and isinstance(out[1], TypeError) and str(out[1]).startswith("ciphertexts[1]:")
    # A string column: every item refused in its slot.
    out = key.sign_batch(pa.array(["a", "b"]), PKCS, SHA256)
    assert all(isinstance(o, TypeError) for o in out)


def test_other_iterables(key, key_pyca):
    msgs = (b"t", bytearray(b"u"))
    expect = [key_pyca.sign(bytes(m), cp.PKCS1v15(), ch.SHA256()) for m in msgs]
    assert key.sign_batch(msgs, PKCS, SHA256) == expect
    assert key.sign_batch((m for m in msgs), PKCS, SHA256) == expect
    assert key.sign(bytearray(b"u"), PKCS, SHA256) == expect[1]


# --- secrets: repr and pickle ---------------------------------------------------------


def secrets_of(key):
    """The numbers of ``key`` (from pyca's view of its key file) as the
    strings a leak would show: decimal and hexadecimal."""
    der = key.private_bytes(rs.Encoding.DER, rs.PrivateFormat.PKCS8, NOENC)
    pn = cs.load_der_private_key(der, None).private_numbers()
    values = [pn.p, pn.q, pn.d, pn.dmp1, pn.dmq1, pn.iqmp, pn.public_numbers.n]
    out = []
    for v in values:
        out += [str(v)[:24], f"{v:x}"[:24], f"{v:X}"[:24], v.to_bytes((v.bit_length() + 7) // 8, "big")[:12].hex()]
    return out


def test_private_key_repr_reveals_no_secret(key, pyca_key_redc):
    for k in (key, pyca_key_redc):
        texts = [repr(k), str(k), repr(k._key), str(k._key), f"{k!r}", repr(k.public_key())]
        for secret in secrets_of(k):
            for text in texts:
                assert secret not in text
        assert "2048" in repr(k)
        assert k.public_key().key_id[:16] in repr(k)


def test_three_prime_key_repr_reveals_no_modulus(key3):
    n = key3.public_key().public_numbers().n
    for text in (repr(key3), str(key3), repr(key3._key)):
        assert str(n)[:24] not in text and f"{n:x}"[:24] not in text
    assert "3 primes" in repr(key3)


def test_private_key_not_pickled(key):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match="not pickled"):
            pickle.dumps(key, protocol=protocol)
    with pytest.raises(TypeError):
        copy.deepcopy(key)
    with pytest.raises(TypeError):
        pickle.dumps(key._key)  # the extension's key object neither


def test_public_key_pickle_round_trip(key, key_pyca, key3):
    sig = key_pyca.sign(b"p", cp.PKCS1v15(), ch.SHA256())
    for pub in (key.public_key(), key3.public_key()):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            data = pickle.dumps(pub, protocol=protocol)
            back = pickle.loads(data)
            assert isinstance(back, redc.RSAPublicKey)
            assert back == pub and hash(back) == hash(pub)
            assert back.key_id == pub.key_id and back.key_size == pub.key_size
    back = pickle.loads(pickle.dumps(key.public_key()))
    back.verify(sig, b"p", rp.PKCS1v15(), rh.SHA256())
    assert back != key3.public_key()


# --- crashes: in a subprocess, so a segfault fails the test instead of pytest ------------

CRASH_SCRIPT = textwrap.dedent(
    r"""
    import sys
    import numpy as np
    import pyarrow as pa
    import redc
    from redc import hashes as rh, padding as rp

    key = redc.generate_private_key(65537, 1024, security_level=1)
    pub = key.public_key()
    PKCS, SHA = rp.PKCS1v15(), rh.SHA256()
    OAEP = rp.OAEP(rp.MGF1(SHA), SHA, None)
    PSS = rp.PSS(rp.MGF1(SHA), rp.PSS.MAX_LENGTH)
    cases = {
        "empty sign_batch": lambda: key.sign_batch([], PKCS, SHA) == [],
        "empty verify_batch": lambda: pub.verify_batch([], [], PSS, SHA).shape == (0,),
        "empty encrypt_batch": lambda: pub.encrypt_batch([], OAEP) == [],
        "empty decrypt_batch": lambda: key.decrypt_batch([], OAEP) == [],
        "empty modexp_batch": lambda: redc.modexp_batch([], [], []) == [],
        "empty numpy object": lambda: key.sign_batch(np.array([], dtype=object), PKCS, SHA) == [],
        "empty arrow": lambda: key.sign_batch(pa.array([], pa.binary()), PKCS, SHA) == [],
        "empty chunked": lambda: key.sign_batch(pa.chunked_array([], pa.binary()), PKCS, SHA) == [],
        "20000 empty messages": lambda: len(key.sign_batch([b""] * 20000, PKCS, SHA)) == 20000,
        "20000 bad items": lambda: all(isinstance(x, TypeError) for x in key.sign_batch([None] * 20000, PKCS, SHA)),
        "64 MiB message": lambda: len(key.sign(b"\xab" * (64 << 20), PKCS, SHA)) == 128,
        "16 MiB ciphertext": lambda: key.decrypt(b"\x01" * (16 << 20), PKCS),
        "16 MiB signature": lambda: pub.verify(b"\x01" * (16 << 20), b"m", PSS, SHA),
        "16 MiB label": lambda: len(pub.encrypt(b"m", rp.OAEP(rp.MGF1(SHA), SHA, b"L" * (16 << 20)))) == 128,
        "16 MiB garbage PEM": lambda: redc.load_pem_private_key(
            b"-----BEGIN PRIVATE KEY-----\n" + b"QUFB" * (4 << 20) + b"\n-----END PRIVATE KEY-----\n", None),
        "16 MiB garbage DER": lambda: redc.load_der_private_key(b"\x30\x84\x01\x00\x00\x00" + bytes(16 << 20), None),
        "salt 2**63-1": lambda: key.sign(b"m", rp.PSS(rp.MGF1(SHA), 2**63 - 1), SHA),
        "verify salt 2**63-1": lambda: pub.verify(b"\x01" * 128, b"m", rp.PSS(rp.MGF1(SHA), 2**63 - 1), SHA),
        "key_size 2**63": lambda: redc.generate_private_key(65537, 2**63),
        "key_size 2**32-1": lambda: redc.generate_private_key(65537, 2**32 - 1),
        "primes 2**31": lambda: redc.generate_private_key(65537, 2048, primes=2**31),
        "modexp 2**60000 modulus": lambda: redc.modexp(3, 2**64 + 1, 2**60000 + 1) == pow(3, 2**64 + 1, 2**60000 + 1),
        "modexp 2**60000 even modulus": lambda: redc.modexp(3, 65537, 2**60000) == pow(3, 65537, 2**60000),
        "modexp 2**200000-bit exponent": lambda: redc.modexp(7, 2**200000 - 1, 2**61 - 1) == pow(7, 2**200000 - 1, 2**61 - 1),
        "modexp_batch 5000": lambda: redc.modexp_batch(list(range(5000)), 3, 2**127 - 1) == [pow(i, 3, 2**127 - 1) for i in range(5000)],
        "modexp_batch one huge": lambda: redc.modexp_batch([5, 5], 3, [2**40000 + 1, 0])[0] == pow(5, 3, 2**40000 + 1),
    }
    for name, case in cases.items():
        try:
            result = case()
            outcome = "ok" if result is True or result is None or isinstance(result, bytes) else f"WRONG {result!r}"
        except (TypeError, ValueError, redc.Error, redc.InvalidSignature) as e:
            outcome = f"raised {type(e).__name__}: {str(e)[:80]}"
        print(f"{name} -> {outcome}", flush=True)
    print("DONE", flush=True)
    """
)


def test_nasty_inputs_do_not_crash(tmp_path):
    script = tmp_path / "nasty.py"
    script.write_text(CRASH_SCRIPT)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    report = run.stdout + run.stderr
    assert run.returncode == 0, f"exit {run.returncode} (a negative code is a signal):\n{report}"
    lines = dict(line.split(" -> ", 1) for line in run.stdout.splitlines() if " -> " in line)
    assert run.stdout.rstrip().endswith("DONE"), report
    assert not [k for k, v in lines.items() if v.startswith("WRONG")], report
    # Where an error is the answer, it is a named error, not a stray one.
    expect_raised = {
        "16 MiB ciphertext": "DecryptionError: ciphertext:",
        "16 MiB signature": "InvalidSignature",
        "16 MiB garbage PEM": "Error: data:",
        "16 MiB garbage DER": "Error: data:",
        "salt 2**63-1": "Error: salt_length:",
        "key_size 2**63": "Error: key_size:",
        "key_size 2**32-1": "Error: key_size:",
        "primes 2**31": "Error: primes:",
    }
    for name, text in expect_raised.items():
        assert text in lines[name], (name, lines[name])
    for name, v in lines.items():
        if name not in expect_raised and name != "verify salt 2**63-1":
            assert v == "ok", (name, v)


def test_bad_redc_backend_environment_fails_import_naming_it():
    code = "import redc; print(redc.engine_info()[0])"
    env = {"REDC_BACKEND": "warp-drive", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "REDC_BACKEND=warp-drive" in run.stderr
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**env, "REDC_BACKEND": "scalar"}, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "scalar"
