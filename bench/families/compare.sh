#!/bin/sh
# compare.sh - roofline model against issue 24's families as transformers
# builds and runs them on the H200 (bench/families/measure.py, recorded in
# docs/measurements/h200-issue24-2026-12-03/families.txt): per model and
# step, the weights (summary.memory.weight_bytes / 2, bf16) against
# transformers' parameter count, and the memory fit (memory.total_bytes)
# against torch.cuda.max_memory_allocated over the step. The prefill ran
# with use_cache=False: its prediction is the fit less its KV cache. The
# decode step is the second after the prefill (steady state: measure.py).
#
#   bench/families/compare.sh [ROOFLINE [MEASURED]]      (from the source tree)
#
# The last line: the median and the worst |error| of the memory.
set -eu
export LC_ALL=C
R=${1:-./roofline}
M=${2:-docs/measurements/h200-issue24-2026-12-03/families.txt}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-families.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf '%-20s %-8s %16s %9s %10s %10s %7s\n' model step params weights predGB measGB err%
while IFS="$(printf '\t')" read -r name step b len params peak us; do
	[ "$step" = error ] && continue
	if [ "$step" = decode ]; then
		opt="--phase decode --batch $b --context $len"
	else
		opt="--phase prefill --batch $b --seq $len"
	fi
	# shellcheck disable=SC2086
	"$R" model -f json $opt "examples/$name.json" >"$tmp/o.json"
	python3 - "$tmp/o.json" "$name" "$step" "$params" "$peak" <<'PY' >>"$tmp/rows"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["summary"]["memory"]
name, step, params, peak = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
pred = m["total_bytes"] - (m["kv_bytes"] if step == "prefill" else 0)
w = m["weight_bytes"] / 2
print("%-20s %-8s %16d %9s %10.3f %10.3f %7.1f" % (name, step, params,
      "exact" if w == params else "%+.2f%%" % (100 * (w / params - 1)),
      pred / 1e9, peak / 1e9, 100 * (pred / peak - 1)))
PY
done <"$M"
cat "$tmp/rows"
awk '{e = $7 < 0 ? -$7 : $7; print e}' "$tmp/rows" | sort -n |
	awk '{a[NR] = $1} END {m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
	     printf "memory |error|: median %.1f %%, worst %.1f %% over %d steps\n", m, a[NR], NR}'
