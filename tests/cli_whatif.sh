#!/bin/sh
# cli_whatif.sh - the what-if analyses of classify: the fuse column and
# --suggest-fusion (A100 SXM4 40GB: 1555 GB/s; eager runtime: 6.6 us by default,
# per kind in hwdb/eager.runtime: pointwise 6.9, layernorm 10.4, matmul 12.7,
# attention 18.8, copy 10.1; a fused group pays pointwise's 6.9).
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
check "fuse: one launch at pointwise's host cost: t_overhead 6.9 us" \
	test "$(csv_field "$tmp/out" cos_cos t_overhead_us)" = 6.9
check "fuse: ungrouped row unchanged" test "$(csv_field "$tmp/out" relu t_us)" = 1381.02
run classify -f csv --hw a100 "$EX/blog-cos-cos.csv"
u1=$(csv_field "$tmp/out" unfused.cos_1 t_us)
u2=$(csv_field "$tmp/out" unfused.cos_2 t_us)
check "fuse: the group is 2x faster than the unfused rows" \
	awk -v a="$u1" -v b="$u2" 'BEGIN { r = (a + b) / 1381.02; exit !(r > 1.999 && r < 2.001) }'

# table: the section on the groups, with the time saved: 2762.04 - 1381.02
# (roofline times: --best-case)
run classify --hw a100 --best-case "$DATA/fuse-cos-cos.csv"
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
# and ffn.add + ffn.ln are overhead-bound (add 6.9 us, ln 10.4 us: 17.3 us a
# pair), 12 times each; fused: one launch at pointwise's 6.9 us: saves
# 12 x 10.4 = 124.8 us per pair, 249.6 us in all.
# The total (roofline times, h100-sxm: 989.4 bf16 tensor TFLOPS, 3350 GB/s):
#   overhead-bound: 3 copies x 10.1 + 2 adds x 6.9 + emb.ln 10.4
#     + 48 matmuls (query, key, value, out.dense x 12) x 12.7 + 12 sdpa x 18.8
#     + 24 adds x 6.9 + 24 ln x 10.4 + pooler.dense 12.7 + pooler.tanh 6.9
#     = 30.3 + 13.8 + 10.4 + 609.6 + 225.6 + 165.6 + 249.6 + 12.7 + 6.9 = 1324.5
#   compute: ffn.up, ffn.down 24 x 2 x 4096 x 3072 x 768 / 989.4e12
#     = 24 x 19.5344 = 468.826
#   memory: ffn.gelu 12 x 4096 x 3072 x 2 x 2 B / 3350e9 = 12 x 15.0244 = 180.292
#   1324.5 + 468.826 + 180.292 = 1973.62 us; fused 1973.62 - 249.60 = 1724.02 us.
run classify --suggest-fusion --best-case "$EX/bert-base.csv"
check "suggest: exit 0" test "$rc" = 0
check "suggest: header with the saving" \
	grep -q '^fusion suggestions: 2 runs, saving 249.60 us: 1724.02 us predicted fused$' "$tmp/out"
check "suggest: attn.out.add..attn.out.ln" \
	grep -Eq '^   1\. attn\.out\.add\.\.attn\.out\.ln +2 +12 +17\.30 +6\.90 +124\.80$' "$tmp/out"
check "suggest: ffn.add..ffn.ln" \
	grep -Eq '^   2\. ffn\.add\.\.ffn\.ln +2 +12 +17\.30 +6\.90 +124\.80$' "$tmp/out"
check "suggest: within 80 columns" awk 'length > 80 { exit 1 }' "$tmp/out"
# ffn.gelu is memory-bound but between two matmuls: no run of two
sed -n '/^fusion suggestions/,$p' "$tmp/out" >"$tmp/sug"
check "suggest: gelu alone is not proposed" test "$(grep -c gelu "$tmp/sug")" = 0
check "suggest: two proposals listed" test "$(grep -c '^ *[0-9]\. ' "$tmp/sug")" = 2
run classify --suggest-fusion -f csv "$EX/bert-base.csv"
check "suggest with csv: usage error" test "$rc" = 2

