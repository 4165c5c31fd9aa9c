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

# same DESC: $tmp/want (a README block) is what the program printed, $tmp/got.
# An empty or missing block fails, and so does an empty output: two empty
# files compare equal, which would pass on anything.
same() {
	if [ ! -s "$tmp/want" ]; then
		not_ok "$1" "the README block is empty or missing (its lead-in line changed?)"
	elif [ ! -s "$tmp/got" ]; then
		not_ok "$1" "the command printed nothing"
	else
		check "$1" cmp -s "$tmp/want" "$tmp/got"
	fi
}

block '^The first command prints' >"$tmp/want"
"$ROOFLINE" classify "$EX/bert-base.csv" 2>/dev/null >"$tmp/got"
same "README: the quick start's BERT-base table"

block 'examples/blog-repeat-multiply.csv. prints' >"$tmp/want"
"$ROOFLINE" classify --best-case --hw a100 "$EX/blog-repeat-multiply.csv" 2>/dev/null | head -n 15 >"$tmp/got"
same "README: the repeat-multiply sweep"

block 'ends with$' >"$tmp/want"
# (7 lines: the heading, the column names, four runtimes, the saving)
"$ROOFLINE" classify --hw b200 --timeline "$EX/llama2-7b-decode.csv" 2>/dev/null | tail -n 7 >"$tmp/got"
same "README: the Llama-2 decode timeline on a B200"

block 'splits the step into its phases:$' >"$tmp/want"
"$ROOFLINE" report --hw h200 "$DATA/trace_train_gpt2_l6_b8_s512_adamw_amp.json.gz" 2>/dev/null |
	sed -n '/^time per phase/,/^  optimizer/p' >"$tmp/got"
same "README: the GPT-2 training step's time per phase"

block 'l2-mlp.csv.:$' >"$tmp/want"
"$ROOFLINE" classify --hw h200 --runtime graph --l2 --best-case "$DATA/l2-mlp.csv" 2>/dev/null | head -n 11 >"$tmp/got"
same "README: the L2-resident MLP block on an H200"

block '^.roofline kinds. lists what' >"$tmp/want"
"$ROOFLINE" kinds >"$tmp/got"
same "README: roofline kinds"

block 'describes the' >"$tmp/want"
"$ROOFLINE" hw list >"$tmp/got"
same "README: hw list"

# The probe's table is the H200's live output, committed under docs/measurements;
# the recorded attribute set must still derive it (all but the "from" line).
M="$top_srcdir/docs/measurements/h200-probe-2026-11-29/probe-table.txt"
block "On the project's H200 .real output" >"$tmp/want"
cp "$M" "$tmp/got"
same "README: the H200 probe table is the recorded one"
# min_kernel_us comes from the database entry, not the GPU: it changed since
# (issue 11: the floor is an empty kernel's time), so it is left out
"$ROOFLINE" probe --attrs "$DATA/gpu/h200.attrs" 2>/dev/null | tail -n +2 | grep -v '^min_kernel_us ' >"$tmp/got"
tail -n +2 "$M" | grep -v '^min_kernel_us ' >"$tmp/want"
same "README: the recorded H200 attributes still derive that table"
block 'prints its 153 ops' >"$tmp/want"
# (9 lines: the trace, the device and its runtime (two lines), the efficiency
# profile's two lines, the column names, the first three ops)
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null | head -n 9 >"$tmp/got"
same "README: the first lines of the BERT trace report"

block 'and then the step' >"$tmp/want"
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null |
	sed -n '/^step:/,$p' | head -n 20 >"$tmp/got"
same "README: the step of the BERT trace report"

block 'report --timeline tests/data/trace_gpt2' >"$tmp/want"
"$ROOFLINE" report --timeline "$DATA/trace_gpt2_fwd_b1_s1_bf16.json.gz" 2>/dev/null |
	sed -n '/^timeline (one step/,$p' >"$tmp/got"
same "README: the GPT-2 trace's timeline"

# bench, calibrate and validate on the H200 recordings: the calibration
# behind hwdb/h200-sxm-measured.device (issue 12), the first validation
M="$top_srcdir/docs/measurements/h200-issue12-2026-12-01"
block 'replays the recording; on the GPU it took' >"$tmp/want"
"$ROOFLINE" calibrate --from "$M/bench.json" -o "$tmp/h200-measured.device" 2>/dev/null |
	sed "s|$tmp/||" >"$tmp/got"
same "README: the H200 calibration"
M="$top_srcdir/docs/measurements/h200-bench-2026-11-29"
block 'summary reads:$' >"$tmp/want"
"$ROOFLINE" validate --from "$M/validate.json" --hw "$top_srcdir/hwdb/h200-sxm-measured.device" \
	--host-overhead-us 4.21 2>/dev/null | tail -n 10 >"$tmp/got"
same "README: the H200 validation summary"

# issue 13: whole models
block 'seq 1024 --generate 256.):$' >"$tmp/want"
"$ROOFLINE" model "$EX/llama3-8b.json" --hw h100-sxm --runtime graph --seq 1024 --generate 256 2>/dev/null >"$tmp/got"
same "README: Llama-3-8B generate on an H100"
block 'context 2048 --max-batch.):$' >"$tmp/want"
"$ROOFLINE" model "$EX/llama3-70b.json" --hw h200 --weight-dtype int4 --context 2048 --max-batch 2>/dev/null >"$tmp/got"
same "README: Llama-3-70B int4 max batch on an H200"
block 'mixtral-8x7b.json --hw a100-80gb.):$' >"$tmp/want"
"$ROOFLINE" model "$EX/mixtral-8x7b.json" --hw a100-80gb 2>"$tmp/got" >/dev/null
same "README: Mixtral-8x7B does not fit an A100 80GB"

done_testing
