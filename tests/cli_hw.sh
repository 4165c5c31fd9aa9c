#!/bin/sh
# cli_hw.sh - "roofline hw list | show | runtimes".
. "$top_srcdir/tests/lib.sh"

run hw list
check "hw list" test "$rc" -eq 0
check "hw list has at least 14 devices" test "$(($(wc -l <"$tmp/out") - 1))" -ge 14
for id in v100-sxm2 a100-sxm4-40gb a100-sxm4-80gb a100-pcie-80gb a10 h100-sxm h100-pcie \
	h100-nvl h200-sxm l4 l40 l40s rtx-4090 rtx-3090 t4; do
	check "hw list shows $id" grep -q "^$id " "$tmp/out"
done
# issue 11: the list shows memory and aliases (--hw a100 is the 40 GB card)
check "hw list header has GiB and aliases" grep -Eq '^id +name +SMs +GiB +GB/s .* aliases$' "$tmp/out"
check "hw list: a100 is the A100 SXM4 40GB, 40 GiB" \
	grep -Eq '^a100-sxm4-40gb +NVIDIA A100 SXM4 40GB +108 +40 +1555 .* a100, a100-40gb, a100-sxm4$' "$tmp/out"
check "hw list: the 80 GB card is a100-80gb" \
	grep -Eq '^a100-sxm4-80gb +NVIDIA A100 SXM4 80GB +108 +80 +2039 .* a100-80gb, ' "$tmp/out"
check "hw list: the H200 has 141 GiB" grep -Eq '^h200-sxm +.* 132 +141 +4800 ' "$tmp/out"
run hw list -f csv
check "hw list csv header" test "$(head -n 1 "$tmp/out")" = \
	"id,name,aliases,sm_count,memory_gib,mem_bandwidth_gbs,fp32_vector_tflops,bf16_tensor_tflops,fp8_tensor_tflops"
check "hw list csv: a100 row" grep -q '^a100-sxm4-40gb,NVIDIA A100 SXM4 40GB,"a100, a100-40gb, a100-sxm4",108,40,1555,19.5,312,$' "$tmp/out"

# show: rows key,value,source; the alias resolves; values match the datasheet
run hw show h200 -f csv
check "hw show csv header" test "$(head -n 1 "$tmp/out")" = "key,value,source"
check "hw show resolves the alias" grep -q '^id,h200-sxm,$' "$tmp/out"
check "H200 bandwidth 4800 GB/s (datasheet: 4.8 TB/s)" grep -q '^mem_bandwidth_gbs,4800,' "$tmp/out"
check "H200 dense bf16 989.4 (datasheet: 1979 with sparsity)" grep -q '^bf16_tensor_tflops,989.4,' "$tmp/out"
check "H200 tensor clock 1830 MHz" grep -q '^tensor_clock_mhz,1830,' "$tmp/out"
# every numeric row carries a source: a third field that is not empty
check "every number has a source" awk -F, 'NR > 1 && $2 ~ /^[0-9.]+$/ && $3 == "" { bad = 1 } END { exit bad }' "$tmp/out"
for key in id aliases name vendor arch compute_capability sm_count boost_clock_mhz \
	tensor_clock_mhz memory_gib mem_bandwidth_gbs l2_mib fp64_vector_tflops fp64_tensor_tflops \
	fp32_vector_tflops fp16_vector_tflops bf16_vector_tflops tf32_tensor_tflops \
	fp16_tensor_tflops bf16_tensor_tflops fp8_tensor_tflops int8_tensor_tops min_kernel_us \
	l2_bandwidth_gbs; do
	check "h200 has key $key" grep -q "^$key," "$tmp/out"
done
# measured by gpu-benches gpu-l2-cache (h200.txt): the median of the rows
# with 4 MB to 30 MB of data, between 9916.7 and 9920.3
check "H200 L2 bandwidth 9918.5 GB/s, with its measurement" \
	grep -q '^l2_bandwidth_gbs,9918.5,.*gpu-l2-cache.*h200.txt' "$tmp/out"
run hw show h100-sxm -f csv
check "no published L2 measurement for the H100 SXM: the key is absent" \
	test "$(grep -c '^l2_bandwidth_gbs,' "$tmp/out")" -eq 0
run hw show v100-sxm2 -f csv
check "a pipe the device lacks is absent (V100 has no bf16)" test "$(grep -c '^bf16' "$tmp/out")" -eq 0
run hw show h100-sxm -f json
check "hw show json" grep -q '"mem_bandwidth_gbs":{"value":"3350","source":"' "$tmp/out"
run hw show h100-sxm
check "hw show table" grep -q '^sm_count *132 ' "$tmp/out"
# ridge points: 312 TFLOPS / 1555 GB/s = 200.6; fp32 19.5 / 1.555 = 12.5, 6.3 non-FMA
run hw show a100
check "bf16 tensor ridge 200.6 FLOP/byte" grep -q '^  bf16 tensor     200.6$' "$tmp/out"
check "fp32 vector ridge 12.5 and 6.3" grep -q '^  fp32 vector      12.5  (6.3 for' "$tmp/out"
run hw show "$DATA/tiny.device" -f csv
check "hw show FILE" grep -q '^mem_bandwidth_gbs,1000,made up for the test suite$' "$tmp/out"
run hw show h300
check "unknown id: exit 1 and close ids" test "$rc" -eq 1 -a ! -s "$tmp/out"
check "unknown id: closest ids named" grep -q "closest: " "$tmp/err"

