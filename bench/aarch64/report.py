#!/usr/bin/env python3
"""Makes the markdown report and the JSON of scripts/aarch64-insns.sh from its raw results.

    report.py RAW_DIR META_JSON OUT_MD OUT_JSON

RAW_DIR holds one file per count, `LIB.SET.OP` (the line count.awk printed: instructions and
TB executions in the region, or `n/a: why`), and `attempts.SET` (attempts per message, from
mldsa-aarch64-attempts). META_JSON is what the script knows about the run (versions, N, ...).
Nothing here is typed but the row and column layout and the external anchor (ANCHOR).
"""

import json
import os
import sys

LIBS = ["mldsa", "mldsa-portable", "libcrux", "mldsa-native", "aws-lc-rs"]
TITLES = {
    "mldsa": "mldsa (neon)",
    "mldsa-portable": "mldsa (portable)",
    "libcrux": "libcrux",
    "mldsa-native": "mldsa-native",
    "aws-lc-rs": "aws-lc-rs",
}
PEERS = ["libcrux", "mldsa-native", "aws-lc-rs"]
SETS = ["44", "65", "87"]
OPS = ["keygen", "sign-cold", "sign-warm", "verify-cold", "verify-warm"]

# The external anchor: mldsa-native's published cycle counts on a Cortex-A76, ML-DSA-44, in
# thousands of cycles ("about", as issue 38 quotes them; not re-checked against mldsa-native's
# pages from here). Figures published by mldsa-native, not measured here.
ANCHOR = {"keygen": 113, "sign": 355, "verify": 118}

# Targets of issue 38 (mldsa (neon) over the fewest-instruction peer; over mldsa (portable)).
TARGET_COLD = 0.8
TARGET_WARM_SIGN = 0.6
TARGET_PORTABLE = 0.35


def read_raw(raw, n):
    counts, na = {}, {}
    for lib in LIBS:
        for s in SETS:
            for op in OPS:
                path = os.path.join(raw, f"{lib}.{s}.{op}")
                if not os.path.exists(path):
                    continue
                text = open(path).read().strip()
                if text.startswith("n/a"):
                    na[(lib, s, op)] = text[len("n/a:"):].strip()
                    continue
                insns, tbs = (int(x) for x in text.split()[:2])
                counts[(lib, s, op)] = {"insns": insns, "tbs": tbs, "per_op": insns / n}
    attempts = {}
    for s in SETS:
        path = os.path.join(raw, f"attempts.{s}")
        if os.path.exists(path):
            per_msg = [int(l.split()[1]) for l in open(path) if l.split()[0].isdigit()]
            attempts[s] = per_msg
    return counts, na, attempts


def fmt(x):
    """Thousands of instructions, one decimal."""
    return "n/a" if x is None else f"{x / 1000:,.1f}"


