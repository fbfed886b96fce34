"""redc against pyca/cryptography (OpenSSL), both ways: signatures, OAEP and
PKCS#1 v1.5 ciphertexts, PKCS#1 v1.5 implicit rejection, key files, and
pyca's own padding/hash/serialization objects handed to redc's keys.

Every check has pyca as the independent side: what one library writes the
other reads, and where a result is deterministic (PKCS#1 v1.5 signatures,
canonical DER, implicit rejection's synthetic message) the bytes must be
equal."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.exceptions import InvalidSignature as PycaInvalidSignature
from cryptography.hazmat.backends.openssl import backend as openssl_backend
from cryptography.hazmat.primitives import hashes as ch
from cryptography.hazmat.primitives import serialization as cs
from cryptography.hazmat.primitives.asymmetric import padding as cp
from cryptography.hazmat.primitives.asymmetric import utils as cu

import redc
from redc import hashes as rh
from redc import padding as rp
from redc import serialization as rs
from redc.utils import Prehashed

MESSAGE = b"interop between redc and pyca/cryptography"

# (redc hash, pyca hash) of the signature tests.
HASHES = [
    pytest.param(rh.SHA1, ch.SHA1, id="sha1"),
    pytest.param(rh.SHA224, ch.SHA224, id="sha224"),
    pytest.param(rh.SHA256, ch.SHA256, id="sha256"),
    pytest.param(rh.SHA384, ch.SHA384, id="sha384"),
    pytest.param(rh.SHA512, ch.SHA512, id="sha512"),
    pytest.param(rh.SHA3_256, ch.SHA3_256, id="sha3-256"),
]

# PSS salt lengths: (redc's, pyca's). 20 is an explicit int; 0 the edge.
SALTS = [
    pytest.param(rp.PSS.MAX_LENGTH, cp.PSS.MAX_LENGTH, id="max"),
    pytest.param(rp.PSS.DIGEST_LENGTH, cp.PSS.DIGEST_LENGTH, id="digest"),
    pytest.param(20, 20, id="20"),
    pytest.param(0, 0, id="0"),
]


def spoil(b: bytes, i: int = -1) -> bytes:
    """``b`` with one bit of byte ``i`` flipped."""
    out = bytearray(b)
    out[i] ^= 0x01
    return bytes(out)


def pyca_salt_len(salt, key_bytes_minus, digest) -> int:
    """The concrete salt length a salt choice means (for a pyca verifier,
    which needs it spelled out unless it uses AUTO)."""
    if salt is cp.PSS.MAX_LENGTH:
        return key_bytes_minus - digest - 2
    if salt is cp.PSS.DIGEST_LENGTH:
        return digest
    return salt


# --- signatures ---------------------------------------------------------------


@pytest.mark.parametrize("rhash, chash", HASHES)
def test_pkcs1v15_signature_bytes_equal_pyca(key, key_pyca, rhash, chash):
    # PKCS#1 v1.5 signatures are deterministic: same key, same bytes.
    sig = key.sign(MESSAGE, rp.PKCS1v15(), rhash())
    assert sig == key_pyca.sign(MESSAGE, cp.PKCS1v15(), chash())
    key_pyca.public_key().verify(sig, MESSAGE, cp.PKCS1v15(), chash())
    with pytest.raises(PycaInvalidSignature):
        key_pyca.public_key().verify(sig, MESSAGE + b"!", cp.PKCS1v15(), chash())


@pytest.mark.parametrize("rhash, chash", HASHES)
def test_pkcs1v15_pyca_signs_redc_verifies(pyca_key, pyca_key_redc, rhash, chash):
    sig = pyca_key.sign(MESSAGE, cp.PKCS1v15(), chash())
    pub = pyca_key_redc.public_key()
    pub.verify(sig, MESSAGE, rp.PKCS1v15(), rhash())
    assert pyca_key_redc.sign(MESSAGE, rp.PKCS1v15(), rhash()) == sig
    with pytest.raises(redc.InvalidSignature):
        pub.verify(spoil(sig), MESSAGE, rp.PKCS1v15(), rhash())
    with pytest.raises(redc.InvalidSignature):
        pub.verify(sig, MESSAGE + b"!", rp.PKCS1v15(), rhash())


@pytest.mark.parametrize("rsalt, csalt", SALTS)
@pytest.mark.parametrize("rhash, chash", HASHES)
def test_pss_redc_signs_pyca_verifies(key, key_pyca, rhash, chash, rsalt, csalt):
    sig = key.sign(MESSAGE, rp.PSS(rp.MGF1(rhash()), rsalt), rhash())
    pub = key_pyca.public_key()
    # pyca verifies with the salt length spelled out, and with AUTO.
    exact = pyca_salt_len(csalt, (key.key_size - 1 + 7) // 8, chash.digest_size)
    pub.verify(sig, MESSAGE, cp.PSS(cp.MGF1(chash()), exact), chash())
    pub.verify(sig, MESSAGE, cp.PSS(cp.MGF1(chash()), cp.PSS.AUTO), chash())
    # A salt length other than the one signed with does not verify.
    with pytest.raises(PycaInvalidSignature):
        pub.verify(sig, MESSAGE, cp.PSS(cp.MGF1(chash()), exact + 1), chash())
    with pytest.raises(PycaInvalidSignature):
        pub.verify(sig, MESSAGE + b"!", cp.PSS(cp.MGF1(chash()), cp.PSS.AUTO), chash())


@pytest.mark.parametrize("rsalt, csalt", SALTS)
@pytest.mark.parametrize("rhash, chash", HASHES)
def test_pss_pyca_signs_redc_verifies(pyca_key, pyca_key_redc, rhash, chash, rsalt, csalt):
    sig = pyca_key.sign(MESSAGE, cp.PSS(cp.MGF1(chash()), csalt), chash())
    pub = pyca_key_redc.public_key()
    pub.verify(sig, MESSAGE, rp.PSS(rp.MGF1(rhash()), rsalt), rhash())
    pub.verify(sig, MESSAGE, rp.PSS(rp.MGF1(rhash()), rp.PSS.AUTO), rhash())
    exact = pyca_salt_len(csalt, (pyca_key.key_size - 1 + 7) // 8, chash.digest_size)
    with pytest.raises(redc.InvalidSignature):
        pub.verify(sig, MESSAGE, rp.PSS(rp.MGF1(rhash()), exact + 1), rhash())
    with pytest.raises(redc.InvalidSignature):
        pub.verify(sig, MESSAGE + b"!", rp.PSS(rp.MGF1(rhash()), rp.PSS.AUTO), rhash())
    with pytest.raises(redc.InvalidSignature):
        pub.verify(spoil(sig, 0), MESSAGE, rp.PSS(rp.MGF1(rhash()), rp.PSS.AUTO), rhash())


def test_pss_mgf1_hash_differs_from_message_hash(key, key_pyca, pyca_key, pyca_key_redc):
    # MGF1 over SHA-1 with a SHA-256 message hash, both ways.
    r = rp.PSS(rp.MGF1(rh.SHA1()), 32)
    c = cp.PSS(cp.MGF1(ch.SHA1()), 32)
    key_pyca.public_key().verify(key.sign(MESSAGE, r, rh.SHA256()), MESSAGE, c, ch.SHA256())
    pyca_key_redc.public_key().verify(pyca_key.sign(MESSAGE, c, ch.SHA256()), MESSAGE, r, rh.SHA256())
    # The MGF1 hash is part of the scheme: SHA-256 MGF1 does not verify it.
    with pytest.raises(PycaInvalidSignature):
        key_pyca.public_key().verify(
            key.sign(MESSAGE, r, rh.SHA256()), MESSAGE, cp.PSS(cp.MGF1(ch.SHA256()), 32), ch.SHA256()
        )


def test_three_prime_key_signatures_verify_in_pyca(key3, key3_pyca_public):
    sig = key3.sign(MESSAGE, rp.PKCS1v15(), rh.SHA256())
    key3_pyca_public.verify(sig, MESSAGE, cp.PKCS1v15(), ch.SHA256())
    sig = key3.sign(MESSAGE, rp.PSS(rp.MGF1(rh.SHA256()), rp.PSS.MAX_LENGTH), rh.SHA256())
    key3_pyca_public.verify(sig, MESSAGE, cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.AUTO), ch.SHA256())
    with pytest.raises(PycaInvalidSignature):
        key3_pyca_public.verify(spoil(sig), MESSAGE, cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.AUTO), ch.SHA256())


# --- Prehashed ----------------------------------------------------------------


@pytest.mark.parametrize("rhash, chash", HASHES)
def test_prehashed_both_ways(key, key_pyca, rhash, chash):
    digest = hashlib.new(chash.name.replace("-", "_"), MESSAGE).digest()
    # redc signs the digest; pyca verifies against the message, and the
    # PKCS#1 v1.5 bytes equal pyca's signature of the digest.
    sig = key.sign(digest, rp.PKCS1v15(), Prehashed(rhash()))
    key_pyca.public_key().verify(sig, MESSAGE, cp.PKCS1v15(), chash())
    assert sig == key_pyca.sign(digest, cp.PKCS1v15(), cu.Prehashed(chash()))
    # pyca signs the digest (PSS); redc verifies the message and the digest.
    pss_c = cp.PSS(cp.MGF1(chash()), cp.PSS.DIGEST_LENGTH)
    pss_r = rp.PSS(rp.MGF1(rhash()), rp.PSS.DIGEST_LENGTH)
    sig = key_pyca.sign(digest, pss_c, cu.Prehashed(chash()))
    key.public_key().verify(sig, MESSAGE, pss_r, rhash())
    key.public_key().verify(sig, digest, pss_r, Prehashed(rhash()))
    with pytest.raises(redc.InvalidSignature):
        key.public_key().verify(sig, spoil(digest), pss_r, Prehashed(rhash()))
    # redc's PSS over a digest, verified by pyca over the message.
    sig = key.sign(digest, pss_r, Prehashed(rhash()))
    key_pyca.public_key().verify(sig, MESSAGE, pss_c, chash())


def test_pyca_prehashed_object_accepted(key, key_pyca):
    digest = hashlib.sha512(MESSAGE).digest()
    sig = key.sign(digest, cp.PKCS1v15(), cu.Prehashed(ch.SHA512()))
    assert sig == key_pyca.sign(MESSAGE, cp.PKCS1v15(), ch.SHA512())
    key.public_key().verify(sig, digest, cp.PKCS1v15(), cu.Prehashed(ch.SHA512()))


# --- encryption ---------------------------------------------------------------

# (redc OAEP, pyca OAEP): the default SHA-1, SHA-256, with and without a label.
OAEPS = [
    pytest.param(
        lambda: rp.OAEP(rp.MGF1(rh.SHA1()), rh.SHA1(), None),
        lambda: cp.OAEP(cp.MGF1(ch.SHA1()), ch.SHA1(), None),
        20,
        id="sha1",
    ),
    pytest.param(
        lambda: rp.OAEP(rp.MGF1(rh.SHA1()), rh.SHA1(), b"a label"),
        lambda: cp.OAEP(cp.MGF1(ch.SHA1()), ch.SHA1(), b"a label"),
        20,
        id="sha1-label",
    ),
    pytest.param(
        lambda: rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), None),
        lambda: cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), None),
        32,
        id="sha256",
    ),
    pytest.param(
        lambda: rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), b"\x00label\xff"),
        lambda: cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), b"\x00label\xff"),
        32,
        id="sha256-label",
    ),
    pytest.param(
        lambda: rp.OAEP(rp.MGF1(rh.SHA1()), rh.SHA256(), None),
        lambda: cp.OAEP(cp.MGF1(ch.SHA1()), ch.SHA256(), None),
        32,
        id="sha256-mgf1-sha1",
    ),
]


@pytest.mark.parametrize("roaep, coaep, hlen", OAEPS)
def test_oaep_pyca_encrypts_redc_decrypts(key, key_pyca, roaep, coaep, hlen):
    longest = 256 - 2 * hlen - 2
    for m in (b"", b"x", MESSAGE, bytes(range(256))[:longest]):
        ct = key_pyca.public_key().encrypt(m, coaep())
        assert key.decrypt(ct, roaep()) == m
    with pytest.raises(redc.DecryptionError):
        key.decrypt(spoil(ct, 100), roaep())


@pytest.mark.parametrize("roaep, coaep, hlen", OAEPS)
def test_oaep_redc_encrypts_pyca_decrypts(key, key_pyca, roaep, coaep, hlen):
    longest = 256 - 2 * hlen - 2
    for m in (b"", b"y", MESSAGE, bytes(range(255, -1, -1))[:longest]):
        ct = key.public_key().encrypt(m, roaep())
        assert len(ct) == 256
        assert key_pyca.decrypt(ct, coaep()) == m
    # Both refuse one byte more than the longest message.
    with pytest.raises(ValueError):
        key_pyca.public_key().encrypt(b"z" * (longest + 1), coaep())
    with pytest.raises(redc.Error, match="^plaintext:"):
        key.public_key().encrypt(b"z" * (longest + 1), roaep())


def test_oaep_wrong_label_fails_both(key, key_pyca):
    ct = key.public_key().encrypt(MESSAGE, rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), b"one"))
    with pytest.raises(ValueError):
        key_pyca.decrypt(ct, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), b"two"))
    with pytest.raises(redc.DecryptionError):
        key.decrypt(ct, rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), b"two"))
    assert key_pyca.decrypt(ct, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), b"one")) == MESSAGE


def test_pkcs1v15_encryption_both_ways(key, key_pyca, key3, key3_pyca_public):
    for m in (b"", b"k", MESSAGE, b"\x00" * 245):
        assert key.decrypt(key_pyca.public_key().encrypt(m, cp.PKCS1v15()), rp.PKCS1v15()) == m
        assert key_pyca.decrypt(key.public_key().encrypt(m, rp.PKCS1v15()), cp.PKCS1v15()) == m
    # The three-prime key decrypts what pyca encrypts to its public key.
    ct = key3_pyca_public.encrypt(MESSAGE, cp.PKCS1v15())
    assert key3.decrypt(ct, rp.PKCS1v15()) == MESSAGE
    ct = key3_pyca_public.encrypt(MESSAGE, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), None))
    assert key3.decrypt(ct, cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), None)) == MESSAGE
    # Longest: k - 11 = 245 bytes; 246 refused by both.
    with pytest.raises(ValueError):
        key_pyca.public_key().encrypt(b"a" * 246, cp.PKCS1v15())
    with pytest.raises(redc.Error, match="^plaintext:"):
        key.public_key().encrypt(b"a" * 246, rp.PKCS1v15())


def openssl_implicit_rejection() -> bool:
    """Whether pyca's OpenSSL decrypts PKCS#1 v1.5 with implicit rejection
    (OpenSSL 3.2 and later); before it, pyca raises on bad padding."""
    return openssl_backend.openssl_version_number() >= 0x30200000


def corrupted_ciphertexts(pub_pyca, n: int):
    """Ciphertexts whose PKCS#1 v1.5 padding is invalid, of several kinds."""
    good = pub_pyca.encrypt(MESSAGE, cp.PKCS1v15())
    k = (n.bit_length() + 7) // 8
    return [
        spoil(good),  # one bit flipped
        spoil(good, 0),
        bytes(k),  # c = 0: m = 0, no 00 02 header
        (1).to_bytes(k, "big"),  # c = 1: m = 1
        pow(0x0001FF, 65537, n).to_bytes(k, "big"),  # 00 01 ... as the header
        hashlib.sha512(b"arbitrary").digest() * (k // 64),  # an arbitrary c < n (top bit of n is set)
    ]


def test_pkcs1v15_implicit_rejection_matches_openssl(key, key_pyca, pyca_key, pyca_key_redc, backend):
    # With implicit rejection a ciphertext whose padding is invalid decrypts
    # to a synthetic message derived (RFC 8017 erratum / draft-irtf-cfrg-
    # rsa-guidance) from the private exponent and the ciphertext, so redc
    # and OpenSSL must give the SAME bytes. pyca's OpenSSL (4.0 here)
    # returns them rather than raising; with an OpenSSL before 3.2 pyca
    # would raise ValueError, and only redc's determinism is then checked.
    for priv_redc, priv_pyca in ((key, key_pyca), (pyca_key_redc, pyca_key)):
        n = priv_pyca.public_key().public_numbers().n
        cts = corrupted_ciphertexts(priv_pyca.public_key(), n)
        mine = [priv_redc.decrypt(c, rp.PKCS1v15()) for c in cts]
        assert priv_redc.decrypt_batch(cts, rp.PKCS1v15(), backend=backend) == mine
        assert [priv_redc.decrypt(c, rp.PKCS1v15()) for c in cts] == mine  # deterministic
        assert len(set(mine)) == len(mine)  # each its own synthetic message
        if openssl_implicit_rejection():
            assert [priv_pyca.decrypt(c, cp.PKCS1v15()) for c in cts] == mine
        else:
            with pytest.raises(ValueError):
                priv_pyca.decrypt(cts[0], cp.PKCS1v15())
    # The synthetic message depends on the key: the other key's differs.
    c = bytes(256)
    assert key.decrypt(c, rp.PKCS1v15()) != pyca_key_redc.decrypt(c, rp.PKCS1v15())


# --- key files ------------------------------------------------------------------

PRIVATE_FORMATS = [
    pytest.param(rs.Encoding.PEM, rs.PrivateFormat.PKCS8, cs.Encoding.PEM, cs.PrivateFormat.PKCS8, id="pem-pkcs8"),
    pytest.param(rs.Encoding.DER, rs.PrivateFormat.PKCS8, cs.Encoding.DER, cs.PrivateFormat.PKCS8, id="der-pkcs8"),
    pytest.param(
        rs.Encoding.PEM,
        rs.PrivateFormat.TraditionalOpenSSL,
        cs.Encoding.PEM,
        cs.PrivateFormat.TraditionalOpenSSL,
        id="pem-pkcs1",
    ),
    pytest.param(
        rs.Encoding.DER,
        rs.PrivateFormat.TraditionalOpenSSL,
        cs.Encoding.DER,
        cs.PrivateFormat.TraditionalOpenSSL,
        id="der-pkcs1",
    ),
]


def same_private_key(redc_key, pyca_key) -> None:
    """The two keys are the same key: equal public numbers and equal
    (deterministic) PKCS#1 v1.5 signatures."""
    pn = pyca_key.public_key().public_numbers()
    rn = redc_key.public_key().public_numbers()
    assert (rn.e, rn.n) == (pn.e, pn.n)
    assert redc_key.sign(MESSAGE, rp.PKCS1v15(), rh.SHA256()) == pyca_key.sign(MESSAGE, cp.PKCS1v15(), ch.SHA256())


@pytest.mark.parametrize("renc, rfmt, cenc, cfmt", PRIVATE_FORMATS)
def test_private_key_redc_writes_pyca_reads(key, key_pyca, renc, rfmt, cenc, cfmt):
    data = key.private_bytes(renc, rfmt, rs.NoEncryption())
    load = cs.load_pem_private_key if cenc == cs.Encoding.PEM else cs.load_der_private_key
    read = load(data, None)
    same_private_key(key, read)
    assert read.private_numbers() == key_pyca.private_numbers()
    # Canonical encodings: pyca writes the same bytes back.
    assert read.private_bytes(cenc, cfmt, cs.NoEncryption()) == data
    # pyca's enums are accepted by redc's key and mean the same.
    assert key.private_bytes(cenc, cfmt, cs.NoEncryption()) == data


@pytest.mark.parametrize("renc, rfmt, cenc, cfmt", PRIVATE_FORMATS)
def test_private_key_pyca_writes_redc_reads(pyca_key, renc, rfmt, cenc, cfmt):
    data = pyca_key.private_bytes(cenc, cfmt, cs.NoEncryption())
    load = redc.load_pem_private_key if cenc == cs.Encoding.PEM else redc.load_der_private_key
    read = load(data, None)
    same_private_key(read, pyca_key)
    assert read.private_bytes(renc, rfmt, rs.NoEncryption()) == data
    assert redc.load_private_key(data).public_key() == read.public_key()


@pytest.mark.parametrize(
    "renc, cenc",
    [
        pytest.param(rs.Encoding.PEM, cs.Encoding.PEM, id="pem"),
        pytest.param(rs.Encoding.DER, cs.Encoding.DER, id="der"),
    ],
)
def test_encrypted_pkcs8_both_ways(key, pyca_key, renc, cenc):
    password = b"correct horse battery staple"
    # redc writes (scrypt + AES-256-CBC), pyca reads.
    data = key.private_bytes(renc, rs.PrivateFormat.PKCS8, rs.BestAvailableEncryption(password))
    if renc == rs.Encoding.PEM:
        assert data.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
        read = cs.load_pem_private_key(data, password)
    else:
        read = cs.load_der_private_key(data, password)
    same_private_key(key, read)
    with pytest.raises((ValueError, TypeError)):
        (cs.load_pem_private_key if renc == rs.Encoding.PEM else cs.load_der_private_key)(data, b"wrong")
    # pyca writes (its BestAvailableEncryption, with pyca's own objects), redc reads.
    data = pyca_key.private_bytes(cenc, cs.PrivateFormat.PKCS8, cs.BestAvailableEncryption(password))
    load = redc.load_pem_private_key if cenc == cs.Encoding.PEM else redc.load_der_private_key
    same_private_key(load(data, password), pyca_key)
    with pytest.raises(redc.WrongPassword):
        load(data, b"wrong")
    # redc also takes pyca's BestAvailableEncryption object.
    data = key.private_bytes(cenc, cs.PrivateFormat.PKCS8, cs.BestAvailableEncryption(password))
    same_private_key(key, (cs.load_pem_private_key if cenc == cs.Encoding.PEM else cs.load_der_private_key)(data, password))


def test_three_prime_key_round_trips_in_redc(key3, key3_pyca_public):
    for enc in (rs.Encoding.PEM, rs.Encoding.DER):
        for fmt in (rs.PrivateFormat.PKCS8, rs.PrivateFormat.TraditionalOpenSSL):
            data = key3.private_bytes(enc, fmt, rs.NoEncryption())
            again = redc.load_private_key(data, security_level=1)
            assert again.private_bytes(enc, fmt, rs.NoEncryption()) == data
            assert "3 primes" in repr(again)
            sig = again.sign(MESSAGE, rp.PKCS1v15(), rh.SHA384())
            assert sig == key3.sign(MESSAGE, rp.PKCS1v15(), rh.SHA384())
            key3_pyca_public.verify(sig, MESSAGE, cp.PKCS1v15(), ch.SHA384())


PUBLIC_FORMATS = [
    pytest.param(
        rs.Encoding.PEM, rs.PublicFormat.SubjectPublicKeyInfo, cs.Encoding.PEM, cs.PublicFormat.SubjectPublicKeyInfo, id="pem-spki"
    ),
    pytest.param(
        rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo, cs.Encoding.DER, cs.PublicFormat.SubjectPublicKeyInfo, id="der-spki"
    ),
    pytest.param(rs.Encoding.PEM, rs.PublicFormat.PKCS1, cs.Encoding.PEM, cs.PublicFormat.PKCS1, id="pem-pkcs1"),
    pytest.param(rs.Encoding.DER, rs.PublicFormat.PKCS1, cs.Encoding.DER, cs.PublicFormat.PKCS1, id="der-pkcs1"),
]


@pytest.mark.parametrize("renc, rfmt, cenc, cfmt", PUBLIC_FORMATS)
def test_public_key_files_both_ways(key, key3, pyca_key, renc, rfmt, cenc, cfmt):
    for k in (key.public_key(), key3.public_key()):
        data = k.public_bytes(renc, rfmt)
        assert k.public_bytes(cenc, cfmt) == data  # pyca's enums, same meaning
        if cenc == cs.Encoding.PEM:
            read = cs.load_pem_public_key(data)
        else:
            read = cs.load_der_public_key(data)
        assert read.public_bytes(cenc, cfmt) == data
        assert (read.public_numbers().e, read.public_numbers().n) == (k.public_numbers().e, k.public_numbers().n)
    data = pyca_key.public_key().public_bytes(cenc, cfmt)
    load = redc.load_pem_public_key if cenc == cs.Encoding.PEM else redc.load_der_public_key
    read = load(data)
    assert read.public_bytes(renc, rfmt) == data
    pn = pyca_key.public_key().public_numbers()
    assert (read.public_numbers().e, read.public_numbers().n) == (pn.e, pn.n)
    # The public key read from the file verifies pyca's signatures.
    sig = pyca_key.sign(MESSAGE, cp.PKCS1v15(), ch.SHA256())
    read.verify(sig, MESSAGE, rp.PKCS1v15(), rh.SHA256())


def test_public_numbers_equal(key, key_pyca, pyca_key, pyca_key_redc, key3, key3_pyca_public):
    for mine, theirs in (
        (key.public_key(), key_pyca.public_key()),
        (pyca_key_redc.public_key(), pyca_key.public_key()),
        (key3.public_key(), key3_pyca_public),
    ):
        r, c = mine.public_numbers(), theirs.public_numbers()
        assert (r.e, r.n) == (c.e, c.n)
        assert mine.key_size == theirs.key_size
        assert r == redc.RSAPublicNumbers(c.e, c.n)
        assert r != redc.RSAPublicNumbers(c.e, c.n + 2)
    # The private keys' primes multiply to pyca's modulus (the redc key
    # was generated by redc: its factors come only through the key file).
    priv = key_pyca.private_numbers()
    assert priv.p * priv.q == key.public_key().public_numbers().n
    assert key.key_size == 2048 and key3.key_size == 1024


def test_key_id_is_sha256_of_pyca_spki(key, key3, pyca_key, pyca_key_redc):
    for mine, theirs in (
        (key, cs.load_der_public_key(key.public_key().public_bytes(rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo))),
        (key3, cs.load_der_public_key(key3.public_key().public_bytes(rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo))),
        (pyca_key_redc, pyca_key.public_key()),
    ):
        der = theirs.public_bytes(cs.Encoding.DER, cs.PublicFormat.SubjectPublicKeyInfo)
        assert mine.public_key().key_id == hashlib.sha256(der).hexdigest()
    assert key.public_key().key_id != pyca_key_redc.public_key().key_id


# --- pyca's objects -------------------------------------------------------------


def test_pyca_objects_accepted_by_redc_keys(key, key_pyca, backend):
    pub = key.public_key()
    pss = cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.MAX_LENGTH)
    # Single and batch operations with pyca's padding and hash objects.
    sig = key.sign(MESSAGE, pss, ch.SHA256())
    key_pyca.public_key().verify(sig, MESSAGE, pss, ch.SHA256())
    pub.verify(sig, MESSAGE, cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.AUTO), ch.SHA256())
    sigs = key.sign_batch([MESSAGE, b""], cp.PKCS1v15(), ch.SHA384(), backend=backend)
    assert sigs == [key_pyca.sign(m, cp.PKCS1v15(), ch.SHA384()) for m in (MESSAGE, b"")]
    assert pub.verify_batch([MESSAGE, b""], sigs, cp.PKCS1v15(), ch.SHA384(), backend=backend).tolist() == [True, True]
    oaep = cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), b"L")
    cts = pub.encrypt_batch([MESSAGE], oaep, backend=backend)
    assert key_pyca.decrypt(cts[0], oaep) == MESSAGE
    assert key.decrypt_batch(cts, oaep, backend=backend) == [MESSAGE]
    # Serialization enums and encryption choices.
    der = pub.public_bytes(cs.Encoding.DER, cs.PublicFormat.SubjectPublicKeyInfo)
    assert der == key_pyca.public_key().public_bytes(cs.Encoding.DER, cs.PublicFormat.SubjectPublicKeyInfo)


