#!/bin/sh
# cli_l2.sh - "roofline classify" L2 residency: the l2_resident flag in every
# format, and --l2 against l2_bandwidth_gbs (docs/oplist-format.md, "L2
# residency"). Expected values are worked out by hand in the comments.
. "$top_srcdir/tests/lib.sh"

MLP="$DATA/l2-mlp.csv"

# H200: 60 MiB L2 = 62914560 B, 9918.5 GB/s; memory 4800 GB/s.
# ln: the first op. up: reads 4 MiB (ln's output) + 8 MiB of weight, writes
# 16 MiB: 28 MiB + 4 MiB fits. gelu: reads 16 MiB (up's output), writes 16:
# 32 + 16 = 48 MiB fits. down: reads 16 + 8 MiB, writes 4: 28 + 16 fits.
# residual: reads 2 x 4 MiB, writes 4: 12 + 4 fits.
run classify --hw h200 --runtime graph -f csv "$MLP"
check "csv: exit 0" test "$rc" -eq 0
check "csv: l2_resident is the last column before the expected times" \
	test "$(head -n 1 "$tmp/out" | awk -F, '{ print $(NF - 3) }')" = l2_resident
for want in ln:0 up:1 gelu:1 down:1 residual:1; do
	check "csv: ${want%:*} l2_resident ${want#*:}" \
		test "$(csv_field "$tmp/out" "${want%:*}" l2_resident)" = "${want#*:}"
done
# without --l2 the times stay at memory bandwidth: gelu 32 MiB / 4.8e12
check "without --l2 gelu takes 33554432 / 4.8e12 = 6.99051 us" \
	test "$(csv_field "$tmp/out" gelu t_us)" = 6.99051

# --l2: t_memory = max(bytes / 9918.5e9, (bytes - previous output) / 4.8e12)
# gelu: max(33554432 / 9918.5e9 = 3.38302, 16777216 / 4.8e12 = 3.49525) us
# residual: max(12582912 / 9918.5e9 = 1.26863, 8388608 / 4.8e12 = 1.74763) us
run classify --hw h200 --runtime graph --l2 -f csv "$MLP"
check "--l2: gelu 3.49525 us" test "$(csv_field "$tmp/out" gelu t_us)" = 3.49525
check "--l2: residual 1.74763 us" test "$(csv_field "$tmp/out" residual t_us)" = 1.74763
check "--l2: ln (not resident) keeps 8392704 / 4.8e12 = 1.74848 us" \
	test "$(csv_field "$tmp/out" ln t_us)" = 1.74848
check "--l2: up stays compute-bound" test "$(csv_field "$tmp/out" up bound)" = compute
check "--l2 csv: no warning" test ! -s "$tmp/err"

# saved: (6.990507 - 3.495253) + (2.621440 - 1.747627) = 4.369067 us; the
# matmuls are compute-bound either way
run classify --hw h200 --runtime graph --l2 -f json "$MLP"
check "json: gelu l2_resident true, 16 MiB from the L2" \
	grep -q '"name":"gelu",[^}]*"l2_resident":true,"l2_bytes":16777216,' "$tmp/out"
check "json: ln l2_resident false" grep -q '"name":"ln",[^}]*"l2_resident":false,' "$tmp/out"
check "json: summary counts 4 resident ops" grep -q '"l2_resident_ops":4,' "$tmp/out"
check "json: summary saves 4.36907 us" grep -q '"l2_saved_us":4.36907,' "$tmp/out"
check "json: the device's L2 bandwidth" grep -q '"l2_bandwidth_gbs":9918.5' "$tmp/out"

run classify --hw h200 --runtime graph --l2 --best-case "$MLP"
check "table: gelu marked" grep -q '^gelu^  *pointwise ' "$tmp/out"
check "table: ln not marked" grep -q '^ln  *layernorm ' "$tmp/out"
check "table: footnote with the count and the time saved" \
	grep -q '^\^ L2-resident (4 ops): .*' "$tmp/out"
check "table: 4.37 us saved" grep -q '4.37 us saved' "$tmp/out"
check "table: total 46.09 - 4.37 = 41.72 us" grep -q '^total: 41.72 us' "$tmp/out"
check "table fits 80 columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out"
run classify --hw h200 --runtime graph --best-case "$MLP"
check "table without --l2: flagged, total 46.09 us" \
	test "$(grep -c '^total: 46.09 us' "$tmp/out")" -eq 1 -a "$(grep -c '^[a-z][a-z]*^ ' "$tmp/out")" -eq 4
