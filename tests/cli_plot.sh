#!/bin/sh
# cli_plot.sh - "roofline plot" and "classify --svg": well-formed SVG that a
# real renderer draws at the expected size, points and colours worked out by
# hand, output files whole or not at all, bad input, and the committed charts.
. "$top_srcdir/tests/lib.sh"

# well_formed FILE: parses as XML with every checker this machine has
# (xmllint, python3's minidom); passes vacuously with neither.
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>/dev/null || return 1
	fi
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1" \
			2>/dev/null || return 1
	fi
	return 0
}
# png_size FILE: "WIDTHxHEIGHT" from the PNG's IHDR chunk (bytes 16-23).
png_size() {
	od -An -tu1 -j16 -N8 "$1" |
		awk '{ printf "%dx%d\n", $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
		                        $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}
have_rsvg=0
command -v rsvg-convert >/dev/null 2>&1 && have_rsvg=1

# every example, both charts: exit 0, well-formed, rendered at the canvas size
for f in "$EX"/*.csv; do
	b=$(basename "$f" .csv)
	names=$(sed -n 's/^# --set //p' "$f" | head -n 1)
	set -- ${names:+--set "$names"}
	run plot "$@" -o "$tmp/$b.svg" "$f"
	check "$b: plot exits 0, nothing on stdout" test "$rc" -eq 0 -a ! -s "$tmp/out"
	check "$b: roofline chart is well-formed XML" well_formed "$tmp/$b.svg"
	run plot "$@" --sweep -o "$tmp/$b-sweep.svg" "$f"
	check "$b: sweep chart is well-formed XML" well_formed "$tmp/$b-sweep.svg"
	if [ "$have_rsvg" -eq 1 ]; then
		rsvg-convert -o "$tmp/$b.png" "$tmp/$b.svg" 2>"$tmp/rsvg.err"
		check "$b: rsvg-convert renders the roofline chart at 960x600" \
			test "$(png_size "$tmp/$b.png")" = 960x600 -a ! -s "$tmp/rsvg.err"
		rsvg-convert -o "$tmp/$b-sweep.png" "$tmp/$b-sweep.svg" 2>"$tmp/rsvg.err"
		check "$b: rsvg-convert renders the sweep chart at 960x760" \
			test "$(png_size "$tmp/$b-sweep.png")" = 960x760 -a ! -s "$tmp/rsvg.err"
	else
		ok "# SKIP $b: rsvg-convert not installed"
		ok "# SKIP $b: rsvg-convert not installed"
	fi
done

# BERT-base: 20 rows, 3 of them copies (emb.word, emb.token_type,
# emb.position: no FLOPs, no point): 17 points with a tooltip. On the H100 the
# roofs used are bf16 tensor (matmuls, attention) and bf16 vector without FMA
# (pointwise, layernorm, 133.8 / 2 = 66.9); ridges 989.4e12 / 3350e9 = 295
# and 66.9e12 / 3350e9 = 20.
run plot "$EX/bert-base.csv"
check "plot writes the chart to stdout without -o" well_formed "$tmp/out"
got=$(grep -c '<circle[^>]*fill-opacity="0.55"[^>]*><title>' "$tmp/out")
check "bert-base: 17 op points (20 rows less 3 copies), got $got" test "$got" -eq 17
check "bert-base: bf16 tensor roof" grep -q '>bf16 tensor 989.4 TFLOP/s<' "$tmp/out"
check "bert-base: bf16 vector non-FMA roof" grep -q '>bf16 vector, no FMA 66.9 TFLOP/s<' "$tmp/out"
check "bert-base: ridges at 295 and 20" sh -c "grep -q '>ridge 295<' '$tmp/out' && grep -q '>ridge 20<' '$tmp/out'"
check "bert-base: exactly two pipe roofs" test "$(grep -c '>ridge [0-9]' "$tmp/out")" -eq 2
check "bert-base: title names device and runtime" \
	grep -q 'Roofline: NVIDIA H100 SXM5 80GB (h100-sxm), eager runtime</text>' "$tmp/out"
check "bert-base: decade ticks in FLOP/B and FLOP/s" \
	sh -c "grep -q '>0.1</text>' '$tmp/out' && grep -q '>1 TFLOP/s</text>' '$tmp/out' && grep -q '>100 GFLOP/s</text>' '$tmp/out'"
# the three copies have no point on the log axes: the legend counts them
check "bert-base: the three copies are in the legend" \
	grep -q '>3 copies (no FLOPs): not<' "$tmp/out"

# The blog's sweep on the A100: non-FMA ridge 9.75e12 / 1555e9 = 6.27 FLOP/B,
# intensity r / 8, so r = 64 .. 1024 (5 ops) are compute-bound: 5 red points
# in each of the 3 panels; the x ticks are the repeat counts.
run plot --sweep --hw a100 --best-case "$EX/blog-repeat-multiply.csv"
got=$(grep -c '<circle[^>]*r="4.5" fill="#d62728"' "$tmp/out")
check "sweep: 15 compute-bound points (5 ops x 3 panels), got $got" test "$got" -eq 15
got=$(grep -c '<circle[^>]*r="4.5" fill="#1f77b4"' "$tmp/out")
check "sweep: 18 memory-bound points (6 ops x 3 panels), got $got" test "$got" -eq 18
check "sweep: x is flops_per_element" grep -q '>FLOPs per element (the flops_per_element column)<' "$tmp/out"
check "sweep: a tick at 1024 in each panel" \
	test "$(grep -c 'text-anchor="middle">1024</text>' "$tmp/out")" -eq 3
check "sweep: the A100's fp32 non-FMA roof and bandwidth" \
	sh -c "grep -q 'fp32 vector, no FMA 9.75 TFLOP/s' '$tmp/out' && grep -q 'memory 1.555 TB/s' '$tmp/out'"
# without flops_per_element on every row, x is the op's position
run plot --sweep "$EX/bert-base.csv"
check "sweep without flops_per_element: x is the position" grep -q '>op, in file order<' "$tmp/out"
# ... and the key names the ops: the list's first and last rows, 20 in all
check "sweep by position: the key names op 1, emb.word" \
	grep -q '<tspan fill="#555555">1</tspan> emb.word</text>' "$tmp/out"
check "sweep by position: the key names op 20, pooler.tanh" \
	grep -q '<tspan fill="#555555">20</tspan> pooler.tanh</text>' "$tmp/out"
check "sweep by position: one key line per op" \
	test "$(grep -c '<tspan fill="#555555">' "$tmp/out")" -eq 20

# An overhead-bound op is drawn where the overhead puts it, not on the roof:
# fp32 pointwise over 1024 elements (1024 FLOPs, 8192 bytes, 0.125 FLOP/B)
# with 10 us of host overhead achieves 1024 / 10 us = 102.4 MFLOP/s; its roof
# is 0.125 x 3350e9 = 418.8 GFLOP/s. Axes with the 4096^3 matmul: y from 1e8
# to 2.5 x 989.4e12 over 450 px, so y = 520 - log10(1.024) / 7.39331 x 450
# = 519.4 (the roof would be at 299.5); x from 0.1 to 1e5 over 640 px:
# 110 + log10(1.25) x 640 / 6 = 120.3.
printf 'name,kind,dtype,shape\nmm,matmul,bf16,4096x4096x4096\npw,pointwise,fp32,1024\n' \
	>"$tmp/ovh.csv"
run plot --hw h100-sxm --host-overhead-us 10 --best-case "$tmp/ovh.csv"
check "overhead-bound op: drawn at its predicted FLOP/s, below the roof" \
	grep -q '<circle cx="120.3" cy="519.4" r="[0-9.]*" fill="#8c6d31"' "$tmp/out"
check "overhead-bound op: tooltip gives predicted and roof" \
	grep -q 'pw: 0.125 FLOP/B, 102.4 MFLOP/s predicted (roof 418.8 GFLOP/s)' "$tmp/out"

# Lists without FLOPs (issue 11: the sweep's tick loop never ended, and -o
# grew a temporary file without bound): each run is held to 10 s and 1 MiB
# of file, so a regression fails instead of hanging.
run_bounded() {
	(ulimit -f 2048; timeout 10 "$ROOFLINE" "$@" >"$tmp/out" 2>"$tmp/err")
	rc=$?
}
printf 'name,kind,dtype,shape\n' >"$tmp/header.csv"
printf 'name,kind,dtype,shape\ncp1,copy,bf16,4096x4096\ncp2,copy,fp32,1024\n' >"$tmp/copies.csv"
for mode in --sweep --hw=h100-sxm; do
	run_bounded plot "$mode" -o "$tmp/h.svg" "$tmp/header.csv"
	check "header only, plot $mode: exit 1 in time" test "$rc" -eq 1
	check "header only, plot $mode: says there is nothing to plot" \
		grep -q "^roofline: $tmp/header.csv: no ops to plot\$" "$tmp/err"
	check "header only, plot $mode: no file, no temporary left" \
		test ! -e "$tmp/h.svg" -a "$(ls "$tmp" | grep -c 'h.svg.tmp')" -eq 0
done
run_bounded plot --sweep "$tmp/header.csv"
check "header only, to stdout: exit 1, nothing written" test "$rc" -eq 1 -a ! -s "$tmp/out"
run_bounded plot --sweep -o "$tmp/copies.svg" "$tmp/copies.csv"
check "copies only, --sweep: exit 0 in time" test "$rc" -eq 0
check "copies only, --sweep: well-formed" well_formed "$tmp/copies.svg"
check "copies only, --sweep: the FLOP/s panel says why it is empty" \
	grep -q '>no op with FLOPs to plot: 2 copies (no FLOPs)<' "$tmp/copies.svg"
check "copies only, --sweep: no inf or nan drawn" sh -c "! grep -qi 'nan\|inf' '$tmp/copies.svg'"
run_bounded plot -o "$tmp/copies.svg" "$tmp/copies.csv"
check "copies only, roofline: exit 0, the copies in the legend" \
	sh -c "[ $rc -eq 0 ] && grep -q '>2 copies (no FLOPs): not<' '$tmp/copies.svg'"

# measured_us: the measured point, joined to the roofline point. gemm 4096^3
# bf16 = 137.44 GFLOP in 200 us = 687.2 TFLOP/s.
run plot "$DATA/measured.csv"
check "measured: one measured ring" \
	test "$(grep -c '<circle[^>]*r="3.5" fill="#ffffff" stroke="#d62728"' "$tmp/out")" -eq 1
check "measured: the tooltip gives 687.2 TFLOP/s" grep -q 'measured 200 us, 687.2 TFLOP/s' "$tmp/out"
check "measured: legend entry" grep -q '>measured</text>' "$tmp/out"

# names are escaped
printf 'name,kind,dtype,shape\n"<b>&amp; ""q"" \047s",matmul,bf16,4096x4096x4096\n' >"$tmp/esc.csv"
run plot -o "$tmp/esc.svg" "$tmp/esc.csv"
check "a name with markup: well-formed" well_formed "$tmp/esc.svg"
check "a name with markup: escaped" grep -q '&lt;b&gt;&amp;amp; &quot;q&quot; &apos;s' "$tmp/esc.svg"

# classify --svg: the table as usual, and the same chart as plot
run classify --svg "$tmp/c.svg" "$EX/bert-base.csv"
check "classify --svg: exit 0, the table on stdout" \
	sh -c "[ $rc -eq 0 ] && head -n 1 '$tmp/out' | grep -q '^NVIDIA H100'"
"$ROOFLINE" plot -o "$tmp/p.svg" "$EX/bert-base.csv"
check "classify --svg draws what plot draws" cmp -s "$tmp/c.svg" "$tmp/p.svg"
check "classify --svg leaves no temporary file" test "$(ls "$tmp" | grep -c 'c.svg.tmp')" -eq 0

# output whole or not at all
echo keep >"$tmp/old.svg"
printf 'name,kind,dtype,shape\nx,matmul,fp9,8x8x8\n' >"$tmp/bad.csv"
run plot -o "$tmp/old.svg" "$tmp/bad.csv"
check "bad row: exit 1" test "$rc" -eq 1
check "bad row: the error names file, line and column" \
	grep -q "bad.csv:2: column 'dtype': unknown dtype 'fp9'" "$tmp/err"
check "bad row: -o file left as it was" test "$(cat "$tmp/old.svg")" = keep
check "bad row: no temporary file left" test "$(ls "$tmp" | grep -c 'old.svg.tmp')" -eq 0
run plot "$tmp/bad.csv"
check "bad row: nothing on stdout" test "$rc" -eq 1 -a ! -s "$tmp/out"
run classify --svg "$tmp/new.svg" -o "$tmp/new.txt" "$tmp/bad.csv"
check "classify --svg on bad input creates neither file" \
	test "$rc" -eq 1 -a ! -e "$tmp/new.svg" -a ! -e "$tmp/new.txt"
run plot -o "$tmp/nodir/x.svg" "$EX/bert-base.csv"
check "unwritable -o: exit 1" test "$rc" -eq 1 -a ! -e "$tmp/nodir"

# bad invocations
run plot "$tmp/missing.csv"
check "missing op list: exit 1" test "$rc" -eq 1 -a -s "$tmp/err" -a ! -s "$tmp/out"
run plot
check "no op list: usage error" test "$rc" -eq 2
run plot --bogus "$EX/bert-base.csv"
check "unknown option: usage error" test "$rc" -eq 2
run plot --hw nosuchgpu "$EX/bert-base.csv"
check "unknown device: exit 1" test "$rc" -eq 1 -a ! -s "$tmp/out"
run plot --host-overhead-us -1 "$EX/bert-base.csv"
check "negative host overhead: usage error" test "$rc" -eq 2
run plot a.csv b.csv
check "two op lists: usage error" test "$rc" -eq 2

# the charts committed under docs/img are what the program draws today
"$ROOFLINE" plot --hw h100-sxm -o "$tmp/doc.svg" "$EX/bert-base.csv"
check "docs/img/roofline-bert-h100.svg is current" \
	cmp -s "$tmp/doc.svg" "$top_srcdir/docs/img/roofline-bert-h100.svg"
"$ROOFLINE" plot --sweep --hw a100 -o "$tmp/doc.svg" "$EX/blog-repeat-multiply.csv"
check "docs/img/sweep-repeat-multiply-a100.svg is current" \
	cmp -s "$tmp/doc.svg" "$top_srcdir/docs/img/sweep-repeat-multiply-a100.svg"

# names in shapes are bound with --set, as in classify
run plot "$DATA/decode-symbolic.csv" -o "$tmp/sym.svg"
check "plot: an unbound name is an error" test "$rc" -eq 1 -a ! -e "$tmp/sym.svg"
run plot --set B=8,S=1024 "$DATA/decode-symbolic.csv" -o "$tmp/sym.svg"
check "plot --set binds the names" test "$rc" -eq 0 -a -s "$tmp/sym.svg"

done_testing
