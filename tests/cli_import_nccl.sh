#!/bin/sh
# cli_import_nccl.sh - NCCL kernels in a trace become collective rows (issue
# 15, item 5): "roofline import" and "roofline report --hw SYSTEM" on a real
# 2-rank DDP trace (tests/data/trace_ddp_a100_2ranks_hta.json.gz, one step of
# ResNet-50 from HTA's tests, docs/trace-import.md) and on the hand-made
# tests/data/trace-nccl.json. Every figure is worked out by hand from the
# records' fields and the system file's bandwidth and latency.
. "$top_srcdir/tests/lib.sh"

# col FILE NAME: the column number of NAME in the header of an op list
col() {
	grep -v '^#' "$1" | head -n 1 | tr , '\n' | grep -nx "$2" | cut -d: -f1
}
# rows FILE: the op list's rows, without comments and header
rows() { grep -v '^#' "$1" | tail -n +2; }
# near A B: |A - B| <= 0.01
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'; }

DDP="$DATA/trace_ddp_a100_2ranks_hta.json.gz"
f="$tmp/ddp.csv"
run import -o "$f" "$DDP"
check "ddp: imported" test "$rc" -eq 0
k=$(col "$f" kind) s=$(col "$f" shape) r=$(col "$f" ranks) nd=$(col "$f" nodes) p=$(col "$f" phase)
check "ddp: ranks and nodes columns" test -n "$r" -a -n "$nd"
# the record_param_comms fields: 5 allreduces of fp32 gradient buckets, in
# the backward pass, 2 broadcasts of the batch norms' buffers, forward
check "ddp: 5 allreduce rows, fp32, 2 ranks, 1 node, backward" test "$(rows "$f" |
	awk -F, -v k="$k" -v r="$r" -v n="$nd" -v p="$p" \
		'$k == "allreduce" && $3 == "fp32" && $r == 2 && $n == 1 && $p == "backward"' | wc -l)" -eq 5
check "ddp: 2 broadcast rows, forward" test "$(rows "$f" |
	awk -F, -v k="$k" -v p="$p" '$k == "broadcast" && $p == "forward"' | wc -l)" -eq 2
# the buckets hold every gradient once: ResNet-50's 25,557,032 parameters
check "ddp: the allreduced elements are ResNet-50's 25,557,032 parameters" test "$(rows "$f" |
	awk -F, -v k="$k" -v s="$s" '$k == "allreduce" { n += $s } END { print n }')" = 25557032
# 2 x 26,560 batch-norm channels (running mean and variance), and the 53
# layers' num_batches_tracked (int64)
check "ddp: broadcasts 53120 fp32 and 53 int64" test "$(rows "$f" |
	awk -F, -v k="$k" -v s="$s" '$k == "broadcast" { printf "%s %s;", $s, $3 }')" = "53120 fp32;53 int64;"
check "ddp: the kernels' algorithm and protocol noted" grep -q '^# RING_LL (7 rows)$' "$f"
run classify --hw hgx-h100-8 -f csv "$f"
check "ddp: the imported list classifies, without warnings" test "$rc" -eq 0 -a ! -s "$tmp/err"

# report on the 8-GPU H100 system: 450 GB/s per GPU and direction, 15 us
run report --hw hgx-h100-8 -f csv "$DDP"
check "ddp report --hw SYSTEM -f csv: exit 0" test "$rc" -eq 0
cp "$tmp/out" "$tmp/rep.csv"
K=$(col "$tmp/rep.csv" kind) B=$(col "$tmp/rep.csv" bound) T=$(col "$tmp/rep.csv" t_gpu_us)
M=$(col "$tmp/rep.csv" measured_us)
first=$(awk -F, -v k="$K" -v b="$B" -v t="$T" -v m="$M" \
	'$k == "allreduce" { print $b, $t, $m; exit }' "$tmp/rep.csv")
