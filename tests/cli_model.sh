#!/bin/sh
# cli_model.sh - roofline model: a Hugging Face config.json -> one step's op
# list (issue 13, item 2). Values worked out by hand from the published
# architecture numbers of Llama-3-8B (examples/llama3-8b.json).
. "$top_srcdir/tests/lib.sh"

C8="$top_srcdir/examples/llama3-8b.json"
C70="$top_srcdir/examples/llama3-70b.json"

# Llama-3-8B decode, batch 1, context 2048, bf16 (2 bytes). Weights read once
# per layer: qkv 4096 x (4096 + 2 x 1024) + o 4096 x 4096 + gate, up, down
# 3 x 4096 x 14336 = 218,103,808 weights; x 2 bytes x 32 layers; lm_head
# 128256 x 4096 x 2 (the embedding table is not read whole: one row per
# token). KV cache read: K and V, 32 layers, 8 KV heads, 2048 x 128, 2 bytes.
W=$(( (4096 * (4096 + 2 * 1024) + 4096 * 4096 + 3 * 4096 * 14336) * 2 * 32 + 128256 * 4096 * 2 ))
KV=$(( 2 * 32 * 8 * 2048 * 128 * 2 ))
check "hand: weights 15009316864 bytes" test "$W" -eq 15009316864
run model --hw h100-sxm --runtime graph --context 2048 -f json "$C8"
check "8B decode: exit 0" test "$rc" -eq 0
bytes=$(grep -o '"summary":{.*' "$tmp/out" | grep -o '"bytes":[0-9]*' | head -n 1 | cut -d: -f2)
# the rest is activations: at batch 1 a few vectors of 4096 or 14336 per op
# (13.5 MB here), under 0.1 % of the weights and the cache (the issue's goal
# is within 2 %)
check "8B decode: bytes >= weights + KV" test "$bytes" -ge $((W + KV))
check "8B decode: bytes within 0.1 % of weights + KV" \
	test $(( (bytes - W - KV) * 1000 )) -lt $((W + KV))

