#!/bin/sh
# cli_sweep.sh - model --sweep and classify --sweep (sweep.c, sweep_report.c)
# in every format, their errors, and plot --sweep-table, values worked out by
# hand (docs/model.md, "Sweeps").
. "$top_srcdir/tests/lib.sh"

C8="$EX/llama3-8b.json"
MM="$DATA/sweep-matmul.csv"
TINY="$DATA/sweep-tiny.device"

# well_formed FILE: parses as XML (xmllint, python3's minidom where present).
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>/dev/null || return 1
	fi
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1" \
			2>/dev/null || return 1
	fi
	return 0
}
# row FILE VALUE COLUMN: COLUMN of the csv row whose first field is VALUE.
row() { csv_field "$1" "$2" "$3"; }

# --- classify: one matmul, M = B rows by 10000 x 10000 bf16 weights, on a
# 1 TB/s, 100 TFLOP/s device of 0.3 GiB, best case, 5 us per launch.
# FLOPs 2 x B x 10^8: 2 B us; bytes 2e8 (weights) + 4e4 B (A and C):
# 200 + 0.04 B us. B = 1: memory-bound, 200.04 us; B = 1000, 2000, 4000:
# compute-bound, 2000, 4000, 8000 us; items = B: 5e5 items/s from 1000.
# Memory 2e8 + 4e4 B bytes: 2.4e8, 2.8e8 fit 0.3 x 2^30 = 322,122,547 B,
# 3.6e8 at B = 4000 does not.
sw="--hw $TINY --host-overhead-us 5 --best-case --sweep B=1,1000,2000,4000"
run classify $sw --items-per-step B -f csv "$MM"
check "classify csv: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
check "classify csv: the header" test "$(head -n 1 "$tmp/out")" = \
	"B,step_us,roofline_us,items_per_step,items_per_s,items_per_s_roofline,compute_pct,memory_pct,overhead_pct,network_pct,weight_bytes,kv_bytes,activation_bytes,memory_bytes,device_bytes,fits"
check "classify csv: one row per value" test "$(wc -l <"$tmp/out")" -eq 5
check "classify csv: B=1 memory-bound, 200.04 us" \
	test "$(row "$tmp/out" 1 step_us),$(row "$tmp/out" 1 memory_pct)" = "200.04,100"
check "classify csv: the time doubles with B once compute-bound" \
	test "$(row "$tmp/out" 1000 step_us),$(row "$tmp/out" 2000 step_us),$(row "$tmp/out" 4000 step_us)" = "2000,4000,8000"
check "classify csv: 5e5 items/s compute-bound" \
	test "$(row "$tmp/out" 2000 items_per_s),$(row "$tmp/out" 2000 compute_pct)" = "500000,100"
check "classify csv: weights 2e8 B at every B" \
	test "$(row "$tmp/out" 1 weight_bytes),$(row "$tmp/out" 4000 weight_bytes)" = "200000000,200000000"
check "classify csv: memory 3.6e8 B at B=4000, over 0.3 GiB" \
	test "$(row "$tmp/out" 4000 memory_bytes),$(row "$tmp/out" 4000 device_bytes),$(row "$tmp/out" 4000 fits)" = "360000000,322122547,no"
check "classify csv: 2.8e8 B at B=2000 fits" test "$(row "$tmp/out" 2000 fits)" = yes
cp "$tmp/out" "$tmp/mm.csv"

run classify $sw --items-per-step B "$MM"
check "classify table: exit 0" test "$rc" -eq 0
check "classify table: the title" grep -q "^sweep of B: .*sweep-matmul.csv; sweep-tiny, eager runtime$" "$tmp/out"
check "classify table: B=4000 row" \
	grep -Eq "^ +4000 +8000.00 +8000.00 +500000.0 +100.0% +0.0% +0.0% +0.0% +0.34 +no$" "$tmp/out"
check "classify table: the knee at B=1000" \
	grep -q "^knee: compute-bound from B 1000 (memory-bound at 1)$" "$tmp/out"
check "classify table: out of memory from B=4000" \
	grep -q "^out of memory: from B 4000 (0.34 GiB needed, 0.3 GiB on the device)$" "$tmp/out"

run classify $sw -f json "$MM"
check "classify json: exit 0" test "$rc" -eq 0
check "classify json: knee 1000, out of memory 4000" \
	grep -q '"knee":1000,"out_of_memory":4000}}$' "$tmp/out"
