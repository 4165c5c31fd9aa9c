#!/bin/sh
# cli_oplist.sh - op list v1 gains of issue 13 (docs/oplist-format.md):
# kv_heads (grouped-query attention). Values worked out by hand.
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

done_testing
