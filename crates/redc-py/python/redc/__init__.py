"""redc: RSA and modular exponentiation on redc's Montgomery engine.

Keys and single operations have the shape of pyca/cryptography (the same
padding, hash and serialization names; pyca's own objects are accepted), so
switching is a one-line change; every operation also has a batch form that
runs as one batch on the engine (AVX-512 IFMA lanes, every core, the GPU
when built with it) with the GIL released, each bad item answered by its
own exception. ``redc.modexp`` is Python's ``pow`` on the engine;
``redc.ray`` runs the batches over a Ray Dataset.

    >>> import redc
    >>> from redc import hashes, padding
    >>> key = redc.generate_private_key(65537, 2048)
    >>> pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
    >>> sigs = key.sign_batch([b"a", b"b"], pss, hashes.SHA256())
    >>> key.public_key().verify_batch([b"a", b"b"], sigs, pss, hashes.SHA256()).all()
    True
    >>> redc.modexp(3, -1, 10) == pow(3, -1, 10)
    True
"""

from redc import hashes, padding, serialization, utils
from redc._keys import (
    RSAPrivateKey,
    RSAPublicKey,
    RSAPublicNumbers,
    generate_private_key,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    load_private_key,
    load_public_key,
)
from redc._modexp import modexp, modexp_batch
from redc._redc import DecryptionError, Error, InvalidSignature, WrongPassword, backends, engine_info

__all__ = [
    "DecryptionError",
    "Error",
    "InvalidSignature",
    "RSAPrivateKey",
    "RSAPublicKey",
    "RSAPublicNumbers",
    "WrongPassword",
    "backends",
    "engine_info",
    "generate_private_key",
    "hashes",
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
    "load_private_key",
    "load_public_key",
    "modexp",
    "modexp_batch",
    "padding",
    "serialization",
    "utils",
]
