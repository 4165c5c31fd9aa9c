#!/bin/sh
# cli_expected.sh - the output of expected times (issue 12): the table, the
# totals, the errors against measured times and the recoverable time show
# the csv's expected_* columns, and --best-case the roofline's. The expected
# model itself is tested elsewhere: every value here is computed by the test
# from the program's csv (awk), so the relations hold whatever the model
# predicts.
. "$top_srcdir/tests/lib.sh"

M="$DATA/expected-measured.csv"
B="$EX/bert-base.csv"
T="$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz"

# col FILE NAME: the column number of NAME in the csv FILE's header
col() { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

# quantile Q: the Q quantile of the numbers on stdin, linear between order
# statistics, as "12.3 %" (the value x 100)
quantile() {
	sort -g | awk -v q="$1" '{ a[NR - 1] = $1 }
		END { h = (NR - 1) * q; lo = int(h)
		      v = lo + 1 < NR ? a[lo] + (h - lo) * (a[lo + 1] - a[lo]) : a[lo]
		      printf "%.1f %%\n", v * 100 }'
}

# --- the table shows the expected time and bound -------------------------
run classify --hw h200 -f csv "$B"
cp "$tmp/out" "$tmp/b.csv"
run classify --hw h200 "$B"
cp "$tmp/out" "$tmp/b.txt"
check "table: the columns say expected" grep -q '^name  *kind  *dtype  *count  *FLOP/B  *exp_us exp_bound TFLOP/s$' "$tmp/b.txt"
# each row's exp_us is the csv's expected_us to 2 decimals, its exp_bound the
# csv's expected_bound, marked with * where the csv's bound differs
e=$(col "$tmp/b.csv" expected_us) eb=$(col "$tmp/b.csv" expected_bound) rb=$(col "$tmp/b.csv" bound)
awk -F, -v e="$e" -v eb="$eb" -v rb="$rb" 'NR > 1 && length($1) < 18 {
	printf "%s %.2f %s%s\n", $1, $e, $eb, $eb != $rb ? "*" : "" }' "$tmp/b.csv" | sort >"$tmp/want"
awk '/^name / { on = 1; next } on && NF == 0 { exit } on { sub(/\^$/, "", $1); print $1, $6, $7 }' "$tmp/b.txt" | sort >"$tmp/got"
check "table: exp_us and exp_bound are the csv's expected_us and expected_bound" \
	cmp -s "$tmp/want" "$tmp/got"
check "table: rows compared" test "$(wc -l <"$tmp/got")" -ge 15
ndiff=$(awk -F, -v eb="$eb" -v rb="$rb" 'NR > 1 && $eb != $rb' "$tmp/b.csv" | wc -l)
if [ "$ndiff" -gt 0 ]; then
	check "table: the marked rows' footnote" grep -qx '\* the roofline bound differs (--best-case shows it)' "$tmp/b.txt"
else
	check "table: no row marked, no footnote" test "$(grep -c 'roofline bound differs' "$tmp/b.txt")" -eq 0
fi

# the total is the sum of count x expected_us, the roofline's beside it
c=$(col "$tmp/b.csv" count) t=$(col "$tmp/b.csv" t_us)
want=$(awk -F, -v c="$c" -v e="$e" 'NR > 1 { s += $c * $e } END { printf "%.1f", s }' "$tmp/b.csv")
got=$(sed -n 's/^total: \([0-9.]*\) us expected for 20 ops (152 occurrences), .*/\1/p' "$tmp/b.txt")
check "total: sum of count x expected_us = $want us" \
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(b != "" && (a - b) ^ 2 < 0.01) }'
want=$(awk -F, -v c="$c" -v t="$t" 'NR > 1 { s += $c * $t } END { printf "%.1f", s }' "$tmp/b.csv")
got=$(sed -n 's/^  roofline bound: \([0-9.]*\) us (--best-case)$/\1/p' "$tmp/b.txt")
check "total: the roofline's sum of count x t_us = $want us beside it" \
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(b != "" && (a - b) ^ 2 < 0.01) }'
# the shares are by expected bound: memory's is its rows' count x expected_us
want=$(awk -F, -v c="$c" -v e="$e" -v eb="$eb" 'NR > 1 { s += $c * $e; if ($eb == "memory") m += $c * $e }
	END { printf "%.1f", 100 * m / s }' "$tmp/b.csv")
check "time by expected bound: memory $want %" grep -Eq "^  memory +$want %" "$tmp/b.txt"
# json's summary carries both totals
run classify --hw h200 -f json "$B"
want=$(awk -F, -v c="$c" -v e="$e" 'NR > 1 { s += $c * $e } END { printf "%.0f", s }' "$tmp/b.csv")
got=$(sed -n 's/.*"summary":{[^}]*"expected_us":\([0-9.e+]*\),.*/\1/p' "$tmp/out")
check "json: summary expected_us = $want us" \
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(b != "" && (a - b) ^ 2 < 1) }'
check "json: best_case false" grep -q '"best_case":false' "$tmp/out"

