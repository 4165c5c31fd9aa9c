#!/bin/bash
# one device call: the GPU tests against the portable binary and its plugin,
# laid out as the build tree they were linked in (/tmp/devbuild), so that the
# binary finds the plugin as "make" left it. Prepared here, in a clone built
# with ./configure --with-cuda-arch=90 in /tmp/devbuild:
#   bench/portable.sh .devbin/roofline && cp config.h .devbin/
# then, on the GPU machine, from the source tree with .devbin beside it:
#   OUT=DIR docs/measurements/h200-issue11-2026-12-01/device-run-issue11.sh
set -u
cd "$(dirname "$0")/../../.."
B=/tmp/devbuild
mkdir -p $B/src && cp .devbin/roofline $B/ && cp .devbin/roofline-cuda.so $B/src/ && cp .devbin/config.h $B/
export ROOFLINE=$B/roofline ROOFLINE_HWDB=$PWD/hwdb top_srcdir=$PWD LC_ALL=C
unset ROOFLINE_CUDA_PLUGIN
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv
$ROOFLINE --version
$ROOFLINE devices
for t in gpu_probe gpu_bench cli_cuda; do
	start=$(date +%s)
	bash tests/$t.sh >"$OUT/$t.tap" 2>&1
	echo "$t: rc $? in $(( $(date +%s) - start )) s: $(grep -c '^ok' "$OUT/$t.tap") ok, $(grep -c '^not ok' "$OUT/$t.tap") not ok"
	grep -A3 '^not ok' "$OUT/$t.tap" | head -12
done
# a validate on the calibrated H200 file and the datasheet, for the record
$ROOFLINE validate --hw hwdb/h200-sxm-measured.device --host-overhead-us 4.21 -f json -o "$OUT/validate.json" 2>"$OUT/validate.err"; echo "validate rc $?"
$ROOFLINE validate --from "$OUT/validate.json" --hw hwdb/h200-sxm-measured.device --host-overhead-us 4.21 | tail -n 14
# the GPU-free path on a machine with CUDA and a GPU: --version and classify
{
	for i in $(seq 50); do /usr/bin/time -f "%e %M" -a -o $OUT/v.txt $ROOFLINE --version >/dev/null; done
	sort -n $OUT/v.txt | awk '{ t[NR] = $1; m = $2 > m ? $2 : m } END { printf "--version: median %.2f ms, peak RSS %.1f MB (50 runs)\n", t[int((NR + 1) / 2)] * 1000, m / 1000 }'
	/usr/bin/time -f "classify llama2-7b-decode: %e s, peak RSS %M KB" $ROOFLINE classify --hw h200-sxm examples/llama2-7b-decode.csv >/dev/null 2>$OUT/c.err; tail -n 1 $OUT/c.err
	/usr/bin/time -f "devices (loads the plugin): %e s, peak RSS %M KB" $ROOFLINE devices >/dev/null 2>$OUT/d.err; tail -n 1 $OUT/d.err
} | tee "$OUT/startup.txt"
# the moved kernels under compute-sanitizer: validate on odd sizes of every kind
if command -v compute-sanitizer >/dev/null; then
	timeout 300 compute-sanitizer --tool memcheck --print-limit 20 $ROOFLINE validate --hw hwdb/h200-sxm-measured.device tests/data/validate-small.csv >$OUT/memcheck.txt 2>&1
	echo "memcheck validate rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck.txt)"
fi
