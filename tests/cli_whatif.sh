#!/bin/sh
# cli_whatif.sh - the what-if analyses of classify: the fuse column and
# --suggest-fusion (A100 SXM4 40GB: 1555 GB/s; eager runtime 6.6 us).
. "$top_srcdir/tests/lib.sh"

# x.cos().cos() through the fuse column: one kernel reading x and writing y,
# 2 x 2^28 x 4 B = 2147483648 B / 1555 GB/s = 1381.02 us, against
# 2 x 1381.02 = 2762.04 us for the two kernels of the unfused rows.
run classify -f csv --hw a100 "$DATA/fuse-cos-cos.csv"
check "fuse: exit 0" test "$rc" = 0
check "fuse: one row for the group, kind fused" test "$(csv_field "$tmp/out" cos_cos kind)" = fused
check "fuse: the members have no row" test "$(grep -c '^cos_' "$tmp/out")" = 1
check "fuse: bytes 2 x 2^28 x 4 = 2147483648" \
	test "$(csv_field "$tmp/out" cos_cos bytes)" = 2147483648
check "fuse: flops 2 x 2^28 = 536870912" test "$(csv_field "$tmp/out" cos_cos flops)" = 536870912
check "fuse: 1381.02 us, memory-bound" \
	test "$(csv_field "$tmp/out" cos_cos t_us),$(csv_field "$tmp/out" cos_cos bound)" = 1381.02,memory
check "fuse: one launch: t_overhead 6.6 us" test "$(csv_field "$tmp/out" cos_cos t_overhead_us)" = 6.6
check "fuse: ungrouped row unchanged" test "$(csv_field "$tmp/out" relu t_us)" = 1381.02
run classify -f csv --hw a100 "$EX/blog-cos-cos.csv"
u1=$(csv_field "$tmp/out" unfused.cos_1 t_us)
u2=$(csv_field "$tmp/out" unfused.cos_2 t_us)
check "fuse: the group is 2x faster than the unfused rows" \
	awk -v a="$u1" -v b="$u2" 'BEGIN { r = (a + b) / 1381.02; exit !(r > 1.999 && r < 2.001) }'

# table: the section on the groups, with the time saved: 2762.04 - 1381.02
run classify --hw a100 "$DATA/fuse-cos-cos.csv"
check "fuse table: total 1381.02 + 1381.02 = 2762.04 us" grep -q '^total: 2762.04 us predicted for 2 ops' "$tmp/out"
check "fuse table: section header" \
	grep -q "^fusion groups (column 'fuse'): 1, saving 1381.02 us of 4143.06 us unfused$" "$tmp/out"
check "fuse table: group line" \
	grep -Eq '^   1\. cos_cos +2 +1 +2762\.04 +1381\.02 +1381\.02$' "$tmp/out"
check "fuse table: within 80 columns" awk 'length > 80 { exit 1 }' "$tmp/out"

# errors: a count that differs inside a group; explicit bytes in a group
run classify -f csv --hw a100 "$DATA/fuse-bad.csv"
check "fuse count mismatch: exit 1" test "$rc" = 1
check "fuse count mismatch: nothing on stdout" test ! -s "$tmp/out"
check "fuse count mismatch: message with file and line" grep -qx \
	"roofline: $DATA/fuse-bad.csv:3: column 'fuse': count 12 differs from the group's 1 (a fused kernel runs its ops together)" "$tmp/err"
printf 'name,kind,dtype,shape,bytes,fuse\na,pointwise,fp32,1024,,g\nb,pointwise,fp32,1024,99,g\n' >"$tmp/b.csv"
run classify --hw a100 "$tmp/b.csv"
check "fuse explicit bytes: exit 1" test "$rc" = 1
check "fuse explicit bytes: message" grep -q \
	"b.csv:3: column 'fuse': 'b' cannot be fused: its bytes were given" "$tmp/err"

# --suggest-fusion on BERT-base (h100-sxm, eager): attn.out.add + attn.out.ln
# and ffn.add + ffn.ln are overhead-bound (6.6 us each), 12 times each;
# fused: one launch, 6.6 us: saves 12 x 6.6 = 79.2 us per pair, 158.4 us in
# all; predicted total 1425.66 - 158.40 = 1267.26 us.
run classify --suggest-fusion "$EX/bert-base.csv"
check "suggest: exit 0" test "$rc" = 0
check "suggest: header with the saving" \
	grep -q '^fusion suggestions: 2 runs, saving 158.40 us: 1267.26 us predicted fused$' "$tmp/out"
check "suggest: attn.out.add..attn.out.ln" \
	grep -Eq '^   1\. attn\.out\.add\.\.attn\.out\.ln +2 +12 +13\.20 +6\.60 +79\.20$' "$tmp/out"
check "suggest: ffn.add..ffn.ln" \
	grep -Eq '^   2\. ffn\.add\.\.ffn\.ln +2 +12 +13\.20 +6\.60 +79\.20$' "$tmp/out"
check "suggest: within 80 columns" awk 'length > 80 { exit 1 }' "$tmp/out"
# ffn.gelu is memory-bound but between two matmuls: no run of two
sed -n '/^fusion suggestions/,$p' "$tmp/out" >"$tmp/sug"
check "suggest: gelu alone is not proposed" test "$(grep -c gelu "$tmp/sug")" = 0
check "suggest: two proposals listed" test "$(grep -c '^ *[0-9]\. ' "$tmp/sug")" = 2
run classify --suggest-fusion -f csv "$EX/bert-base.csv"
check "suggest with csv: usage error" test "$rc" = 2

# the worked examples in the docs are real output
# docblock FILE RE: the first fenced block of FILE after a line matching RE
docblock() {
	awk -v re="$2" '
		$0 ~ re { armed = 1; next }
		armed && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$top_srcdir/$1"
}
docblock docs/oplist-format.md 'tests/data/fuse-cos-cos.csv. prints' >"$tmp/want"
"$ROOFLINE" classify --hw a100 "$DATA/fuse-cos-cos.csv" >"$tmp/got" 2>/dev/null
check "docs: the fusion example is real output" cmp -s "$tmp/want" "$tmp/got"

done_testing
