#!/bin/sh
# cli_train_traces.sh - the static training step against the recorded one
# (issue 14, item 4): classify --train on each model's forward op list
# (tests/data/train-*.csv) against the training trace of the same model
# (tests/data/trace_train_*.json.gz, recorded on an H200 by
# bench/traces/record.py). The goals: backward FLOPs within 5 % of those
# counted from the trace's recorded shapes (the imported backward rows'),
# and the predicted step time (the sum of count x expected_gpu_us) within
# 25 % of the measured step's GPU time (its kernel times summed). Both sides
# are also checked against the GEMM, convolution and attention FLOPs worked
# out by hand from the architectures. bench/traces/compare-train.sh prints
# the whole comparison, per phase.
. "$top_srcdir/tests/lib.sh"

# sums FILE: FLOPs, bytes, expected GPU time and measured time per phase
# (each times count) of a classify csv, as "phase flops bytes exp meas"
sums() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		c = $h["count"]; p = $h["phase"]
		F[p] += c * $h["flops"]; B[p] += c * $h["bytes"]; E[p] += c * $h["expected_gpu_us"]
		if ($h["measured_us"] != "") M[p] += c * $h["measured_us"]
		F["all"] += c * $h["flops"]; B["all"] += c * $h["bytes"]
		E["all"] += c * $h["expected_gpu_us"]
		if ($h["measured_us"] != "") M["all"] += c * $h["measured_us"]
	}
	END { for (p in F) printf "%s %.17g %.17g %.17g %.17g\n", p, F[p], B[p], E[p], M[p] }' "$1"
}
# get SUMS PHASE FIELD (2 flops, 3 bytes, 4 expected, 5 measured)
get() { awk -v p="$2" -v f="$3" '$1 == p { print $f }' "$1"; }
# within A B TOL: |A - B| <= TOL x B
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b) }'; }
# todo DESC CMD...: a goal known to be missed: "not ok ... # TODO" while it
# fails (the TAP driver counts it as an expected failure), ok once it holds
todo() {
	desc=$1; shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc # TODO known miss (docs/trace-import.md)"; fi
}

# model: name|trace|op list|--set|training options|hand backward FLOPs|kernel time
# The hand figures: backward FLOPs are twice the GEMMs' and convolutions'
# forward FLOPs (grad-input and grad-weight), less the first layer's
# grad-input (the image needs none), plus 2.5 x attention's forward:
# - resnet18 at batch 64: conv1 2 x 64 x 64 x 112^2 x 3 x 49 =
#   15,105,785,856; layer1's four 3x3 convs 2 x 64 x 64 x 56^2 x 64 x 9 =
#   14,797,504,512 each; layer2-4 each: its stride-2 conv 7,398,752,256,
#   three 3x3 convs 14,797,504,512, the downsample 822,083,584 (together
#   52,613,349,376); fc 2 x 64 x 1000 x 512 = 65,536,000. Forward
#   232,201,388,032; backward 2 x that - 15,105,785,856 = 449,296,990,208.
# - GPT-2 with 6 layers at 8 x 512: per layer c_attn 14,495,514,624,
#   attn c_proj 4,831,838,208, c_fc and mlp c_proj 19,327,352,832 each
#   (57,982,058,496), lm_head 2 x 4096 x 50257 x 768 = 316,189,704,192:
#   GEMMs 664,082,055,168; causal attention 4 x 8 x 12 x 512^2 x 64 / 2 =
#   3,221,225,472 per layer. Backward 2 x 664,082,055,168 + 6 x 2.5 x
#   3,221,225,472 = 1,376,482,492,416.
# - ViT-B/16 at batch 32 (6304 tokens): per layer in_proj 22,309,502,976,
#   out_proj 7,436,500,992, the MLP 2 x 29,746,003,968 (89,238,011,904),
#   heads 49,152,000; conv_proj 2 x 32 x 768 x 196 x 768 = 7,398,752,256
#   (its weight gradient only); attention 4 x 32 x 12 x 197^2 x 64 =
#   3,815,079,936 per layer. Backward 2 x (12 x 89,238,011,904 + 49,152,000)
#   + 7,398,752,256 + 12 x 2.5 x 3,815,079,936 = 2,263,661,740,032.
# The kernel time: bench/traces/record.py's summary of each recording
# (summary.txt beside the traces), the kernels' time alone (the import also
# counts the memsets, a few per cent).
models="resnet18|trace_train_resnet18_b64_sgd_amp|train-resnet18.csv|B=64|--optimizer sgd --weight-decay|449296990208|5637.5
gpt2|trace_train_gpt2_l6_b8_s512_adamw_amp|train-gpt2.csv|B=8|--optimizer adamw|1376482492416|20675.6
vit|trace_train_vit_b16_b32_adamw_fused_amp|train-vit-b16.csv|B=32|--optimizer adamw --fused-optimizer|2263661740032|16254.6"

