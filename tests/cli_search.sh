#!/bin/sh
# cli_search.sh - roofline search (search.c, search_report.c): the layouts
# it enumerates, counted by hand; each one's step is model's for the same
# flags; the ranking; why the others lose; its formats and errors.
. "$top_srcdir/tests/lib.sh"

G="$EX/gpt2.json"

# GPT-2 (12 layers, 12 heads, hidden 768) on 4 GPUs of an 8-GPU node, a
# decode step of batch 4. tp: 1, 2, 4 (divisors of 4 within a node); pp: the
# divisors of 4 / tp up to the 12 layers; dp the rest. The interleaved
# chunks v: 1, and v > 1 where pp x v divides 12 (pp 2: 2, 3, 6; pp 4: 3);
# where tp > 1 the tp all-reduces overlapped or not, and sequence
# parallelism or not. So (tp, pp): (1, 1) 1 layout, (1, 2) 4, (1, 4) 2,
# (2, 1) 1 x 4 = 4, (2, 2) 4 x 4 = 16, (4, 1) 4: 31. Every one passes
# model's checks: 12 heads, 768 and 3072 divide by 4; each replica's default
# micro-batches are a multiple of pp; a micro-batch's tokens (2, 2, 4)
# divide by tp.
run search "$G" --hw hgx-h100-8 --gpus 4 --batch 4
check "search exits 0" test "$rc" -eq 0
check "31 layouts of 4 GPUs, none refused" \
	grep -q '^31 layouts: 0 refused by their checks, 31 tried, 0 of them over the 80 GiB a GPU has$' "$tmp/out"

# on 8 GPUs: tp 8 does not divide 12 heads (4 layouts); tp 1 pp 1 dp 8 does
# not divide the batch of 4; with one sequence a replica (tp 1, pp 2, dp 4)
# the micro-batch count is 1, not a multiple of pp, for v 2, 3, 6; tp 1 pp 4
# dp 2: m = 2, not a multiple of 4, for v 3; sequence parallelism over a
# micro-batch of 1 token (tp 2: pp 1 dp 4, pp 2 dp 2, pp 4 dp 1) or 2 (tp
# 4: pp 1 dp 2, pp 2 dp 1) that tp does not divide: 2 + 8 + 4 + 2 + 8. 60
# layouts (tp 1: 1 + 4 + 2 + 1, tp 2: 4 + 16 + 8, tp 4: 4 + 16, tp 8: 4),
# 4 + 1 + 3 + 1 + 24 = 33 refused.
run search "$G" --hw hgx-h100-8 --gpus 8 --batch 4
check "60 layouts of 8 GPUs, 33 refused by model's checks" \
	grep -q '^60 layouts: 33 refused by their checks, 27 tried' "$tmp/out"

# the ranking: every row's step no shorter than the one before it
run search "$G" --hw hgx-h100-8 --gpus 4 --batch 4 --top 31 -f csv
cp "$tmp/out" "$tmp/all.csv"
check "--top 31 -f csv: 31 rows" test "$(($(wc -l <"$tmp/all.csv") - 1))" -eq 31
check "ranked by step_us, ascending" awk -F, 'NR > 2 && $13 < prev { bad = 1 } NR > 1 { prev = $13 } END { exit bad }' "$tmp/all.csv"

# each row is model's step for the same flags: its simulated step on the
# eager lane (--timeline), times (v m + pp - 1) / (v m) with stages
col() { awk -F, -v r="$2" -v c="$3" 'NR == r + 1 { print $c }' "$1"; }
eager_step() {
	awk '/^runtime +host\/launch/ { on = 1; next } on && $1 == "eager" { print $4; exit }' "$1"
}
for r in 1 2 6 19 31; do
	tp=$(col "$tmp/all.csv" $r 2) pp=$(col "$tmp/all.csv" $r 3) dp=$(col "$tmp/all.csv" $r 4)
	v=$(col "$tmp/all.csv" $r 8) ovl=$(col "$tmp/all.csv" $r 9) sp=$(col "$tmp/all.csv" $r 10)
	gstep=$(col "$tmp/all.csv" $r 14) step=$(col "$tmp/all.csv" $r 13) m=$(col "$tmp/all.csv" $r 6)
	set -- --tp "$tp" --pp "$pp" --dp "$dp"
	[ "$v" -gt 1 ] && set -- "$@" --virtual-stages "$v"
	[ "$ovl" -eq 1 ] && set -- "$@" --tp-comm-overlap
	[ "$sp" -eq 1 ] && set -- "$@" --sp
	run model "$G" --hw hgx-h100-8 --batch 4 "$@" --timeline
	want=$(eager_step "$tmp/out")
	if awk -v a="$gstep" -v b="$want" -v s="$step" -v pp="$pp" -v m="$m" -v v="$v" 'BEGIN {
		f = pp > 1 ? (v * m + pp - 1) / (v * m) : 1
		exit !(b > 0 && (a - b) ^ 2 <= (1e-5 * b) ^ 2 && (s - a * f) ^ 2 <= (1e-5 * s) ^ 2) }'; then
		ok "row $r (tp $tp pp $pp dp $dp v $v overlap $ovl sp $sp): model's step $want us, x the pipeline's factor $step us"
	else
		not_ok "row $r is model's step" "search $gstep (step $step), model $want"
	fi
