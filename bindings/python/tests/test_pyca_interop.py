"""Cross-checks with pyca/cryptography's ML-DSA: keys and signatures both ways, SPKI and
PKCS#8 (PEM and DER) both ways."""

import pytest

from conftest import LEVELS, PRIVATE, PUBLIC
import mldsa_rs

mldsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.mldsa")
from cryptography.exceptions import InvalidSignature as PycaInvalid  # noqa: E402
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402

PYCA_PRIV = {44: "MLDSA44PrivateKey", 65: "MLDSA65PrivateKey", 87: "MLDSA87PrivateKey"}
PYCA_PUB = {44: "MLDSA44PublicKey", 65: "MLDSA65PublicKey", 87: "MLDSA87PublicKey"}


def pyca_keys(level):
    try:
        return getattr(mldsa, PYCA_PRIV[level]), getattr(mldsa, PYCA_PUB[level])
    except AttributeError:
        pytest.skip(f"this cryptography has no ML-DSA-{level}")


@pytest.mark.parametrize("level", LEVELS)
def test_keys_and_signatures_both_ways(level):
    PPriv, PPub = pyca_keys(level)
    for i in range(3):
        seed = bytes([i + level]) * 32
        theirs = PPriv.from_seed_bytes(seed)
        ours = PRIVATE[level].from_seed_bytes(seed)
        assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
        msg, ctx = b"m" * (i * 100), bytes([i]) * i
        sig = ours.sign(msg, ctx)
        theirs.public_key().verify(sig, msg, ctx or None)
        with pytest.raises(PycaInvalid):
            theirs.public_key().verify(sig, msg + b"x", ctx or None)
        sig2 = theirs.sign(msg, ctx or None)
        ours.public_key().verify(sig2, msg, ctx)
        with pytest.raises(mldsa_rs.InvalidSignature):
            ours.public_key().verify(sig2, msg, ctx + b"x")
        pub = PUBLIC[level].from_public_bytes(theirs.public_key().public_bytes_raw())
        assert pub == ours.public_key()


@pytest.mark.parametrize("level", LEVELS)
def test_external_mu_both_ways(level):
    PPriv, _ = pyca_keys(level)
    if not hasattr(mldsa, "MLDSAMuHasher"):
        pytest.skip("no external mu in this cryptography")
    theirs = PPriv.from_seed_bytes(bytes(32))
    ours = PRIVATE[level].from_seed_bytes(bytes(32))
    mu = ours.public_key().compute_mu(b"data", b"ctx")
    theirs.public_key().verify(ours.sign_mu(mu), b"data", b"ctx")
    ours.public_key().verify_mu(theirs.sign_mu(mu), mu)


@pytest.mark.parametrize("level", LEVELS)
def test_pem_der_both_ways(level):
    PPriv, PPub = pyca_keys(level)
    theirs = PPriv.from_seed_bytes(bytes(range(32)))
    ours = PRIVATE[level].from_seed_bytes(bytes(range(32)))
    for enc, ser_enc in (("PEM", ser.Encoding.PEM), ("DER", ser.Encoding.DER)):
        # Public keys, both directions.
        their_spki = theirs.public_key().public_bytes(ser_enc, ser.PublicFormat.SubjectPublicKeyInfo)
        assert ours.public_key().public_bytes(enc) == their_spki
        loader = ser.load_pem_public_key if enc == "PEM" else ser.load_der_public_key
        assert loader(ours.public_key().public_bytes(enc)).public_bytes_raw() == ours.public_key().public_bytes_raw()
        assert mldsa_rs.load_public_key(their_spki) == ours.public_key()
        # Private keys: the seed form, both directions; encrypted, both directions.
        their_p8 = theirs.private_bytes(ser_enc, ser.PrivateFormat.PKCS8, ser.NoEncryption())
        assert ours.private_bytes(enc) == their_p8
        assert PRIVATE[level].from_pem(their_p8).private_bytes_raw() == bytes(range(32))
        loader = ser.load_pem_private_key if enc == "PEM" else ser.load_der_private_key
        assert loader(ours.private_bytes(enc), None).private_bytes_raw() == bytes(range(32))
        enc_theirs = theirs.private_bytes(ser_enc, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"pw"))
        assert mldsa_rs.load_private_key(enc_theirs, b"pw").private_bytes_raw() == bytes(range(32))
        enc_ours = ours.private_bytes(enc, password=b"pw")
        assert loader(enc_ours, b"pw").private_bytes_raw() == bytes(range(32))
