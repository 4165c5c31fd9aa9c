#!/bin/sh
# cli_memfit.sh - the memory a step needs (memfit.c) as classify and model
# report it, worked out by hand from the architecture (docs/oplist-format.md,
# "Memory fit").
. "$top_srcdir/tests/lib.sh"

C70="$EX/llama3-70b.json"
GIB=1073741824

# Llama-3-70B: hidden 8192, 80 layers, 64 query heads and 8 KV heads of 128,
# MLP 28672, vocabulary 128256. Weights per layer: q, k, v 8192 x (8192 + 2
# x 1024), o 8192 x 8192, gate, up, down 3 x 8192 x 28672; the lm_head
# 8192 x 128256 once. Held beside them (the embed row's and the norms'
# params column, docs/oplist-format.md): the token table 128256 x 8192 and
# the norms 80 x 2 x 8192 + 8192, in the activations' dtype (a quantised
# model's embedding and norms stay bf16, as gpt-fast's int4 keeps them):
# 70,553,706,496 parameters, the model card's 70.6B.
layer=$((8192 * (8192 + 2 * 1024) + 8192 * 8192 + 3 * 8192 * 28672))
params=$((80 * layer + 8192 * 128256))
check "70B: 69.5e9 matmul weights" test "$params" -eq 69501714432
held=$((128256 * 8192 + 80 * 2 * 8192 + 8192))
check "70B: 70,553,706,496 parameters in all" test $((params + held)) -eq 70553706496
# K and V per sequence at context 2048, bf16: 2 x 80 x 8 x 2048 x 128 x 2 B
kv_seq=$((2 * 80 * 8 * 2048 * 128 * 2))

run model --hw h100-sxm --context 2048 -f json "$C70"
check "70B bf16 on an H100: runs" test "$rc" -eq 0
check "70B bf16: weight bytes = 2 x every parameter" \
	grep -q "\"memory\":{\"weight_bytes\":$((2 * (params + held))),\"kv_bytes\":$kv_seq," "$tmp/out"
check "70B bf16: does not fit 80 GiB" \
	grep -q "\"device_bytes\":$((80 * GIB)),\"fits\":false}" "$tmp/out"
# the weights, K and V and the lm_head's input and output (1 x (8192 +
# 128256) x 2 B): 141,778,774,528 B = 132.04 GiB
check "hand: 70B bf16 step" \
	test $((2 * (params + held) + kv_seq + (8192 + 128256) * 2)) -eq 141778774528
check "70B bf16: the warning" \
	grep -q "^roofline: warning: the step needs 132.04 GiB, over the device's 80 GiB$" "$tmp/err"

run model --hw h100-sxm --context 2048 "$C70"
check "70B bf16: the table says it does not fit" \
	grep -q "^  of 80 GiB: does not fit$" "$tmp/out"

# int4 weights: half a byte each, 34.75e9 B, the table and norms 2 bytes:
# 36.85e9 B = 34.32 GiB, on an H200's 141 GiB
run model --hw h200 --context 2048 --weight-dtype int4 -f json "$C70"
check "70B int4: weight bytes = params / 2 + 2 x the rest" \
	grep -q "\"weight_bytes\":$((params / 2 + 2 * held))," "$tmp/out"
check "70B int4 on an H200: fits" grep -q "\"device_bytes\":$((141 * GIB)),\"fits\":true}" "$tmp/out"
check "70B int4 on an H200: no warning" test ! -s "$tmp/err"

# group-quantised (gpt-fast's int4 with groupsize 32): one fp16 scale per
# 32 weights along K, 2 / 32 B a weight more: 9 / 16 B each
run model --hw h200 --context 2048 --weight-dtype int4 --weight-group 32 -f json "$C70"
check "70B int4 G=32: weight bytes = 9 / 16 params + 2 x the rest" \
	grep -q "\"weight_bytes\":$((params * 9 / 16 + 2 * held))," "$tmp/out"
run model --weight-dtype int4 --weight-group 32 -f oplist "$C70"
check "70B int4 G=32: the matmul rows carry weight_group 32" \
	grep -q '^down_proj,matmul,bf16,1x8192x28672,,linear,,,int4,32,,80,$' "$tmp/out"
check "70B int4 G=32: the norms do not" grep -q '^attn_norm,layernorm,bf16,1x8192,,,,,,,,80,655360$' "$tmp/out"
expect_error "--weight-group 96 does not divide K 8192" 1 \
	"^roofline: .*llama3-70b.json: --weight-group 96 does not divide the K of the step's qkv_proj \\(matmul 1x10240x8192\\): the groups run along the reduction$" \
	model --weight-group 96 "$C70"
expect_error "--weight-group 0" 2 "^roofline: --weight-group: '0' is not an integer from 1 to" \
	model --weight-group 0 "$C70"

