#!/bin/sh
# bench-html.sh - size and speed of the html report (issue 28's goals: a
# 1,500-op trace's page under 2 MB, interactive in under a second in
# headless Chromium). Writes the page of the 1,949-op compiled GPT-2 trace
# (tests/data/impl/), with and without --timeline, and prints its size and
# the time to write it; then loads each in headless Chromium RUNS times
# (default 5) and prints the median of the page's own figures: data-ready-ms,
# when its script has run (ms from the start of navigation: parse, layout
# and script), and data-apply-ms, how long sorting the op table by
# expected_us (and filtering it to one kind) took.
#
# Usage: bench/bench-html.sh [RUNS] [ROOFLINE]   (from the source tree after
# make; needs Debian's chromium)
set -eu
runs=${1:-5}
bin=${2:-./roofline}
trace=$(dirname "$0")/../tests/data/impl/trace_compiled_gpt2_b4_p256_gen9.json.gz
out=${TMPDIR:-/tmp}/roofline-bench-html.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
chromium=$(command -v chromium || command -v chromium-browser || true)

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ops=$("$bin" report "$trace" --hw h200 -f csv 2>/dev/null | tail -n +2 | wc -l)
echo "trace: $trace, $ops ops"
for mode in plain timeline; do
	flag=
	[ "$mode" = timeline ] && flag=--timeline
	t0=$(date +%s%N)
	"$bin" report "$trace" --hw h200 $flag -f html -o "$out/$mode.html" 2>/dev/null
	t1=$(date +%s%N)
	printf '%-8s page %8d bytes (%.2f MB), written in %d ms\n' "$mode" \
		"$(wc -c <"$out/$mode.html")" "$(wc -c <"$out/$mode.html" | awk '{ print $1 / 1e6 }')" \
		$(((t1 - t0) / 1000000))
	[ -n "$chromium" ] || continue
	i=0
	: >"$out/ready" && : >"$out/apply"
	while [ $i -lt "$runs" ]; do
		"$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$out/profile" --dump-dom \
			"file://$out/$mode.html#sort=expected_us&desc=1&kind=matmul" 2>/dev/null >"$out/dom.html"
		sed -n 's/.*data-apply-ms="\([0-9.]*\)".*/\1/p' "$out/dom.html" | head -n 1 >>"$out/apply"
		sed -n 's/.*data-ready-ms="\([0-9.]*\)".*/\1/p' "$out/dom.html" | head -n 1 >>"$out/ready"
		i=$((i + 1))
	done
	printf '%-8s ready %s ms, sort + filter %s ms (medians of %d loads; all: ready %s)\n' "$mode" \
		"$(median <"$out/ready")" "$(median <"$out/apply")" "$runs" "$(tr '\n' ' ' <"$out/ready")"
done
[ -n "$chromium" ] || echo "no chromium: load times not measured"
