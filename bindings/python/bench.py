#!/usr/bin/env python3
"""Keygen / sign / verify per parameter set for this package (key API and dilithium-py drop-in),
dilithium-py and pyca/cryptography, and how verification scales on 2 threads.

    python bench.py [--budget SECONDS] [--cpu N] [--paired K]

A benchmark, not a test: numbers depend on the machine and its load. Peers that are not
installed are skipped. Each cell is the median of per-call CPU times (of the calling thread, so
that other jobs on a shared machine inflate them less than wall time); signing (whose rejection loop
makes single calls vary) also gets its mean and minimum in a second table. With --cpu N the
single-thread measurements run pinned to CPU N; the thread scaling always gets every CPU.

Hedged signing draws fresh randomness, so two implementations timed on their own calls run
different numbers of rejection-loop attempts, and with the few calls dilithium-py fits in a
budget its mean moves by tens of percent between runs. The paired table removes that: the same
key signs the same K messages deterministically in both (the signatures are checked to be
equal, so both ran exactly the same attempts), and the ratio is of the totals. The ratio depends
on how many attempts the sample needs (per attempt the drop-in gains more on dilithium-py than
on the fixed part of a signature), so K is large enough (200 by default) for the sample's mean
to be near FIPS 204's expected attempts, which the table prints beside it: the first 16
messages need 6.0 attempts on average for ML-DSA-44 (expected 4.25).
"""

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import mldsa_rs
import mldsa_rs.ml_dsa as dropin

LEVELS = (44, 65, 87)
MSG = b"benchmark message " * 4
# Expected attempts of the signing loop per signature (FIPS 204 Table 1, "expected number of
# repetitions").
EXPECTED_ATTEMPTS = {44: 4.25, 65: 5.1, 87: 3.85}


class Samples:
    """Per-call times of one operation, in seconds."""

    def __init__(self, times):
        self.times = sorted(times)
        self.median = statistics.median(self.times)
        self.mean = statistics.fmean(self.times)
        self.min = self.times[0]


def per_op(fn, budget, min_iters=5):
    """Times single calls of `fn`: at least `min_iters` of them and about `budget` seconds of
    CPU time. Each call is timed by the CPU time of this thread (all work here runs on the
    calling thread, with or without the GIL), not by the wall clock: on a machine shared with
    other jobs a long call is preempted many times and a short one seldom, which would inflate
    the slow peers' wall times and so the ratios."""
    fn()  # warm up
    times, spent = [], 0
    while len(times) < min_iters or spent < budget * 1e9:
        t = time.thread_time_ns()
        fn()
        dt = time.thread_time_ns() - t
        times.append(dt / 1e9)
        spent += dt
    return Samples(times)


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
    # Two keys taking turns: the drop-in keeps (and prepares) only the key it last verified
    # with, so this is its cost for a key seen once; the "verify" row repeats one key.
    pk2, sk2 = obj.keygen()
    turns = [(pk, obj.sign(sk, MSG)), (pk2, obj.sign(sk2, MSG))]
    turn = [0]

    def verify_turns():
        turn[0] ^= 1
        key, signature = turns[turn[0]]
        return obj.verify(key, MSG, signature)

    return {
        "keygen": per_op(obj.keygen, budget),
        "sign": per_op(lambda: obj.sign(sk, MSG), budget),
        "verify": per_op(lambda: obj.verify(pk, MSG, sig), budget),
        "verify, 2 keys taking turns": per_op(verify_turns, budget),
    }


def paired_signing(ours, theirs, count, reps=50):
    """CPU time to sign the same `count` messages deterministically with the same key: (ours,
    theirs) in seconds, the per-message ratios, and the attempts each message needed (None if
    this dilithium-py has no `_expand_mask_vector`, which its loop calls once per attempt).
    Byte-equal signatures are asserted: both did the same attempts of the rejection loop."""
    pk, sk = theirs.key_derive(bytes(range(32)))
    attempts = [0]
    counting = hasattr(theirs, "_expand_mask_vector")
    if counting:
        expand = theirs._expand_mask_vector

        def counted(*args):
            attempts[0] += 1
            return expand(*args)

        theirs._expand_mask_vector = counted
    mine = theirs_total = 0
    ratios, per_message = [], []
    try:
        for i in range(count):
            m = b"paired message %d" % i
            attempts[0] = 0
            t = time.thread_time_ns()
            sig = theirs.sign(sk, m, deterministic=True)
            dt_theirs = time.thread_time_ns() - t
            per_message.append(attempts[0])
            assert ours.sign(sk, m, deterministic=True) == sig, "signatures differ"
            t = time.thread_time_ns()
            for _ in range(reps):
                ours.sign(sk, m, deterministic=True)
            dt_ours = (time.thread_time_ns() - t) / reps
            mine += dt_ours
            theirs_total += dt_theirs
            ratios.append(dt_theirs / dt_ours)
    finally:
        if counting:
            del theirs._expand_mask_vector
    return mine / 1e9, theirs_total / 1e9, ratios, per_message if counting else None


def pyca_class(level):
    try:
        from cryptography.hazmat.primitives.asymmetric import mldsa
    except ImportError:
        return None
    return getattr(mldsa, f"MLDSA{level}PrivateKey", None)


def fmt(seconds):
    return f"{seconds * 1e6:10.1f} us" if seconds < 1e-2 else f"{seconds * 1e3:10.2f} ms"


