"""Interop driver for the OpenSSL 3.5+ `openssl` command (built by interop/run.py from the
`openssl-src` crate's sources).

Usage: python3 driver.py OPENSSL_BINARY JOBS.json  -- prints one JSON result per job, as a JSON
array. Every operation runs the `openssl` command (genpkey, pkey, pkeyutl); this script only
moves bytes between it and the job file.

OpenSSL has seeded keys (genpkey -pkeyopt hexseed:), pure ML-DSA with a context, hedged and
deterministic signing, signing and verifying an external mu (-pkeyopt mu:1), SPKI and PKCS#8 in
all three RFC 9881 forms (-provparam ml-dsa.output_formats=). No HashML-DSA, and no command that
prints mu.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

OPENSSL = sys.argv[1]
ENV = dict(os.environ, OPENSSL_CONF=os.devnull)
PASS_VAR = "MLDSA_INTEROP_PASSPHRASE"  # passphrases go to openssl through the environment
# ML-DSA-44/65/87 OIDs end in .17, .18, .19 (2.16.840.1.101.3.4.3.x); public key lengths.
OID_LAST = {"ML-DSA-44": 0x11, "ML-DSA-65": 0x12, "ML-DSA-87": 0x13}
PK_LEN = {"ML-DSA-44": 1312, "ML-DSA-65": 1952, "ML-DSA-87": 2592}
FORMS = {"seed": "seed-only", "expanded": "priv-only", "both": "seed-priv"}

work = tempfile.mkdtemp(prefix="mldsa-openssl-")
counter = [0]


def tmp(name):
    counter[0] += 1
    return os.path.join(work, f"{counter[0]}-{name}")


def openssl(*args, ok_codes=(0,)):
    p = subprocess.run([OPENSSL, *args], env=ENV, capture_output=True)
    if p.returncode not in ok_codes:
        msg = p.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"openssl {args[0]} exited {p.returncode}: {' | '.join(msg[:3])}")
    return p


def put(data, name):
    path = tmp(name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def get(path):
    with open(path, "rb") as f:
        return f.read()


def b(job, key):
    return bytes.fromhex(job[key]) if job.get(key) is not None else b""


def der_len(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def spki(alg, pk):
    """SubjectPublicKeyInfo DER for a raw public key (the form RFC 9881 fixes)."""
    algid = bytes.fromhex("300b06096086480165030403") + bytes([OID_LAST[alg]])
    bits = b"\x03" + der_len(len(pk) + 1) + b"\x00" + pk
    body = algid + bits
    return b"\x30" + der_len(len(body)) + body


keys = {}


def key_file(job):
    """A private key that `openssl genpkey` derived from the job's seed (PEM, OpenSSL's default form)."""
    k = (job["alg"], job["seed"])
    if k not in keys:
        path = tmp("key.pem")
        openssl("genpkey", "-algorithm", job["alg"], "-pkeyopt", f"hexseed:{job['seed']}", "-out", path)
        keys[k] = path
    return keys[k]


def pub_file(job):
    return put(spki(job["alg"], b(job, "pk")), "pub.der")


def text_fields(out):
    """Parses `openssl pkey -text` output: the algorithm and the hex fields (seed, priv, pub)."""
    lines = out.decode().splitlines()
    m = re.match(r"(ML-DSA-\d\d) (Private|Public)-Key:", lines[0])
    if not m:
        raise RuntimeError(f"unexpected openssl -text header: {lines[0]!r}")
    fields, name = {}, None
    for line in lines[1:]:
        if re.match(r"^\S+:$", line):
            name = line[:-1]
            fields[name] = ""
        elif name:
            fields[name] += line.strip().replace(":", "")
    return m.group(1), {k: bytes.fromhex(v) for k, v in fields.items()}


def ctx_opts(job):
    ctx = job.get("ctx") or ""
    return [f"hexcontext-string:{ctx}"] if ctx else []


def run(job):
    op = job["op"]
    if op == "keygen":
        _, f = text_fields(openssl("pkey", "-in", key_file(job), "-text", "-noout").stdout)
        return {"pk": f["pub"].hex(), "sk": f["priv"].hex()}
    if op in ("sign", "sign_mu"):
        if job.get("prehash"):
            return {"unsupported": "no HashML-DSA"}
        sig = tmp("sig")
        opts = (["deterministic:1"] if job["deterministic"] else []) + (ctx_opts(job) if op == "sign" else [])
        if job.get("rnd"):
            opts.append(f"hextest-entropy:{job['rnd']}")  # a given rnd, as for ACVP tests
        if op == "sign" and not job["msg"]:
            # `pkeyutl -rawin` cannot read an empty input ("Could not allocate 0 bytes for oneshot
            # sign/verify buffer"); `dgst -sign` can.
            args = ["dgst", "-sign", key_file(job), "-out", sig]
            args += [a for o in opts for a in ("-sigopt", o)] + [put(b"", "msg")]
        else:
            args = ["pkeyutl", "-sign", "-inkey", key_file(job), "-out", sig]
            if op == "sign":
                args += ["-rawin", "-in", put(b(job, "msg"), "msg")]
            else:
                args += ["-in", put(b(job, "mu"), "mu"), "-pkeyopt", "mu:1"]
            args += [a for o in opts for a in ("-pkeyopt", o)]
        openssl(*args)
        return {"sig": get(sig).hex()}
    if op in ("verify", "verify_mu"):
        if job.get("prehash"):
            return {"unsupported": "no HashML-DSA"}
        args = ["pkeyutl", "-verify", "-pubin", "-inkey", pub_file(job), "-sigfile", put(b(job, "sig"), "sig")]
        if op == "verify":
            args += ["-rawin", "-in", put(b(job, "msg"), "msg")] + [a for o in ctx_opts(job) for a in ("-pkeyopt", o)]
        else:
            args += ["-in", put(b(job, "mu"), "mu"), "-pkeyopt", "mu:1"]
        # Exit status 1 with "Signature Verification Failure" is a rejection, not an error.
        p = openssl(*args, ok_codes=(0, 1))
        if p.returncode == 1 and b"Verification Failure" not in p.stdout + p.stderr:
            raise RuntimeError("openssl pkeyutl -verify failed: " + p.stderr.decode(errors="replace")[:300])
        return {"ok": p.returncode == 0}
    if op == "mu":
        return {"unsupported": "no command that prints mu"}
    if op == "read_spki":
        fmt = "PEM" if job["pem"] else "DER"
        alg2, f = text_fields(openssl("pkey", "-pubin", "-inform", fmt, "-in", job["path"], "-text", "-noout").stdout)
        return {"alg": alg2, "pk": f["pub"].hex()}
    if op == "read_pkcs8":
        fmt = "PEM" if job["pem"] else "DER"
        args = ["pkey", "-inform", fmt, "-in", job["path"], "-text", "-noout"]
        if job.get("passphrase"):
            ENV[PASS_VAR] = job["passphrase"]
            args += ["-passin", f"env:{PASS_VAR}"]
        alg2, f = text_fields(openssl(*args).stdout)
        out = {"alg": alg2, "pk": f["pub"].hex(), "sk": f["priv"].hex()}
        if "seed" in f:
            out["seed"] = f["seed"].hex()
        return out
    if op == "write_spki":
        fmt = "PEM" if job["pem"] else "DER"
        text = ["-text"] if job.get("text") else []  # the key in words after the PEM block
        openssl("pkey", "-in", key_file(job), "-pubout", "-outform", fmt, "-out", job["path"], *text)
        return {}
    if op == "write_pkcs8":
        fmt = "PEM" if job["pem"] else "DER"
        args = ["pkey", "-in", key_file(job), "-provparam", f"ml-dsa.output_formats={FORMS[job['form']]}",
                "-outform", fmt, "-out", job["path"]]
        if job.get("text"):
            args.append("-text")  # the key in words after the PEM block
        if job.get("passphrase"):
            # Encrypted PKCS#8: PBES2 with OpenSSL's defaults (PBKDF2-HMAC-SHA256) and AES-256-CBC.
            ENV[PASS_VAR] = job["passphrase"]
            args += ["-aes256", "-passout", f"env:{PASS_VAR}"]
        openssl(*args)
        return {}
    return {"unsupported": f"operation {op}"}


def main():
    with open(sys.argv[2]) as f:
        jobs = json.load(f)
    out = []
    try:
        for job in jobs:
            try:
                out.append(run(job))
            except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
                out.append({"error": f"{type(e).__name__}: {e}"})
    finally:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
