#!/bin/sh
# bench-model.sh - the time "roofline model" takes on each example config
# (issue 13's goal: every example config classified in under 50 ms): the
# median wall time of RUNS runs of a decode step, a prefill step (encoders:
# prefill only) and --generate 128, table output, by the shell's clock.
#
# Usage: [RUNS=r] bench/bench-model.sh [BINARY]   (from the source tree)
set -eu
bin=${1:-./roofline}
runs=${RUNS:-21}
here=$(dirname "$0")
export ROOFLINE_HWDB=${ROOFLINE_HWDB:-$here/../hwdb}

# median: of the numbers on stdin, one a line
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# ms ARGS...: the median milliseconds of RUNS runs of the binary on ARGS
ms() {
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$bin" "$@" >/dev/null 2>&1 || { echo "failed: $bin $*" >&2; exit 1; }
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
		i=$((i + 1))
	done | median | awk '{ printf "%.1f", $1 / 1000 }'
}

echo "$(nproc) cores; $bin; median of $runs runs, milliseconds (goal: under 50)"
printf '%-18s %8s %8s %12s\n' config decode prefill generate128
for c in "$here"/../examples/*.json; do
	name=$(basename "$c" .json)
	case $name in
	bert-base | vit-b16) dec=- gen=- ;;
	*) dec=$(ms model --hw h100-sxm "$c"); gen=$(ms model --hw h100-sxm --generate 128 "$c") ;;
	esac
	pre=$(ms model --hw h100-sxm --phase prefill "$c")
	printf '%-18s %8s %8s %12s\n' "$name" "$dec" "$pre" "$gen"
done
