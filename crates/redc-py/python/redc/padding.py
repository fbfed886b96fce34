"""Padding schemes in the shape of pyca/cryptography
(``cryptography.hazmat.primitives.asymmetric.padding``): the same class
names, arguments and constants, so switching is a one-line import change.
redc's keys also accept pyca's own padding objects.
"""

from __future__ import annotations

from typing import Optional, Union

from redc.hashes import HashAlgorithm

__all__ = ["AsymmetricPadding", "MGF1", "PSS", "OAEP", "PKCS1v15"]


class AsymmetricPadding:
    """A padding scheme, by its ``name``."""

    name: str = ""


class MGF1:
    """The mask generation function MGF1 (RFC 8017 §B.2.1) over ``algorithm``."""

    def __init__(self, algorithm: HashAlgorithm) -> None:
        self._algorithm = algorithm


class _MaxLength:
    """PSS salt length: as long as the key allows (``emLen - hLen - 2``)."""


class _Auto:
    """PSS salt length for verification: any, read from the signature."""


class _DigestLength:
    """PSS salt length: the hash's output length."""


class PSS(AsymmetricPadding):
    """RSASSA-PSS (RFC 8017 §8.1) with ``mgf`` and ``salt_length``: bytes, or
    ``PSS.MAX_LENGTH``, ``PSS.DIGEST_LENGTH``, ``PSS.AUTO`` (verification)."""

    name = "EMSA-PSS"
    MAX_LENGTH = _MaxLength()
    AUTO = _Auto()
    DIGEST_LENGTH = _DigestLength()

    def __init__(self, mgf: MGF1, salt_length: Union[int, _MaxLength, _Auto, _DigestLength]) -> None:
        if isinstance(salt_length, int) and not isinstance(salt_length, bool):
            if salt_length < 0:
                raise ValueError("salt_length: must be zero or greater")
        elif not isinstance(salt_length, (_MaxLength, _Auto, _DigestLength)):
            raise TypeError("salt_length: expected an int, PSS.MAX_LENGTH, PSS.DIGEST_LENGTH or PSS.AUTO")
        self._mgf = mgf
        self._salt_length = salt_length

    @property
    def mgf(self) -> MGF1:
        return self._mgf


class OAEP(AsymmetricPadding):
    """RSAES-OAEP (RFC 8017 §7.1) with ``mgf``, the label hash ``algorithm``
    and an optional ``label``."""

    name = "EME-OAEP"

    def __init__(self, mgf: MGF1, algorithm: HashAlgorithm, label: Optional[bytes]) -> None:
        self._mgf = mgf
        self._algorithm = algorithm
        self._label = label

    @property
    def algorithm(self) -> HashAlgorithm:
        return self._algorithm

    @property
    def mgf(self) -> MGF1:
        return self._mgf


class PKCS1v15(AsymmetricPadding):
    """PKCS#1 v1.5 signatures (RFC 8017 §8.2) and encryption (§7.2; redc
    decrypts with implicit rejection, as OpenSSL 3.2 and later)."""

    name = "EMSA-PKCS1-v1_5"
