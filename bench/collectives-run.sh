#!/bin/bash
# collectives-run.sh - the measurements behind docs/measurements/
# h200-collectives-*: the collectives of bench (every kind, 8 B to 4 GiB, in
# place and out of place) on all the GPUs of the machine, their report, the
# system calibration from them (refused on one GPU: busbw is undefined for
# n = 1), validate --tp 2 (refused on one GPU), and the GPU test. Run on the
# GPU machine with a binary from bench/portable.sh, its plugin beside it:
#   D=.devbin/coll16 OUT=/tmp/out bench/collectives-run.sh
# D holds roofline, roofline-cuda.so, hwdb/ and tests/ (lib.sh and
# gpu_bench_collectives.sh). SKIP_BENCH=1: everything but the full bench.
set -u
D=${D:-.devbin}
R=$D/roofline
O=${OUT:?set OUT to the directory for the results}
export ROOFLINE_CUDA_PLUGIN=$D/roofline-cuda.so
export ROOFLINE_HWDB=${ROOFLINE_HWDB:-$D/hwdb}
# NVLink multicast (NVLS) stays off: the device machines require it (KINDS.md)
export NCCL_NVLS_ENABLE=0
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
	$(python3 -c 'import nvidia.cublas, os; print(os.path.join(nvidia.cublas.__path__[0], "lib"))' 2>/dev/null); do
	[ -e "$d/libcublasLt.so.13" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} && break
done
# NCCL: the toolkit's, else the one pip's nvidia-nccl package carries
for d in /usr/local/cuda/lib64 \
	$(python3 -c 'import nvidia.nccl, os; print(os.path.join(nvidia.nccl.__path__[0], "lib"))' 2>/dev/null); do
	[ -e "$d/libnccl.so.2" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} && break
done
log=$O/log.txt
run() { echo "\$ $*" >>"$log"; "$@" >>"$log" 2>&1; echo "exit $?" >>"$log"; }
: >"$log"
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >>"$log"
run nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
run nvidia-smi topo -m
run "$R" devices
if [ -z "${SKIP_BENCH:-}" ]; then
	start=$(date +%s%N)
	run "$R" bench --only collectives -f json -o "$O/bench-collectives.json"
	echo "bench --only collectives wall time: $(( ($(date +%s%N) - start) / 1000000 )) ms" >>"$log"
	"$R" bench --from "$O/bench-collectives.json" >"$O/report.txt" 2>>"$log"
	run "$R" calibrate --from "$O/bench-collectives.json" --hw hgx-h200-8 -o "$O/calibrated.system"
fi
run "$R" validate --tp 2
# the one-line answers: no NCCL, more GPUs than the machine has
ROOFLINE_NCCL=/nonexistent/libnccl.so.2 run "$R" bench --only collectives
run "$R" bench --only collectives --gpus 2 --quick
ROOFLINE=$R top_srcdir=$D bash "$D/tests/gpu_bench_collectives.sh" >"$O/gpu_bench_collectives.tap" 2>&1
echo "gpu_bench_collectives.sh: exit $?" >>"$log"
run nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv
tail -n 40 "$log"
