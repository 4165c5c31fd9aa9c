#!/bin/sh
# cli_oplist.sh - op list v1 gains of issue 13 (docs/oplist-format.md):
# kv_heads (grouped-query attention); weight_dtype, kv_dtype, weight_group
# and the half-byte dtypes int4 and fp4; integer expressions in shape and
# count. Values worked out by hand.
. "$top_srcdir/tests/lib.sh"

# The GQA decode row of issue 13: batch 64, 32 query heads, 8 KV heads, one
# query over a 2048-token cache, head dim 128, bf16. Q = O = 64x32x1x128 =
# 262,144 elements, K = V = 64x8x2048x128 = 134,217,728 (x4 = 536,870,912
# without kv_heads). bytes = 2 x (2 x 262144 + 2 x 134217728) = 537,919,488;
# without: 2 x (2 x 262144 + 2 x 536870912) = 2,148,532,224. FLOPs are the
# same: 4 x 64 x 32 x 2048 x 128 = 2,147,483,648.
printf 'name,kind,dtype,shape,kv_heads\ngqa,attention,bf16,64x32x1x2048x128,8\nmha,attention,bf16,64x32x1x2048x128,\n' >"$tmp/gqa.csv"
run classify --hw h100-sxm --runtime graph --best-case -f csv "$tmp/gqa.csv"
check "kv_heads: exit 0" test "$rc" -eq 0
check "kv_heads 8: bytes 537919488" test "$(csv_field "$tmp/out" gqa bytes)" = 537919488
check "no kv_heads: bytes 2148532224" test "$(csv_field "$tmp/out" mha bytes)" = 2148532224
check "kv_heads: the same FLOPs" test "$(csv_field "$tmp/out" gqa flops)" = 2147483648
# the KV bytes (all but Q and O, 2 x 2 x 262144 = 1,048,576): 4x fewer
check "kv_heads: 4x fewer KV bytes" \
	test $(( (2148532224 - 1048576) / (537919488 - 1048576) )) -eq 4
# memory-bound on the H100 SXM (3350 GB/s): 537919488 / 3.35e12 = 160.573 us
check "kv_heads: t_memory 160.573 us" test "$(csv_field "$tmp/out" gqa t_memory_us)" = 160.573
check "no kv_heads: t_memory 641.353 us" test "$(csv_field "$tmp/out" mha t_memory_us)" = 641.353

printf 'name,kind,shape,kv_heads\na,attention,1x32x1x16x128,12\n' >"$tmp/kvbad.csv"
expect_error "kv_heads must divide the query heads" 1 \
	"^roofline: $tmp/kvbad.csv:2: column 'kv_heads': 12 does not divide the query heads 32$" \
	classify "$tmp/kvbad.csv"
printf 'name,kind,shape,kv_heads\na,matmul,8x8x8,2\n' >"$tmp/kvmm.csv"
expect_error "kv_heads on a matmul" 1 \
	"^roofline: $tmp/kvmm.csv:2: column 'kv_heads': only attention ops take it, not matmul$" \
	classify "$tmp/kvmm.csv"

# vector_bytes (issue 25): a pointwise stream of narrow accesses at the
# profile's mem.narrow, 0.418 of the H200's 4800 GB/s, against
# mem.elementwise's 0.9064: 33554432 bf16 elements, one input, 134217728
# bytes: 134217728 / (4.8e6 x 0.418) = 66.894 us and / (4.8e6 x 0.9064) =
# 30.849 us, each with the profile's latency_us of 1.245 (68.1398 and 32.0945)
printf 'name,kind,dtype,shape,vector_bytes\nnarrow,pointwise,bf16,33554432,4\nwide,pointwise,bf16,33554432,16\n' >"$tmp/vb.csv"
run classify --hw h200 -f csv "$tmp/vb.csv"
check "vector_bytes 4: mem.narrow" test "$(csv_field "$tmp/out" narrow expected_gpu_us)" = 68.1398
check "vector_bytes 16: mem.elementwise" test "$(csv_field "$tmp/out" wide expected_gpu_us)" = 32.0945
printf 'name,kind,shape,vector_bytes\na,matmul,8x8x8,4\n' >"$tmp/vbmm.csv"
expect_error "vector_bytes on a matmul" 1 \
	"^roofline: $tmp/vbmm.csv:2: column 'vector_bytes': only pointwise ops take it, not matmul$" \
	classify "$tmp/vbmm.csv"
