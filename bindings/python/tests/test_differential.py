"""Differential tests against dilithium-py (pure Python, from PyPI): for random seeds, rnd,
contexts, messages and every pre-hash mode it has, the same keys and signatures byte for byte,
and each side verifies the other's signatures."""

import random

import pytest

import mldsa_rs

from conftest import LEVELS, fresh_ml_dsa

dpy_ml_dsa = pytest.importorskip("dilithium_py.ml_dsa.default_parameters")
dpy_r3 = pytest.importorskip("dilithium_py.dilithium.default_parameters")
from dilithium_py.ml_dsa.hash_ml_dsa import HashML_DSA as DpyHash  # noqa: E402
from dilithium_py.ml_dsa.ml_dsa import ML_DSA as DpyML_DSA  # noqa: E402

from mldsa_rs.dilithium.default_parameters import DEFAULT_PARAMETERS as R3_PARAMS  # noqa: E402
from mldsa_rs.dilithium.dilithium import Dilithium  # noqa: E402

CASES = 4  # per parameter set and mode: dilithium-py takes tens of ms per signature


def both(level, hashed=False):
    dpy_cls = DpyHash if hashed else DpyML_DSA
    return fresh_ml_dsa(level, hashed), dpy_cls(dpy_ml_dsa.DEFAULT_PARAMETERS[f"ML_DSA_{level}"])


def fixed_rnd(objs, rnd):
    for o in objs:
        o.random_bytes = lambda n, rnd=rnd: rnd[:n]


@pytest.mark.parametrize("level", LEVELS)
def test_pure_sign_and_verify(level):
    rng = random.Random(level)
    ours, theirs = both(level)
    for _ in range(CASES):
        seed = rng.randbytes(32)
        rnd = rng.randbytes(32)
        ctx = rng.randbytes(rng.choice([0, 1, 17, 255]))
        msg = rng.randbytes(rng.choice([0, 1, 100, 5000]))
        keys = ours.key_derive(seed)
        assert keys == theirs.key_derive(seed)
        pk, sk = keys
        fixed_rnd((ours, theirs), rnd)
        sig = ours.sign(sk, msg, ctx)
        assert sig == theirs.sign(sk, msg, ctx)
        assert ours.sign(sk, msg, ctx, deterministic=True) == theirs.sign(sk, msg, ctx, deterministic=True)
        assert theirs.verify(pk, msg, sig, ctx) and ours.verify(pk, msg, sig, ctx)
        bad = bytearray(sig)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        assert ours.verify(pk, msg, bytes(bad), ctx) == theirs.verify(pk, msg, bytes(bad), ctx) == False  # noqa: E712
        assert ours.pk_from_sk(sk) == theirs.pk_from_sk(sk) == pk
        mu = ours.prehash_external_mu(pk, msg, ctx)
        assert mu == theirs.prehash_external_mu(pk, msg, ctx)
        assert ours.sign_external_mu(sk, mu) == theirs.sign_external_mu(sk, mu)
        assert ours._sign_internal(sk, msg, rnd) == theirs._sign_internal(sk, msg, rnd)
        assert theirs._verify_internal(pk, msg, ours._sign_internal(sk, msg, rnd))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("hash_name", ["SHA256", "SHA512", "SHAKE128", "sha512"])
def test_prehash_modes(level, hash_name):
    rng = random.Random(hash_name + str(level))
    ours, theirs = both(level, hashed=True)
    for _ in range(2):
        pk, sk = ours.key_derive(rng.randbytes(32))
        msg, ctx, rnd = rng.randbytes(300), rng.randbytes(rng.randrange(256)), rng.randbytes(32)
        fixed_rnd((ours, theirs), rnd)
        assert ours._hash_with_oid(msg, hash_name) == theirs._hash_with_oid(msg, hash_name)
        sig = ours._sign_with_pre_hash(sk, msg, hash_name, ctx)
        assert sig == theirs._sign_with_pre_hash(sk, msg, hash_name, ctx)
        assert theirs._verify_with_pre_hash(pk, msg, sig, hash_name, ctx)
        assert ours._verify_with_pre_hash(pk, msg, sig, hash_name, ctx)
    # The default (SHA512) sign / verify of the HASH_ML_DSA objects.
    assert ours.sign(sk, msg, ctx) == theirs.sign(sk, msg, ctx)
    assert theirs.verify(pk, msg, ours.sign(sk, msg, ctx, deterministic=True), ctx)


