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

block 'describes the' >"$tmp/want"
"$ROOFLINE" hw list >"$tmp/got"
check "README: hw list" cmp -s "$tmp/want" "$tmp/got"

block 'prints its 153 ops' >"$tmp/want"
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null | head -n 6 >"$tmp/got"
check "README: the first lines of the BERT trace report" cmp -s "$tmp/want" "$tmp/got"

block 'and then the step' >"$tmp/want"
"$ROOFLINE" report "$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz" 2>/dev/null |
	sed -n '/^step:/,$p' | head -n 20 >"$tmp/got"
check "README: the step of the BERT trace report" cmp -s "$tmp/want" "$tmp/got"

done_testing
