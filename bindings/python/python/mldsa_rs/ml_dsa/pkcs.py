"""dilithium-py's PKCS helpers (``dilithium_py.ml_dsa.pkcs``): SPKI and PKCS#8 (RFC 9881),
DER and PEM, over the Rust core's strict codecs. No ``ecdsa`` dependency; malformed input
raises ``mldsa_rs.InvalidKey`` (a ``ValueError``) where dilithium-py raises ecdsa's
``UnexpectedDER``. As there, the PEM writers return ``bytes``.

>>> from mldsa_rs.ml_dsa import ML_DSA_44
>>> pk, sk = ML_DSA_44.key_derive(bytes(32))
>>> ml_dsa, key = pk_from_pem(pk_to_pem(ML_DSA_44, pk))
>>> ml_dsa is ML_DSA_44 and key == pk
True
>>> ml_dsa, expanded, seed, pk2 = sk_from_der(sk_to_der(ML_DSA_44, seed=bytes(32)))
>>> (expanded, seed, pk2) == (sk, bytes(32), pk)
True
"""

from __future__ import annotations

from typing import Optional, Union

from .._dropin import byte_length
from .._native import SigningKey, VerifyingKey
from .._params import oid
from .default_parameters import ML_DSA_44, ML_DSA_65, ML_DSA_87
from .ml_dsa import ML_DSA

OIDS = {
    ML_DSA_44.oid: ML_DSA_44,
    ML_DSA_65.oid: ML_DSA_65,
    ML_DSA_87.oid: ML_DSA_87,
}
_BY_LEVEL = {44: ML_DSA_44, 65: ML_DSA_65, 87: ML_DSA_87}


def _check_oid(ml_dsa: ML_DSA) -> None:
    if not ml_dsa.oid:
        raise ValueError("Only ML_DSAs with specified OIDs can be encoded")
    # dilithium-py writes whatever OID the object holds, so an object built from a
    # HASH_ML_DSA_* dict gives keys labelled HashML-DSA, which its own readers refuse. The Rust
    # codecs write the pure ML-DSA OIDs (RFC 9881) only: refuse rather than relabel.
    if ml_dsa.oid != oid(ml_dsa._level):
        raise ValueError(
            f"this object holds the HashML-DSA OID {ml_dsa.oid}; keys are encoded under the "
            f"ML-DSA OID {oid(ml_dsa._level)} only (use ML_DSA_{ml_dsa._level})"
        )


def _public(ml_dsa: ML_DSA, pk: bytes) -> VerifyingKey:
    _check_oid(ml_dsa)
    if byte_length("pk", pk) != ml_dsa._pk_size():
        raise ValueError("Provided key size doesn't match the provided ML_DSA")
    return VerifyingKey.from_bytes(ml_dsa._level, pk)


def pk_to_der(ml_dsa: ML_DSA, pk: bytes) -> bytes:
    """The SubjectPublicKeyInfo DER of ``pk``."""
    return _public(ml_dsa, pk).to_spki_der()


def pk_to_pem(ml_dsa: ML_DSA, pk: bytes) -> bytes:
    """The SubjectPublicKeyInfo PEM (``PUBLIC KEY``) of ``pk``, as bytes."""
    return _public(ml_dsa, pk).to_spki_pem().encode()


def pk_from_der(enc_key: bytes) -> tuple[ML_DSA, bytes]:
    """``(ml_dsa, pk)`` from SubjectPublicKeyInfo DER."""
    key = VerifyingKey.from_spki(bytes(enc_key))
    return _BY_LEVEL[key.level], key.to_bytes()


def pk_from_pem(enc_key: Union[str, bytes]) -> tuple[ML_DSA, bytes]:
    """``(ml_dsa, pk)`` from SubjectPublicKeyInfo PEM."""
    key = VerifyingKey.from_spki(enc_key if isinstance(enc_key, str) else bytes(enc_key))
    return _BY_LEVEL[key.level], key.to_bytes()


def _signing_key(ml_dsa: ML_DSA, sk: Optional[bytes], seed: Optional[bytes]) -> SigningKey:
    if seed:
        key = SigningKey.from_seed(ml_dsa._level, seed)
        if sk and key.expanded() != bytes(sk):
            raise ValueError("sk does not match seed")
        return key
    return SigningKey.from_expanded(ml_dsa._level, sk, False)


def _form(sk: Optional[bytes], seed: Optional[bytes], form: Optional[str]) -> str:
    if form not in ("seed", "expanded", "both", None):
        raise ValueError(
            f"Invalid form specified: {form}. "
            "Only 'seed', 'expanded', 'both', or None are allowed"
        )
    if not sk and not seed:
        raise ValueError("sk or seed must be specified")
    if form in ("both", "seed") and not seed:
        raise ValueError(f'Format "{form}" requires specifying seed')
    if form is None:
        form = "both" if (sk and seed) else ("expanded" if sk else "seed")
    return form


def _to_export(
    ml_dsa: ML_DSA, sk: Optional[bytes], seed: Optional[bytes], form: Optional[str]
) -> tuple[SigningKey, str]:
    """The key to write and the form to write it in, after dilithium-py's checks."""
    _check_oid(ml_dsa)
    form = _form(sk, seed, form)
    if sk and byte_length("sk", sk) != ml_dsa._sk_size():
        raise ValueError("Invalid signing key size for the provided ML_DSA")
    if seed and byte_length("seed", seed) != 32:
        raise ValueError("Invalid seed size")
    return _signing_key(ml_dsa, sk, seed), form


def sk_to_der(
    ml_dsa: ML_DSA,
    sk: Optional[bytes] = None,
    seed: Optional[bytes] = None,
    form: Optional[str] = None,
) -> bytes:
    """PKCS#8 DER of a signing key given as ``sk`` (expanded), ``seed``, or both; ``form``
    is ``"seed"``, ``"expanded"``, ``"both"`` or None (keep all that was given)."""
    key, form = _to_export(ml_dsa, sk, seed, form)
    return key.to_pkcs8_der(form)


def sk_to_pem(
    ml_dsa: ML_DSA,
    sk: Optional[bytes] = None,
    seed: Optional[bytes] = None,
    form: Optional[str] = None,
) -> bytes:
    """PKCS#8 PEM (``PRIVATE KEY``) of a signing key, as bytes; arguments as ``sk_to_der``."""
    key, form = _to_export(ml_dsa, sk, seed, form)
    return key.to_pkcs8_pem(form).encode()


def _unpack(key: SigningKey) -> tuple[ML_DSA, bytes, Optional[bytes], bytes]:
    return _BY_LEVEL[key.level], key.expanded(), key.seed(), key.public_key().to_bytes()


def sk_from_der(enc_key: bytes) -> tuple[ML_DSA, bytes, Optional[bytes], bytes]:
    """``(ml_dsa, expanded_sk, seed_or_None, pk)`` from PKCS#8 DER."""
    key, _form_found = SigningKey.from_pkcs8(bytes(enc_key))
    return _unpack(key)


def sk_from_pem(enc_key: Union[str, bytes]) -> tuple[ML_DSA, bytes, Optional[bytes], bytes]:
    """``(ml_dsa, expanded_sk, seed_or_None, pk)`` from PKCS#8 PEM."""
    key, _form_found = SigningKey.from_pkcs8(enc_key if isinstance(enc_key, str) else bytes(enc_key))
    return _unpack(key)