@pytest.mark.parametrize("level", LEVELS)
def test_drbg_keygen_matches(level):
    ours, theirs = both(level)
    for o in (ours, theirs):
        o.set_drbg_seed(bytes(range(48)))
    for _ in range(3):
        assert ours.keygen() == theirs.keygen()
    pytest.importorskip("Crypto")  # dilithium-py's DRBG needs pycryptodome


def test_drbg_streams_match():
    from dilithium_py.drbg.aes256_ctr_drbg import AES256_CTR_DRBG as Theirs

    from mldsa_rs.drbg.aes256_ctr_drbg import AES256_CTR_DRBG as Ours

    rng = random.Random(7)
    for _ in range(5):
        seed, pers = rng.randbytes(48), rng.randbytes(rng.randrange(49))
        a, b = Ours(seed, pers), Theirs(seed, pers)
        for _ in range(5):
            n = rng.randrange(100)
            add = rng.choice([None, rng.randbytes(rng.randrange(49))])
            assert a.random_bytes(n, add) == b.random_bytes(n, add)


@pytest.mark.parametrize("level", [2, 3, 5])
def test_round3(level):
    rng = random.Random(level)
    ours = Dilithium(R3_PARAMS[f"dilithium{level}"])
    theirs = type(dpy_r3.Dilithium2)(dpy_r3.DEFAULT_PARAMETERS[f"dilithium{level}"])
    for _ in range(2):
        seed = rng.randbytes(32)
        fixed_rnd((ours, theirs), seed)
        pk, sk = ours.keygen()
        assert (pk, sk) == theirs.keygen()
        msg = rng.randbytes(rng.randrange(1000))
        sig = ours.sign(sk, msg)
        assert sig == theirs.sign(sk, msg)
        assert theirs.verify(pk, msg, sig) and ours.verify(pk, msg, sig)


def test_pkcs_helpers_agree():
    pytest.importorskip("ecdsa")
    from dilithium_py.ml_dsa import pkcs as theirs

    from mldsa_rs.ml_dsa import pkcs as ours

    for level in LEVELS:
        o, t = both(level)
        seed = bytes([level]) * 32
        pk, sk = o.key_derive(seed)
        obj_o = getattr(__import__("mldsa_rs.ml_dsa", fromlist=["x"]), f"ML_DSA_{level}")
        obj_t = getattr(__import__("dilithium_py.ml_dsa", fromlist=["x"]), f"ML_DSA_{level}")
        assert ours.pk_to_der(obj_o, pk) == theirs.pk_to_der(obj_t, pk)
        # PEM: ours wraps base64 at 64 columns (RFC 7468), ecdsa's at 76; each reads the other.
        assert theirs.pk_from_pem(ours.pk_to_pem(obj_o, pk))[1] == pk
        assert ours.pk_from_pem(theirs.pk_to_pem(obj_t, pk)) == (obj_o, pk)
        for form in ("seed", "expanded", "both", None):
            kw = dict(sk=sk, seed=seed, form=form)
            if form == "expanded":
                kw = dict(sk=sk, form=form)
            der = ours.sk_to_der(obj_o, **kw)
            assert der == theirs.sk_to_der(obj_t, **kw)
            assert theirs.sk_from_pem(ours.sk_to_pem(obj_o, **kw))[1:] == ours.sk_from_pem(theirs.sk_to_pem(obj_t, **kw))[1:]
            _, exp_t, seed_t, pk_t = theirs.sk_from_der(der)
            got = ours.sk_from_der(der)
            assert got[0] is obj_o and got[1:] == (exp_t, seed_t, pk_t)
        assert ours.pk_from_der(theirs.pk_to_der(obj_t, pk))[1] == pk


