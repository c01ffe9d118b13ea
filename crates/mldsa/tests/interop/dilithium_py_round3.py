"""Cross-checks mldsa's legacy Dilithium v3.1 mode against dilithium-py (an independent,
pure-Python implementation from PyPI). Driven by tests/interop_dilithium_py.rs.

Input (argv[1]): JSON list of {"level", "pk", "msg", "sig"} made by mldsa in *randomized* mode.
Output (stdout): one JSON object with
  - "ours": per case, whether dilithium-py accepts the signature and rejects a one-bit change;
  - "theirs": keys and (deterministic) signatures made by dilithium-py, for mldsa to check.
"""
import hashlib
import json
import sys

from dilithium_py.dilithium import Dilithium2, Dilithium3, Dilithium5

LEVELS = {2: Dilithium2, 3: Dilithium3, 5: Dilithium5}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    ours = []
    for case in cases:
        d = LEVELS[case["level"]]
        pk, msg, sig = (bytes.fromhex(case[k]) for k in ("pk", "msg", "sig"))
        tampered = bytearray(sig)
        tampered[len(sig) // 2] ^= 0x01
        ours.append({
            "accepted": d.verify(pk, msg, sig),
            "tampered_accepted": d.verify(pk, msg, bytes(tampered)),
        })
    theirs = []
    for level, d in LEVELS.items():
        for i in range(3):
            # A reproducible seed (dilithium-py's own DRBG needs pycryptodome).
            d.random_bytes = lambda n, s=bytes([level, i]): hashlib.shake_256(s).digest(n)
            pk, sk = d.keygen()
            msg = bytes([i]) * (17 * i + 5)
            sig = d.sign(sk, msg)
            theirs.append({"level": level, "pk": pk.hex(), "sk": sk.hex(),
                           "msg": msg.hex(), "sig": sig.hex()})
    json.dump({"ours": ours, "theirs": theirs}, sys.stdout)


if __name__ == "__main__":
    main()
