#!/bin/sh
# cli_calibrate_trace.sh - "roofline calibrate --from-trace": a runtime
# profile fitted from recorded H200 traces (tests/data/impl/trace_hf_*), its
# figures worked out again here from the gunzipped JSON by a short Python
# walk of the same method (docs/calibrate.md, "From a trace"), the file read
# back by --runtime FILE (model, classify, report), report's host advice,
# and bad input.
. "$top_srcdir/tests/lib.sh"

L16="$DATA/impl/trace_hf_llama3_8b_l2_decode_b16_c1024_bf16.json.gz"
Q2="$DATA/impl/trace_hf_qwen2_7b_l2_decode_b8_c4096_bf16.json.gz"
Q3="$DATA/impl/trace_hf_qwen3_8b_l2_decode_b4_c8192_bf16.json.gz"
SUMMARY="$top_srcdir/docs/measurements/h200-issue23-2026-12-02/eager-summary.txt"

# The method again, independently, in Python over the raw events: the
# outermost cpu_op of the thread, its kernels by correlation id, the
# "overhead" events (the profiler's) left out of the span, each call charged
# the gap before it and its own time, calls without kernels passing theirs
# on; kinds by op name (these traces' ops: linear, matmul -> matmul; sdpa ->
# attention; to, cat, embedding -> copy; mean -> reduction; the rest
# pointwise); extras at new (name, Input Dims), > 2 x the name's median and
# > 20 us above it, but the call with the first launch (the profiler's start). Prints "span kernels launching" then "kind us_per_launch
# extra_us_per_call" per kind.
cat >"$tmp/fit.py" <<'EOF'
import gzip, json, sys, statistics
d = json.load(gzip.open(sys.argv[1]))
ev = d["traceEvents"]
ops = sorted([e for e in ev if e.get("cat") == "cpu_op"], key=lambda e: (e["ts"], -e["dur"]))
top, end = [], -1.0
for e in ops:
    if not top or not (e["ts"] >= top[-1]["ts"] and e["ts"] + e["dur"] <= end):
        top.append(e); end = e["ts"] + e["dur"]
