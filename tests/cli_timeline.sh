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
#   eager (hwdb/eager.runtime: 6.6 us default, shown in the host column; each
#     op pays its kind's cost, pointwise 6.9, matmul 12.7): adds end at
#     max(20, 26.9, 69 + 2) = 71, host at 69; the matmul at
#     max(71 + 20, 69 + 12.7 + 20, 81.7 + 20) = 101.7. host 69 + 12.7 = 81.7,
#     step 101.7, idle 61.7, GPU-Util 40 / 101.7 = 39.3 %.
#   cpp (3 us): adds end at max(20, 23, 32) = 32, host 30; matmul at
#     max(52, 53, 53) = 53. step 53, idle 13, GPU-Util 75.5 %.
#   graph (0.05 us per node): 11 x 0.05 = 0.55 us of host, then 40 us of
#     kernels: step 40.55, idle 0.55, GPU-Util 98.6 %.
#   module (hwdb/module.runtime: 13.6 default; pointwise 13.3, matmul 24.1):
#     adds end at max(20, 33.3, 133 + 2) = 135, host 133; the matmul at
#     max(155, 133 + 24.1 + 20, 157.1 + 20) = 177.1: step 177.1, idle 137.1,
#     GPU-Util 40 / 177.1 = 22.6 %.
#   saving of the graph over eager: (40.55 - 101.7) / 101.7 = -60.1 %.
. "$top_srcdir/tests/lib.sh"

T="$DATA/timeline.csv"
TINY="$DATA/tiny.device"

# (the kernels at their roofline times, worked out above: --best-case)
run classify --hw "$TINY" --timeline --best-case "$T"
check "table: exit 0" test "$rc" -eq 0
check "table: the eager row" grep -qx \
	'eager       6.6-18.8 us       101.70        40.00        61.70    39.3 %' "$tmp/out"
check "table: the cpp row" grep -qx \
	'cpp             3.00 us        53.00        40.00        13.00    75.5 %' "$tmp/out"
check "table: the graph row" grep -qx \
	'graph           0.05 us        40.55        40.00         0.55    98.6 %' "$tmp/out"
check "table: the module row" grep -qx \
	'module     11.8-32.9 us       177.10        40.00       137.10    22.6 %' "$tmp/out"
check "table: what a CUDA graph would save" grep -qx \
	'as one CUDA graph: 40.55 us per step instead of 101.70 us in eager (-60.1 %)' "$tmp/out"
check "table: the timeline follows the summary" \
	awk '/^advice:/ { a = NR } /^timeline / { t = NR } END { exit !(a && t > a) }' "$tmp/out"
check "table: no measured row without a trace" sh -c "! grep -q '^measured' '$tmp/out'"

# --host-overhead-us overrides the report's own runtime only. cpp at 10 us:
# adds end at max(20, 30, 100 + 2) = 102, host 100; the matmul at
# max(122, 130, 130) = 130: step 130, idle 90, GPU-Util 40 / 130 = 30.8 %;
# the graph saves (40.55 - 130) / 130 = -68.8 %.
run classify --hw "$TINY" --timeline --best-case --runtime cpp --host-overhead-us 10 "$T"
check "override: the cpp row at 10 us" grep -qx \
	'cpp            10.00 us       130.00        40.00        90.00    30.8 %' "$tmp/out"
check "override: eager keeps its profile" grep -q '^eager       6.6-18.8 us       101.70 ' "$tmp/out"
check "override: the saving is against cpp" grep -qx \
	'as one CUDA graph: 40.55 us per step instead of 130.00 us in cpp (-68.8 %)' "$tmp/out"

run classify --hw "$TINY" --timeline --runtime graph "$T"
check "graph runtime: no saving line" sh -c "! grep -q 'as one CUDA graph' '$tmp/out'"

run classify --hw "$TINY" --timeline --best-case -f json "$T"
check "json: exit 0" test "$rc" -eq 0
check "json: the eager entry" grep -q '"eager":{"mode":"stream","selected":true,"host_overhead_us":6.6,"kernels":11,"host_us":81.7,"step_us":101.7,"gpu_busy_us":40,"gpu_idle_us":61.7,"gpu_util":0.393314}' "$tmp/out"
check "json: the graph entry" grep -q '"graph":{"mode":"graph","selected":false,"host_overhead_us":0.05,"kernels":11,"host_us":0.55,"step_us":40.55,"gpu_busy_us":40,"gpu_idle_us":0.55,"gpu_util":0.986436}' "$tmp/out"
check "json: the timeline is a top-level key after the summary" \
	grep -q '},"timeline":{"runtimes":{"cpp":{' "$tmp/out"
