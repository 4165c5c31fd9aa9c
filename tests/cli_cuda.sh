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
