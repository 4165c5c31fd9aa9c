#!/bin/sh
# cli_train.sh - classify --train and model --train (train.c, issue 14):
# backward FLOPs, optimizer bytes and training memory worked out by hand
# (docs/oplist-format.md, "Training steps").
. "$top_srcdir/tests/lib.sh"

# Two fp32 matmuls 512 x 1024 x 1024, count 4 and 2: forward 6 x 2 x 512 x
# 1024 x 1024 = 6,442,450,944 FLOPs; P = 6 x 1024 x 1024 = 6,291,456
# parameters.
cat >"$tmp/mm.csv" <<'CSV'
name,kind,dtype,shape,count
fc1,matmul,fp32,512x1024x1024,4
fc2,matmul,fp32,512x1024x1024,2
CSV
fwd=$((6 * 2 * 512 * 1024 * 1024))
P=$((6 * 1024 * 1024))
check "hand: forward FLOPs" test "$fwd" -eq 6442450944

run classify --train --fused-optimizer -f json "$tmp/mm.csv"
check "train: exit 0" test "$rc" -eq 0
check "train: forward FLOPs" grep -q "\"forward\":{\"ops\":2,[^}]*\"flops\":$fwd," "$tmp/out"
check "train: backward FLOPs exactly 2x forward" \
	grep -q "\"backward\":{\"ops\":4,[^}]*\"flops\":$((2 * fwd))," "$tmp/out"
# fused AdamW, fp32: weight, gradient, m and v read, weight, m and v written
check "train: fused AdamW moves 28 B per parameter" \
	grep -q "\"optimizer\":{\"ops\":1,[^}]*\"bytes\":$((28 * P))}" "$tmp/out"
# memory: fp32 gradients 4 P, AdamW's m and v 8 P, each matmul's A saved
# (512 x 1024 x 4 B, 6 occurrences)
check "train: gradients 4 B per parameter" grep -q "\"gradient_bytes\":$((4 * P))," "$tmp/out"
check "train: AdamW state 8 B per parameter" grep -q "\"optimizer_bytes\":$((8 * P))," "$tmp/out"
check "train: saved activations" \
	grep -q "\"saved_activation_bytes\":$((6 * 512 * 1024 * 4))," "$tmp/out"
check "train: no KV cache" grep -q '"kv_bytes":0,' "$tmp/out"

# PyTorch's default foreach AdamW: 4 w + 2 g + 14 s = 80 B per parameter in
# eight passes; SGD with momentum, foreach: 2 w + g + 5 s = 32 B
run classify --train -f json "$tmp/mm.csv"
check "train: foreach AdamW moves 80 B per parameter" \
	grep -q "\"optimizer\":{\"ops\":8,[^}]*\"bytes\":$((80 * P))}" "$tmp/out"
run classify --train --optimizer sgd -f json "$tmp/mm.csv"
check "train: foreach SGD moves 32 B per parameter" \
	grep -q "\"optimizer\":{\"ops\":3,[^}]*\"bytes\":$((32 * P))}" "$tmp/out"
check "train: SGD state 4 B per parameter" grep -q "\"optimizer_bytes\":$((4 * P))," "$tmp/out"
run classify --train --optimizer none -f json "$tmp/mm.csv"
check "train: no optimizer, no optimizer phase ops" \
	grep -q '"optimizer":{"ops":0,' "$tmp/out"

# csv: the phase column, the backward ops in reverse order after the
# forward ones, the optimizer last
run classify --train --fused-optimizer -f csv "$tmp/mm.csv"
check "csv: phase column" sh -c "head -n 1 '$tmp/out' | grep -q ',expected_bound,phase$'"
check "csv: row order" test "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = \
	"name fc1 fc2 fc2.dgrad fc2.wgrad fc1.dgrad fc1.wgrad adamw.fused_adam "
check "csv: phases" test "$(awk -F, 'NR > 1 { printf "%s ", $NF }' "$tmp/out")" = \
	"forward forward backward backward backward backward optimizer "
run classify --fused-optimizer --train --grad-accum 4 -f csv "$tmp/mm.csv"
# micro-batches 2 to 4 add their weight gradients into .grad (AccumulateGrad)
check "grad-accum 4: forward and backward 4 times, 3 accumulations, the optimizer once" \
	test "$(cut -d, -f4 "$tmp/out" | tr '\n' ' ')" = "count 16 8 8 8 16 16 3 1 "

# a frozen row (trainable=0): no weight gradient, no parameters; int4
# weights train frozen only
cat >"$tmp/frozen.csv" <<'CSV'
name,kind,dtype,shape,weight_dtype,trainable
base,matmul,bf16,512x1024x1024,int4,0
lora_a,matmul,bf16,512x16x1024,,
CSV
run classify --train -f csv "$tmp/frozen.csv"
check "frozen: exit 0" test "$rc" -eq 0
# base: frozen (no weight gradient) and the list's first op (it reads the
# model's input: no input gradient); lora_a: both
check "frozen: no backward for base, both for lora_a" \
	test "$(cut -d, -f1 "$tmp/out" | grep -v '^adamw' | tr '\n' ' ')" = \
	"name base lora_a lora_a.dgrad lora_a.wgrad "
