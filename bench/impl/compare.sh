#!/bin/sh
# compare.sh - roofline model --impl against the recorded steps of issue 23
# (docs/measurements/h200-issue23-2026-12-02): per recording, the kernels a
# step launches and its GPU time (the kernels' time summed), predicted
# (expected_gpu_us, kernels of json's summary) against measured (the
# profiled step's kernels and kernel time, eager-summary.txt), and the
# step's wall time against the runtime's step time (expected_us), and the
# memory fit (memory.total_bytes) against torch.cuda.max_memory_allocated
# over the step. The prefill recordings ran model(..., use_cache=False)
# (record.py's prefill_step): no cache was kept, so their predicted memory
# is the fit's less its KV cache.
#
#   bench/impl/compare.sh [ROOFLINE [IMPL [RUNTIME]]]   (from the source tree)
#
# IMPL defaults to hf, RUNTIME to the implementation's. The last lines give
# the median and the worst |error| of the GPU time, the kernels and the memory, over
# the recordings the implementation file was not read from (held out) and
# over all.
set -eu
export LC_ALL=C
R=${1:-./roofline}
IMPL=${2:-hf}
RT=${3:-}
M=${SUMMARY:-docs/measurements/h200-issue23-2026-12-02/eager-summary.txt}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-impl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# recording -> config: the examples/ config with the recording's layers
config() {
	case $1 in
	*llama3_8b_l2*) echo tests/data/impl/llama3-8b-l2.json ;;
	*llama3_70b_l2*) echo tests/data/impl/llama3-70b-l2.json ;;
	*qwen2_7b_l2*) echo tests/data/impl/qwen2-7b-l2.json ;;
	*qwen3_8b_l2*) echo tests/data/impl/qwen3-8b-l2.json ;;
	*mixtral_8x7b_l2*) echo tests/data/impl/mixtral-8x7b-l2.json ;;
	*gpt2*) echo examples/gpt2.json ;;
	*falcon_7b_l2*) echo tests/data/impl/falcon-7b-l2.json ;;
	*deepseek_v2_lite_l2*) echo tests/data/impl/deepseek-v2-lite-l2.json ;;
	*deepseek_v3_l2*) echo tests/data/impl/deepseek-v3-l2.json ;;
	*gpt_oss_20b_l2*) echo tests/data/impl/gpt-oss-20b-l2.json ;;
	*phi3_mini_l2*) echo tests/data/impl/phi3-mini-l2.json ;;
	*gemma2_9b_l2*) echo tests/data/impl/gemma2-9b-l2.json ;;
	*gemma3_1b_l2*) echo tests/data/impl/gemma3-1b-l2.json ;;
	*olmo2_7b_l2*) echo tests/data/impl/olmo2-7b-l2.json ;;
	*granite3_8b_l2*) echo tests/data/impl/granite3-8b-l2.json ;;
	*qwen15_moe_l2*) echo tests/data/impl/qwen1.5-moe-a2.7b-l2.json ;;
	*qwen3_30b_a3b_l2*) echo tests/data/impl/qwen3-30b-a3b-l2.json ;;
	esac
}
# the recordings the hf file was read from (its trace key)
# and issue 24's (docs/measurements/h200-issue24-traces-2026-12-03)
fit="hf_llama3_8b_l2_decode_b16_c1024_bf16 llama3_8b_l2_prefill_b1_s512_bf16 mixtral_8x7b_l2_decode_b1_c512_bf16
hf_falcon_7b_l2_decode_b8_c2048_bf16 hf_falcon_7b_l2_prefill_b1_s2048_bf16
hf_deepseek_v2_lite_l2_decode_b8_c4096_bf16 hf_deepseek_v2_lite_l2_prefill_b1_s2048_bf16
hf_gpt_oss_20b_l2_decode_b8_c4096_bf16 hf_gpt_oss_20b_l2_prefill_b1_s2048_bf16
hf_deepseek_v3_l2_decode_b8_c2048_bf16 hf_deepseek_v3_l2_prefill_b1_s1024_bf16"

