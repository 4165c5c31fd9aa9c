#!/bin/sh
# cli_model_limits.sh - roofline model at the edges of what it takes (issue
# 21): a config whose step is too large for 64-bit element counts (item 15)
# and --max-batch stopped by the largest batch rather than the memory (item
# 13). Every case: one message, or the right output.
. "$top_srcdir/tests/lib.sh"

# one_error DESC PATTERN ARGS...: exit 1, nothing on stdout, exactly one line
# on stderr, matching PATTERN
one_error() {
	desc=$1 pattern=$2
	shift 2
	run "$@"
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 1 ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ] ||
		! grep -Eq -- "$pattern" "$tmp/err"; then
		not_ok "$desc" "exit $rc, $lines lines on stderr:" "$(head -n 3 "$tmp/err")"
	else
		ok "$desc"
	fi
}

# Item 15: a config whose step overflows was one error per row of the
# generated op list ("CONFIG (op list):N: ..."), 13 of them for the first
# case; now one line naming the config and the keys. The products, by hand:
# qkv_proj's weights K x N = hidden x (heads + 2 x kv_heads) x head_dim =
# 2^24 x (2^24 + 2) x 2^24 > 2^64.
printf '{"model_type": "llama", "hidden_size": 16777216, "intermediate_size": 16777216, "num_attention_heads": 16777216, "num_key_value_heads": 1, "num_hidden_layers": 2, "vocab_size": 16777216, "head_dim": 16777216}\n' >"$tmp/heads.json"
one_error "15: heads x head_dim x hidden: one line naming the keys" \
	"^roofline: $tmp/heads.json: hidden_size 16777216, num_attention_heads 16777216 and head_dim 16777216 make the step's qkv_proj \\(matmul 1x281475010265088x16777216\\) too large: the matmul operand has more than 2\\^64 elements$" \
	model "$tmp/heads.json"
# the same through --max-batch, --generate and --sweep (each runs the step)
one_error "15: --max-batch: the same line" "^roofline: $tmp/heads.json: hidden_size 16777216, num_attention_heads" \
	model --max-batch --hw h200 "$tmp/heads.json"
one_error "15: --generate: the same line" "^roofline: $tmp/heads.json: hidden_size 16777216, num_attention_heads" \
	model --generate 8 "$tmp/heads.json"
one_error "15: --sweep: the same line" "^roofline: $tmp/heads.json: hidden_size 16777216, num_attention_heads" \
	model --sweep batch=1,2 "$tmp/heads.json"
# the prefill's tokens: 2^24 sequences of 2^24 x hidden 2^24 = 2^72 (every
# row of 14 before)
printf '{"model_type": "llama", "hidden_size": 16777216, "intermediate_size": 16777216, "num_attention_heads": 1, "num_hidden_layers": 16777216, "vocab_size": 16777216}\n' >"$tmp/hidden.json"
one_error "15: hidden_size with --batch and --seq" \
	"^roofline: $tmp/hidden.json: hidden_size 16777216, --batch 16777216 and --seq 16777216 make the step's embed \\(copy 281474976710656x16777216\\) too large: the tensor has more than 2\\^64 elements$" \
	model --phase prefill --batch 16777216 --seq 16777216 "$tmp/hidden.json"
# Llama-3-70B's attention at prefill: 2^24 x 64 heads x 2^24 x 2^24 scores
one_error "15: Llama-3-70B's prefill attention" \
	"^roofline: $EX/llama3-70b.json: hidden_size 8192, num_attention_heads 64, num_key_value_heads 8, --batch 16777216 and --seq 16777216 make the step's attention \\(attention 16777216x64x16777216x128\\) too large: the attention tensor has more than 2\\^64 elements$" \
	model --phase prefill --batch 16777216 --seq 16777216 "$EX/llama3-70b.json"
# Mixtral's routed tokens at decode: 2^24 x k 2^24 x hidden 2^24
printf '{"model_type": "mixtral", "hidden_size": 16777216, "intermediate_size": 8, "num_attention_heads": 1, "num_hidden_layers": 1, "vocab_size": 8, "num_local_experts": 16777216, "num_experts_per_tok": 16777216}\n' >"$tmp/moe.json"
one_error "15: num_experts_per_tok with hidden_size and --batch" \
	"^roofline: $tmp/moe.json: hidden_size 16777216, num_experts_per_tok 16777216 and --batch 16777216 make the step's gather \\(copy 16777216x16777216x16777216\\) too large" \
	model --batch 16777216 "$tmp/moe.json"
