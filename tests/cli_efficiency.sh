#!/bin/sh
# cli_efficiency.sh - the expected times' efficiency profile on the command
# line (which profile a device gets, and the line that says so), and the
# expected-time model held against the H200 measurements it was fitted on
# and those it never saw (docs/measurements/h200-issue12-2026-12-01/ops.csv,
# split into fit and held-out families before the fit): the figures the
# closing note of issue 12 gives, re-derived here from the classify csv and
# the recorded times with the rules.
. "$top_srcdir/tests/lib.sh"

OPS="$top_srcdir/docs/measurements/h200-issue12-2026-12-01/ops.csv"
UNIT="$DATA/expected/unit.efficiency"

# flat FILE PATTERN: FILE's lines joined, runs of blanks squeezed (the table
# wraps its header lines at 80 columns), matches PATTERN (grep -E)
flat() { tr '\n' ' ' <"$1" | tr -s ' ' | grep -Eq "$2"; }

# --- which profile --------------------------------------------------------
run classify --hw h200-sxm "$EX/bert-base.csv"
check "h200-sxm: its own profile, measured on this GPU" \
	flat "$tmp/out" 'expected times: efficiency profile h200-pytorch \(PyTorch 2\.11\.0\+cu130, CUDA 13\.0\), measured on this GPU \(NVIDIA H200 SXM 141GB\) name'
run classify --hw h200-sxm-measured "$EX/bert-base.csv"
check "the calibrated H200 file: the same GPU" grep -q 'measured on this GPU' "$tmp/out"
run classify --hw a100-sxm4-80gb "$EX/bert-base.csv"
check "a100: its specs with the nearest measured GPU's residue" \
	flat "$tmp/out" "expected times: NVIDIA A100 SXM4 80GB's specs with the residue of efficiency profile h200-pytorch .* measured on NVIDIA H200 SXM 141GB, the nearest measured GPU name"
run classify --hw h100-sxm "$EX/bert-base.csv"
check "h100-sxm (compute capability and SMs of the H200, 80 GB): not the same GPU" \
	flat "$tmp/out" 'the nearest measured GPU'
run classify --hw h200-sxm --efficiency "$UNIT" "$EX/bert-base.csv"
check "--efficiency FILE: named, and said to be chosen" \
	flat "$tmp/out" 'efficiency profile unit \(none\), measured on Unit Test GPU \(--efficiency\)'
run classify --hw h200-sxm --best-case "$EX/bert-base.csv"
check "--best-case: no expected-times line" sh -c "! grep -q '^expected times' '$tmp/out'"

# every entry of the H200 gets the same expected times: they come from the
# datasheet figures, which the calibrated file keeps as datasheet.KEY
"$ROOFLINE" classify --hw h200-sxm -f csv "$EX/llama2-7b-decode.csv" 2>/dev/null >"$tmp/a.csv"
"$ROOFLINE" classify --hw h200-sxm-measured -f csv "$EX/llama2-7b-decode.csv" 2>/dev/null >"$tmp/b.csv"
e=$(col_of() { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }; col_of "$tmp/a.csv" expected_gpu_us)
cut -d, -f"$e" "$tmp/a.csv" >"$tmp/ea"
cut -d, -f"$e" "$tmp/b.csv" >"$tmp/eb"
check "h200-sxm and the calibrated file: the same expected_gpu_us on every row" cmp -s "$tmp/ea" "$tmp/eb"

# a database without profiles: expected times are the roofline's
mkdir "$tmp/db"
cp "$top_srcdir/hwdb/h200-sxm.device" "$top_srcdir/hwdb/eager.runtime" "$tmp/db/"
run classify --hwdb "$tmp/db" --hw h200-sxm -f csv "$EX/bert-base.csv"
check "no profile: exit 0" test "$rc" -eq 0
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["expected_gpu_us"] != $c["t_gpu_us"] || $c["expected_bound"] != $c["bound"] { bad = 1 }
	END { exit bad }' "$tmp/out"
check "no profile: expected_gpu_us and expected_bound are the roofline's" test $? -eq 0
run classify --hwdb "$tmp/db" --hw h200-sxm "$EX/bert-base.csv"
check "no profile: the line says so" \
	flat "$tmp/out" "no efficiency profile in .*, so they are the roofline's"

# --- bad profiles: one message naming file and line, exit 1, no output ----
printf 'latency_us = 1000 ; t\n' >"$tmp/bad.efficiency"
expect_error "--efficiency: a value out of range" 1 "bad.efficiency:1: key 'latency_us': 1000 is outside 0 to 100" \
	classify --hw h200-sxm --efficiency "$tmp/bad.efficiency" "$EX/bert-base.csv"
expect_error "--efficiency: a missing file" 1 "nope.efficiency" \
	classify --hw h200-sxm --efficiency "$tmp/nope.efficiency" "$EX/bert-base.csv"
