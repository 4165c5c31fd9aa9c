#!/bin/sh
# cli_generate.sh - roofline model --generate N (issue 21, items 16 and 12):
# N output tokens are the prefill, which yields the first, and N - 1 decode
# steps at contexts seq to seq + N - 2 (gpt-fast's, TensorRT-LLM's and
# vLLM's benchmarks count the tokens so); past a few thousand steps the
# decode steps are integrated over blocks of contexts. The expected values
# are the steps run one by one (--phase prefill, --context C) and summed
# here.
. "$top_srcdir/tests/lib.sh"

# every run within 10 s (the goal is 5 s: a run cut off fails its check)
if command -v timeout >/dev/null 2>&1; then T="timeout 10"; else T=; fi
run() {
	$T "$ROOFLINE" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

printf '{"model_type": "llama", "hidden_size": 256, "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2, "vocab_size": 1000}\n' >"$tmp/tiny.json"
jnum() { grep -o "\"$2\":[-0-9.e+a-z]*" "$1" | head -n 1 | cut -d: -f2; }
# the summary's expected (expected_us) and roofline (total_us) step times
jsum() { grep -o '"summary":{.*' "$1" >"$tmp/sum.json"; jnum "$tmp/sum.json" "$2"; }
near() { awk -v a="$1" -v b="$2" -v tol="${3:-1e-6}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= tol * (b < 0 ? -b : b) + 0.002) }'; }

# Item 16: 64 output tokens of batch 8 after a 1024-token prompt: the
# prefill and 63 decode steps at contexts 1024 to 1086.
run model --runtime graph --generate 64 --seq 1024 --batch 8 -f json "$tmp/tiny.json"
check "16: exit 0" test "$rc" -eq 0
cp "$tmp/out" "$tmp/gen.json"
run model --runtime graph --phase prefill --seq 1024 --batch 8 -f json "$tmp/tiny.json"
pre=$(jsum "$tmp/out" expected_us) pre_r=$(jsum "$tmp/out" total_us)
: >"$tmp/steps"
c=1024
while [ $c -le 1086 ]; do
	"$ROOFLINE" model --runtime graph --context $c --batch 8 -f json "$tmp/tiny.json" >"$tmp/step.json"
	echo "$(jsum "$tmp/step.json" expected_us) $(jsum "$tmp/step.json" total_us)" >>"$tmp/steps"
	c=$((c + 1))
done
dec=$(awk '{ s += $1 } END { printf "%.6f", s }' "$tmp/steps")
dec_r=$(awk '{ s += $2 } END { printf "%.6f", s }' "$tmp/steps")
check "16: 63 decode steps summed" test "$(wc -l <"$tmp/steps")" -eq 63
tot=$(awk -v p="$pre" -v d="$dec" 'BEGIN { printf "%.6f", p + d }')
tot_r=$(awk -v p="$pre_r" -v d="$dec_r" 'BEGIN { printf "%.6f", p + d }')
check "16: prefill = --phase prefill alone" near "$(jnum "$tmp/gen.json" prefill_us)" "$pre"
check "16: total = prefill + the 63 steps ($(jnum "$tmp/gen.json" total_us), $tot)" \
	near "$(jnum "$tmp/gen.json" total_us)" "$tot"
check "16: roofline total = prefill + the 63 steps" \
	near "$(jnum "$tmp/gen.json" total_roofline_us)" "$tot_r"
check "16: per output token = the steps' mean (TPOT: (total - TTFT) / 63)" \
	near "$(jnum "$tmp/gen.json" per_token_us)" "$(awk -v d="$dec" 'BEGIN { printf "%.6f", d / 63 }')"
check "16: tokens/s = 8 x 64 / total" \
	near "$(jnum "$tmp/gen.json" tokens_per_s)" "$(awk -v t="$tot" 'BEGIN { printf "%.6f", 8 * 64 / t * 1e6 }')"
check "16: tokens/s roofline = 8 x 64 / roofline total" \
	near "$(jnum "$tmp/gen.json" tokens_per_s_roofline)" "$(awk -v t="$tot_r" 'BEGIN { printf "%.6f", 8 * 64 / t * 1e6 }')"
check "16: json: every step evaluated" test "$(jnum "$tmp/gen.json" steps_evaluated)" = 63
run model --runtime graph --generate 64 --seq 1024 --batch 8 "$tmp/tiny.json"
check "16: table: decode at contexts 1024 to 1086" \
	grep -q '^generate: batch 8, prompt 1024 tokens, 64 output tokens (decode at contexts 1024 to 1086)$' "$tmp/out"
check "16: table: no note when every step is evaluated" sh -c "! grep -q 'note:' '$tmp/out'"
# N = 1: the prefill alone; no time per output token
run model --runtime graph --generate 1 --seq 1024 --batch 8 -f json "$tmp/tiny.json"
check "16: N 1: per_token_us null" grep -q '"per_token_us":null,"per_token_roofline_us":null,' "$tmp/out"
check "16: N 1: total = the prefill" near "$(jnum "$tmp/out" total_us)" "$pre"
check "16: N 1: tokens/s = 8 / the prefill" \
	near "$(jnum "$tmp/out" tokens_per_s)" "$(awk -v t="$pre" 'BEGIN { printf "%.6f", 8 / t * 1e6 }')" 1e-5
run model --runtime graph --generate 1 --seq 1024 --batch 8 "$tmp/tiny.json"
check "16: N 1: table: no decode step" \
	grep -q '^generate: batch 8, prompt 1024 tokens, 1 output token (the prefill.s; no decode step)$' "$tmp/out"
check "16: N 1: table: per output token -" grep -Eq '^  per output token \(mean\) +- +- us$' "$tmp/out"
run model --runtime graph --generate 1 --seq 1024 --batch 8 -f md "$tmp/tiny.json"
check "16: N 1: md: per output token -" grep -q '^| per output token (mean), us | - | - |$' "$tmp/out"
# N = 2: one decode step, at the prompt's length
run model --runtime graph --generate 2 --seq 1024 --batch 8 -f json "$tmp/tiny.json"
check "16: N 2: the one decode step at context 1024" \
	near "$(jnum "$tmp/out" per_token_us)" "$(head -n 1 "$tmp/steps" | cut -d' ' -f1)"

# Item 12: the largest N. The context reaches seq + N - 2: at --seq 512,
# 16777216 tokens pass 2^24, refused at once with the value and the cap.
expect_error "12: a context past 2^24: refused, naming both" 2 \
	"^roofline: --generate 16777216 at --seq 512: the last decode step's context 16777726 passes the largest context 16777216 \\(at most --generate 16776706 at this --seq\\)$" \
	model --generate 16777216 "$tmp/tiny.json"
# at --seq 2 the last context is 2^24: integrated over blocks, in seconds
# (every step took 9 to 13 minutes); its memory (8 sequences x 2 layers x
# K and V x 2 heads x 64 x 2 bytes = 8 KiB a token, x 2^24 = 128 GiB of KV
# cache) is over an H100's 80 GiB
start=$(date +%s)
run model --hw h100-sxm --generate 16777216 --seq 2 --batch 8 "$tmp/tiny.json"
secs=$(( $(date +%s) - start ))
check "12: --generate 16777216 --seq 2: exit 0 within 5 s (took $secs s, exit $rc)" \
	test "$rc" -eq 0 -a "$secs" -le 5
check "12: contexts 2 to 16777216" grep -q '(decode at contexts 2 to 16777216)$' "$tmp/out"
check "12: the note: blocks, how many steps evaluated, the estimate" \
	grep -Eq '^  note: 16777215 decode steps, [0-9]+ of them evaluated, the others integrated over blocks of contexts \(estimated error [0-9.e-]+ %\)$' "$tmp/out"
check "12: the last step's memory over the device" \
	grep -Eq "^roofline: warning: --generate: the last decode step needs 128\\.0[0-9] GiB, over the device's 80 GiB$" "$tmp/err"
run model --hw h100-sxm --generate 16777216 --seq 2 -f json "$tmp/tiny.json"
cp "$tmp/out" "$tmp/big.json"
ev=$(jnum "$tmp/out" steps_evaluated)
check "12: json: steps_evaluated $ev of 16777215, at most 4096" test "$ev" -ge 1 -a "$ev" -le 4096
check "12: json: error_estimate under 1e-4" \
	awk -v e="$(jnum "$tmp/out" error_estimate)" 'BEGIN { exit !(e >= 0 && e < 1e-4) }'
# the blocked mean decode step lies between the first and the last step
run model --hw h100-sxm --context 2 -f json "$tmp/tiny.json"
first=$(jsum "$tmp/out" expected_us)
run model --hw h100-sxm --context 16777216 -f json "$tmp/tiny.json"
last=$(jsum "$tmp/out" expected_us)
check "12: the mean step within [first, last]" \
	awk -v m="$(jnum "$tmp/big.json" per_token_us)" -v a="$first" -v b="$last" 'BEGIN { exit !(a < m && m < b) }'
run model --hw h100-sxm --generate 16777216 --seq 2 -f md "$tmp/tiny.json"
check "12: md: the note" grep -q '^note: 16777215 decode steps, ' "$tmp/out"

# the prefill's memory too: Llama-3-70B's 130.08 GiB of bf16 weights and a
# KV cache of 64 x 4096 tokens x 80 layers x K and V x 8 heads x 128 x 2 B =
# 80 GiB pass an H200's 141 GiB at the prefill already
run model --hw h200 --generate 1 --batch 64 --seq 4096 "$EX/llama3-70b.json"
check "the prefill's memory over the device" \
	grep -Eq "^roofline: warning: --generate: the prefill needs 2[0-9][0-9]\.[0-9]+ GiB, over the device's 141 GiB$" "$tmp/err"

# with a layout (tp, dp, ep): every step is one GPU's share, as model's step
# with the same flags: 2 tokens are the prefill at --seq and one decode step
# at context --seq
L70="$EX/llama3-70b.json"
run model --hw hgx-h100-8 --tp 4 --batch 16 --seq 512 --generate 2 -f json "$L70"
cp "$tmp/out" "$tmp/g.json"
run model --hw hgx-h100-8 --tp 4 --batch 16 --seq 512 --phase prefill -f json "$L70"
pre=$(jsum "$tmp/out" expected_us)
run model --hw hgx-h100-8 --tp 4 --batch 16 --context 512 -f json "$L70"
dec=$(jsum "$tmp/out" expected_us)
# (json writes the summary's times to 6 digits)
check "--generate --tp 4: the prefill is model's ($pre us)" near "$(jnum "$tmp/g.json" prefill_us)" "$pre" 1e-5
check "--generate --tp 4: the decode step is model's ($dec us)" near "$(jnum "$tmp/g.json" per_token_us)" "$dec" 1e-5
expect_error "--generate with stages: a usage error" 2 \
	"--generate takes each GPU's whole step: not with --pp, --microbatches or --virtual-stages" \
	model --hw hgx-h100-8 --pp 2 --generate 4 "$L70"

done_testing