# GPT-2 at prefill: 2^24 x 2^24 tokens x n_embd 2^24, the embedding first
printf '{"model_type": "gpt2", "n_embd": 16777216, "n_head": 1, "n_layer": 1, "n_inner": 8, "vocab_size": 8, "n_positions": 8}\n' >"$tmp/gpt2.json"
one_error "15: gpt2's n_embd" \
	"^roofline: $tmp/gpt2.json: n_embd 16777216, --batch 16777216 and --seq 16777216 make the step's embed " \
	model --phase prefill --batch 16777216 --seq 16777216 "$tmp/gpt2.json"
# ViT's patch convolution: 2^24 images x 2^24 channels x 4096^2 pixels
printf '{"model_type": "vit", "hidden_size": 8, "num_attention_heads": 1, "num_hidden_layers": 1, "intermediate_size": 8, "image_size": 4096, "patch_size": 4096, "num_channels": 16777216}\n' >"$tmp/vit.json"
one_error "15: vit's num_channels and image_size" \
	"^roofline: $tmp/vit.json: hidden_size 8, image_size 4096, patch_size 4096, num_channels 16777216 and --batch 16777216 make the step's patch_embed \\(conv2d 16777216x16777216x4096x4096\\) too large: the conv2d input has more than 2\\^64 elements$" \
	model --batch 16777216 "$tmp/vit.json"
# -f oplist writes no list of a step too large
one_error "15: -f oplist: the same line, no list" "^roofline: $tmp/heads.json: hidden_size 16777216, num_attention_heads" \
	model -f oplist "$tmp/heads.json"

# Item 13: --max-batch searches batches up to 2^24. A config of 8 a side at
# context 1 fits there: weights 512 x 2 B; KV 2^24 sequences x K and V x 8
# x 2 B = 0.5 GiB; activations, the largest op's (qkv_proj: 8 in, 24 out a
# token, x 2 B x 2^24) = 1 GiB: 1.50 of an H200's 141 GiB. The line said
# "max batch 16777216: ..." as if the memory had stopped it.
printf '{"model_type": "llama", "hidden_size": 8, "intermediate_size": 8, "num_attention_heads": 1, "num_hidden_layers": 1, "vocab_size": 8}\n' >"$tmp/mini.json"
run model --hw h200 --context 1 --max-batch "$tmp/mini.json"
check "13: exit 0" test "$rc" -eq 0
check "13: the cap said, and that memory would allow more" \
	grep -Eq '^max batch 16777216 \(the largest batch searched; memory would allow more\): step [0-9.]+ us expected, [0-9.]+ us roofline; memory 1\.50 of 141 GiB$' "$tmp/out"
# the memory's limit keeps the line as it was: the tiny config's KV cache,
# 2 layers x K and V x 2 heads x 64 x 2 B x 512 = 512 KiB a sequence, fills
# the 141 GiB near 141 x 2^30 / 2^19 = 288768 sequences (less the
# activations)
printf '{"model_type": "llama", "hidden_size": 256, "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2, "vocab_size": 1000}\n' >"$tmp/tiny.json"
run model --hw h200 --max-batch "$tmp/tiny.json"
got=$(sed -n 's/^max batch \([0-9]*\): step [0-9.]* us expected, [0-9.]* us roofline; memory 14[01]\.[0-9]* of 141 GiB$/\1/p' "$tmp/out")
check "13: memory-bound: the line as it was, batch $got near 288768" \
	test -n "$got" -a "${got:-0}" -le 288768 -a "${got:-0}" -ge 280000

# Found by fuzz_model (corpus file crash-train-fp4-weights): --train with
# 4-bit weights failed at the first matmul of the generated list, "CONFIG
# (op list):5: int4 weights train frozen only (trainable=0) ..."; a usage
# error now, before the config is read
for t in int4 fp4; do
	expect_error "--train --weight-dtype $t: a usage error naming the option" 2 \
		"^roofline: --train: $t weights train frozen only: a gradient step needs weights it can update \\(not --weight-dtype $t\\)$" \
		model --train --weight-dtype $t "$EX/llama3-8b.json"
done

done_testing