# the issue's goal: the best-case step with --runtime graph (every kernel
# on the roofline, the summary's gpu_us) within 10 % of (weights + KV) /
# bandwidth: 15277752320 B / 3350 GB/s = 4560.5 us on the H100 SXM,
# / 2039 GB/s = 7492.8 us on the A100 80GB (gpu_us in whole us, x 10 / 11
# and x 10 / 9 bounds)
for hw_bw in h100-sxm:3350 a100-sxm4-80gb:2039; do
	hw=${hw_bw%:*} bw=${hw_bw#*:}
	run model --hw "$hw" --runtime graph --best-case --context 2048 -f json "$C8"
	gpu=$(grep -o '"summary":{.*' "$tmp/out" | grep -o '"gpu_us":[0-9]*' | head -n 1 | cut -d: -f2)
	want=$(( (W + KV) / (bw * 1000) )) # us
	check "8B decode on $hw: gpu_us $gpu within 10 % of $want us" \
		test $((gpu * 10)) -le $((want * 11)) -a $((gpu * 10)) -ge $((want * 9))
done

run model --hw h100-sxm --context 2048 -f csv "$C8"
check "csv: exit 0" test "$rc" -eq 0
# attention per layer: Q and O 32 x 128, K and V 8 x 2048 x 128, bf16
check "attention row: GQA bytes" test "$(csv_field "$tmp/out" attention bytes)" \
	-eq $(( (2 * 32 * 128 + 2 * 8 * 2048 * 128) * 2 ))
check "attention row: 32 layers" test "$(csv_field "$tmp/out" attention count)" -eq 32
# lm_head: A 1 x 4096, B 4096 x 128256, C 1 x 128256
check "lm_head row: bytes" test "$(csv_field "$tmp/out" lm_head bytes)" \
	-eq $(( (4096 + 4096 * 128256 + 128256) * 2 ))
check "gate_up row: 2 x 14336 x 4096 MACs" test "$(csv_field "$tmp/out" gate_up flops)" \
	-eq $(( 2 * 2 * 14336 * 4096 ))
cp "$tmp/out" "$tmp/direct.csv"

# -f oplist, read back by classify, gives the same rows
run model --context 2048 -f oplist "$C8"
check "oplist: exit 0" test "$rc" -eq 0
cp "$tmp/out" "$tmp/ops.csv"
check "oplist: qkv_proj N = (32 + 2 x 8) x 128" grep -q '^qkv_proj,matmul,bf16,1x6144x4096,' "$tmp/ops.csv"
check "oplist: decode attention over the context, kv_heads 8" \
	grep -q '^attention,attention,bf16,1x32x1x2048x128,,,,8,' "$tmp/ops.csv"
run classify --hw h100-sxm -f csv "$tmp/ops.csv"
check "oplist | classify: exit 0" test "$rc" -eq 0
check "oplist | classify: the same csv as model" cmp -s "$tmp/out" "$tmp/direct.csv"

# prefill: 4 x 512 tokens, causal attention over the prompt; lm_head for the
# last token of each sequence only
run model --phase prefill --batch 4 --seq 512 -f oplist "$C8"
check "prefill: exit 0" test "$rc" -eq 0
check "prefill: attention 4x32x512x128 causal" \
	grep -q '^attention,attention,bf16,4x32x512x128,,,1,8,' "$tmp/out"
check "prefill: qkv_proj M = 2048 tokens" grep -q '^qkv_proj,matmul,bf16,2048x6144x4096,' "$tmp/out"
check "prefill: lm_head M = batch" grep -q '^lm_head,matmul,bf16,4x128256x4096,' "$tmp/out"

# int4 weights and an fp8 KV cache go to item 1's columns
run model --weight-dtype int4 --kv-dtype fp8 -f oplist "$C70"
check "70B: exit 0" test "$rc" -eq 0
check "70B: down_proj int4 x 80 layers" grep -q '^down_proj,matmul,bf16,1x8192x28672,,linear,,,int4,,80,$' "$tmp/out"
check "70B: attention fp8 KV, 64 heads over 8" \
	grep -q '^attention,attention,bf16,1x64x1x512x128,,,,8,,fp8e4m3,80,$' "$tmp/out"

# errors: one line naming the key, nothing on stdout
printf '{"model_type": "gpt_neox", "hidden_size": 8}\n' >"$tmp/neox.json"
expect_error "unknown model_type" 1 \
	"^roofline: $tmp/neox.json: key 'model_type': unsupported model type 'gpt_neox' \\(expected llama, mistral, mixtral, qwen2, qwen3, qwen2_moe, qwen3_moe, gemma2, gemma3_text, gemma3, phi3, olmo2, granite, falcon, deepseek_v2, deepseek_v3, gpt_oss, gpt2, bert or vit\\)$" \
	model "$tmp/neox.json"
grep -v intermediate_size "$C8" >"$tmp/noint.json"
expect_error "missing key" 1 "^roofline: $tmp/noint.json: key 'intermediate_size' is missing$" \
	model "$tmp/noint.json"
expect_error "--dtype int4" 2 "storage type only" model --dtype int4 "$C8"
expect_error "--phase train" 2 "unknown phase 'train'" model --phase train "$C8"
expect_error "--batch 0" 2 "--batch: '0' is not an integer from 1 to 16777216" model --batch 0 "$C8"
# a step too large for the op list's formulas: one line naming the config
# and the sizes of the first row past 2^64 elements (attention: 2^24 x 64
# heads x 2^24 x 2^24 scores); more cases in tests/cli_model_limits.sh
expect_error "too large a prefill names the config's keys" 1 \
	"^roofline: $C70: .*--batch 16777216 and --seq 16777216 make the step's attention .* too large: the attention tensor has more than 2\\^64 elements$" \
	model --phase prefill --batch 16777216 --seq 16777216 "$C70"

# --generate: a tiny hand-made config (2 layers, hidden 256, GQA 4 over 2).
# N output tokens: the prefill (the step of --phase prefill run alone) and
# N - 1 decode steps, whose mean lies between the first (context = seq) and
# the last (seq + N - 2) run alone; tokens/s = batch x N / total
# (tests/cli_generate.sh sums the steps one by one).
printf '{"model_type": "llama", "hidden_size": 256, "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2, "vocab_size": 1000}\n' >"$tmp/tiny.json"
jnum() { grep -o "\"$2\":[-0-9.e+]*" "$1" | head -n 1 | cut -d: -f2; }
# the summary's field (the rows come before it)
jsum() { grep -o '"summary":{.*' "$1" >"$tmp/sum.json"; jnum "$tmp/sum.json" "$2"; }
run model --runtime graph --generate 64 --seq 1024 --batch 8 -f json "$tmp/tiny.json"
check "generate: exit 0" test "$rc" -eq 0
cp "$tmp/out" "$tmp/gen.json"
run model --runtime graph --phase prefill --seq 1024 --batch 8 -f json "$tmp/tiny.json"
pre=$(jsum "$tmp/out" expected_us) pre_r=$(jsum "$tmp/out" total_us)
run model --runtime graph --context 1024 --batch 8 -f json "$tmp/tiny.json"
first=$(jsum "$tmp/out" expected_us)
run model --runtime graph --context 1086 --batch 8 -f json "$tmp/tiny.json"
last=$(jsum "$tmp/out" expected_us)
g_pre=$(jnum "$tmp/gen.json" prefill_us) g_pre_r=$(jnum "$tmp/gen.json" prefill_roofline_us)
g_tok=$(jnum "$tmp/gen.json" per_token_us) g_tot=$(jnum "$tmp/gen.json" total_us)
g_tps=$(jnum "$tmp/gen.json" tokens_per_s)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-4 * (b < 0 ? -b : b) + 0.002) }'; }
check "generate: prefill = --phase prefill alone ($g_pre, $pre)" near "$g_pre" "$pre"
check "generate: prefill roofline = --phase prefill alone" near "$g_pre_r" "$pre_r"
check "generate: mean decode $g_tok within [$first, $last]" \
	awk -v m="$g_tok" -v a="$first" -v b="$last" 'BEGIN { exit !(m >= a - 0.001 && m <= b + 0.001 && a < b) }'