def main():
    raw, meta_path, out_md, out_json = sys.argv[1:5]
    meta = json.load(open(meta_path))
    n = meta["n"]
    counts, na, attempts = read_raw(raw, n)
    libs = [l for l in LIBS if l in meta["libs"]]
    sets = [s for s in SETS if s in meta["sets"]]
    peers = [l for l in PEERS if l in libs]

    def per(lib, s, op, per_attempt=False):
        c = counts.get((lib, s, op))
        if c is None:
            return None
        if per_attempt:
            return c["insns"] / sum(attempts[s][:n])
        return c["per_op"]

    def best_peer(s, op, per_attempt, fallback_cold):
        """(value, peer, op used) of the fewest-instruction peer; for a warm op, a peer without
        the warm form counts with its cold one (its only way to do the operation)."""
        best = None
        for p in peers:
            v, used = per(p, s, op, per_attempt), op
            if v is None and fallback_cold:
                used = op.replace("warm", "cold")
                v = per(p, s, used, per_attempt)
            if v is not None and (best is None or v < best[0]):
                best = (v, p, used)
        return best

    rows, ratios = [], []
    for s in sets:
        for op in OPS:
            variants = [False, True] if op.startswith("sign") else [False]
            for pa in variants:
                label = {
                    "keygen": "keygen",
                    "sign-cold": "sign (cold)",
                    "sign-warm": "sign (warm)",
                    "verify-cold": "verify (cold)",
                    "verify-warm": "verify (warm)",
                }[op] + (", per attempt" if pa else "")
                vals = {l: per(l, s, op, pa) for l in libs}
                neon, port = vals.get("mldsa"), vals.get("mldsa-portable")
                warm = op.endswith("warm")
                best = best_peer(s, op, pa, fallback_cold=warm)
                r_peer = neon / best[0] if neon is not None and best else None
                r_port = neon / port if neon is not None and port else None
                target = None
                if op == "sign-warm":
                    target = TARGET_WARM_SIGN
                elif not warm:
                    target = TARGET_COLD
                peer_note = None
                if best:
                    peer_note = best[1] + (" (cold)" if best[2] != op else "")
                rows.append((f"ML-DSA-{s}", label, vals, r_peer, peer_note, r_port))
                ratios.append({
                    "set": f"ML-DSA-{s}", "op": op, "per_attempt": pa,
                    "neon_over_fewest_peer": r_peer, "fewest_peer": best[1] if best else None,
                    "fewest_peer_op": best[2] if best else None,
                    "target_peer": target, "neon_over_portable": r_port,
                    "target_portable": TARGET_PORTABLE,
                })

    md = []
    md.append("# mldsa on AArch64: instructions per operation under qemu")
    md.append("")
    for key in ["date", "command", "mldsa", "qemu", "qemu_cpu", "rustc", "cc", "n", "runtime"]:
        if key in meta:
            md.append(f"- {key}: {meta[key]}")
    md.append("")
    md.append("## Instructions per operation")
    md.append("")
    md.append(
        "Thousands of AArch64 instructions executed per operation (fewer is better). "
        "\"/ peer\": mldsa (neon) over the fewest-instruction peer (named), target "
        f"<= {TARGET_COLD} on cold operations and <= {TARGET_WARM_SIGN} on warm sign; for a warm "
        "row a peer without a warm form counts with its cold one, marked (cold). "
        f"\"/ portable\": mldsa (neon) over mldsa (portable), target <= {TARGET_PORTABLE}."
    )
    md.append("")
    head = ["set", "operation"] + [TITLES[l] for l in libs] + ["/ peer", "fewest peer", "/ portable"]
    md.append("| " + " | ".join(head) + " |")
    md.append("|" + "|".join([" --- "] * 2 + [" ---: "] * (len(libs) + 1) + [" --- ", " ---: "]) + "|")
    for setname, label, vals, r_peer, peer_note, r_port in rows:
        cells = [setname, label] + [fmt(vals[l]) for l in libs]
        cells += [f"{r_peer:.2f}" if r_peer else "n/a", peer_note or "n/a",
                  f"{r_port:.2f}" if r_port else "n/a"]
        md.append("| " + " | ".join(cells) + " |")
    md.append("")
    md.append("Signing attempts of the counted messages (the same for every library: all sign "
              "deterministically and their signatures equal mldsa's byte for byte): " +
              "; ".join(f"ML-DSA-{s}: {' '.join(map(str, attempts[s][:n]))} "
                        f"(mean {sum(attempts[s][:n]) / n:.2f})" for s in sets if s in attempts) + ".")
    md.append("")
    if na:
        md.append("Not available (n/a):")
        md.append("")
        seen = set()
        for (lib, s, op), why in sorted(na.items()):
            if (lib, op, why) in seen:
                continue
            seen.add((lib, op, why))
            md.append(f"- {TITLES[lib]}, {op}: {why}")
        md.append("")
    md.append("## External anchor")
    md.append("")
    md.append("Cortex-A76 cycles published by mldsa-native (not measured here), beside "
              "mldsa-native's instructions counted here, ML-DSA-44, thousands:")
    md.append("")
    md.append("| ML-DSA-44 | keygen | sign | verify |")
    md.append("| --- | ---: | ---: | ---: |")
    md.append(f"| mldsa-native, Cortex-A76 cycles (published by mldsa-native) | "
              f"{ANCHOR['keygen']} | {ANCHOR['sign']} | {ANCHOR['verify']} |")
    if "44" in sets:
        nat = [per("mldsa-native", "44", op) for op in ["keygen", "sign-cold", "verify-cold"]]
        md.append("| mldsa-native, instructions under qemu (this run; sign: these messages) | " +
                  " | ".join(fmt(v) for v in nat) + " |")
        neon = [per("mldsa", "44", op) for op in ["keygen", "sign-cold", "verify-cold"]]
        md.append("| mldsa (neon), instructions under qemu (this run; cold) | " +
                  " | ".join(fmt(v) for v in neon) + " |")
    md.append("")
    md.append("## Method")
    md.append("")
    for line in meta["method"]:
        md.append(f"- {line}")
    md.append("")
    md.append("## Libraries")
    md.append("")
    for lib in libs:
        md.append(f"- {TITLES[lib]}: {meta['notes'].get(lib, '')}")
    for lib, why in meta.get("excluded", {}).items():
        md.append(f"- {lib}: not built: {why}")
    md.append("")
    open(out_md, "w").write("\n".join(md))

    out = {
        "meta": meta,
        "attempts": {f"ML-DSA-{s}": attempts[s][:n] for s in sets if s in attempts},
        "results": [
            {"lib": l, "set": f"ML-DSA-{s}", "op": op, **c}
            for (l, s, op), c in sorted(counts.items())
        ],
        "not_available": [
            {"lib": l, "set": f"ML-DSA-{s}", "op": op, "why": w} for (l, s, op), w in sorted(na.items())
        ],
        "ratios": ratios,
        "anchor_cortex_a76_kcycles_mldsa44_published_by_mldsa_native": ANCHOR,
    }
    json.dump(out, open(out_json, "w"), indent=1)


if __name__ == "__main__":
    main()