cp "$tmp/bad.efficiency" "$tmp/db/"
expect_error "a bad profile in the database" 1 "bad.efficiency:1" \
	classify --hwdb "$tmp/db" --hw h200-sxm "$EX/bert-base.csv"

# --- the model against the H200 measurements --------------------------------
# classify's csv carries the recorded columns (graph_us, eager_us, split)
run classify --hw h200-sxm-measured -f csv "$OPS"
check "the measurements classify" test "$rc" -eq 0
cp "$tmp/out" "$tmp/m.csv"
# figures SPLIT: ops, median and p90 of |expected_gpu_us - measured| /
# measured over ops measured at 20 us or more, the share whose expected
# bound is the measured regime (overhead when eager > 1.5 x graph time per
# call; else compute when flops / calibrated peak > bytes / calibrated
# bandwidth: t_compute_us > t_memory_us; else memory), and the share whose
# roofline t_gpu_us is at most 1.1 x the measured time
figures() {
	awk -F, -v sp="$1" 'function q(a, n, p,   h, lo) { h = (n - 1) * p; lo = int(h)
			return lo + 1 < n ? a[lo] + (h - lo) * (a[lo + 1] - a[lo]) : a[lo] }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		sp != "all" && $c["split"] != sp { next }
		{ m = $c["measured_us"]; e = $c["expected_gpu_us"]; n++
		  reg = $c["eager_us"] > 1.5 * $c["graph_us"] ? "overhead" : ($c["t_compute_us"] > $c["t_memory_us"] ? "compute" : "memory")
		  agree += $c["expected_bound"] == reg; agree_roof += $c["bound"] == reg
		  lower += $c["t_gpu_us"] <= 1.1 * m
		  if (m >= 20) { d = (e - m) / m; err[k++] = d < 0 ? -d : d } }
		END { for (i = 0; i < k; i++) for (j = i + 1; j < k; j++) if (err[j] < err[i]) { t = err[i]; err[i] = err[j]; err[j] = t }
		      printf "%d %d %.8f %.8f %.4f %.4f %.4f\n", n, k, q(err, k, 0.5), q(err, k, 0.9), agree / n,
		             lower / n, agree_roof / n }' "$tmp/m.csv"
}
set -- $(figures held-out)
check "held-out: 108 ops, 69 of 20 us or more" test "$1 $2" = "108 69"
check "held-out: median error $3 <= 0.10" awk -v x="$3" 'BEGIN { exit !(x <= 0.10) }'
check "held-out: p90 error $4 <= 0.30" awk -v x="$4" 'BEGIN { exit !(x <= 0.30) }'
check "held-out: expected bound = measured regime on $5 >= 0.97" awk -v x="$5" 'BEGIN { exit !(x >= 0.97) }'
set -- $(figures all)
check "all 331 ops: expected bound = measured regime on $5, at least the roofline bound's $7" \
	awk -v x="$5" -v y="$7" 'BEGIN { exit !(x >= y) }'
check "all 331 ops: t_gpu_us <= 1.1 x measured on $6 >= 0.98" awk -v x="$6" 'BEGIN { exit !(x >= 0.98) }'
# the families measured after the profile was frozen (ops-fresh.csv): the
# median holds; the p90 does not (docs/expected.md says which ops)
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue12-2026-12-01/ops-fresh.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures fresh)
check "fresh: 50 ops, 33 of 20 us or more" test "$1 $2" = "50 33"
check "fresh: median error $3 <= 0.10" awk -v x="$3" 'BEGIN { exit !(x <= 0.10) }'
check "fresh: t_gpu_us <= 1.1 x measured on every op ($6)" test "$6" = 1.0000
# restore the first list's figures for the summary check below
run classify --hw h200-sxm-measured -f csv "$OPS"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures all)
# the summary's error line for ops of 20 us or more: the same median and p90
want=$(awk -v n="$2" -v a="$3" -v b="$4" 'BEGIN { printf ">= 20 us %d %.1f %% %.1f %%", n, 100 * a, 100 * b }')
run classify --hw h200-sxm-measured "$OPS"
check "the summary's errors over ops of 20 us or more: $want" \
	sh -c "grep '^  >= 20 us' '$tmp/out' | tr -s ' ' | grep -q '^ $want '"

