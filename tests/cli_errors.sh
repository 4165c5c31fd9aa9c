#!/bin/sh
# cli_errors.sh - bad input: one clear message with file and line on stderr,
# exit 1 (2 for usage errors), nothing on stdout, no half-written file.
. "$top_srcdir/tests/lib.sh"

w() { printf "$2" >"$tmp/$1"; }

w empty.csv ''
expect_error "empty file" 1 "empty.csv: no header" classify "$tmp/empty.csv"
w noname.csv 'kind,dtype\ncopy,fp32\n'
expect_error "no name column" 1 "noname.csv:1: header: no 'name' column" classify "$tmp/noname.csv"
w dup.csv 'name,kind,NAME\na,copy,b\n'
expect_error "duplicate column" 1 "dup.csv:1: header: duplicate column 'NAME'" classify "$tmp/dup.csv"
w dtype.csv 'name,kind,dtype,shape\n# a comment\nx,pointwise,fp9,8\n'
expect_error "unknown dtype" 1 \
	"^roofline: .*dtype.csv:3: column 'dtype': unknown dtype 'fp9' \(expected one of fp64" \
	classify "$tmp/dtype.csv"
w kind.csv 'name,kind,shape\nx,gemm,8\n'
expect_error "unknown kind" 1 "kind.csv:2: column 'kind': unknown kind 'gemm'" classify "$tmp/kind.csv"
w nan.csv 'name,kind,flops,bytes\nx,custom,nan,1\n'
expect_error "NaN" 1 "nan.csv:2: column 'flops'" classify "$tmp/nan.csv"
w neg.csv 'name,kind,flops,bytes\nx,custom,1,-8\n'
expect_error "negative" 1 "neg.csv:2: column 'bytes': '-8' is negative" classify "$tmp/neg.csv"
w dims.csv 'name,kind,shape\nmm,matmul,64x64\n'
expect_error "wrong number of dims" 1 "dims.csv:2: shape: matmul expects MxNxK" classify "$tmp/dims.csv"
w zero.csv 'name,kind,shape\nx,copy,0x4\n'
expect_error "zero dim" 1 "zero.csv:2: column 'shape'.*zero dimension" classify "$tmp/zero.csv"
w ovf.csv 'name,kind,shape\nx,copy,4294967296x4294967296\n'
expect_error "overflowing sizes" 1 "ovf.csv:2: .*2\^64" classify "$tmp/ovf.csv"
w custom.csv 'name,kind,bytes\nx,custom,100\n'
expect_error "custom without flops" 1 "custom.csv:2: a custom op needs both" classify "$tmp/custom.csv"
w ragged.csv 'name,kind,shape\nx,copy\n'
expect_error "ragged row" 1 "ragged.csv:2: 2 fields, but the header has 3" classify "$tmp/ragged.csv"
w quote.csv 'name,kind,shape\n"x,copy,4\n'
expect_error "unterminated quote" 1 "quote.csv:2: unterminated quoted field" classify "$tmp/quote.csv"
head -c 4096 /dev/urandom >"$tmp/garbage.bin" 2>/dev/null || dd if=/dev/urandom of="$tmp/garbage.bin" bs=4096 count=1 2>/dev/null
printf '\0' >>"$tmp/garbage.bin"
expect_error "binary garbage" 1 "garbage.bin:[0-9]+: " classify "$tmp/garbage.bin"
awk 'BEGIN { printf "name,kind,shape\n"; for (i = 0; i < 1100000; i++) printf "a"; printf "\n" }' >"$tmp/huge.csv"
expect_error "huge line" 1 "huge.csv:2: line longer than" classify "$tmp/huge.csv"
expect_error "missing file" 1 "cannot open '$tmp/nope.csv'" classify "$tmp/nope.csv"

# up to 20 errors, then a count of the rest
{ printf 'name,kind,shape\n'; i=0; while [ $i -lt 30 ]; do printf 'b%d,copy,x\n' $i; i=$((i + 1)); done; } >"$tmp/many.csv"
run classify "$tmp/many.csv"
check "20 errors shown" test "$(grep -c 'many.csv:[0-9]*: column' "$tmp/err")" -eq 20
check "the rest counted" grep -q "10 more errors not shown" "$tmp/err"
{ printf 'name,kind,shape\n'; i=0; while [ $i -lt 21 ]; do printf 'b%d,copy,x\n' $i; i=$((i + 1)); done; } >"$tmp/many21.csv"
run classify "$tmp/many21.csv"
check "21 errors: '1 more error not shown'" grep -qx "roofline: 1 more error not shown" "$tmp/err"

