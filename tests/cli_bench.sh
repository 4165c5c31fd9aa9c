#!/bin/sh
# cli_bench.sh - bench, calibrate and validate on the H200 recordings under
# docs/measurements (no GPU needed): every figure roofline derives equals the
# one tests/bench-facts.py works out from the same samples with Python's
# statistics module and the model's formulas written out again
# (tests/data/h200-*.facts; re-derived here when python3 is present), the
# committed calibrated device is what calibrate makes of the recording, the
# measured and datasheet roofs predict what they should, and bad input gets
# one clear message, a non-zero exit and no output file.
. "$top_srcdir/tests/lib.sh"

# the bench recording behind hwdb/h200-sxm-measured.device (issue 12's one-tile
# memory kernels), and the validation recorded with the first calibration
M="$top_srcdir/docs/measurements/h200-issue12-2026-12-01"
VM="$top_srcdir/docs/measurements/h200-bench-2026-11-29"
BF="$DATA/h200-bench.facts"
VF="$DATA/h200-validate.facts"
HOST=$(cat "$DATA/h200-validate.host_us")
CAL="$top_srcdir/hwdb/h200-sxm-measured.device"

if command -v python3 >/dev/null 2>&1; then
	python3 "$top_srcdir/tests/bench-facts.py" bench "$M/bench.json" >"$tmp/bf"
	check "the bench facts are those of the committed recording" cmp -s "$tmp/bf" "$BF"
	python3 "$top_srcdir/tests/bench-facts.py" validate "$VM/validate.json" "$CAL" "$HOST" >"$tmp/vf"
	check "the validate facts are those of the committed recording" cmp -s "$tmp/vf" "$VF"
fi

# near A B: relative difference below 1e-6 (1e-4 for values written with 5 digits)
near() { awk -v a="$1" -v b="$2" -v t="${3:-1e-6}" 'BEGIN {
	d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t * m + 1e-12) }'; }

# --- bench -----------------------------------------------------------------
run bench --from "$M/bench.json" -f csv
check "bench --from: exit 0" test "$rc" -eq 0
bad=0
# csv: group,benchmark,dtype,shape,repeat,bytes,flops,samples,median_us,best_us,p90_us,gbs,tflops,...
tail -n +2 "$tmp/out" | while IFS=, read -r g name dt shape rep by fl ns med best p90 gbs tf rest; do
	want=$(awk -v g="$g" -v n="$name" -v d="${dt:--}" -v s="${shape:--}" -v r="$rep" \
		'$1 == g && $2 == n && $3 == d && $4 == s && $5 == r { print $6, $7, $8, $9; exit }' "$BF")
	set -- $want
	near "$med" "$1" && near "$best" "$2" && near "${gbs:-0}" "$3" && near "${tf:-0}" "$4" ||
		echo "$g $name $dt $shape: roofline $med $best $gbs $tf, facts $want"
done >"$tmp/mismatch"
check "every entry's median, best, GB/s and TFLOPS equal the facts ($(grep -c . "$BF") lines)" \
	test ! -s "$tmp/mismatch"
check "... which cover every entry" test "$(tail -n +2 "$tmp/out" | wc -l)" -eq \
	"$(grep -vc '^roof \|^knee ' "$BF")"
run bench --from "$M/bench.json"
for dt in fp32 bf16 fp16; do
	r=$(awk -v d="$dt" '$1 == "knee" && $2 == d { printf "%.0f", $3 }' "$BF")
	check "the $dt knee is the facts' r = $r" grep -q "measured knee: r = $r " "$tmp/out"
done
check "each knee is within one power of two of the model's" \
	test "$(grep -c 'within one power of two' "$tmp/out")" -eq 3
"$ROOFLINE" bench --from "$M/bench.json" -f json >"$tmp/again.json"
run bench --from "$tmp/again.json" -f csv
"$ROOFLINE" bench --from "$M/bench.json" -f csv >"$tmp/first.csv"
check "the json output is the recording: read back, the same csv" cmp -s "$tmp/first.csv" "$tmp/out"
run bench --from "$M/bench.json" -f sweep:bf16
check "-f sweep:bf16 writes the sweep as an op list" test "$(grep -c '^sweep-bf16-r' "$tmp/out")" -eq 11
"$ROOFLINE" bench --from "$M/bench.json" -f sweep | "$ROOFLINE" plot --sweep --hw "$CAL" -o "$tmp/sweep.svg" -
check "... which plot --sweep draws" grep -q '</svg>' "$tmp/sweep.svg"

# --- calibrate -------------------------------------------------------------
run calibrate --from "$M/bench.json" -o "$tmp/m.device"
check "calibrate --from: exit 0" test "$rc" -eq 0
grep -v '^#' "$tmp/m.device" >"$tmp/a"
grep -v '^#' "$CAL" >"$tmp/b"
check "hwdb/h200-sxm-measured.device is what calibrate makes of the recording" cmp -s "$tmp/a" "$tmp/b"
"$ROOFLINE" hw show "$tmp/m.device" -f csv >"$tmp/show"
grep '^roof ' "$BF" | while read -r _ key val; do
	got=$(awk -F, -v k="$key" '$1 == k { print $2 }' "$tmp/show")
	near "$got" "$val" 1e-4 || echo "$key: $got, facts $val"
