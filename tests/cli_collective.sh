#!/bin/sh
# cli_collective.sh - systems in the database and collectives in op lists
# (issue 15): hw list / show / systems, --hw SYSTEM, the network bound in
# every format, and the errors.
. "$top_srcdir/tests/lib.sh"

# w NAME TEXT: writes TEXT (printf escapes) to $tmp/NAME
w() { printf "$2" >"$tmp/$1"; }
# near A B: |A - B| <= 0.01 (times printed with two decimals)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'; }

# --- the database -----------------------------------------------------------
run hw list
check "hw list: exit 0" test "$rc" -eq 0
check "hw list has a systems section" grep -q '^systems (--hw takes their ids' "$tmp/out"
for id in hgx-h100-8 hgx-h200-8 dgx-a100-8 l40s-pcie-8; do
	check "hw list shows $id" grep -q "^$id " "$tmp/out"
done
# the H100 product page: NVLink 900 GB/s both ways = 450 per direction;
# 400 Gb/s per GPU = 50 GB/s
check "hw list: hgx-h100-8 is 8 h100-sxm on nvswitch, 450 GB/s, 50 between nodes" \
	grep -Eq '^hgx-h100-8 +.* h100-sxm +8 nvswitch +450 +15.0 +50 +5.4$' "$tmp/out"
check "hw list: the L40S box is PCIe Gen4, 32 GB/s, no network" \
	grep -Eq '^l40s-pcie-8 +.* l40s +8 pcie +32 +20.6 +- +-$' "$tmp/out"
run hw list -f csv
check "hw list csv stays the devices' table" test "$(grep -c hgx-h100-8 "$tmp/out")" -eq 0
run hw systems -f csv
check "hw systems csv header" test "$(head -n 1 "$tmp/out")" = \
	"id,name,gpu,gpus_per_node,fabric,intra_bandwidth_gbs,intra_latency_us,network_bandwidth_gbs,inter_latency_us,nodes"
check "hw systems csv: the A100 box, 300 GB/s NVLink 3, 25 GB/s HDR per GPU" \
	grep -q '^dgx-a100-8,.*,a100-sxm4-80gb,8,nvswitch,300,15.0,25,5.4,$' "$tmp/out"

run hw show hgx-h200-8 -f csv
check "hw show SYSTEM: exit 0" test "$rc" -eq 0
check "hw show SYSTEM csv: the GPU" grep -q '^gpu,h200-sxm,$' "$tmp/out"
check "hw show SYSTEM csv: NVLink with its source" \
	grep -q '^intra_bandwidth_gbs,450,"NVIDIA H200 product page.*NVLink 900GB/s' "$tmp/out"
check "hw show SYSTEM csv: the published nccl-tests figure with its source" \
	grep -q '^nccl.allreduce_busbw_gbs,467.58,"Azure AI-benchmarking-guide.*ND_H200_v5_results.md' "$tmp/out"
run hw show hgx-h100-8
# 1 GiB on 8: 2 x 7/8 x 2^30 B / (15 us + 2 x 7/8 x 2^30 / 450e9 s) = 448.4 GB/s
check "hw show SYSTEM: the model's busbw beside the published one" \
	grep -q '^allreduce of 1073741824 bytes on 8 GPUs: model busbw 448.4 GB/s (4190.7 us), nccl-tests 466.35 GB/s$' "$tmp/out"
run hw show hgx-h100-8 -f json
check "hw show SYSTEM json" grep -q '"fabric":{"value":"nvswitch"}' "$tmp/out"
run hw show h100-sxm -f csv
check "h100-sxm: nvlink_bandwidth_gbs 450 (900 GB/s both ways)" grep -q '^nvlink_bandwidth_gbs,450,' "$tmp/out"
check "h100-sxm: pcie_bandwidth_gbs 64 (Gen5 x16, 128 GB/s both ways)" grep -q '^pcie_bandwidth_gbs,64,' "$tmp/out"

