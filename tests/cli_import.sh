#!/bin/sh
# cli_import.sh - "roofline import" and "roofline report" on the fixture
# traces: the op list classify reads back, the numbers of the step, errors
# with byte offsets and no output left behind. Numbers from
# tests/trace-facts.py (python, independent of roofline).
. "$top_srcdir/tests/lib.sh"

BERT="$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz"
GPT2="$DATA/trace_gpt2_fwd_b1_s1_bf16.json.gz"

# import -o writes an op list that classify reads without a warning
run import -o "$tmp/bert.csv" "$BERT"
check "import: exit 0" test "$rc" -eq 0
check "import -o: nothing on stdout" test ! -s "$tmp/out"
check "import: no warning for BERT" test ! -s "$tmp/err"
run classify --hw h200 "$tmp/bert.csv"
check "classify reads the import" test "$rc" -eq 0
check "classify: no warning on the import" test ! -s "$tmp/err"
rows=$(grep -v '^#' "$tmp/bert.csv" | tail -n +2 | wc -l)
check "BERT: 153 rows" test "$rows" -eq 153
matmul=$(grep -c '^[^#][^,]*,matmul,' "$tmp/bert.csv")
check "BERT: 73 matmul rows" test "$matmul" -eq 73
sum=$(awk -F, '/^#/ || /^name,/ { next } { s += $15 } END { printf "%.3f", s }' "$tmp/bert.csv")
check "BERT: measured_us sums to the 1925.934 us of all GPU activities" test "$sum" = 1925.934

# the same through standard input; GPT-2's arange(1) (issue 13: no longer
# custom) writes one int64 value, inputs 0, start + i x step: 2 FLOPs
gzip -dc "$GPT2" | "$ROOFLINE" import - >"$tmp/gpt2.csv" 2>"$tmp/err"
check "import from stdin" test "$(grep -v '^#' "$tmp/gpt2.csv" | tail -n +2 | wc -l)" -eq 235
check "GPT-2: no op kept as custom" test ! -s "$tmp/err"
check "GPT-2: arange a pointwise row writing 1 int64" grep -q '^arange#2,pointwise,int64,1,,,,,,0,2,' "$tmp/gpt2.csv"
check "GPT-2: addmm 1x2304x768" grep -q '^addmm#7,matmul,bf16,1x2304x768,' "$tmp/gpt2.csv"

# report: device from deviceProperties ("NVIDIA H200" -> h200-sxm)
run report "$BERT"
check "report: exit 0" test "$rc" -eq 0
check "report: h200-sxm from the trace's deviceProperties" \
	grep -q '^NVIDIA H200 SXM 141GB (h200-sxm), eager runtime' "$tmp/out"
check "report: GPU busy 1925.93 us of 10039.93" grep -q 'GPU busy     1925.93 us   19.2 %' "$tmp/out"
check "report: step span" grep -q '^step: 10039.93 us' "$tmp/out"
check "report: 177 gaps, the longest 332.00 us" grep -q 'in 177 gaps, the longest 332.00 us' "$tmp/out"
check "report: ten recoverable ops" grep -q '^  10\. ' "$tmp/out"
check "report: 80 columns" test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")" -le 80
run report --hw h100 "$BERT"
check "report --hw overrides the trace" grep -q '(h100-sxm)' "$tmp/out"
run report -f json "$BERT"
check "report json: busy_us" grep -q '"busy_us":1925.93' "$tmp/out"
check "report json: per kind" grep -q '"matmul":{"ops":73,' "$tmp/out"
run report -f csv "$BERT"
check "report csv: host_us column" grep -q '^name,.*,measured_us,roofline_pct,measured_over_expected,measured_over_roofline,host_us,l2_resident,expected_gpu_us,expected_us,expected_bound$' "$tmp/out"
run report -f md "$GPT2"
check "report md" grep -q '^| kind | ops | launches |' "$tmp/out"

