#!/bin/sh
# cli_mix.sh - issue 12: the memory roof by access mix (a device with
# mem_read_bandwidth_gbs and mem_write_bandwidth_gbs) and the host cost by op
# kind (a runtime with host_overhead_us.KIND), through classify, with every
# figure worked out by hand below.
#
# tests/data/tiny-rw.device: 1000 GB/s, read-only 2000, write-only 500, 2 us
# launch floor. A copy of 10^6 fp32 elements reads 4e6 bytes (2 us at 2 TB/s)
# and writes 4e6 (8 us at 0.5 TB/s): 10 us, 8e6 bytes at 800 GB/s; on
# tests/data/tiny.device (1000 GB/s only) 8 us. An add of two such tensors
# reads 8e6 (4 us) and writes 4e6 (8 us): 12 us. A custom op of 8e6 bytes
# given: the split is unknown, 8 us at 1000 GB/s.
#
# tests/data/hwdb-kinds: eager 5 us per kernel, 12 for a matmul, 9 for a
# softmax; graph 0.05 whatever the kind. Tiny ops (2 us floor each):
#   eager: mm 12, add 5, sm 9 us of host each. Timeline: the matmul issued at
#     12 runs 12-14, the add issued at 17 runs 17-19, the softmax issued at
#     26 runs 26-28: a step of 28 us, 6 of them busy.
#   --host-overhead-us 3: every kind 3 us (in the timeline too, for the
#     report's own runtime).
. "$top_srcdir/tests/lib.sh"

near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * b + 1e-9) }'; }

printf 'name,kind,dtype,shape,inputs,flops,bytes\ncp,copy,fp32,1000000,,,\nadd,pointwise,fp32,1000000,2,,\ncu,custom,fp32,,,0,8000000\n' >"$tmp/mix.csv"
run classify --hw "$DATA/tiny-rw.device" -f csv "$tmp/mix.csv"
check "access mix: exit 0" test "$rc" -eq 0
check "a copy: 4e6 bytes read at 2 TB/s, 4e6 written at 0.5 TB/s: 10 us" \
	near "$(csv_field "$tmp/out" cp t_memory_us)" 10
check "an add: 8e6 read, 4e6 written: 12 us" near "$(csv_field "$tmp/out" add t_memory_us)" 12
check "bytes given: at mem_bandwidth_gbs, 8 us" near "$(csv_field "$tmp/out" cu t_memory_us)" 8
run classify --hw "$DATA/tiny.device" -f csv "$tmp/mix.csv"
check "without the keys: the copy at 1000 GB/s, 8 us" near "$(csv_field "$tmp/out" cp t_memory_us)" 8
run hw show "$DATA/tiny-rw.device" -f csv
check "hw show lists mem_read_bandwidth_gbs" grep -q '^mem_read_bandwidth_gbs,2000,made up' "$tmp/out"
check "hw show lists mem_write_bandwidth_gbs" grep -q '^mem_write_bandwidth_gbs,500,made up' "$tmp/out"
run hw show "$DATA/tiny-rw.device"
check "hw show: a copy's mix at 2 / (1/2000 + 1/500) = 800 GB/s, an add's 1000" \
	grep -q '^  copy (1 read, 1 write) 800 GB/s, add (2 reads, 1 write) 1000 GB/s$' "$tmp/out"

K="$DATA/hwdb-kinds"
printf 'name,kind,dtype,shape\nmm,matmul,bf16,8x8x8\nadd,pointwise,fp32,8\nsm,softmax,fp32,8x8\n' >"$tmp/kinds.csv"
run classify --hwdb "$K" --hw tiny --runtime eager -f csv "$tmp/kinds.csv"
check "per kind: exit 0" test "$rc" -eq 0
check "a matmul pays host_overhead_us.matmul, 12 us" test "$(csv_field "$tmp/out" mm t_overhead_us)" = 12
check "a pointwise op the default, 5 us" test "$(csv_field "$tmp/out" add t_overhead_us)" = 5
check "a softmax host_overhead_us.softmax, 9 us" test "$(csv_field "$tmp/out" sm t_overhead_us)" = 9
check "... which is its time (host-bound)" test "$(csv_field "$tmp/out" sm t_us)" = 9
run classify --hwdb "$K" --hw tiny --runtime eager --host-overhead-us 3 -f csv "$tmp/kinds.csv"
check "--host-overhead-us overrides every kind: the matmul 3 us" \
	test "$(csv_field "$tmp/out" mm t_overhead_us)" = 3
check "... and the softmax 3 us" test "$(csv_field "$tmp/out" sm t_overhead_us)" = 3
run classify --hwdb "$K" --hw tiny --runtime graph -f csv "$tmp/kinds.csv"
check "a profile without per-kind keys: its default for every kind" \
	test "$(csv_field "$tmp/out" mm t_overhead_us)" = 0.05
run classify --hwdb "$K" --hw tiny --runtime graph --timeline "$tmp/kinds.csv"
check "timeline: eager's lane pays each op's kind: a step of 28 us, 6 busy" \
	grep -Eq '^eager +5\.0-12\.0 us +28\.00 +6\.00 +22\.00 ' "$tmp/out"
run classify --hwdb "$K" --hw tiny --runtime eager --timeline "$tmp/kinds.csv"
check "timeline: the same for the report's own runtime" \
	grep -Eq '^eager +5\.0-12\.0 us +28\.00 +6\.00 +22\.00 ' "$tmp/out"
# --host-overhead-us 3 on the report's runtime: kernels issued at 3, 6 and 9,
# running 3-5, 6-8, 9-11: a step of 11 us
run classify --hwdb "$K" --hw tiny --runtime eager --host-overhead-us 3 --timeline "$tmp/kinds.csv"
check "timeline: --host-overhead-us sets every kind of its lane: 11 us" \
	grep -Eq '^eager +3\.00 us +11\.00 +6\.00 +5\.00 ' "$tmp/out"
run hw runtimes --hwdb "$K" -f csv
check "hw runtimes: a row per kind that has its own cost" \
	grep -qx 'eager,12,Test eager runtime with per-kind host costs,made up for the test suite: a matmul dispatches more host work,matmul' "$tmp/out"
check "... beside the default row" \
	grep -qx 'eager,5,Test eager runtime with per-kind host costs,made up for the test suite,default' "$tmp/out"
run hw runtimes --hwdb "$K"
check "hw runtimes table: the per-kind lines" grep -Eq '^ +softmax +9 us  source: made up' "$tmp/out"

printf 'id = e\nname = E\nhost_overhead_us = 5 ; s\nhost_overhead_us.gemm = 12 ; s\n' >"$tmp/bad.runtime"
mkdir "$tmp/badk" && cp "$K/tiny.device" "$tmp/bad.runtime" "$tmp/badk/"
expect_error "an unknown kind in a runtime: exit 1, the key and the kinds named" 1 \
	"bad.runtime:4: unknown key 'host_overhead_us.gemm' \(expected host_overhead_us.KIND, KIND one of pointwise, .*custom, or host_overhead_us.matmul.fp8\)" \
	classify --hwdb "$tmp/badk" --hw tiny "$tmp/kinds.csv"

done_testing
