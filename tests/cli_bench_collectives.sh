#!/bin/sh
# cli_bench_collectives.sh - bench --only collectives without a GPU: the one
# line a build without CUDA, or a machine without NCCL, answers with; the
# usage errors; and the recordings: the one-GPU run on the H200 (docs/
# measurements/h200-collectives-1gpu-2026-12-01) re-derived (every entry's
# median, algbw = S / median and busbw = algbw x nccl-tests' factor worked
# out again from the samples by tests/collbench-facts.py where python3 is
# present, and its summary lines by hand), and a recording on 8 ranks
# TRANSCRIBED from the published nccl-tests table of an HGX H100 (tests/data/
# hgx-h100-8-allreduce.json; not measured here), whose calibrated system
# file holds the values worked out by hand below.
. "$top_srcdir/tests/lib.sh"

builddir=$(dirname "$ROOFLINE")
if grep -q '^#define RL_HAVE_CUDA 1' "$builddir/config.h" 2>/dev/null; then cuda=1; else cuda=0; fi
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q '^roofline: ' "$1"; }
M="$top_srcdir/docs/measurements/h200-collectives-1gpu-2026-12-01"
T="$DATA/hgx-h100-8-allreduce.json"

# --- without CUDA, without NCCL ---------------------------------------------
run bench --only collectives
check "bench --only collectives without a GPU: exit 1" test "$rc" -eq 1
check "... and nothing on stdout" test ! -s "$tmp/out"
if [ "$cuda" -eq 0 ]; then
	check "... one line: this build has no CUDA support" \
		sh -c "one_line() { [ \$(wc -l <\"\$1\") -eq 1 ]; }; one_line '$tmp/err' && grep -q '^roofline: bench --only collectives: this build has no CUDA support' '$tmp/err'"
else
	ROOFLINE_NCCL=/nonexistent/libnccl.so.2 "$ROOFLINE" bench --only collectives >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "a machine without NCCL: exit 1" test "$rc" -eq 1
	check "... in one line: NCCL not found (the library named)" \
		sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q '^roofline: bench --only collectives: NCCL not found (/nonexistent/libnccl.so.2): ' '$tmp/err'"
	check "the plugin does not link NCCL (loaded with dlopen)" \
		sh -c "! readelf -d '$builddir/src/roofline-cuda.so' | grep -q 'NEEDED.*nccl'"
	ROOFLINE_NCCL=/nonexistent/libnccl.so.2 "$ROOFLINE" bench --only memory --quick >/dev/null 2>"$tmp/err"
	check "... and the other groups do not need it" sh -c "! grep -q NCCL '$tmp/err'"
fi
expect_error "--gpus is for the collectives" 2 'gpus is for --only collectives' bench --gpus 2
expect_error "--gpus 0 is a usage error" 2 'gpus: expected a number of GPUs' bench --only collectives --gpus 0
expect_error "--gpus with --from is a usage error" 2 'gpus measure; --from' bench --from "$T" --gpus 2
expect_error "--only names the group" 2 'sweep or collectives' bench --only collective
expect_error "calibrate --collectives needs --hw SYSTEM before it measures" 2 'collectives calibrates a system' calibrate --collectives -o "$tmp/x.system"
expect_error "validate --tp 1: tensor parallelism needs 2 GPUs" 2 'tp 1: tensor parallelism needs 2 GPUs or more' validate --tp 1
expect_error "validate --tp takes no op list" 2 'tp runs its own layers' validate --tp 2 "$EX/bert-base.csv"

# --- the one-GPU recording ----------------------------------------------------
run bench --from "$M/bench-collectives.json"
check "bench --from the H200 recording: exit 0" test "$rc" -eq 0
cp "$tmp/out" "$tmp/table"
check "240 entries: 5 kinds x 30 sizes, 3 of them also in place" \
	test "$(awk '$2 == 1 && ($3 == "in-place" || $3 == "out-of-place")' "$tmp/table" | wc -l)" -eq 240
check "every check passed" sh -c "! grep -q FAILED '$tmp/table'"
# 4 GiB out of place: median of the ten samples 2002.592 us; 2^32 / 2002.592 us
# = 2144.704 GB/s (an on-device copy: it reads and writes S, 4.29 TB/s of HBM)
check "all-reduce: algbw 2144.7 GB/s at 4 GiB, busbw undefined on one rank" \
	grep -qx 'allreduce on 1 rank: algbw 2144.7 GB/s (busbw undefined) at S = 4294967296 bytes (out-of-place); latency 0.254 us (S = 512, in-place)' "$tmp/table"
# send/recv to itself: factor 1, busbw = algbw = 2^32 / 2241.504 us = 1916.11
check "send/recv: busbw = algbw = 1916.1 GB/s at 4 GiB (factor 1)" \
	grep -q '^sendrecv on 1 rank: busbw 1916.1 GB/s at S = 4294967296 bytes' "$tmp/table"