# --set and --scale on one decoder layer (h100-sxm: 3350 GB/s, 989.4 bf16
# tensor TFLOPS; graph runtime: 0.05 us per launch, 0.50 us launch floor)
D="$DATA/decode-symbolic.csv"
run classify -f csv --set B=8,S=1024 --scale B=2 --runtime graph --best-case "$D"
check "scale: exit 0" test "$rc" = 0
# o_proj 8x4096x4096: bytes 2 (8 x 4096 + 4096^2 + 8 x 4096) = 33685504,
# 10.0554 us; at B = 16: 33816576 B, 10.0945 us: ratio 1.0039; intensity
# 268435456 / 33685504 = 7.96887 -> 536870912 / 33816576 = 15.876
check "scale: o_proj 10.0554 -> 10.0945 us" 	test "$(csv_field "$tmp/out" o_proj t_us),$(csv_field "$tmp/out" o_proj t_scaled_us)" = 10.0554,10.0945
check "scale: o_proj intensity 7.96887 -> 15.876" 	test "$(csv_field "$tmp/out" o_proj intensity),$(csv_field "$tmp/out" o_proj intensity_scaled)" = 7.96887,15.876
check "scale: o_proj: more reuse, not overhead" test "$(csv_field "$tmp/out" o_proj verdict)" = intensity
# attention 8x32x1x1024x128: bytes 2 x 8 x 32 (2 x 128 + 2 x 1024 x 128) =
# 134348800, 40.1041 us; doubles with B
check "scale: attention 40.1041 us, ratio 2" 	test "$(csv_field "$tmp/out" attention t_us),$(csv_field "$tmp/out" attention ratio)" = 40.1041,2
check "scale: attention is linear" test "$(csv_field "$tmp/out" attention verdict)" = linear
# rmsnorm 8x4096: 147456 B, 0.044 us: under the 0.50 us launch floor, at 16 too
check "scale: rmsnorm stays on the launch floor" 	test "$(csv_field "$tmp/out" rmsnorm t_us),$(csv_field "$tmp/out" rmsnorm t_scaled_us),$(csv_field "$tmp/out" rmsnorm verdict)" = 0.5,0.5,overhead
run classify --set B=8,S=1024 --scale B=2 --runtime graph "$D"
check "scale table: header names the factor" grep -qx 'scaled: B x2' "$tmp/out"
check "scale table: within 80 columns" awk 'length > 80 { exit 1 }' "$tmp/out"
check "scale table: the total line" grep -q '^total: .* us -> .* us with B x2: ratio ' "$tmp/out"
# eager (12.7 us per matmul launch), B = 1: the matmuls read 2 x 4096 x 12288 B of
# weights and more (>= 30 us), far above 12.7 us: their time stays flat because
# their intensity doubles, not because of overhead
run classify --set B=1,S=128 --scale B=2 --best-case "$D"
check "scale eager B=1: ratio 1.00" grep -q '^total: .* us with B x2: ratio 1.00$' "$tmp/out"
check "scale eager B=1: not from overhead" grep -q '^under 1.1, but not from overhead' "$tmp/out"
# a residual add and a layernorm of 32 x 768 bf16 (0.03 us of traffic): at
# 6.9 + 10.4 us of eager launches (pointwise, layernorm), doubling B costs
# nothing: 17.30 -> 17.30 us
printf 'name,kind,dtype,shape,inputs\nadd,pointwise,bf16,Bx768,2\nln,layernorm,bf16,Bx768,\n' >"$tmp/s.csv"
run classify --set B=32 --scale B=2 --best-case "$tmp/s.csv"
check "scale small: 17.30 -> 17.30 us" grep -q '^total: 17.30 us -> 17.30 us with B x2: ratio 1.00$' "$tmp/out"
check "scale small: overhead-bound" grep -q '^under 1.1: overhead-bound' "$tmp/out"

# errors: an unbound name names file, line, column and the name
run classify "$D"
check "unbound: exit 1" test "$rc" = 1
check "unbound: file, line, column, name" grep -qx 	"roofline: $D:5: column 'shape': name 'B' in shape 'Bx4096' is not bound (give its size with --set B=N)" "$tmp/err"
run classify --set B=8 "$D"
check "unbound S: named" grep -q "$D:7: column 'shape': name 'S' in shape 'Bx32x1xSx128' is not bound" "$tmp/err"
run classify --set B=8,S=4 --scale Q=2 "$D"
check "scale of an unbound name: usage error" test "$rc" = 2
check "scale of an unbound name: message" grep -q "^roofline: --scale: Q is not bound" "$tmp/err"
run classify --set B=0 "$D"
check "--set B=0: usage error" test "$rc" = 2
run classify --set B=8,S=4 --scale B=2 -f json "$D"
check "--scale with json: usage error" test "$rc" = 2
# 2^51 x 4096 = 2^63 elements fit; twice that does not
printf 'name,kind,dtype,shape\np,pointwise,fp32,Bx4096\n' >"$tmp/o.csv"
run classify --set B=2251799813685248 --scale B=2 "$tmp/o.csv"
check "scaled size overflows: exit 1" test "$rc" = 1
check "scaled size overflows: located" grep -qx \
	"roofline: $tmp/o.csv:2: at B x2: shape: the tensor has more than 2^64 elements" "$tmp/err"

# the worked examples in the docs are real output
# docblock FILE RE: the first fenced block of FILE after a line matching RE
docblock() {
	awk -v re="$2" '
		$0 ~ re { armed = 1; next }
		armed && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$top_srcdir/$1"
}
docblock docs/oplist-format.md 'tests/data/fuse-cos-cos.csv. prints' >"$tmp/want"
"$ROOFLINE" classify --hw a100 --best-case "$DATA/fuse-cos-cos.csv" >"$tmp/got" 2>/dev/null
check "docs: the fusion example is real output" cmp -s "$tmp/want" "$tmp/got"

docblock docs/oplist-format.md 'scale B=2 --runtime graph tests/data/decode-symbolic.csv. prints' >"$tmp/want"
"$ROOFLINE" classify --best-case --set B=8,S=1024 --scale B=2 --runtime graph "$D" >"$tmp/got" 2>/dev/null
check "docs: the scaling example is real output" cmp -s "$tmp/want" "$tmp/got"
docblock README.md 'examples/bert-base.csv. ends with' >"$tmp/want"
"$ROOFLINE" classify --suggest-fusion --best-case "$EX/bert-base.csv" 2>/dev/null | sed -n '/^fusion suggestions/,$p' >"$tmp/got"
check "README: the fusion suggestions are real output" cmp -s "$tmp/want" "$tmp/got"


# a group of one op, md: "1 op" (2^28 x 8 B / 1555 GB/s = 1381.02 us, fused or not)
printf 'name,kind,dtype,shape,inputs,flops_per_element,fuse\nr,pointwise,fp32,268435456,1,1,solo\n' >"$tmp/solo.csv"
run classify --hw a100 --best-case -f md "$tmp/solo.csv"
check "fuse md: a group of one op says '1 op'" \
	grep -qx -- '- `solo`: 1 op, count 1: 1381.02 us unfused, 1381.02 us fused, saves 0.00 us' "$tmp/out"

done_testing