def thread_scaling():
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
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per measurement")
    ap.add_argument("--cpu", type=int, help="pin the single-thread measurements to this CPU")
    ap.add_argument("--paired", type=int, default=200, metavar="K",
                    help="messages in the paired signing comparison (0: skip it)")
    args = ap.parse_args()
    try:
        import dilithium_py.ml_dsa as dpy
    except ImportError:
        dpy = None
    all_cpus = os.sched_getaffinity(0)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    print(f"mldsa_rs {mldsa_rs.__version__}; {os.cpu_count()} CPUs"
          f"{f', pinned to CPU {args.cpu}' if args.cpu is not None else ''}; message {len(MSG)} bytes;"
          f" {args.budget} s per cell")
    print("\nmedian CPU time per call")
    print(f"{'set':10} {'op':7} {'mldsa_rs':>13} {'drop-in':>13} {'dilithium-py':>13} {'pyca':>13}"
          f" {'x dilithium-py':>15} {'x pyca':>8}")
    signing, turn_lines = [], []
    for level in LEVELS:
        a = key_api(getattr(mldsa_rs, f"MLDSA{level}PrivateKey"), args.budget)
        b = drop_in(getattr(dropin, f"ML_DSA_{level}"), args.budget)
        c = drop_in(getattr(dpy, f"ML_DSA_{level}"), args.budget) if dpy else None
        pyca_cls = pyca_class(level)
        d = key_api(pyca_cls, args.budget) if pyca_cls else None
        prepared = getattr(mldsa_rs, f"MLDSA{level}PrivateKey").generate().prepared()
        p = per_op(lambda: prepared.sign(MSG), args.budget)
        for op in ("keygen", "sign", "verify"):
            cells = [fmt(a[op].median), fmt(b[op].median), fmt(c[op].median) if c else "n/a",
                     fmt(d[op].median) if d else "n/a"]
            x_dpy = f"{c[op].median / b[op].median:14.0f}x" if c else "n/a"
            x_pyca = f"{d[op].median / a[op].median:7.2f}x" if d else "n/a"
            print(f"ML-DSA-{level:<3} {op:7} " + " ".join(f"{s:>13}" for s in cells) + f" {x_dpy:>15} {x_pyca:>8}")
        signing.append((level, a["sign"], b["sign"], c["sign"] if c else None, d["sign"] if d else None, p))
        turns = "verify, 2 keys taking turns"
        x_dpy = f"{c[turns].median / b[turns].median:.0f}x" if c else "n/a"
        turn_lines.append(f"ML-DSA-{level:<3} {fmt(b[turns].median):>13}"
                          f" {fmt(c[turns].median) if c else 'n/a':>13} {x_dpy:>15}")
    print("\ndrop-in verify with 2 keys taking turns (the drop-in prepares only a key verified twice"
          " in a row, so nothing is kept here; the verify row above repeats one key): median")
    print(f"{'set':10} {'drop-in':>13} {'dilithium-py':>13} {'x dilithium-py':>15}")
    print("\n".join(turn_lines))
    print("\nsign (hedged): mean / minimum CPU time per call, and calls timed")
    print(f"{'set':10} {'mldsa_rs':>22} {'drop-in':>22} {'dilithium-py':>22} {'pyca':>22} {'prepared key':>22}")
    for level, *cols in signing:
        cells = [f"{fmt(s.mean).strip()} / {fmt(s.min).strip()} ({len(s.times)})" if s else "n/a" for s in cols]
        print(f"ML-DSA-{level:<3} " + " ".join(f"{c:>22}" for c in cells))
    for level, a, b, c, d, p in signing:
        if c:
            print(f"ML-DSA-{level}: dilithium-py mean / drop-in mean {c.mean / b.mean:.0f}x;"
                  f" / prepared key mean {c.mean / p.mean:.0f}x")
    if dpy and args.paired:
        print(f"\nsign (deterministic), the same key and {args.paired} messages in both: total CPU time")
        print(f"{'set':10} {'drop-in':>12} {'dilithium-py':>13} {'x dilithium-py':>15} {'per message':>16}"
              f" {'attempts (expected)':>20}")
        for level in LEVELS:
            mine, theirs, ratios, attempts = paired_signing(getattr(dropin, f"ML_DSA_{level}"),
                                                            getattr(dpy, f"ML_DSA_{level}"), args.paired)
            tries = (f"{statistics.fmean(attempts):.2f} ({EXPECTED_ATTEMPTS[level]})" if attempts
                     else "n/a")
            print(f"ML-DSA-{level:<3} {fmt(mine):>12} {fmt(theirs):>13} {theirs / mine:14.0f}x"
                  f" {min(ratios):7.0f}-{max(ratios):.0f}x {tries:>20}")
    os.sched_setaffinity(0, all_cpus)
    rates, overlap = thread_scaling()
    print(f"\nML-DSA-65 verify, 2000 calls, all CPUs: 1 thread {rates[1]:.0f}/s, 2 threads {rates[2]:.0f}/s "
          f"(scaling {rates[2] / rates[1]:.2f}x); thread CPU per wall second: "
          f"{overlap[1]:.2f} on 1 thread, {overlap[2]:.2f} on 2")
    print("x dilithium-py: dilithium-py median / drop-in median (same calls, bytes in and out);"
          " x pyca: pyca median / mldsa_rs key API median (>1 means mldsa_rs is faster)")


if __name__ == "__main__":
    main()
