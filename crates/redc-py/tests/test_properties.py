"""Properties, with hypothesis: ``redc.modexp`` is Python's ``pow`` for all
ints (its errors included), ``modexp_batch`` is ``modexp`` item by item,
and every batch operation equals its single form and pyca/cryptography,
on every backend."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import hashes as ch
from cryptography.hazmat.primitives.asymmetric import padding as cp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import redc
from redc import hashes as rh
from redc import padding as rp

SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])


def outcome(f, *args, **kwargs):
    """``("ok", value)`` or ``("raised", exception)``."""
    try:
        return ("ok", f(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return ("raised", e)


def assert_same_as_pow(b: int, e: int, m: int, backend: str) -> None:
    """``redc.modexp(b, e, m)`` equals ``pow(b, e, m)``, or raises where
    ``pow`` raises, an instance of the same type (ValueError)."""
    expected = outcome(pow, b, e, m)
    got = outcome(redc.modexp, b, e, m, backend=backend)
    if expected[0] == "ok":
        assert got == expected, (b, e, m)
    else:
        assert got[0] == "raised", (b, e, m, got)
        assert isinstance(got[1], type(expected[1])), (type(got[1]), type(expected[1]))


def signed_bits(bits: int):
    return st.integers(min_value=-(2**bits), max_value=2**bits)


# Sizes such that Python's pow (the oracle) stays cheap: a big modulus with
# a short exponent, a big exponent with a short modulus, and everything
# small, with the edges (0, +-1, +-2) always in reach.
EDGES = st.sampled_from([0, 1, -1, 2, -2, 3, -3])
BASES = st.one_of(EDGES, signed_bits(64), signed_bits(4200))
EXPONENTS = st.one_of(EDGES, signed_bits(16), signed_bits(256))
MODULI = st.one_of(EDGES, signed_bits(8), signed_bits(130), signed_bits(4096))


@SETTINGS
@given(b=BASES, e=EXPONENTS, m=MODULI)
@example(b=3, e=5, m=0)  # pow: ValueError (mod 0)
@example(b=2, e=-1, m=4)  # pow: ValueError (not invertible)
@example(b=0, e=-1, m=7)
@example(b=6, e=-3, m=-9)
@example(b=0, e=-1, m=1)  # mod +-1: 0, even for a negative exponent
@example(b=5, e=-1, m=-1)
@example(b=-7, e=0, m=1)
@example(b=-7, e=0, m=-5)
@example(b=-7, e=3, m=-5)
@example(b=-7, e=-3, m=-5)
@example(b=0, e=0, m=2)
@example(b=2**4096 + 1, e=2**4096 - 1, m=2**4096 - 3)  # full-size odd
@example(b=-(2**4000) - 1, e=2**1000 + 7, m=2**4096)  # full-size even (a power of two)
@example(b=3, e=2**4095 + 1, m=2**4094 + 2)  # full-size even, huge exponent
@example(b=-(2**4095), e=-(2**4000 + 1), m=-(2**4096 - 1))
def test_modexp_equals_pow(b, e, m, backend):
    assert_same_as_pow(b, e, m, backend)


@FEW
@given(e=st.integers(min_value=-(2**4096), max_value=2**4096), m=st.integers(min_value=2**4000, max_value=2**4096))
def test_modexp_equals_pow_full_size(e, m, backend):
    # Exponent and modulus both up to 4096 bits (Python's pow is the slow side).
    assert_same_as_pow(0x1234567 + e, e, m if e % 3 else -m, backend)


@FEW
@given(m=st.integers(min_value=2, max_value=2**4096), k=st.integers(min_value=1, max_value=50))
def test_modexp_non_invertible_negative_exponent(m, k, backend):
    # A base sharing a factor with m has no inverse: pow raises ValueError.
    b = m * k  # gcd(b, m) = m > 1
    with pytest.raises(ValueError) as pow_err:
        pow(b, -1, m)
    with pytest.raises(type(pow_err.value), match=r"^base:"):
        redc.modexp(b, -1, m, backend=backend)
    with pytest.raises(ValueError, match=r"^mod:"):
        redc.modexp(b, 1, 0, backend=backend)


TRIPLES = st.tuples(BASES, EXPONENTS, st.one_of(EDGES, signed_bits(8), signed_bits(700)))


@SETTINGS
@given(triples=st.lists(TRIPLES, max_size=12))
def test_modexp_batch_equals_modexp(triples, backend):
    bases = [t[0] for t in triples]
    exps = [t[1] for t in triples]
    mods = [t[2] for t in triples]
    answers = redc.modexp_batch(bases, exps, mods, backend=backend)
    assert len(answers) == len(triples)
    for i, (b, e, m) in enumerate(triples):
        single = outcome(redc.modexp, b, e, m, backend=backend)
        expected = outcome(pow, b, e, m)
        if expected[0] == "ok":
            assert answers[i] == single[1] == expected[1]
            assert type(answers[i]) is int
        else:
            # The slot holds the exception (not raised), of pow's type, naming
            # the item: bases[i] or moduli[i] where modexp names base or mod.
            assert isinstance(answers[i], type(expected[1]))
            assert isinstance(answers[i], type(single[1]))
            what = str(single[1]).split(":")[0]
            assert str(answers[i]).startswith({"base": f"bases[{i}]:", "mod": f"moduli[{i}]:"}[what])


@SETTINGS
@given(
    bases=st.lists(BASES, max_size=10),
    e=st.one_of(EXPONENTS, st.none()),
    m=st.one_of(st.integers(min_value=2, max_value=2**300), st.integers(min_value=-(2**300), max_value=-2)),
)
def test_modexp_batch_scalar_columns(bases, e, m, backend):
    # exponents and moduli may each be one int for all items.
    e = 65537 if e is None else e
    answers = redc.modexp_batch(bases, e, m, backend=backend)
    for b, a in zip(bases, answers):
        expected = outcome(pow, b, e, m)
        if expected[0] == "ok":
            assert a == expected[1]
        else:
            assert isinstance(a, ValueError)
    # The same as the columns written out.
    columns = redc.modexp_batch(bases, [e] * len(bases), [m] * len(bases), backend=backend)
    assert [norm(a) for a in columns] == [norm(a) for a in answers]


def norm(x):
    """An answer, comparable: exceptions by type and message."""
    return ("raised", type(x), str(x)) if isinstance(x, BaseException) else ("ok", x)


MESSAGES = st.lists(st.binary(max_size=300), max_size=8)


@FEW
@given(msgs=MESSAGES)
def test_sign_batch_pkcs1v15_equals_single_and_pyca(key, key_pyca, backend, msgs):
    sigs = key.sign_batch(msgs, rp.PKCS1v15(), rh.SHA256(), backend=backend)
    assert sigs == [key.sign(m, rp.PKCS1v15(), rh.SHA256()) for m in msgs]
    assert sigs == [key_pyca.sign(m, cp.PKCS1v15(), ch.SHA256()) for m in msgs]


@FEW
@given(msgs=MESSAGES)
def test_sign_batch_three_primes(key3, key3_pyca_public, backend, msgs):
    sigs = key3.sign_batch(msgs, rp.PKCS1v15(), rh.SHA1(), backend=backend)
    assert sigs == [key3.sign(m, rp.PKCS1v15(), rh.SHA1()) for m in msgs]
    for m, s in zip(msgs, sigs):
        key3_pyca_public.verify(s, m, cp.PKCS1v15(), ch.SHA1())


@FEW
@given(msgs=MESSAGES, salt=st.sampled_from([rp.PSS.MAX_LENGTH, rp.PSS.DIGEST_LENGTH, 0, 7]))
def test_pss_batch_signatures_verify_singly(key, key_pyca, backend, msgs, salt):
    pss = rp.PSS(rp.MGF1(rh.SHA256()), salt)
    sigs = key.sign_batch(msgs, pss, rh.SHA256(), backend=backend)
    assert len(sigs) == len(msgs)
    for m, s in zip(msgs, sigs):
        assert isinstance(s, bytes) and len(s) == 256
        key.public_key().verify(s, m, pss, rh.SHA256())
        key_pyca.public_key().verify(s, m, cp.PSS(cp.MGF1(ch.SHA256()), cp.PSS.AUTO), ch.SHA256())
    if salt is not rp.PSS.DIGEST_LENGTH and salt != 0 and msgs:
        # Randomized salt: signing twice gives other bytes.
        assert key.sign_batch(msgs[:1], pss, rh.SHA256(), backend=backend) != sigs[:1]


# How an item of a verify_batch is spoiled.
SPOILS = st.sampled_from(["good", "sig-bit", "msg", "short", "long", "zero", "other-key"])


def spoiled(kind: str, m: bytes, s: bytes, other: bytes):
    if kind == "sig-bit":
        s = bytes([s[0] ^ 0x80]) + s[1:]
    elif kind == "msg":
        m = m + b"\x00"
    elif kind == "short":
        s = s[:-1]
    elif kind == "long":
        s = s + b"\x00"
    elif kind == "zero":
        s = bytes(len(s))
    elif kind == "other-key":
        s = other
    return m, s


@FEW
@given(items=st.lists(st.tuples(st.binary(max_size=100), SPOILS), max_size=10), pss=st.booleans())
def test_verify_batch_equals_single_verify(key, key_pyca, pyca_key, backend, items, pss):
    if pss:
        rpad, cpad = rp.PSS(rp.MGF1(rh.SHA384()), rp.PSS.AUTO), cp.PSS(cp.MGF1(ch.SHA384()), cp.PSS.AUTO)
    else:
        rpad, cpad = rp.PKCS1v15(), cp.PKCS1v15()
    msgs, sigs = [], []
    for m, kind in items:
        s = key_pyca.sign(m, cp.PSS(cp.MGF1(ch.SHA384()), 20) if pss else cp.PKCS1v15(), ch.SHA384())
        other = pyca_key.sign(m, cp.PSS(cp.MGF1(ch.SHA384()), 20) if pss else cp.PKCS1v15(), ch.SHA384())
        m, s = spoiled(kind, m, s, other)
        msgs.append(m)
        sigs.append(s)
    got = key.public_key().verify_batch(msgs, sigs, rpad, rh.SHA384(), backend=backend)
    assert got.dtype == bool and got.shape == (len(items),)
    single = [outcome(key.public_key().verify, s, m, rpad, rh.SHA384())[0] == "ok" for m, s in zip(msgs, sigs)]
    oracle = [outcome(key_pyca.public_key().verify, s, m, cpad, ch.SHA384())[0] == "ok" for m, s in zip(msgs, sigs)]
    assert got.tolist() == single == oracle
    # Only the untouched items verify.
    assert got.tolist() == [kind == "good" for _, kind in items]


@FEW
@given(msgs=st.lists(st.binary(max_size=190), max_size=8), oaep=st.booleans())
def test_encrypt_decrypt_batch_round_trip(key, key_pyca, backend, msgs, oaep):
    if oaep:
        rpad = rp.OAEP(rp.MGF1(rh.SHA256()), rh.SHA256(), b"batch")
        cpad = cp.OAEP(cp.MGF1(ch.SHA256()), ch.SHA256(), b"batch")
    else:
        rpad, cpad = rp.PKCS1v15(), cp.PKCS1v15()
    cts = key.public_key().encrypt_batch(msgs, rpad, backend=backend)
    assert all(isinstance(c, bytes) and len(c) == 256 for c in cts)
    assert key.decrypt_batch(cts, rpad, backend=backend) == msgs
    assert [key_pyca.decrypt(c, cpad) for c in cts] == msgs  # the oracle reads them too
    assert [key.decrypt(c, rpad) for c in cts] == msgs
    # And redc's batch decrypts pyca's ciphertexts.
    theirs = [key_pyca.public_key().encrypt(m, cpad) for m in msgs]
    assert key.decrypt_batch(theirs, rpad, backend=backend) == msgs


@FEW
@given(msgs=st.lists(st.binary(max_size=60), min_size=1, max_size=6))
def test_three_prime_decrypt_batch(key3, key3_pyca_public, backend, msgs):
    cpad = cp.OAEP(cp.MGF1(ch.SHA1()), ch.SHA1(), None)
    cts = [key3_pyca_public.encrypt(m, cpad) for m in msgs]
    assert key3.decrypt_batch(cts, rp.OAEP(rp.MGF1(rh.SHA1()), rh.SHA1(), None), backend=backend) == msgs


def test_batches_agree_across_backends(key):
    # Deterministic outputs are the same on every backend.
    msgs = [b"", b"a", b"backend" * 40]
    per_backend = [key.sign_batch(msgs, rp.PKCS1v15(), rh.SHA512(), backend=b) for b in redc.backends()]
    assert all(p == per_backend[0] for p in per_backend)
    mods = [2**521 - 1, 2**130, -(3**80), 1, -1]
    per_backend = [redc.modexp_batch([7] * 5, -3, mods, backend=b) for b in redc.backends()]
    assert all(p == per_backend[0] for p in per_backend)
    assert per_backend[0] == [pow(7, -3, m) for m in mods]
