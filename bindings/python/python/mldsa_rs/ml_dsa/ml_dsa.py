"""``ML_DSA``: dilithium-py's class of the same name (same methods, arguments, defaults and
byte formats), over the Rust core.

>>> from mldsa_rs.ml_dsa import ML_DSA_65
>>> pk, sk = ML_DSA_65.key_derive(bytes(32))
>>> sig = ML_DSA_65.sign(sk, b"hello", ctx=b"demo")
>>> ML_DSA_65.verify(pk, b"hello", sig, ctx=b"demo")
True
>>> ML_DSA_65.verify(pk, b"hello", sig)
False
"""

from __future__ import annotations

from .._dropin import _Entropy, byte_length, named_type_error as _named
from .._native import SigningKey, VerifyingKey, sign_expanded, verify_bytes
from .._params import ML_DSA_SETS, ml_dsa_level

_ZERO_RND = bytes(32)


def _check_ctx(ctx: bytes) -> None:
    # len() directly for bytes, the common case, on every sign and verify.
    if (len(ctx) if type(ctx) is bytes else byte_length("ctx", ctx)) > 255:
        raise ValueError(
            f"ctx bytes must have length at most 255, ctx has length {len(ctx) = }"
        )


class ML_DSA(_Entropy):
    def __init__(self, parameter_set: dict):
        level, oid = ml_dsa_level(parameter_set)
        super().__init__(ML_DSA_SETS[level], level)
        self.c_tilde_bytes = ML_DSA_SETS[level]["c_tilde_bytes"]
        self.oid = oid

    def _pk_size(self) -> int:
        return 32 + 32 * self.k * 10

    def _sk_size(self) -> int:
        eta_bits = 3 if self.eta == 2 else 4
        return 2 * 32 + 64 + 32 * (self.k + self.l) * eta_bits + 32 * self.k * self.d

    def _sig_size(self) -> int:
        z_bits = 18 if self.gamma_1 == 2**17 else 20
        return self.c_tilde_bytes + self.l * 32 * z_bits + self.omega + self.k

    def _rnd(self, deterministic: bool) -> bytes:
        return _ZERO_RND if deterministic else self.random_bytes(32)

    # Signing takes the expanded key bytes on every call, as dilithium-py's API does:
    # sign_expanded decodes them for signing only (s1 and s2 range-checked, tr and t0 used as
    # they are), without deriving the public key a key object would need.

    def _keygen_internal(self, zeta: bytes) -> tuple[bytes, bytes]:
        """ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from the 32-byte seed."""
        try:
            key = SigningKey.from_seed(self._level, zeta)
        except TypeError as e:
            raise _named(e, {"zeta": zeta}) from None
        return key.public_key().to_bytes(), key.expanded()

    def _sign_internal(
        self, sk: bytes, m: bytes, rnd: bytes, external_mu: bool = False
    ) -> bytes:
        """ML-DSA.Sign_internal (Algorithm 7) on a formatted M', or on mu when
        ``external_mu`` is True. ``rnd`` is required (32 bytes), as in dilithium-py: None
        raises TypeError rather than meaning fresh randomness."""
        if rnd is None:
            raise TypeError("rnd must be 32 bytes (a bytes-like object), not None")
        try:
            return sign_expanded(self._level, sk, m, rnd, external_mu=external_mu)
        except TypeError as e:
            raise _named(e, {"sk": sk, "m": m, "rnd": rnd}) from None

    def _verify_internal(self, pk: bytes, m: bytes, sig: bytes) -> bool:
        """ML-DSA.Verify_internal (Algorithm 8) on a formatted M'."""
        try:
            return verify_bytes(self._level, pk, m, sig)
        except TypeError as e:
            raise _named(e, {"pk": pk, "m": m, "sig": sig}) from None

    def keygen(self) -> tuple[bytes, bytes]:
        """ML-DSA.KeyGen (Algorithm 1): ``(pk, sk)``."""
        zeta = self.random_bytes(32)
        return self._keygen_internal(zeta)

    def key_derive(self, seed: bytes) -> tuple[bytes, bytes]:
        """``(pk, sk)`` from the 32-byte seed xi (FIPS 204 section 6.1)."""
        try:
            if byte_length("seed", seed) != 32:
                raise ValueError("The seed must be 32 bytes long")
            key = SigningKey.from_seed(self._level, seed)
        except TypeError as e:
            raise _named(e, {"seed": seed}) from None
        return key.public_key().to_bytes(), key.expanded()

    def sign(
        self, sk: bytes, m: bytes, ctx: bytes = b"", deterministic: bool = False
    ) -> bytes:
        """ML-DSA.Sign (Algorithm 2)."""
        try:
            _check_ctx(ctx)
            return sign_expanded(self._level, sk, m, self._rnd(deterministic), ctx)
        except TypeError as e:
            raise _named(e, {"sk": sk, "m": m, "ctx": ctx}) from None

    def verify(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes = b"") -> bool:
        """ML-DSA.Verify (Algorithm 3)."""
        try:
            _check_ctx(ctx)
            return verify_bytes(self._level, pk, m, sig, ctx)
        except TypeError as e:
            raise _named(e, {"pk": pk, "m": m, "sig": sig, "ctx": ctx}) from None

    def pk_from_sk(self, sk: bytes) -> bytes:
        """The public key of an expanded secret key; ValueError if tr or t0 do not match."""
        try:
            key = SigningKey.from_expanded(self._level, sk, True)
        except TypeError as e:
            raise _named(e, {"sk": sk}) from None
        return key.public_key().to_bytes()

    def prehash_external_mu(self, pk: bytes, m: bytes, ctx: bytes = b"") -> bytes:
        """mu = H(H(pk) || M') for ``sign_external_mu``."""
        try:
            _check_ctx(ctx)
            if byte_length("pk", pk) != self._pk_size():
                raise ValueError(
                    f"Public key size doesn't match this ML-DSA object parameters,"
                    f"received {len(pk) = }, expected: {self._pk_size()}"
                )
            return VerifyingKey.from_bytes(self._level, pk).compute_mu(m, ctx)
        except TypeError as e:
            raise _named(e, {"pk": pk, "m": m, "ctx": ctx}) from None

    def sign_external_mu(
        self, sk: bytes, mu: bytes, deterministic: bool = False
    ) -> bytes:
        """An ML-DSA signature from an externally computed mu (64 bytes)."""
        try:
            if byte_length("mu", mu) != 64:
                raise ValueError(
                    f"mu bytes must have length 64, mu has length {len(mu) = }"
                )
            rnd = self._rnd(deterministic)
            return sign_expanded(self._level, sk, mu, rnd, external_mu=True)
        except TypeError as e:
            raise _named(e, {"sk": sk, "mu": mu}) from None
