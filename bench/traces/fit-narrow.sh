#!/bin/sh
# fit-narrow.sh - the efficiency profile's mem.narrow (issue 25): the
# fraction of the datasheet bandwidth that pointwise kernels of narrow
# accesses (vector_bytes under 16: a Triton kernel's XBLOCK over its
# threads, 2 bf16 elements per thread at XBLOCK 512 and 8 warps) reach, from
# the compiled recordings of tests/data/compile (not the held-out ones of
# tests/data/compile/heldout, kept to judge the fit): per kernel of 5 us or
# more, its bytes over its measured time less the profile's latency_us,
# over the datasheet bandwidth; the median of them.
#
#   bench/traces/fit-narrow.sh [ROOFLINE]     (from the source tree)
set -eu
export LC_ALL=C
R=${1:-./roofline}
P=hwdb/h200-pytorch.efficiency
BW=$(awk -F'[=;]' '$1 ~ /^mem_bandwidth_gbs/ { print $2 + 0; exit }' hwdb/h200-sxm.device)
LAT=$(awk -F'[=;]' '$1 ~ /^latency_us/ { print $2 + 0; exit }' "$P")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fit-narrow.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for f in tests/data/compile/trace_*.json.gz; do
	"$R" import -o "$tmp/o.csv" "$f" 2>/dev/null
	awk -F, -v bw="$BW" -v lat="$LAT" '
	/^#/ { next }
	/^name,/ { for (i = 1; i <= NF; i++) h[$i] = i; next }
	h["vector_bytes"] && $h["vector_bytes"] != "" && $h["vector_bytes"] < 16 &&
	$h["kind"] == "pointwise" && $h["measured_us"] >= 5 {
		print $h["bytes"] / (($h["measured_us"] - lat) * bw * 1e3)
	}' "$tmp/o.csv"
done | sort -g >"$tmp/eff"
n=$(wc -l <"$tmp/eff")
awk -v n="$n" -v bw="$BW" -v lat="$LAT" '
	{ v[NR] = $1 }
	END {
		if (n == 0) { print "no narrow kernels"; exit 1 }
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%d kernels of 5 us or more (datasheet %g GB/s, latency_us %g): fraction p25 %.4f median %.4f p75 %.4f\n",
		       n, bw, lat, v[int(n / 4) + 1], m, v[int(3 * n / 4) + 1]
		printf "mem.narrow = %.4f\n", m
	}' "$tmp/eff"
