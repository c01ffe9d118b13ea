"""ML-DSA (FIPS 204) and CRYSTALS-Dilithium round 3 signatures on a constant-time Rust core.

Two APIs over one extension module:

- ``mldsa_rs.MLDSA65PrivateKey`` and friends, in the style of pyca/cryptography;
- ``mldsa_rs.ml_dsa`` / ``mldsa_rs.dilithium`` / ``mldsa_rs.ml_dsa.pkcs``: a drop-in for
  dilithium-py (change only the import line).

>>> import mldsa_rs
>>> key = mldsa_rs.MLDSA44PrivateKey.generate()
>>> sig = key.sign(b"data", deterministic=True)
>>> key.public_key().verify(sig, b"data")
>>> len(sig)
2420
"""

from ._keys import (
    Dilithium2PrivateKey,
    Dilithium2PublicKey,
    Dilithium3PrivateKey,
    Dilithium3PublicKey,
    Dilithium5PrivateKey,
    Dilithium5PublicKey,
    MLDSA44PrivateKey,
    MLDSA44PublicKey,
    MLDSA65PrivateKey,
    MLDSA65PublicKey,
    MLDSA87PrivateKey,
    MLDSA87PublicKey,
    Signer,
    Verifier,
    load_private_key,
    load_public_key,
)
from ._native import InvalidKey, InvalidSignature, __version__

__all__ = [
    "InvalidKey",
    "InvalidSignature",
    "MLDSA44PrivateKey",
    "MLDSA44PublicKey",
    "MLDSA65PrivateKey",
    "MLDSA65PublicKey",
    "MLDSA87PrivateKey",
    "MLDSA87PublicKey",
    "Dilithium2PrivateKey",
    "Dilithium2PublicKey",
    "Dilithium3PrivateKey",
    "Dilithium3PublicKey",
    "Dilithium5PrivateKey",
    "Dilithium5PublicKey",
    "Signer",
    "Verifier",
    "load_private_key",
    "load_public_key",
    "__version__",
]
