#!/usr/bin/env python3
"""Where each library's time goes, side by side: perf samples of one operation, sorted into the
same groups for every library.

Usage (from anywhere; needs `perf` and binutils' `nm` and `addr2line`):

    python3 bench/perf-side-by-side.py ML-DSA-44 keygen mldsa libcrux mldsa-native

It builds the benchmark (`cargo build --release` in bench/), records each library's operation
in a loop of its own (`mldsa-bench --loop LIB,SET,OP,N`, pinned like the report) with
`perf record`, and prints a markdown table: µs per operation in each group (the group's share of
the library's samples times the loop's median, the mean for signing).

Each sample goes to the innermost function of its address that is not a compiler intrinsic,
found with `addr2line -i` in the debug info (`debug = 1` in Cargo.toml), so code that the Rust
libraries inline into one large function (libcrux's ExpandA inlines its Keccak and its
rejection sampling) is still split by what it does; C code built without debug info (mldsa-native,
AWS-LC) and libc go by their symbol. The groups are regular expressions on those names, checked
in order (`GROUPS`): a heuristic, so the script also prints each group's heaviest names to
check them by. Samples in the benchmark's own code, the kernel and the dynamic loader are left
out of the shares.
"""

import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

BENCH = os.path.dirname(os.path.abspath(__file__))
# Where cargo puts the build (CARGO_TARGET_DIR, as for an AVX2-only build: bench/README.md).
BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(BENCH, "target")),
                   "release", "mldsa-bench")

# (group, pattern on the lower-cased function name), the first match wins.
HARNESS = r"mldsa_bench|\[k\]|^\[unknown\]|_dl_|getrusage|clock_gettime|vdso|std::time|sort::"
GROUPS = [
    ("memory: memset, memcpy, allocator, wipes", r"memset|memmove|memcpy|malloc|_int_free|"
     r"_int_malloc|consolidate|\bcfree|zeroize|wipe|scrub|drop_in_place|raw_vec"),
    ("Keccak permutation", r"keccak_?f|f1600|permute|keccak1\b|keccak::round|keccak8x|"
     r"keccak4x::(rounds|ops)|keccak_p|generic_keccak::.*(theta|rho|pi|chi|iota)|sha3::simd"),
    ("Keccak absorb, squeeze", r"keccak|sha3|shake|absorb|squeeze|xof|sponge|xor_bytes|"
     r"extract_bytes|read_block|xor_block|load_block|store_block|pk_lane"),
    ("rejection sampling", r"rej|sampl|less_than|uniform|expand_s|expand_mask|in_ball|challenge"),
    ("NTT, inverse NTT", r"ntt|butterfly|invert_|inv_inner"),
    ("encoding", r"pack|encode|decode|serial|bit_|polyt|polyeta|polyz|polyw1"),
    ("arithmetic: products, rounding, hints", r"pointwise|multiply|matrix|montgomery|reduce|"
     r"power2|decompose|hint|arith|caddq|freeze|norm|row_sums|add_term|sparse::mul"),
]
LEFT_OUT = "(left out: harness, kernel)"
# Frames that say how, not what (intrinsics, methods of primitive types): passed over.
HOW = r"^<?core::|^<(u|i)(8|16|32|64|size)\b|^_mm|^libcrux_intrinsics::"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, **kw)


