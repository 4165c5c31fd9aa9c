#!/bin/sh
# compare-compiled.sh - torch.compile's traces (issue 25) through roofline
# report: per trace, the share of the kernel time in rows that are not
# custom, the total expected GPU time against the measured one, and the
# median error of the rows of 20 us or more; the recordings of
# tests/data/compile (the traces the import's rules were worked out on)
# and, apart, those of tests/data/compile/heldout (recorded with them,
# chosen before the rules were set, read only for this table).
#
#   bench/traces/compare-compiled.sh [ROOFLINE]     (from the source tree)
#
# ROOFLINE defaults to ./roofline. The goals: at least 95 % of the kernel
# time not custom, the total within 15 %, the median per kernel of 20 us or
# more within 15 %; the last column says which hold.
set -eu
export LC_ALL=C
R=${1:-./roofline}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-compiled.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one trace: name, not-custom share, measured, expected, error, rows >= 20
# us, their median error, the goals held
one() {
	"$R" report "$1" -f csv -o "$tmp/r.csv" 2>/dev/null
	awk -F, -v name="$(basename "$1" .json.gz | sed 's/^trace_//')" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		m = $h["measured_us"] + 0; e = $h["expected_gpu_us"] + 0
		M += m; E += e
		if ($h["kind"] == "custom") C += m
		if (m >= 20) { n++; err[n] = (e > m ? e - m : m - e) / m }
	}
	END {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (err[j] < err[i]) { t = err[i]; err[i] = err[j]; err[j] = t }
		med = n == 0 ? 0 : n % 2 ? err[(n + 1) / 2] : (err[n / 2] + err[n / 2 + 1]) / 2
		share = M > 0 ? 100 * (M - C) / M : 0
		tot = M > 0 ? 100 * (E - M) / M : 0
		goals = (share >= 95 ? "rows" : "-") " " ((tot < 15 && tot > -15) ? "total" : "-") \
		        " " (100 * med <= 15 ? "kernels" : "-")
		printf "%-54s %6.1f %9.1f %9.1f %+7.1f %4d %6.1f  %s\n", substr(name, 1, 54), share, M, E,
		       tot, n, 100 * med, goals
	}' "$tmp/r.csv"
}

header() {
	printf "\n%s\n%-54s %6s %9s %9s %7s %4s %6s  %s\n" "$1" "trace" "rows%" "meas_us" "exp_us" \
	       "total%" "n20" "med20%" "goals"
}

header "recorded (the rules were worked out on these)"
for f in tests/data/compile/trace_*.json.gz; do one "$f"; done
header "held out"
for f in tests/data/compile/heldout/trace_*.json.gz; do one "$f"; done
