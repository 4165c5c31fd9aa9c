#!/bin/sh
# cli_timeline.sh - classify --timeline: one step simulated on the host and the
# GPU for every runtime profile (docs/timeline.md), on tests/data/timeline.csv
# and the made-up device tests/data/tiny.device (2 us launch floor, 100 TFLOPS
# bf16 tensor), with every figure worked out by hand below.
#
# The ops: 10 adds of 1000 fp32 elements (8 kB, far below the 2 us floor: 2 us
# each) and one 1000^3 bf16 matmul (2e9 FLOP / 100 TFLOPS = 20 us). GPU busy
# 10 x 2 + 20 = 40 us in every runtime. A run of n kernels of g us, issued h us
# apart from host time H0 with the GPU free at G0, ends at
# max(G0 + n g, H0 + h + n g, H0 + n h + g).
#   eager (6.6 us): adds end at max(20, 26.6, 66 + 2) = 68, host at 66; the
#     matmul at max(68 + 20, 66 + 6.6 + 20, 72.6 + 20) = 92.6.
#     step 92.6, idle 52.6, GPU-Util 40 / 92.6 = 43.2 %.
#   cpp (3 us): adds end at max(20, 23, 32) = 32, host 30; matmul at
#     max(52, 53, 53) = 53. step 53, idle 13, GPU-Util 75.5 %.
#   graph (0.05 us per node): 11 x 0.05 = 0.55 us of host, then 40 us of
#     kernels: step 40.55, idle 0.55, GPU-Util 98.6 %.
#   saving of the graph over eager: (40.55 - 92.6) / 92.6 = -56.2 %.
. "$top_srcdir/tests/lib.sh"

T="$DATA/timeline.csv"
TINY="$DATA/tiny.device"

# (the kernels at their roofline times, worked out above: --best-case)
run classify --hw "$TINY" --timeline --best-case "$T"
check "table: exit 0" test "$rc" -eq 0
check "table: the eager row" grep -qx \
	'eager          6.60 us        92.60        40.00        52.60    43.2 %' "$tmp/out"
check "table: the cpp row" grep -qx \
	'cpp            3.00 us        53.00        40.00        13.00    75.5 %' "$tmp/out"
check "table: the graph row" grep -qx \
	'graph          0.05 us        40.55        40.00         0.55    98.6 %' "$tmp/out"
check "table: what a CUDA graph would save" grep -qx \
	'as one CUDA graph: 40.55 us per step instead of 92.60 us in eager (-56.2 %)' "$tmp/out"
check "table: the timeline follows the summary" \
	awk '/^advice:/ { a = NR } /^timeline / { t = NR } END { exit !(a && t > a) }' "$tmp/out"
check "table: no measured row without a trace" sh -c "! grep -q '^measured' '$tmp/out'"

# --host-overhead-us overrides the report's own runtime only. cpp at 10 us:
# adds end at max(20, 30, 100 + 2) = 102, host 100; the matmul at
# max(122, 130, 130) = 130: step 130, idle 90, GPU-Util 40 / 130 = 30.8 %;
# the graph saves (40.55 - 130) / 130 = -68.8 %.
run classify --hw "$TINY" --timeline --best-case --runtime cpp --host-overhead-us 10 "$T"
check "override: the cpp row at 10 us" grep -qx \
	'cpp           10.00 us       130.00        40.00        90.00    30.8 %' "$tmp/out"
check "override: eager keeps its profile" grep -q '^eager          6.60 us        92.60 ' "$tmp/out"
check "override: the saving is against cpp" grep -qx \
	'as one CUDA graph: 40.55 us per step instead of 130.00 us in cpp (-68.8 %)' "$tmp/out"

run classify --hw "$TINY" --timeline --runtime graph "$T"
check "graph runtime: no saving line" sh -c "! grep -q 'as one CUDA graph' '$tmp/out'"

run classify --hw "$TINY" --timeline --best-case -f json "$T"
check "json: exit 0" test "$rc" -eq 0
check "json: the eager entry" grep -q '"eager":{"mode":"stream","selected":true,"host_overhead_us":6.6,"kernels":11,"host_us":72.6,"step_us":92.6,"gpu_busy_us":40,"gpu_idle_us":52.6,"gpu_util":0.431965}' "$tmp/out"
check "json: the graph entry" grep -q '"graph":{"mode":"graph","selected":false,"host_overhead_us":0.05,"kernels":11,"host_us":0.55,"step_us":40.55,"gpu_busy_us":40,"gpu_idle_us":0.55,"gpu_util":0.986436}' "$tmp/out"
check "json: the timeline is a top-level key after the summary" \
	grep -q '},"timeline":{"runtimes":{"cpp":{' "$tmp/out"
