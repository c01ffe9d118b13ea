"""Arguments of the wrong type to the drop-in: a TypeError that names the argument (by its
dilithium-py name) and the type expected, where dilithium-py raises a TypeError too (from deep
inside, e.g. "can't concat NoneType to bytes"); never a default taken in its place."""

import pytest

dpy = pytest.importorskip("dilithium_py.ml_dsa")
dpy_r3 = pytest.importorskip("dilithium_py.dilithium")

import mldsa_rs.dilithium as ours_r3  # noqa: E402
import mldsa_rs.ml_dsa as ours  # noqa: E402

SEED, RND, MSG = bytes(range(32)), bytes(range(32, 64)), b"message"


def valid_arguments():
    """Working arguments for every drop-in method, by object and method name."""
    o = ours.ML_DSA_44
    pk, sk = o.key_derive(SEED)
    mu = o.prehash_external_mu(pk, MSG)
    h = ours.HASH_ML_DSA_44_WITH_SHA512
    r3 = ours_r3.Dilithium2
    saved, r3.random_bytes = r3.random_bytes, lambda n: SEED[:n]
    try:
        r3_pk, r3_sk = r3.keygen()
    finally:
        r3.random_bytes = saved
    return [
        ("ML_DSA_44", "_keygen_internal", {"zeta": SEED}),
        ("ML_DSA_44", "key_derive", {"seed": SEED}),
        ("ML_DSA_44", "_sign_internal", {"sk": sk, "m": MSG, "rnd": RND}),
        ("ML_DSA_44", "_verify_internal", {"pk": pk, "m": MSG, "sig": o._sign_internal(sk, MSG, RND)}),
        ("ML_DSA_44", "sign", {"sk": sk, "m": MSG, "ctx": b"c"}),
        ("ML_DSA_44", "verify", {"pk": pk, "m": MSG, "sig": o.sign(sk, MSG, b"c"), "ctx": b"c"}),
        ("ML_DSA_44", "pk_from_sk", {"sk": sk}),
        ("ML_DSA_44", "prehash_external_mu", {"pk": pk, "m": MSG, "ctx": b"c"}),
        ("ML_DSA_44", "sign_external_mu", {"sk": sk, "mu": mu}),
        ("HASH_ML_DSA_44_WITH_SHA512", "sign", {"sk": sk, "m": MSG, "ctx": b"c"}),
        ("HASH_ML_DSA_44_WITH_SHA512", "verify", {"pk": pk, "m": MSG, "sig": h.sign(sk, MSG, b"c"), "ctx": b"c"}),
        ("HASH_ML_DSA_44_WITH_SHA512", "_hash_with_oid", {"m": MSG, "hash_name": "SHA256"}),
        ("HASH_ML_DSA_44_WITH_SHA512", "_sign_with_pre_hash", {"sk": sk, "m": MSG, "hash_name": "SHAKE128", "ctx": b"c"}),
        ("HASH_ML_DSA_44_WITH_SHA512", "_verify_with_pre_hash",
         {"pk": pk, "m": MSG, "sig": h._sign_with_pre_hash(sk, MSG, "SHA256"), "hash_name": "SHA256", "ctx": b""}),
        ("Dilithium2", "sign", {"sk_bytes": r3_sk, "m": MSG}),
        ("Dilithium2", "verify", {"pk_bytes": r3_pk, "m": MSG, "sig_bytes": r3.sign(r3_sk, MSG)}),
    ]


CASES = valid_arguments()


HEDGED = {("ML_DSA_44", "sign"), ("ML_DSA_44", "sign_external_mu"), ("HASH_ML_DSA_44_WITH_SHA512", "sign"),
          ("HASH_ML_DSA_44_WITH_SHA512", "_sign_with_pre_hash")}


def pair(obj):
    """Our object and dilithium-py's of the same name."""
    mod_o, mod_t = (ours_r3, dpy_r3) if obj.startswith("Dilithium") else (ours, dpy)
    return getattr(mod_o, obj), getattr(mod_t, obj)


@pytest.mark.parametrize("obj,method,args", CASES, ids=[f"{o}.{m}" for o, m, _ in CASES])
def test_valid_arguments_work_in_both(obj, method, args):
    """The baseline the other tests change one argument of."""
    o, t = pair(obj)
    got = getattr(o, method)(**args)
    if (obj, method) in HEDGED:
        assert len(got) == t._sig_size()
    else:
        assert got == getattr(t, method)(**args)


@pytest.mark.parametrize("obj,method,args", CASES, ids=[f"{o}.{m}" for o, m, _ in CASES])
def test_none_is_a_type_error_naming_the_argument(obj, method, args):
    o, t = pair(obj)
    for name in args:
        bad = dict(args, **{name: None})
        with pytest.raises(TypeError) as e:
            getattr(o, method)(**bad)
        assert str(e.value).startswith(f"{name} must be "), str(e.value)
        assert "NoneType" in str(e.value) or "None" in str(e.value)
        if name == "hash_name":
            # dilithium-py calls None.upper(): AttributeError. Ours says what was expected.
            with pytest.raises(AttributeError):
                getattr(t, method)(**bad)
            continue
        with pytest.raises(TypeError):
            getattr(t, method)(**bad)


@pytest.mark.parametrize("obj,method,args", CASES, ids=[f"{o}.{m}" for o, m, _ in CASES])
def test_other_wrong_types_name_the_argument(obj, method, args):
    o, _ = pair(obj)
    for name in args:
        # A str is a wrong type for every argument but hash_name (any length: "text" must not
        # fail a length check first).
        for bad_value in (5, 1.5, [1, 2]) + (() if name == "hash_name" else ("text", "x" * 32, "y" * 300)):
            with pytest.raises(TypeError) as e:
                getattr(o, method)(**dict(args, **{name: bad_value}))
            assert str(e.value).startswith(f"{name} must be "), str(e.value)
            assert type(bad_value).__name__ in str(e.value)


def test_sign_internal_never_draws_randomness_for_a_missing_rnd():
    """dilithium-py's _sign_internal has no default for rnd; None used to sign with OS
    randomness here. Now it is refused, and the entropy source is not touched."""
    o = ours.ML_DSA_44
    drawn = []
    saved = o.random_bytes
    o.random_bytes = lambda n: drawn.append(n) or bytes(n)
    try:
        _, sk = o.key_derive(SEED)
        with pytest.raises(TypeError, match="rnd must be 32 bytes"):
            o._sign_internal(sk, MSG, None)
        with pytest.raises(TypeError, match="rnd must be 32 bytes"):
            o._sign_internal(sk, bytes(64), None, external_mu=True)
    finally:
        o.random_bytes = saved
    assert drawn == []