printf 'name,kind,shape,vector_bytes\na,pointwise,8,0\n' >"$tmp/vb0.csv"
expect_error "vector_bytes 0" 1 "vb0.csv:2: column 'vector_bytes'" classify "$tmp/vb0.csv"

# The issue's quantised weight: 4096x4096 int4 under bf16 activations, one
# row, one fp16 scale per 128 weights. Weights 4096 x 4096 / 2 + 4096 x 4096
# / 128 x 2 = 8,388,608 + 262,144 = 8,650,752 bytes; A and C 8,192 each:
# 8,667,136. Without scales 8,404,992; all bf16 8,192 + 33,554,432 + 8,192.
# Dequantisation, one FLOP per weight on the bf16 vector pipe (133.8 / 2 =
# 66.9 TFLOPS for plain FLOPs): 16,777,216 / 66.9e12 = 0.250780 us, beside
# the tensor FLOPs 2 x 4096 x 4096 / 989.4e12 = 0.033914 us: 0.284694 us.
printf 'name,kind,dtype,shape,weight_dtype,weight_group\nq,matmul,bf16,1x4096x4096,int4,128\nq0,matmul,bf16,1x4096x4096,int4,\nb,matmul,bf16,1x4096x4096,,\n' >"$tmp/w4.csv"
run classify --hw h100-sxm --runtime graph --best-case -f csv "$tmp/w4.csv"
check "int4 group 128: bytes 8667136" test "$(csv_field "$tmp/out" q bytes)" = 8667136
check "int4 no group: bytes 8404992" test "$(csv_field "$tmp/out" q0 bytes)" = 8404992
check "bf16 weights: bytes 33570816" test "$(csv_field "$tmp/out" b bytes)" = 33570816
check "int4: FLOPs unchanged (33554432)" test "$(csv_field "$tmp/out" q flops)" = 33554432
check "int4: dequantisation on the vector pipe, t_compute 0.284694 us" \
	test "$(csv_field "$tmp/out" q t_compute_us)" = 0.284694
check "bf16 weights: no dequantisation, t_compute 0.0339139 us" \
	test "$(csv_field "$tmp/out" b t_compute_us)" = 0.0339139
check "int4: the bf16 tensor pipe still" test "$(csv_field "$tmp/out" q unit)" = tensor

# an fp8 KV cache for the GQA row: Q and O 2 x 2 x 262,144 = 1,048,576
# bytes, K and V 1 x 2 x 134,217,728 = 268,435,456: 269,484,032
printf 'name,kind,dtype,shape,kv_heads,kv_dtype\nkv8,attention,bf16,64x32x1x2048x128,8,fp8\n' >"$tmp/kv8.csv"
run classify --hw h100-sxm --best-case -f csv "$tmp/kv8.csv"
check "kv_dtype fp8: bytes 269484032" test "$(csv_field "$tmp/out" kv8 bytes)" = 269484032

printf 'name,kind,dtype,shape\na,matmul,fp4,8x8x8\n' >"$tmp/fp4.csv"
expect_error "fp4 is not an op's dtype" 1 \
	"^roofline: $tmp/fp4.csv:2: column 'dtype': fp4 stores weights and KV caches only" \
	classify "$tmp/fp4.csv"
printf 'name,kind,dtype,shape,weight_dtype,weight_group\na,matmul,bf16,1x4096x4000,int4,128\n' >"$tmp/grp.csv"
expect_error "weight_group must divide K" 1 \
	"^roofline: $tmp/grp.csv:2: column 'weight_group': 128 does not divide the K 4000" \
	classify "$tmp/grp.csv"
printf 'name,kind,shape,kv_dtype\na,pointwise,8,fp8\n' >"$tmp/kvpw.csv"
expect_error "kv_dtype on a pointwise row" 1 \
	"^roofline: $tmp/kvpw.csv:2: column 'kv_dtype': only attention and copy ops take it, not pointwise$" \
	classify "$tmp/kvpw.csv"

