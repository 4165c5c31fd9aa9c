#!/bin/sh
# bench-search.sh - the speed of roofline search (issue 27's goal: 100,000
# layouts a second on one core; Llama-3-70B on 128 GPUs in under 10 s).
# Searches examples/llama3-70b.json's training step (batch 512 x seq 4096)
# on 128 GPUs of hgx-h100-8 RUNS times (default 5) and prints the layouts
# enumerated and tried, the median wall time and the rates; the same for
# its decode step (batch 256, context 4096) on 16 GPUs.
#
# Usage: bench/bench-search.sh [RUNS] [ROOFLINE]   (from the source tree
# after make)
set -eu
runs=${1:-5}
bin=${2:-./roofline}
ex=$(dirname "$0")/../examples
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
one() {
	what=$1
	shift
	line=$("$bin" search "$@" | sed -n 2p)
	layouts=$(echo "$line" | awk '{ print $1 }')
	tried=$(echo "$line" | sed 's/.* \([0-9]*\) tried.*/\1/')
	i=0
	: >"${TMPDIR:-/tmp}/bench-search.$$"
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$bin" search "$@" >/dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >>"${TMPDIR:-/tmp}/bench-search.$$"
		i=$((i + 1))
	done
	us=$(median <"${TMPDIR:-/tmp}/bench-search.$$")
	rm -f "${TMPDIR:-/tmp}/bench-search.$$"
	awk -v w="$what" -v l="$layouts" -v t="$tried" -v us="$us" 'BEGIN {
		printf "%s: %d layouts (%d tried) in %.3f s: %.0f layouts/s, %.0f tried/s\n", w, l, t, us / 1e6, l / (us / 1e6), t / (us / 1e6) }'
}
one "llama3-70b train, 128 GPUs" "$ex/llama3-70b.json" --hw hgx-h100-8 --gpus 128 --train --batch 512 --seq 4096
one "llama3-70b decode, 16 GPUs" "$ex/llama3-70b.json" --hw hgx-h100-8 --gpus 16 --batch 256 --context 4096