# 2049000 fp32 on 2 ranks: bus factor 2 x 1/2 = 1, 8,196,000 B / 450e9 s
# = 18.213 us, + 7.8 us (NCCL's ring latency on 2 GPUs, collective.c: 6.6 us
# + 2 steps x 0.6 us)
set -- ${first:-none 0 0}
check "ddp: the first allreduce is network-bound" test "$1" = network
check "ddp: ... predicted 26.01 us" near "$2" 26.0133
check "ddp: ... measured 3306.96 us (its kernel)" near "$3" 3306.963
run report --hw hgx-h100-8 "$DDP"
check "ddp report: names the system's interconnect" \
	grep -q '^collectives: system hgx-h100-8, 8 GPUs per node on nvswitch at 450 GB/s' "$tmp/out"
# measured: the five kernels, 3306.963 + 2424.415 + 2368.513 + 2160.803 +
# 1689.577 = 11950.271; predicted: 5 x 7.8 + 25,557,032 x 4 B / 450e9 s =
# 39 + 227.17 = 266.17
check "ddp report: allreduce measured 11950.27 us against 266.17 predicted" \
	grep -Eq '^  allreduce +5 +5 +11950\.27 +266\.17 +266\.17 ' "$tmp/out"
check "ddp report: the top row's advice is the interconnect's" \
	grep -q "below the interconnect's bandwidth" "$tmp/out"

# the hand-made trace: new and old kernel names, a group of 4 and of 8, an
# all_to_all run as SendRecv, collectives without a size
H="$DATA/trace-nccl.json"
run import "$H"
check "trace-nccl: imported" test "$rc" -eq 0
cp "$tmp/out" "$tmp/h.csv"
check "trace-nccl: the allgather row" \
	grep -q '^c10d::allgather_#1,allgather,bf16,1048576,.*,1,40.500,50.000,,4,1,forward$' "$tmp/h.csv"
check "trace-nccl: the backward allreduce" \
	grep -q '^c10d::allreduce_#3,allreduce,fp32,25000000,.*,8,1,backward$' "$tmp/h.csv"
check "trace-nccl: all_to_all on SendRecv kernels" \
	grep -q '^c10d::alltoall_base_#4,alltoall,fp16,65536,' "$tmp/h.csv"
check "trace-nccl: no size recorded: custom, no work, its time" \
	grep -q '^ncclKernel_ReduceScatter_RING_SIMPLE_Sum_bf16#5,custom,fp32,,,,,,,,,0,0,1,20.000,' "$tmp/h.csv"
check "trace-nccl: a launch outside any op, its record on the kernel" \
	grep -q '^ncclDevKernel_Broadcast_RING_LL#6,broadcast,bf16,4096,.*,8,1,forward$' "$tmp/h.csv"
check "trace-nccl: the warning gives the reasons" \
	grep -q 'ncclDevKernel_AllReduce_Sum_f32_TREE_LL128 (a group of one rank) (1)' "$tmp/err"
# 16 ranks on 8-GPU nodes: 2 nodes. 1e8 B: in the node 2 x 7/8 x 1e8 B /
# 450e9 = 388.89 us, between nodes 2 x 1/2 x 1e8 / 8 B / 50e9 = 250 us, at
# once; + 15 + 5.4 us = 409.29
sed 's/"Group size": 8/"Group size": 16/' "$H" >"$tmp/n16.json"
run report --hw hgx-h100-8 -f json "$tmp/n16.json"
check "16 ranks: report exit 0" test "$rc" -eq 0
check "16 ranks on hgx-h100-8: 2 nodes, 409.29 us" grep -Eq \
	'"name":"c10d::allreduce_#3",.*"ranks":16,"nodes":2,"t_network_us":409\.28' "$tmp/out"
run import "$tmp/n16.json"
check "16 ranks: the op list says 1 node (the trace does not say)" \
	grep -q '^c10d::allreduce_#3,.*,16,1,backward$' "$tmp/out"

# 12 ranks: not a whole number of hgx-h100-8's 8-GPU nodes: one error naming
# the op (a trace's op has no line), nothing on stdout
sed 's/"Group size": 8/"Group size": 12/' "$H" >"$tmp/n12.json"
expect_error "12 ranks on 8-GPU nodes" 1 \
	"^roofline: $tmp/n12.json: c10d::allreduce_#3: 12 ranks on 1 node is 12 GPUs per node, but hgx-h100-8 has 8" \
	report --hw hgx-h100-8 "$tmp/n12.json"

done_testing
