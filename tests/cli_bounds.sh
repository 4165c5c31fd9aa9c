#!/bin/sh
# cli_bounds.sh - input at the edges (issue 21): data bytes in messages, a
# database holding fifos and other non-files, JSON nested past the cap,
# times too small to divide by, endless input. Each case gets one message
# (file, field or line, what was expected), a non-zero exit, no crash and
# nothing on stdout, in bounded time.
. "$top_srcdir/tests/lib.sh"

# no_raw_bytes DESC FILE: FILE holds no control byte and no byte >= 0x80 (the
# message's data bytes were escaped).
no_raw_bytes() {
	if LC_ALL=C grep -q '[[:cntrl:]]' "$2" || LC_ALL=C grep -q "$(printf '[\200-\377]')" "$2"; then
		not_ok "$1" "raw bytes on stderr: $(od -c "$2" | head -n 4 | tr '\n' ' ')"
	else
		ok "$1"
	fi
}

# --- data bytes in messages are escaped ------------------------------------
# A device file whose key is ^A ^B and the terminal's "clear screen".
printf 'id = esc\nname = esc\n\001\002\033[2J = 5\n' >"$tmp/esc.device"
expect_error "a device file's key with ESC: one message" 1 \
	"esc.device:3: unknown key '\\\\x01\\\\x02\\\\x1b\\[2J'" hw show "$tmp/esc.device"
no_raw_bytes "... with no raw control byte" "$tmp/err"
# An op list's kind: ESC [31m, and a lone C1 CSI (0x9b, not UTF-8).
printf 'name,kind,dtype,shape\na,\033[31mred\233J,fp32,4\n' >"$tmp/esc.csv"
expect_error "an op list's kind with ESC and CSI: one message" 1 \
	"esc.csv:2: column 'kind': unknown kind '\\\\x1b\\[31mred\\\\x9bJ'" \
	classify --hw h100-sxm "$tmp/esc.csv"
no_raw_bytes "... with no raw control byte or C1" "$tmp/err"
# Valid UTF-8 stays readable (U+00B5, the micro sign, is past the C1 range).
printf 'name,kind,dtype,shape\na,\302\265copy,fp32,4\n' >"$tmp/utf8.csv"
run classify --hw h100-sxm "$tmp/utf8.csv"
check "UTF-8 text in a message is kept" grep -q "unknown kind '$(printf '\302\265')copy'" "$tmp/err"

# --- JSON nested past the cap ---------------------------------------------
# 400,000 arrays (800 KB) crashed yajl_tree_free with SIGSEGV; 64 levels is
# the cap (json.h). "not_crashed": no signal (139 SIGSEGV, 134 SIGABRT).
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "["; for (i = 0; i < 400000; i++) printf "]"; print "" }' \
	>"$tmp/deep.json"
