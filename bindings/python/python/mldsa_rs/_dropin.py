"""What the dilithium-py compatible objects share: the entropy source they sign and generate
keys with (``os.urandom``, or the AES-256 CTR DRBG after ``set_drbg_seed``)."""

from __future__ import annotations

import os


class _Entropy:
    def __init__(self) -> None:
        # Use system randomness by default; set_drbg_seed() switches to the NIST DRBG.
        self.random_bytes = os.urandom

    def set_drbg_seed(self, seed: bytes) -> None:
        """Change the entropy source to the AES-256 CTR DRBG seeded with ``seed`` (48 bytes),
        so that KAT scripts reproduce NIST's files."""
        from .drbg.aes256_ctr_drbg import AES256_CTR_DRBG

        self._drbg = AES256_CTR_DRBG(seed)
        self.random_bytes = self._drbg.random_bytes
