"""Every error path gives a specific Python exception with a useful message, never a panic."""

import pytest

from conftest import LEVELS, PRIVATE, PUBLIC, SIZES, fresh_ml_dsa
import mldsa_rs
from mldsa_rs import InvalidKey, InvalidSignature
from mldsa_rs._native import AesCtrDrbg, LegacySigningKey, MuHasher, PreHasher, SigningKey, VerifyingKey
from mldsa_rs.ml_dsa import pkcs


def test_wrong_types():
    key = mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    for bad in ("text", 5, None, [1, 2], 3.0):
        with pytest.raises(TypeError, match="bytes-like"):
            key.sign(bad)
        with pytest.raises(TypeError):
            key.public_key().verify(bad, b"m")
        with pytest.raises(TypeError):
            mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bad)
    with pytest.raises(TypeError):
        key.sign(b"m", "ctx")


@pytest.mark.parametrize("level", LEVELS)
def test_lengths_name_field_expected_and_got(level):
    pk_len, sk_len, sig_len = SIZES[level]
    with pytest.raises(ValueError, match=r"seed must be 32 bytes, got 31"):
        PRIVATE[level].from_seed_bytes(bytes(31))
    with pytest.raises(ValueError, match=rf"verifying key must be {pk_len} bytes, got {pk_len + 1}"):
        PUBLIC[level].from_public_bytes(bytes(pk_len + 1))
    with pytest.raises(ValueError, match=rf"signing key must be {sk_len} bytes, got 0"):
        PRIVATE[level].from_expanded_bytes(b"")
    with pytest.raises(ValueError, match=r"context must be at most 255 bytes, got 256"):
        PRIVATE[level].from_seed_bytes(bytes(32)).sign(b"m", bytes(256))
    with pytest.raises(ValueError, match=r"mu must be 64 bytes, got 63"):
        PRIVATE[level].from_seed_bytes(bytes(32)).sign_mu(bytes(63))
    with pytest.raises(ValueError, match=r"digest must be 64 bytes for SHA2-512, got 32"):
        PRIVATE[level].from_seed_bytes(bytes(32)).sign_digest(bytes(32), "SHA2-512")
    pub = PRIVATE[level].from_seed_bytes(bytes(32)).public_key()
    for sig in (b"", bytes(sig_len - 1), bytes(sig_len + 1), bytes(sig_len), b"\xff" * sig_len):
        with pytest.raises(InvalidSignature):
            pub.verify(sig, b"m")
    m = fresh_ml_dsa(level)
    with pytest.raises(ValueError, match="seed must be 32 bytes long"):
        m.key_derive(bytes(33))
    with pytest.raises(ValueError, match="ctx bytes must have length at most 255"):
        m.sign(m.key_derive(bytes(32))[1], b"m", bytes(300))
    assert m.verify(m.key_derive(bytes(32))[0], b"m", b"short") is False
    with pytest.raises(ValueError):
        m.verify(bytes(5), b"m", bytes(sig_len))


def test_malformed_keys():
    key = mldsa_rs.MLDSA65PrivateKey.from_seed_bytes(bytes(32))
    sk = bytearray(key.expanded_bytes())
    sk[200] ^= 0xFF  # s1 out of [-eta, eta] or tr/t0 inconsistent
    with pytest.raises(InvalidKey):
        mldsa_rs.MLDSA65PrivateKey.from_expanded_bytes(bytes(sk))
    sk2 = bytearray(key.expanded_bytes())
    sk2[70] ^= 1  # tr
    with pytest.raises(InvalidKey, match="malformed"):
        mldsa_rs.MLDSA65PrivateKey.from_expanded_bytes(bytes(sk2))
    with pytest.raises(ValueError, match="malformed"):
        fresh_ml_dsa(65).pk_from_sk(bytes(sk2))
    with pytest.raises(ValueError):
        LegacySigningKey.from_bytes(3, b"\x00" * 10)