# --- --best-case: today's roofline everywhere ------------------------------
run classify --hw h200 --best-case -f csv "$B"
check "--best-case csv: the roofline's columns are the same in both modes" \
	test "$(cut -d, -f1-15 "$tmp/out")" = "$(cut -d, -f1-15 "$tmp/b.csv")"
check "--best-case csv: expected_* = t_gpu_us, t_us, bound" \
	awk -F, -v g="$(col "$tmp/out" t_gpu_us)" -v t="$t" -v b="$rb" \
		-v eg="$(col "$tmp/out" expected_gpu_us)" -v e="$e" -v eb="$eb" \
		'NR > 1 && ($eg != $g || $e != $t || $eb != $b) { bad = 1 } END { exit bad }' "$tmp/out"
run classify --hw h200 --best-case "$B"
check "--best-case table: it says so" grep -qx "best case (roofline bounds): every time is the roofline's lower bound" "$tmp/out"
check "--best-case table: t_us and bound columns" grep -q '^name  *kind  *dtype  *count  *FLOP/B  *t_us bound  *TFLOP/s$' "$tmp/out"
awk -F, -v t="$t" -v rb="$rb" 'NR > 1 && length($1) < 18 { printf "%s %.2f %s\n", $1, $t, $rb }' \
	"$tmp/b.csv" | sort >"$tmp/want"
awk '/^name / { on = 1; next } on && NF == 0 { exit } on { sub(/\^$/, "", $1); print $1, $6, $7 }' "$tmp/out" | sort >"$tmp/got"
check "--best-case table: t_us and bound are the csv's" cmp -s "$tmp/want" "$tmp/got"
want=$(awk -F, -v c="$c" -v t="$t" 'NR > 1 { s += $c * $t } END { printf "%.2f", s }' "$tmp/b.csv")
check "--best-case total: $want us, the sum of count x t_us" \
	grep -q "^total: $want us predicted for 20 ops" "$tmp/out"
check "--best-case: time by bound says best case" grep -qx 'time by bound (best case: roofline bounds):' "$tmp/out"
run classify --hw h200 --best-case -f json "$B"
check "--best-case json: best_case true" grep -q '"best_case":true' "$tmp/out"
check "--best-case json: no expected_source" test "$(grep -c expected_source "$tmp/out")" -eq 0

# --- against measured times -------------------------------------------------
run classify --hw h200 -f csv "$M"
cp "$tmp/out" "$tmp/m.csv"
run classify --hw h200 "$M"
cp "$tmp/out" "$tmp/m.txt"
check "measured: the columns" grep -q '^name  *kind  *dtype  *exp_us exp_bound  *meas_us m/exp m/roof$' "$tmp/m.txt"
m=$(col "$tmp/m.csv" measured_us) g=$(col "$tmp/m.csv" t_gpu_us) eg=$(col "$tmp/m.csv" expected_gpu_us)
# each row's ratios: measured / expected_gpu_us and measured / t_gpu_us
awk -F, -v m="$m" -v g="$g" -v eg="$eg" 'NR > 1 && $m != "" {
	printf "%s %.2f %.2f\n", $1, $m / $eg, $m / $g }' "$tmp/m.csv" | sort >"$tmp/want"
awk '/^name / { on = 1; next } on && NF == 0 { exit } on && $6 != "-" { sub(/\^$/, "", $1); print $1, $7, $8 }' "$tmp/m.txt" | sort >"$tmp/got"
check "measured: m/exp and m/roof are measured / expected_gpu_us and / t_gpu_us" \
	cmp -s "$tmp/want" "$tmp/got"
check "measured: 8 rows with ratios" test "$(wc -l <"$tmp/got")" -eq 8
check "measured csv: measured_over_expected = measured_us / expected_gpu_us" \
	awk -F, -v m="$m" -v eg="$eg" -v r="$(col "$tmp/m.csv" measured_over_expected)" \
		'NR > 1 && $m != "" { d = $r - $m / $eg; if (d * d > 1e-8 * $r * $r) bad = 1 } END { exit bad }' "$tmp/m.csv"