printf '%-42s %6s %6s %6s %9s %9s %6s %9s %9s %6s %7s %7s %6s %s\n' recording k_pred k_meas \
	k_err gpu_pred gpu_meas gpu_err step_pred wall_meas step_err mem_gib meas_gib mem_err split
grep -v '^#' "$M" | grep -v decode4 | while IFS='	' read -r name k kt span wall peak desc; do
	cfg=$(config "$name")
	b=$(echo "$name" | sed 's/.*_b\([0-9]*\)_.*/\1/')
	n=$(echo "$name" | sed 's/.*_[cs]\([0-9]*\)_bf16/\1/')
	case $name in
	*prefill*) args="--phase prefill --batch $b --seq $n" ;;
	*) args="--phase decode --batch $b --context $n" ;;
	esac
	rt=${RT:+--runtime $RT}
	# shellcheck disable=SC2086
	"$R" model --hw h200 --impl "$IMPL" $rt $args -f json "$cfg" >"$tmp/j" 2>"$tmp/e" || {
		echo "$name: $(cat "$tmp/e")"; continue; }
	kp=$(python3 -c "import json,sys; print(json.load(sys.stdin)[\"summary\"][\"kernels\"])" <"$tmp/j")
	gp=$(python3 -c "import json,sys; print(json.load(sys.stdin)[\"summary\"][\"expected_gpu_us\"])" <"$tmp/j")
	sp=$(python3 -c "import json,sys; print(json.load(sys.stdin)[\"summary\"][\"expected_us\"])" <"$tmp/j")
	case $name in
	*prefill*) mem='m["total_bytes"] - m["kv_bytes"]' ;;
	*) mem='m["total_bytes"]' ;;
	esac
	mp=$(python3 -c "import json,sys; m = json.load(sys.stdin)[\"summary\"][\"memory\"]; print($mem)" <"$tmp/j")
	split=held-out
	for f in $fit; do [ "$f" = "$name" ] && split=fit; done
	echo "$name ${k% kernels} ${kt% us kernel time} ${wall% us step*} $kp $gp $sp ${peak% B peak*} $mp $split"
done >"$tmp/rows"
awk '{
	km = $2; gm = $3; wm = $4; kp = $5; gp = $6; sp = $7; mm = $8; mp = $9
	ke = (kp - km) / km; ge = (gp - gm) / gm; se = (sp - wm) / wm; me = (mp - mm) / mm
	printf "%-42s %6.0f %6d %+5.1f%% %9.1f %9.1f %+5.1f%% %9.1f %9.1f %+5.1f%% %7.3f %7.3f %+5.1f%% %s\n", $1, kp, km, 100 * ke, gp, gm, 100 * ge, sp, wm, 100 * se, mp / 2^30, mm / 2^30, 100 * me, $10
	n++; K[n] = ke < 0 ? -ke : ke; G[n] = ge < 0 ? -ge : ge; S[n] = se < 0 ? -se : se; M[n] = me < 0 ? -me : me; H[n] = ($10 == "held-out")
}
function stats(A, held,   i, m, v, w, x) {
	m = 0
	for (i = 1; i <= n; i++) if (!held || H[i]) v[++m] = A[i]
	for (i = 1; i <= m; i++) for (w = i + 1; w <= m; w++) if (v[w] < v[i]) { x = v[i]; v[i] = v[w]; v[w] = x }
	if (m == 0) return "-"
	return sprintf("median %.1f %%, worst %.1f %% (%d)", 100 * (m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2), 100 * v[m], m)
}
END {
	print "held out: kernels " stats(K, 1) "; GPU time " stats(G, 1) "; step " stats(S, 1) "; memory " stats(M, 1)
	print "all:      kernels " stats(K, 0) "; GPU time " stats(G, 0) "; step " stats(S, 0) "; memory " stats(M, 0)
}' "$tmp/rows"
