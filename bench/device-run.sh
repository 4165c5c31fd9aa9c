#!/bin/bash
# device-run.sh - the measurements behind docs/measurements/h200-bench-*:
# a timed full calibration (which records the bench run), the bench report,
# the validation against the calibrated roofs and against the datasheet, and
# the SASS of the benchmark kernels. Run on the GPU machine from the source
# tree, with a binary from bench/portable.sh (and its plugin beside it):
#   ROOFLINE=.devbin/roofline OUT=/tmp/out bench/device-run.sh
set -u
R=${ROOFLINE:-./roofline}
O=${OUT:?set OUT to the directory for the results}
export ROOFLINE_HWDB=${ROOFLINE_HWDB:-$PWD/hwdb}
# The CUDA plugin: the one portable.sh wrote beside the binary, else the
# build tree's (which a build-tree binary finds by itself).
P=$(dirname "$R")/roofline-cuda.so
[ -e "$P" ] || P=$(dirname "$R")/src/roofline-cuda.so
[ -e "$P" ] && export ROOFLINE_CUDA_PLUGIN=${ROOFLINE_CUDA_PLUGIN:-$P}
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
	$(python3 -c 'import nvidia.cublas, os; print(os.path.join(nvidia.cublas.__path__[0], "lib"))' 2>/dev/null); do
	[ -e "$d/libcublasLt.so.13" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} && break
done
log=$O/log.txt
run() { echo "\$ $*" >>"$log"; "$@" >>"$log" 2>&1; echo "exit $?" >>"$log"; }
: >"$log"
run nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
run "$R" devices
# the full calibration, timed: the issue's goal is under 2 minutes
start=$(date +%s%N)
run "$R" calibrate --record "$O/bench.json" -o "$O/calibrated.device"
echo "calibrate wall time: $(( ($(date +%s%N) - start) / 1000000 )) ms" >>"$log"
run "$R" bench --from "$O/bench.json"
host=$(python3 -c "
import json,statistics
b=json.load(open('$O/bench.json'))
e=[x for x in b['entries'] if x['group']=='launch' and x['name']=='enqueue']
print('%.2f'%statistics.median(e[0]['samples_us']) if e else '')" 2>/dev/null)
run "$R" validate --hw "$O/calibrated.device" ${host:+--host-overhead-us $host} -f json -o "$O/validate.json"
run "$R" validate --from "$O/validate.json" --hw "$O/calibrated.device" ${host:+--host-overhead-us $host}
run "$R" validate --from "$O/validate.json" --hw "$O/calibrated.device" --roofs datasheet ${host:+--host-overhead-us $host}
run nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv
# the instructions each benchmark kernel's inner loop compiles to (the
# kernels are in the plugin)
if command -v cuobjdump >/dev/null && [ -e "$P" ]; then
	cuobjdump --dump-sass "$P" 2>/dev/null | awk '
		/Function :/ { if (name != "") print name, n; name = $3; delete c; n = "" }
		/ (FFMA|FMUL|DFMA|HFMA2|HMUL2|MUFU|LDG|STG)/ {
			match($0, /(FFMA|FMUL|DFMA|HFMA2|HMUL2|MUFU|LDG|STG)[.A-Z0-9]*/); op = substr($0, RSTART, RLENGTH); c[op]++
			n = ""; for (k in c) n = n " " k "=" c[k] }
		END { if (name != "") print name, n }' >"$O/sass.txt"
	cuobjdump --dump-resource-usage "$P" >>"$O/sass.txt" 2>&1
fi
tail -n 60 "$log"