# the trace's device must be known, or the user says which
sed 's/NVIDIA H200/NVIDIA H999/' "$DATA/trace-nested.json" >"$tmp/h999.json"
run report "$tmp/h999.json"
check "unknown trace device: exit 1" test "$rc" -eq 1
check "unknown trace device: asks for --hw" grep -q "device 'NVIDIA H999' is not in the database.*--hw" "$tmp/err"
# Matched as the probe matches a GPU: by name, then by the SM count the trace
# records (numSms). The H100 SXM, PCIe and NVL entries all name an "h100".
sed 's/NVIDIA H200/NVIDIA H100 80GB HBM3/' "$DATA/trace-nested.json" >"$tmp/h100.json"
run report "$tmp/h100.json"
check "H100 80GB HBM3 with 132 SMs is the h100-sxm" grep -q '(h100-sxm)' "$tmp/out"
sed 's/"NVIDIA H200", "numSms": 132/"NVIDIA H100 PCIe", "numSms": 114/' "$DATA/trace-nested.json" >"$tmp/h100p.json"
run report "$tmp/h100p.json"
check "H100 PCIe with 114 SMs is the h100-pcie" grep -q '(h100-pcie)' "$tmp/out"
run report --hw h100-nvl "$tmp/h100.json"
check "--hw overrides the trace's device" grep -q '(h100-nvl)' "$tmp/out"

# bad traces: exit 1, the byte offset, nothing on stdout, no file left
expect_fail() { d=$1; shift; expect_error "$d" 1 "$@"; }
expect_fail "truncated trace" "trace-truncated.json: byte 1500: the JSON ends early" \
	import "$DATA/trace-truncated.json"
expect_fail "truncated gzip" "trace-truncated.json.gz: byte [0-9]+: truncated gzip data" \
	import "$DATA/trace-truncated.json.gz"
expect_fail "garbled JSON" "trace-garbled.json: byte [0-9]+: not valid JSON" \
	import "$DATA/trace-garbled.json"
expect_fail "JSON that is not a trace" "trace-not-a-trace.json: byte 59: not a PyTorch profiler trace" \
	import "$DATA/trace-not-a-trace.json"
expect_fail "an event that is not an object" "byte 30: traceEvents item 2 is not an object" \
	report "$DATA/trace-not-events.json"
expect_fail "missing trace" "cannot open" import "$tmp/nope.json"
printf '{"traceEvents": []}' >"$tmp/nogpu.json"
expect_fail "no GPU work" "no GPU kernels in the trace" import "$tmp/nogpu.json"
# issue 11, 12: kernels all skipped say so; a byte-order mark is no error;
# bytes after the gzip data are
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1e30, "dur": 1, "args": {"correlation": 1}},\n{"ph": "X", "cat": "kernel", "ts": 5, "dur": 1e300, "args": {"correlation": 2}}]}' >"$tmp/absurd.json"
expect_fail "absurd kernel times: how many skipped, and why" \
	"absurd.json: no GPU kernels left in the trace: 2 GPU activities skipped \(the first at byte 17: kernel event: 'ts' out of range: '1e30'" \
	import "$tmp/absurd.json"
printf '\357\273\277' >"$tmp/bom.json"
cat "$DATA/trace-nested.json" >>"$tmp/bom.json"
"$ROOFLINE" import "$DATA/trace-nested.json" >"$tmp/nobom.csv" 2>/dev/null
run import "$tmp/bom.json"
check "a trace with a UTF-8 byte-order mark imports as without" \
	test "$rc" -eq 0 -a "$(grep -v '^#' "$tmp/out")" = "$(grep -v '^#' "$tmp/nobom.csv")"
gzip -c "$DATA/trace-nested.json" >"$tmp/trail.json.gz"
gz_size=$(wc -c <"$tmp/trail.json.gz")
echo garbage >>"$tmp/trail.json.gz"
expect_fail "gzip with trailing garbage" \
	"trail.json.gz: byte $gz_size of the file: data after the end of the gzip stream" \
	import "$tmp/trail.json.gz"
