#!/bin/bash
# The last device call of issue 12: the GPU tests against the portable binary
# and plugin with the one-tile memory kernels, those kernels under
# compute-sanitizer, and classify's speed on 1,000,000 ops on a quiet machine.
# Prepared as device-run.sh says; on the GPU machine:
#   OUT=DIR docs/measurements/h200-issue12-2026-12-01/device-run-final.sh
set -u
cd "$(dirname "$0")/../../.."
B=/tmp/devbuild
mkdir -p $B/src && cp .devbin/roofline $B/ && cp .devbin/roofline-cuda.so $B/src/ && cp .devbin/config.h $B/
export ROOFLINE=$B/roofline ROOFLINE_HWDB=$PWD/hwdb top_srcdir=$PWD LC_ALL=C
unset ROOFLINE_CUDA_PLUGIN
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
for t in gpu_probe gpu_bench cli_cuda; do
	start=$(date +%s)
	bash tests/$t.sh >"$OUT/$t.tap" 2>&1
	echo "$t: rc $? in $(( $(date +%s) - start )) s: $(grep -c '^ok' "$OUT/$t.tap") ok, $(grep -c '^not ok' "$OUT/$t.tap") not ok"
	grep -A3 '^not ok' "$OUT/$t.tap" | head -12
done
if command -v compute-sanitizer >/dev/null; then
	timeout 300 compute-sanitizer --tool memcheck --print-limit 20 $ROOFLINE bench --only memory --quick >$OUT/memcheck-memory.txt 2>&1
	echo "memcheck bench --only memory --quick: rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck-memory.txt)"
fi
# classify on 1,000,000 ops (the list of bench/bench-classify.sh), 3 runs each
awk 'BEGIN { n = 1000000
	print "name,kind,dtype,shape,kernel,stride,padding,causal,inputs,flops_per_element,flops,bytes,count,measured_us"
	for (i = 0; i < n; i++) { k = i % 8
		if (k == 0) printf "layer%d.q_proj,matmul,bf16,4096x4096x4096,,,,,,,,,12,\n", i
		else if (k == 1) printf "layer%d.attn,attention,bf16,8x32x2048x128,,,,1,,,,,12,\n", i
		else if (k == 2) printf "layer%d.gelu,pointwise,bf16,8192x11008,,,,,1,14,,,12,35.5\n", i
		else if (k == 3) printf "layer%d.add,pointwise,fp32,8192x4096,,,,,2,,,,12,\n", i
		else if (k == 4) printf "layer%d.norm,layernorm,bf16,8192x4096,,,,,,,,,24,\n", i
		else if (k == 5) printf "layer%d.softmax,softmax,fp16,64x2048x2048,,,,,,,,,1,\n", i
		else if (k == 6) printf "conv%d,conv2d,bf16,64x256x56x56,256x3x3,1,1,,,,,,1,\n", i
		else printf "custom%d,custom,fp32,,,,,,,,1e9,4e8,1,\n", i } }' >/tmp/ops1m.csv
for f in table csv json; do
	for r in 1 2 3; do
		/usr/bin/time -f "classify -f $f: %e s wall, %U + %S s CPU, %M KB" $ROOFLINE classify -f $f -o /tmp/o.out /tmp/ops1m.csv 2>&1 | tail -n 1
	done
done | tee "$OUT/speed.txt"
