"""Interop driver for dilithium-py (PyPI, pure Python, by a different author).

Usage: python3 driver.py JOBS.json  -- prints one JSON result per job, as a JSON array.

Each job is an object with "op" and hex-encoded byte fields (see interop/run.py for the
protocol). A job the package cannot do answers {"unsupported": "why"}; a job that failed answers
{"error": "what"}.
"""

import json
import sys

from dilithium_py.ml_dsa import (
    HASH_ML_DSA_44_WITH_SHA512,
    HASH_ML_DSA_65_WITH_SHA512,
    HASH_ML_DSA_87_WITH_SHA512,
    ML_DSA_44,
    ML_DSA_65,
    ML_DSA_87,
    pkcs,
)

ALGS = {"ML-DSA-44": ML_DSA_44, "ML-DSA-65": ML_DSA_65, "ML-DSA-87": ML_DSA_87}
NAMES = {id(v): k for k, v in ALGS.items()}
# dilithium-py's HashML-DSA knows three pre-hashes, under its own names.
PREHASH = {"SHA2-256": "SHA256", "SHA2-512": "SHA512", "SHAKE-128": "SHAKE128"}


# HashML-DSA objects; their _sign/_verify_with_pre_hash take the pre-hash by name.
HASHED = {
    "ML-DSA-44": HASH_ML_DSA_44_WITH_SHA512,
    "ML-DSA-65": HASH_ML_DSA_65_WITH_SHA512,
    "ML-DSA-87": HASH_ML_DSA_87_WITH_SHA512,
}


def hashed(alg):
    return HASHED[alg]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def read(path):
    with open(path, "rb") as f:
        return f.read()


def b(job, key):
    return bytes.fromhex(job[key]) if job.get(key) is not None else b""


def expanded(job):
    return ALGS[job["alg"]].key_derive(b(job, "seed"))[1]


def sign(job, alg, m, det):
    if job.get("prehash"):
        if job["prehash"] not in PREHASH:
            return {"unsupported": f"pre-hash {job['prehash']} (has SHA2-256, SHA2-512, SHAKE-128)"}
        sig = hashed(alg)._sign_with_pre_hash(
            expanded(job), b(job, "msg"), PREHASH[job["prehash"]], b(job, "ctx"), det
        )
    else:
        sig = m.sign(expanded(job), b(job, "msg"), b(job, "ctx"), deterministic=det)
    return {"sig": sig.hex()}


def run(job):
    op, alg = job["op"], job.get("alg")
    m = ALGS.get(alg)
    if op == "keygen":
        pk, sk = m.key_derive(b(job, "seed"))
        return {"pk": pk.hex(), "sk": sk.hex()}
    if op == "sign":
        det = job["deterministic"]
        if not job.get("rnd"):
            return sign(job, alg, m, det)
        # A given rnd (FIPS 204's 32 random bytes): dilithium-py draws it from random_bytes.
        obj = hashed(alg) if job.get("prehash") else m
        saved, rnd = obj.random_bytes, b(job, "rnd")
        obj.random_bytes = lambda n: rnd
        try:
            return sign(job, alg, m, det)
        finally:
            obj.random_bytes = saved
    if op == "verify":
        if job.get("prehash"):
            if job["prehash"] not in PREHASH:
                return {"unsupported": f"pre-hash {job['prehash']} (has SHA2-256, SHA2-512, SHAKE-128)"}
            ok = hashed(alg)._verify_with_pre_hash(
                b(job, "pk"), b(job, "msg"), b(job, "sig"), PREHASH[job["prehash"]], b(job, "ctx")
            )
        else:
            ok = m.verify(b(job, "pk"), b(job, "msg"), b(job, "sig"), b(job, "ctx"))
        return {"ok": bool(ok)}
    if op == "mu":
        return {"mu": m.prehash_external_mu(b(job, "pk"), b(job, "msg"), b(job, "ctx")).hex()}
    if op == "sign_mu":
        sig = m.sign_external_mu(expanded(job), b(job, "mu"), deterministic=job["deterministic"])
        return {"sig": sig.hex()}
    if op == "verify_mu":
        # No public external-mu verify; _verify_internal with mu is not offered either.
        return {"unsupported": "no external-mu verification API"}
    if op == "read_spki":
        data = read(job["path"])
        m2, pk = pkcs.pk_from_pem(data) if job["pem"] else pkcs.pk_from_der(data)
        return {"alg": NAMES[id(m2)], "pk": pk.hex()}
    if op == "read_pkcs8":
        data = read(job["path"])
        m2, sk, seed, pk = pkcs.sk_from_pem(data) if job["pem"] else pkcs.sk_from_der(data)
        out = {"alg": NAMES[id(m2)], "pk": pk.hex(), "sk": sk.hex()}
        if seed:
            out["seed"] = seed.hex()
        return out
    if op == "write_spki":
        pk = m.key_derive(b(job, "seed"))[0]
        write(job["path"], pkcs.pk_to_pem(m, pk) if job["pem"] else pkcs.pk_to_der(m, pk))
        return {}
    if op == "write_pkcs8":
        seed = b(job, "seed")
        sk = m.key_derive(seed)[1]
        form = job["form"]
        args = dict(sk=sk if form != "seed" else None, seed=seed if form != "expanded" else None, form=form)
        write(job["path"], pkcs.sk_to_pem(m, **args) if job["pem"] else pkcs.sk_to_der(m, **args))
        return {}
    return {"unsupported": f"operation {op}"}


def main():
    with open(sys.argv[1]) as f:
        jobs = json.load(f)
    out = []
    for job in jobs:
        try:
            out.append(run(job))
        except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
            out.append({"error": f"{type(e).__name__}: {e}"})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
