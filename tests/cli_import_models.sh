#!/bin/sh
# cli_import_models.sh - "roofline import" on the inference traces of issue 13
# (tests/data/trace_*: Llama-3-8B decode and prefill, Mixtral-8x7B decode and
# prefill, SDPA with grouped-query attention and RMSNorm, ViT-B/16 and
# nn.TransformerEncoder on PyTorch's fast path; recorded on an H200 by
# bench/traces/record.py). The goal of the issue: at most 2 % of the kernel
# time in custom rows, grouped-query attention rows carrying kv_heads, and the
# fused fast-path ops split into their GEMMs and attention. Every figure below
# is worked out by hand from the models' shapes.
. "$top_srcdir/tests/lib.sh"

# col FILE NAME: the column number of NAME in the header of an op list
col() {
	grep -v '^#' "$1" | head -n 1 | tr , '\n' | grep -nx "$2" | cut -d: -f1
}
# rows FILE: the op list's rows, without comments and header
rows() { grep -v '^#' "$1" | tail -n +2; }

# 1. custom share of the kernel time, from the op list's own columns:
# measured_us summed over the rows of kind custom, over all rows
for t in llama3_8b_l2_decode_b1_c2048_bf16 llama3_8b_l2_prefill_b1_s512_bf16 \
	mixtral_8x7b_l2_decode_b1_c512_bf16 mixtral_8x7b_l2_decode_b64_c512_bf16 \
	mixtral_8x7b_l2_prefill_b1_s256_bf16 sdpa_gqa_rmsnorm_bf16 \
	vit_b16_fwd_b32_bf16 encoder_l4_fwd_b32_s128_bf16; do
	run import -o "$tmp/$t.csv" "$DATA/trace_$t.json.gz"
	check "$t: imported" test "$rc" -eq 0
	k=$(col "$tmp/$t.csv" kind) m=$(col "$tmp/$t.csv" measured_us)
	check "$t: at most 2 % of the kernel time in custom rows" \
		awk -F, -v k="$k" -v m="$m" '
		/^#/ || /^name,/ { next }
		{ all += $m; if ($k == "custom") c += $m }
		END { printf "# custom %.3f of %.3f us\n", c, all; exit !(all > 0 && c <= 0.02 * all) }' \
		"$tmp/$t.csv"
	run classify --hw h200 "$tmp/$t.csv"
	check "$t: classify reads the import back without a word" test "$rc" -eq 0 -a ! -s "$tmp/err"
done

# 2. grouped-query attention: K and V with 8 heads beside Q's 32
# field FILE ROW COLUMN: a cell of an op list (csv_field on it, comments left out)
field() { grep -v '^#' "$1" >"$tmp/field.csv" && csv_field "$tmp/field.csv" "$2" "$3"; }
L="$tmp/llama3_8b_l2_decode_b1_c2048_bf16.csv"
kh=$(col "$L" kv_heads) kd=$(col "$L" kind) sh=$(col "$L" shape)
# decode: one query token against the cache of 2048 plus itself
check "llama decode: both attention rows 1x32x1x2049x128 with kv_heads 8" test "$(
	rows "$L" | awk -F, -v k="$kd" -v s="$sh" -v h="$kh" '
		$k == "attention" { n++; if ($s == "1x32x1x2049x128" && $h == 8) good++ }
		END { print n + 0, good + 0 }')" = "2 2"
P="$tmp/llama3_8b_l2_prefill_b1_s512_bf16.csv"
check "llama prefill: both attention rows 1x32x512x128, causal, kv_heads 8" test "$(
	rows "$P" | awk -F, -v k="$(col "$P" kind)" -v s="$(col "$P" shape)" \
		-v h="$(col "$P" kv_heads)" -v c="$(col "$P" causal)" '
		$k == "attention" { n++; if ($s == "1x32x512x128" && $h == 8 && $c == 1) good++ }
		END { print n + 0, good + 0 }')" = "2 2"
