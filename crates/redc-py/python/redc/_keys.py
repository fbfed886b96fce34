"""RSA keys in the shape of pyca/cryptography's ``RSAPrivateKey`` and
``RSAPublicKey``, running on redc's engine, with batch forms of every
operation. A batch answers every item: its value, or the exception of that
item in its slot (``verify_batch``: ``False``)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

import numpy as np

from redc import _redc
from redc._items import as_list
from redc._scheme import scheme, signature_hash

__all__ = [
    "RSAPrivateKey",
    "RSAPublicKey",
    "RSAPublicNumbers",
    "generate_private_key",
    "load_private_key",
    "load_public_key",
    "load_pem_private_key",
    "load_der_private_key",
    "load_pem_public_key",
    "load_der_public_key",
]

Answers = List[Union[bytes, Exception]]


def _one(answers: List[Any]) -> Any:
    """The answer of a batch of one, raised if it is an exception."""
    (answer,) = answers
    if isinstance(answer, BaseException):
        raise answer
    return answer


def _bytes(x: Any, what: str) -> bytes:
    if not isinstance(x, (bytes, bytearray)):
        raise TypeError(f"{what}: expected bytes, found {type(x).__name__}")
    return x


def _password(password: Any) -> Optional[bytes]:
    if password is None:
        return None
    if not isinstance(password, (bytes, bytearray)):
        raise TypeError(f"password: expected bytes, found {type(password).__name__}")
    return bytes(password)


def _member_name(x: Any, what: str, enum: str, allowed: Sequence[str]) -> str:
    """The member name of an enum ``enum`` (redc's or pyca's), checked."""
    name = getattr(x, "name", None)
    if name is None and type(x).__name__ == enum:
        # pyca/cryptography's enums are Rust classes without ``name`` (its
        # version 50): the member is in the repr, "Encoding.PEM".
        name = repr(x).rpartition(".")[2]
    if name not in allowed:
        raise ValueError(f"{what}: expected one of {', '.join(allowed)}, found {x!r}")
    return name


class RSAPublicNumbers:
    """The public numbers ``e`` and ``n`` (as pyca's ``RSAPublicNumbers``)."""

    def __init__(self, e: int, n: int) -> None:
        self.e = e
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RSAPublicNumbers) and (self.e, self.n) == (other.e, other.n)

    def __repr__(self) -> str:
        return f"<RSAPublicNumbers(e={self.e}, n={self.n.bit_length()}-bit)>"


class RSAPublicKey:
    """An RSA public key: ``verify`` and ``encrypt``, single or batched."""

    __slots__ = ("_key",)

    def __init__(self, key: "_redc.Key") -> None:
        self._key = key.public() if key.is_private else key

    @property
    def key_size(self) -> int:
        """The modulus size in bits."""
        return self._key.bits

    @property
    def key_id(self) -> str:
        """SHA-256 of the DER SubjectPublicKeyInfo, in hexadecimal (what
        ``openssl pkey -pubin -outform DER | sha256sum`` prints)."""
        return self._key.key_id().hex()

    def public_numbers(self) -> RSAPublicNumbers:
        return RSAPublicNumbers(int.from_bytes(self._key.e(), "big"), int.from_bytes(self._key.n(), "big"))

    @property
    def security_level(self) -> int:
        """The key's security level, 0 to 5 (default 2): verification and
        encryption refuse a modulus below its minimum (1024 bits at 1 and 2)."""
        return self._key.security_level

    def with_security_level(self, level: int) -> "RSAPublicKey":
        """The same key at security level ``level`` (0 to 5)."""
        return RSAPublicKey(self._key.with_security_level(_level(level)))

    def public_bytes(self, encoding: Any, format: Any) -> bytes:
        """The key as ``encoding`` (``Encoding.PEM``/``DER``) and ``format``
        (``PublicFormat.SubjectPublicKeyInfo``/``PKCS1``)."""
        enc = _member_name(encoding, "encoding", "Encoding", ("PEM", "DER"))
        fmt = _member_name(format, "format", "PublicFormat", ("SubjectPublicKeyInfo", "PKCS1"))
        return self._key.public_bytes("spki" if fmt == "SubjectPublicKeyInfo" else "pkcs1", enc == "DER")

    def verify(self, signature: bytes, data: bytes, padding: Any, algorithm: Any) -> None:
        """Raises ``redc.InvalidSignature`` unless ``signature`` is valid for
        ``data`` (a digest when ``algorithm`` is ``Prehashed``)."""
        name, pre = signature_hash(algorithm)
        sig, msg = _bytes(signature, "signature"), _bytes(data, "data")
        _one(_redc.verify(self._key, [msg], [sig], "data", "signature", scheme(padding, name), pre))

    def encrypt(self, plaintext: bytes, padding: Any) -> bytes:
        """``plaintext`` encrypted with OAEP or PKCS#1 v1.5."""
        return _one(_redc.cipher(self._key, [_bytes(plaintext, "plaintext")], "plaintext", scheme(padding), False))

    def verify_batch(
        self, messages: Any, signatures: Any, padding: Any, algorithm: Any, *, backend: Optional[str] = None
    ) -> "np.ndarray":
        """A boolean array: whether each signature is valid for its message
        (``False`` for malformed items too); one engine batch, GIL released."""
        name, pre = signature_hash(algorithm)
        msgs, sigs = as_list(messages, "messages"), as_list(signatures, "signatures")
        answers = _redc.verify(self._key, msgs, sigs, "messages[]", "signatures[]", scheme(padding, name), pre, backend)
        return np.fromiter((a is None for a in answers), dtype=bool, count=len(answers))

    def encrypt_batch(self, messages: Any, padding: Any, *, backend: Optional[str] = None) -> Answers:
        """Every message encrypted: a ciphertext, or the exception of that item."""
        return _redc.cipher(self._key, as_list(messages, "messages"), "messages[]", scheme(padding), False, backend)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RSAPublicKey) and self.public_numbers() == other.public_numbers()

    def __hash__(self) -> int:
        return hash(self._key.key_id())

    def __repr__(self) -> str:
        return f"<redc.RSAPublicKey {self.key_size}-bit id={self.key_id[:16]}>"

    def __reduce__(self) -> Any:
        # Public keys travel (to processes, to Ray actors) as DER SPKI.
        return (load_der_public_key, (self._key.public_bytes("spki", True),))