check "classify json: no items without --items-per-step" grep -q '"items":null' "$tmp/out"
check "classify json: B=1 row" \
	grep -q '{"value":1,"step_us":200.04,"roofline_us":200.04,"share":{"compute":0,"memory":1,"overhead":0,"network":0},"bound":"memory","memory":{"weight_bytes":200000000,"kv_bytes":0,"activation_bytes":40000,"total_bytes":200040000},"fits":true}' "$tmp/out"
if command -v python3 >/dev/null 2>&1; then
	check "classify json: valid JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"
else
	ok "# SKIP python3 not installed"
fi

run classify $sw --items-per-step 'B*2' -f md "$MM"
check "classify md: exit 0" test "$rc" -eq 0
check "classify md: the header" \
	grep -q "^| B | step_us | roofline_us | items/s | compute | memory | overhead | network | memory_GiB | fits |$" "$tmp/out"
check "classify md: items = 2 B: 1e6 items/s at B=1000" \
	grep -q "^| 1000 | 2000.00 | 2000.00 | 1000000.0 | 100.0 % | 0.0 % | 0.0 % | 0.0 % | 0.22 | yes |$" "$tmp/out"
check "classify md: notes as a list" grep -q "^- knee: compute-bound from B 1000" "$tmp/out"

# the list from standard input, and a count swept
"$ROOFLINE" classify $sw -f csv - <"$MM" >"$tmp/stdin.csv" 2>"$tmp/err"
check "classify -: reads standard input" test "$(row "$tmp/stdin.csv" 4000 step_us)" = 8000
printf 'name,kind,dtype,shape,count\nmm,matmul,bf16,1000x10000x10000,L\n' >"$tmp/count.csv"
run classify --hw "$TINY" --host-overhead-us 5 --best-case --sweep L=1,2,3 -f csv "$tmp/count.csv"
check "classify: a count swept, 2000 us per layer" \
	test "$(row "$tmp/out" 1 step_us),$(row "$tmp/out" 3 step_us)" = "2000,6000"

# --- model: Llama-3-8B decode at context 2048, bf16, on the H100 SXM (80 GiB).
# Weights (every matmul: 32 layers of qkv 4096 x 6144, o 4096 x 4096,
# gate_up 4096 x 28672, down 14336 x 4096, and the lm_head 4096 x 128256):
# 7,504,658,432, and held beside them the token table 128256 x 4096 and the
# norms 32 x 2 x 4096 + 4096: 8,030,261,248 weights (8.03B) x 2 B =
# 16,060,522,496 B at every batch. K and V per
# sequence: 2 x 32 x 8 x 2048 x 128 x 2 = 268,435,456 B; activations (the
# lm_head's input and output) 2 x (4096 + 128256) = 264,704 B per sequence.
# Fits while 16,060,522,496 + 268,700,160 B <= 85,899,345,920: B <= 259;
# at 260: 85,922,564,096 B = 80.02 GiB.
run model --hw h100-sxm --context 2048 --sweep batch=1,259,260 -f csv "$C8"
check "model csv: exit 0" test "$rc" -eq 0
check "model csv: tokens per step = batch at decode" \
	test "$(row "$tmp/out" 259 tokens_per_step)" = 259
check "model csv: weights constant" \
	test "$(row "$tmp/out" 1 weight_bytes),$(row "$tmp/out" 260 weight_bytes)" = "16060522496,16060522496"
check "model csv: KV linear in the batch" \
	test "$(row "$tmp/out" 1 kv_bytes),$(row "$tmp/out" 259 kv_bytes)" = "268435456,$((259 * 268435456))"
check "model csv: memory at 259 = weights + KV + activations" \
	test "$(row "$tmp/out" 259 memory_bytes)" = $((16060522496 + 259 * 268700160))
check "model csv: batch 259 fits, 260 does not" \
	test "$(row "$tmp/out" 259 fits),$(row "$tmp/out" 260 fits)" = "yes,no"
run model --hw h100-sxm --context 2048 --sweep batch=1,259,260 "$C8"
check "model table: title without the swept size" \
	grep -q "^sweep of batch: .*llama3-8b.json, decode, context 2048; h100-sxm, eager runtime$" "$tmp/out"
check "model table: out of memory from 260" \
	grep -q "^out of memory: from batch 260 (80.02 GiB needed, 80 GiB on the device)$" "$tmp/out"
