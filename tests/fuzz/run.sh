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
# Prints one line per harness; exits 1 when any harness failed (a crash, a
# leak, a timeout, an input over the memory limit).
set -u
mode=$1 srcdir=$2 out=$3 seconds=$4
shift 4
: "${FUZZ_TIMEOUT:=10}" "${FUZZ_RSS_MB:=2048}"
# halt on the first report; a leak is a failure like a crash
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
failed=0
for name in "$@"; do
	h=tests/fuzz/fuzz_$name
	corpus=$srcdir/tests/fuzz/corpus/$name
	dict=$srcdir/tests/fuzz/$name.dict
	mkdir -p "$out/$name/new" || exit 1
	log=$out/$name.log
	set -- -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" -artifact_prefix="$out/$name/"
	[ -f "$dict" ] && set -- "$@" -dict="$dict"
	# Inputs up to 1 MB for the JSON and CSV readers: libFuzzer's default
	# (the largest seed, at least 4 KB) could not nest JSON 400,000 deep
	# nor write an endless row (issue 21). A database directory up to 64 KB.
	# The line formats (hwdb, attrs, symbols) keep the default.
	case $name in
	oplist | trace | bench | validate | hfconfig | sweep) set -- "$@" -max_len=1048576 ;;
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
		n=$(ls "$corpus" | wc -l)
		summary="$n corpus files replayed"
	fi
	if [ $rc -eq 0 ]; then
		echo "fuzz_$name: ok: $summary"
	else
		failed=1
		echo "fuzz_$name: FAILED (exit $rc): $summary; see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" | head -n 8
	fi
done
exit $failed