deep() {
	desc=$1
	shift
	run "$@"
	if [ "$rc" -ne 1 ]; then
		not_ok "$desc" "exit $rc, want 1" "$(head -n 2 "$tmp/err" | cut -c 1-200)"
	elif [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		not_ok "$desc" "not one message and an empty stdout" "$(head -n 2 "$tmp/err" | cut -c 1-200)"
	elif ! grep -q "deep.json:1:65: nesting deeper than 64 levels" "$tmp/err"; then
		not_ok "$desc" "stderr: $(head -n 2 "$tmp/err" | cut -c 1-200)"
	else
		ok "$desc"
	fi
}
deep "model: a config.json of 400,000 nested arrays" model "$tmp/deep.json"
deep "bench --from: a recording of 400,000 nested arrays" bench --from "$tmp/deep.json"
deep "validate --from: a recording of 400,000 nested arrays" validate --from "$tmp/deep.json"
deep "calibrate --from: a recording of 400,000 nested arrays" \
	calibrate --from "$tmp/deep.json" -o "$tmp/deep.device"
check "... and no device file written" test ! -e "$tmp/deep.device"

# --- times too small to divide by ------------------------------------------
# A sample of 1e-300 us made 'inf GB/s' in the table and a bare inf in -f
# json, which bench --from then refused; validate's gpu_us the same in
# compute_fraction. The floor is 1 ns (bench.h).
M="$top_srcdir/docs/measurements/h200-issue12-2026-12-01"
sed 's/"samples_us": \[/"samples_us": [ 1e-300,/' "$M/bench.json" >"$tmp/tiny.json"
expect_error "bench --from: a sample of 1e-300 us is refused, the field named" 1 \
	"tiny.json: entries\[0\]\.samples_us\[0\]: expected a time in microseconds from 0\.001 \(1 ns\) to 3\.6e9 \(an hour\), not 1e-300" \
	bench --from "$tmp/tiny.json"
expect_error "bench --from -f json: the same, no JSON written" 1 "samples_us\[0\]: expected a time" \
	bench --from "$tmp/tiny.json" -f json
sed 's/"samples_us": \[/"samples_us": [ 0.0009,/' "$M/bench.json" >"$tmp/sub-ns.json"
expect_error "bench --from: 0.9 ns is below the floor" 1 "samples_us\[0\]: .*, not 0\.0009" \
	bench --from "$tmp/sub-ns.json"
sed 's/"samples_us": \[/"samples_us": [ 0.001,/' "$M/bench.json" >"$tmp/one-ns.json"
run bench --from "$tmp/one-ns.json" -f json
check "bench --from: 1 ns is a time (exit 0)" test "$rc" -eq 0
check "... and its JSON holds no inf or nan" sh -c "! grep -Eiq '(inf|nan)[,}]?$' '$tmp/out'"
sed 's/"bytes": 2147483648,/"bytes": 1e308,/' "$M/bench.json" >"$tmp/huge-bytes.json"
expect_error "bench --from: 1e308 bytes is not a count" 1 \
	"entries\[0\]\.bytes: expected a whole number from 0 to 2\^53" bench --from "$tmp/huge-bytes.json"
sed 's/"gpu_us": 549.384/"gpu_us": 1e-300/' "$DATA/validate-one.json" >"$tmp/vtiny.json"
expect_error "validate --from: gpu_us of 1e-300 is refused, the field named" 1 \
	"vtiny.json: results\[0\]\.gpu_us: expected a time in microseconds from 0\.001 \(1 ns\) to 3\.6e9 \(an hour\), not 1e-300" \
	validate --from "$tmp/vtiny.json" --hw h200-sxm-measured
expect_error "validate --from -f json: the same, no JSON written" 1 "results\[0\]\.gpu_us: expected" \
	validate --from "$tmp/vtiny.json" --hw h200-sxm-measured -f json
sed 's/"wall_us": 552.5153/"wall_us": 1e999/' "$DATA/validate-one.json" >"$tmp/vhuge.json"
expect_error "validate --from: wall_us of 1e999 is refused" 1 "results\[0\]\.wall_us: expected a time" \
	validate --from "$tmp/vhuge.json" --hw h200-sxm-measured

# --- a database holding fifos, directories and dangling links ---------------
# Every command scans the database: a fifo named *.device, .runtime, .system
# or .efficiency blocked them all (the scan opened it and waited for a
# writer). Such entries are skipped (docs/hwdb-format.md); "timeout 5" turns
# a regression into a failure rather than a hang.
# run5 ARGS...: run, within 5 s (rc 124 when it was stopped).
if command -v timeout >/dev/null 2>&1; then
	run5() {
		timeout 5 "$ROOFLINE" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
	}
else
	run5() { run "$@"; }
fi
mkdir "$tmp/db"
cp "$top_srcdir"/hwdb/*.device "$top_srcdir"/hwdb/*.runtime "$top_srcdir"/hwdb/*.system \
	"$top_srcdir"/hwdb/*.efficiency "$tmp/db/"
mkfifo "$tmp/db/fifo.device" "$tmp/db/fifo.runtime" "$tmp/db/fifo.system" \
	"$tmp/db/fifo.efficiency" "$tmp/fifo.efficiency"
mkdir "$tmp/db/dir.device" "$tmp/db/dir.efficiency"
ln -s nowhere.device "$tmp/db/dangling.device"
ln -s loop.system "$tmp/db/loop.system"
run5 hw list --hwdb "$tmp/db"
check "hw list: a database with fifos, directories and dangling links (exit $rc)" test "$rc" -eq 0
check "... lists its devices" grep -q '^h100-sxm ' "$tmp/out"
run5 hw systems --hwdb "$tmp/db"
check "hw systems: the same database (exit $rc)" test "$rc" -eq 0
printf 'name,kind,dtype,shape\nmm,matmul,bf16,4096x4096x4096\n' >"$tmp/mm.csv"
run5 classify --hwdb "$tmp/db" --hw h200-sxm -f csv "$tmp/mm.csv"
check "classify: the efficiency scan skips the fifo and the directory (exit $rc)" test "$rc" -eq 0
exp_us=$(csv_field "$tmp/out" mm expected_gpu_us)
check "... and picks the H200's profile (an expected time: ${exp_us:-none})" \
	awk -v v="${exp_us:-0}" 'BEGIN { exit !(v > 0) }'
run5 classify --hw h200-sxm --efficiency "$tmp/fifo.efficiency" "$tmp/mm.csv"
check "--efficiency FIFO (no writer): one message, exit 1 (exit $rc)" \
	sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/err') -eq 1 && grep -q \"fifo.efficiency: an efficiency profile needs 'id'\" '$tmp/err'"
run5 hw show "$tmp/db/fifo.device"
check "hw show FIFO: one message, exit 1 (exit $rc)" \
	sh -c "test $rc -eq 1 && grep -q \"fifo.device: missing key 'id'\" '$tmp/err'"
expect_error "hw show DIRECTORY: one message" 1 "dir.device': is a directory" hw show "$tmp/db/dir.device"

# --- endless input ------------------------------------------------------------
# plot --sweep-table - < /dev/zero grew by about 150 MB a second without end
# (libcsv buffered the one field); the row cap (sweep.h) and the NUL check
# refuse it at once. bounded DESC PATTERN ARGS... runs roofline on
# /dev/zero within 5 s and, outside the sanitizer build (ASan reserves
# terabytes of address space), 200 MiB of address space, its peak RSS
# measured where /usr/bin/time is.
asan=0
ldd "$ROOFLINE" 2>/dev/null | grep -q 'libasan\|libclang_rt' && asan=1
bounded() {
	desc=$1 pattern=$2
	shift 2
	: >"$tmp/rss"
	(
		[ "$asan" -eq 1 ] || ulimit -v 204800
		if [ -x /usr/bin/time ]; then
			exec /usr/bin/time -f %M -o "$tmp/rss" timeout 5 "$ROOFLINE" "$@"
		else
			exec timeout 5 "$ROOFLINE" "$@"
		fi
	) </dev/zero >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rss=$(tail -n 1 "$tmp/rss")
	case $rss in *[!0-9]* | "") rss=0 ;; esac
	if [ "$rc" -ne 1 ]; then
		not_ok "$desc" "exit $rc, want 1" "$(head -n 2 "$tmp/err" | cut -c 1-200)"
	elif ! grep -q -- "$pattern" "$tmp/err"; then
		not_ok "$desc" "stderr lacks /$pattern/: $(head -n 2 "$tmp/err" | cut -c 1-200)"
	elif [ "$rss" -gt 204800 ]; then
		not_ok "$desc" "peak RSS $rss KiB"
	else
		ok "$desc (peak RSS ${rss} KiB)"
	fi
}
if command -v timeout >/dev/null 2>&1; then
	bounded "plot --sweep-table - < /dev/zero: refused at once" \
		"<stdin>:1: NUL byte: not a sweep's csv" plot --sweep-table - -o "$tmp/zero.svg"
	check "... and no chart written" test ! -e "$tmp/zero.svg"
	bounded "classify - < /dev/zero (the op-list reader's line cap, for comparison)" \
		"<stdin>:1: " classify --hw h100-sxm -
fi
awk 'BEGIN { printf "batch,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,\""; for (i = 0; i < 40000; i++) print "y" }' \
	>"$tmp/long-row.csv"
expect_error "plot --sweep-table: a quoted field of 40,000 lines is a row over the cap" 1 \
	"long-row.csv:[0-9]*: a row longer than 65536 bytes: not a sweep's csv" \
	plot --sweep-table "$tmp/long-row.csv" -o "$tmp/long.svg"

done_testing