run model --hw h100-sxm --context 2048 --sweep batch=1,259,260 -f json "$C8"
check "model json: out of memory 260" grep -q '"out_of_memory":260}}$' "$tmp/out"
check "model json: tokens" grep -q '"items":"tokens"' "$tmp/out"
run model --hw h100-sxm --context 2048 --sweep batch=1,259,260 -f md "$C8"
check "model md: a table" grep -q "^| batch | step_us | roofline_us | tokens/s |" "$tmp/out"
# prefill: tokens per step = batch x seq; seq sweeps the prompt
run model --phase prefill --batch 2 --sweep seq=128,256 -f csv "$C8"
check "model prefill: tokens per step = batch x seq" \
	test "$(row "$tmp/out" 128 tokens_per_step),$(row "$tmp/out" 256 tokens_per_step)" = "256,512"
# decode: the context sweep moves the KV only: 268,435,456 / 2048 B per token
run model --sweep context=1024,4096 -f csv "$C8"
check "model decode: KV 128 KiB per token of context" \
	test "$(row "$tmp/out" 1024 kv_bytes),$(row "$tmp/out" 4096 kv_bytes)" = "134217728,536870912"
# at decode without --context, seq moves the context too
run model --sweep seq=1024,4096 -f csv "$C8"
check "model decode: seq moves the context" test "$(row "$tmp/out" 4096 kv_bytes)" = 536870912

# --- errors: one message, non-zero exit, nothing on stdout
expect_error "model: no values" 2 "^roofline: --sweep batch: no values" model --sweep batch= "$C8"
expect_error "model: an empty value" 2 "value 2 is empty" model --sweep batch=1,,2 "$C8"
expect_error "model: not an integer" 2 "value 2 'x'" model --sweep batch=1,x "$C8"
expect_error "model: zero" 2 "0 is below the minimum 1" model --sweep batch=0 "$C8"
expect_error "model: negative" 2 "value 1 '-1'" model --sweep batch=-1 "$C8"
expect_error "model: decreasing" 2 "must increase" model --sweep batch=8,1 "$C8"
expect_error "model: unknown name" 2 "unknown name 'layers' \(expected batch, seq or context\)" \
	model --sweep layers=1,2 "$C8"
expect_error "model: past 2^24" 2 "past the largest size 16777216" model --sweep batch=1,16777217 "$C8"
expect_error "model: context at prefill" 1 "the prefill step has no context: sweep seq" \
	model --phase prefill --sweep context=1,2 "$C8"
expect_error "model: seq at decode with --context" 1 "sweep context" \
	model --context 100 --sweep seq=1,2 "$C8"
expect_error "model: seq of vit" 1 "vit takes its tokens from the image" \
	model --sweep seq=1,2 "$EX/vit-b16.json"
expect_error "model: not with -f oplist" 2 "not with -f oplist" model --sweep batch=1 -f oplist "$C8"
expect_error "model: not with --generate" 2 "not with --generate" model --sweep batch=1 --generate 4 "$C8"
expect_error "model: not with --max-batch" 2 "not with --max-batch" model --sweep batch=1 --max-batch "$C8"
expect_error "classify: a name no row uses" 1 \
	"^roofline: --sweep S: no shape or count of .*sweep-matmul.csv uses the name 'S'$" \
	classify --set B=1 --sweep S=1,2 "$MM"
check "classify: the unused name said once" test "$(wc -l <"$tmp/err")" -eq 1
run classify --set C=2 --sweep B=1,2,3 -f csv "$MM"
check "classify: an unused --set name warned once, not once per value" \
	test "$rc" -eq 0 -a "$(grep -c "warning: --set C=2: no shape or count" "$tmp/err")" -eq 1
expect_error "classify: an unbound name still an error" 1 "name 'B' .* is not bound" \
	classify --sweep S=1,2 "$MM"
expect_error "classify: bound by --set too" 2 "--sweep B: B is bound by --set too" \
	classify --set B=2 --sweep B=1,2 "$MM"
expect_error "classify: --items-per-step alone" 2 "--items-per-step needs --sweep" \
	classify --set B=2 --items-per-step B "$MM"
expect_error "classify: not with --scale" 2 "not with --scale" \
	classify --sweep B=1,2 --scale B=2 "$MM"
expect_error "classify: a bad items expression" 1 "'T'" \
	classify --sweep B=1,2 --items-per-step 'B*T' "$MM"
expect_error "classify: a bad value list" 2 "value 2 is empty" classify --sweep B=1,,2 "$MM"