# a bad row after good ones: no partial output, on stdout or in -o FILE
{ cat "$EX/bert-base.csv"; printf 'late,copy,fp32,x\n'; } >"$tmp/late.csv"
expect_error "late error: nothing on stdout" 1 "late.csv:[0-9]+: " classify "$tmp/late.csv"
run classify -o "$tmp/late.out" "$tmp/late.csv"
check "late error: no output file" test ! -e "$tmp/late.out"
check "late error: no temporary file left" test "$(ls "$tmp" | grep -c 'late.out')" -eq 0
echo keep >"$tmp/keep.out"
run classify -o "$tmp/keep.out" "$tmp/late.csv"
check "late error: an existing file is untouched" test "$(cat "$tmp/keep.out")" = keep

# issue 11, bugs 6, 9 and 11: what -o may replace, and how
printf 'name,kind,shape\nx,copy,4\n' >"$tmp/one.csv"
# a fifo is written in place, not replaced by a regular file
mkfifo "$tmp/fifo"
timeout 10 cat "$tmp/fifo" >"$tmp/fifo.got" &
reader=$!
run classify -f csv -o "$tmp/fifo" "$tmp/one.csv"
wait $reader
check "-o fifo: exit 0" test "$rc" -eq 0
check "-o fifo: still a fifo" test -p "$tmp/fifo"
check "-o fifo: the reader got the csv" grep -q '^x,copy,' "$tmp/fifo.got"
# a character device of our own (root only: mknod), the same node as /dev/null
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	run classify -o "$tmp/null" "$tmp/one.csv"
	check "-o char device: exit 0" test "$rc" -eq 0
	check "-o char device: still a character device" test -c "$tmp/null"
fi
# /dev/full: the write error is reported (and the node is untouched)
if [ -c /dev/full ]; then
	run classify -o /dev/full "$tmp/one.csv"
	check "-o /dev/full: exit 1" test "$rc" -eq 1
	check "-o /dev/full: says why" grep -q "cannot write '/dev/full': No space left" "$tmp/err"
	check "-o /dev/full: still a character device" test -c /dev/full
fi
# /dev/stdout into a pipe: in place
"$ROOFLINE" classify -f csv -o /dev/stdout "$tmp/one.csv" 2>"$tmp/err" | cat >"$tmp/stdout.got"
check "-o /dev/stdout into a pipe" grep -q '^x,copy,' "$tmp/stdout.got"
check "-o /dev/stdout: still a link" test -L /dev/stdout
# a read-only file is refused and left alone
echo old >"$tmp/ro.out"
chmod 444 "$tmp/ro.out"
run classify -o "$tmp/ro.out" "$tmp/one.csv"
check "-o read-only: exit 1" test "$rc" -eq 1
check "-o read-only: not writable" grep -q "ro.out: not writable (mode 0444)" "$tmp/err"
check "-o read-only: untouched" test "$(cat "$tmp/ro.out")" = old
check "-o read-only: mode kept" test "$(stat -c %a "$tmp/ro.out")" = 444
# a replaced file keeps its mode
echo old >"$tmp/mode.out"
chmod 640 "$tmp/mode.out"
run classify -o "$tmp/mode.out" "$tmp/one.csv"
check "-o over mode 640: replaced" grep -q copy "$tmp/mode.out"
check "-o over mode 640: mode kept" test "$(stat -c %a "$tmp/mode.out")" = 640
# a symbolic link is followed: its target is replaced, the link stays
mkdir "$tmp/real"
echo old >"$tmp/real/target.out"
ln -s real/target.out "$tmp/link.out"
run classify -o "$tmp/link.out" "$tmp/one.csv"
check "-o symlink: still a link" test -L "$tmp/link.out"
check "-o symlink: the target was written" grep -q copy "$tmp/real/target.out"
check "-o symlink: no temporary file left" test "$(ls "$tmp" "$tmp/real" | grep -c '[.]tmp[.]')" -eq 0
ln -s nowhere/x.out "$tmp/dangling.out"
run classify -o "$tmp/dangling.out" "$tmp/one.csv"
check "-o dangling symlink: refused" grep -q "dangling.out': a symbolic link to a missing file" "$tmp/err"
# a signal while the output is pending removes the temporary file (a
# background job of a script starts with SIGINT ignored: env gives it back)
if env --default-signal=INT true 2>/dev/null; then
	sigs="INT TERM" dflt="env --default-signal=INT"
else
	sigs=TERM dflt=