launch = {e["args"]["correlation"]: e for e in ev
          if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
kern = {i: 0 for i in range(len(top))}
first = (None, None)
for g in ev:
    if g.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy"):
        l = launch.get(g["args"].get("correlation"))
        for i, t in enumerate(top):
            if l is not None and t["ts"] <= l["ts"] < t["ts"] + t["dur"]:
                kern[i] += 1
                if first[0] is None or l["ts"] < first[0]:
                    first = (l["ts"], i)
ov = [(o["ts"], o["ts"] + o["dur"]) for o in ev if o.get("cat") == "overhead"]
def skipped(a, b):
    return sum(max(0.0, min(y, b) - max(x, a)) for x, y in ov)
KIND = {"aten::linear": "matmul", "aten::matmul": "matmul",
        "aten::scaled_dot_product_attention": "attention", "aten::to": "copy",
        "aten::cat": "copy", "aten::embedding": "copy", "aten::mean": "reduction"}
cur, pending, span, last, charge = top[0]["ts"], 0.0, 0.0, None, {}
for i, t in enumerate(top):
    e = t["ts"] + t["dur"]
    c = e - cur - skipped(cur, e); cur = e; span += c
    if kern[i]:
        charge[i] = pending + c; pending = 0.0; last = i
    else:
        pending += c
charge[last] += pending
own = {i: top[i]["dur"] - skipped(top[i]["ts"], top[i]["ts"] + top[i]["dur"]) for i in charge}
byname = {}
for i in charge:
    byname.setdefault(top[i]["name"], []).append(own[i])
seen, extra = set(), {}
for i in sorted(charge):
    key = (top[i]["name"], json.dumps(top[i]["args"].get("Input Dims")))
    med = statistics.median(byname[top[i]["name"]])
    if key not in seen and i != first[1] and own[i] > 2 * med and own[i] - med > 20:
        extra[i] = own[i] - med
    seen.add(key)
scale = float(sys.argv[2]) / span if len(sys.argv) > 2 else 1.0
print("%.2f %d %d" % (span, sum(kern.values()), len(charge)))
kinds = {}
for i in charge:
    k = kinds.setdefault(KIND.get(top[i]["name"], "pointwise"), [0.0, 0, 0.0, 0])
    k[0] += (charge[i] - extra.get(i, 0.0)) * scale; k[1] += kern[i]
    if i in extra:
        k[2] += extra[i] * scale; k[3] += 1
for name in sorted(kinds):
    k = kinds[name]
    print("%s %.2f %.2f" % (name, k[0] / k[1], k[2] / k[3] if k[3] else 0))
EOF
# the kind's fitted cost in a runtime file: "host_overhead_us.KIND = V ; ..."
key() { awk -v k="$2" '$1 == k { print $3; exit }' "$1"; }
# |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# ---- the fit on llama3-8b's decode step (batch 16, 1024 tokens) ----
python3 "$tmp/fit.py" "$L16" >"$tmp/want" 2>"$tmp/py.err"
check "the Python walk ran" test -s "$tmp/want"
# by hand from the trace: the first cpu_op starts at 5338619219060.853 us,
# the last ends at 5338619230685.208 (11624.355 us), and the one "overhead"
# event, Activity Buffer Request, takes 3129.111 us inside it: 8495.24 us;
# 113 GPU activities (112 kernels and a memset) from 102 of the 137 calls
check "the walk: span 8495.24 us, 113 activities, 102 launching calls" \
	test "$(head -n 1 "$tmp/want")" = "8495.24 113 102"

run calibrate --from-trace "$L16" -o "$tmp/l16.runtime"
check "calibrate --from-trace -o: exit 0" test "$rc" -eq 0
check "calibrate --from-trace -o: nothing on stderr" test ! -s "$tmp/err"
check "calibrate --from-trace -o: the summary names the file" \
	grep -q "^$tmp/l16.runtime: host costs fitted from trace_hf_llama3_8b_l2_decode_b16_c1024_bf16.json.gz" "$tmp/out"
check "the file: id from the -o name" grep -q '^id *= l16$' "$tmp/l16.runtime"
check "the file: the span, the profiler's spans left out" \
	grep -q 'host span 8495.24 us from the first call.s start to the last call.s end, 3129.11 us of the' "$tmp/l16.runtime"
check "the file: 137 calls, 102 launching 113 GPU activities" \
	grep -q '^# The step: 137 top-level calls on 1 thread, 102 of them launching 113 GPU activities;' "$tmp/l16.runtime"
check "the file: the GPU the trace records" grep -q '^#   GPU 0: NVIDIA H200, 132 SMs, 150109880320 bytes$' "$tmp/l16.runtime"
check "the file: CUDA runtime 13000" grep -q '^#   cuda_runtime_version: 13000$' "$tmp/l16.runtime"
check "the file: the CPU unknown" grep -q '^#   CPU: unknown (the trace does not record it)$' "$tmp/l16.runtime"
check "the file: the trace as the source" grep -q "^source t = $L16, one profiled step" "$tmp/l16.runtime"
check "the file: every number has a source" \
	sh -c "! grep -E '^host_(overhead|extra)_us[.a-z0-9]* *= *[0-9.]+ *$' '$tmp/l16.runtime'"
tail -n +2 "$tmp/want" >"$tmp/kinds"
while read -r kind us extra; do
	got=$(key "$tmp/l16.runtime" "host_overhead_us.$kind")
	if near "$got" "$us" 0.011; then ok "host_overhead_us.$kind = $us (the walk's)"
	else not_ok "host_overhead_us.$kind = $us (the walk's)" "file: $got"; fi
	if [ "$extra" != 0.00 ]; then
		got=$(key "$tmp/l16.runtime" "host_extra_us.$kind")
		if near "$got" "$extra" 0.011; then ok "host_extra_us.$kind = $extra (the walk's)"
		else not_ok "host_extra_us.$kind = $extra (the walk's)" "file: $got"; fi
	fi
done <"$tmp/kinds"
check "the walk: five kinds" test "$(wc -l <"$tmp/kinds")" -eq 5
# by hand: aten::linear's median own time is 107.19 us (15 calls); its
# first call at the shapes [16, 1, 4096] x [4096, 4096] (q_proj) took
# 217.29 us: 110.10 us extra, host_extra_us.matmul
check "the file: linear's extra, 217.29 against 107.19" \
	grep -q '^#   call 28, aten::linear (matmul): 217.29 us of CPU against its median 107.19: 110.10 us extra$' "$tmp/l16.runtime"
# the kinds' costs times their kernels, plus the extras, give back the span
check "kernels x cost + extras = the span (8495.24 us)" awk '
	$1 ~ /^host_overhead_us\./ { split($0, a, "; t: "); split(a[2], b, " "); s += b[1] }
	$1 ~ /^host_extra_us\./ { split($0, a, "above their ops. medians in all"); n = split(a[1], b, " "); s += b[n - 1] }
	END { d = s - 8495.24; exit !(d < 0.05 && d > -0.05) }' "$tmp/l16.runtime"

# without -o: the file on standard output, id "fitted", nothing else
run calibrate --from-trace "$L16"
check "calibrate --from-trace to stdout: exit 0" test "$rc" -eq 0
check "to stdout: id fitted" grep -q '^id *= fitted$' "$tmp/out"
check "to stdout: the same costs as -o's" \
	test "$(grep '^host_' "$tmp/out")" = "$(grep '^host_' "$tmp/l16.runtime")"
run calibrate --from-trace "$L16" --id my-host -o -
check "calibrate -o - --id: stdout, the id given" grep -q '^id *= my-host$' "$tmp/out"

# the stack of a distributed trace: HTA's 2-rank DDP run, NCCL 2.17.1 on
# A100-PG509-200 (its distributedInfo, docs/trace-import.md)
run calibrate --from-trace "$DATA/trace_ddp_a100_2ranks_hta.json.gz"
check "DDP trace: exit 0" test "$rc" -eq 0
check "DDP trace: its distributedInfo" \
	grep -q '^#   distributed: backend nccl, rank 0, world_size 2, pg_count 1, nccl_version 2.17.1' "$tmp/out"
check "DDP trace: its GPU" grep -q '^#   GPU 0: NVIDIA A100-PG509-200, 108 SMs,' "$tmp/out"

# ---- four decode steps in a row, the KV length growing: no SDPA extra ----
D4="$DATA/impl/trace_hf_llama3_8b_l2_decode4_b1_c2048_bf16.json.gz"
run calibrate --from-trace "$D4" -o "$tmp/d4.runtime"
check "decode4: exit 0" test "$rc" -eq 0
# by hand: the 8 aten::scaled_dot_product_attention calls (KV 2049, 2049,
# 2050, 2050, ... 2052) take 179.3, 162.9, 150.3, 135.7, 184.9, 139.4, 148.8
# and 138.0 us: median (148.8 + 150.3) / 2 = 149.6, the largest 184.9, below
# 2 x the median: cuDNN's plan shows no extra here; 16 kernels (the flash
# kernel and a lean_reduction each)
check "decode4: SDPA 8 calls, 16 kernels, median 149.57, max 184.94, no extra" \
	grep -Eq '^#   aten::scaled_dot_product_attention +attention +8 +16 +[0-9.]+ +[0-9.]+ +149\.57 +184\.94 +0$' "$tmp/d4.runtime"
check "decode4: no host_extra_us.attention" sh -c "! grep -q '^host_extra_us.attention' '$tmp/d4.runtime'"
# the first embedding (997.9 us, 430.6 of them the profiler's Activity
# Buffer Request, its cudaLaunchKernel 414 us: CUPTI's start) is no extra
check "decode4: the first launch's embedding is no extra" sh -c "! grep -q '^host_extra_us.copy' '$tmp/d4.runtime'"
check "decode4: embedding's largest own time 997.94 - 430.62 = 567.31" \
	grep -Eq '^#   aten::embedding +copy +4 +4 .* 567\.31 +0$' "$tmp/d4.runtime"

# ---- --step-us: scaled to the step measured without the profiler ----
step=$(awk -F'\t' '$1 == "hf_llama3_8b_l2_decode_b16_c1024_bf16" { split($5, a, " "); print a[1] }' "$SUMMARY")
check "eager-summary.txt: llama's step 5428.2 us" test "$step" = 5428.2
python3 "$tmp/fit.py" "$L16" "$step" >"$tmp/want2"
run calibrate --from-trace "$L16" --step-us "$step" -o "$tmp/hf-fitted.runtime"
check "--step-us: exit 0" test "$rc" -eq 0
check "--step-us: the scale 5428.2 / 8495.24 = 0.6390" grep -q '^# Every figure is scaled by 0.6390 = 5428.20 / 8495.24' "$tmp/hf-fitted.runtime"
tail -n +2 "$tmp/want2" >"$tmp/kinds2"
while read -r kind us extra; do
	got=$(key "$tmp/hf-fitted.runtime" "host_overhead_us.$kind")
	if near "$got" "$us" 0.011; then ok "--step-us: host_overhead_us.$kind = $us"
	else not_ok "--step-us: host_overhead_us.$kind = $us" "file: $got"; fi
done <"$tmp/kinds2"
check "--step-us: the summary's span is the step" grep -q '^host span 5428.20 us (--step-us), 3 per-call extras$' "$tmp/out"

# ---- the file by path: hw, model, classify, report ----
run model --hw h200-sxm --runtime "$tmp/hf-fitted.runtime" --phase decode --batch 16 --context 1024 "$EX/llama3-8b.json"
check "model --runtime FILE: exit 0" test "$rc" -eq 0
check "model --runtime FILE: its id in the heading" grep -q 'hf-fitted runtime: ' "$tmp/out"
run classify --hw h200-sxm --runtime "$tmp/hf-fitted.runtime" -f csv "$EX/llama2-7b-decode.csv"
check "classify --runtime FILE: exit 0" test "$rc" -eq 0
att=$(key "$tmp/hf-fitted.runtime" host_overhead_us.attention)
check "classify --runtime FILE: attention's host cost is the file's" \
	test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kind") k = i; else if ($i == "t_overhead_us") h = i; next }
		$k == "attention" { print $h; exit }' "$tmp/out")" = "$att"
run classify --hw h200-sxm --runtime eager "$EX/llama2-7b-decode.csv"
check "classify --runtime eager: an id still works" test "$rc" -eq 0
expect_error "--runtime missing.runtime: the file named" 1 'nope\.runtime' \
	classify --hw h200-sxm --runtime "$tmp/nope.runtime" "$EX/llama2-7b-decode.csv"
printf 'id = x\nname = x\nhost_overhead_us = 5 ; t\nhost_extra_us.warp = 3 ; t\n' >"$tmp/bad.runtime"
expect_error "--runtime FILE with an unknown host_extra_us kind" 1 'bad\.runtime:4: unknown key .host_extra_us\.warp. \(expected host_extra_us\.KIND' \
	classify --hw h200-sxm --runtime "$tmp/bad.runtime" "$EX/llama2-7b-decode.csv"
printf 'id = x\nname = x\nhost_overhead_us = 5 ; t\nhost_extra_us.attention = 2e6 ; t\n' >"$tmp/big.runtime"
expect_error "--runtime FILE with host_extra_us out of range" 1 'big\.runtime:4: key .host_extra_us\.attention.' \
	classify --hw h200-sxm --runtime "$tmp/big.runtime" "$EX/llama2-7b-decode.csv"
expect_error "model -o onto its --runtime file: refused" 2 'hf-fitted\.runtime' \
	model --hw h200-sxm --runtime "$tmp/hf-fitted.runtime" -o "$tmp/hf-fitted.runtime" "$EX/llama3-8b.json"

# the file in a database directory: found by its id, listed by hw runtimes
mkdir "$tmp/db" && cp "$top_srcdir"/hwdb/*.* "$tmp/db/" && cp "$tmp/hf-fitted.runtime" "$tmp/db/"
run hw runtimes --hwdb "$tmp/db"
check "hw runtimes --hwdb: the fitted profile listed" grep -q '^hf-fitted  *[0-9.]* us  host costs fitted from' "$tmp/out"
run report --hwdb "$tmp/db" --runtime hf-fitted --timeline "$Q2"
check "report --runtime hf-fitted (an id of --hwdb): its lane" grep -q '^hf-fitted ' "$tmp/out"

# report's timeline on two other models' decode steps: the fitted lane's
# step against the step measured without the profiler (eager-summary.txt)
for m in qwen2_7b_l2_decode_b8_c4096 qwen3_8b_l2_decode_b4_c8192; do
	meas=$(awk -F'\t' -v m="hf_${m}_bf16" '$1 == m { split($5, a, " "); print a[1] }' "$SUMMARY")
	run report --runtime "$tmp/hf-fitted.runtime" --timeline "$DATA/impl/trace_hf_${m}_bf16.json.gz"
	pred=$(awk '$1 == "hf-fitted" { print $4 }' "$tmp/out")
	check "report --runtime FILE --timeline on $m: a hf-fitted lane" test -n "$pred"
	check "$m: predicted step $pred us within 25 % of the measured $meas" \
		awk -v p="$pred" -v m="$meas" 'BEGIN { e = (p - m) / m; exit !(e < 0.25 && e > -0.25) }'
done

# ---- report's host advice ----
run report "$DATA/impl/trace_compiled_qwen3_8b_l2_b8_p1024_gen1.json.gz"
check "report: the host advice on a compiled prefill" grep -q '^host: 1 call far above its kind.s CPU time per launch:$' "$tmp/out"
# by hand: its 124th top-level call, aten::to with a cudaStreamSynchronize
# of 549.9 us inside, 599.7 us of CPU in all, one memcpy; the copy kind's
# median per kernel 30.3 us
check "report: aten::to named, 599.7 us against 30.3" \
	grep -q '^    599.7 us of CPU, 19.8 x the copy median of 30.3 us per kernel launched:$' "$tmp/out"
run report "$L16"
check "report on llama's decode: no host advice (the first launch left out)" sh -c "! grep -q '^host:' '$tmp/out'"
run report -f json "$DATA/impl/trace_compiled_qwen3_8b_l2_b8_p1024_gen1.json.gz"
check "report -f json: still one JSON document" python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out"

# ---- bad input ----
expect_error "not a trace" 1 'trace-not-a-trace\.json: byte [0-9]+: not a PyTorch profiler trace' \
	calibrate --from-trace "$DATA/trace-not-a-trace.json"
expect_error "a truncated gzip trace" 1 'trace-truncated\.json\.gz: byte [0-9]+: truncated gzip data' \
	calibrate --from-trace "$DATA/trace-truncated.json.gz" -o "$tmp/t.runtime"
check "a truncated trace: nothing written" test ! -e "$tmp/t.runtime"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"correlation": 5}}]}\n' >"$tmp/nocpu.json"
expect_error "a trace without CPU ops" 1 'nocpu\.json: no CPU ops in the trace' \
	calibrate --from-trace "$tmp/nocpu.json" -o "$tmp/n.runtime"
check "no CPU ops: nothing written" test ! -e "$tmp/n.runtime"
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"correlation": 5}}]}\n' >"$tmp/nolaunch.json"
expect_error "CPU ops that launch nothing" 1 'nolaunch\.json: no CPU op in the trace launched a kernel' \
	calibrate --from-trace "$tmp/nolaunch.json"
expect_error "-o into a missing directory" 1 'no/such/dir/x\.runtime' \
	calibrate --from-trace "$L16" -o "$tmp/no/such/dir/x.runtime"
expect_error "a missing trace" 1 'missing\.json' calibrate --from-trace "$tmp/missing.json"
expect_error "--step-us without --from-trace" 2 '--step-us goes with --from-trace' \
	calibrate --step-us 5 -o "$tmp/x.device"
expect_error "--step-us 0" 2 '--step-us: expected a time in us above 0' \
	calibrate --from-trace "$L16" --step-us 0
expect_error "--step-us abc" 2 '--step-us: expected a time' calibrate --from-trace "$L16" --step-us abc
expect_error "--from-trace with --from" 2 '--from-trace fits a runtime from a trace' \
	calibrate --from-trace "$L16" --from "$tmp/rec.json"
expect_error "--from-trace with a bad --id" 2 '--id: .a b. is not a runtime id' \
	calibrate --from-trace "$L16" --id 'a b'
expect_error "-o whose name gives no id" 2 'gives no runtime id' \
	calibrate --from-trace "$L16" -o "$tmp/a;b.runtime"
# a writable copy: distcheck's source tree is read-only, which -o refuses first
cp "$L16" "$tmp/self.json.gz" && chmod u+w "$tmp/self.json.gz"
expect_error "-o onto the trace itself: refused" 2 'self' \
	calibrate --from-trace "$tmp/self.json.gz" -o "$tmp/self.json.gz"

done_testing