class RSAPrivateKey:
    """An RSA private key: ``sign`` and ``decrypt``, single or batched, on
    the constant-time path with blinding and the CRT result checked."""

    __slots__ = ("_key",)

    def __init__(self, key: "_redc.Key") -> None:
        self._key = key

    @property
    def key_size(self) -> int:
        """The modulus size in bits."""
        return self._key.bits

    def public_key(self) -> RSAPublicKey:
        return RSAPublicKey(self._key)

    @property
    def security_level(self) -> int:
        """The key's security level, 0 to 5 (default 2): signing and
        decryption refuse a modulus below its minimum (2048 bits at 2, 1024
        at 1, any at 0) or more primes than OpenSSL allows."""
        return self._key.security_level

    def with_security_level(self, level: int) -> "RSAPrivateKey":
        """The same key at security level ``level`` (0 to 5)."""
        return RSAPrivateKey(self._key.with_security_level(_level(level)))

    def private_bytes(self, encoding: Any, format: Any, encryption_algorithm: Any) -> bytes:
        """The key as ``encoding`` and ``format`` (``PrivateFormat.PKCS8``,
        ``TraditionalOpenSSL``), under ``BestAvailableEncryption(password)``
        (PKCS#8 only) or ``NoEncryption()``."""
        enc = _member_name(encoding, "encoding", "Encoding", ("PEM", "DER"))
        fmt = _member_name(format, "format", "PrivateFormat", ("PKCS8", "TraditionalOpenSSL"))
        kind = type(encryption_algorithm).__name__
        if kind == "NoEncryption":
            password = None
        elif kind == "BestAvailableEncryption":
            password = _password(encryption_algorithm.password)
        else:
            raise TypeError(f"encryption_algorithm: expected NoEncryption() or BestAvailableEncryption(password), found {kind}")
        return self._key.private_bytes("pkcs8" if fmt == "PKCS8" else "pkcs1", enc == "DER", password)

    def sign(self, data: bytes, padding: Any, algorithm: Any) -> bytes:
        """A signature of ``data`` (a digest when ``algorithm`` is ``Prehashed``)."""
        name, pre = signature_hash(algorithm)
        return _one(_redc.sign(self._key, [_bytes(data, "data")], "data", scheme(padding, name), pre))

    def decrypt(self, ciphertext: bytes, padding: Any) -> bytes:
        """The plaintext of ``ciphertext``; OAEP failures raise
        ``redc.DecryptionError``, PKCS#1 v1.5 uses implicit rejection."""
        return _one(_redc.cipher(self._key, [_bytes(ciphertext, "ciphertext")], "ciphertext", scheme(padding), True))

    def sign_batch(self, messages: Any, padding: Any, algorithm: Any, *, backend: Optional[str] = None) -> Answers:
        """Every message signed, as one engine batch with the GIL released:
        a signature, or the exception of that item."""
        name, pre = signature_hash(algorithm)
        return _redc.sign(self._key, as_list(messages, "messages"), "messages[]", scheme(padding, name), pre, backend)

    def decrypt_batch(self, ciphertexts: Any, padding: Any, *, backend: Optional[str] = None) -> Answers:
        """Every ciphertext decrypted: a plaintext, or the exception of that item."""
        items = as_list(ciphertexts, "ciphertexts")
        return _redc.cipher(self._key, items, "ciphertexts[]", scheme(padding), True, backend)

    def __repr__(self) -> str:
        public = self.public_key()
        return f"<redc.RSAPrivateKey {self.key_size}-bit, {self._key.primes} primes, id={public.key_id[:16]}>"

    def __reduce__(self) -> Any:
        raise TypeError(
            "redc.RSAPrivateKey is not pickled: pass the key file's bytes (and its password) instead; "
            "redc.ray sends keys to its actors that way"
        )