gzip -c "$DATA/trace-nested.json" >"$tmp/two.json.gz"
printf '\n' | gzip -c >>"$tmp/two.json.gz"
run import "$tmp/two.json.gz"
check "two gzip members read as one stream" \
	test "$rc" -eq 0 -a "$(grep -v '^#' "$tmp/out")" = "$(grep -v '^#' "$tmp/nobom.csv")"

echo keep >"$tmp/keep.csv"
run import -o "$tmp/keep.csv" "$DATA/trace-truncated.json"
check "bad trace: an existing -o file is untouched" test "$(cat "$tmp/keep.csv")" = keep
run import -o "$tmp/new.csv" "$DATA/trace-garbled.json"
check "bad trace: no -o file created" test ! -e "$tmp/new.csv"
check "bad trace: no temporary file left" test "$(ls "$tmp" | grep -c 'new.csv')" -eq 0

# skippable events: a counted warning with the first one's offset
run import "$DATA/trace-missing-fields.json"
check "missing fields: imported" test "$rc" -eq 0
check "missing fields: counted, first offset" \
	grep -q "warning: 3 events skipped (the first at byte 18: cpu_op event without 'dur')" "$tmp/err"
run import "$DATA/trace-bigint-utf8.json"
check "64-bit overflow and bad UTF-8: imported" test "$rc" -eq 0
run classify --hw h200 "$tmp/out"
"$ROOFLINE" import "$DATA/trace-bigint-utf8.json" >"$tmp/u.csv" 2>/dev/null
run classify --hw h200 "$tmp/u.csv"
check "bad UTF-8 in a name: classify reads the cleaned name" grep -q '^my?op#1 ' "$tmp/out"

# --timeline on a trace: the measured step beside the simulated ones; span,
# busy and share from tests/trace-facts.py (10039.932 us, 1925.934 us, 19.2 %)
B="$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz"
run report --timeline "$B"
check "report --timeline" test "$rc" -eq 0
check "the measured step beside the prediction" \
	grep -q '^measured  *-  *10039.93  *1925.93  *8114.00  *19.2 %$' "$tmp/out"
check "one simulated row per runtime" test "$(grep -cE '^(cpp|eager|graph)  ' "$tmp/out")" -eq 3
# the recorded lane: the trace's own host times (6852.931 us in all, from
# trace-facts.py) with the kernels at their roofline (the eager lane's busy):
# the step is at least the host total, and the GPU as busy as in eager
check "recorded lane: step >= the recorded host time, busy as eager" awk '
	$1 == "eager" { busy = $5 }
	$1 == "recorded" { rstep = $3; rbusy = $4 }
	END { exit !(rstep >= 6852.93 && rbusy == busy && rbusy > 0) }' "$tmp/out"
run report --timeline -f json "$B"
check "json timeline carries the measured step" grep -q '"measured":{' "$tmp/out"
run report --timeline -f csv "$B"
check "report --timeline -f csv is a usage error" test "$rc" -eq 2
# --svg: the chart beside the report, with measured points (153 ops all measured)
run report --svg "$tmp/r.svg" "$B"
check "report --svg writes the chart" test "$rc" -eq 0 -a -s "$tmp/r.svg"
if command -v python3 >/dev/null 2>&1; then
	check "report --svg is well-formed XML" \
		python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$tmp/r.svg"
fi
run report --svg "$tmp/never.svg" "$DATA/trace-truncated.json"
check "a bad trace leaves no chart" test "$rc" -eq 1 -a ! -e "$tmp/never.svg"

# L2 residency in trace order: linear#8 reads layer_norm#7's output, a
# 32x128x768 bf16 tensor (6 MiB), and its whole working set (x, the 768x768
# weight, bias, a 6 MiB output: about 13.8 MB) fits in the H200's 60 MiB L2;
# it is one kernel run once: resident by the rule of docs/oplist-format.md.
run report -f csv "$B"
check "report: linear#8 is L2-resident" test "$(csv_field "$tmp/out" 'linear#8' l2_resident)" = 1
check "report: the first op is not" test "$(csv_field "$tmp/out" 'gather#1' l2_resident)" = 0
run report --l2 "$B"
check "report --l2: the footnote" grep -q '^\^ L2-resident (' "$tmp/out"