check "measured csv: measured_over_roofline = measured_us / t_gpu_us" \
	awk -F, -v m="$m" -v g="$g" -v r="$(col "$tmp/m.csv" measured_over_roofline)" \
		'NR > 1 && $m != "" { d = $r - $m / $g; if (d * d > 1e-8 * $r * $r) bad = 1 } END { exit bad }' "$tmp/m.csv"

# the median and p90 of |t - measured| / measured over the measured rows, and
# over those of 20 us or more, computed here from the csv
errs() { # FLOOR COLUMN: the errors of COLUMN
	awk -F, -v m="$m" -v x="$2" -v f="$1" 'NR > 1 && $m != "" && $m > 0 && $m >= f {
		d = $x - $m; print (d < 0 ? -d : d) / $m }' "$tmp/m.csv"
}
for floor in 0 20; do
	want="$(errs $floor "$eg" | quantile 0.5) $(errs $floor "$eg" | quantile 0.9)"
	want="$want $(errs $floor "$g" | quantile 0.5) $(errs $floor "$g" | quantile 0.9)"
	nw=$(errs $floor "$eg" | wc -l)
	if [ "$floor" = 0 ]; then label=all; else label=">= 20 us"; fi
	got=$(awk -v l="$label" 'index($0, "  " l " ") == 1 {
		n = split($0, f, " +"); print f[n - 8], f[n - 7], f[n - 6], f[n - 5], f[n - 4], f[n - 3], f[n - 2], f[n - 1], f[n] }' "$tmp/m.txt")
	check "errors, $label: $nw ops, median and p90 $want" test "$got" = "$nw $want"
done
run classify --hw h200 -f json "$M"
check "json: the errors over all and over >= 20 us" \
	grep -q '"error":{"ops":8,.*"error_20us":{"ops":6,' "$tmp/out"

# --- report on a trace: recoverable against the expected time ---------------
run report -f csv "$T"
cp "$tmp/out" "$tmp/t.csv"
run report "$T"
cp "$tmp/out" "$tmp/t.txt"
check "report: the table's measured columns" grep -q ' meas_us m/exp m/roof$' "$tmp/t.txt"
check "report: fits 80 columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/t.txt"
m=$(col "$tmp/t.csv" measured_us) g=$(col "$tmp/t.csv" t_gpu_us) eg=$(col "$tmp/t.csv" expected_gpu_us)
# the first recoverable op: the largest measured - expected_gpu_us, its
# recoverable time and its gap to the roofline
top=$(awk -F, -v m="$m" -v g="$g" -v eg="$eg" 'NR > 1 && $m != "" && $m - $eg > best {
	best = $m - $eg; line = ($m - $eg) " " ($m - $g) } END { print line }' "$tmp/t.csv")
got=$(awk '/^top 10 ops by recoverable time/ { getline; getline
	print $(NF - 2), $(NF - 1); exit }' "$tmp/t.txt")
# (the csv's 6 digits against the table's 2 decimals: within 0.02 us)
check "report: recoverable #1 is the largest measured - expected, gap to the roofline beside ($top)" \
	awk -v a="$top" -v b="$got" 'BEGIN { split(a, x, " "); split(b, y, " ")
		exit !(b != "" && (x[1] - y[1]) ^ 2 < 4e-4 && (x[2] - y[2]) ^ 2 < 4e-4) }'
run report --best-case "$T"
check "report --best-case: recoverable against the roofline" \
	grep -qx 'top 10 ops by recoverable time (measured - roofline):' "$tmp/out"

# --- the timeline, --scale and fusion use the expected times -----------------
run classify --hw h200 --runtime graph --timeline "$B"
# the graph lane's GPU busy time is the sum of count x expected_gpu_us
eg=$(col "$tmp/b.csv" expected_gpu_us)
want=$(awk -F, -v c="$c" -v x="$eg" 'NR > 1 { s += $c * $x } END { printf "%.2f", s }' "$tmp/b.csv")
got=$(awk '$1 == "graph" { print $5 }' "$tmp/out")
# (the csv's 6 digits summed over 152 occurrences: within 0.05 us)
check "timeline: GPU busy $got us = sum of count x expected_gpu_us ($want)" \
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(b != "" && (a - b) ^ 2 < 0.0025) }' 
run classify --hw h200 -f csv --set B=8,S=1024 --scale B=2 "$DATA/decode-symbolic.csv"
cp "$tmp/out" "$tmp/s.csv"
run classify --hw h200 -f csv --set B=8,S=1024 "$DATA/decode-symbolic.csv"
check "scale csv: t_us is the base size's expected_us" \
	test "$(cut -d, -f1,5 "$tmp/s.csv" | tail -n +2)" = \
	     "$(awk -F, -v e="$(col "$tmp/out" expected_us)" 'NR > 1 { print $1 "," $e }' "$tmp/out")"

