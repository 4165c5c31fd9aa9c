#!/bin/sh
# bench-startup.sh - what the CUDA parts cost the commands that do not use
# the GPU (issue 11): "roofline --version" (median wall time of R runs, peak
# resident memory) and "roofline classify" of N ops (median wall and CPU
# time, peak resident memory), for a CUDA build and a --without-cuda build
# (and any other binary given, e.g. one from before the plugin) side by side. The goals: --version under 5 ms and 5 MB, classify of
# 1,000,000 ops under 10 MB and within 5 % of the build without CUDA. The op
# list is bench/bench-classify.sh's (its generator is run from that file).
#
# Usage: [N=ops] [RUNS=r] bench/bench-startup.sh BINARY...
#   e.g. bench/bench-startup.sh build-cuda/roofline build-nocuda/roofline
# (run from the source tree; needs GNU time, Debian package "time")
set -eu
[ $# -ge 1 ] || { echo "usage: [N=ops] [RUNS=r] bench/bench-startup.sh BINARY..." >&2; exit 2; }
n=${N:-1000000}
runs=${RUNS:-50}
here=$(dirname "$0")
out=${TMPDIR:-/tmp}/roofline-startup.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

# The op list: the awk program of bench-classify.sh, which writes "$out/ops.csv".
gen=$(sed -n '/^awk -v n=/,/^}. >"\$out\/ops.csv"$/p' "$here/bench-classify.sh")
case $gen in
*'ops.csv"') eval "$gen" ;;
*) echo "bench-startup.sh: no op-list generator found in $here/bench-classify.sh" >&2; exit 1 ;;
esac

# median FILE: the median of the numbers in FILE, one a line.
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# wall_ms CMD...: milliseconds from fork to exit, by the shell's clock.
wall_ms() {
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo "($t1 - $t0) / 1000000" | bc -l
}

echo "$(nproc) cores; --version: median of $runs runs; classify: $n ops, median of 5 runs, the binaries alternating"
# The floor: what starting any program costs, measured the same way.
: >"$out/true"
i=0
while [ "$i" -lt "$runs" ]; do wall_ms /bin/true >>"$out/true"; i=$((i + 1)); done
printf '%-34s wall %7.2f ms\n' "/bin/true (the floor)" "$(median "$out/true")"
for b in "$@"; do
	: >"$out/v"
	i=0
	while [ "$i" -lt "$runs" ]; do wall_ms "$b" --version >>"$out/v"; i=$((i + 1)); done
	/usr/bin/time -f "%M" -o "$out/rss" "$b" --version >/dev/null
	printf '%-34s wall %7.2f ms  peak RSS %6.1f MB\n' "$b --version" "$(median "$out/v")" \
		"$(echo "$(cat "$out/rss") * 1024 / 1000000" | bc -l)"
done

k=1
for b in "$@"; do : >"$out/c.$k"; k=$((k + 1)); done
for run in 1 2 3 4 5; do
	k=1
	for b in "$@"; do
		/usr/bin/time -f "%e %U %S %M" -o "$out/time" "$b" classify -o "$out/result" "$out/ops.csv"
		read -r wall user sys rss_kib <"$out/time"
		echo "$wall $(echo "$user + $sys" | bc) $rss_kib" >>"$out/c.$k"
		k=$((k + 1))
	done
done
k=1
for b in "$@"; do
	awk '{ print $1 }' "$out/c.$k" >"$out/w"
	awk '{ print $2 }' "$out/c.$k" >"$out/u"
	rss=$(awk '$3 > m { m = $3 } END { print m }' "$out/c.$k")
	printf '%-34s wall %5.2f s  cpu %5.2f s  peak RSS %6.1f MB\n' "$b classify" \
		"$(median "$out/w")" "$(median "$out/u")" "$(echo "$rss * 1024 / 1000000" | bc -l)"
	k=$((k + 1))
done
