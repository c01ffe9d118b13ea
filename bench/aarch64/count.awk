# Counts the guest instructions qemu-aarch64 executed between the marker functions of
# mldsa-aarch64-insns, from a log made with `-d in_asm,exec,nochain`:
#   - `in_asm` prints each translation block (TB) once, when it is translated: "IN: symbol",
#     then one line per guest instruction ("0x<pc>:  <encoding>  <mnemonic> ..."), then a blank
#     line. size[first pc] = its number of instructions (a retranslation overwrites it).
#   - `exec` with `nochain` prints one line per execution of a TB:
#     "Trace 0: <host ptr> [<flags>/<guest pc>/<...>/<...>] symbol".
# A TB ends at every branch, so each execution runs all of its instructions. The region starts
# after the first execution of a TB of mldsa_insns_begin and ends before the first TB of
# mldsa_insns_end; prints the instructions executed in it, and the TB executions.
function norm(pc) { sub(/^0x/, "", pc); sub(/^0+/, "", pc); return tolower(pc) }
/^IN:/ { inblk = 1; first = ""; next }
inblk && /^0x[0-9a-fA-F]+:/ {
    pc = substr($1, 1, length($1) - 1)
    if (first == "") { first = norm(pc); size[first] = 0 }
    size[first]++
    next
}
inblk && /^[[:space:]]*$/ { inblk = 0; next }
/^Trace / {
    if (state == 0) { if ($NF == "mldsa_insns_begin") state = 1; next }
    if ($NF == "mldsa_insns_end") { print insns, tbs; done = 1; exit }
    split($4, f, "/")
    pc = norm(f[2])
    if (!(pc in size)) { print "count.awk: TB at " pc " was never logged by in_asm" > "/dev/stderr"; bad = 1; exit 1 }
    insns += size[pc]; tbs++
}
END { if (!done && !bad) { print "count.awk: no complete marker region in the log" > "/dev/stderr"; exit 1 } }
