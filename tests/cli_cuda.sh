#!/bin/sh
# cli_cuda.sh - the CUDA parts are a plugin (src/cuda_plugin.h): roofline
# itself links no CUDA library, maps none for a command that does not use the
# GPU, runs every such command where the plugin cannot be loaded, and a GPU
# command there fails with one line. In a build without CUDA the CUDA-only
# checks are TAP SKIPs and the GPU commands must say the build has no CUDA.
. "$top_srcdir/tests/lib.sh"

builddir=$(dirname "$ROOFLINE")
plugin="$builddir/src/roofline-cuda.so"
if grep -q '^#define RL_HAVE_CUDA 1' "$builddir/config.h" 2>/dev/null; then
	cuda=1
else
	cuda=0
fi
# cuda_check DESC CMD...: check, or a TAP SKIP in a build without CUDA.
cuda_check() {
	if [ "$cuda" -eq 1 ]; then
		check "$@"
	else
		n=$((n + 1)); echo "ok $n - $1 # SKIP this build has no CUDA"
	fi
}
# one_line FILE: FILE is exactly one line, "roofline: ...".
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q '^roofline: ' "$1"; }

# Linked: nothing of CUDA in roofline; cuBLASLt (and the static cudart) in the
# plugin, which exports its entry point and nothing else.
check "roofline needs no CUDA library (readelf -d)" \
	sh -c "! readelf -d '$ROOFLINE' | grep -Ei 'NEEDED.*(cuda|cublas|nvidia)'"
cuda_check "the plugin is built beside the library" test -f "$plugin"
cuda_check "the plugin needs libcublasLt" \
	sh -c "readelf -d '$plugin' | grep -q 'NEEDED.*libcublasLt'"
cuda_check "the plugin exports rl_cuda_plugin and no other rl_ symbol" \
	sh -c "nm -D --defined-only '$plugin' | awk '\$3 ~ /^rl_/ { print \$3 }' | tr '\n' ' ' | grep -qx 'rl_cuda_plugin '"

# Mapped: ld.so names every library it loads (LD_DEBUG=files); a command that
# does not use the GPU loads none of CUDA, with the plugin found or not.
LD_DEBUG=files "$ROOFLINE" --version >"$tmp/out" 2>"$tmp/err"
check "--version maps a library (LD_DEBUG works here)" grep -q 'file=libc\.so' "$tmp/err"
check "--version maps no CUDA library" sh -c "! grep -Ei 'file=[^ ]*(cudart|cublas|libcuda|roofline-cuda)' '$tmp/err'"
LD_DEBUG=files "$ROOFLINE" classify --hw h100-sxm "$EX/bert-base.csv" >"$tmp/out" 2>"$tmp/err"
check "classify maps no CUDA library" sh -c "! grep -Ei 'file=[^ ]*(cudart|cublas|libcuda|roofline-cuda)' '$tmp/err'"

# Without the plugin: every non-GPU command works...
export ROOFLINE_CUDA_PLUGIN=/nonexistent/roofline-cuda.so
run --version
check "--version without the plugin" test "$rc" -eq 0
run classify --hw h100-sxm "$EX/bert-base.csv" -f csv
check "classify without the plugin" test "$rc" -eq 0 -a -s "$tmp/out"
run probe --attrs "$DATA/gpu/h200.attrs"
check "probe --attrs (a recorded device) without the plugin" test "$rc" -eq 0
run hw list
check "hw list without the plugin" test "$rc" -eq 0

# ... and each GPU command fails with exit 1 and one line that says why.
if [ "$cuda" -eq 1 ]; then
	why='cannot load the CUDA parts (/nonexistent/roofline-cuda.so: cannot open shared object file'
else
	why='this build has no CUDA support'