check "the table says why busbw is undefined" grep -q "undefined on one rank" "$tmp/table"
if command -v python3 >/dev/null 2>&1; then
	python3 "$top_srcdir/tests/collbench-facts.py" "$M/bench-collectives.json" >"$tmp/facts"
	awk '$2 ~ /^[0-9]+$/ && ($3 == "in-place" || $3 == "out-of-place") { print $1, $2, $3, $5, $6, $7, $8 }' \
		"$tmp/table" >"$tmp/rows"
	check "every row's median, algbw and busbw re-derived from the samples (python3)" \
		awk 'NR == FNR { f[$1 " " $2 " " $3 " " $4] = $0; next }
			function near(a, b) { d = a - b; if (d < 0) d = -d; return d <= 5e-5 * (b < 0 ? -b : b) + 1e-12 }
			{ k = $1 " " $2 " " $3 " " $4; if (!(k in f)) { print "missing", k; bad = 1; next }
			  split(f[k], w, " ")
			  if (!near($5, w[5]) || !near($6, w[6]) || ($7 == "-") != (w[7] == "-") || ($7 != "-" && !near($7, w[7]))) { print "differs:", $0, "|", f[k]; bad = 1 } }
			END { exit bad }' "$tmp/facts" "$tmp/rows"
fi
expect_error "calibrate refuses a one-GPU recording" 1 'needs 2 ranks or more \(busbw is undefined for n = 1\)' \
	calibrate --from "$M/bench-collectives.json" --hw hgx-h200-8 -o "$tmp/one.system"
check "... and writes no file" test ! -e "$tmp/one.system"

# --- the 8-rank recording transcribed from nccl-tests (HGX H100) -------------
run bench --from "$T"
check "bench --from the transcribed recording: exit 0" test "$rc" -eq 0
# 8 GiB: busbw 478.87 as the table gives it (the time was worked back from
# it: 2^33 x 1.75 / 478.87 GB/s); 1 KiB and 2 KiB: 1024 x 1.75 / 0.07 GB/s =
# 2048 x 1.75 / 0.14 = 25.6 us, 4 KiB 26.5 us
check "its summary: busbw 478.87 GB/s at 8 GiB, latency 25.6 us at 1 KiB" \
	grep -qx 'allreduce on 8 ranks: busbw 478.87 GB/s at S = 8589934592 bytes (in-place); latency 25.6 us (S = 1024, in-place)' "$tmp/out"
expect_error "calibrate: collectives calibrate a system (--hw needed)" 1 'give --hw SYSTEM' \
	calibrate --from "$T" -o "$tmp/x.system"
expect_error "... a device is not a system" 1 'a recording of collectives calibrates a system' \
	calibrate --from "$T" --hw h100-sxm -o "$tmp/x.system"
S="$tmp/hgx-h100-8-measured.system"
run calibrate --from "$T" --hw hgx-h100-8 -o "$S"
check "calibrate --from it --hw hgx-h100-8 writes a system file" test "$rc" -eq 0 -a -s "$S"
key() { awk -F' *= *| *; ' -v k="$1" '$1 == k { print $2; exit }' "$S"; }
check "intra_bandwidth_gbs = 478.87 (all-reduce's busbw at 8 GiB)" test "$(key intra_bandwidth_gbs)" = 478.87
check "datasheet.intra_bandwidth_gbs = 450 (NVLink 4, the system's)" test "$(key datasheet.intra_bandwidth_gbs)" = 450
check "intra_latency_us = 25.6 (the least time at 4 KiB and below)" test "$(key intra_latency_us)" = 25.6
check "datasheet.intra_latency_us = 15.0 (NCCL's cost model, the system's)" test "$(key datasheet.intra_latency_us)" = 15.0
check "nccl.allreduce_busbw_gbs = 478.87 at 8589934592 bytes" \
	test "$(key nccl.allreduce_busbw_gbs) $(key nccl.allreduce_bytes)" = "478.87 8589934592"
check "published.nccl.allreduce_* = the Azure 1G row beside it (466.35 at 2^30)" \
	test "$(key published.nccl.allreduce_busbw_gbs) $(key published.nccl.allreduce_bytes)" = "466.35 1073741824"
check "the rest is the system's: 8 GPUs, 50 GB/s network, 5.4 us" \
	test "$(key gpus_per_node) $(key network_bandwidth_gbs) $(key inter_latency_us)" = "8 50 5.4"
check "its header says where the figures come from" grep -q '^# .*calibrated: collectives measured' "$S"
# the model on it: 25.6 + 2^33 x 1.75 / 478.87 GB/s = 25.6 + 31391.35 = 31416.95
# us, busbw 2^33 x 1.75 / 31416.95 us = 478.48 GB/s
run hw show "$S"
check "hw show loads it: model busbw 478.5 GB/s (31417.0 us) at 8 GiB" \
	grep -q 'allreduce of 8589934592 bytes on 8 GPUs: model busbw 478.5 GB/s (31417.0 us), nccl-tests 478.87 GB/s' "$tmp/out"
done_testing