check "generate: total = prefill + 63 x mean decode" near "$g_tot" "$(awk -v p="$g_pre" -v t="$g_tok" 'BEGIN { printf "%.4f", p + 63 * t }')"
check "generate: tokens/s = 8 x 64 / total" near "$g_tps" "$(awk -v t="$g_tot" 'BEGIN { printf "%.4f", 8 * 64 / t * 1e6 }')"
run model --runtime graph --generate 64 --seq 1024 --batch 8 "$tmp/tiny.json"
check "generate table: time to first token line" grep -q '^  prefill (time to first token) ' "$tmp/out"
check "generate table: contexts 1024 to 1086" grep -q 'decode at contexts 1024 to 1086' "$tmp/out"
run model --generate 64 -f md "$tmp/tiny.json"
check "generate md: tokens/s row" grep -q '^| tokens/s | ' "$tmp/out"
expect_error "--generate with csv" 2 "not with -f csv" model --generate 4 -f csv "$tmp/tiny.json"
expect_error "--generate with --context" 2 "not with --phase prefill or --context" \
	model --generate 4 --context 9 "$tmp/tiny.json"
expect_error "--generate 0" 2 "--generate: '0' is not an integer" model --generate 0 "$tmp/tiny.json"

# GPT-2 small (examples/gpt2.json: n_embd 768, 12 heads, 12 layers, n_inner
# absent = 3072, vocab 50257). Matmul weights per layer: c_attn 768 x 2304,
# attn_proj 768 x 768, c_fc 768 x 3072, mlp_proj 3072 x 768 = 7,077,888;
# x 12 layers + the tied lm_head 50257 x 768 = 123,532,032 weights. The
# published 124,439,808 parameters add wpe 1024 x 768 = 786,432 and the
# biases and norms: per layer 2304 + 768 + 3072 + 768 + 4 x 768 = 9,984,
# x 12 + ln_f 1,536 = 121,344. The memory fit holds every one of them
# (the token table once: the lm_head is tied to it), in bf16.
G2="$top_srcdir/examples/gpt2.json"
GW=$(( 12 * (768 * 2304 + 768 * 768 + 2 * 768 * 3072) + 50257 * 768 ))
check "hand: GPT-2 small parameters" test $(( GW + 1024 * 768 + 12 * 9984 + 1536 )) -eq 124439808
run model --context 1024 -f json "$G2"
check "gpt2: exit 0" test "$rc" -eq 0
check "gpt2: weight bytes = 2 x 124439808 (published)" grep -q "\"weight_bytes\":$(( 2 * 124439808 ))," "$tmp/out"
# KV cache: K and V, 12 layers, 12 heads, 1024 x 64, 2 bytes
check "gpt2: KV bytes" grep -q "\"kv_bytes\":$(( 2 * 12 * 12 * 1024 * 64 * 2 ))," "$tmp/out"
run model --context 1024 -f csv "$G2"
cp "$tmp/out" "$tmp/g2.csv"
# gelu at decode batch 1: 3072 elements x 14 FLOPs
check "gpt2: gelu flops 3072 x 14" test "$(csv_field "$tmp/g2.csv" gelu flops)" -eq $(( 3072 * 14 ))
# attention (MHA): Q and O 12 x 64, K and V 12 x 1024 x 64, bf16
check "gpt2: attention bytes" test "$(csv_field "$tmp/g2.csv" attention bytes)" \
	-eq $(( (2 * 12 * 64 + 2 * 12 * 1024 * 64) * 2 ))