# --- collectives ------------------------------------------------------------
C="$EX/collectives.csv"
run classify --hw hgx-h100-8 -f csv "$C"
check "classify --hw SYSTEM: exit 0" test "$rc" -eq 0
# 15 us + 2 x 7/8 x 2^30 B / 450 GB/s = 4190.66 us
check "allreduce 1 GiB on 8 H100: 4190.66 us" near "$(csv_field "$tmp/out" allreduce_1gib t_gpu_us)" 4190.66
check "... network-bound" test "$(csv_field "$tmp/out" allreduce_1gib bound)" = network
check "... no FLOPs" test "$(csv_field "$tmp/out" allreduce_1gib flops)" = 0
# 2^30 bf16 elements (2^31 B) reduce-scattered over 16 GPUs on 2 nodes: in
# the node 7/8 x 2^31 / 450e9 s = 4175.66 us, between nodes 1/2 x 2^31 / 8 /
# 50e9 s = 2684.35 us, at the same time; NCCL's ring latency in the node
# (collective.c), 6.6 us + 7 steps x 0.6 us (the hop the node's 15 us for
# an all-reduce's 2 x 7 steps leaves over the base), + 5.4 us across:
# 10.8 + 5.4 + 4175.66 = 4191.86
run classify --hw hgx-h100-8 -f csv "$DATA/collectives-nodes.csv"
check "reducescatter on 2 nodes: 4191.86 us" \
	near "$(csv_field "$tmp/out" grad_reducescatter t_gpu_us)" 4191.86
# alltoall of 4096 x 8192 bf16 (2^26 B), 16 on 2 nodes: 7/16 of it in the
# node, 2^26 x 7/16 / 450e9 s = 65.24 us, half between nodes, 2^25 / 50e9 s =
# 671.09 us; 10.8 + 5.4 + 671.09 = 687.29
check "alltoall on 2 nodes: 687.29 us" near "$(csv_field "$tmp/out" moe_alltoall t_gpu_us)" 687.29
run classify --hw hgx-h100-8 -f csv "$C"
# sendrecv of 4096 x 8192 bf16 = 2^26 B, one step: 6.6 + 0.6 + 2^26 / 450e9
# s = 156.33 us
check "sendrecv: 156.33 us" near "$(csv_field "$tmp/out" pp_sendrecv t_gpu_us)" 156.33
check "the matmul stays compute-bound" test "$(csv_field "$tmp/out" mlp_up bound)" = compute

run classify --hw hgx-h100-8 "$C"
check "table: the system's line" grep -q '^collectives: system hgx-h100-8, 8 GPUs per node on nvswitch' "$tmp/out"
check "table: network in the rows" grep -Eq '^allreduce_1gib +allreduce +bf16 .* network ' "$tmp/out"
check "table: reducescatter cut to the kind column" grep -Eq '^grad_reducescatter reducesc~ bf16 ' "$tmp/out"
check "table: network in the shares" grep -Eq '^  network +[0-9.]+ %  \(7 ops\)$' "$tmp/out"
check "table: fits 80 columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out"
check "table: network advice" grep -q '^  network-bound: ' "$tmp/out"
run classify --hw hgx-h100-8 -f md "$C"
check "md: network in the rows" grep -q '^| allreduce_1gib | allreduce | bf16 | 1 | .* | network |' "$tmp/out"
check "md: network in the shares" grep -q 'network' "$tmp/out"
run classify --hw hgx-h100-8 -f json "$C"
check "json: bound network" grep -q '"bound":"network"' "$tmp/out"
check "json: network share" grep -q '"share":{"compute":[0-9.e-]*,"memory":0,"overhead":0,"network":' "$tmp/out"
run classify --hw hgx-h100-8 -f json "$DATA/collectives-nodes.csv"
check "json: the parts of a collective" \
	grep -q '"ranks":16,"nodes":2,"t_network_us":4196.06,"t_net_intra_us":4175.66,"t_net_inter_us":2684.35,"t_net_latency_us":20.4' "$tmp/out"
