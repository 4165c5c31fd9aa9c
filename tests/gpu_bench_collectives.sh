#!/bin/sh
# gpu_bench_collectives.sh - "roofline bench --only collectives --quick" on
# the GPUs of this machine: every size's result check passes, every kind is
# recorded on the GPUs asked for, the recording reads back, and the figures
# are physically possible: on one GPU an out-of-place all-reduce is a device
# copy (S read, S written), so its algbw stays below half the HBM bandwidth
# of the device's datasheet entry, and busbw is undefined; on one GPU
# calibrate refuses to make a system file and validate --tp refuses. Skipped
# where the build has no CUDA, the machine no GPU, or no NCCL is found (a
# TAP "1..0 # SKIP" plan).
. "$top_srcdir/tests/lib.sh"

if ! "$ROOFLINE" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no CUDA GPU (roofline devices failed)"
	exit 0
fi
run bench --only collectives --quick --gpus 1 -f json -o "$tmp/c.json"
if grep -q 'NCCL not found\|no NCCL support' "$tmp/err"; then
	echo "1..0 # SKIP $(head -n 1 "$tmp/err")"
	exit 0
fi
check "bench --only collectives --quick --gpus 1 exits 0 (every check passed)" test "$rc" -eq 0
check "... and names no failed check" sh -c "! grep -q FAILED '$tmp/err'"
for k in allreduce allgather reducescatter alltoall sendrecv; do
	check "the recording has $k" grep -q "\"name\": \"$k\"" "$tmp/c.json"
done
check "every entry ran on 1 rank" sh -c "! grep '\"ranks\"' '$tmp/c.json' | grep -qv '\"ranks\": 1'"
check "every entry's check passed" sh -c "! grep -q '\"check\": -1' '$tmp/c.json'"
run bench --from "$tmp/c.json"
check "bench --from reads the recording back" test "$rc" -eq 0
check "... and says busbw is undefined on one rank" grep -q 'undefined on one rank' "$tmp/out"
# the largest out-of-place all-reduce: a device copy of S on one GPU,
# bounded by half of the copy bandwidth of an H200 (4.8 TB/s, read + write)
run bench --from "$tmp/c.json" -f csv
alg=$(awk -F, '$1 == "collective" && $2 == "allreduce" && $4 == "out-of-place" { a = $12 } END { print a }' "$tmp/out")
check "a 1-rank out-of-place all-reduce moves data (algbw above 0): $alg GB/s" \
	awk -v a="$alg" 'BEGIN { exit !(a > 0) }'
check "... and below 2.64 TB/s (half an H200's 4.8 TB/s, plus 10 %)" \
	awk -v a="$alg" 'BEGIN { exit !(a < 2640) }'
expect_error "calibrate refuses a 1-GPU recording" 1 'needs 2 ranks or more' \
	calibrate --from "$tmp/c.json" --hw hgx-h200-8 -o "$tmp/s.system"
check "... and writes no file" test ! -e "$tmp/s.system"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${ngpu:-0}" -eq 1 ]; then
	expect_error "validate --tp 2 on one GPU refuses" 1 'tp needs 2 GPUs or more' validate --tp 2
fi
done_testing
