"""The drop-in's classes built from parameter dicts, as dilithium-py documents
(``ML_DSA(DEFAULT_PARAMETERS["ML_DSA_44"])``): dilithium-py's own dicts are accepted and give the
same objects as there; any other dict is refused with what is wrong, never partly used."""

import pytest

dpy_ml_dsa = pytest.importorskip("dilithium_py.ml_dsa.default_parameters")
dpy_r3 = pytest.importorskip("dilithium_py.dilithium.default_parameters")
from dilithium_py.ml_dsa.hash_ml_dsa import HashML_DSA as DpyHash  # noqa: E402
from dilithium_py.ml_dsa.ml_dsa import ML_DSA as DpyML_DSA  # noqa: E402

from mldsa_rs.dilithium import default_parameters as our_r3  # noqa: E402
from mldsa_rs.dilithium.dilithium import Dilithium  # noqa: E402
from mldsa_rs.ml_dsa import default_parameters as our_ml_dsa, pkcs  # noqa: E402
from mldsa_rs.ml_dsa.hash_ml_dsa import HashML_DSA  # noqa: E402
from mldsa_rs.ml_dsa.ml_dsa import ML_DSA  # noqa: E402

ATTRS = ("d", "k", "l", "eta", "tau", "omega", "gamma_1", "gamma_2", "beta")
SIZES = ("_pk_size", "_sk_size", "_sig_size")
# The issue's example: ML-DSA-65's matrix shape and eta / tau spliced into ML-DSA-44's dict,
# which dilithium-py turns into ML-DSA-44 keys reported as 1952-byte (ML-DSA-65) ones.
SPLICED = dict(dpy_ml_dsa.DEFAULT_PARAMETERS["ML_DSA_44"], k=6, l=5, eta=4, tau=49)


def test_default_parameters_are_dilithium_pys():
    assert our_ml_dsa.DEFAULT_PARAMETERS == dpy_ml_dsa.DEFAULT_PARAMETERS
    assert our_r3.DEFAULT_PARAMETERS == dpy_r3.DEFAULT_PARAMETERS


@pytest.mark.parametrize("name", sorted(dpy_ml_dsa.DEFAULT_PARAMETERS))
@pytest.mark.parametrize("ours_cls,theirs_cls", [(ML_DSA, DpyML_DSA), (HashML_DSA, DpyHash)])
def test_dilithium_py_ml_dsa_dicts_are_accepted(name, ours_cls, theirs_cls):
    params = dpy_ml_dsa.DEFAULT_PARAMETERS[name]
    ours, theirs = ours_cls(params), theirs_cls(params)
    for attr in ATTRS + ("c_tilde_bytes", "oid"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    for size in SIZES:
        assert getattr(ours, size)() == getattr(theirs, size)(), size
    seed = bytes(range(32))
    pk, sk = ours.key_derive(seed)
    assert (len(pk), len(sk)) == (theirs._pk_size(), theirs._sk_size())
    sig = ours.sign(sk, b"m", deterministic=True)
    assert len(sig) == theirs._sig_size()
    assert theirs.verify(pk, b"m", sig)


@pytest.mark.parametrize("name", sorted(dpy_r3.DEFAULT_PARAMETERS))
def test_dilithium_py_round3_dicts_are_accepted(name):
    params = dpy_r3.DEFAULT_PARAMETERS[name]
    ours, theirs = Dilithium(params), type(dpy_r3.Dilithium2)(params)
    for attr in ATTRS:
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    rnd = bytes(range(32))
    for o in (ours, theirs):
        o.random_bytes = lambda n: rnd[:n]
    assert ours.keygen() == theirs.keygen()


def test_oid_may_be_left_out_as_in_dilithium_py():
    params = {k: v for k, v in dpy_ml_dsa.DEFAULT_PARAMETERS["ML_DSA_65"].items() if k != "oid"}
    assert ML_DSA(params).oid is None is DpyML_DSA(params).oid
    assert ML_DSA(dict(params, oid=None)).oid is None
    with pytest.raises(ValueError, match="Only ML_DSAs with specified OIDs"):
        pkcs.pk_to_der(ML_DSA(params), bytes(1952))


def refused(cls, params, *words):
    with pytest.raises(ValueError) as e:
        cls(params)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_spliced_dict_from_the_issue_is_refused():
    refused(ML_DSA, SPLICED, "k=6", "ML_DSA_44", "eta=4", "tau=49", "l=5")
    refused(ML_DSA, dict(SPLICED, level=44), "unknown parameter 'level'", "k=6", "tau=49")


@pytest.mark.parametrize("cls,table", [(ML_DSA, dpy_ml_dsa.DEFAULT_PARAMETERS), (HashML_DSA, dpy_ml_dsa.DEFAULT_PARAMETERS),
                                       (Dilithium, dpy_r3.DEFAULT_PARAMETERS)])
def test_every_changed_parameter_is_refused_by_name(cls, table):
    for name, params in table.items():
        for key, value in params.items():
            if key == "oid":
                continue
            for changed in (value + 1, value - 1, float(value), str(value)):
                refused(cls, dict(params, **{key: changed}), f"{key}={changed!r}")
            refused(cls, {k: v for k, v in params.items() if k != key}, f"missing parameter '{key}'")
        refused(cls, dict(params, extra=1), "unknown parameter 'extra'")


def test_oids_of_other_sets_are_refused():
    p44 = dpy_ml_dsa.DEFAULT_PARAMETERS["ML_DSA_44"]
    for other in ("ML_DSA_65", "HASH_ML_DSA_87_WITH_SHA512"):
        oid = dpy_ml_dsa.DEFAULT_PARAMETERS[other]["oid"]
        refused(ML_DSA, dict(p44, oid=oid), "oid=", "ML_DSA_44")
    refused(ML_DSA, dict(p44, oid=list(p44["oid"])), "oid=")


def test_families_are_not_mixed():
    # dilithium-py's Dilithium takes an ML-DSA dict and ignores c_tilde_bytes and oid: refused.
    refused(Dilithium, dpy_ml_dsa.DEFAULT_PARAMETERS["ML_DSA_65"], "unknown parameter", "c_tilde_bytes")
    refused(ML_DSA, dpy_r3.DEFAULT_PARAMETERS["dilithium3"], "missing parameter 'c_tilde_bytes'")


@pytest.mark.parametrize("cls", [ML_DSA, HashML_DSA, Dilithium])
def test_non_dicts_are_type_errors(cls):
    for bad in (None, 44, "ML_DSA_44", [("k", 4)]):
        with pytest.raises(TypeError, match="parameter_set must be a dict"):
            cls(bad)


def test_pkcs_refuses_an_object_with_the_hash_oid():
    """dilithium-py writes whatever OID the object holds; the Rust codec writes the pure OIDs
    only, so an object built from a HASH_ML_DSA dict cannot be encoded rather than mislabelled."""
    obj = ML_DSA(dpy_ml_dsa.DEFAULT_PARAMETERS["HASH_ML_DSA_44_WITH_SHA512"])
    pk, sk = obj.key_derive(bytes(32))
    with pytest.raises(ValueError, match="HashML-DSA"):
        pkcs.pk_to_der(obj, pk)
    with pytest.raises(ValueError, match="HashML-DSA"):
        pkcs.sk_to_der(obj, seed=bytes(32))