# Expressions: a ViT fc1 for B=2 images of 197 tokens, 12 layers. M = 2 x
# 197 = 394: FLOPs 2 x 394 x 3072 x 768 = 1,859,125,248; bytes 2 x (394 x
# 768 + 768 x 3072 + 394 x 3072) = 2 x 3,872,256 = 7,744,512; count L = 12.
printf 'name,kind,dtype,shape,count\nfc1,matmul,bf16,B*197x3072x768,L\nhalf,copy,fp32,(S+2)/2,2*L-1\n' >"$tmp/expr.csv"
run classify --set B=2,L=12,S=254 --best-case -f csv "$tmp/expr.csv"
check "expressions: exit 0" test "$rc" -eq 0
check "B*197: FLOPs 1859125248" test "$(csv_field "$tmp/out" fc1 flops)" = 1859125248
check "B*197: bytes 7744512" test "$(csv_field "$tmp/out" fc1 bytes)" = 7744512
check "count L: 12" test "$(csv_field "$tmp/out" fc1 count)" = 12
# (254 + 2) / 2 = 128 fp32 elements copied: 2 x 128 x 4 = 1024 bytes; 2 x 12 - 1
check "(S+2)/2: bytes 1024" test "$(csv_field "$tmp/out" half bytes)" = 1024
check "2*L-1: count 23" test "$(csv_field "$tmp/out" half count)" = 23
check "every name used: no warning" test ! -s "$tmp/err"
# --scale B=2 follows B*197 (proportional to B): M = 788, FLOPs x2
printf 'name,kind,dtype,shape\nfc1,matmul,bf16,B*197x3072x768\n' >"$tmp/expr-b.csv"
run classify --set B=2 --scale B=2 --best-case -f csv "$tmp/expr-b.csv"
check "--scale through B*197: exit 0" test "$rc" -eq 0
# M = 788: 2 x 788 x 3072 x 768 = 3,718,250,496 FLOPs over 2 x (788 x 768 +
# 768 x 3072 + 788 x 3072) = 10,770,432 bytes: 345.228 FLOP/B (240.057 at
# M = 394: 1,859,125,248 / 7,744,512)
check "--scale through B*197: intensity 240.057 -> 345.228" \
	test "$(csv_field "$tmp/out" fc1 intensity),$(csv_field "$tmp/out" fc1 intensity_scaled)" = 240.057,345.228
expect_error "--scale through (S+2)/2: refused, naming the dimension" 1 \
	"column|dimension 1 is an expression of names that --scale cannot follow" \
	classify --set B=2,L=12,S=254 --scale S=2 "$tmp/expr.csv"
printf 'name,kind,dtype,shape,count\na,copy,fp32,4,L\n' >"$tmp/unbound.csv"
expect_error "an unbound name in count is named" 1 \
	"^roofline: $tmp/unbound.csv:2: column 'count': .*name 'L' in count 'L' is not bound \(give its size with --set L=N\)$" \
	classify "$tmp/unbound.csv"
printf 'name,kind,dtype,shape\na,copy,fp32,S/3\n' >"$tmp/inexact.csv"
expect_error "an inexact division is named" 1 \
	"^roofline: $tmp/inexact.csv:2: column 'shape': shape 'S/3': 254 / 3 is not a whole number" \
	classify --set S=254 "$tmp/inexact.csv"