# issue 26's families (h200-issue26-2026-12-02/ops.csv, split by shape class
# before the fit): the held-out error goals hold; the regime goal (0.97)
# does not yet (docs/expected.md says which ops), so only today's 0.94 floor
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue26-2026-12-02/ops.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures held-out)
check "issue 26 held-out: 72 ops, 59 of 20 us or more" test "$1 $2" = "72 59"
check "issue 26 held-out: median error $3 <= 0.10" awk -v x="$3" 'BEGIN { exit !(x <= 0.10) }'
check "issue 26 held-out: p90 error $4 <= 0.30" awk -v x="$4" 'BEGIN { exit !(x <= 0.30) }'
check "issue 26 held-out: expected bound = measured regime on $5 >= 0.94" awk -v x="$5" 'BEGIN { exit !(x >= 0.94) }'
check "issue 26 held-out: t_gpu_us <= 1.1 x measured on every op ($6)" test "$6" = 1.0000
# issue 26's families on 62 shapes measured after the fit (a second
# held-out set, on another H200 host): the error goals hold; the regime is
# at 0.968 (two small ops, docs/expected.md), held at a 0.95 floor
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue26-fresh-2026-12-02/ops-fresh.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures fresh)
check "issue 26 fresh: 62 ops, 43 of 20 us or more" test "$1 $2" = "62 43"
check "issue 26 fresh: median error $3 <= 0.10" awk -v x="$3" 'BEGIN { exit !(x <= 0.10) }'
check "issue 26 fresh: p90 error $4 <= 0.30" awk -v x="$4" 'BEGIN { exit !(x <= 0.30) }'
check "issue 26 fresh: expected bound = measured regime on $5 >= 0.95" awk -v x="$5" 'BEGIN { exit !(x >= 0.95) }'
check "issue 26 fresh: t_gpu_us <= 1.1 x measured on every op ($6)" test "$6" = 1.0000

# SDPA under an explicit mask: the fresh set's two masked rows
# (measure.py's add_sdpa_mask: an additive float mask [B, 1, S, S], which the
# recording names but has no column for: given here by name, the
# recording's CRLF ends dropped) are the two
# that mem.attention_mask was derived from (hwdb/h200-pytorch.efficiency,
# source mask), each within 3 % (bf16: 216.7 expected against 219.2; fp32:
# 1205.7 against 1200.8); without the column they are the unmasked kernel's
# time, 41.6 % and 14.4 % short
FRESH="$top_srcdir/docs/measurements/h200-issue26-fresh-2026-12-02/ops-fresh.csv"
awk -F, '{ sub(/\r$/, "") } NR == 1 { print $0 ",mask"; next } $1 ~ /-mask$/ { print $0 ",float"; next }
	{ print $0 "," }' \
	"$FRESH" >"$tmp/fresh-mask.csv"
run classify --hw h200-sxm-measured -f csv "$tmp/fresh-mask.csv"
check "the masked fresh rows classify" test "$rc" -eq 0
cp "$tmp/out" "$tmp/m.csv"
for row in sdpa-backend/sdpa-bf16-d128-s1024-mask sdpa-backend/sdpa-f32-d64-s1024-mask; do
	e=$(csv_field "$tmp/m.csv" "$row" expected_gpu_us)
	m=$(csv_field "$tmp/m.csv" "$row" measured_us)
	check "$row under its float mask: $e within 3 % of $m" \
		awk -v e="$e" -v m="$m" 'BEGIN { d = e / m - 1; exit !(d < 0.03 && d > -0.03) }'
done
set -- $(figures fresh)
check "issue 26 fresh with the masks given: median error $3 <= 0.10, p90 $4 <= 0.30" \
	awk -v a="$3" -v b="$4" 'BEGIN { exit !(a <= 0.10 && b <= 0.30) }'

# issue 26's int8 weight-only linears (h200-issue26-wo-2026-12-04: gpt-fast's
# F.linear(x, w.to(x.dtype)) * scales over Llama-2's projections, split by
# model before the fit: -70B held out). Eagerly (the cast, the GEMM, the
# multiply: no key fitted on them), the held-out shapes' errors; under the
# graph runtime (torch.compile's kernels, compiled = 1: one fused GEMV at
# one row), its two keys fitted on the
# fit split, both splits' errors
WO="$top_srcdir/docs/measurements/h200-issue26-wo-2026-12-04/wo.csv"
grep -v -- '-compiled-' "$WO" >"$tmp/wo-eager.csv"
{ head -n 1 "$WO"; grep -- '-compiled-' "$WO"; } >"$tmp/wo-compiled.csv"
run classify --hw h200-sxm-measured -f csv "$tmp/wo-eager.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures held-out)
check "int8 weights, eager, held out: 14 ops (9 and their 5 bf16 GEMVs), 13 of 20 us or more" test "$1 $2" = "14 13"
check "int8 weights, eager, held out: median error $3 <= 0.05" awk -v x="$3" 'BEGIN { exit !(x <= 0.05) }'
check "int8 weights, eager, held out: p90 error $4 <= 0.10" awk -v x="$4" 'BEGIN { exit !(x <= 0.10) }'
check "int8 weights, eager, held out: t_gpu_us <= 1.1 x measured on every op ($6)" test "$6" = 1.0000
run classify --hw h200-sxm-measured --runtime graph -f csv "$tmp/wo-compiled.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures fit)
check "int8 weights, compiled, fit: 7 ops, median error $3 <= 0.15" \
	awk -v n="$1" -v x="$3" 'BEGIN { exit !(n == 7 && x <= 0.15) }'
