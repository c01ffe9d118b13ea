"""The key API's caller randomness (``rnd=``, hedged signing as ACVP tests it) and its internal
interface (``sign_internal`` / ``verify_internal`` on a caller-formatted M', ``sign_mu`` /
``verify_mu`` on an external mu), against dilithium-py's algorithms with the same rnd."""

import random

import pytest

from conftest import LEVELS, PRIVATE, fresh_ml_dsa
from mldsa_rs import InvalidSignature

dpy = pytest.importorskip("dilithium_py.ml_dsa.default_parameters")
from dilithium_py.ml_dsa.hash_ml_dsa import HashML_DSA as DpyHash  # noqa: E402
from dilithium_py.ml_dsa.ml_dsa import ML_DSA as DpyML_DSA  # noqa: E402


def theirs(level):
    return DpyHash(dpy.DEFAULT_PARAMETERS[f"ML_DSA_{level}"])


def with_rnd(obj, rnd):
    obj.random_bytes = lambda n: rnd[:n]
    return obj


@pytest.mark.parametrize("level", LEVELS)
def test_rnd_matches_dilithium_py_in_every_mode(level):
    rng = random.Random(f"rnd{level}")
    seed, rnd, msg, ctx = rng.randbytes(32), rng.randbytes(32), rng.randbytes(200), rng.randbytes(9)
    key = PRIVATE[level].from_seed_bytes(seed)
    pub = key.public_key()
    t = with_rnd(theirs(level), rnd)
    pk, sk = t.key_derive(seed)
    assert pub.public_bytes_raw() == pk

    sig = key.sign(msg, ctx, rnd=rnd)
    assert sig == DpyML_DSA.sign(t, sk, msg, ctx)  # pure ML-DSA.Sign of the HashML_DSA object
    pub.verify(sig, msg, ctx)

    assert key.sign(msg, ctx, prehash="SHA2-512", rnd=rnd) == t.sign(sk, msg, ctx)
    digest = __import__("hashlib").sha256(msg).digest()
    assert key.sign_digest(digest, "SHA2-256", ctx, rnd=rnd) == t._sign_with_pre_hash(sk, msg, "SHA256", ctx)

    mu = pub.compute_mu(msg, ctx)
    sig_mu = key.sign_mu(mu, rnd=rnd)
    assert sig_mu == t.sign_external_mu(sk, mu)
    pub.verify_mu(sig_mu, mu)

    m_prime = rng.randbytes(50)  # Sign_internal signs any byte string as M'
    sig_int = key.sign_internal(m_prime, rnd=rnd)
    assert sig_int == t._sign_internal(sk, m_prime, rnd)
    pub.verify_internal(sig_int, m_prime)
    assert t._verify_internal(pk, m_prime, sig_int)
    with pytest.raises(InvalidSignature):
        pub.verify_internal(sig_int, m_prime + b"x")
    with pytest.raises(InvalidSignature):
        pub.verify_internal(sig, m_prime)

    signer = key.signer(ctx, rnd=rnd)
    signer.update(msg[:77])
    signer.update(msg[77:])
    assert signer.finalize() == sig
    signer = key.signer(ctx, rnd=rnd, prehash="SHA2-512")
    signer.update(msg)
    assert signer.finalize() == t.sign(sk, msg, ctx)


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_is_rnd_zero_and_default_is_hedged(level):
    key = PRIVATE[level].from_seed_bytes(bytes(range(32)))
    assert key.sign(b"m", rnd=bytes(32)) == key.sign(b"m", deterministic=True)
    assert key.sign_internal(b"m", rnd=bytes(32)) == key.sign_internal(b"m", deterministic=True)
    assert key.sign_internal(b"m", deterministic=True) == fresh_ml_dsa(level)._sign_internal(
        key.expanded_bytes(), b"m", bytes(32)
    )
    # Hedged by default: fresh OS randomness each time, and both verify.
    a, b = key.sign_internal(b"m"), key.sign_internal(b"m")
    assert a != b
    for s in (a, b):
        key.public_key().verify_internal(s, b"m")


def test_rnd_errors():
    key = PRIVATE[65].from_seed_bytes(bytes(32))
    calls = (
        lambda **kw: key.sign(b"m", **kw),
        lambda **kw: key.sign(b"m", prehash="SHA2-256", **kw),
        lambda **kw: key.sign_digest(bytes(32), "SHA2-256", **kw),
        lambda **kw: key.sign_mu(bytes(64), **kw),
        lambda **kw: key.sign_internal(b"m", **kw),
        lambda **kw: key.signer(**kw).finalize(),
    )
    for call in calls:
        with pytest.raises(ValueError, match="rnd must be 32 bytes, got 31"):
            call(rnd=bytes(31))
        with pytest.raises(TypeError, match="rnd must be a bytes-like object"):
            call(rnd="x" * 32)
        with pytest.raises(ValueError, match="rnd or deterministic=True, not both"):
            call(rnd=bytes(32), deterministic=True)
    with pytest.raises(TypeError):
        key.sign(b"m", b"", False)  # deterministic and rnd are keyword-only
    with pytest.raises(TypeError, match="message must be a bytes-like object"):
        key.sign_internal(None)
    with pytest.raises(TypeError, match="message must be a bytes-like object"):
        key.public_key().verify_internal(bytes(3309), None)