run hw runtimes -f csv
# hwdb/ holds four runtime profiles: cpp.runtime, eager.runtime, graph.runtime,
# module.runtime; each has one default row, and eager and module add one row per
# host_overhead_us.KIND key (eager: 8 kinds, module: 6 kinds; cpp and graph none).
check "hw runtimes lists eager, graph, cpp, module" \
	test "$(grep -cE '^(eager|graph|cpp|module),.*,default$' "$tmp/out")" -eq 4
check "... per-kind rows: eager 8 (pointwise .. copy), module 6, none for cpp and graph" \
	test "$(grep -cE '^eager,.*,(pointwise|reduction|softmax|layernorm|matmul|conv2d|attention|copy)$' "$tmp/out")" -eq 8 \
	-a "$(grep -cE '^module,.*,(pointwise|softmax|layernorm|matmul|conv2d|copy)$' "$tmp/out")" -eq 6 \
	-a "$(grep -cE '^(cpp|graph),' "$tmp/out")" -eq 2
check "... eager matmul 12.7 us, module matmul 24.1 us (hwdb/*.runtime)" \
	sh -c "grep -q '^eager,12\\.7,.*,matmul\$' '$tmp/out' && grep -q '^module,24\\.1,.*,matmul\$' '$tmp/out'"

# issue 12: the calibrated H200 has the read-only and write-only bandwidths of
# its recording (memory read 2^30 B in 241.0169 us, write in 234.272 us)
run hw show h200-sxm-measured -f csv
check "hw show: mem_read_bandwidth_gbs 4455 (2^30 / 241.0169 us)" \
	grep -q '^mem_read_bandwidth_gbs,4455,"*measured by roofline bench' "$tmp/out"
check "hw show: mem_write_bandwidth_gbs 4583.3 (2^30 / 234.272 us)" \
	grep -q '^mem_write_bandwidth_gbs,4583.3,"*measured by roofline bench' "$tmp/out"
check "... right after mem_bandwidth_gbs and its datasheet figure" \
	sh -c "grep -A1 '^datasheet.mem_bandwidth_gbs,' '$tmp/out' | grep -q '^mem_read_bandwidth_gbs,'"
run hw show h200-sxm-measured
# copy: 2 / (1/4455.0 + 1/4583.3) = 4518.2; add: 3 / (2/4455.0 + 1/4583.3) = 3 / 0.00066712 = 4497.0
check "hw show table: the copy's and the add's bandwidth by mix" \
	grep -q '^  copy (1 read, 1 write) 4518 GB/s, add (2 reads, 1 write) 4497 GB/s$' "$tmp/out"
run hw show h200-sxm -f csv
check "a datasheet entry has neither" test "$(grep -c '^mem_[rw]' "$tmp/out")" -eq 0

# The L40 (issue 22's device walk): its datasheet's dense BF16 tensor rate is
# 181.05 TFLOPS, half the L40S's 362.05 on the same 142 SMs and 864 GB/s. A
# 4096^3 bf16 matmul: 2 x 4096^3 = 137,438,953,472 FLOPs / 181.05e12 =
# 759.12 us of compute, 3 x 4096^2 x 2 B = 100,663,296 B / 864e9 = 116.51 us
# of memory: compute bound, twice the L40S's 379.61 us.
printf 'name,kind,dtype,shape\nmm,matmul,bf16,4096x4096x4096\n' >"$tmp/mm.csv"
run classify --hw nvidia-l40 -f csv "$tmp/mm.csv"
check "l40: the alias resolves; 759.12 us of compute, compute bound" \
	awk -F, 'NR == 2 { exit !($9 > 759.11 && $9 < 759.13 && $10 > 116.50 && $10 < 116.52 && $14 == "compute") }' "$tmp/out"
run classify --hw l40s -f csv "$tmp/mm.csv"
check "l40s: 379.61 us of compute" awk -F, 'NR == 2 { exit !($9 > 379.60 && $9 < 379.62) }' "$tmp/out"
run hw show l40 -f csv
check "l40: bf16 tensor 181.05 dense (datasheet: 362.1 with sparsity)" grep -q '^bf16_tensor_tflops,181.05,"NVIDIA L40 product page' "$tmp/out"
check "l40: every number has a source" awk -F, 'NR > 1 && $2 ~ /^[0-9.]+$/ && $3 == "" { bad = 1 } END { exit bad }' "$tmp/out"

done_testing
