#!/bin/sh
# bench-import.sh - speed and memory of "roofline import" (and "report") on a
# large profiler trace. Builds a trace of about MB megabytes (default 100) by
# replicating the events of the BERT-base fixture, each copy shifted in time
# and in its correlation and External ids so that the join stays one to one,
# writes it plain and gzipped under a temporary directory (nothing is kept),
# and prints wall time, CPU time and peak resident memory of each run. The
# goal (issue 5): a 100 MB trace in under 2 s and under 50 MB.
#
# Usage: bench/bench-import.sh [MB] [ROOFLINE]   (run from the source tree
# after make; needs python3 and GNU time, Debian packages "python3", "time")
set -eu
mb=${1:-100}
bin=${2:-./roofline}
src=$(dirname "$0")/../tests/data/trace_bert_base_fwd_b32_s128_bf16.json.gz
out=${TMPDIR:-/tmp}/roofline-bench-import.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

python3 - "$src" "$out/trace.json" "$mb" <<'PY'
import gzip, json, sys
src, dst, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
with gzip.open(src, "rt") as f:
    doc = json.load(f)
events = doc.pop("traceEvents")
span = max(e.get("ts", 0) + e.get("dur", 0) for e in events) - min(e["ts"] for e in events if "ts" in e)
one = len(json.dumps(events))
copies = max(1, int(mb * 1e6 / one))
with open(dst, "w") as f:
    f.write(json.dumps(doc)[:-1] + ', "traceEvents": [\n')
    first = True
    for k in range(copies):
        for e in events:
            if "ts" in e:
                e = dict(e, ts=round(e["ts"] + k * (span + 1000), 3))
            if "args" in e and k:
                a = dict(e["args"])
                for key in ("correlation", "External id"):
                    if key in a:
                        a[key] += k * 10000000
                e = dict(e, args=a)
            if e.get("ph") in ("s", "f") and k:
                e = dict(e, id=e["id"] + k * 10000000)
            f.write(("" if first else ",\n") + json.dumps(e))
            first = False
    f.write("\n]}\n")
print("trace: %d copies of the BERT-base step" % copies)
PY
gzip -1 -k "$out/trace.json"
echo "plain: $(wc -c <"$out/trace.json") bytes, gzipped: $(wc -c <"$out/trace.json.gz") bytes ($bin, $(nproc) cores)"
# Each run three times; the one with the least CPU time is shown.
bench() {
	label=$1
	shift
	best=
	for run in 1 2 3; do
		/usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" "$@" >/dev/null 2>"$out/err"
		read -r wall user sys rss_kib <"$out/time"
		cpu=$(echo "$user + $sys" | bc)
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" -eq 1 ]; then
			best=$cpu
			line=$(printf '%-22s wall %5.2f s  cpu %5.2f s (user %.2f + sys %.2f)  peak RSS %6.1f MB' \
				"$label" "$wall" "$cpu" "$user" "$sys" \
				"$(echo "$rss_kib * 1024 / 1000000" | bc -l)")
		fi
	done
	echo "$line"
}
bench "import trace.json" import -o "$out/ops.csv" "$out/trace.json"
echo "  op list: $(grep -vc '^#' "$out/ops.csv") lines"
bench "import trace.json.gz" import -o "$out/ops.csv" "$out/trace.json.gz"
bench "report trace.json" report -o "$out/report.txt" "$out/trace.json"