# --- quantised paths: the table says which kernel is assumed, or that none
# was measured (issue 26), as json's expected_note does; 2 int4 ops, 1 int8
# weight op under fp32 (none measured), 1 under bf16 (the eager cast, GEMM
# and multiply: measured, no line), 1 fp8e5m2 GEMM, a bf16 one without a note
printf 'name,kind,dtype,shape,weight_dtype\nw4,matmul,bf16,16x4096x4096,int4\nw4b,matmul,bf16,1x4096x11008,int4\nw8,matmul,fp32,16x4096x4096,int8\nw8b,matmul,bf16,16x4096x4096,int8\nf8b,matmul,fp8e5m2,1024x4096x4096,\nmm,matmul,bf16,1024x4096x4096,\n' >"$tmp/q.csv"
run classify --hw h200 "$tmp/q.csv"
check "table: the int4 ops' kernel named below it, with their count" \
	grep -q "^expected, 2 ops: int4 weight-only, assumed PyTorch's tinygemm" "$tmp/out"
check "table: int8 weights without a measured kernel: expected = roofline, said" \
	grep -q '^expected, 1 op: no measured kernel for these weights' "$tmp/out"
check "table: the fp8e5m2 GEMM's note" grep -q '^expected, 1 op: no measured fp8e5m2 GEMM' "$tmp/out"
run classify --hw h200 "$B"
check "table: no such line without a quantised op" sh -c "! grep -q '^expected, ' '$tmp/out'"
run classify --hw h200 --best-case "$tmp/q.csv"
check "table --best-case: no such line (the roofline everywhere)" sh -c "! grep -q '^expected, ' '$tmp/out'"

# --- the chart: an expected point per op --------------------------------------
"$ROOFLINE" plot --hw h200 -o "$tmp/c.svg" "$B" 2>/dev/null
check "chart: a diamond per plotted op" \
	test "$(grep -c '^<polygon .*<title>' "$tmp/c.svg")" -eq "$(grep -c '^<circle [^>]*fill-opacity="0.55"[^>]*><title>' "$tmp/c.svg")"
check "chart: the legend names the expected point" grep -q '>expected</text>' "$tmp/c.svg"
"$ROOFLINE" plot --hw h200 --best-case -o "$tmp/c.svg" "$B" 2>/dev/null
check "chart --best-case: no expected points" test "$(grep -c '<polygon ' "$tmp/c.svg")" -eq 0

# an op's launches are its kernels as recorded (import: a split-K GEMV and
# its reduction are two launches), never times the model's own split: a
# 1 x 4096 x 4096 GEMV the model splits over K is two kernels whether or
# not the list says launches=2, and a third launch adds one GEMM kernel's
# fixed time, gemm.latency_us (2.408 us in hwdb/h200-pytorch.efficiency)
printf 'name,kind,dtype,shape,weight_dtype,launches\ng,matmul,bf16,1x4096x4096,bf16,\ng2,matmul,bf16,1x4096x4096,bf16,2\ng3,matmul,bf16,1x4096x4096,bf16,3\n' >"$tmp/l.csv"
run classify --hw h200 -f json "$tmp/l.csv"
kern() { python3 -c 'import json, sys
for o in json.load(open(sys.argv[1]))["ops"]:
    if o["name"] == sys.argv[2]: print(o[sys.argv[3]])' "$tmp/out" "$1" "$2"; }
check "a split GEMV: two kernels" test "$(kern g expected_kernels)" = 2
check "launches=2 (the split's two, recorded): two kernels, not four" test "$(kern g2 expected_kernels)" = 2
check "launches=2: the same expected time as the model's own split" test "$(kern g2 expected_gpu_us)" = "$(kern g expected_gpu_us)"
check "launches=3: one more GEMM kernel's 2.408 us" \
	awk -v a="$(kern g expected_gpu_us)" -v b="$(kern g3 expected_gpu_us)" 'BEGIN { d = b - a; exit !(d > 2.4075 && d < 2.4085) }'

done_testing
