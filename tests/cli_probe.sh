#!/bin/sh
# cli_probe.sh - "roofline probe" and "devices" without a GPU: derivation from
# recorded attribute sets (tests/data/gpu/), output formats, and the errors of
# a machine with no GPU (or a build without CUDA). tests/gpu_probe.sh runs the
# live query where there is a GPU.
. "$top_srcdir/tests/lib.sh"
G="$DATA/gpu"

# The H200 recorded on the project's device machine, against its database entry
run probe --attrs "$G/h200.attrs"
check "probe --attrs h200" test "$rc" -eq 0
check "matches h200-sxm" grep -q '^matches hwdb entry h200-sxm ' "$tmp/out"
check "every value within 5 %" grep -q '^every value is within 5 % of the database$' "$tmp/out"
# 2 x 3201 MHz x 6016 bit / 8 = 4814.4 GB/s; 132 x 4096 x 1830 MHz = 989.4 TFLOPS
check "bandwidth 4814 GB/s against 4800" grep -q '^mem_bandwidth_gbs  *4814  *4800  *+0.3 %$' "$tmp/out"
check "bf16 tensor 989.4 at the 1830 MHz tensor clock" \
	grep -q '^bf16_tensor_tflops  *989.4  *989.4 ' "$tmp/out"
check "tensor clock 1830 = 1980 x 1830/1980" grep -q '^tensor_clock_mhz  *1830 ' "$tmp/out"
check "nothing flagged" test "$(grep -c 'differs' "$tmp/out")" -eq 0

# hwdb format: a device file that classify accepts; every number has a source
run probe --attrs "$G/h200.attrs" --format hwdb -o "$tmp/h200.device"
check "probe --format hwdb -o" test "$rc" -eq 0 -a ! -s "$tmp/out"
check "sources say probe: or derived: (or where min_kernel_us came from)" awk '
	/^[a-z0-9_]+ *= *[0-9.]+ / { if ($0 !~ / ; (probe|derived|hwdb h200-sxm)[: ]/) bad = 1 }
	END { exit bad }' "$tmp/h200.device"
check "file names the tensor-clock caveat" grep -q '^tensor_clock_mhz *= 1830 *; derived: 1980 MHz boost x 0.9242' "$tmp/h200.device"
run classify --hw "$tmp/h200.device" "$EX/blog-repeat-multiply.csv" -f csv
check "classify --hw on the probed file" test "$rc" -eq 0
run hw show "$tmp/h200.device" -f csv
check "the probed file loads in hw show" grep -q '^sm_count,132,probe: cudaDevAttrMultiProcessorCount = 132$' "$tmp/out"

# json: the attributes, the derived entry with sources, the comparison
run probe --attrs "$G/a100-sxm4-40gb.attrs" -f json
check "probe json" test "$rc" -eq 0
check "json names the match" grep -q '"id": "a100-sxm4-40gb"' "$tmp/out"
check "json has 1555 GB/s derived (2 x 1215 MHz x 5120 bit / 8)" \
	grep -q '"value": 1555,' "$tmp/out"
if command -v python3 >/dev/null 2>&1; then
	check "json parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"
fi

# attrs round trip: --format attrs writes what --attrs reads
run probe --attrs "$G/v100-sxm2-16gb.attrs" -f attrs -o "$tmp/v100.attrs"
run probe --attrs "$tmp/v100.attrs" -f hwdb
grep -v '^#' "$tmp/out" >"$tmp/a"
run probe --attrs "$G/v100-sxm2-16gb.attrs" -f hwdb
grep -v '^#' "$tmp/out" >"$tmp/b"
check "attrs written and read back derive the same entry" cmp -s "$tmp/a" "$tmp/b"
check "v100 has no bf16 pipe" test "$(grep -c '^bf16' "$tmp/b")" -eq 0

# A GPU the database does not know stands alone
sed 's/^name .*/name = NVIDIA Jetson Nano 2000/' "$G/h200.attrs" >"$tmp/unknown.attrs"
run probe --attrs "$tmp/unknown.attrs"
check "unknown GPU: no match, still derived" grep -q '^no hwdb entry matches' "$tmp/out"
check "... with its peaks" grep -q '^bf16_tensor_tflops  *989.4$' "$tmp/out"

# A capped clock is warned about and flagged
sed 's/^clock_rate_khz .*/clock_rate_khz = 1500000/' "$G/h200.attrs" >"$tmp/slow.attrs"
run probe --attrs "$tmp/slow.attrs"
check "clock below the datasheet is warned about" grep -q 'warning: the maximum SM clock, 1500 MHz' "$tmp/out"
check "fp32 flagged (-24 %)" grep -q '^fp32_vector_tflops .*-24.2 %  <- differs$' "$tmp/out"

# Errors: a bad attribute file, bad options; nothing written
printf 'name = X\nmultiprocessor_count = lots\n' >"$tmp/bad.attrs"
run probe --attrs "$tmp/bad.attrs" -o "$tmp/never.device"
check "bad attrs: exit 1" test "$rc" -eq 1
check "bad attrs: file and line" grep -q "bad.attrs:2: attribute 'multiprocessor_count'" "$tmp/err"
check "bad attrs: no output file" test ! -e "$tmp/never.device"
run probe --format xml
check "unknown format: exit 2" test "$rc" -eq 2
run probe --device one
check "bad --device: exit 2" test "$rc" -eq 2
run devices extra
check "devices takes no argument: exit 2" test "$rc" -eq 2

# No GPU here (CI): the live query fails with one clear line and exit 1,
# whether the build has CUDA (the CUDA error string) or not (says so).
if ! "$ROOFLINE" devices >/dev/null 2>&1; then
	run probe
	check "probe without a GPU: exit 1" test "$rc" -eq 1 -a ! -s "$tmp/out"
	check "... one line naming CUDA" sh -c "test \$(wc -l <'$tmp/err') -eq 1 && grep -q 'CUDA' '$tmp/err'"
	run devices
	check "devices without a GPU: exit 1" test "$rc" -eq 1
	run classify --hw live "$EX/bert-base.csv" -o "$tmp/never.txt"
	check "classify --hw live without a GPU: exit 1" test "$rc" -eq 1
	check "... and nothing written" test ! -e "$tmp/never.txt"
	check "... the message names --hw live" grep -q '^roofline: --hw live: ' "$tmp/err"
fi
done_testing
