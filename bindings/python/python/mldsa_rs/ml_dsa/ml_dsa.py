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

from .._dropin import _Entropy
from .._native import SigningKey, VerifyingKey, sign_expanded, verify_bytes

_ZERO_RND = bytes(32)


def _check_ctx(ctx: bytes) -> None:
    if len(ctx) > 255:
        raise ValueError(
            f"ctx bytes must have length at most 255, ctx has length {len(ctx) = }"
        )


class ML_DSA(_Entropy):
    def __init__(self, parameter_set: dict):
        super().__init__(parameter_set)
        self.c_tilde_bytes = parameter_set["c_tilde_bytes"]
        self.oid = parameter_set.get("oid")

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
        key = SigningKey.from_seed(self._level, zeta)
        return key.public_key().to_bytes(), key.expanded()

    def _sign_internal(
        self, sk: bytes, m: bytes, rnd: bytes, external_mu: bool = False
    ) -> bytes:
        """ML-DSA.Sign_internal (Algorithm 7) on a formatted M', or on mu when
        ``external_mu`` is True."""
        return sign_expanded(self._level, sk, m, rnd, external_mu=external_mu)

    def _verify_internal(self, pk: bytes, m: bytes, sig: bytes) -> bool:
        """ML-DSA.Verify_internal (Algorithm 8) on a formatted M'."""
        return verify_bytes(self._level, pk, m, sig)

    def keygen(self) -> tuple[bytes, bytes]:
        """ML-DSA.KeyGen (Algorithm 1): ``(pk, sk)``."""
        zeta = self.random_bytes(32)
        return self._keygen_internal(zeta)

    def key_derive(self, seed: bytes) -> tuple[bytes, bytes]:
        """``(pk, sk)`` from the 32-byte seed xi (FIPS 204 section 6.1)."""
        if len(seed) != 32:
            raise ValueError("The seed must be 32 bytes long")
        return self._keygen_internal(seed)

    def sign(
        self, sk: bytes, m: bytes, ctx: bytes = b"", deterministic: bool = False
    ) -> bytes:
        """ML-DSA.Sign (Algorithm 2)."""
        _check_ctx(ctx)
        return sign_expanded(self._level, sk, m, self._rnd(deterministic), ctx)

    def verify(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes = b"") -> bool:
        """ML-DSA.Verify (Algorithm 3)."""
        _check_ctx(ctx)
        return verify_bytes(self._level, pk, m, sig, ctx)

    def pk_from_sk(self, sk: bytes) -> bytes:
        """The public key of an expanded secret key; ValueError if tr or t0 do not match."""
        return SigningKey.from_expanded(self._level, sk, True).public_key().to_bytes()

    def prehash_external_mu(self, pk: bytes, m: bytes, ctx: bytes = b"") -> bytes:
        """mu = H(H(pk) || M') for ``sign_external_mu``."""
        _check_ctx(ctx)
        if len(pk) != self._pk_size():
            raise ValueError(
                f"Public key size doesn't match this ML-DSA object parameters,"
                f"received {len(pk) = }, expected: {self._pk_size()}"
            )
        return VerifyingKey.from_bytes(self._level, pk).compute_mu(m, ctx)

    def sign_external_mu(
        self, sk: bytes, mu: bytes, deterministic: bool = False
    ) -> bytes:
        """An ML-DSA signature from an externally computed mu (64 bytes)."""
        if len(mu) != 64:
            raise ValueError(
                f"mu bytes must have length 64, mu has length {len(mu) = }"
            )
        return sign_expanded(
            self._level, sk, mu, self._rnd(deterministic), external_mu=True
        )