def test_malformed_pem_and_der():
    key = mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    der = key.private_bytes("DER")
    pem = key.private_bytes("PEM")
    for bad in (b"", b"\x30", der[:-1], der + b"\x00", b"\x30\x03\x02\x01\x00", pem[:40], pem.replace(b"PRIVATE", b"PUBLIC"),
                b"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n", "-----BEGIN PRIVATE KEY-----\n"):
        with pytest.raises(InvalidKey):
            mldsa_rs.load_private_key(bad)
    spki = key.public_key().public_bytes("DER")
    for bad in (spki[:-1], spki + b"\x00", der, b"\x00" * 10, "not pem"):
        with pytest.raises(InvalidKey):
            mldsa_rs.load_public_key(bad)
    with pytest.raises(InvalidKey):
        pkcs.pk_from_der(spki[:-3])
    with pytest.raises(InvalidKey):
        pkcs.sk_from_pem(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    with pytest.raises(ValueError, match="Invalid form"):
        pkcs.sk_to_der(mldsa_rs.ml_dsa.ML_DSA_44, seed=bytes(32), form="bogus")
    with pytest.raises(ValueError, match="requires specifying seed"):
        pkcs.sk_to_der(mldsa_rs.ml_dsa.ML_DSA_44, sk=key.expanded_bytes(), form="seed")
    with pytest.raises(ValueError, match="encoding"):
        key.private_bytes("XML")
    with pytest.raises(ValueError, match="form"):
        key.private_bytes("PEM", "compressed")


def test_misc_native_errors():
    with pytest.raises(ValueError, match="level must be 44, 65 or 87, got 45"):
        SigningKey.from_seed(45, bytes(32))
    with pytest.raises(ValueError, match="level must be 2, 3 or 5"):
        LegacySigningKey.from_seed(4, bytes(32))
    with pytest.raises(ValueError, match="unknown pre-hash"):
        mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(32)).sign(b"m", prehash="MD5")
    with pytest.raises(ValueError, match="unsupported hash algorithm"):
        fresh_ml_dsa(44, True)._sign_with_pre_hash(fresh_ml_dsa(44).key_derive(bytes(32))[1], b"m", "SHA3-256")
    h = MuHasher(bytes(64), b"")
    h.finalize()
    with pytest.raises(RuntimeError, match="finalized"):
        h.update(b"x")
    with pytest.raises(ValueError, match="tr must be 64 bytes"):
        MuHasher(bytes(10))
    with pytest.raises(ValueError):
        PreHasher("nope")
    with pytest.raises(ValueError, match="seed must be 48 bytes, got 47"):
        AesCtrDrbg(bytes(47))
    with pytest.raises(ValueError, match="personalization must be at most 48"):
        AesCtrDrbg(bytes(48), bytes(49))
    with pytest.raises(ValueError, match="additional must be at most 48"):
        AesCtrDrbg(bytes(48)).random_bytes(5, bytes(49))
    with pytest.raises(ValueError):
        VerifyingKey.from_bytes(44, bytes(3))


@pytest.mark.parametrize("level", LEVELS)
def test_drop_in_sign_rejects_bad_key_bytes(level):
    """Every drop-in signing mode reads the key bytes strictly: length, then s1 and s2."""
    _, sk_len, _ = SIZES[level]
    m, h = fresh_ml_dsa(level), fresh_ml_dsa(level, hashed=True)
    calls = (
        lambda sk: m.sign(sk, b"m"),
        lambda sk: m.sign_external_mu(sk, bytes(64)),
        lambda sk: m._sign_internal(sk, b"m", bytes(32)),
        lambda sk: h.sign(sk, b"m"),
    )
    sk = bytearray(m.key_derive(bytes(32))[1])
    sk[128] = 0xFF  # s1's first coefficients out of [-eta, eta]
    for call in calls:
        with pytest.raises(ValueError, match=rf"signing key must be {sk_len} bytes, got {sk_len - 1}"):
            call(bytes(sk_len - 1))
        with pytest.raises(InvalidKey, match="s1"):
            call(bytes(sk))


def test_legacy_drop_in_sign_reads_key_bytes_strictly():
    from mldsa_rs.dilithium import Dilithium3

    pk, sk = Dilithium3.keygen()
    # A bytes message is signed straight from the key bytes, any other buffer through a key
    # object: the same signature either way.
    sig = Dilithium3.sign(sk, b"m" * 5000)
    assert Dilithium3.sign(sk, bytearray(b"m" * 5000)) == sig
    assert Dilithium3.verify(pk, b"m" * 5000, sig)
    for msg in (b"m", bytearray(b"m")):
        with pytest.raises(ValueError, match=rf"signing key must be {len(sk)} bytes, got {len(sk) - 1}"):
            Dilithium3.sign(sk[:-1], msg)
    bad = bytearray(sk)
    bad[96] = 0xFF  # s1 out of [-eta, eta]
    for msg in (b"m", bytearray(b"m")):
        with pytest.raises(InvalidKey, match="s1"):
            Dilithium3.sign(bytes(bad), msg)