check "gpt2: c_attn flops 2 x 2304 x 768" test "$(csv_field "$tmp/g2.csv" c_attn flops)" \
	-eq $(( 2 * 2304 * 768 ))
run model --context 1024 -f oplist "$G2"
cp "$tmp/out" "$tmp/g2ops.csv"
check "gpt2 oplist: gelu carries flops_per_element 14" grep -q '^gelu,pointwise,bf16,1x3072,1,14,' "$tmp/g2ops.csv"
check "gpt2 oplist: tied lm_head" grep -q '^lm_head,matmul,bf16,1x50257x768,' "$tmp/g2ops.csv"
run classify --hw h100-sxm -f csv "$tmp/g2ops.csv"
check "gpt2 oplist | classify: the same csv as model" cmp -s "$tmp/out" "$tmp/g2.csv"
run model --phase prefill --batch 2 --seq 1024 -f oplist "$G2"
check "gpt2 prefill: causal attention 2x12x1024x64" \
	grep -q '^attention,attention,bf16,2x12x1024x64,,,,1,' "$tmp/out"
check "gpt2 prefill: c_fc M = 2048" grep -q '^c_fc,matmul,bf16,2048x3072x768,' "$tmp/out"
grep -v '"n_head"' "$G2" >"$tmp/nohead.json"
expect_error "gpt2: missing n_head" 1 "^roofline: $tmp/nohead.json: key 'n_head' is missing$" \
	model "$tmp/nohead.json"

# Qwen2-7B (examples/qwen2-7b.json: hidden 3584, intermediate 18944, 28
# layers, 28 heads of 128, 4 KV heads, vocab 152064, untied). Matmul weights
# per layer: qkv 3584 x (3584 + 2 x 4 x 128), o 3584 x 3584, gate, up, down
# 3 x 3584 x 18944; x 28, + lm_head 152064 x 3584; bf16. The rest of its
# 7,615,616,512 parameters (the model card's 7.61B, docs/model.md): the token table 152064 x 3584,
# the q, k, v biases 28 x 4608, the norms 28 x 2 x 3584 and the final 3584.
Q7="$top_srcdir/examples/qwen2-7b.json"
QW=$(( 2 * (28 * (3584 * 4608 + 3584 * 3584 + 3 * 3584 * 18944) + 152064 * 3584) ))
check "hand: Qwen2-7B weight bytes" test "$QW" -eq 14140571648
check "hand: Qwen2-7B parameters" \
	test $(( QW / 2 + 152064 * 3584 + 28 * 4608 + 28 * 2 * 3584 + 3584 )) -eq 7615616512
