"""``Dilithium``: dilithium-py's round-3 class (deterministic signing, as round 3 specifies).

>>> from mldsa_rs.dilithium import Dilithium2
>>> Dilithium2.set_drbg_seed(bytes(48))
>>> pk, sk = Dilithium2.keygen()
>>> Dilithium2.verify(pk, b"msg", Dilithium2.sign(sk, b"msg"))
True
"""

from __future__ import annotations

from .._dropin import _Entropy, named_type_error as _named
from .._native import LegacySigningKey, LegacyVerifyingKey, legacy_sign_bytes
from .._params import ROUND3_SETS, round3_level


class Dilithium(_Entropy):
    def __init__(self, parameter_set: dict):
        level = round3_level(parameter_set)
        super().__init__(ROUND3_SETS[level], level)

    @staticmethod
    def _h(input_bytes: bytes, length: int) -> bytes:
        """H: SHAKE256 of ``input_bytes``, ``length`` bytes (dilithium-py's round-3 class names
        the argument ``input_bytes``, its ML_DSA ``in_bytes``)."""
        return _Entropy._h(input_bytes, length)

    def keygen(self) -> tuple[bytes, bytes]:
        """``(pk, sk)`` from 32 bytes of the entropy source."""
        key = LegacySigningKey.from_seed(self._level, self.random_bytes(32))
        return key.public_key().to_bytes(), key.to_bytes()

    def sign(self, sk_bytes: bytes, m: bytes) -> bytes:
        """The deterministic round-3 signature of ``m``."""
        # Straight from the key bytes (no public key derived), as dilithium-py signs.
        try:
            return legacy_sign_bytes(self._level, sk_bytes, m)
        except TypeError as e:
            raise _named(e, {"sk_bytes": sk_bytes, "m": m}) from None

    def verify(self, pk_bytes: bytes, m: bytes, sig_bytes: bytes) -> bool:
        """True if ``sig_bytes`` is a valid signature of ``m`` under ``pk_bytes``."""
        try:
            return LegacyVerifyingKey.from_bytes(self._level, pk_bytes).verify(m, sig_bytes)
        except TypeError as e:
            raise _named(e, {"pk_bytes": pk_bytes, "m": m, "sig_bytes": sig_bytes}) from None