echo "$models" >"$tmp/models"
while IFS='|' read -r name trace list set opts hand kernels; do
	run import -o "$tmp/t.csv" "$DATA/$trace.json.gz"
	run classify --hw h200 -f csv "$tmp/t.csv"
	sums "$tmp/out" >"$tmp/t.sum"
	# shellcheck disable=SC2086
	run classify --train --autocast $opts --hw h200 --set "$set" -f csv "$DATA/$list"
	check "$name: classify --train reads $list" test "$rc" -eq 0
	sums "$tmp/out" >"$tmp/s.sum"
	sb=$(get "$tmp/s.sum" backward 2) tb=$(get "$tmp/t.sum" backward 2)
	echo "# $name backward FLOPs: static $sb, trace $tb, hand (GEMMs, convolutions, attention) $hand"
	check "$name: (a) static backward FLOPs within 5 % of the trace's" within "$sb" "$tb" 0.05
	check "$name: static backward FLOPs within 1 % of the hand figure" within "$sb" "$hand" 0.01
	check "$name: the trace's backward FLOPs within 1 % of the hand figure" within "$tb" "$hand" 0.01
	so=$(get "$tmp/s.sum" optimizer 3) to=$(get "$tmp/t.sum" optimizer 3)
	echo "# $name optimizer bytes: static $so, trace $to"
	check "$name: (b) optimizer bytes within 5 % of the trace's" within "$so" "$to" 0.05
	se=$(get "$tmp/s.sum" all 4) tm=$(get "$tmp/t.sum" all 5)
	check "$name: the trace's GPU time within 3 % of the recorded kernel time $kernels us" \
		within "$tm" "$kernels" 0.03
	echo "# $name step: static expected $se us, measured $tm us"
	for p in forward backward optimizer; do
		echo "# $name $p: static expected $(get "$tmp/s.sum" $p 4) us, measured $(get "$tmp/t.sum" $p 5) us"
	done
	if [ "$name" = vit ]; then
		todo "$name: (c) predicted step time within 25 % of the measured GPU time" \
			within "$se" "$tm" 0.25
	else
		check "$name: (c) predicted step time within 25 % of the measured GPU time" \
			within "$se" "$tm" 0.25
	fi
	# --impl hf (issue 23): the backward with what eager autograd launches
	# beside it (train.h, "Eager autograd"): the goals against the
	# recording's kernel time, and the rows that only it adds
	# shellcheck disable=SC2086
	run classify --train --autocast --impl hf $opts --hw h200 --set "$set" -f csv "$DATA/$list"
	check "$name: classify --train --impl hf reads $list" test "$rc" -eq 0
	sums "$tmp/out" >"$tmp/h.sum"
	hb=$(get "$tmp/h.sum" backward 2) he=$(get "$tmp/h.sum" all 4)
	echo "# $name --impl hf: backward FLOPs $hb (trace $tb), step expected $he us, kernels $kernels us"
	check "$name: --impl hf backward FLOPs within 5 % of the trace's" within "$hb" "$tb" 0.05
	check "$name: --impl hf step time within 25 % of the recorded kernel time $kernels us" \
		within "$he" "$kernels" 0.25
	check "$name: --impl hf adds bias gradients and accumulations" \
		grep -q '\.bias_grad,reduction,.*\.accumulate,pointwise' "$tmp/out" -z
done <"$tmp/models"

expect_error "--impl: an unknown implementation is a usage error naming the known ones" 2 \
	"--impl eager: no implementation of that id in .* \(expected fused, hf or compiled, or the path of a .impl file\)" \
	classify --train --impl eager "$DATA/train-gpt2.csv"
# without --train, --impl hf changes nothing (yet)
run classify --hw h200 --set B=8 -f csv "$DATA/train-gpt2.csv"
cp "$tmp/out" "$tmp/plain.csv"
run classify --impl hf --hw h200 --set B=8 -f csv "$DATA/train-gpt2.csv"
check "--impl hf without --train: the same output" cmp -s "$tmp/out" "$tmp/plain.csv"

done_testing