check "table without --l2: the footnote points to --l2" grep -q -- '--l2 reads it from the L2' "$tmp/out"
run classify --hw h200 --runtime graph -f md "$MLP"
check "md: gelu marked" grep -q '^| gelu^ | pointwise |' "$tmp/out"

# the timeline plays the --l2 times: the GPU is busy 46.09 - 4.37 = 41.72 us
run classify --hw h200 --runtime graph --l2 --timeline --best-case "$MLP"
check "--timeline with --l2: 41.72 us of GPU time" grep -q '^graph  .*  41\.72  ' "$tmp/out"

# a device without l2_bandwidth_gbs: flagged, predicted from memory, with a
# note (H100 SXM: gelu 33554432 / 3.35e12 = 10.0162 us either way)
run classify --hw h100-sxm --l2 -f csv "$MLP"
check "no L2 bandwidth: still flagged" test "$(csv_field "$tmp/out" gelu l2_resident)" = 1
check "no L2 bandwidth: memory time unchanged" test "$(csv_field "$tmp/out" gelu t_us)" = 10.0162
check "no L2 bandwidth: a warning on stderr" grep -q "h100-sxm has no l2_bandwidth_gbs" "$tmp/err"
run classify --hw h100-sxm --l2 "$MLP"
check "no L2 bandwidth: the footnote says so" grep -q "no l2_bandwidth_gbs" "$tmp/out"

# 1 GiB tensors (2^28 fp32) never fit; the first op never follows anything
run classify --hw h200 -f csv "$EX/blog-repeat-multiply.csv"
check "1 GiB tensors: nothing resident" \
	test "$(awk -F, 'NR > 1 && $(NF - 3) != 0' "$tmp/out" | wc -l)" -eq 0
run classify --hw h200 --l2 "$EX/blog-repeat-multiply.csv"
check "--l2 with nothing resident says so" grep -q '^--l2: no op is L2-resident (60 MiB L2)$' "$tmp/out"

# rows repeated 12 times are never resident; count 1 rows are: bert-base's
# emb.add_type reads 2 x 6 MiB, 6 MiB of them emb.token_type's output, and
# pooler.tanh the 48 KiB pooler.dense wrote (h100-sxm: 50 MiB L2)
run classify -f csv "$EX/bert-base.csv"
check "count 12: ffn.gelu not resident" test "$(csv_field "$tmp/out" ffn.gelu l2_resident)" = 0
check "count 12: attn.out.add not resident" test "$(csv_field "$tmp/out" attn.out.add l2_resident)" = 0
check "count 1: emb.add_type resident" test "$(csv_field "$tmp/out" emb.add_type l2_resident)" = 1
check "count 1: pooler.tanh resident" test "$(csv_field "$tmp/out" pooler.tanh l2_resident)" = 1
check "emb.word is the first op" test "$(csv_field "$tmp/out" emb.word l2_resident)" = 0
check "emb.ln follows emb.add_pos, whose bytes are given (output unknown)" \
	test "$(csv_field "$tmp/out" emb.ln l2_resident)" = 0

# after a fused group: g (b, c) writes c's 1 MiB, d reads it and 1 MiB more
printf 'name,kind,shape,inputs,fuse\na,pointwise,262144,,\nb,pointwise,262144,,g\nc,pointwise,262144,,g\nd,pointwise,262144,2,\n' >"$tmp/fused.csv"
run classify --hw h200 -f json "$tmp/fused.csv"
check "fused group after a: resident" grep -q '"name":"g","kind":"fused",[^}]*"l2_resident":true,"l2_bytes":1048576,' "$tmp/out"
check "after the fused group: resident" grep -q '"name":"d",[^}]*"l2_resident":true,"l2_bytes":1048576,' "$tmp/out"

# the worked example of docs/oplist-format.md is real output
awk '/tests\/data\/l2-mlp.csv. *$/ { armed = 1; next }
	armed && /^```/ { if (inside) exit; inside = 1; next }
	inside { print }' "$top_srcdir/docs/oplist-format.md" >"$tmp/want"
"$ROOFLINE" classify --hw h200 --runtime graph --l2 --best-case "$MLP" >"$tmp/got" 2>/dev/null
check "docs: the L2 example is real output" cmp -s "$tmp/want" "$tmp/got"

run classify --l2 --scale B=2 --set B=8,S=1024 "$DATA/decode-symbolic.csv"
check "--l2 with --scale: usage error" test "$rc" -eq 2 -a ! -s "$tmp/out"

done_testing