def _level(security_level: Any) -> Optional[int]:
    """``security_level`` checked: None (the default, 2) or 0 to 5."""
    if security_level is None:
        return None
    if not isinstance(security_level, int) or isinstance(security_level, bool):
        raise TypeError(f"security_level: expected int, found {type(security_level).__name__}")
    if not 0 <= security_level <= 5:
        raise _redc.Error(f"security_level: {security_level} does not exist (0 to 5)")
    return security_level


def generate_private_key(
    public_exponent: int = 65537, key_size: int = 2048, *, primes: int = 2, security_level: Optional[int] = None
) -> RSAPrivateKey:
    """A new key of ``key_size`` bits (1024 to 16384) with ``primes`` primes,
    at ``security_level`` (default 2: at least 2048 bits for private
    operations, as OpenSSL's security level 2; 1 accepts 1024 bits)."""
    level = _level(security_level)
    for what, x in (("public_exponent", public_exponent), ("key_size", key_size), ("primes", primes)):
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError(f"{what}: expected int, found {type(x).__name__}")
        if x <= 0:
            raise ValueError(f"{what}: must be positive")
        if what != "public_exponent" and x >= 2**32:
            # Past what the extension's usize takes (an OverflowError naming nothing).
            raise _redc.Error(f"{what}: {x} is out of range")
    e = public_exponent.to_bytes((public_exponent.bit_length() + 7) // 8, "big")
    return RSAPrivateKey(_redc.Key.generate(key_size, e, primes, level))


def load_private_key(
    data: bytes, password: Optional[bytes] = None, *, security_level: Optional[int] = None
) -> RSAPrivateKey:
    """A private key from PEM or DER: PKCS#1, PKCS#8, encrypted PKCS#8, at
    ``security_level`` (default 2: signing and decryption need 2048 bits)."""
    key = _redc.Key.load(_bytes(data, "data"), _password(password), _level(security_level))
    if not key.is_private:
        raise _redc.Error("data: expected a private key, found a public key")
    return RSAPrivateKey(key)


def load_public_key(
    data: bytes, password: Optional[bytes] = None, *, security_level: Optional[int] = None
) -> RSAPublicKey:
    """A public key from PEM or DER (SPKI, PKCS#1), or the public half of a
    private key, at ``security_level`` (default 2: verification and
    encryption need 1024 bits)."""
    return RSAPublicKey(_redc.Key.load(_bytes(data, "data"), _password(password), _level(security_level)))


def load_pem_private_key(
    data: bytes, password: Optional[bytes], *, security_level: Optional[int] = None
) -> RSAPrivateKey:
    """As pyca's ``serialization.load_pem_private_key``."""
    return load_private_key(data, password, security_level=security_level)


def load_der_private_key(
    data: bytes, password: Optional[bytes], *, security_level: Optional[int] = None
) -> RSAPrivateKey:
    """As pyca's ``serialization.load_der_private_key``."""
    return load_private_key(data, password, security_level=security_level)


def load_pem_public_key(data: bytes, *, security_level: Optional[int] = None) -> RSAPublicKey:
    """As pyca's ``serialization.load_pem_public_key``."""
    return _public_only(data, security_level)


def load_der_public_key(data: bytes, *, security_level: Optional[int] = None) -> RSAPublicKey:
    """As pyca's ``serialization.load_der_public_key``."""
    return _public_only(data, security_level)


def _public_only(data: bytes, security_level: Optional[int]) -> RSAPublicKey:
    key = _redc.Key.load(_bytes(data, "data"), None, _level(security_level))
    if key.is_private:
        raise _redc.Error("data: expected a public key, found a private key")
    return RSAPublicKey(key)
