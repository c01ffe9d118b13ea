"""What the dilithium-py compatible objects share: their parameter attributes, the entropy source
they sign and generate keys with (``os.urandom``, or the AES-256 CTR DRBG after
``set_drbg_seed``), and the named errors for arguments of the wrong type."""

from __future__ import annotations

import os
from typing import Any, Optional


def _not_bytes_like(name: str, value: Any) -> Optional[TypeError]:
    try:
        memoryview(value)
    except TypeError:
        return TypeError(
            f"{name} must be a bytes-like object (bytes, bytearray, memoryview), "
            f"not {type(value).__name__}"
        )
    return None


def named_type_error(error: TypeError, args: dict[str, Any]) -> TypeError:
    """The TypeError to raise for a drop-in call that failed with ``error``: one naming the
    first of ``args`` (the method's bytes arguments, by their dilithium-py names) that is not
    bytes-like, else ``error`` itself. The extension module names arguments in its own terms
    ("signing key", "data"); looking for the culprit only once a call has failed costs the
    calls that succeed nothing."""
    for name, value in args.items():
        named = _not_bytes_like(name, value)
        if named is not None:
            return named
    return error


def byte_length(name: str, value: Any) -> int:
    """The length of a bytes-like argument that is checked in Python before the extension
    sees it (a str has a len() too, and must not fail a length check instead)."""
    if type(value) is bytes:
        return len(value)
    error = _not_bytes_like(name, value)
    if error is not None:
        raise error
    return memoryview(value).nbytes


class _Entropy:
    def __init__(self, values: dict, level: int) -> None:
        # The parameters dilithium-py exposes as attributes (FIPS 204 Table 1 names), taken from
        # the checked table entry (see _params), equal to what the caller's dict holds.
        for name in ("d", "k", "l", "eta", "tau", "omega", "gamma_1", "gamma_2"):
            setattr(self, name, values[name])
        self.beta = self.tau * self.eta
        self._level = level
        # Use system randomness by default; set_drbg_seed() switches to the NIST DRBG.
        self.random_bytes = os.urandom

    def set_drbg_seed(self, seed: bytes) -> None:
        """Change the entropy source to the AES-256 CTR DRBG seeded with ``seed`` (48 bytes),
        so that KAT scripts reproduce NIST's files."""
        from .drbg.aes256_ctr_drbg import AES256_CTR_DRBG

        self._drbg = AES256_CTR_DRBG(seed)
        self.random_bytes = self._drbg.random_bytes
