"""What the dilithium-py compatible objects share: their parameter attributes and the entropy source they sign and generate
keys with (``os.urandom``, or the AES-256 CTR DRBG after ``set_drbg_seed``)."""

from __future__ import annotations

import os


class _Entropy:
    def __init__(self, parameter_set: dict) -> None:
        # The parameters dilithium-py exposes as attributes (FIPS 204 Table 1 names).
        for name in ("d", "k", "l", "eta", "tau", "omega", "gamma_1", "gamma_2"):
            setattr(self, name, parameter_set[name])
        self.beta = self.tau * self.eta
        self._level = parameter_set["level"]
        # Use system randomness by default; set_drbg_seed() switches to the NIST DRBG.
        self.random_bytes = os.urandom

    def set_drbg_seed(self, seed: bytes) -> None:
        """Change the entropy source to the AES-256 CTR DRBG seeded with ``seed`` (48 bytes),
        so that KAT scripts reproduce NIST's files."""
        from .drbg.aes256_ctr_drbg import AES256_CTR_DRBG

        self._drbg = AES256_CTR_DRBG(seed)
        self.random_bytes = self._drbg.random_bytes