run plot --hw hgx-h100-8 -o "$tmp/c.svg" "$C"
check "plot: the legend names the network bound" grep -q '>network</text>' "$tmp/c.svg"
run plot --hw h100-sxm -o "$tmp/b.svg" "$EX/bert-base.csv"
check "plot: no network entry without collectives" test "$(grep -c '>network<' "$tmp/b.svg")" -eq 0

# the same on the H200 box, and the A100 box: 15 + 2 x 7/8 x 2^30 / 300e9 s
run classify --hw hgx-h200-8 -f csv "$C"
check "allreduce 1 GiB on 8 H200: 4190.66 us" near "$(csv_field "$tmp/out" allreduce_1gib t_gpu_us)" 4190.66
run classify --hw dgx-a100-8 -f csv "$C"
check "allreduce 1 GiB on 8 A100: 6278.49 us" near "$(csv_field "$tmp/out" allreduce_1gib t_gpu_us)" 6278.49
# a plain device: its NVLink, one node, no latency: 2 x 7/8 x 2^30 / 450e9 s
w one.csv 'name,kind,dtype,shape,ranks\nar,allreduce,bf16,536870912,8\n'
run classify --hw h100-sxm -f csv "$tmp/one.csv"
check "a plain device: its NVLink, no latency: 4175.66 us" near "$(csv_field "$tmp/out" ar t_gpu_us)" 4175.66
# ROOFLINE_HW takes a system too
ROOFLINE_HW=hgx-h100-8 "$ROOFLINE" classify -f csv "$tmp/one.csv" >"$tmp/env.csv" 2>&1
check "ROOFLINE_HW=SYSTEM" near "$(csv_field "$tmp/env.csv" ar t_gpu_us)" 4190.66

