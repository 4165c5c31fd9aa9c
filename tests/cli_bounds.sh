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

done_testing