EXAMPLE = """
from {pkg}.ml_dsa import ML_DSA_44, HASH_ML_DSA_65_WITH_SHA512
from {pkg}.dilithium import Dilithium2

pk, sk = ML_DSA_44.keygen()
msg = b"Your message signed by ML_DSA"
sig = ML_DSA_44.sign(sk, msg)
assert ML_DSA_44.verify(pk, msg, sig)
ctx = b"hello"
sig = ML_DSA_44.sign(sk, msg, ctx=ctx, deterministic=True)
assert ML_DSA_44.verify(pk, msg, sig, ctx=ctx)
assert not ML_DSA_44.verify(pk, msg, sig, ctx=b"other")
pk2, sk2 = HASH_ML_DSA_65_WITH_SHA512.key_derive(bytes(32))
sig2 = HASH_ML_DSA_65_WITH_SHA512.sign(sk2, msg)
assert HASH_ML_DSA_65_WITH_SHA512.verify(pk2, msg, sig2)
mu = ML_DSA_44.prehash_external_mu(pk, msg)
assert ML_DSA_44.verify(pk, msg, ML_DSA_44.sign_external_mu(sk, mu))
Dilithium2.set_drbg_seed(bytes(48))
pk3, sk3 = Dilithium2.keygen()
assert Dilithium2.verify(pk3, msg, Dilithium2.sign(sk3, msg))
RESULT = (pk2, sig2)
"""


def test_readme_example_runs_with_only_the_import_changed():
    results = {}
    for pkg in ("dilithium_py", "mldsa_rs"):
        ns = {}
        exec(EXAMPLE.format(pkg=pkg), ns)  # noqa: S102
        results[pkg] = ns["RESULT"][0]
    assert results["dilithium_py"] == results["mldsa_rs"]


def test_same_public_names():
    import importlib

    for mod in ("ml_dsa", "dilithium", "ml_dsa.pkcs", "drbg.aes256_ctr_drbg"):
        theirs = importlib.import_module(f"dilithium_py.{mod}")
        ours = importlib.import_module(f"mldsa_rs.{mod}")
        names = getattr(theirs, "__all__", None) or [
            n for n in vars(theirs) if not n.startswith("_") and n not in ("der", "annotations", "os", "AES", "xor_bytes")
        ]
        for n in names:
            assert hasattr(ours, n), f"mldsa_rs.{mod} lacks {n}"
    import inspect

    from dilithium_py.dilithium import Dilithium2 as td
    from dilithium_py.drbg.aes256_ctr_drbg import AES256_CTR_DRBG as tdrbg
    from dilithium_py.ml_dsa import HASH_ML_DSA_44_WITH_SHA512 as th, ML_DSA_44 as t

    from mldsa_rs.dilithium import Dilithium2 as od
    from mldsa_rs.drbg.aes256_ctr_drbg import AES256_CTR_DRBG as odrbg
    from mldsa_rs.ml_dsa import HASH_ML_DSA_44_WITH_SHA512 as oh, ML_DSA_44 as o

    shape = lambda f: [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]  # noqa: E731
    assert shape(odrbg) == shape(tdrbg)
    assert shape(odrbg.random_bytes) == shape(tdrbg.random_bytes)
    for theirs_obj, ours_obj in ((t, o), (th, oh), (td, od)):
        for attr in vars(theirs_obj):
            if attr in NOT_PROVIDED:
                assert_not_provided(ours_obj, attr)
            elif attr != "_drbg":
                assert getattr(ours_obj, attr) == getattr(theirs_obj, attr) or attr == "random_bytes", attr
        for name, fn in inspect.getmembers(type(theirs_obj), inspect.isfunction):
            if name.startswith("__"):
                continue
            if name in NOT_PROVIDED:
                assert_not_provided(ours_obj, name)
                continue
            ours_fn = getattr(type(ours_obj), name, None)
            assert ours_fn is not None, name
            assert shape(ours_fn) == shape(fn), name