fi
for sig in $sigs; do
	mkfifo "$tmp/in.$sig"
	$dflt "$ROOFLINE" classify -o "$tmp/sig.$sig.out" "$tmp/in.$sig" 2>/dev/null &
	pid=$!
	exec 7>"$tmp/in.$sig" # the op list stays open: classify waits for more
	printf 'name,kind,shape\nx,copy,4\n' >&7
	i=0
	while [ $i -lt 100 ] && ! ls "$tmp" | grep -q "sig.$sig.out.tmp"; do sleep 0.05; i=$((i + 1)); done
	check "SIG$sig: the temporary file existed" sh -c "ls '$tmp' | grep -q 'sig.$sig.out.tmp'"
	kill -$sig $pid
	wait $pid
	st=$?
	exec 7>&-
	case $sig in INT) num=2 ;; *) num=15 ;; esac
	check "SIG$sig: killed by the signal" test "$st" -eq $((128 + num))
	check "SIG$sig: no temporary file left" test "$(ls "$tmp" | grep -c "sig.$sig.out")" -eq 0
done

# devices, runtimes and the database
expect_error "unknown device lists close ids" 1 "unknown device 'h300'.*closest: .*h[12]00" \
	classify --hw h300 "$EX/bert-base.csv"
expect_error "unknown runtime" 1 "unknown runtime 'jax'" classify --runtime jax "$EX/bert-base.csv"
expect_error "missing database" 1 "cannot open device database '$tmp/nodb'" \
	classify --hwdb "$tmp/nodb" "$EX/bert-base.csv"
mkdir "$tmp/db" && cp "$top_srcdir/hwdb/eager.runtime" "$DATA/bad-hwdb/broken.device" "$tmp/db/"
expect_error "broken device file" 1 "broken.device:[0-9]+: key 'sm_count': a number needs its source" \
	classify --hwdb "$tmp/db" "$EX/bert-base.csv"

# issue 11, bugs 4 and 12: numbers that would wrap or overflow a total
w inputs.csv 'name,kind,shape,inputs\nx,pointwise,4,18446744073709551615\n'
expect_error "inputs 2^64-1" 1 "inputs.csv:2: column 'inputs': 18446744073709551615 is above the maximum 65536" \
	classify "$tmp/inputs.csv"
w huge-flops.csv 'name,kind,flops,bytes,count\nx,custom,1e308,1,9007199254740992\n'
expect_error "flops 1e308" 1 "huge-flops.csv:2: column 'flops': 1e308 is above the maximum 1e\+30" \
	classify "$tmp/huge-flops.csv"
w count.csv 'name,kind,shape,count\nx,copy,4,18446744073709551615\n'
expect_error "count 2^64-1" 1 "count.csv:2: column 'count': .* above the maximum 9007199254740992" \
	classify "$tmp/count.csv"
w tiny.csv 'name,kind,shape,measured_us\nx,copy,4,1e-300\n'
expect_error "measured_us 1e-300" 1 "tiny.csv:2: column 'measured_us': 1e-300 is below the minimum" \
	classify "$tmp/tiny.csv"
w pad.csv 'name,kind,shape,kernel,padding\nc,conv2d,1x3x8x8,4x3x3,4611686018427387904\n'
expect_error "conv2d padding 2^62" 1 "pad.csv:2: conv2d: the padded input overflows" classify "$tmp/pad.csv"
# the largest accepted op still gives finite totals and shares
w big.csv 'name,kind,flops,bytes,count\nx,custom,1e30,1e30,9007199254740992\ny,custom,1,1,1\n'
run classify "$tmp/big.csv"
check "largest op: exit 0" test "$rc" -eq 0
check "largest op: no inf or nan" sh -c "! grep -Eiq 'inf|nan' '$tmp/out'"
for v in 1e308 1e-300; do
	sed "s/^mem_bandwidth_gbs .*/mem_bandwidth_gbs = $v ; made up/" "$top_srcdir/hwdb/a100-sxm4-40gb.device" >"$tmp/bw.device"
	expect_error "device bandwidth $v" 1 "bw.device:[0-9]+: key 'mem_bandwidth_gbs': .* is outside the sensible range" \
		classify --hw "$tmp/bw.device" "$EX/bert-base.csv"
done

# usage errors exit 2
expect_error "no command" 2 "no command given" 
expect_error "unknown command" 2 "unknown command 'clasify'" clasify
expect_error "unknown option" 2 "unknown option '--bogus'" classify --bogus x.csv
expect_error "missing op list" 2 "no op list given" classify
expect_error "two op lists" 2 "more than one op list" classify a.csv b.csv
expect_error "bad format" 2 "unknown format 'xml'" classify -f xml "$EX/bert-base.csv"
expect_error "option without value" 2 "needs a value" classify "$EX/bert-base.csv" --hw
expect_error "bad overhead" 2 "host-overhead-us" classify --host-overhead-us -3 "$EX/bert-base.csv"
expect_error "hw without action" 2 "no action given" hw
expect_error "hw show without id" 2 "takes one device" hw show

done_testing
