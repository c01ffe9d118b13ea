#!/usr/bin/env python3
"""Keygen / sign / verify per parameter set for this package (key API and dilithium-py drop-in),
dilithium-py and pyca/cryptography, and how verification scales on 2 threads.

    python bench.py [--budget SECONDS]

A benchmark, not a test: numbers depend on the machine and its load. Peers that are not
installed are skipped.
"""

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import mldsa_rs
import mldsa_rs.ml_dsa as dropin

LEVELS = (44, 65, 87)
MSG = b"benchmark message " * 4


def per_op(fn, budget, min_iters=3):
    """Median-free simple rate: mean seconds per call over at least `min_iters` calls and
    about `budget` seconds."""
    fn()  # warm up
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if n >= min_iters and elapsed >= budget:
            return elapsed / n


def key_api(cls, budget):
    """keygen / sign / verify through a pyca-style class (ours or pyca/cryptography's)."""
    key = cls.generate()
    pub = key.public_key()
    sig = key.sign(MSG)
    return {
        "keygen": per_op(cls.generate, budget),
        "sign": per_op(lambda: key.sign(MSG), budget),
        "verify": per_op(lambda: pub.verify(sig, MSG), budget),
    }


def drop_in(obj, budget):
    pk, sk = obj.keygen()
    sig = obj.sign(sk, MSG)
    return {
        "keygen": per_op(obj.keygen, budget),
        "sign": per_op(lambda: obj.sign(sk, MSG), budget),
        "verify": per_op(lambda: obj.verify(pk, MSG, sig), budget),
    }


def pyca_class(level):
    try:
        from cryptography.hazmat.primitives.asymmetric import mldsa
    except ImportError:
        return None
    return getattr(mldsa, f"MLDSA{level}PrivateKey", None)


def fmt(seconds):
    return f"{seconds * 1e6:10.1f} us" if seconds < 1e-2 else f"{seconds * 1e3:10.2f} ms"


def thread_scaling(budget):
    """Verifications per second on 1 and 2 threads, and the CPU time the threads got per second
    of wall time (above 1 only if both ran at once: a machine loaded by other work can hide the
    throughput gain, but not that)."""
    key = mldsa_rs.MLDSA65PrivateKey.generate()
    pub = key.public_key()
    sig = key.sign(MSG)
    n = 2000

    def batch(count):
        start = time.thread_time()
        for _ in range(count):
            pub.verify(sig, MSG)
        return time.thread_time() - start

    batch(50)
    rates, overlap = {}, {}
    for threads in (1, 2):
        start = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            cpu = sum(pool.map(batch, [n // threads] * threads))
        wall = time.perf_counter() - start
        rates[threads], overlap[threads] = n / wall, cpu / wall
    return rates, overlap


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per fast measurement")
    args = ap.parse_args()
    try:
        import dilithium_py.ml_dsa as dpy
    except ImportError:
        dpy = None
    print(f"mldsa_rs {mldsa_rs.__version__}; {os.cpu_count()} CPUs; message {len(MSG)} bytes")
    print(f"{'set':10} {'op':7} {'mldsa_rs':>13} {'drop-in':>13} {'dilithium-py':>13} {'pyca':>13}"
          f" {'x dilithium-py':>15} {'x pyca':>8}")
    for level in LEVELS:
        a = key_api(getattr(mldsa_rs, f"MLDSA{level}PrivateKey"), args.budget)
        b = drop_in(getattr(dropin, f"ML_DSA_{level}"), args.budget)
        c = drop_in(getattr(dpy, f"ML_DSA_{level}"), 0.0) if dpy else None
        pyca_cls = pyca_class(level)
        d = key_api(pyca_cls, args.budget) if pyca_cls else None
        for op in ("keygen", "sign", "verify"):
            cells = [fmt(a[op]), fmt(b[op]), fmt(c[op]) if c else "n/a", fmt(d[op]) if d else "n/a"]
            x_dpy = f"{c[op] / b[op]:14.0f}x" if c else "n/a"
            x_pyca = f"{d[op] / a[op]:7.2f}x" if d else "n/a"
            print(f"ML-DSA-{level:<3} {op:7} " + " ".join(f"{s:>13}" for s in cells) + f" {x_dpy:>15} {x_pyca:>8}")
    rates, overlap = thread_scaling(args.budget)
    print(f"ML-DSA-65 verify, 2000 calls: 1 thread {rates[1]:.0f}/s, 2 threads {rates[2]:.0f}/s "
          f"(scaling {rates[2] / rates[1]:.2f}x); thread CPU per wall second: "
          f"{overlap[1]:.2f} on 1 thread, {overlap[2]:.2f} on 2")
    print("x dilithium-py: dilithium-py time / drop-in time (same calls, bytes in and out);"
          " x pyca: pyca time / mldsa_rs key API time (>1 means mldsa_rs is faster)")


if __name__ == "__main__":
    main()
