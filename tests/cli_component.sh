#!/bin/sh
# cli_component.sh - classify --impl on an op list whose rows name block
# components (column 'component', src/component.c): the rows replaced by the
# implementation's kernels, held against model --impl building the same step
# from config.json (another path to the same kernels), and worked by hand.
. "$top_srcdir/tests/lib.sh"
L="$EX/llama3-8b-components.csv"
M=H=4096,I=14336,NH=32,KVH=8,D=128,V=128256,L=32

# summary FILE: kernels, GPU time, bytes and memory of a json output
summary() {
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["kernels"], s["expected_gpu_us"], s["bytes"], s["memory"]["total_bytes"])' "$1"
}

# the marked-up list of examples/ against model on examples/llama3-8b.json:
# every implementation, a prefill and a decode step
for impl in hf compiled fused; do
	for step in "B=1,S=2048,C=2048:--phase prefill --batch 1 --seq 2048" \
		"B=8,S=1,C=4096:--phase decode --batch 8 --context 4096" \
		"B=64,S=1,C=8192:--phase decode --batch 64 --context 8192"; do
		set=${step%%:*} args=${step#*:}
		run classify "$L" --hw h200 --impl "$impl" --set "$set,$M" -f json
		cp "$tmp/out" "$tmp/c.json"
		# shellcheck disable=SC2086
		run model "$EX/llama3-8b.json" --hw h200 --impl "$impl" $args -f json
		check "$impl, $args: the component rows are model's step (kernels, GPU time, bytes, memory)" \
			test "$(summary "$tmp/c.json")" = "$(summary "$tmp/out")"
	done
done
# with the implementation's runtime: the fresh attention row pays the
# runtime's per-call extras as model's decode step does
cat >"$tmp/extra.runtime" <<'RT'
id = extra
name = hf's fitted profile and a 1.2 ms plan per new SDPA shape
host_overhead_us = 20 ; test
host_extra_us.attention = 1200 ; test: cuDNN's execution plan (docs/calibrate.md)
RT
run classify "$L" --hw h200 --impl hf --runtime "$tmp/extra.runtime" --set "B=8,S=1,C=4096,$M" -f json
c=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["expected_us"])' "$tmp/out")
run model "$EX/llama3-8b.json" --hw h200 --impl hf --runtime "$tmp/extra.runtime" --phase decode --batch 8 --context 4096 -f json
m=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["expected_us"])' "$tmp/out")
check "fresh=1 on the attention row: the step time of model's decode ($c, $m us)" test "$c" = "$m"

# the table's total line: the kernels a step and the implementation, and
# under hf's own runtime the step time model gives
run classify "$L" --hw h200 --impl hf --runtime "$top_srcdir/hwdb/fitted/hf.runtime" \
	--set "B=8,S=1,C=4096,$M"
grep '^total:' "$tmp/out" >"$tmp/c.total"
run model "$EX/llama3-8b.json" --hw h200 --impl hf --phase decode --batch 8 --context 4096
grep '^total:' "$tmp/out" | sed 's/ for [0-9]* ops (/ for N ops (/' >"$tmp/m.total"
check "the total line gives the kernels a step and --impl" \
	grep -q '; 1494 kernels a step, --impl hf)' "$tmp/c.total"
check "and model's step time, kernels, FLOPs and bytes" \
	test "$(sed 's/ for [0-9]* ops (/ for N ops (/' "$tmp/c.total")" = "$(cat "$tmp/m.total")"

# one norm row, worked by hand: transformers' Python RMSNorm is 8 kernels
# (LlamaRMSNorm.forward), each run count times; the widening cast moves
# 2 + 4 bytes an element of T x H = 8 x 4096; the row's 8192 weights are held
# in bf16 with the first kernel of the row's dtype (norm_to_model), not at
# the fp32 of the first kernel: 16384 bytes
cat >"$tmp/norm.csv" <<'CSV'
name,kind,dtype,shape,count,params,component,model_type
attn_norm,layernorm,bf16,B*SxH,2,8192,norm,llama
CSV
run classify "$tmp/norm.csv" --hw h200 --impl hf --set B=8,S=1,C=4096,H=4096 -f csv
check "a norm row: 8 kernels in its place" test "$(($(wc -l <"$tmp/out") - 1))" -eq 8
check "the sizes only the kernels read draw no unused-name warning" test ! -s "$tmp/err"
check "named ROW.KERNEL, in LlamaRMSNorm's order" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = \
	"name attn_norm.norm_to_fp32 attn_norm.norm_pow attn_norm.norm_mean attn_norm.norm_eps attn_norm.norm_rsqrt attn_norm.norm_mul attn_norm.norm_to_model attn_norm.norm_weight "
check "each run the row's count" test "$(cut -d, -f4 "$tmp/out" | sort -u | tr '\n' ' ')" = "2 count "
check "the cast to fp32 moves 6 x 8 x 4096 bytes" test "$(csv_field "$tmp/out" attn_norm.norm_to_fp32 bytes)" = 196608
run classify "$tmp/norm.csv" --hw h200 --impl hf --set B=8,S=1,C=4096,H=4096 -f json
check "the row's weights held once, in bf16: 16384 bytes" test \
	"$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["memory"]["weight_bytes"])' "$tmp/out")" = 16384
run classify "$tmp/norm.csv" --hw h200 --set B=8,S=1,C=4096,H=4096 -f csv
check "without --impl the row is its own op" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = "name attn_norm "
run classify "$tmp/norm.csv" --hw h200 --impl fused --set B=8,S=1,C=4096,H=4096 -f csv
check "under fused (no kernels) too" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = "name attn_norm "
check "where no kernel reads it, an unused --set name is warned about" \
	grep -q "warning: --set C=4096: no shape or count of the list uses the name 'C'" "$tmp/err"