QW=$(( 2 * 7615616512 ))
run model --context 2048 -f json "$Q7"
check "qwen2-7b: weight bytes" grep -q "\"weight_bytes\":$QW," "$tmp/out"
# KV: 2 x 28 layers x 4 KV heads x 2048 x 128 x 2 bytes
check "qwen2-7b: KV bytes" grep -q "\"kv_bytes\":$(( 2 * 28 * 4 * 2048 * 128 * 2 ))," "$tmp/out"
run model --context 2048 -f oplist "$Q7"
check "qwen2-7b: the q, k, v bias" grep -q '^qkv_bias,pointwise,bf16,1x4608,2,' "$tmp/out"

# BERT-base (examples/bert-base.json: 768, 12 heads, 12 layers, 3072, vocab
# 30522): an encoder, prefill by default. Matmul weights: 12 x 7,077,888 (as
# GPT-2 small's layers) + the pooler 768 x 768 = 85,524,480; the published
# 109,482,240 parameters add the embeddings (30522 + 512 + 2) x 768, their
# norm 1,536, 12 x 9,984 biases and norms and the pooler's bias 768.
BB="$top_srcdir/examples/bert-base.json"
BW=$(( 12 * (768 * 2304 + 768 * 768 + 2 * 768 * 3072) + 768 * 768 ))
check "hand: BERT-base parameters" \
	test $(( BW + (30522 + 512 + 2) * 768 + 1536 + 12 * 9984 + 768 )) -eq 109482240
run model --seq 128 --batch 4 -f json "$BB"
check "bert: exit 0" test "$rc" -eq 0
check "bert: weight bytes = 2 x 109482240 (published)" grep -q "\"weight_bytes\":$(( 2 * 109482240 ))," "$tmp/out"
run model --seq 128 --batch 4 -f csv "$BB"
cp "$tmp/out" "$tmp/bert.csv"
# attention not causal: QK^T and PV, 2 x 2 x B H S S D = 4 x 4 x 12 x 128^2 x 64
check "bert: attention flops (not causal)" test "$(csv_field "$tmp/bert.csv" attention flops)" \
	-eq $(( 4 * 4 * 12 * 128 * 128 * 64 ))
check "bert: qkv flops 2 x 512 x 2304 x 768" test "$(csv_field "$tmp/bert.csv" qkv flops)" \
	-eq $(( 2 * 512 * 2304 * 768 ))
run model --seq 128 --batch 4 -f oplist "$BB"
check "bert oplist: attention without causal" grep -q '^attention,attention,bf16,4x12x128x64,,,,,,,,12,$' "$tmp/out"
cp "$tmp/out" "$tmp/bertops.csv"
run classify --hw h100-sxm -f csv "$tmp/bertops.csv"
check "bert oplist | classify: the same csv as model" cmp -s "$tmp/out" "$tmp/bert.csv"
expect_error "bert: decode names the model_type" 1 \
	"^roofline: model_type bert is an encoder: --phase decode does not apply \\(prefill only\\)$" \
	model --phase decode "$BB"
expect_error "bert: --generate" 1 "^roofline: --generate: model_type bert is an encoder" \
	model --generate 4 "$BB"

# ViT-B/16 (examples/vit-b16.json: 768, 12, 12, 3072, image 224, patch 16,
# 3 channels): (224 / 16)^2 + 1 = 197 tokens per image. Weights: the patch
# conv 768 x 3 x 16 x 16 = 589,824, the layers 12 x 7,077,888, the pooler
# 589,824 = 86,114,304; the published 86,389,248 add the conv's bias 768,
# the class token 768, positions 197 x 768, 12 x 9,984, ln_f 1,536 and the
# pooler's bias 768.
VB="$top_srcdir/examples/vit-b16.json"
VW=$(( 768 * 3 * 16 * 16 + 12 * (768 * 2304 + 768 * 768 + 2 * 768 * 3072) + 768 * 768 ))
check "hand: ViT-B/16 parameters" \
	test $(( VW + 768 + 768 + 197 * 768 + 12 * 9984 + 1536 + 768 )) -eq 86389248
