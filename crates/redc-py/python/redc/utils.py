"""``Prehashed``, as pyca/cryptography's ``asymmetric.utils.Prehashed``: sign
or verify a digest computed elsewhere."""

from __future__ import annotations

from redc.hashes import HashAlgorithm

__all__ = ["Prehashed"]


class Prehashed:
    """The data given to ``sign``/``verify`` is already a digest of ``algorithm``."""

    def __init__(self, algorithm: HashAlgorithm) -> None:
        self._algorithm = algorithm
        self._digest_size = algorithm.digest_size

    @property
    def digest_size(self) -> int:
        return self._digest_size
