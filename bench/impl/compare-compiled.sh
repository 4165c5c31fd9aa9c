#!/bin/sh
# compare-compiled.sh - roofline model --impl compiled against the recorded
# generate(cache_implementation="static") runs of issue 23: per recording,
# the kernels of a generated token, their GPU time per token and the time per
# token, predicted for a decode step on the static cache (its max_cache_len,
# the prompt and the 64 new tokens of bench/traces/record.py, as --context)
# against compiled-summary.txt's measured figures.
#
#   bench/impl/compare-compiled.sh [ROOFLINE]   (from the source tree)
#
# SUMMARY= names another compiled-summary.txt (the fresh set:
# docs/measurements/h200-issue23-fresh-2026-12-02/compiled-summary.txt).
set -eu
export LC_ALL=C
R=${1:-./roofline}
M=${SUMMARY:-docs/measurements/h200-issue23-2026-12-02/compiled-summary.txt}
NEW=64
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-compiled.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

config() {
	case $1 in
	*llama3_8b_l2*) echo tests/data/impl/llama3-8b-l2.json ;;
	*qwen2_7b_l2*) echo tests/data/impl/qwen2-7b-l2.json ;;
	*qwen3_8b_l2*) echo tests/data/impl/qwen3-8b-l2.json ;;
	*gpt2*) echo examples/gpt2.json ;;
	esac
}
# the recording torch-compile.impl was read from (its trace key)
fit="compiled_llama3_8b_l2_b1_p512"

printf '%-32s %6s %6s %6s %9s %9s %6s %9s %9s %6s %s\n' recording k_pred k_meas k_err \
	gpu_pred gpu_meas gpu_err tok_pred tok_meas tok_err split
grep -v '^#' "$M" | while IFS='	' read -r name k kt tok rest; do
	cfg=$(config "$name")
	b=$(echo "$name" | sed 's/.*_b\([0-9]*\)_p.*/\1/')
	p=$(echo "$name" | sed 's/.*_p\([0-9]*\).*/\1/')
	"$R" model --hw h200 --impl compiled --phase decode --batch "$b" --context $((p + NEW)) \
		-f json "$cfg" >"$tmp/j" 2>"$tmp/e" || { echo "$name: $(cat "$tmp/e")"; continue; }
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["kernels"], s["expected_gpu_us"], s["expected_us"])' "$tmp/j" >"$tmp/p"
	read -r kp gp tp <"$tmp/p"
	split=held-out
	[ "$name" = "$fit" ] && split=fit
	echo "$name ${k% kernels per token} ${kt% us kernel time per token} ${tok% us per token*} $kp $gp $tp $split"
done >"$tmp/rows"
awk '{
	ke = ($5 - $2) / $2; ge = ($6 - $3) / $3; te = ($7 - $4) / $4
	printf "%-32s %6.0f %6.0f %+5.1f%% %9.1f %9.1f %+5.1f%% %9.1f %9.1f %+5.1f%% %s\n", $1, $5, $2, 100 * ke, $6, $3, 100 * ge, $7, $4, 100 * te, $8
}' "$tmp/rows"
