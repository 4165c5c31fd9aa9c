#!/bin/sh
# compare.sh - roofline model against issue 24's families as transformers
# builds and runs them on the H200 (bench/families/measure.py, recorded in
# docs/measurements/h200-issue24-2026-12-03/families.txt): per model and
# step, the weights (summary.memory.weight_bytes / 2, bf16) against
# transformers' parameter count, and the memory fit (memory.total_bytes)
# against torch.cuda.max_memory_allocated over the step. The prefill ran
# with use_cache=False: its prediction is the fit less its KV cache. The
# decode step is the second after the prefill (steady state: measure.py).
# gpt-oss runs --weight-dtype bf16 (measure.py drops its quantization_config).
# DeepSeek-V2-Lite runs the default --mla absorb: transformers 5.17's
# DeepseekV2Attention caches the latent, as absorb does (it then expands K
# and V from it every step, which neither form's rows are).
# Then the GPU time, the kernels' summed time of one profiled step, against
# expected_gpu_us of the fused rows (the default) and of --impl hf, and the
# kernels counted against summary.kernels.
#
#   bench/families/compare.sh [ROOFLINE [MEASURED]]      (from the source tree)
#
# The last lines: the median and the worst |error| of the memory, of the
# fused rows and of --impl hf.
set -eu
export LC_ALL=C
R=${1:-./roofline}
M=${2:-docs/measurements/h200-issue24-2026-12-03/families.txt}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-families.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf '%-18s %-7s %12s %6s %8s %8s %6s %8s %6s %8s %8s %7s %8s %7s %5s %5s\n' model step params \
	weight predGB measGB err% hfGB err% gpu_us fusedus err% hf_us err% kern hfk
while IFS="$(printf '\t')" read -r name step b len params peak us nk kus; do
	[ "$step" = error ] && continue
	if [ "$step" = decode ]; then
		opt="--phase decode --batch $b --context $len"
	else
		opt="--phase prefill --batch $b --seq $len"
	fi
	case $name in
	gpt-oss-20b) opt="$opt --weight-dtype bf16" ;;
	esac
	# shellcheck disable=SC2086
	"$R" model --hw h200 -f json $opt "examples/$name.json" >"$tmp/o.json"
	# shellcheck disable=SC2086
	# measure.py's prefill asks logits_to_keep=1, as generate() does
	impl=hf
	[ "$step" = prefill ] && impl=hf:logits=last
	# shellcheck disable=SC2086
	"$R" model --hw h200 -f json --impl $impl $opt "examples/$name.json" >"$tmp/h.json"
	python3 - "$tmp/o.json" "$tmp/h.json" "$name" "$step" "$params" "$peak" "$nk" "$kus" \
		<<'PY' >>"$tmp/rows"
import json, sys
d, h = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m = d["summary"]["memory"]
name, step = sys.argv[3], sys.argv[4]
params, peak, nk, kus = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8])
pred = m["total_bytes"] - (m["kv_bytes"] if step == "prefill" else 0)
mh = h["summary"]["memory"]
hpred = mh["total_bytes"] - (mh["kv_bytes"] if step == "prefill" else 0)
w = m["weight_bytes"] / 2
f, g = d["summary"]["expected_gpu_us"], h["summary"]["expected_gpu_us"]
print("%-18s %-7s %12d %6s %8.3f %8.3f %6.1f %8.3f %6.1f %8.0f %8.0f %7.1f %8.0f %7.1f %5d %5d" % (
      name, step, params, "exact" if w == params else "%+.2f%%" % (100 * (w / params - 1)),
      pred / 1e9, peak / 1e9, 100 * (pred / peak - 1), hpred / 1e9, 100 * (hpred / peak - 1),
      kus, f, 100 * (f / kus - 1),
      g, 100 * (g / kus - 1), nk, h["summary"]["kernels"]))
PY
done <"$M"
cat "$tmp/rows"
for c in 7 9; do
	awk -v c=$c '{e = $c < 0 ? -$c : $c; print e}' "$tmp/rows" | sort -n |
		awk -v w="$([ $c = 7 ] && echo fused || echo 'impl hf')" '{a[NR] = $1} END {
		     m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
		     printf "memory |error| (%s): median %.1f %%, worst %.1f %% over %d steps\n", w, m, a[NR], NR}'
done
