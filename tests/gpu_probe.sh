#!/bin/sh
# gpu_probe.sh - "roofline probe" on the GPU of this machine. Skipped where
# the build has no CUDA or the machine no GPU (a TAP "1..0 # SKIP" plan: the
# TAP driver's form of exit status 77); run on the H200 before a change to the
# probe is called done (docs/measurements/).
. "$top_srcdir/tests/lib.sh"

if ! "$ROOFLINE" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no CUDA GPU (roofline devices failed)"
	exit 0
fi

run devices
check "devices lists device 0" grep -q '^0 ' "$tmp/out"
run probe --format attrs -o "$tmp/live.attrs"
check "probe --format attrs" test "$rc" -eq 0
run probe --attrs "$tmp/live.attrs" -f hwdb -o "$tmp/a.device"
run probe -f hwdb -o "$tmp/b.device"
check "a recorded attribute set derives the same entry as the live query" \
	sh -c "grep -v '^#' '$tmp/a.device' >'$tmp/a'; grep -v '^#' '$tmp/b.device' >'$tmp/b'; cmp -s '$tmp/a' '$tmp/b'"
run hw show "$tmp/b.device"
check "the probed device file loads" test "$rc" -eq 0
run probe
check "probe table" test "$rc" -eq 0
if grep -q '^matches hwdb entry' "$tmp/out"; then
	check "every value within 5 % of the matching entry" \
		grep -q '^every value is within 5 % of the database$' "$tmp/out"
fi
run classify --hw live "$EX/bert-base.csv"
check "classify --hw live" test "$rc" -eq 0
check "classify --hw live names the entry it matched" grep -q 'matches' "$tmp/err"
run probe --device 4096
check "an absent --device is an error (exit 1)" test "$rc" -eq 1
check "... that says how many devices there are" grep -q 'no CUDA device 4096' "$tmp/err"

# The H200 against its datasheet (NVIDIA H200 product page): 4.8 TB/s within 2 %,
# 989.4 dense BF16 and 66.9 FP32 TFLOPS, 132 SMs.
if grep -q '^name *= NVIDIA H200$' "$tmp/live.attrs"; then
	run hw show "$tmp/b.device" -f csv
	within() { awk -v v="$(csv_field "$tmp/out" "$1" value)" -v r="$2" \
		'BEGIN { exit !(v > 0.98 * r && v < 1.02 * r) }'; }
	check "H200 bandwidth within 2 % of 4800 GB/s" within mem_bandwidth_gbs 4800
	check "H200 dense bf16 within 2 % of 989.4" within bf16_tensor_tflops 989.4
	check "H200 fp32 within 2 % of 66.9" within fp32_vector_tflops 66.9
	check "H200 has 132 SMs" within sm_count 132
fi
done_testing