# classify: 8 fp32 weight matrices of 65536 x 65536 (16 GiB each): 128 GiB
# of weights; activations A 1 x 65536 and C 1 x 65536 x 4 B = 524,288 B
printf 'name,kind,dtype,shape,count\nw,matmul,fp32,1x65536x65536,8\n' >"$tmp/big.csv"
run classify --hw h100-sxm -f json "$tmp/big.csv"
check "classify: 128 GiB of weights, does not fit" grep -q \
	"\"memory\":{\"weight_bytes\":$((128 * GIB)),\"kv_bytes\":0,\"activation_bytes\":524288,\"total_bytes\":$((128 * GIB + 524288)),\"device_bytes\":$((80 * GIB)),\"fits\":false}" \
	"$tmp/out"
check "classify: the warning" grep -q "^roofline: warning: the step needs 128.00 GiB, over the device's 80 GiB$" "$tmp/err"
run classify --hw h100-sxm -f csv "$tmp/big.csv"
check "classify csv: unchanged, two lines" test "$(wc -l <"$tmp/out")" -eq 2
check "classify csv: the warning still" grep -q "warning: the step needs" "$tmp/err"

# --max-batch, int4 on an H200 at context 2048: weights W = params / 2 + 2 held B,
# KV per sequence kv_seq; the batch fits while W + b x kv_seq + act <= M, so
# b = floor((M - W - act) / kv_seq). The activations (the largest op's: the
# lm_head's input and output, b x (8192 + 128256) x 2 B = 0.27 MB a
# sequence) are below one sequence's KV (671 MB) up to b = 2459, so they
# lower the answer by at most one: b in [floor((M - W) / kv_seq) - 1, that].
W=$((params / 2 + 2 * held))
M=$((141 * GIB))
b0=$(((M - W) / kv_seq))
check "70B int4: (M - W) / KV per sequence is 170" test "$b0" -eq 170
run model --hw h200 --context 2048 --weight-dtype int4 --max-batch "$C70"
got=$(sed -n 's/^max batch \([0-9]*\): step [0-9.]* us expected, [0-9.]* us roofline; memory [0-9.]* of 141 GiB$/\1/p' "$tmp/out")
check "--max-batch: one line, the batch within one of the KV bound" \
	test -n "$got" -a "$(wc -l <"$tmp/out")" -eq 1 -a "${got:-0}" -le "$b0" -a "${got:-0}" -ge $((b0 - 1))
expect_error "--max-batch: 70B bf16 at batch 1 does not fit an H100" 1 \
	"^roofline: --max-batch: batch 1 needs 132.04 GiB, over the device's 80 GiB$" \
	model --hw h100-sxm --context 2048 --max-batch "$C70"
expect_error "--max-batch with -f oplist: a usage error" 2 "--max-batch" \
	model --max-batch -f oplist "$C70"

# --max-batch with a layout: one GPU of tp 4 holds a quarter of the bf16
# weights, (2 x params + 2 x held) / 4 B, and of the KV heads: 8 / 4 = 2 of
# them, so a sequence at context 4096 takes 80 layers x K and V x 2 x 128 x
# 2 B x 4096 = 335,544,320 B; on an H100 (80 GiB) b = floor((M - W / 4) /
# kv_seq), less at most one for the activations. With --dp 2 each replica
# holds as many: the whole step's batch is twice that.
W4=$(((2 * params + 2 * held) / 4))
M80=$((80 * GIB))
b4=$(((M80 - W4) / 335544320))
run model --hw hgx-h100-8 --tp 4 --context 4096 --max-batch "$C70"
got=$(sed -n 's/^max batch \([0-9]*\): .*/\1/p' "$tmp/out")
check "--max-batch --tp 4: the batch within one of the KV bound ($got of $b4)" \
	test -n "$got" -a "${got:-0}" -le "$b4" -a "${got:-0}" -ge $((b4 - 1))
run model --hw hgx-h100-8 --tp 4 --batch "$got" --context 4096 "$C70"
check "--tp 4 at that batch fits" grep -q ': fits$' "$tmp/out"
run model --hw hgx-h100-8 --tp 4 --batch $((got + 1)) --context 4096 "$C70"
check "--tp 4 at one more does not" grep -q 'does not fit$' "$tmp/out"
run model --hw hgx-h100-8 --tp 4 --dp 2 --context 4096 --max-batch "$C70"
check "--max-batch --tp 4 --dp 2: twice the batch" \
	test "$(sed -n 's/^max batch \([0-9]*\): .*/\1/p' "$tmp/out")" = $((2 * got))
expect_error "--max-batch with stages: a usage error" 2 \
	"--max-batch takes each GPU's whole step: not with --pp, --microbatches or --virtual-stages" \
	model --hw hgx-h100-8 --pp 2 --max-batch "$C70"

done_testing