run model --batch 8 -f json "$VB"
check "vit: exit 0" test "$rc" -eq 0
check "vit: weight bytes = 2 x 86389248 (published)" grep -q "\"weight_bytes\":$(( 2 * 86389248 ))," "$tmp/out"
run model --batch 8 -f csv "$VB"
cp "$tmp/out" "$tmp/vit.csv"
# the patch conv: 2 x 8 images x 768 x 3 x 16 x 16 x 14 x 14
check "vit: patch_embed flops" test "$(csv_field "$tmp/vit.csv" patch_embed flops)" \
	-eq $(( 2 * 8 * 768 * 3 * 16 * 16 * 14 * 14 ))
# fc1 over 8 x 197 tokens
check "vit: ffn_in flops 2 x 1576 x 3072 x 768" test "$(csv_field "$tmp/vit.csv" ffn_in flops)" \
	-eq $(( 2 * 1576 * 3072 * 768 ))
run model --batch 8 -f oplist "$VB"
check "vit oplist: the patch conv, stride 16" \
	grep -q '^patch_embed,conv2d,bf16,8x3x224x224,768x16x16,16,' "$tmp/out"
check "vit oplist: 197 tokens" grep -q '^attention,attention,bf16,8x12x197x64,' "$tmp/out"
cp "$tmp/out" "$tmp/vitops.csv"
run classify --hw h100-sxm -f csv "$tmp/vitops.csv"
check "vit oplist | classify: the same csv as model" cmp -s "$tmp/out" "$tmp/vit.csv"
expect_error "vit: --seq" 1 "^roofline: --seq: model_type vit takes .* = 197 tokens per image$" \
	model --seq 64 "$VB"

# Mixtral-8x7B (examples/mixtral-8x7b.json: hidden 4096, intermediate 14336,
# 32 layers, 32 heads, 8 KV heads, vocab 32000, 8 experts, 2 per token),
# issue 13 item 3. Weights per layer outside the experts: qkv 4096 x 6144 +
# o 4096 x 4096 + router 4096 x 8 = 41,975,808; per expert gate, up, down
# 3 x 4096 x 14336 = 176,160,768; lm_head 32000 x 4096. Decode at batch 1
# touches 8 (1 - (6/8)^1) = 2 experts per layer; at batch 64
# 8 (1 - 0.75^64) = 8 (to 1e-7): all of them. bf16: 2 bytes.
MX="$top_srcdir/examples/mixtral-8x7b.json"
mx_w() { echo $(( (41975808 + $1 * 176160768) * 32 * 2 + 32000 * 4096 * 2 )); }
check "hand: mixtral weights of 2 experts 25497174016 bytes" test "$(mx_w 2)" -eq 25497174016
check "hand: mixtral weights of 8 experts 93142908928 bytes" test "$(mx_w 8)" -eq 93142908928
# and held beside them: the token table 32000 x 4096 and the norms 32 x 2 x
# 4096 + 4096: 46,702,792,704 parameters, the published 46.7B
check "hand: Mixtral-8x7B parameters" \
	test $(( $(mx_w 8) / 2 + 32000 * 4096 + 32 * 2 * 4096 + 4096 )) -eq 46702792704
# memory: every expert stays resident whatever the batch touches (86.99 GiB of weights:
# over an 80 GB A100, under an H200's 141 GiB)
run model -f json --hw h200 "$MX"
check "mixtral b1: exit 0" test "$rc" -eq 0
check "mixtral b1: all 8 experts resident, and every other weight" \
	grep -q "\"weight_bytes\":$(( 2 * 46702792704 ))," "$tmp/out"
check "mixtral b1: fits an H200" grep -q '"fits":true' "$tmp/out"
run model --batch 64 -f json --hw h200 "$MX"
check "mixtral b64: all 8 experts resident" \
	grep -q "\"weight_bytes\":$(( 2 * 46702792704 ))," "$tmp/out"
run model --hw a100-80gb "$MX"
check "mixtral b1 on an A100 80GB: does not fit" \
	grep -q '^roofline: warning: the step needs 87.0[0-9] GiB, over the device.s 80 GiB$' "$tmp/err"