sed 's/int4,0$/int4,1/' "$tmp/frozen.csv" >"$tmp/int4.csv"
expect_error "trainable int4 weights" 1 \
	"^roofline: $tmp/int4.csv:2: int4 weights train frozen only \\(trainable=0\\)" \
	classify --train "$tmp/int4.csv"
printf 'name,kind,shape,phase\na,matmul,8x8x8,backward\n' >"$tmp/bwd.csv"
expect_error "--train on a list with backward rows" 1 \
	"^roofline: $tmp/bwd.csv:2: column 'phase': backward: --train expands a forward op list" \
	classify --train "$tmp/bwd.csv"
printf 'name,kind,shape,phase\na,matmul,8x8x8,sideways\n' >"$tmp/bad.csv"
expect_error "unknown phase" 1 \
	"column 'phase': unknown phase 'sideways' \\(expected forward, backward or optimizer\\)" \
	classify "$tmp/bad.csv"
expect_error "--optimizer without --train" 2 "--optimizer describes a training step: give --train too" \
	classify --optimizer sgd "$tmp/mm.csv"
expect_error "unknown optimizer" 2 "--optimizer: unknown optimizer 'lion'" \
	classify --train --optimizer lion "$tmp/mm.csv"
expect_error "--grad-accum 0" 2 "--grad-accum: '0' is not an integer from 1 to 65536" \
	classify --train --grad-accum 0 "$tmp/mm.csv"
expect_error "--state-dtype int4" 2 "--state-dtype: 'int4' is not a dtype" \
	classify --train --state-dtype int4 "$tmp/mm.csv"
expect_error "--train --scale" 2 "--train and --scale" \
	classify --train --scale B=2 "$tmp/mm.csv"

# model --train: GPT-2 small (examples/gpt2.json: 12 layers, 768 wide,
# vocabulary 50257) over batch 8 x 512 tokens: the lm_head on all 4096
# tokens and the loss, a softmax over the vocabulary per token
run model --train --batch 8 --seq 512 -f csv "$EX/gpt2.json"
check "model --train: exit 0" test "$rc" -eq 0
check "model --train: lm_head on every token" \
	test "$(csv_field "$tmp/out" lm_head flops)" = "$((2 * 4096 * 50257 * 768))"
check "model --train: the loss over the vocabulary" \
	test "$(csv_field "$tmp/out" loss phase)" = forward
check "model --train: the loss's backward" test "$(csv_field "$tmp/out" loss.bwd phase)" = backward
expect_error "model --train --context" 2 "--train: a training step runs over --batch x --seq tokens: not with --context" \
	model --train --context 1024 "$EX/gpt2.json"
# Llama-3-8B: the matmul weights 32 x (4096 x 6144 + 4096 x 4096 + 3 x
# 4096 x 14336) + 4096 x 128256 = 7,504,658,432, the token table 128256 x
# 4096 and the norms N = 32 x 2 x 4096 + 4096: P = 8,030,261,248, every one
# trained; under autocast weights and gradients in fp32 (4 P each: the bf16
# weights, the norms' fp32 as their layernorm runs in fp32, and their fp32
# upgrade), AdamW's m and v 8 P: 16 P = 119.7 GiB before any activation:
# no batch fits an 80 GB H100
P8=8030261248
N8=$((32 * 2 * 4096 + 4096))
check "hand: Llama-3-8B weights" \
	test $((32 * (4096 * 6144 + 4096 * 4096 + 3 * 4096 * 14336) + 4096 * 128256 + 128256 * 4096 + N8)) -eq $P8
run model --train --autocast --batch 1 --seq 2048 -f json "$EX/llama3-8b.json"
check "llama3-8b train: gradients 4 P" grep -q "\"gradient_bytes\":$((4 * P8))," "$tmp/out"
check "llama3-8b train: AdamW state 8 P" grep -q "\"optimizer_bytes\":$((8 * P8))," "$tmp/out"
check "llama3-8b train: weights 2 P (the norms 4) + their fp32 upgrade, 4 P in all" \
	grep -q "\"weight_bytes\":$((2 * P8 + 2 * N8)),.*\"master_bytes\":$((2 * P8 - 2 * N8))," "$tmp/out"
expect_error "llama3-8b train on an H100: no batch fits" 1 \
	"^roofline: --max-batch: batch 1 needs 1[2-9][0-9].[0-9]+ GiB, over the device's 80 GiB" \
	model --train --hw h100-sxm --seq 2048 --autocast --max-batch "$EX/llama3-8b.json"
run model --train --hw h100-sxm --batch 8 --seq 1024 --max-batch "$EX/gpt2.json"
check "gpt2 train --max-batch: a batch" grep -Eq '^max batch [0-9]+: ' "$tmp/out"

done_testing