@pytest.mark.parametrize("name", [n for n in rh.__all__ if n != "HashAlgorithm"])
def test_redc_hash_names_match_pyca(name):
    # redc names its hashes as pyca does (the name is what crosses over).
    mine, theirs = getattr(rh, name)(), getattr(ch, name)()
    assert (mine.name, mine.digest_size) == (theirs.name, theirs.digest_size)
    assert mine == theirs
    assert hashlib.new(theirs.name.replace("-", "_")).digest_size == mine.digest_size


def test_exception_hierarchy():
    # Bad input is a ValueError (as pyca's); a signature that does not
    # verify is not (so a handler of bad input does not swallow it).
    assert issubclass(redc.Error, ValueError)
    assert issubclass(redc.DecryptionError, redc.Error) and issubclass(redc.WrongPassword, redc.Error)
    assert not issubclass(redc.InvalidSignature, ValueError)
    # A failed verification raises pyca's own class, so pyca's handlers catch it.
    assert redc.InvalidSignature is PycaInvalidSignature


PYCA_PROGRAM = """
from cryptography.exceptions import InvalidSignature

key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
signature = key.sign(b"message", pss, hashes.SHA256())
key.public_key().verify(signature, b"message", pss, hashes.SHA256())
try:
    key.public_key().verify(signature, b"tampered", pss, hashes.SHA256())
    result = "accepted"
except InvalidSignature as e:
    result = "rejected" + (": " + str(e) if str(e) else "")
"""


@pytest.mark.parametrize(
    "imports",
    [
        pytest.param(
            "from cryptography.hazmat.primitives.asymmetric import rsa, padding\n"
            "from cryptography.hazmat.primitives import hashes\n",
            id="pyca",
        ),
        pytest.param("import redc as rsa\nfrom redc import padding, hashes\n", id="redc"),
    ],
)
def test_a_pyca_program_runs_with_only_its_imports_changed(imports):
    scope: dict = {}
    exec(imports + PYCA_PROGRAM, scope)
    assert scope["result"] in ("rejected", "rejected: invalid signature"), scope["result"]
