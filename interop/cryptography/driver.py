"""Interop driver for pyca/cryptography (PyPI), ML-DSA through its bundled OpenSSL.

Usage: python3 driver.py JOBS.json  -- prints one JSON result per job, as a JSON array.

cryptography's ML-DSA API (48.0 and later with the OpenSSL backend): seeded keys, pure ML-DSA with
a context, hedged signing only, external mu (MLDSAMuHasher, sign_mu, verify_mu), SPKI and
seed-only PKCS#8. No deterministic signing, no HashML-DSA, no expanded private keys.
"""

import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import mldsa

PRIV = {
    "ML-DSA-44": mldsa.MLDSA44PrivateKey,
    "ML-DSA-65": mldsa.MLDSA65PrivateKey,
    "ML-DSA-87": mldsa.MLDSA87PrivateKey,
}
PUB = {
    "ML-DSA-44": mldsa.MLDSA44PublicKey,
    "ML-DSA-65": mldsa.MLDSA65PublicKey,
    "ML-DSA-87": mldsa.MLDSA87PublicKey,
}


def b(job, key):
    return bytes.fromhex(job[key]) if job.get(key) is not None else b""


def alg_of(key):
    for name, cls in list(PRIV.items()) + list(PUB.items()):
        if isinstance(key, cls):
            return name
    raise ValueError(f"not an ML-DSA key: {type(key).__name__}")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def run(job):
    op, alg = job["op"], job.get("alg")
    if op == "keygen":
        sk = PRIV[alg].from_seed_bytes(b(job, "seed"))
        return {"pk": sk.public_key().public_bytes_raw().hex()}
    if op == "sign":
        if job["deterministic"]:
            return {"unsupported": "no deterministic signing API (hedged only)"}
        if job.get("prehash"):
            return {"unsupported": "no HashML-DSA API"}
        if job.get("rnd"):
            return {"unsupported": "no way to give rnd"}
        sk = PRIV[alg].from_seed_bytes(b(job, "seed"))
        return {"sig": sk.sign(b(job, "msg"), b(job, "ctx")).hex()}
    if op == "verify":
        if job.get("prehash"):
            return {"unsupported": "no HashML-DSA API"}
        pk = PUB[alg].from_public_bytes(b(job, "pk"))
        try:
            pk.verify(b(job, "sig"), b(job, "msg"), b(job, "ctx"))
            return {"ok": True}
        except InvalidSignature:
            return {"ok": False}
    if op == "mu":
        h = mldsa.MLDSAMuHasher(PUB[alg].from_public_bytes(b(job, "pk")), b(job, "ctx"))
        h.update(b(job, "msg"))
        return {"mu": h.finalize().hex()}
    if op == "sign_mu":
        if job["deterministic"]:
            return {"unsupported": "no deterministic signing API (hedged only)"}
        return {"sig": PRIV[alg].from_seed_bytes(b(job, "seed")).sign_mu(b(job, "mu")).hex()}
    if op == "verify_mu":
        pk = PUB[alg].from_public_bytes(b(job, "pk"))
        try:
            pk.verify_mu(b(job, "sig"), b(job, "mu"))
            return {"ok": True}
        except InvalidSignature:
            return {"ok": False}
    if op == "read_spki":
        data = read(job["path"])
        pk = ser.load_pem_public_key(data) if job["pem"] else ser.load_der_public_key(data)
        return {"alg": alg_of(pk), "pk": pk.public_bytes_raw().hex()}
    if op == "read_pkcs8":
        data = read(job["path"])
        load = ser.load_pem_private_key if job["pem"] else ser.load_der_private_key
        password = job["passphrase"].encode() if job.get("passphrase") else None
        sk = load(data, password=password)
        return {
            "alg": alg_of(sk),
            "pk": sk.public_key().public_bytes_raw().hex(),
            "seed": sk.private_bytes_raw().hex(),
        }
    if op == "write_spki":
        pk = PRIV[alg].from_seed_bytes(b(job, "seed")).public_key()
        enc = ser.Encoding.PEM if job["pem"] else ser.Encoding.DER
        write(job["path"], pk.public_bytes(enc, ser.PublicFormat.SubjectPublicKeyInfo))
        return {}
    if op == "write_pkcs8":
        if job["form"] != "seed":
            return {"unsupported": "writes only the seed form"}
        sk = PRIV[alg].from_seed_bytes(b(job, "seed"))
        enc = ser.Encoding.PEM if job["pem"] else ser.Encoding.DER
        crypt = ser.NoEncryption()
        if job.get("passphrase"):
            # PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC), cryptography's choice.
            crypt = ser.BestAvailableEncryption(job["passphrase"].encode())
        write(job["path"], sk.private_bytes(enc, ser.PrivateFormat.PKCS8, crypt))
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
