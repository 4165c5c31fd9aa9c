#!/bin/sh
# tests/fuzz/run.sh - runs the libFuzzer harnesses (docs/fuzzing.md); called by
# "make fuzz" and "make fuzz-regress" in the build directory.
#
#   run.sh fuzz SRCDIR OUTDIR SECONDS NAME...  fuzz each harness for SECONDS,
#       one after another; new inputs go to OUTDIR/NAME/new (never into the
#       committed corpus), crashes, leaks and timeouts to OUTDIR/NAME/; the
#       log is OUTDIR/NAME.log
#   run.sh regress SRCDIR OUTDIR - NAME...     run each committed corpus once
#
# FUZZ_JOBS=N in the environment runs N harnesses at a time (default 1),
# for a machine with cores to spare: every harness still gets SECONDS.
#
# Prints one line per harness, in the order given; exits 1 when any harness
# failed (a crash, a leak, a timeout, an input over the memory limit).
set -u
mode=$1 srcdir=$2 out=$3 seconds=$4
shift 4
: "${FUZZ_TIMEOUT:=10}" "${FUZZ_RSS_MB:=2048}" "${FUZZ_JOBS:=1}"
# halt on the first report; a leak is a failure like a crash
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
# one NAME: runs harness NAME, prints its line; returns 1 when it failed
one() {
	name=$1
	h=tests/fuzz/fuzz_$name
	corpus=$srcdir/tests/fuzz/corpus/$name
	dict=$srcdir/tests/fuzz/$name.dict
	mkdir -p "$out/$name/new" || return 1
	log=$out/$name.log
	set -- -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" -artifact_prefix="$out/$name/"
	[ -f "$dict" ] && set -- "$@" -dict="$dict"
	# Inputs up to 1 MB for the JSON and CSV readers: libFuzzer's default
	# (the largest seed, at least 4 KB) could not nest JSON 400,000 deep
	# nor write an endless row (issue 21). A database directory up to 64 KB.
	# The line formats (hwdb, attrs, symbols) keep the default.
	case $name in
	oplist | trace | bench | validate | hfconfig | model | sweep) set -- "$@" -max_len=1048576 ;;
	hwdbscan) set -- "$@" -max_len=65536 ;;
	esac
	if [ "$mode" = fuzz ]; then
		"$h" "$@" -max_total_time="$seconds" -print_final_stats=1 "$out/$name/new" "$corpus" >"$log" 2>&1
	else
		"$h" "$@" -runs=0 "$corpus" >"$log" 2>&1
	fi
	rc=$?
	if [ "$mode" = fuzz ]; then
		# "#1234 DONE cov: 1 ft: 2 corp: ..." and the final stats
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		done_=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 | sed 's/^#[0-9]*[[:space:]]*DONE[[:space:]]*//')
		summary="${runs:-?} runs, ${done_:-no DONE line}"
	else
		files=$(ls "$corpus" | wc -l)
		summary="$files corpus files replayed"
	fi
	if [ $rc -eq 0 ]; then
		echo "fuzz_$name: ok: $summary"
	else
		echo "fuzz_$name: FAILED (exit $rc): $summary; see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" | head -n 8
		return 1
	fi
}

failed=0
if [ "$FUZZ_JOBS" -le 1 ]; then
	for n in "$@"; do
		one "$n" || failed=1
	done
	exit $failed
fi
# N at a time, each one's line to OUTDIR/NAME.line, printed in order
mkdir -p "$out" || exit 1
running=0
for n in "$@"; do
	(one "$n" >"$out/$n.line" 2>&1; echo $? >"$out/$n.rc") &
	running=$((running + 1))
	if [ "$running" -ge "$FUZZ_JOBS" ]; then
		wait
		running=0
	fi
done
wait
for n in "$@"; do
	cat "$out/$n.line"
	[ "$(cat "$out/$n.rc" 2>/dev/null)" = 0 ] || failed=1
done
exit $failed