check "json: one object, closed" sh -c "tail -c 4 '$tmp/out' | grep -q '}}}'"

run classify --hw "$TINY" --timeline --best-case -f md "$T"
check "md: the eager row" grep -qx '| eager | 6.6-18.8 us | 101.70 | 40.00 | 61.70 | 39.3 % |' "$tmp/out"
check "md: a table header" grep -qx \
	'| runtime | host/launch | step_us | gpu_busy_us | gpu_idle_us | GPU-Util |' "$tmp/out"

run classify --hw "$TINY" --timeline -f csv "$T"
check "csv: --timeline is a usage error" test "$rc" -eq 2
check "csv: nothing on stdout" test ! -s "$tmp/out"
check "csv: the error says why" grep -q 'needs --format table, json or md' "$tmp/err"

run classify --hw "$TINY" -f json "$T"
check "json without --timeline: no timeline key" sh -c "! grep -q timeline '$tmp/out'"

# Llama-2-7B decode on a B200: 484 kernels: 225 matmul (7 x 32 + lm_head),
# 128 pointwise (4 x 32), 65 layernorm (2 x 32 + 1), 33 copy (32 + embedding),
# 32 attention, 1 reduction. Eager's host issues for 225 x 12.7 + 128 x 6.9 +
# 65 x 10.4 + 33 x 10.1 + 32 x 18.8 + 1 x 8.4 = 2857.5 + 883.2 + 676 + 333.3 +
# 601.6 + 8.4 = 5360 us; module's for 225 x 24.1 + 128 x 13.3 + 65 x 15.8 +
# 33 x 11.8 + (32 + 1) x 13.6 (attention and reduction take its default) =
# 5422.5 + 1702.4 + 1027 + 389.4 + 448.8 = 8990.1 us; cpp's 484 x 3 = 1452,
# the graph's 484 x 0.05 = 24.2.
# Every runtime keeps the GPU busy for the summary's expected_gpu_us (the
# last one in the file: the ops' come before it).
run classify --hw b200 --timeline -f json "$EX/llama2-7b-decode.csv"
gpu=$(sed 's/.*"expected_gpu_us":\([0-9.e+]*\),.*/\1/' "$tmp/out")
check "llama decode: eager host 5360 us" grep -q '"eager":{[^}]*"host_us":5360,' "$tmp/out"
check "llama decode: module host 8990.1 us" grep -q '"module":{[^}]*"host_us":8990.1,' "$tmp/out"
check "llama decode: cpp host 1452 us" grep -q '"cpp":{[^}]*"host_us":1452,' "$tmp/out"
check "llama decode: graph host 24.2 us" grep -q '"graph":{[^}]*"host_us":24.2,' "$tmp/out"
check "llama decode: GPU busy = summary expected_gpu_us ($gpu) in all four" \
	test "$(grep -o "\"gpu_busy_us\":$gpu," "$tmp/out" | wc -l)" -eq 4

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
# issued at 6.9 us (eager's pointwise cost) runs 6.9..647.94; the cos_cos group
# (the same bytes, 641.04 us; a fused group pays pointwise's 6.9 us) issued at
# 13.8 runs 647.94..1288.98: step 1288.98 us.
printf 'name,kind,dtype,shape,inputs,flops_per_element,fuse\n%s\n%s\n%s\n' \
	'relu,pointwise,fp32,268435456,1,1,' \
	'cos_1,pointwise,fp32,268435456,1,1,cos_cos' \
	'cos_2,pointwise,fp32,268435456,1,1,cos_cos' >"$tmp/fuse-last.csv"
run classify --timeline --best-case -f json "$tmp/fuse-last.csv"
check "fuse group last: eager step 1288.98 us over 2 kernels" grep -q \
	'"eager":{[^}]*"kernels":2,"host_us":13.8,"step_us":1288.98,"gpu_busy_us":1282.08,' "$tmp/out"

done_testing