# embedding (issue 22's kind walk): GPT-2's token embedding, 8 x 1024
# tokens, rows of 768 bf16. 8192 rows of 1536 B read and written
# (2 x 12,582,912) and 8192 int64 indices read (65,536 B): 25,231,360
# bytes, no FLOPs, the vector pipe; on the H100 SXM (3350 GB/s)
# 25231360 / 3.35e12 = 7.53175 us. Its backward adds dy's rows into the
# table's gradient at the indices: the same bytes.
printf 'name,kind,dtype,shape\nwte,embedding,bf16,8x1024x768\n' >"$tmp/emb.csv"
run classify --hw h100-sxm --runtime graph --best-case -f csv "$tmp/emb.csv"
check "embedding: exit 0" test "$rc" -eq 0
check "embedding: bytes 25231360" test "$(csv_field "$tmp/out" wte bytes)" = 25231360
check "embedding: no FLOPs" test "$(csv_field "$tmp/out" wte flops)" = 0
check "embedding: vector unit" test "$(csv_field "$tmp/out" wte unit)" = vector
check "embedding: t_memory 7.53175 us" test "$(csv_field "$tmp/out" wte t_memory_us)" = 7.53175
run classify --hw h100-sxm --runtime graph --best-case --train -f csv "$tmp/emb.csv"
check "embedding backward: bytes 25231360" test "$(csv_field "$tmp/out" wte.bwd bytes)" = 25231360
printf 'name,kind,dtype,shape,perm\nwte,embedding,bf16,8x768,1x0\n' >"$tmp/embperm.csv"
expect_error "perm on an embedding" 1 \
	"^roofline: $tmp/embperm.csv:2: column 'perm': only copy ops take it, not embedding$" \
	classify "$tmp/embperm.csv"
printf 'name,kind,dtype,shape\nwte,embedding,bf16,50257\n' >"$tmp/emb1.csv"
expect_error "an embedding needs rows and their width" 1 \
	"shape: embedding expects indices x row width \(NxD, BxSxD\), got 1 dimension" \
	classify "$tmp/emb1.csv"
# model hands its ops to the pipeline without writing text (issue 22), and
# -f oplist writes them: classify of that list must be model's own result,
# row for row and warning for warning. Every example config: a decode step
# (encoders: prefill only), a prefill of 4 sequences, a training step (its
# forward list, which classify --train expands; also with other training
# options, given to classify) and one GPU of tensor parallel 2 with its
# all-reduces.
for c in "$EX"/*.json; do
	name=$(basename "$c" .json)
	case $name in
	bert-base | vit-b16) steps="prefill train sgd tp" ;;
	falcon-7b) steps="decode prefill train sgd" ;; # 71 heads: no --tp 2
	*) steps="decode prefill train sgd tp" ;;
	esac
	for s in $steps; do
		train=
		case $s in
		decode) opts="--batch 2 --context 1000" ;;
		prefill) opts="--phase prefill --batch 4" ;;
		train) opts="--train --batch 2" train=--train ;;
		sgd)
			opts="--train --optimizer sgd --recompute --grad-accum 2"
			train="--train --optimizer sgd --recompute --grad-accum 2"
			;;
		tp) opts="--phase prefill --tp 2" ;;
		esac
		# shellcheck disable=SC2086
		"$ROOFLINE" model --hw h100-sxm -f csv $opts "$c" >"$tmp/m.csv" 2>"$tmp/m.err"
		m=$?
		# shellcheck disable=SC2086
		"$ROOFLINE" model --hw h100-sxm -f oplist $opts "$c" >"$tmp/m.ops" 2>"$tmp/o.err" &&
			"$ROOFLINE" classify --hw h100-sxm -f csv $train "$tmp/m.ops" >"$tmp/c.csv" 2>"$tmp/c.err"
		o=$?
		check "$name $s: model and classify of its -f oplist exit 0" test "$m,$o" = 0,0
		check "$name $s: model -f csv = classify -f csv of model -f oplist" \
			cmp -s "$tmp/m.csv" "$tmp/c.csv"
		check "$name $s: the same warnings" cmp -s "$tmp/m.err" "$tmp/c.err"
		check "$name $s: a row per op of the list" \
			test "$(wc -l <"$tmp/m.csv")" -gt 10
	done
done
grep -q '^attn_allreduce,allreduce,' "$tmp/m.csv"
check "--tp 2: the list has its all-reduces" test $? -eq 0
run model -f oplist --train --batch 2 "$EX/gpt2.json"
check "--train -f oplist: exit 0" test "$rc" -eq 0
check "--train -f oplist: its comment says to classify it with --train" \
	test "$(head -n 1 "$tmp/out")" = "# roofline model $EX/gpt2.json: prefill, batch 2, seq 512; a training step's forward: classify it with --train (and the step's other training options)"
# the training forward: the lm_head on every token (2 x 512 rows) and the loss
check "--train -f oplist: lm_head over 1024 tokens, then the loss" \
	test "$(grep -E '^(lm_head|loss),' "$tmp/out" | cut -d, -f1,4 | tr '\n' ' ')" = "lm_head,1024x50257x768 loss,1024x50257 "

# layout (issue 24): a matmul's B as nn.Linear's [N, K] weight (linear) or
# as [K, N] (mm, the default); anything else, or on another kind, refused
printf 'name,kind,dtype,shape,layout\nlm,matmul,bf16,8x49155x4096,linaer\n' >"$tmp/lay.csv"
expect_error "layout: linear or mm" 1 \
	"lay.csv:2: column 'layout': 'linaer' is not linear \(B as nn.Linear's \[N, K\] weight\) or mm \(B as \[K, N\]\)" \
	classify "$tmp/lay.csv"
printf 'name,kind,dtype,shape,layout\nx,pointwise,bf16,8,linear\n' >"$tmp/lay.csv"
expect_error "layout on a pointwise row" 1 "lay.csv:2: column 'layout': only matmul ops take it, not pointwise" \
	classify "$tmp/lay.csv"
# the same unaligned GEMM (granite's lm_head at a prefill of 4096 tokens)
# under both layouts: the same tiles, at the profile's gemm.align2_linear
# against gemm.align2 (the latency and the epilogue alike)
cat >"$tmp/lay.csv" <<'CSV'
name,kind,dtype,shape,layout
lm,matmul,bf16,4096x49155x4096,linear
mm,matmul,bf16,4096x49155x4096,mm
plain,matmul,bf16,4096x49155x4096,
CSV
run classify "$tmp/lay.csv" --hw h200 -f csv
lin=$(csv_field "$tmp/out" lm expected_gpu_us) mm=$(csv_field "$tmp/out" mm expected_gpu_us)
a2=$(sed -n 's/^gemm.align2 *= *\([0-9.]*\).*/\1/p' "$top_srcdir/hwdb/h200-pytorch.efficiency")
a2l=$(sed -n 's/^gemm.align2_linear *= *\([0-9.]*\).*/\1/p' "$top_srcdir/hwdb/h200-pytorch.efficiency")
check "layout linear: $lin us against mm's $mm, as align2 $a2 to align2_linear $a2l (within 1 %)" \
	awk -v l="$lin" -v m="$mm" -v a="$a2" -v b="$a2l" 'BEGIN { d = (l / m) / (a / b) - 1; exit !(d < 0.01 && d > -0.01) }'