# consecutive rows naming the same component are one occurrence: a fused
# MLP's four rows become hf's five kernels once (gate, act, up, mul, down)
cat >"$tmp/mlp.csv" <<'CSV'
name,kind,dtype,shape,inputs,weight_dtype,count,component,model_type
gate_up,matmul,bf16,B*Sx2*IxH,,bf16,2,mlp,llama
silu,pointwise,bf16,B*SxI,1,,2,mlp,llama
mul,pointwise,bf16,B*SxI,2,,2,mlp,llama
down_proj,matmul,bf16,B*SxHxI,,bf16,2,mlp,llama
CSV
run classify "$tmp/mlp.csv" --hw h200 --impl hf --set B=8,S=1,C=4096,H=4096,I=14336 -f csv
check "a fused MLP's rows: one MLP of five kernels" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = \
	"name gate_up.gate_proj gate_up.act gate_up.up_proj gate_up.mul gate_up.down_proj "

# a fact the sizes cannot give comes after ':': qwen2_moe's router (its
# config's norm_topk_prob false: softmax, top-k, the weights' cast) gains
# the renormalisation's sum and division under router:norm_topk
cat >"$tmp/router.csv" <<'CSV'
name,kind,dtype,shape,count,component,model_type
router,matmul,bf16,B*SxExH,2,router,qwen2_moe
CSV
run classify "$tmp/router.csv" --hw h200 --impl hf --set B=8,S=1,C=4096,H=2048,E=60,K=4 -f csv
check "a router row: qwen2_moe's kernels, no renormalisation" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = \
	"name router.router router.router_fp32 router.router_softmax router.topk router.topk_cast "
sed 's/,router,qwen2_moe/,router:norm_topk,qwen2_moe/' "$tmp/router.csv" >"$tmp/router2.csv"
run classify "$tmp/router2.csv" --hw h200 --impl hf --set B=8,S=1,C=4096,H=2048,E=60,K=4 -f csv
check "router:norm_topk: the sum and the division over the 8 x 4 weights" test "$(cut -d, -f1,5 "$tmp/out" | tr '\n' ' ')" = \
	"name,flops router.router,1966080 router.router_fp32,0 router.router_softmax,2400 router.topk,480 router.topk_sum,32 router.topk_div,32 router.topk_cast,0 "

# bad rows: one message each, at the row
printf 'name,kind,shape,component,model_type\nx,pointwise,8,nrom,llama\n' >"$tmp/bad.csv"
expect_error "an unknown component names the known ones" 1 \
	"bad.csv:2: column 'component': unknown component 'nrom' \(expected embed, rope, .* or sample\)" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,component\nx,pointwise,8,norm\n' >"$tmp/bad.csv"
expect_error "a component needs a model_type" 1 "bad.csv:2: column 'component': needs a 'model_type'" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,model_type\nx,pointwise,8,llama\n' >"$tmp/bad.csv"
expect_error "a model_type needs a component" 1 "bad.csv:2: column 'model_type': .* needs a 'component'" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,component,model_type\nx,pointwise,8,norm,lama\n' >"$tmp/bad.csv"
expect_error "an unknown model_type lists the known ones" 1 \
	"bad.csv:2: column 'model_type': unknown model_type 'lama' \(expected .*llama" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,component,model_type\nx,pointwise,8,norm:slidng,llama\n' >"$tmp/bad.csv"
expect_error "an unknown fact lists the conditions" 1 \
	"bad.csv:2: column 'component': unknown fact 'slidng' \(expected prefill, .* or norm_topk\)" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,component,model_type\nx,pointwise,8,norm++mlp,llama\n' >"$tmp/bad.csv"
expect_error "an empty component between '+'" 1 "column 'component': 'norm\+\+mlp' is not a list" \
	classify "$tmp/bad.csv"
printf 'name,kind,shape,component,model_type\nx,pointwise,8,norm+mlp+qkv+rotary+cache,llama\n' >"$tmp/bad.csv"
expect_error "at most four components a row" 1 "column 'component': more than 4 components" \
	classify "$tmp/bad.csv"
printf 'name,kind,dtype,shape,weight_dtype,component,model_type\nq,matmul,bf16,8x4096x4096,bf16,qkv,llama\n' >"$tmp/bad.csv"
expect_error "a size the kernels need and --set lacks is named" 1 \
	"bad.csv:2: column 'component': hf's qkv kernel q_proj \(.*hf-transformers.impl:[0-9]+\): .*'T'.*not bound" \
	classify "$tmp/bad.csv" --impl hf
printf 'name,kind,dtype,shape,measured_us,component,model_type\nn,layernorm,bf16,8x4096,5,norm,llama\n' >"$tmp/bad.csv"
expect_error "a row replaced by kernels cannot keep its measured time" 1 \
	"bad.csv:2: column 'component': --impl hf puts its kernels in place of the row, which cannot then carry its own measured_us" \
	classify "$tmp/bad.csv" --impl hf --set B=8,S=1,H=4096
expect_error "--sweep with an implementation of kernels is a usage error" 2 \
	"--sweep reads the list as it is: not with --impl hf" \
	classify "$L" --impl hf --sweep B=1,2 --set S=1,C=4096,$M
printf 'name,kind,dtype,shape,params,component,model_type\ne,copy,bf16,8x768,1000,embed,gpt2\n' >"$tmp/bad.csv"
expect_error "weights left with no kernel after them" 1 \
	"column 'params': 1000 weights of the last component rows have no kernel after them under --impl compiled" \
	classify "$tmp/bad.csv" --impl compiled --set B=8,S=1,C=64,H=768

done_testing
