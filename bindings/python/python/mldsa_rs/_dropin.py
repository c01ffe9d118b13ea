"""What the dilithium-py compatible objects share: their parameter attributes, the entropy source
they sign and generate keys with (``os.urandom``, or the AES-256 CTR DRBG after
``set_drbg_seed``), ``_h``, the named errors for arguments of the wrong type, and a clear
refusal of dilithium-py's polynomial internals, which have no counterpart here."""

from __future__ import annotations

import os
from hashlib import shake_256
from typing import Any, Optional

# dilithium-py's internals that take or return its pure-Python polynomial, vector and matrix
# objects. The Rust core does that arithmetic without such objects, so these do not exist
# here; asking for one says so (an AttributeError, so hasattr() stays False) instead of a bare
# "no attribute". The README's "Not provided" section lists them with the reason.
_NOT_PROVIDED = frozenset({
    "R", "M",
    "_expand_matrix_from_seed", "_expand_vector_from_seed", "_expand_mask_vector",
    "_pack_pk", "_pack_sk", "_pack_h", "_pack_sig",
    "_unpack_pk", "_unpack_sk", "_unpack_h", "_unpack_sig",
})


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

    @staticmethod
    def _h(in_bytes: bytes, length: int) -> bytes:
        """H (FIPS 204 section 3.7): SHAKE256 of ``in_bytes``, ``length`` bytes."""
        return shake_256(in_bytes).digest(length)

    def __getattr__(self, name: str) -> Any:
        # Called only for names normal lookup did not find.
        if name in _NOT_PROVIDED:
            raise AttributeError(
                f"{type(self).__name__}.{name} is not provided by mldsa_rs: it works on "
                "dilithium-py's pure-Python polynomial objects, which the Rust core does not "
                "use (see 'Not provided' in the mldsa-rs README)"
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
