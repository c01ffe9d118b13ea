"""``HashML_DSA``: dilithium-py's HashML-DSA class (pre-hash SHA256, SHA512 or SHAKE128)."""

from __future__ import annotations

from hashlib import sha256, sha512, shake_128

from .._dropin import named_type_error as _named
from .._native import sign_expanded, verify_bytes
from .ml_dsa import ML_DSA, _check_ctx

# dilithium-py's hash names, and the NIST names the Rust core knows them by.
_NAMES = {"SHA256": "SHA2-256", "SHA512": "SHA2-512", "SHAKE128": "SHAKE-128"}
_OID_ARC = {"SHA256": 0x01, "SHA512": 0x03, "SHAKE128": 0x0B}


def _core_name(hash_name: str) -> str:
    if not isinstance(hash_name, str):
        raise TypeError(
            "hash_name must be a str ('SHA256', 'SHA512' or 'SHAKE128'), "
            f"not {type(hash_name).__name__}"
        )
    name = _NAMES.get(hash_name.upper())
    if name is None:
        raise ValueError(f"unsupported hash algorithm: {hash_name}")
    return name


class HashML_DSA(ML_DSA):
    def _hash_with_oid(self, m: bytes, hash_name: str) -> tuple[bytes, bytes]:
        """The DER OID of the pre-hash and PH(m), as HashML-DSA places them in M'."""
        _core_name(hash_name)
        upper = hash_name.upper()
        oid = bytes([0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, _OID_ARC[upper]])
        try:
            if upper == "SHA256":
                return oid, sha256(m).digest()
            if upper == "SHA512":
                return oid, sha512(m).digest()
            return oid, shake_128(m).digest(32)
        except TypeError as e:
            raise _named(e, {"m": m}) from None

    def _sign_with_pre_hash(
        self,
        sk: bytes,
        m: bytes,
        hash_name: str,
        ctx: bytes = b"",
        deterministic: bool = False,
    ) -> bytes:
        """HashML-DSA.Sign (FIPS 204 Algorithm 4) with the named pre-hash."""
        name = _core_name(hash_name)
        try:
            _check_ctx(ctx)
            rnd = self._rnd(deterministic)
            return sign_expanded(self._level, sk, m, rnd, ctx, name)
        except TypeError as e:
            raise _named(e, {"sk": sk, "m": m, "ctx": ctx}) from None

    def _verify_with_pre_hash(
        self, pk: bytes, m: bytes, sig: bytes, hash_name: str, ctx: bytes = b""
    ) -> bool:
        """HashML-DSA.Verify (Algorithm 5) with the named pre-hash."""
        name = _core_name(hash_name)
        try:
            _check_ctx(ctx)
            return verify_bytes(self._level, pk, m, sig, ctx, name)
        except TypeError as e:
            raise _named(e, {"pk": pk, "m": m, "sig": sig, "ctx": ctx}) from None

    def sign(
        self,
        sk: bytes,
        m: bytes,
        ctx: bytes = b"",
        deterministic: bool = False,
    ) -> bytes:
        """HashML-DSA.Sign with SHA512."""
        return self._sign_with_pre_hash(sk, m, "SHA512", ctx, deterministic)

    def verify(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes = b"") -> bool:
        """HashML-DSA.Verify with SHA512."""
        return self._verify_with_pre_hash(pk, m, sig, "SHA512", ctx)