for t in mixtral_8x7b_l2_decode_b1_c512_bf16 mixtral_8x7b_l2_prefill_b1_s256_bf16; do
	f="$tmp/$t.csv"
	check "$t: every attention row has kv_heads 8" test "$(
		rows "$f" | awk -F, -v k="$(col "$f" kind)" -v h="$(col "$f" kv_heads)" '
			$k == "attention" { n++; if ($h == 8) good++ }
			END { print (n == 2 && good == 2) }')" = 1
done
# the issue's decode row: batch 64, 32 query heads, 8 KV heads, context 2048,
# head dim 128, bf16. Q and O: 2 x 64 x 32 x 1 x 128 x 2 B = 1,048,576 B;
# K and V: 2 x 64 x 8 x 2048 x 128 x 2 B = 536,870,912 B, in all 537,919,488.
# Without kv_heads K and V would take 32 heads: 2,147,483,648 B, 4x as many.
G="$tmp/sdpa_gqa_rmsnorm_bf16.csv"
check "sdpa_gqa: the decode row 64x32x1x2048x128 with kv_heads 8" \
	test "$(field "$G" 'scaled_dot_product_attention#1' shape),$(field "$G" 'scaled_dot_product_attention#1' kv_heads)" = "64x32x1x2048x128,8"
check "sdpa_gqa: the causal prefill row 4x32x1024x128 with kv_heads 8" \
	test "$(field "$G" 'scaled_dot_product_attention#2' shape),$(field "$G" 'scaled_dot_product_attention#2' kv_heads)" = "4x32x1024x128,8"
run classify --hw h200 -f csv "$G"
check "sdpa_gqa: decode bytes 537,919,488 (KV 536,870,912)" \
	test "$(csv_field "$tmp/out" 'scaled_dot_product_attention#1' bytes)" = 537919488
# the same row with the kv_heads cell emptied: the KV read 4x larger
h=$(col "$G" kv_heads)
awk -F, -v OFS=, -v h="$h" '/^#/ || /^name,/ { print; next } { $h = ""; print }' "$G" >"$tmp/nokv.csv"
run classify --hw h200 -f csv "$tmp/nokv.csv"
check "sdpa_gqa: without kv_heads, 2,148,532,224 B (KV 2,147,483,648: 4x)" \
	test "$(csv_field "$tmp/out" 'scaled_dot_product_attention#1' bytes)" = 2148532224
check "sdpa_gqa: RMSNorm a layernorm row of 64 x 4096, 4 FLOPs per element" \
	test "$(field "$G" 'rms_norm#3' kind),$(field "$G" 'rms_norm#3' shape),$(field "$G" 'rms_norm#3' flops_per_element)" = "layernorm,64x4096,4"

# 3. nn.MultiheadAttention's fast path in ViT-B/16 (batch 32, 197 tokens,
# 768 wide, 12 heads of 64): each of the 12 _native_multi_head_attention ops
# becomes its in-projection, attention and out-projection rows, FLOPs
#   qkv:       2 x (32 x 197) x 2304 x 768    = 22,309,502,976
#   attention: 4 x 32 x 12 x 197 x 197 x 64  =  3,815,079,936
#   out-proj:  2 x (32 x 197) x 768 x 768     =  7,436,500,992
V="$tmp/vit_b16_fwd_b32_bf16.csv"
check "vit: no _native_multi_head_attention row left" test "$(grep -c '^_native_multi_head_attention' "$V")" -eq 0
run classify --hw h200 -f csv "$V"
cp "$tmp/out" "$tmp/vit.out"
count_flops() { # FILE KIND FLOPS: rows of that kind and FLOPs
	awk -F, -v k="$2" -v f="$3" 'NR > 1 && $2 == k && $5 == f { n++ } END { print n + 0 }' "$1"
}
check "vit: 12 qkv GEMMs of 22,309,502,976 FLOPs" test "$(count_flops "$tmp/vit.out" matmul 22309502976)" -eq 12
check "vit: 12 attention rows of 3,815,079,936 FLOPs" test "$(count_flops "$tmp/vit.out" attention 3815079936)" -eq 12
check "vit: 12 out-projections of 7,436,500,992 FLOPs" test "$(count_flops "$tmp/vit.out" matmul 7436500992)" -eq 12
check "vit: no attention row has kv_heads (MHA: K and V have the query's heads)" \
	test "$(rows "$V" | awk -F, -v k="$(col "$V" kind)" -v h="$(col "$V" kv_heads)" '$k == "attention" && $h != ""' | wc -l)" -eq 0