def symbols(binary):
    """Mangled name -> address of every function symbol in `binary`."""
    out = run(["nm", "--defined-only", binary], capture_output=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            table.setdefault(parts[2], int(parts[0], 16))
    return table


def frames_at(binary, addrs):
    """Address -> the demangled functions inlined at it, innermost first."""
    if not addrs:
        return {}
    text = "\n".join(hex(a) for a in addrs) + "\n"
    # -a prints each address before its (inlined, innermost first) frames.
    out = run(["addr2line", "-a", "-i", "-f", "-C", "-e", binary], input=text,
              capture_output=True).stdout.splitlines()
    names, current, frames = {}, None, []

    def flush():
        if current is None:
            return
        names[current] = frames

    i = 0
    while i < len(out):
        line = out[i]
        if line.startswith("0x"):
            flush()
            current, frames = int(line, 16), []
            i += 1
            continue
        # a function name line, then its file:line
        if line != "??":
            frames.append(line)
        i += 2
    flush()
    return names


def classify(frames):
    """(group, the name that decided it) for a sample in `frames` (innermost first): left out
    if the innermost is the harness's, else the group of the innermost frame that has one."""
    if not frames or re.search(HARNESS, frames[0]):
        return LEFT_OUT, frames[0] if frames else ""
    for frame in frames:
        if re.search(HOW, frame):
            continue
        low = frame.lower()
        for group, pattern in GROUPS:
            if re.search(pattern, low):
                return group, frame
    return "other", next((f for f in frames if not re.search(HOW, f)), frames[0])


def loop_time(lib, pset, op, n):
    """The loop's median µs (mean for signing), without the profiler."""
    out = run([BIN, "--loop", f"{lib},{pset},{op},{n}"], capture_output=True).stdout
    m = re.search(r"(median|mean) ([0-9.]+) us", out)
    if not m:
        sys.exit(f"no time from --loop {lib},{pset},{op},{n}: {out!r}")
    return float(m.group(2))


def profile(lib, pset, op, n, tmp, table):
    """Samples of LIB's loop by (group, deciding name); `table`: `symbols(BIN)`."""
    data = os.path.join(tmp, re.sub(r"\W", "_", lib) + ".data")
    spec = f"{lib},{pset},{op},{n}"
    run(["perf", "record", "-q", "-F", "20000", "-o", data, "--", BIN, "--loop", spec],
        capture_output=True)
    script = run(["perf", "script", "-i", data, "-F", "ip,sym,symoff,dso", "--no-demangle"],
                 capture_output=True).stdout
    counts = Counter()  # (kind, key) -> samples
    for line in script.splitlines():
        m = re.match(r"\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$", line)
        if not m:
            continue
        sym, dso = m.group(2), m.group(3)
        if dso.endswith("mldsa-bench") and "+0x" in sym:
            base, off = sym.rsplit("+0x", 1)
            if base in table:
                counts[("addr", table[base] + int(off, 16), base)] += 1
                continue
        if "kernel" in dso:
            sym = "[k] " + sym
        counts[("sym", sym.split("+0x")[0], None)] += 1
    addrs = sorted({k[1] for k in counts if k[0] == "addr"})
    frames = frames_at(BIN, addrs)
    raw = sorted({base if kind == "addr" else key for (kind, key, base) in counts})
    plain = demangle(raw)
    by_group = Counter()  # (group, deciding name) -> samples
    for (kind, key, base), c in counts.items():
        at = frames.get(key) if kind == "addr" else None
        by_group[classify(at or [plain[base if kind == "addr" else key]])] += c
    return by_group


def demangle(names):
    """Mangled -> demangled, for all of `names` in one run of c++filt."""
    out = run(["c++filt"], input="\n".join(names) + "\n", capture_output=True).stdout
    return dict(zip(names, out.splitlines()))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pset, op, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
    n = int(os.environ.get("LOOP_N", "40000"))
    run(["cargo", "build", "--release", "-q"], cwd=BENCH)
    # Times first, the libraries alternating (three loops each, the median kept); then the
    # profiles, whose sampling slows what they measure.
    times = {lib: [] for lib in libs}
    for _ in range(3):
        for lib in libs:
            times[lib].append(loop_time(lib, pset, op, n))
    us = {lib: sorted(t)[1] for lib, t in times.items()}
    table = symbols(BIN)  # one binary for every library: read its symbols once
    with tempfile.TemporaryDirectory() as tmp:
        samples = {lib: profile(lib, pset, op, n, tmp, table) for lib in libs}
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    rev = run(["git", "-C", BENCH, "rev-parse", "--short", "HEAD"], capture_output=True).stdout
    if run(["git", "-C", BENCH, "status", "--porcelain", "--", "../crates"],
           capture_output=True).stdout.strip():
        rev = rev.strip() + " + uncommitted changes"
    date = run(["date", "-u", "+%Y-%m-%dT%H:%MZ"], capture_output=True).stdout.strip()
    flags = " ".join(f'{v}="{os.environ[v]}"' for v in ("RUSTFLAGS", "CFLAGS", "CARGO_TARGET_DIR")
                     if v in os.environ)
    command = (flags + " " if flags else "") + "python3 bench/perf-side-by-side.py " + " ".join(
        f'"{a}"' if " " in a else a for a in sys.argv[1:])
    print(f"### {pset} {op}\n")
    print(f"- {date}, mldsa {rev.strip()}, CPU: {cpu}; `LOOP_N={n} {command}`")
    print(f"- µs per operation by group: perf record of loops of {n}; the whole from 3 loops "
          "without the profiler, the libraries alternating (median)\n")
    print("| group | " + " | ".join(libs) + " |")
    print("| --- |" + " ---: |" * len(libs))
    kept = {lib: sum(c for (g, _), c in samples[lib].items() if g != LEFT_OUT) for lib in libs}

    def part(lib, group):
        c = sum(c for (g, _), c in samples[lib].items() if g == group)
        return us[lib] * c / kept[lib]

    order = [g for g, _ in GROUPS] + ["other"]
    for g in order:
        print(f"| {g} | " + " | ".join(f"{part(lib, g):.2f}" for lib in libs) + " |")
    print("| **whole operation** | " + " | ".join(f"**{us[lib]:.2f}**" for lib in libs) + " |")
    print("\nWhat decided each group (the heaviest names, as shares of the library's kept "
          "samples; left out: shares of all):")
    for g in order + [LEFT_OUT]:
        for lib in libs:
            names = Counter({name: c for (gg, name), c in samples[lib].items() if gg == g})
            if not names:
                continue
            base = kept[lib] if g != LEFT_OUT else sum(samples[lib].values())
            top = ", ".join(f"`{name[:80]}` {100 * c / base:.1f}%"
                            for name, c in names.most_common(4))
            print(f"- {g}, {lib}: {top}")


if __name__ == "__main__":
    main()