# dilithium-py's internals that work on its polynomial objects: not provided, each listed in the
# README's "Not provided" entry, and asking for one says so.
NOT_PROVIDED = {"R", "M", "_expand_matrix_from_seed", "_expand_vector_from_seed", "_expand_mask_vector",
                "_pack_pk", "_pack_sk", "_pack_h", "_pack_sig", "_unpack_pk", "_unpack_sk", "_unpack_h", "_unpack_sig"}


def assert_not_provided(obj, name):
    assert not hasattr(obj, name), name
    with pytest.raises(AttributeError, match="not provided by mldsa_rs.*README"):
        getattr(obj, name)


def test_not_provided_internals_are_listed_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("**Not provided", 1)[1].split("\n\n", 1)[0]
    for name in NOT_PROVIDED:
        assert f"`{name}`" in section, name


def test_h_is_dilithium_pys():
    from dilithium_py.dilithium import Dilithium2 as td
    from dilithium_py.ml_dsa import ML_DSA_65 as t

    from mldsa_rs.dilithium import Dilithium2 as od
    from mldsa_rs.ml_dsa import ML_DSA_65 as o

    rng = random.Random(3)
    for _ in range(20):
        data, n = rng.randbytes(rng.randrange(300)), rng.randrange(1, 200)
        assert o._h(data, n) == t._h(data, n) == od._h(data, n) == td._h(data, n)


def test_sign_uses_the_expanded_bytes_as_given():
    """The drop-in signs from the key bytes without importing a key object: tr (bytes 64..128)
    and t0 are used as they stand, as dilithium-py does, in every signing mode."""
    ours, theirs = both(65)
    pk, sk = ours.key_derive(bytes(range(32)))
    odd = bytearray(sk)
    odd[64] ^= 1  # tr
    odd[-1] ^= 1  # t0
    odd = bytes(odd)
    assert ours.sign(odd, b"m", ctx=b"c", deterministic=True) == theirs.sign(
        odd, b"m", ctx=b"c", deterministic=True
    )
    mu = theirs.prehash_external_mu(pk, b"m")
    assert ours.sign_external_mu(odd, mu, deterministic=True) == theirs.sign_external_mu(
        odd, mu, deterministic=True
    )
    m_prime = b"\x00\x00m"
    assert ours._sign_internal(odd, m_prime, bytes(32)) == theirs._sign_internal(odd, m_prime, bytes(32))
    ours_h, theirs_h = both(65, hashed=True)
    assert ours_h.sign(odd, b"m", deterministic=True) == theirs_h.sign(odd, b"m", deterministic=True)
    # The changed tr puts the signature under a different mu: it does not verify under pk.
    assert not ours.verify(pk, b"m", ours.sign(odd, b"m"))


@pytest.mark.parametrize("level", LEVELS)
def test_unchecked_key_with_foreign_tr_signs_as_fips_204_sign(level):
    """A key imported without the consistency check signs with the tr in its bytes, as FIPS 204
    Sign (and dilithium-py, and the drop-in) do, in both API layers; H(pk) would differ."""
    ours, theirs = both(level)
    pk, sk = ours.key_derive(bytes(range(32)))
    foreign = bytearray(sk)
    foreign[64] ^= 1  # tr occupies bytes 64..128 of the expanded key
    foreign = bytes(foreign)
    msg, ctx = b"unchecked", b"ctx"
    expected = theirs.sign(foreign, msg, ctx, deterministic=True)
    assert ours.sign(foreign, msg, ctx, deterministic=True) == expected
    cls = getattr(mldsa_rs, f"MLDSA{level}PrivateKey")
    key = cls.from_expanded_bytes(foreign, check=False)
    assert key.sign(msg, ctx, deterministic=True) == expected
    # The signature is FIPS 204 Sign's on those bytes, so the honest key rejects it.
    assert not ours.verify(pk, msg, expected, ctx)
