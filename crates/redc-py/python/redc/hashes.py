"""Hash algorithms, named as pyca/cryptography names them
(``cryptography.hazmat.primitives.hashes``): ``hashes.SHA256()`` from
either package is accepted wherever redc takes a hash."""

from __future__ import annotations

__all__ = [
    "HashAlgorithm",
    "SHA1",
    "SHA224",
    "SHA256",
    "SHA384",
    "SHA512",
    "SHA512_224",
    "SHA512_256",
    "SHA3_224",
    "SHA3_256",
    "SHA3_384",
    "SHA3_512",
]


class HashAlgorithm:
    """A hash, by its ``name`` and ``digest_size`` (bytes)."""

    name: str = ""
    digest_size: int = 0

    def __eq__(self, other: object) -> bool:
        return getattr(other, "name", None) == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"redc.hashes.{type(self).__name__}()"


def _hash(class_name: str, name: str, size: int) -> type:
    return type(class_name, (HashAlgorithm,), {"name": name, "digest_size": size, "__doc__": f"{name}, {size} bytes."})


SHA1 = _hash("SHA1", "sha1", 20)
SHA224 = _hash("SHA224", "sha224", 28)
SHA256 = _hash("SHA256", "sha256", 32)
SHA384 = _hash("SHA384", "sha384", 48)
SHA512 = _hash("SHA512", "sha512", 64)
SHA512_224 = _hash("SHA512_224", "sha512-224", 28)
SHA512_256 = _hash("SHA512_256", "sha512-256", 32)
SHA3_224 = _hash("SHA3_224", "sha3-224", 28)
SHA3_256 = _hash("SHA3_256", "sha3-256", 32)
SHA3_384 = _hash("SHA3_384", "sha3-384", 48)
SHA3_512 = _hash("SHA3_512", "sha3-512", 64)
