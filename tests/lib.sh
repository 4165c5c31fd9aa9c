# lib.sh - shared preamble of the CLI tests: TAP output, a scratch directory,
# and helpers that run the built binary. Sourced by tests/cli_*.sh, which
# automake runs with ROOFLINE and top_srcdir set (see Makefile.am).
set -u
LC_ALL=C
export LC_ALL
: "${ROOFLINE:?run through make check, or set ROOFLINE to the binary}"
: "${top_srcdir:?set top_srcdir to the source tree}"
ROOFLINE_HWDB="$top_srcdir/hwdb"
export ROOFLINE_HWDB
unset ROOFLINE_HW
EX="$top_srcdir/examples"
DATA="$top_srcdir/tests/data"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/roofline-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	shift
	for line in "$@"; do echo "# $line"; done
}
# check DESC CMD...: passes when CMD succeeds.
check() {
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc" "failed: $*"; fi
}
done_testing() { echo "1..$n"; [ "$failed" -eq 0 ]; }

# run ARGS...: runs roofline, stdout to $tmp/out, stderr to $tmp/err, status in $rc.
run() {
	"$ROOFLINE" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# csv_field FILE ROW_NAME COLUMN: the value of COLUMN in the row whose name is
# ROW_NAME, from roofline's csv output (names here need no quoting).
csv_field() {
	awk -F, -v row="$2" -v col="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$1 == row { print $c; exit }' "$1"
}
# expect_error DESC STATUS PATTERN ARGS...: roofline ARGS exits STATUS, prints
# nothing on stdout, and stderr matches PATTERN (grep -E).
expect_error() {
	desc=$1 want=$2 pattern=$3
	shift 3
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		not_ok "$desc" "exit $rc, want $want" "$(head -n 3 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		not_ok "$desc" "stdout not empty"
	elif ! grep -Eq -- "$pattern" "$tmp/err"; then
		not_ok "$desc" "stderr lacks /$pattern/:" "$(head -n 3 "$tmp/err")"
	else
		ok "$desc"
	fi
}
