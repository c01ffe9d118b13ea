"""The NIST AES-256 CTR DRBG (SP 800-90A, no derivation function), as dilithium-py's
``dilithium_py.drbg.aes256_ctr_drbg`` offers it, implemented in Rust (no pycryptodome needed).

>>> drbg = AES256_CTR_DRBG(bytes(range(48)))
>>> len(drbg.random_bytes(32))
32
"""

from __future__ import annotations

from typing import Optional

from .._native import AesCtrDrbg

__all__ = ["AES256_CTR_DRBG"]


class AES256_CTR_DRBG:
    """``AES256_CTR_DRBG(seed=None, personalization=b"")``: a 48-byte seed (fresh OS randomness
    when None) and an optional personalization string of at most 48 bytes."""

    def __init__(self, seed: Optional[bytes] = None, personalization: bytes = b""):
        self.seed_length = 48
        self.reseed_interval = 2**48
        self._state = AesCtrDrbg(seed, personalization)

    def random_bytes(self, num_bytes: int, additional: Optional[bytes] = None) -> bytes:
        """``num_bytes`` pseudorandom bytes, mixing in ``additional`` (at most 48 bytes)."""
        return self._state.random_bytes(num_bytes, additional)