# --- plot --sweep-table
run plot --sweep-table -o "$tmp/mm.svg" "$tmp/mm.csv"
check "plot: exit 0, nothing on stdout" test "$rc" -eq 0 -a ! -s "$tmp/out"
check "plot: well-formed SVG" well_formed "$tmp/mm.svg"
check "plot: the knee marked at B=1000" grep -q '>compute-bound from B=1000<' "$tmp/mm.svg"
check "plot: out of memory marked from B=4000" grep -q '>out of memory from B=4000<' "$tmp/mm.svg"
check "plot: log x (1 to 4000 spans 8x or more)" grep -q '>B (log scale)<' "$tmp/mm.svg"
check "plot: a point per value and panel" \
	test "$(grep -c '<circle[^>]*r="4.5"' "$tmp/mm.svg")" -eq 8
check "plot: B=4000 hollow (does not fit)" grep -q 'B 4000: 8 ms, compute-bound, does not fit<' "$tmp/mm.svg"
"$ROOFLINE" plot --sweep-table - <"$tmp/mm.csv" >"$tmp/stdin.svg" 2>"$tmp/err"
check "plot: from standard input" sh -c "grep -q 'id=\"knee\"' '$tmp/stdin.svg'"
# compute-bound throughout and fitting: neither marker; linear x
run classify --hw "$TINY" --host-overhead-us 5 --best-case --sweep B=1000,2000 -f csv "$MM"
cp "$tmp/out" "$tmp/plain.csv"
run plot --sweep-table -o "$tmp/plain.svg" "$tmp/plain.csv"
check "plot: plain table well-formed" well_formed "$tmp/plain.svg"
check "plot: no knee, no out of memory" sh -c "! grep -q 'id=\"knee\"\\|id=\"oom\"' '$tmp/plain.svg'"
check "plot: linear x (1000 to 2000 spans less than 8x)" sh -c "! grep -q 'log scale' '$tmp/plain.svg'"
check "plot: no throughput without items" grep -q 'no throughput' "$tmp/plain.svg"
printf 'B,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,2,0,100,0,maybe\n' >"$tmp/bad.csv"
expect_error "plot: a bad csv" 1 "bad.csv:2: column 'fits': 'maybe' is not yes or no" \
	plot --sweep-table "$tmp/bad.csv"
expect_error "plot: --sweep and --sweep-table" 2 "do not combine" plot --sweep --sweep-table "$tmp/mm.csv"
expect_error "plot: a missing file" 1 "cannot open" plot --sweep-table "$tmp/none.csv"

# --- README and docs: the block and the chart are what the program prints
awk '/--context 1024 --sweep batch=1,8,64,256,512,1024`:$/ { armed = 1; next }
	armed && /^```/ { if (inside) exit; inside = 1; next }
	inside { print }' "$top_srcdir/README.md" >"$tmp/want"
"$ROOFLINE" model "$C8" --hw a100-80gb --runtime graph --context 1024 \
	--sweep batch=1,8,64,256,512,1024 2>/dev/null | sed "s|$EX/|examples/|" >"$tmp/got"
check "README: the sweep block is today's output" test -s "$tmp/want" -a -s "$tmp/got"
check "README: the sweep block matches" cmp -s "$tmp/want" "$tmp/got"
"$ROOFLINE" model "$C8" --hw a100-80gb --runtime graph --context 1024 \
	--sweep batch=1,8,64,256,512,1024 -f csv 2>/dev/null |
	"$ROOFLINE" plot --sweep-table - -o "$tmp/docs.svg"
check "docs: the committed sweep table chart is today's" \
	cmp -s "$tmp/docs.svg" "$top_srcdir/docs/img/sweep-table-llama3-8b-a100.svg"

# a batch swept with a layout: each value placed again (dp replicas of
# batch / dp sequences), each row model's step at that batch
L8="$EX/llama3-8b.json"
run model "$L8" --hw hgx-h100-8 --tp 2 --dp 2 --sweep batch=4,16,1000 -f csv
cp "$tmp/out" "$tmp/lay.csv"
for b in 4 16 1000; do
	run model "$L8" --hw hgx-h100-8 --tp 2 --dp 2 --batch $b -f json
	want=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["expected_us"])' "$tmp/out")
	got=$(awk -F, -v b=$b '$1 == b { print $2 }' "$tmp/lay.csv")
	check "--sweep batch with --tp 2 --dp 2: batch $b is model's step ($want us)" \
		awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && (a - b) ^ 2 <= (1e-5 * b) ^ 2) }'
done
expect_error "--sweep batch with --dp 2: a batch it does not divide" 1 \
	"--sweep batch=7: --dp 2 does not divide --batch 7" \
	model "$L8" --hw hgx-h100-8 --tp 2 --dp 2 --sweep batch=4,7

done_testing
