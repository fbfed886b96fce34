"""Security levels in the Python package, the CLI's and the library's
default (2): a key of 1024 bits is neither generated nor used for signing
or decryption unless ``security_level=1`` says so, still verifies and
encrypts at the default level, and every refusal names the level that
accepts the key."""

from __future__ import annotations

import pytest

import redc
from redc import hashes, padding
from redc import serialization as rs

MESSAGE = b"a message"


@pytest.fixture(scope="module")
def small():
    return redc.generate_private_key(65537, 1024, security_level=1)


def test_generation_below_the_level_names_the_level():
    with pytest.raises(redc.Error, match=r"key_size: 1024 bits: .*at least 2048 bits at security level 2"):
        redc.generate_private_key(65537, 1024)
    assert redc.generate_private_key(65537, 2048).security_level == 2


def test_a_small_key_signs_only_at_a_lower_level(small):
    assert small.security_level == 1
    sig = small.sign(MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    der = small.private_bytes(rs.Encoding.DER, rs.PrivateFormat.PKCS8, rs.NoEncryption())
    loaded = redc.load_der_private_key(der, None)
    assert loaded.security_level == 2
    with pytest.raises(redc.Error, match="refused for private operations at security level 2.*security level 1 accepts it"):
        loaded.sign(MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    assert loaded.with_security_level(1).sign(MESSAGE, padding.PKCS1v15(), hashes.SHA256()) == sig
    assert redc.load_der_private_key(der, None, security_level=1).security_level == 1
    # Verification keeps working at the default level; not at level 3.
    public = redc.load_der_public_key(small.public_key().public_bytes(rs.Encoding.DER, rs.PublicFormat.SubjectPublicKeyInfo))
    assert public.security_level == 2
    public.verify(sig, MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(redc.Error, match="public operations at security level 3"):
        public.with_security_level(3).verify(sig, MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    # Batches refuse every item.
    answers = loaded.sign_batch([MESSAGE, MESSAGE], padding.PKCS1v15(), hashes.SHA256())
    assert all(isinstance(a, redc.Error) and "security level 2" in str(a) for a in answers)


@pytest.mark.parametrize("level, error", [(6, redc.Error), (-1, redc.Error), ("2", TypeError), (True, TypeError)])
def test_levels_that_do_not_exist(small, level, error):
    with pytest.raises(error, match="security_level"):
        redc.generate_private_key(65537, 2048, security_level=level)
    with pytest.raises(error, match="security_level"):
        small.with_security_level(level)
