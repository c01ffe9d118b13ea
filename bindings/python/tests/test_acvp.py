"""NIST ACVP keyGen / sigGen / sigVer (FIPS 204), every case, through both API layers."""

import json

import pytest

from conftest import LEVELS, PRIVATE, PUBLIC, fresh_ml_dsa
from mldsa_rs import InvalidSignature
from mldsa_rs._native import SigningKey

DROPIN_HASHES = {"SHA2-256": "SHA256", "SHA2-512": "SHA512", "SHAKE-128": "SHAKE128"}


def load(vectors, folder):
    base = vectors / "acvp" / folder
    prompt = json.loads((base / "prompt.json").read_text())
    results = json.loads((base / "expectedResults.json").read_text())
    answers = {t["tcId"]: t for g in results["testGroups"] for t in g["tests"]}
    cases = []
    for g in prompt["testGroups"]:
        level = int(g["parameterSet"].split("-")[-1])
        for t in g["tests"]:
            cases.append((g, level, {k: (bytes.fromhex(v) if k in HEX else v) for k, v in t.items()}, answers[t["tcId"]]))
    return cases


HEX = {"seed", "message", "sk", "pk", "context", "rnd", "mu", "signature", "pk", "sk"}


def test_keygen(vectors):
    cases = load(vectors, "ML-DSA-keyGen-FIPS204")
    assert len(cases) == 75
    for _g, level, t, want in cases:
        pk, sk = fresh_ml_dsa(level).key_derive(t["seed"])
        assert pk.hex().upper() == want["pk"].upper(), t["tcId"]
        assert sk.hex().upper() == want["sk"].upper(), t["tcId"]
        key = PRIVATE[level].from_seed_bytes(t["seed"])
        assert key.public_key().public_bytes_raw() == pk
        assert key.expanded_bytes() == sk
        assert key.private_bytes_raw() == t["seed"]


def sign_dropin(g, level, t):
    """The case through the dilithium-py drop-in, or None where it has no such entry point."""
    det = g["deterministic"]
    rnd = bytes(32) if det else t["rnd"]
    sk = t["sk"] if "sk" in t else fresh_ml_dsa(level).key_derive(t["seed"])[1]
    if g["signatureInterface"] == "internal":
        m = fresh_ml_dsa(level)
        if g.get("externalMu"):
            return m._sign_internal(sk, t["mu"], rnd, external_mu=True)
        return m._sign_internal(sk, t["message"], rnd)
    hashed = g["preHash"] == "preHash"
    if hashed and t["hashAlg"] not in DROPIN_HASHES:
        return None
    m = fresh_ml_dsa(level, hashed)
    m.random_bytes = lambda n: rnd
    if hashed:
        return m._sign_with_pre_hash(sk, t["message"], DROPIN_HASHES[t["hashAlg"]], t["context"], det)
    return m.sign(sk, t["message"], t["context"], det)


def sign_pyca(g, level, t):
    """The case through the key API: deterministic=True, or the case's rnd through rnd=."""
    cls = PRIVATE[level]
    key = cls.from_expanded_bytes(t["sk"]) if "sk" in t else cls.from_seed_bytes(t["seed"])
    how = {"deterministic": True} if g["deterministic"] else {"rnd": t["rnd"]}
    if g["signatureInterface"] == "internal":
        if g.get("externalMu"):
            return key.sign_mu(t["mu"], **how)
        return key.sign_internal(t["message"], **how)
    if g["preHash"] == "preHash":
        return key.sign(t["message"], t["context"], prehash=t["hashAlg"], **how)
    return key.sign(t["message"], t["context"], **how)


@pytest.mark.parametrize("folder,count", [("ML-DSA-sigGen-FIPS204", 360), ("ML-DSA-sigGen-FIPS204-tr1", 720)])
def test_siggen(vectors, folder, count):
    cases = load(vectors, folder)
    assert len(cases) == count
    dropin_checked = 0
    for g, level, t, want in cases:
        expected = bytes.fromhex(want["signature"])
        assert sign_pyca(g, level, t) == expected, (folder, t["tcId"])
        got = sign_dropin(g, level, t)
        if got is not None:
            assert got == expected, (folder, t["tcId"])
            dropin_checked += 1
    assert dropin_checked > count // 2


def test_sigver(vectors):
    cases = load(vectors, "ML-DSA-sigVer-FIPS204")
    assert len(cases) == 180
    for g, level, t, want in cases:
        expected = want["testPassed"]
        pub = PUBLIC[level].from_public_bytes(t["pk"])
        m = fresh_ml_dsa(level)
        if g["signatureInterface"] == "internal":
            if "mu" in t:
                args, dropin = (t["signature"], t["mu"]), None
                call = pub.verify_mu
            else:
                args, dropin = (t["signature"], t["message"]), m._verify_internal(t["pk"], t["message"], t["signature"])
                call = pub.verify_internal
        elif g["preHash"] == "preHash":
            call, args = (lambda s, d: pub.verify(s, d, t["context"], prehash=t["hashAlg"])), (t["signature"], t["message"])
            dropin = None
            if t["hashAlg"] in DROPIN_HASHES:
                h = fresh_ml_dsa(level, True)
                dropin = h._verify_with_pre_hash(t["pk"], t["message"], t["signature"], DROPIN_HASHES[t["hashAlg"]], t["context"])
        else:
            call, args = (lambda s, d: pub.verify(s, d, t["context"])), (t["signature"], t["message"])
            dropin = m.verify(t["pk"], t["message"], t["signature"], t["context"])
        try:
            call(*args)
            ok = True
        except InvalidSignature:
            ok = False
        assert ok == expected, t["tcId"]
        if dropin is not None:
            assert dropin == expected, t["tcId"]


def test_native_levels_cover_all_sets():
    for level in LEVELS:
        assert SigningKey.from_seed(level, bytes(32)).level == level
