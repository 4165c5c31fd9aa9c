#!/bin/sh
# bench-classify.sh - speed and memory of "roofline classify" on a large op
# list. Generates an op list of N ops (default 1,000,000) that cycles through
# every kind, classifies it once per output format, and prints wall time, CPU
# time and peak resident memory of each run. The goals: under 1 s of one core
# and under 100 MB for a million ops (issue 2); under 1.0 s of CPU (user +
# sys) as csv and under 1.5 s as json (issue 22, docs/performance.md).
#
# Usage: [RUNS=3] bench/bench-classify.sh [N] [ROOFLINE]   (run from the source tree
# after make; needs GNU time, Debian package "time", bc and a C compiler)
set -eu
n=${1:-1000000}
bin=${2:-./roofline}
out=${TMPDIR:-/tmp}/roofline-bench.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

awk -v n="$n" 'BEGIN {
	print "name,kind,dtype,shape,kernel,stride,padding,causal,inputs,flops_per_element,flops,bytes,count,measured_us"
	for (i = 0; i < n; i++) {
		k = i % 8
		if (k == 0) printf "layer%d.q_proj,matmul,bf16,4096x4096x4096,,,,,,,,,12,\n", i
		else if (k == 1) printf "layer%d.attn,attention,bf16,8x32x2048x128,,,,1,,,,,12,\n", i
		else if (k == 2) printf "layer%d.gelu,pointwise,bf16,8192x11008,,,,,1,14,,,12,35.5\n", i
		else if (k == 3) printf "layer%d.add,pointwise,fp32,8192x4096,,,,,2,,,,12,\n", i
		else if (k == 4) printf "layer%d.norm,layernorm,bf16,8192x4096,,,,,,,,,24,\n", i
		else if (k == 5) printf "layer%d.softmax,softmax,fp16,64x2048x2048,,,,,,,,,1,\n", i
		else if (k == 6) printf "conv%d,conv2d,bf16,64x256x56x56,256x3x3,1,1,,,,,,1,\n", i
		else printf "custom%d,custom,fp32,,,,,,,,1e9,4e8,1,\n", i
	}
}' >"$out/ops.csv"
size=$(wc -c <"$out/ops.csv")
echo "op list: $n ops, $size bytes ($bin, $(nproc) cores)"
# Each format runs three times (RUNS=N: N times); the run with the least CPU
# time is shown (the others only add the noise of a shared machine).
runs=${RUNS:-3}
for fmt in table csv json; do
	best=
	for run in $(seq "$runs"); do
		# the previous run's output is removed first: replacing a file of
		# 600 MB costs the kernel 0.1-0.2 s of freeing that is not classify's
		rm -f "$out/result.$fmt"
		/usr/bin/time -f "%e %U %S %M" -o "$out/time" \
			"$bin" classify -f "$fmt" -o "$out/result.$fmt" "$out/ops.csv"
		read -r wall user sys rss_kib <"$out/time"
		cpu=$(echo "$user + $sys" | bc)
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" -eq 1 ]; then
			best=$cpu
			line=$(printf 'classify -f %-5s wall %5.2f s  cpu %5.2f s (user %.2f + sys %.2f)  peak RSS %6.1f MB  output %d bytes' \
				"$fmt" "$wall" "$cpu" "$user" "$sys" \
				"$(echo "$rss_kib * 1024 / 1000000" | bc -l)" "$(wc -c <"$out/result.$fmt")")
		fi
	done
	echo "$line"
	[ "$fmt" = csv ] && csv_cpu=$best
done

# The yardstick: libcsv alone over the same file, best of three.
here=$(dirname "$0")
${CC:-cc} -O2 -o "$out/csv-bare" "$here/csv-bare.c" -lcsv
best=
for run in 1 2 3; do
	/usr/bin/time -f "%e %U %S" -o "$out/time" "$out/csv-bare" "$out/ops.csv" >/dev/null
	read -r wall user sys <"$out/time"
	cpu=$(echo "$user + $sys" | bc)
	if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" -eq 1 ]; then best=$cpu; fi
done
printf 'libcsv bare parse        cpu %5.2f s; classify -f csv takes %.1f times that\n' \
	"$best" "$(echo "$csv_cpu / $best" | bc -l)"
