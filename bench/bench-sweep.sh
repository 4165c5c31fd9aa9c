#!/bin/sh
# bench-sweep.sh - the time of a sweep of 20 values (issue 13's goal: under
# 1 s): roofline model --sweep over the batch of Llama-3-8B decode, and
# roofline classify --sweep over the B of a symbolic decode layer, each run
# three times, the least wall time shown (date's nanoseconds: GNU time's
# 10 ms steps are too coarse). Prints; asserts nothing.
#
# Usage: bench/bench-sweep.sh [ROOFLINE]   (run from the source tree after
# make; needs GNU date)
set -eu
bin=${1:-./roofline}
values=1,2,4,8,16,32,48,64,96,128,160,192,256,320,384,448,512,640,768,1024
out=${TMPDIR:-/tmp}/roofline-bench-sweep.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

# best LABEL ARGS...: runs roofline ARGS three times, prints the least wall
# time of the three in milliseconds
best() {
	label=$1
	shift
	b=
	for run in 1 2 3; do
		t0=$(date +%s%N)
		"$bin" "$@" >"$out/result" 2>/dev/null
		t1=$(date +%s%N)
		us=$(((t1 - t0) / 1000))
		if [ -z "$b" ] || [ "$us" -lt "$b" ]; then
			b=$us
		fi
	done
	rows=$(($(wc -l <"$out/result") - 1))
	printf '%-44s %3d rows  %4d.%03d ms wall\n' "$label" "$rows" $((b / 1000)) $((b % 1000))
}

echo "sweep of 20 values ($bin, $(nproc) cores)"
best "model llama3-8b decode --sweep batch (csv)" \
	model examples/llama3-8b.json --context 2048 --sweep "batch=$values" -f csv
best "model llama3-8b prefill --sweep seq (csv)" \
	model examples/llama3-8b.json --phase prefill --sweep "seq=$values" -f csv
best "classify decode-symbolic --sweep B (csv)" \
	classify tests/data/decode-symbolic.csv --set S=2048 --sweep "B=$values" -f csv
