#!/bin/sh
# gpu_bench.sh - "roofline bench --quick", "calibrate --quick" and "validate"
# on the GPU of this machine: every measurement's result check passes, the
# recording reads back, the calibrated file loads and predicts, and the
# figures are physically possible (no roof above the probe's derivation of
# the datasheet by more than the boost clock allows). Skipped where the
# build has no CUDA or the machine no GPU (a TAP "1..0 # SKIP" plan: the TAP
# driver's form of exit status 77).
. "$top_srcdir/tests/lib.sh"

if ! "$ROOFLINE" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no CUDA GPU (roofline devices failed)"
	exit 0
fi

run bench --quick -f json -o "$tmp/b.json"
check "bench --quick exits 0 (every result check passed)" test "$rc" -eq 0
check "... and names no failed check" sh -c "! grep -q FAILED '$tmp/err'"
for g in memory l2 vector special gemm launch sweep; do
	check "the recording has the $g group" grep -q "\"group\": \"$g\"" "$tmp/b.json"
done
run bench --from "$tmp/b.json"
check "bench --from reads the recording back" test "$rc" -eq 0
check "... and finds a measured knee for fp32" grep -q 'measured knee: r = ' "$tmp/out"
run bench --from "$tmp/b.json" -f csv
# nothing may beat the datasheet by more than 10 %: a copy or a GEMM faster
# than the hardware is a counting bug
check "no figure above 110 % of its reference" sh -c \
	"awk -F, 'NR > 1 && \$15 != \"\" && \$15 > 110 { print; bad = 1 } END { exit bad }' '$tmp/out'"
run calibrate --from "$tmp/b.json" -o "$tmp/m.device"
check "calibrate --from writes a device file" test "$rc" -eq 0
run classify --hw "$tmp/m.device" "$EX/bert-base.csv"
check "classify predicts with the measured roofs" test "$rc" -eq 0
run classify --hw "$tmp/m.device" --roofs datasheet "$EX/bert-base.csv"
check "... and with the datasheet's" test "$rc" -eq 0
run validate --hw "$tmp/m.device" -f json -o "$tmp/v.json"
check "validate runs the built-in set (every check passed)" test "$rc" -eq 0
run validate --from "$tmp/v.json" --hw "$tmp/m.device"
check "validate --from reads the run back" test "$rc" -eq 0
check "... with a bound agreement line" grep -q '^bound agreement: ' "$tmp/out"
run validate --hw "$tmp/m.device" -f csv "$DATA/validate-small.csv"
check "validate OPS.csv: every kind and dtype at odd sizes, every check passed" test "$rc" -eq 0
check "... all 21 rows measured" test "$(awk -F, 'NR > 1 && $5 != ""' "$tmp/out" | wc -l)" -eq 21
printf 'name,kind,dtype,shape,kernel\nc,conv2d,fp32,1x3x8x8,4x3x3\n' >"$tmp/conv.csv"
run validate --hw "$tmp/m.device" "$tmp/conv.csv"
check "a conv2d row is skipped with the reason" grep -q "skipped: no synthetic kernel for kind 'conv2d'" "$tmp/out"
run validate --device 4096
check "an absent --device is an error (exit 1)" test "$rc" -eq 1
done_testing