done >"$tmp/mismatch"
check "every measured roof is the facts' median" test ! -s "$tmp/mismatch"
# h200-sxm.device gives one bandwidth: the read-only and write-only ones have
# no datasheet figure
check "... with its datasheet figure beside it, where h200-sxm has one" \
	test "$(grep -c '^datasheet\.' "$tmp/show")" -eq "$(grep -c '^roof ' "$BF" | awk '{ print $1 - 2 }')"
check "... none for mem_read_bandwidth_gbs, mem_write_bandwidth_gbs" \
	test "$(grep -c '^datasheet\.mem_[rw]' "$tmp/show")" -eq 0
for dir in read write; do
	# the median of the recording's memory '$dir' entry: 2^30 bytes / median us
	med=$(awk -v n="$dir" '$1 == "memory" && $2 == n { print $6 }' "$BF")
	got=$(awk -F, -v k="mem_${dir}_bandwidth_gbs" '$1 == k { print $2 }' "$tmp/show")
	check "mem_${dir}_bandwidth_gbs $got is the '$dir' entry's median, 2^30 B / $med us" \
		near "$got" "$(awk -v t="$med" 'BEGIN { print 1073741824 / t / 1e3 }')" 1e-4
done
check "... measured by bench's read kernel" \
	grep -q '^mem_read_bandwidth_gbs,[0-9.]*,"*measured by roofline bench 0.1.0 on 2026-12-01: memory read' "$tmp/show"
check "the datasheet figures are h200-sxm's (4800 GB/s)" grep -q '^datasheet.mem_bandwidth_gbs,4800,' "$tmp/show"
check "a source says how it was measured" \
	grep -q '^mem_bandwidth_gbs,[0-9.]*,"*measured by roofline bench 0.1.0 on 2026-12-01: memory copy' "$tmp/show"

# A 1 GiB fp32 copy reads 2^30 bytes and writes 2^30: on the calibrated file
# its time is 2^30 / read bandwidth + 2^30 / write bandwidth (the memory roof
# by access mix); with the datasheet's one bandwidth, 2^31 / 4800 GB/s.
printf 'name,kind,dtype,shape\ncp,copy,fp32,268435456\n' >"$tmp/cp.csv"
rbw=$(awk '$1 == "roof" && $2 == "mem_read_bandwidth_gbs" { printf "%.5g", $3 }' "$BF")
wbw=$(awk '$1 == "roof" && $2 == "mem_write_bandwidth_gbs" { printf "%.5g", $3 }' "$BF")
want=$(awk -v r="$rbw" -v w="$wbw" 'BEGIN { print 1073741824 / r / 1e3 + 1073741824 / w / 1e3 }')
run classify --hw "$CAL" --runtime cpp -f csv "$tmp/cp.csv"
got=$(csv_field "$tmp/out" cp t_us)
check "classify on the calibrated file: the copy reads at $rbw GB/s, writes at $wbw ($want us)" \
	near "$got" "$want" 1e-4
# bytes given: the split is unknown, so mem_bandwidth_gbs (the copy kernel's)
bw=$(awk '$1 == "roof" && $2 == "mem_bandwidth_gbs" { printf "%.5g", $3 }' "$BF")
printf 'name,kind,flops,bytes\ncu,custom,0,2147483648\n' >"$tmp/cu.csv"
run classify --hw "$CAL" --runtime cpp -f csv "$tmp/cu.csv"
check "... an op whose bytes are given at mem_bandwidth_gbs, $bw GB/s" \
	near "$(csv_field "$tmp/out" cu t_us)" "$(awk -v b="$bw" 'BEGIN { print 2147483648 / b / 1e3 }')" 1e-4
run classify --hw "$CAL" --roofs datasheet --runtime cpp -f csv "$tmp/cp.csv"
got=$(csv_field "$tmp/out" cp t_us)
check "--roofs datasheet: at 4800 GB/s" near "$got" 447.392427 1e-6
run classify --hw "$CAL" --roofs measured --runtime cpp -f csv "$tmp/cp.csv"
check "--roofs measured: the file's own" near "$(csv_field "$tmp/out" cp t_us)" "$want" 1e-4
run classify --hw h200 --roofs measured "$tmp/cp.csv"
check "--roofs on a datasheet entry: exit 1" test "$rc" -eq 1
check "... saying it has datasheet roofs only" grep -q "has datasheet roofs only" "$tmp/err"
run classify --hw h200 --roofs best "$tmp/cp.csv"
check "--roofs best: a usage error" test "$rc" -eq 2