# the bytes a step reads: the expert GEMMs run on 2 of 8 experts at batch 1
# (count 32 x 2; weight_count 32 x 8 is memory only), all 8 at batch 64: the
# summed weight reads of the matmul rows are mx_w 2 and mx_w 8 (in the
# csv: bytes x count, less each row's activations, A M x K and C M x N)
# the rows: router 1x8x4096, topk over 8, gather 1x2x4096, the expert GEMMs
# on 1 token each (2 x 1 / 2), count 32 x 2; at batch 64, 64 x 2 / 8 = 16
# tokens per expert, and --expert-imbalance 1.5 makes the busiest 24
run model -f oplist "$MX"
check "mixtral oplist: weight_count and params columns" grep -q ',count,weight_count,params$' "$tmp/out"
check "mixtral b1: router" grep -q '^router,matmul,bf16,1x8x4096,,linear,,,bf16,,32,,$' "$tmp/out"
check "mixtral b1: topk" grep -q '^topk,reduction,bf16,1x8,,,,,,,32,,$' "$tmp/out"
check "mixtral b1: gather" grep -q '^gather,copy,bf16,1x2x4096,,,,,,,32,,$' "$tmp/out"
check "mixtral b1: expert_gate_up x 64, 256 resident" \
	grep -q '^expert_gate_up,matmul,bf16,1x28672x4096,,linear,,,bf16,,64,256,$' "$tmp/out"
check "mixtral b1: expert_down x 64, 256 resident" \
	grep -q '^expert_down,matmul,bf16,1x4096x14336,,linear,,,bf16,,64,256,$' "$tmp/out"
check "mixtral b1: silu on 2 routed tokens" \
	grep -q '^expert_silu,pointwise,bf16,2x14336,1,,,,,,32,,$' "$tmp/out"
check "mixtral b1: combine_weight" \
	grep -q '^combine_weight,pointwise,bf16,1x2x4096,2,,,,,,32,,$' "$tmp/out"
check "mixtral b1: combine_sum over k" \
	grep -q '^combine_sum,reduction,bf16,1x4096x2,,,,,,,32,,$' "$tmp/out"
check "mixtral: no dense gate_up" sh -c "! grep -q '^gate_up,' '$tmp/out'"
cp "$tmp/out" "$tmp/mx1.csv"
run model --batch 64 -f oplist "$MX"
check "mixtral b64: 16 tokens per expert, 8 x 32" \
	grep -q '^expert_gate_up,matmul,bf16,16x28672x4096,,linear,,,bf16,,256,256,$' "$tmp/out"