fi
for cmd in "devices" "probe" "bench --quick" "classify --hw live $EX/bert-base.csv"; do
	# shellcheck disable=SC2086
	run $cmd
	check "$cmd without the plugin: exit 1" test "$rc" -eq 1
	check "$cmd without the plugin: one line on stderr" one_line "$tmp/err"
	check "$cmd without the plugin: says why" grep -qF "$why" "$tmp/err"
done
cuda_check "the message says which CUDA libraries the GPU commands need" \
	grep -q 'need the CUDA [0-9][0-9]* libraries (cuBLASLt)' "$tmp/err"

# A machine without the CUDA libraries: every directory that holds
# libcublasLt (the plugin's run path, the loader's cache) hidden under an
# empty one, in a mount namespace of this test's own (root only; skipped
# where unshare or mount is refused).
unset ROOFLINE_CUDA_PLUGIN
hidden=99
if [ "$cuda" -eq 1 ]; then
	dirs=$({
		readelf -d "$plugin" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p' | tr ':' '\n'
		ldconfig -p 2>/dev/null | awk '/libcublasLt\.so/ { print $NF }' | xargs -r -n 1 dirname
	} | sort -u)
	mkdir "$tmp/empty"
	# shellcheck disable=SC2016,SC2086
	unshare -m sh -c '
		e=$1; r=$2; o=$3; ops=$4; shift 4
		for d; do [ ! -d "$d" ] || mount --bind "$e" "$d" 2>/dev/null || exit 99; done
		"$r" classify --hw h100-sxm "$ops" -f csv >"$o/c.out" 2>/dev/null
		echo $? >"$o/c.rc"
		"$r" devices >/dev/null 2>"$o/d.err"
		echo $? >"$o/d.rc"' sh "$tmp/empty" "$ROOFLINE" "$tmp" "$EX/bert-base.csv" $dirs 2>/dev/null
	hidden=$?
fi
if [ "$hidden" -eq 0 ]; then
	check "no CUDA library: classify works" test "$(cat "$tmp/c.rc")" -eq 0 -a -s "$tmp/c.out"
	check "no CUDA library: devices exits 1" test "$(cat "$tmp/d.rc")" -eq 1
	check "no CUDA library: in one line" one_line "$tmp/d.err"
	check "... naming the plugin and the library it lacks" \
		grep -q "cannot load the CUDA parts ($plugin: libcublasLt[^:]*: cannot open shared object file" "$tmp/d.err"
else
	for d in "classify works" "devices exits 1" "in one line" "naming the plugin and the library it lacks"; do
		n=$((n + 1)); echo "ok $n - no CUDA library: $d # SKIP no CUDA build, or no private mount namespace here"
	done
fi
export ROOFLINE_CUDA_PLUGIN=/nonexistent/roofline-cuda.so

# Not a plugin: a shared object without the entry point.
libc=$(ldd "$ROOFLINE" | awk '$1 ~ /^libc\.so/ { print $3 }')
ROOFLINE_CUDA_PLUGIN=$libc run devices
cuda_check "a library that is not the plugin: exit 1" test "$rc" -eq 1
cuda_check "... named, with what it lacks" grep -qF "$libc has no rl_cuda_plugin" "$tmp/err"

# The real plugin (found in the build tree): it loads, so every symbol it
# needs resolved (RTLD_NOW); on a machine without a GPU the CUDA runtime's
# own error comes back, on one with a GPU the devices are listed.
unset ROOFLINE_CUDA_PLUGIN
run devices
if [ "$cuda" -eq 1 ] && [ "$rc" -eq 0 ]; then
	check "the plugin loads and lists the GPU" grep -q '^0 ' "$tmp/out"
else
	cuda_check "the plugin loads: the error is the CUDA runtime's (no driver or device)" \
		grep -Eq '^roofline: cudaGetDeviceCount: .*(cudaErrorInsufficientDriver|cudaErrorNoDevice)' "$tmp/err"
	cuda_check "... in one line, exit 1" sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ]"
fi

done_testing
