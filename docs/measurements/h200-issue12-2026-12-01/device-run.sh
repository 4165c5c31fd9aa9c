#!/bin/bash
# One device call for issue 12: calibrate with the one-tile memory kernels,
# then the PyTorch measurements of bench/expected. Prepared here as for
# issue 11 (a clone built with ./configure --with-cuda-arch=90 in
# /tmp/devbuild, bench/portable.sh .devbin/roofline, cp config.h .devbin/);
# on the GPU machine, from the source tree with .devbin beside it:
#   OUT=DIR docs/measurements/h200-issue12-2026-12-01/device-run.sh
set -u
cd "$(dirname "$0")/../../.."
B=/tmp/devbuild
mkdir -p $B/src && cp .devbin/roofline $B/ && cp .devbin/roofline-cuda.so $B/src/ && cp .devbin/config.h $B/
R=$B/roofline
export ROOFLINE_HWDB=$PWD/hwdb LC_ALL=C
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv
$R --version
start=$(date +%s)
$R calibrate --record "$OUT/bench.json" -o "$OUT/h200.device" > "$OUT/calibrate.txt" 2>&1
echo "calibrate rc $? in $(( $(date +%s) - start )) s"
$R bench --from "$OUT/bench.json" --hw "$OUT/h200.device" 2>&1 | grep -E "^(memory|l2) " 
start=$(date +%s)
python3 bench/expected/measure.py "$OUT/ops.csv" > "$OUT/measure.log" 2>&1
echo "measure rc $? in $(( $(date +%s) - start )) s: $(($(wc -l < "$OUT/ops.csv") - 1)) ops"