cp "$tmp/out" "$tmp/mx64.csv"
# weights read per step: each matmul row's K x N x 2 bytes x count
mx_read() { awk -F, '/^name,/ { for (i = 1; i <= NF; i++) c[$i] = i }
	$2 == "matmul" { split($4, d, "x"); s += d[2] * d[3] * 2 * $c["count"] } END { printf "%.0f", s }' "$1"; }
check "mixtral b1 reads the weights of 2 of 8 experts" test "$(mx_read "$tmp/mx1.csv")" -eq "$(mx_w 2)"
check "mixtral b64 reads the weights of all 8" test "$(mx_read "$tmp/mx64.csv")" -eq "$(mx_w 8)"
run model --batch 64 --expert-imbalance 1.5 -f oplist "$MX"
check "mixtral b64 imbalance 1.5: the busiest expert's 24 tokens" \
	grep -q '^expert_down,matmul,bf16,24x4096x14336,,linear,,,bf16,,256,256,$' "$tmp/out"
expect_error "--expert-imbalance below 1" 2 "--expert-imbalance: '0.5' is not a number" \
	model --expert-imbalance 0.5 "$MX"

# --families: the table, a row a family (18: llama ... vit), its
# model_types from family_NAME.c
run model --families
check "--families: exit 0" test "$rc" -eq 0
check "--families: 18 families and the header" test "$(wc -l <"$tmp/out")" -eq 19
check "--families: deepseek and deepseek_v3, a model_type each, their layouts" \
	sh -c "grep -q '^deepseek    deepseek_v2                prefill decode train   tp pp dp ep  21\$' '$tmp/out' &&
	grep -q '^deepseek_v3 deepseek_v3                prefill decode train   tp pp dp ep  21\$' '$tmp/out'"
check "--families: the encoders run no decode" grep -q '^bert        bert  *prefill train  ' "$tmp/out"
run model --families -f csv
check "--families -f csv" grep -q '^gemma3,gemma3_text gemma3,prefill decode train,tp pp dp,14$' "$tmp/out"
run model --families -f json
check "--families -f json" grep -q '{"family":"gpt_oss","model_types":\["gpt_oss"\],"phases":\["prefill","decode","train"\],"layouts":\["tp","pp","dp","ep"\],"keys":14}' "$tmp/out"
expect_error "--families with a config" 2 "--families takes no config.json" \
	model --families "$C8"

# issue 24's families, the caches worked by hand (bf16, 2 bytes a value)
EX="$top_srcdir/examples"
# Gemma-2-9B, batch 8 over 8192 keys: 21 full layers of 8192 tokens and 21
# sliding of their window, 4096; K and V of 8 heads of 256
run model --batch 8 --context 8192 -f json "$EX/gemma2-9b.json"
check "gemma2: the cache of 21 full and 21 sliding layers" \
	grep -q "\"kv_bytes\":$(( 21 * 8 * (8192 + 4096) * 2 * 8 * 256 * 2 ))," "$tmp/out"
run model --batch 8 --context 8192 -f oplist "$EX/gemma2-9b.json"
check "gemma2: sliding_attention's window 4096" \
	grep -q '^sliding_attention,attention,bf16,8x16x1x8192x256,,,,,8,4096,,bf16,21,$' "$tmp/out"
# DeepSeek-V2-Lite, batch 8 over 4096 keys, 27 layers: the latent (512 +
# 64 a token) absorbed, or each of 16 heads' K (192) and V (128) naive
run model --batch 8 --context 4096 -f json "$EX/deepseek-v2-lite.json"
check "deepseek absorb: the latent cache" \
	grep -q "\"kv_bytes\":$(( 27 * 8 * 4096 * 576 * 2 ))," "$tmp/out"
run model --batch 8 --context 4096 --mla naive -f json "$EX/deepseek-v2-lite.json"
check "deepseek naive: K and V per head" \
	grep -q "\"kv_bytes\":$(( 27 * 8 * 4096 * 16 * (192 + 128) * 2 ))," "$tmp/out"
expect_error "--mla of another form" 2 "--mla: 'flash' is not absorb or naive" \
	model --mla flash "$EX/deepseek-v2-lite.json"
# gpt-oss-20b: its experts (24 x 32 x 3 x 2880 x 2880 weights) in MXFP4 at
# 17/32 bytes, the other 1804459584 weights in bf16; --weight-dtype bf16
# puts every weight in bf16
run model -f json "$EX/gpt-oss-20b.json"
check "gpt-oss: MXFP4 experts" \
	grep -q "\"weight_bytes\":$(( 24 * 32 * 3 * 2880 * 2880 * 17 / 32 + 1804459584 * 2 ))," "$tmp/out"
# --weight-group 32 adds an fp16 scale a 32 weights to the bf16 matmuls
# only (attention 24 x 2880 x (5120 + 4096), the router 24 x 2880 x 32, the
# lm_head 2880 x 201088): MXFP4 has its own
run model --weight-group 32 -f json "$EX/gpt-oss-20b.json"
check "gpt-oss --weight-group: no second scale on the MXFP4 experts" \
	grep -q "\"weight_bytes\":$(( 24 * 32 * 3 * 2880 * 2880 * 17 / 32 + 1804459584 * 2 + (24 * 2880 * (5120 + 4096 + 32) + 2880 * 201088) / 32 * 2 ))," "$tmp/out"
run model --weight-dtype bf16 -f json "$EX/gpt-oss-20b.json"
check "gpt-oss --weight-dtype bf16: every weight in bf16" \
	grep -q "\"weight_bytes\":$(( (24 * 32 * 3 * 2880 * 2880 + 1804459584) * 2 ))," "$tmp/out"

done_testing
