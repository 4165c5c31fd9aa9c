#!/bin/sh
# compare-train.sh - the static training step (classify --train on a
# model's forward op list) against the recorded step of the same model
# (issue 14, item 4): per phase, the FLOPs (the imported rows' FLOPs, counted
# from the trace's recorded shapes), the bytes, and the time: the static
# expected GPU time (count x expected_gpu_us summed) against the measured
# GPU time (the trace's kernel times summed).
#
#   bench/traces/compare-train.sh [ROOFLINE]     (from the source tree)
#
# ROOFLINE defaults to ./roofline. One block per model and implementation
# (classify --impl: fused, the ideal backward, and hf, with the kernels
# PyTorch's eager autograd launches beside it; IMPLS="fused hf" by default);
# the last line of each says whether the goals hold: backward FLOPs within
# 5 %, the step's time within 25 %.
set -eu
export LC_ALL=C
R=${1:-./roofline}
IMPLS=${IMPLS:-fused hf}
D=tests/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-train.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# model: name, trace, op list, --set, classify's training options
models="resnet18|trace_train_resnet18_b64_sgd_amp|train-resnet18.csv|B=64|--optimizer sgd --weight-decay
gpt2-l6|trace_train_gpt2_l6_b8_s512_adamw_amp|train-gpt2.csv|B=8|--optimizer adamw
vit-b16|trace_train_vit_b16_b32_adamw_fused_amp|train-vit-b16.csv|B=32|--optimizer adamw --fused-optimizer"

# sums FILE: per phase, FLOPs, bytes, expected GPU time and measured time
# (each times count) of a classify csv
sums() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		c = $h["count"]; p = $h["phase"]
		F[p] += c * $h["flops"]; B[p] += c * $h["bytes"]
		E[p] += c * $h["expected_gpu_us"]
		if ($h["measured_us"] != "") M[p] += c * $h["measured_us"]
	}
	END {
		n = split("forward backward optimizer", ph, " ")
		for (i = 1; i <= n; i++) {
			p = ph[i]
			printf "%s %.17g %.17g %.17g %.17g\n", p, F[p], B[p], E[p], M[p]
			F["all"] += F[p]; B["all"] += B[p]; E["all"] += E[p]; M["all"] += M[p]
		}
		printf "all %.17g %.17g %.17g %.17g\n", F["all"], B["all"], E["all"], M["all"]
	}' "$1"
}

for impl in $IMPLS; do
echo "$models" | while IFS='|' read -r name trace list set opts; do
	"$R" import -o "$tmp/t.csv" "$D/$trace.json.gz" 2>/dev/null
	"$R" classify --hw h200 -f csv "$tmp/t.csv" >"$tmp/trace.csv" 2>/dev/null
	# shellcheck disable=SC2086
	"$R" classify --train --autocast --impl "$impl" $opts --hw h200 --set "$set" -f csv \
		"$D/$list" >"$tmp/static.csv"
	sums "$tmp/trace.csv" >"$tmp/t.sum"
	sums "$tmp/static.csv" >"$tmp/s.sum"
	echo "== $name: $D/$list --set $set --train --autocast --impl $impl $opts --hw h200"
	echo "   against $D/$trace.json.gz"
	paste -d " " "$tmp/s.sum" "$tmp/t.sum" | awk '
	BEGIN {
		printf "%-9s %11s %11s %6s %9s %9s %6s %10s %10s %6s\n", "phase", "GFLOP", "trace",
			"diff", "GB", "trace", "diff", "exp_us", "meas_us", "ratio"
	}
	function d(a, b) { return b > 0 ? sprintf("%+.1f%%", (a - b) / b * 100) : "-" }
	{
		printf "%-9s %11.2f %11.2f %6s %9.3f %9.3f %6s %10.1f %10.1f %6.3f\n", $1, $2 / 1e9,
			$7 / 1e9, d($2, $7), $3 / 1e9, $8 / 1e9, d($3, $8), $4, $10,
			($10 > 0 ? $4 / $10 : 0)
		if ($1 == "backward") fb = $7 > 0 ? ($2 - $7) / $7 : 1
		if ($1 == "all") t = $10 > 0 ? $4 / $10 : 0
	}
	END {
		printf "goals: backward FLOPs %s (within 5 %%), step time %.1f %% of measured %s (within 25 %%)\n",
			(fb < 0.05 && fb > -0.05) ? "met" : "MISSED", t * 100,
			(t > 0.75 && t < 1.25) ? "met" : "MISSED"
	}'
done
done
