#!/bin/sh
# cli_import_compiled.sh - "roofline import" and "roofline report" on
# torch.compile's traces (issue 25; tests/data/compile, recorded on an H200
# by bench/traces/record.py). The goal of the issue: at least 95 % of the
# kernel time in rows that are not custom. The kernel totals come from the
# recording's summary.txt (record.py's own sum over the trace's kernel
# events) and the host figures from the trace's events (python's json
# module over the file, once): TorchDynamo Cache Lookup 216.0 us, the
# region 4415.025 us, its prologue 28.5 + 19.396 = 47.896 us.
. "$top_srcdir/tests/lib.sh"

C="$DATA/compile"

col() {
	grep -v '^#' "$1" | head -n 1 | tr , '\n' | grep -nx "$2" | cut -d: -f1
}

for f in "$C"/trace_compiled_*.json.gz; do
	t=$(basename "$f" .json.gz | sed 's/^trace_//')
	case $t in compiled_ro_qwen3_*) continue ;; esac
	o="$tmp/$t.csv"
	run import -o "$o" "$f"
	check "$t: imported" test "$rc" -eq 0
	k=$(col "$o" kind) m=$(col "$o" measured_us)
	kernel=$(awk -F'\t' -v t="$t" '$1 == t { split($3, a, " "); print a[1] }' "$C/summary.txt")
	# the custom share, and the rows' time against the recording's kernel
	# time (the rows add the memsets, under 1 %)
	check "$t: at most 5 % of the kernel time in custom rows; rows hold the $kernel us of kernels" \
		awk -F, -v k="$k" -v m="$m" -v kt="$kernel" '
		/^#/ || /^name,/ { next }
		{ all += $m; if ($k == "custom") c += $m }
		END {
			printf "# custom %.3f of %.3f us, kernels %s us\n", c, all, kt
			exit !(all > 0 && c <= 0.05 * all && all >= kt - 0.1 && all <= 1.01 * kt + 0.1)
		}' "$o"
done

# the capture and its replays: every row but the three copies of the inputs
# and the two fills is a replayed kernel, with host_overhead_us 0
o="$tmp/ro.csv"
run import -o "$o" "$C/trace_compiled_ro_llama3_8b_l2_prefill_b1_s1024_capture.json.gz"
h=$(col "$o" host_overhead_us)
check "capture: 110 rows, 105 of them replayed with host_overhead_us 0" test "$(
	awk -F, -v h="$h" '/^#/ || /^name,/ { next } { n++; if ($h == "0") r++ }
		END { print n, r }' "$o")" = "110 105"
run classify --hw h200 -f csv "$o"
check "capture: the import's op list classifies" test "$rc" -eq 0

# a replay without its capture: one custom row per replayed activity, named
# after its kernel, and a warning saying what to record
f="$C/trace_compiled_ro_qwen3_8b_l2_prefill_b2_s512.json.gz"
run import -o "$tmp/rq.csv" "$f"
check "replay only: imported with a warning" test "$rc" -eq 0
check "replay only: the warning names the capture" \
	grep -q "45 ops kept as custom.*whose capture the trace does not hold (profile the call that captures the graph)" "$tmp/err"
check "replay only: the rows are named after the kernels" \
	grep -q '^triton_poi_fused__unsafe_view_mul_silu_[0-9]*#[0-9]*,custom,' "$tmp/rq.csv"

# report: the region's host side
f="$C/trace_compiled_llama3_8b_l2_prefill_b1_s1024.json.gz"
run report "$f"
check "report: no warning on a compiled trace" test ! -s "$tmp/err"
check "report: the region's host side" grep -q \
	"compiled: 1 torch.compile region, host 4631.0[23] us each: Dynamo's cache lookup 216.00, prologue 47.90, graph launch 0.00" \
	"$tmp/out"
run report -f json "$f"
check "report json: step.compiled" grep -Eq '"compiled":\{"regions":1,"region_host_us":4415.0[23]5?,"cache_lookup_us":216,"prologue_us":47.896' "$tmp/out"
run report "$C/trace_compiled_ro_llama3_8b_l2_prefill_b1_s1024_capture.json.gz"
check "report: the replays, attributed; cudaGraphLaunch (195.666 + 149.321 + 105.446) / 3 us" grep -q \
	"CUDA graphs: 3 replays of 126 activities, 126 attributed to the ops captured; cudaGraphLaunch 150.14 us on the host per replay" \
	"$tmp/out"

# calibrate --from-trace: the region's ops are the calls, of the kinds the
# import gives them (35 rows, 42 activities: 11 pointwise, 1 reduction, 5
# layernorm, 16 matmul, 2 attention); the host side is left out and said
run calibrate --from-trace "$f" -o "$tmp/c.runtime"
check "calibrate: fitted" test "$rc" -eq 0
check "calibrate: the Triton kernels' kinds" sh -c "grep -q '^pointwise  *11  *11 ' '$tmp/out' &&
	grep -q '^layernorm  *5  *5 ' '$tmp/out' && grep -q '^matmul  *16  *21 ' '$tmp/out' &&
	grep -q '^all  *35  *42 ' '$tmp/out'"
check "calibrate: Dynamo's cache lookup (216.0 us) and the prologue (47.896 us) left out" grep -q \
	"torch.compile: 1 region, left out: Dynamo's cache lookup 216.00 us, the prologue 47.90 us" \
	"$tmp/out"
check "calibrate: the runtime file says so" grep -q "263.90 us per region" "$tmp/c.runtime"
run classify --hw h200 --runtime "$tmp/c.runtime" "$EX/bert-base.csv"
check "calibrate: the fitted runtime reads back" test "$rc" -eq 0

# an eager trace says nothing of compiled regions
run report "$DATA/trace_gpt2_fwd_b1_s1_bf16.json.gz"
check "report: nothing compiled in an eager trace" sh -c "! grep -q 'compiled:' '$tmp/out'"

done_testing