# the README's example is this output
awk '$0 == "$ roofline classify --hw hgx-h100-8 examples/collectives.csv" { on = 1; next }
	on && /^```/ { exit } on { print }' "$top_srcdir/README.md" >"$tmp/want"
(cd "$top_srcdir" && "$ROOFLINE" classify --hw hgx-h100-8 examples/collectives.csv) >"$tmp/got"
check "README: the collectives example is there" test -s "$tmp/want" -a -s "$tmp/got"
check "README: the collectives example is the program's output" cmp -s "$tmp/want" "$tmp/got"

# a system file of one's own: --hw FILE.system, hw show FILE.system
S2="$DATA/two-h100-nodes.system"
run hw show "$S2"
check "hw show FILE.system" grep -q '^network_bandwidth_gbs 25 ' "$tmp/out"
run classify --hw "$S2" -f csv "$DATA/collectives-nodes.csv"
# the network now binds: 1/2 x 2^31 / 8 / 25e9 s = 5368.71 us between nodes,
# against 4175.66 in the node; the node's 10 us all-reduce leaves a hop of
# (10 - 6.6) / 14 us, so 6.6 + 7 x 0.2429 = 8.3 us, + 5 + 5368.71
check "--hw FILE.system: the slower network binds the reducescatter: 5382.01 us" \
	near "$(csv_field "$tmp/out" grad_reducescatter t_gpu_us)" 5382.01
w n4.csv 'name,kind,dtype,shape,ranks,nodes\nar,allreduce,bf16,1024,32,4\n'
expect_error "more nodes than the system has" 1 "n4.csv:2: 4 nodes, but two-h100-nodes has 2" \
	classify --hw "$S2" "$tmp/n4.csv"

# --- errors -----------------------------------------------------------------
w noranks.csv 'name,kind,dtype,shape\nar,allreduce,bf16,1024\n'
expect_error "a collective without ranks" 1 "noranks.csv:2: column 'ranks': allreduce needs the number of GPUs" \
	classify --hw hgx-h100-8 "$tmp/noranks.csv"
w rank1.csv 'name,kind,dtype,shape,ranks\nar,allreduce,bf16,1024,1\n'
expect_error "ranks 1" 1 "rank1.csv:2: column 'ranks': 1 is below the minimum 2" \
	classify --hw hgx-h100-8 "$tmp/rank1.csv"
w rank0.csv 'name,kind,dtype,shape,ranks\nar,allgather,bf16,1024,0\n'
expect_error "ranks 0" 1 "rank0.csv:2: column 'ranks': 0 is below the minimum 2" \
	classify --hw hgx-h100-8 "$tmp/rank0.csv"
w nodes.csv 'name,kind,dtype,shape,ranks,nodes\nar,allreduce,bf16,1024,8,3\n'
expect_error "nodes not dividing ranks" 1 "nodes.csv:2: column 'nodes': 3 does not divide ranks 8" \
	classify --hw hgx-h100-8 "$tmp/nodes.csv"
w mm.csv 'name,kind,dtype,shape,ranks\nmm,matmul,bf16,8x8x8,8\n'
expect_error "ranks on a matmul" 1 "mm.csv:2: column 'ranks': only collective ops take it, not matmul" \
	classify --hw hgx-h100-8 "$tmp/mm.csv"
w big.csv 'name,kind,dtype,shape,ranks\nar,allreduce,bf16,1024,16\n'
expect_error "16 GPUs in one node of 8" 1 "big.csv:2: 16 ranks on 1 node is 16 GPUs per node, but hgx-h100-8 has 8" \
	classify --hw hgx-h100-8 "$tmp/big.csv"
w two.csv 'name,kind,dtype,shape,ranks,nodes\nar,allreduce,bf16,1024,16,2\n'
expect_error "2 nodes of a box without network" 1 "two.csv:2: 2 nodes, but l40s-pcie-8 has no network between nodes" \
	classify --hw l40s-pcie-8 "$tmp/two.csv"
expect_error "2 nodes on a plain device" 1 "two.csv:2: 2 nodes, but h100-sxm has no network between nodes" \
	classify --hw h100-sxm "$tmp/two.csv"
expect_error "a plain device without NVLink" 1 "one.csv:2: allreduce is a collective, and device l40s has no interconnect: give a system with --hw" \
	classify --hw l40s "$tmp/one.csv"
expect_error "plot: the same" 1 "one.csv:2: allreduce is a collective, and device l40s has no interconnect" \
	plot --hw l40s -o "$tmp/x.svg" "$tmp/one.csv"
expect_error "unknown system or device" 1 "unknown device 'hgx-h300-8'.*nor a system: unknown system 'hgx-h300-8' \(known: dgx-a100-8, hgx-h100-8, hgx-h200-8, l40s-pcie-8\)" \
	classify --hw hgx-h300-8 "$tmp/one.csv"
expect_error "hw show: unknown system or device" 1 "unknown device 'hgx-h300-8'" hw show hgx-h300-8

# a bad system file fails the whole database, naming file, line and key
mkdir "$tmp/db" && cp "$top_srcdir/hwdb/eager.runtime" "$top_srcdir/hwdb/h100-sxm.device" \
	"$DATA/bad-hwdb/no-latency.system" "$tmp/db/"
expect_error "a system without its latency" 1 "no-latency.system: missing key 'intra_latency_us'" \
	classify --hwdb "$tmp/db" "$EX/bert-base.csv"
mkdir "$tmp/db2" && cp "$top_srcdir/hwdb/eager.runtime" "$top_srcdir/hwdb/hgx-h100-8.system" "$tmp/db2/"
expect_error "a system whose GPU is not in the database" 1 "hgx-h100-8.system: key 'gpu': 'h100-sxm' is not a device of" \
	hw list --hwdb "$tmp/db2"

done_testing