# splitting loses no kernel: measured_us sums to all GPU activities, 3218.397 us
# (from the trace: 129 kernels of 3182.8 us, 38 memsets)
check "vit: measured_us sums to the 3218.397 us of all GPU activities" \
	test "$(rows "$V" | awk -F, -v m="$(col "$V" measured_us)" '{ s += $m } END { printf "%.3f", s }')" = 3218.397

# 4. nn.TransformerEncoderLayer's fast path (4 layers, batch 32 x 128, d 768,
# 12 heads, FFN 3072, ReLU): each _transformer_encoder_layer_fwd becomes its
# MHA's three rows, two residual adds, two layer norms and the FFN's two GEMMs
# (the ReLU fused into the first: _addmm_activation)
E="$tmp/encoder_l4_fwd_b32_s128_bf16.csv"
run classify --hw h200 -f csv "$E"
cp "$tmp/out" "$tmp/enc.out"
check "encoder: no _transformer_encoder_layer_fwd row left" test "$(grep -c '^_transformer_encoder' "$E")" -eq 0
# qkv 2 x 4096 x 2304 x 768 = 14,495,514,624; attention 4 x 32 x 12 x 128 x
# 128 x 64 = 1,610,612,736; out-proj 2 x 4096 x 768 x 768 = 4,831,838,208;
# FFN up and down 2 x 4096 x 3072 x 768 = 19,327,352,832 each
check "encoder: 4 qkv GEMMs" test "$(count_flops "$tmp/enc.out" matmul 14495514624)" -eq 4
check "encoder: 4 attention rows" test "$(count_flops "$tmp/enc.out" attention 1610612736)" -eq 4
check "encoder: 4 out-projections" test "$(count_flops "$tmp/enc.out" matmul 4831838208)" -eq 4
check "encoder: 8 FFN GEMMs" test "$(count_flops "$tmp/enc.out" matmul 19327352832)" -eq 8
check "encoder: 8 layer norms" test "$(awk -F, '$2 == "layernorm"' "$tmp/enc.out" | wc -l)" -eq 8
check "encoder: 36 rows, 9 per layer" test "$(rows "$E" | wc -l)" -eq 36

# 5. Mixtral's experts: _grouped_mm over the routed rows. Decode batch 1,
# top-2: 2 rows reach 2 of the 8 experts. gate_up [2, 4096] x [8, 4096, 28672]:
# FLOPs 2 x 2 x 28672 x 4096 = 469,762,048; bytes 2 B x (2 x 4096 + 2 x 28672
# + 2 experts x 4096 x 28672) = 131,072 + 469,762,048 = 469,893,120
M="$tmp/mixtral_8x7b_l2_decode_b1_c512_bf16.csv"
run classify --hw h200 -f csv "$M"
check "mixtral b1: gate_up grouped GEMM reads 2 experts: 469,893,120 B" \
	test "$(awk -F, '$1 ~ /^_grouped_mm#/ && $5 == 469762048 && $6 == 469893120' "$tmp/out" | wc -l)" -eq 2
# batch 64: 128 rows reach all 8: 2 B x (128 x 4096 + 128 x 28672 + 8 x 4096
# x 28672) = 8,388,608 + 1,879,048,192 = 1,887,436,800; FLOPs 2 x 128 x
# 28672 x 4096 = 30,064,771,072
M="$tmp/mixtral_8x7b_l2_decode_b64_c512_bf16.csv"
run classify --hw h200 -f csv "$M"
check "mixtral b64: gate_up grouped GEMM reads all 8 experts: 1,887,436,800 B" \
	test "$(awk -F, '$1 ~ /^_grouped_mm#/ && $5 == 30064771072 && $6 == 1887436800' "$tmp/out" | wc -l)" -eq 2

done_testing
