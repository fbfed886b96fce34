"""Key encodings and formats named as pyca/cryptography names them
(``cryptography.hazmat.primitives.serialization``); pyca's own enums and
encryption choices are accepted too. The loaders are ``redc.load_*``."""

from __future__ import annotations

import enum

__all__ = [
    "Encoding",
    "PrivateFormat",
    "PublicFormat",
    "KeySerializationEncryption",
    "NoEncryption",
    "BestAvailableEncryption",
]


class Encoding(enum.Enum):
    """PEM text or DER bytes."""

    PEM = "PEM"
    DER = "DER"


class PrivateFormat(enum.Enum):
    """PKCS#8 (``PRIVATE KEY``, encrypted: ``ENCRYPTED PRIVATE KEY``) or
    PKCS#1 (``RSA PRIVATE KEY``, OpenSSL's "traditional")."""

    PKCS8 = "PKCS8"
    TraditionalOpenSSL = "TraditionalOpenSSL"


class PublicFormat(enum.Enum):
    """X.509 SubjectPublicKeyInfo (``PUBLIC KEY``) or PKCS#1 (``RSA PUBLIC KEY``)."""

    SubjectPublicKeyInfo = "X.509 subjectPublicKeyInfo with PKCS#1"
    PKCS1 = "Raw PKCS#1"


class KeySerializationEncryption:
    """How a private key file is protected."""


class NoEncryption(KeySerializationEncryption):
    """In the clear."""


class BestAvailableEncryption(KeySerializationEncryption):
    """Under ``password``: PKCS#8 PBES2 with scrypt (N = 2^14, r = 8, p = 1)
    and AES-256-CBC, which OpenSSL opens."""

    def __init__(self, password: bytes) -> None:
        if not isinstance(password, bytes) or not password:
            raise ValueError("password: must be non-empty bytes")
        self.password = password
