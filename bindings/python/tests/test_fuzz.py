"""Hypothesis-driven random input to every decoder and verifier: a typed exception or a clean
result, never a panic (which PyO3 would raise as PanicException, a BaseException)."""

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from conftest import LEVELS, PRIVATE, PUBLIC, SIZES, fresh_ml_dsa  # noqa: E402
import mldsa_rs  # noqa: E402
from mldsa_rs.ml_dsa import pkcs  # noqa: E402

EXPECTED = (ValueError, TypeError, mldsa_rs.InvalidSignature)
KEYS = {lvl: PRIVATE[lvl].from_seed_bytes(bytes([lvl]) * 32) for lvl in LEVELS}
# No example database: the suite runs from a fresh clone and should leave no files behind.
SETTINGS = settings(max_examples=150, deadline=None, database=None)


def sized(level, which):
    n = SIZES[level][which]
    return st.one_of(st.binary(min_size=n, max_size=n), st.binary(max_size=n + 2))


@SETTINGS
@given(st.sampled_from(LEVELS), st.data())
def test_public_key_and_verify(level, data):
    pk = data.draw(sized(level, 0))
    sig = data.draw(sized(level, 2))
    msg, ctx = data.draw(st.binary(max_size=64)), data.draw(st.binary(max_size=300))
    try:
        PUBLIC[level].from_public_bytes(pk).verify(sig, msg, ctx)
    except EXPECTED:
        pass
    try:
        KEYS[level].public_key().verify(sig, msg, ctx, prehash="SHA2-256")
    except EXPECTED:
        pass
    try:
        assert fresh_ml_dsa(level).verify(pk, msg, sig) in (True, False)
    except ValueError:
        pass


@SETTINGS
@given(st.sampled_from(LEVELS), st.data())
def test_expanded_secret_key(level, data):
    sk = data.draw(sized(level, 1))
    for check in (True, False):
        try:
            PRIVATE[level].from_expanded_bytes(sk, check=check).sign(b"m")
        except EXPECTED:
            pass
    try:
        fresh_ml_dsa(level).sign(sk, b"m")
    except ValueError:
        pass


def mutations(doc):
    return st.one_of(
        st.binary(max_size=200),
        st.builds(lambda i, b: doc[:i] + bytes([b]) + doc[i + 1:], st.integers(0, len(doc) - 1), st.integers(0, 255)),
        st.builds(lambda i: doc[:i], st.integers(0, len(doc))),
    )


DER = KEYS[44].private_bytes("DER", "both")
PEM = KEYS[65].private_bytes("PEM")
SPKI = KEYS[87].public_key().public_bytes("DER")
ENC = KEYS[44].private_bytes("DER", password=b"pw")


@SETTINGS
@given(st.one_of(mutations(DER), mutations(PEM), mutations(SPKI), mutations(ENC), st.text(max_size=100)))
def test_containers(doc):
    for fn in (mldsa_rs.load_private_key, mldsa_rs.load_public_key, pkcs.sk_from_der, pkcs.pk_from_der,
               pkcs.sk_from_pem, pkcs.pk_from_pem, lambda d: mldsa_rs.load_private_key(d, b"pw")):
        try:
            fn(doc)
        except EXPECTED:
            pass


@SETTINGS
@given(st.sampled_from([2, 3, 5]), st.binary(max_size=5000), st.binary(max_size=5000))
def test_legacy_decoders(level, pk, sig):
    cls = {2: mldsa_rs.Dilithium2PublicKey, 3: mldsa_rs.Dilithium3PublicKey, 5: mldsa_rs.Dilithium5PublicKey}[level]
    try:
        cls.from_public_bytes(pk).verify(sig, b"m")
    except EXPECTED:
        pass
    try:
        {2: mldsa_rs.Dilithium2PrivateKey, 3: mldsa_rs.Dilithium3PrivateKey, 5: mldsa_rs.Dilithium5PrivateKey}[level].from_private_bytes(sig)
    except EXPECTED:
        pass