check "json: one object, closed" sh -c "tail -c 4 '$tmp/out' | grep -q '}}}'"

run classify --hw "$TINY" --timeline --best-case -f md "$T"
check "md: the eager row" grep -qx '| eager | 6.60 us | 92.60 | 40.00 | 52.60 | 43.2 % |' "$tmp/out"
check "md: a table header" grep -qx \
	'| runtime | host/launch | step_us | gpu_busy_us | gpu_idle_us | GPU-Util |' "$tmp/out"

run classify --hw "$TINY" --timeline -f csv "$T"
check "csv: --timeline is a usage error" test "$rc" -eq 2
check "csv: nothing on stdout" test ! -s "$tmp/out"
check "csv: the error says why" grep -q 'needs --format table, json or md' "$tmp/err"

run classify --hw "$TINY" -f json "$T"
check "json without --timeline: no timeline key" sh -c "! grep -q timeline '$tmp/out'"

# Llama-2-7B decode on a B200: 484 kernels, so eager's host issues for
# 484 x 6.6 = 3194.4 us, cpp's 484 x 3 = 1452, the graph's 484 x 0.05 = 24.2.
# Every runtime keeps the GPU busy for the summary's expected_gpu_us (the
# last one in the file: the ops' come before it).
run classify --hw b200 --timeline -f json "$EX/llama2-7b-decode.csv"
gpu=$(sed 's/.*"expected_gpu_us":\([0-9.e+]*\),.*/\1/' "$tmp/out")
check "llama decode: eager host 3194.4 us" grep -q '"eager":{[^}]*"host_us":3194.4,' "$tmp/out"
check "llama decode: cpp host 1452 us" grep -q '"cpp":{[^}]*"host_us":1452,' "$tmp/out"
check "llama decode: graph host 24.2 us" grep -q '"graph":{[^}]*"host_us":24.2,' "$tmp/out"
check "llama decode: GPU busy = summary expected_gpu_us ($gpu) in all three" \
	test "$(grep -o "\"gpu_busy_us\":$gpu," "$tmp/out" | wc -l)" -eq 3

# the table with the timeline still fits 80 columns
run classify --timeline "$EX/bert-base.csv"
check "bert: every line within 80 columns" awk 'length > 80 { exit 1 }' "$tmp/out"

# bug 3 of issue 11: a host cost of 1e25 us filled the 32-byte host column
# and " us" was appended past its end; 1e300 us was cut to garbage digits.
# Such costs are refused now (one second, 1e6 us, at most: hwdb.h), and
# check_timeline.c holds the column to any double.
for v in 1e25 1e300; do
	run classify --host-overhead-us $v --timeline "$EX/bert-base.csv"
	check "--host-overhead-us $v: a usage error (exit 2)" test "$rc" -eq 2
	check "--host-overhead-us $v: says the range" grep -q "outside the sensible range 0\.\.1e+06 us" "$tmp/err"
done
run classify --host-overhead-us 1e6 --timeline "$EX/bert-base.csv"
check "--host-overhead-us 1e6: host column 1.000e+06 us" grep -Eq '^eager +1\.000e\+06 us ' "$tmp/out"
run classify --host-overhead-us 999999.5 --timeline "$EX/bert-base.csv"
check "--host-overhead-us 999999.5: host column 999999.50 us" grep -Eq '^eager +999999\.50 us ' "$tmp/out"

# A list that ends in a fuse group: the group is a kernel of the step too.
# The timeline was finished before the last group was flushed, so the step
# (647.64 us) was shorter than the GPU's busy time. By hand, eager on the
# H100: relu (2^28 fp32 in and out, 2147483648 B at 3350 GB/s = 641.04 us)
# issued at 6.6 us runs 6.6..647.64; the cos_cos group (the same bytes,
# 641.04 us) issued at 13.2 runs 647.64..1288.68: step 1288.68 us.
printf 'name,kind,dtype,shape,inputs,flops_per_element,fuse\n%s\n%s\n%s\n' \
	'relu,pointwise,fp32,268435456,1,1,' \
	'cos_1,pointwise,fp32,268435456,1,1,cos_cos' \
	'cos_2,pointwise,fp32,268435456,1,1,cos_cos' >"$tmp/fuse-last.csv"
run classify --timeline --best-case -f json "$tmp/fuse-last.csv"
check "fuse group last: eager step 1288.68 us over 2 kernels" grep -q \
	'"eager":{[^}]*"kernels":2,"host_us":13.2,"step_us":1288.68,"gpu_busy_us":1282.08,' "$tmp/out"

done_testing