# --- validate --------------------------------------------------------------
run validate --from "$VM/validate.json" --hw "$CAL" --host-overhead-us "$HOST" -f csv
check "validate --from: exit 0" test "$rc" -eq 0
tail -n +2 "$tmp/out" | while IFS=, read -r name kind dt shape pred meas gpu err pb mb rest; do
	[ -n "$pred" ] || continue
	want=$(awk -v n="$name" '$1 == "op" && $2 == n { print $3, $4, $5, $6 }' "$VF")
	set -- $want
	near "$pred" "$1" && near "$err" "$2" 2e-4 && [ "$pb" = "$3" ] && [ "$mb" = "$4" ] ||
		echo "$name: roofline $pred $err $pb $mb, facts $want"
done >"$tmp/mismatch"
check "every op's prediction, error and both bounds equal the facts" test ! -s "$tmp/mismatch"
run validate --from "$VM/validate.json" --hw "$CAL" --host-overhead-us "$HOST"
set -- $(awk '$1 == "summary" { printf "%.1f %.1f %.1f %.1f %.1f", 100*$2, 100*$3, 100*$4, 100*$5, 100*$6 }' "$VF")
check "the median and p90 |error| are the facts' ($1 %, $2 %)" \
	grep -q "^|error| over all measured ops: median $1 %, p90 $2 %$" "$tmp/out"
check "... over the ops of 20 us or more ($3 %, $4 %)" \
	grep -q "^|error| over the [0-9]* ops of 20 us or more: median $3 %, p90 $4 %$" "$tmp/out"
check "the bound agreement is the facts' ($5 %)" grep -q "^bound agreement: .* = $5 %$" "$tmp/out"
check "the header names the GPU and the device" \
	grep -q '^measured on NVIDIA H200 (2026-11-29.*predicted on h200-sxm-measured' "$tmp/out"
run validate --list
check "validate --list prints the built-in op list" grep -q '^mm-bf16-8k,matmul,bf16,8192x8192x8192' "$tmp/out"
"$ROOFLINE" validate --list | "$ROOFLINE" classify --hw h200 - >/dev/null
check "... which classify reads" test $? -eq 0

# --- errors ------------------------------------------------------------------
run calibrate --from "$M/bench.json"
check "calibrate without -o: a usage error" test "$rc" -eq 2
run bench --from "$tmp/none.json"
check "a missing recording: exit 1" test "$rc" -eq 1
check "... naming it" grep -q "cannot open '$tmp/none.json'" "$tmp/err"
run bench --from "$VM/validate.json"
check "a validate recording given to bench: exit 1, the format expected" \
	sh -c "test $rc -eq 1 && grep -q 'format: expected \"roofline-bench-1\"' '$tmp/err'"
sed 's/"samples_us": \[/"samples_us": [ -3,/' "$M/bench.json" >"$tmp/neg.json"
run calibrate --from "$tmp/neg.json" -o "$tmp/neg.device"
check "a negative sample: exit 1" test "$rc" -eq 1
check "... naming the entry and the sample" grep -q 'entries\[0\].samples_us\[0\]: expected a time' "$tmp/err"
check "... and no device file written" test ! -e "$tmp/neg.device"
head -c 2000 "$M/bench.json" >"$tmp/cut.json"
run bench --from "$tmp/cut.json"
check "a truncated recording: exit 1, not JSON" sh -c "test $rc -eq 1 && grep -q 'not JSON' '$tmp/err'"
run validate --from "$VM/validate.json" "$EX/bert-base.csv"
check "validate --from with an op list: a usage error" test "$rc" -eq 2
run bench --only memory,bogus
check "bench --only bogus: a usage error" test "$rc" -eq 2
run bench --from "$M/bench.json" --quick
check "bench --from --quick: a usage error" test "$rc" -eq 2
run bench --from "$M/bench.json" -f sweep:int8
check "a sweep the recording lacks: exit 1" sh -c "test $rc -eq 1 && grep -q 'no int8 sweep' '$tmp/err'"

# Without a GPU (CI), measuring says so in one line and exits 1.
if ! "$ROOFLINE" devices >/dev/null 2>&1; then
	for cmd in "bench --quick" "validate" "calibrate -o $tmp/x.device"; do
		run $cmd
		check "no GPU: '$cmd' exits 1 with one line" \
			sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/err') -eq 1"
	done
	check "... and writes no device file" test ! -e "$tmp/x.device"
fi

# a recording of one op (mul1-fp32 of the H200 run, 549 us): singular words
run validate --from "$DATA/validate-one.json" --hw "$CAL"
check "validate of one op: '1 op: 1 measured'" \
	grep -qx '1 op: 1 measured, 0 skipped, 0 failed their check' "$tmp/out"
check "... 'over the 1 op of 20 us or more'" \
	grep -q '^|error| over the 1 op of 20 us or more: ' "$tmp/out"
sed 's/"results": \[/"results": [ ], "x": [/' "$DATA/validate-one.json" >"$tmp/noresult.json"
run validate --from "$tmp/noresult.json" --hw "$CAL"
check "no result for one op: 'an array of 1 result'" \
	grep -q 'results: expected an array of 1 result, one per op' "$tmp/err"

done_testing
