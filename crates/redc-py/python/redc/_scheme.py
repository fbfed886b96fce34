"""Padding and hash objects (redc's or pyca/cryptography's, by duck typing)
turned into the scheme tuple the extension takes:
``(kind, hash, mgf_hash, salt, label)``."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from redc import _redc

Scheme = Tuple[str, str, str, int, bytes]

# Salt-length codes of the extension (src/scheme.rs).
_SALTS = {"_MaxLength": -1, "_DigestLength": -2, "_Auto": -3}


def hash_name(algorithm: Any, what: str = "algorithm") -> str:
    """The name of a hash object (``.name``, as pyca's) or a string."""
    if isinstance(algorithm, str):
        return algorithm
    name = getattr(algorithm, "name", None)
    if not isinstance(name, str) or not hasattr(algorithm, "digest_size"):
        raise TypeError(f"{what}: expected a hash such as hashes.SHA256(), found {type(algorithm).__name__}")
    return name


def signature_hash(algorithm: Any) -> Tuple[str, bool]:
    """The hash of a signature and whether the data is a digest (``Prehashed``)."""
    if type(algorithm).__name__ == "Prehashed":
        return hash_name(getattr(algorithm, "_algorithm", None)), True
    return hash_name(algorithm), False


def _mgf(padding: Any) -> str:
    mgf = getattr(padding, "_mgf", None)
    if type(mgf).__name__ != "MGF1":
        raise TypeError(f"mgf: expected padding.MGF1(...), found {type(mgf).__name__}")
    return hash_name(getattr(mgf, "_algorithm", None), "mgf")


def scheme(padding: Any, algorithm: Optional[str] = None) -> Scheme:
    """The scheme tuple of ``padding`` with signature hash name ``algorithm``
    (``None`` for encryption)."""
    name = getattr(padding, "name", None)
    if name == "EMSA-PSS":
        if algorithm is None:
            # Encryption has no signature hash: say what is wrong (the padding).
            raise _redc.Error("padding: PSS is for signatures; encrypt and decrypt with OAEP or PKCS1v15")
        salt = getattr(padding, "_salt_length", None)
        if isinstance(salt, int) and not isinstance(salt, bool):
            if salt >= 2**63:
                # More than the extension's i64 takes, and than any key allows.
                raise _redc.Error(f"salt_length: {salt} bytes is longer than any key allows")
            code = salt
        elif type(salt).__name__ in _SALTS:
            code = _SALTS[type(salt).__name__]
        else:
            raise TypeError(f"salt_length: unsupported {type(salt).__name__}")
        return ("pss", algorithm or "", _mgf(padding), code, b"")
    if name == "EMSA-PKCS1-v1_5":
        return ("pkcs1v15", algorithm or "", "", 0, b"")
    if name == "EME-OAEP":
        label = getattr(padding, "_label", None) or b""
        if not isinstance(label, bytes):
            raise TypeError(f"label: expected bytes, found {type(label).__name__}")
        return ("oaep", hash_name(getattr(padding, "_algorithm", None)), _mgf(padding), 0, label)
    raise TypeError(
        f"padding: expected padding.PSS, padding.OAEP or padding.PKCS1v15 (redc's or cryptography's), "
        f"found {type(padding).__name__}"
    )
