# count.awk's count, split by function: the instructions of each executed translation block (TB)
# go to the symbol qemu names for the TB ("IN: symbol"; code without symbols, such as the shared
# C library's, goes to "(unnamed:C-library)"). Inlined functions count in their caller. Prints
# "instructions share symbol" lines (largest first through `sort -rn`) and the total.
function norm(pc) { sub(/^0x/, "", pc); sub(/^0+/, "", pc); return tolower(pc) }
/^IN:/ { inblk = 1; first = ""; sym = ($2 == "" ? "(unnamed:C-library)" : $2); next }
inblk && /^0x[0-9a-fA-F]+:/ {
    pc = substr($1, 1, length($1) - 1)
    if (first == "") { first = norm(pc); size[first] = 0; owner[first] = sym }
    size[first]++
    next
}
inblk && /^[[:space:]]*$/ { inblk = 0; next }
/^Trace / {
    if (state == 0) { if ($NF == "mldsa_insns_begin") state = 1; next }
    if ($NF == "mldsa_insns_end") { done = 1; exit }
    split($4, f, "/")
    pc = norm(f[2])
    if (!(pc in size)) { print "by-symbol.awk: TB at " pc " was never logged by in_asm" > "/dev/stderr"; bad = 1; exit 1 }
    insns += size[pc]; per[owner[pc]] += size[pc]
}
END {
    if (!done || bad) { if (!bad) print "by-symbol.awk: no complete marker region in the log" > "/dev/stderr"; exit 1 }
    for (s in per) printf "%10d %5.1f%% %s\n", per[s], 100 * per[s] / insns, s
    printf "%10d 100.0%% (total)\n", insns
}