# an imported op list carries host_us: classify --timeline adds the recorded lane
run import "$B" -o "$tmp/bert.csv"
run classify --hw h200 --timeline "$tmp/bert.csv"
check "classify --timeline on an imported list has the recorded lane" \
	grep -q '^recorded  *host_us ' "$tmp/out"
run classify --hw h200 --timeline "$EX/bert-base.csv"
check "... and a list without host_us has none" test "$(grep -c '^recorded ' "$tmp/out")" -eq 0


# one kernel, then two with a gap between them: singular words in report
w_trace() { # FILE, then one "ts dur" pair per kernel: a relu of 1024 fp32 each
	f=$1; shift
	{
		printf '{"deviceProperties": [{"id": 0, "name": "NVIDIA H200", "numSms": 132}],\n'
		printf ' "traceEvents": [\n'
		k=0
		for kt in "$@"; do
			set -- $kt
			k=$((k + 1))
			[ $k -gt 1 ] && printf ',\n'
			printf '{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": %d, "dur": 5, "args": {"External id": %d, "Input Dims": [[1024]], "Input type": ["float"]}},\n' $(($1 - 10)) $k
			printf '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": %d, "dur": 2, "args": {"External id": %d, "correlation": %d}},\n' $(($1 - 8)) $k $k
			printf '{"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": %d, "dur": %d, "args": {"device": 0, "stream": 7, "correlation": %d}}' "$1" "$2" $k
		done
		printf ']}\n'
	} >"$f"
}
# The kernel takes 8 us: more than the relu's expected time, so it has time to
# recover and is listed. Expected on the H200 (hwdb/h200-pytorch.efficiency):
# latency_us 1.245 + 2 x 1024 x 4 B / (0.9064 x 4800 GB/s) = 1.245 + 0.002
# = 1.25 us; recoverable 8 - 1.25 = 6.75 us, and 8 - 0.50 (the H200 launch
# floor, its roofline) = 7.50 to the roofline. (A kernel under the expected
# 1.25 us would have nothing to recover: "top 0 ops".)
w_trace "$tmp/one.json" "110 8"
run report --hw h200 "$tmp/one.json"
check "one kernel: '1 op in the trace'" grep -q '^1 op in the trace, run on NVIDIA H200$' "$tmp/out"
check "one kernel: '(1 activity)'" \
	grep -qx 'step: 8.00 us from the first GPU activity to the last (1 activity)' "$tmp/out"
check "one kernel: 'top 1 op by recoverable time'" \
	grep -qx 'top 1 op by recoverable time (measured - expected; to_roof: to the roofline):' "$tmp/out"
check "one kernel: recoverable 8 - 1.25 = 6.75 us, 8 - 0.50 = 7.50 to the roofline" \
	grep -Eq '^   1\. relu#1 +8\.00 +1\.25 +6\.75 +7\.50 ' "$tmp/out"
run report --hw h200 --best-case "$tmp/one.json"
check "one kernel, --best-case: recoverable against the roofline" \
	grep -qx 'top 1 op by recoverable time (measured - roofline):' "$tmp/out"
run report --hw h200 -f md "$tmp/one.json"
check "one kernel, md: 'Top 1 op'" \
	grep -qx '\*\*Top 1 op by recoverable time\*\* (measured - expected; the gap to the roofline beside it)' "$tmp/out"
# kernels at 110-112 and 120-122 us: a span of 12 us, one gap of 8 us
w_trace "$tmp/two.json" "110 2" "120 2"
run report --hw h200 "$tmp/two.json"
check "two kernels: 'in 1 gap'" \
	grep -qx '  GPU idle        8.00 us   66.7 %  in 1 gap, the longest 8.00 us' "$tmp/out"

done_testing