set -- $(figures held-out)
check "int8 weights, compiled, held out (8192 x 8192): error $3 <= 0.20" \
	awk -v n="$1" -v x="$3" 'BEGIN { exit !(n == 1 && x <= 0.20) }'

# issue 23's decode GEMVs (h200-issue23-gemv-2026-12-04: F.linear over nine
# models' projections, split by whole model before gemm.latency_us was
# fitted on the fit split): the held-out models' errors, the large ones and
# all of them, the small split-K ones included
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue23-gemv-2026-12-04/gemv.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures held-out)
check "GEMVs held out: 66 ops, 33 of 20 us or more" test "$1 $2" = "66 33"
check "GEMVs held out: median error $3 <= 0.05" awk -v x="$3" 'BEGIN { exit !(x <= 0.05) }'
check "GEMVs held out: p90 error $4 <= 0.10" awk -v x="$4" 'BEGIN { exit !(x <= 0.10) }'
check "GEMVs held out: expected bound = measured regime on $5 >= 0.95" awk -v x="$5" 'BEGIN { exit !(x >= 0.95) }'
all=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["split"] == "held-out" { m = $c["measured_us"]; d = ($c["expected_gpu_us"] - m) / m
	  err[k++] = d < 0 ? -d : d }
	END { for (i = 0; i < k; i++) for (j = i + 1; j < k; j++) if (err[j] < err[i]) { t = err[i]; err[i] = err[j]; err[j] = t }
	      printf "%.4f %.4f\n", (err[int((k - 1) / 2)] + err[int(k / 2)]) / 2, err[int(0.9 * (k - 1))] }' "$tmp/m.csv")
check "GEMVs held out, every size: median error ${all% *} <= 0.05" awk -v x="${all% *}" 'BEGIN { exit !(x <= 0.05) }'
check "GEMVs held out, every size: p90 error ${all#* } <= 0.15" awk -v x="${all#* }" 'BEGIN { exit !(x <= 0.15) }'

# issue 23's decode SDPA over grouped KV heads (h200-issue23-decode-attn-
# 2026-12-04: split by head layout before attention.decode_split_us was
# fitted on the fit split): Qwen2's 28/4 and Llama-3-70B's 64/8 held out
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue23-decode-attn-2026-12-04/decode-attn.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures held-out)
check "decode attention held out: 56 ops, 30 of 20 us or more" test "$1 $2" = "56 30"
check "decode attention held out: median error $3 <= 0.05" awk -v x="$3" 'BEGIN { exit !(x <= 0.05) }'
check "decode attention held out: p90 error $4 <= 0.10" awk -v x="$4" 'BEGIN { exit !(x <= 0.10) }'

# issue 24's unaligned GEMMs under F.linear and torch.mm (h200-issue24-align-
# 2026-12-04: split by N before gemm.align* were fitted on the fit split):
# N of 49155, 32002 and 6156 held out. The misses left are the small ones
# (8 and 32 rows), whose kernels the heuristic picks from a zoo.
run classify --hw h200-sxm-measured -f csv "$top_srcdir/docs/measurements/h200-issue24-align-2026-12-04/align.csv"
cp "$tmp/out" "$tmp/m.csv"
set -- $(figures held-out)
check "unaligned GEMMs held out: 48 ops, 42 of 20 us or more" test "$1 $2" = "48 42"
check "unaligned GEMMs held out: median error $3 <= 0.20" awk -v x="$3" 'BEGIN { exit !(x <= 0.20) }'
check "unaligned GEMMs held out: p90 error $4 <= 0.40" awk -v x="$4" 'BEGIN { exit !(x <= 0.40) }'
# the layout tells them apart: granite's lm_head at a prefill, 4096 x 49155
# x 4096 under F.linear, took 16538.8 us and under torch.mm 11834.0
lin=$(csv_field "$tmp/m.csv" align-linear-n49155/m4096-k4096 expected_gpu_us)
mm=$(csv_field "$tmp/m.csv" align-mm-n49155/m4096-k4096 expected_gpu_us)
check "F.linear's unaligned GEMM within 10 % of 16538.8 us ($lin)" \
	awk -v x="$lin" 'BEGIN { d = x / 16538.771 - 1; exit !(d < 0.10 && d > -0.10) }'
check "torch.mm's within 10 % of 11834.0 us ($mm)" \
	awk -v x="$mm" 'BEGIN { d = x / 11834.038 - 1; exit !(d < 0.10 && d > -0.10) }'

done_testing
