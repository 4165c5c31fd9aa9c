#!/bin/sh
# cli_readme.sh - the outputs shown in README.md are what the program prints
# today: a changed format or number must update the README too.
. "$top_srcdir/tests/lib.sh"

# block N: the Nth fenced block of README.md that follows a line matching RE
block() {
	awk -v re="$1" '
		$0 ~ re { armed = 1; next }
		armed && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$top_srcdir/README.md"
}

block '^The first command prints' >"$tmp/want"
"$ROOFLINE" classify "$EX/bert-base.csv" 2>/dev/null >"$tmp/got"
check "README: the quick start's BERT-base table" cmp -s "$tmp/want" "$tmp/got"

block 'examples/blog-repeat-multiply.csv. prints' >"$tmp/want"
"$ROOFLINE" classify --hw a100 "$EX/blog-repeat-multiply.csv" 2>/dev/null | head -n 13 >"$tmp/got"
check "README: the repeat-multiply sweep" cmp -s "$tmp/want" "$tmp/got"

block 'ends with$' >"$tmp/want"
"$ROOFLINE" classify --hw b200 --timeline "$EX/llama2-7b-decode.csv" 2>/dev/null | tail -n 6 >"$tmp/got"
check "README: the Llama-2 decode timeline on a B200" cmp -s "$tmp/want" "$tmp/got"

block 'l2-mlp.csv.:$' >"$tmp/want"
"$ROOFLINE" classify --hw h200 --runtime graph --l2 "$DATA/l2-mlp.csv" 2>/dev/null | head -n 10 >"$tmp/got"
check "README: the L2-resident MLP block on an H200" cmp -s "$tmp/want" "$tmp/got"

block 'describes the' >"$tmp/want"
"$ROOFLINE" hw list >"$tmp/got"
check "README: hw list" cmp -s "$tmp/want" "$tmp/got"

# The probe's table is the H200's live output, committed under docs/measurements;
# the recorded attribute set must still derive it (all but the "from" line).
M="$top_srcdir/docs/measurements/h200-probe-2026-11-29/probe-table.txt"
block "On the project's H200 .real output" >"$tmp/want"
check "README: the H200 probe table is the recorded one" cmp -s "$tmp/want" "$M"
"$ROOFLINE" probe --attrs "$DATA/gpu/h200.attrs" 2>/dev/null | tail -n +2 >"$tmp/got"
tail -n +2 "$M" >"$tmp/want"
check "README: the recorded H200 attributes still derive that table" cmp -s "$tmp/want" "$tmp/got"
block 'prints its 153 ops' >"$tmp/want"
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null | head -n 6 >"$tmp/got"
check "README: the first lines of the BERT trace report" cmp -s "$tmp/want" "$tmp/got"

block 'and then the step' >"$tmp/want"
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null |
	sed -n '/^step:/,$p' | head -n 20 >"$tmp/got"
check "README: the step of the BERT trace report" cmp -s "$tmp/want" "$tmp/got"

block 'report --timeline tests/data/trace_gpt2' >"$tmp/want"
"$ROOFLINE" report --timeline "$DATA/trace_gpt2_fwd_b1_s1_bf16.json.gz" 2>/dev/null |
	sed -n '/^timeline (one step/,$p' >"$tmp/got"
check "README: the GPT-2 trace's timeline" cmp -s "$tmp/want" "$tmp/got"

# bench, calibrate and validate on the H200 recordings
M="$top_srcdir/docs/measurements/h200-bench-2026-11-29"
block 'replays the recording; on the GPU it took' >"$tmp/want"
"$ROOFLINE" calibrate --from "$M/bench.json" -o "$tmp/h200-measured.device" 2>/dev/null |
	sed "s|$tmp/||" >"$tmp/got"
check "README: the H200 calibration" cmp -s "$tmp/want" "$tmp/got"
block 'summary reads:$' >"$tmp/want"
"$ROOFLINE" validate --from "$M/validate.json" --hw "$top_srcdir/hwdb/h200-sxm-measured.device" \
	--host-overhead-us 4.21 2>/dev/null | tail -n 10 >"$tmp/got"
check "README: the H200 validation summary" cmp -s "$tmp/want" "$tmp/got"

done_testing