check "no layout is mm's" test "$(csv_field "$tmp/out" plain expected_gpu_us)" = "$mm"
# model writes it: GPT-2's lm_head is nn.Linear (tied to wte), its blocks
# HF's Conv1D (the weights [K, N], torch.addmm)
run model "$EX/gpt2.json" -f oplist
check "model -f oplist: GPT-2's lm_head linear, c_attn and c_fc not" \
	test "$(grep -E '^(c_attn|c_fc|lm_head),' "$tmp/out" | grep -c ',linear,')$(grep -c '^lm_head,.*,linear,' "$tmp/out")" = 11

# live_bytes: tensors alive beside the op's own, in the memory fit's peak:
# a pointwise fp32 op over 1e6 elements reads 4e6 and writes 4e6 bytes, and
# 1e6 more stay alive: 9e6 bytes of activations
printf 'name,kind,dtype,shape,inputs,live_bytes\nx,pointwise,fp32,1000000,1,1000000\n' >"$tmp/live.csv"
run classify "$tmp/live.csv" --hw h200 -f json
check "live_bytes: activations 4e6 + 4e6 + 1e6 bytes" test "$(python3 -c '
import json, sys; print(json.load(sys.stdin)["summary"]["memory"]["activation_bytes"])' <"$tmp/out")" = 9000000
printf 'name,kind,dtype,shape,inputs,live_bytes\nx,pointwise,fp32,1000000,1,-5\n' >"$tmp/live.csv"
expect_error "live_bytes: not negative" 1 "live.csv:2: column 'live_bytes': '-5' is negative" classify "$tmp/live.csv"

done_testing