done

# a training step of Llama-3-8B on 8 GPUs: the best layout fits, and its
# memory is model's memory line for the same flags
L="$EX/llama3-8b.json"
run search "$L" --hw hgx-h100-8 --gpus 8 --train --batch 32 --seq 4096 -f csv
cp "$tmp/out" "$tmp/train.csv"
check "a training search: the first row fits" test "$(col "$tmp/train.csv" 1 20)" = yes
set -- --tp "$(col "$tmp/train.csv" 1 2)" --pp "$(col "$tmp/train.csv" 1 3)" --dp "$(col "$tmp/train.csv" 1 4)" \
	--microbatches "$(col "$tmp/train.csv" 1 6)"
[ "$(col "$tmp/train.csv" 1 8)" -gt 1 ] && set -- "$@" --virtual-stages "$(col "$tmp/train.csv" 1 8)"
[ "$(col "$tmp/train.csv" 1 9)" -eq 1 ] && set -- "$@" --tp-comm-overlap
[ "$(col "$tmp/train.csv" 1 10)" -eq 1 ] && set -- "$@" --sp
[ "$(col "$tmp/train.csv" 1 11)" -eq 1 ] && set -- "$@" --recompute
[ "$(col "$tmp/train.csv" 1 12)" -gt 0 ] && set -- "$@" --zero "$(col "$tmp/train.csv" 1 12)"
run model "$L" --hw hgx-h100-8 --train --batch 32 --seq 4096 "$@" -f json
mem=$(python3 -c 'import json, sys; print("%.0f" % json.load(open(sys.argv[1]))["summary"]["memory"]["total_bytes"])' "$tmp/out" 2>/dev/null)
check "the best training layout's memory is model's ($mem bytes)" test "$mem" = "$(col "$tmp/train.csv" 1 19)"

# why the others lose: each line's parts add up to its difference
run search "$L" --hw hgx-h100-8 --gpus 8 --train --batch 32 --seq 4096
awk '/^  #[0-9]+:/ {
	d = $2 + 0; s = 0
	for (i = 4; i <= NF; i++) if ($i ~ /^us;?$/ && $(i - 1) ~ /^[+-][0-9]/) s += $(i - 1)
	if ((d - s) ^ 2 > 4) { print "line " $1 ": " d " against parts " s; bad = 1 }
	n++ } END { exit bad || n != 4 }' "$tmp/out" >"$tmp/why" 2>&1
check "why each loses: the parts add up to the difference, for the 4 others" test ! -s "$tmp/why"

# formats
run search "$G" --hw hgx-h100-8 --gpus 4 --batch 4 -f json
check "json: 31 layouts, 5 rows" python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["search"]
sys.exit(0 if s["layouts"] == 31 and s["tried"] == 31 and len(s["rows"]) == 5 and s["rows"][0]["rank"] == 1 else 1)' "$tmp/out"
run search "$G" --hw hgx-h100-8 --gpus 4 --batch 4 -f html -o "$tmp/s.html"
check "html: a page" grep -q '<table id="search-table"' "$tmp/s.html"

# errors
expect_error "no --gpus" 2 "--gpus N" search "$G" --hw hgx-h100-8
expect_error "no md" 2 "unknown format 'md'" search "$G" --hw hgx-h100-8 --gpus 4 -f md
expect_error "--recompute is searched" 2 "recompute" search "$L" --hw hgx-h100-8 --gpus 8 --train --recompute
# 13 GPUs: tp 1 (13 is past a node of 8), pp 1 (past the 12 layers), and dp
# 13 does not divide the batch of 4
expect_error "no layout: 13 GPUs" 1 "none of the 1 layouts of 13 GPUs" \
	search "$G" --hw hgx-h100-8 --gpus 13 --batch 4

done_testing
