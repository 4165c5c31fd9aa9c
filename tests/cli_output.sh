#!/bin/sh
# cli_output.sh - where the outputs go (issue 21: items 1 to 5 and 11): a
# descriptor written as the shell opened it, a closed standard output, an
# output that is an input or another output, every terminating signal and
# the file size limit, outputs committed together. Each case: the exit
# status, one message, the files byte for byte, no temporary file left.
. "$top_srcdir/tests/lib.sh"

BERT="$DATA/trace_bert_base_fwd_b32_s128_bf16.json.gz"
LLAMA="$EX/llama3-8b.json"
cd "$tmp" || exit 99
printf 'name,kind,shape\nx,copy,4\n' >one.csv
printf 'old line 1\nold line 2\n' >old.txt

# no_temporaries DESC: nothing named *.tmp.* in the scratch directory
no_temporaries() {
	check "$1: no temporary file left" test "$(ls -a "$tmp" | grep -c '[.]tmp[.]')" -eq 0
}
# one_error DESC STATUS PATTERN ARGS...: as expect_error, and the message is
# the only line on stderr
one_error() {
	expect_error "$@"
	check "$1: one line on stderr" test "$(wc -l <"$tmp/err")" -eq 1
}

# The csv of one.csv, as classify writes it to a pipe (the reference the
# descriptor cases are compared with).
"$ROOFLINE" classify -f csv one.csv 2>/dev/null | cat >ref.csv
check "the reference csv" test "$(wc -l <ref.csv)" -eq 2

# --- 1. a descriptor is written as the shell opened it ----------------------
cp old.txt log
"$ROOFLINE" classify -f csv -o /dev/stdout one.csv >>log 2>err.txt
check "-o /dev/stdout >>log: exit 0" test $? -eq 0
cat old.txt ref.csv >want
check "-o /dev/stdout >>log: appended to what was there" cmp -s want log
cp old.txt log
"$ROOFLINE" classify -f csv -o /dev/stderr one.csv 2>>log
check "-o /dev/stderr 2>>log: appended to what was there" cmp -s want log
cp old.txt log
"$ROOFLINE" classify -f csv -o /dev/fd/3 one.csv 3>>log
check "-o /dev/fd/3 3>>log: appended" cmp -s want log
cp old.txt log
"$ROOFLINE" classify -f csv -o /proc/self/fd/1 one.csv >>log
check "-o /proc/self/fd/1 >>log: appended" cmp -s want log
cp old.txt log
"$ROOFLINE" model "$LLAMA" -f oplist -o /dev/stdout >>log 2>/dev/null
"$ROOFLINE" model "$LLAMA" -f oplist 2>/dev/null | cat old.txt - >want.model
check "model -f oplist -o /dev/stdout >>log: appended" cmp -s want.model log
cp old.txt log
"$ROOFLINE" import -o /dev/stdout "$BERT" >>log 2>/dev/null
"$ROOFLINE" import "$BERT" 2>/dev/null | cat old.txt - >want.import
check "import -o /dev/stdout >>log: appended" cmp -s want.import log
# > truncates (the shell did): the csv alone
cp old.txt log
"$ROOFLINE" classify -f csv -o /dev/stdout one.csv >log
check "-o /dev/stdout >log: the csv alone" cmp -s ref.csv log
# 1<> opens without truncating, at offset 0: the csv over the start, the
# rest of what was there after it
awk 'BEGIN { for (i = 0; i < 100; i++) printf "%063d\n", i }' >long.txt
cp long.txt log
"$ROOFLINE" classify -f csv -o /dev/stdout one.csv 1<>log
len=$(wc -c <ref.csv)
{ cat ref.csv; tail -c +$((len + 1)) long.txt; } >want
check "-o /dev/stdout 1<>log: written at the offset, nothing truncated" cmp -s want log
no_temporaries "descriptors"

# --- 2. a closed standard output ------------------------------------------
for c in "classify one.csv" "classify --svg chart.svg one.csv" "model $LLAMA" \
	"model $LLAMA --max-batch" "model $LLAMA --generate 4" "import $BERT" \
	"report $BERT" "plot one.csv" "classify -o /dev/stdout one.csv" "hw list" \
	"hw show h100-sxm" "kinds" "kinds -f json" "--help" "classify --help"; do
	# shellcheck disable=SC2086
	timeout 5 "$ROOFLINE" $c >&- 2>err.txt
	rc=$?
	check "$c >&-: exit 1" test "$rc" -eq 1
	check "$c >&-: 'standard output is closed'" \
		test "$(grep -v 'warning' err.txt)" = "roofline: standard output is closed" -o \
		"$(grep -v 'warning' err.txt)" = "roofline: -o '/dev/stdout': standard output is closed"
done
check "a closed standard output: no file made" test ! -e chart.svg
no_temporaries "closed standard output"
# standard output that cannot take the bytes: one message, exit 1
if [ -c /dev/full ]; then
	for c in "hw show h100-sxm" "classify one.csv" "--help"; do
		# shellcheck disable=SC2086
		"$ROOFLINE" $c >/dev/full 2>err.txt
		rc=$?
		check "$c >/dev/full: exit 1" test "$rc" -eq 1
		check "$c >/dev/full: one message" test "$(grep -v warning err.txt)" = \
			"roofline: cannot write standard output: No space left on device"
	done
fi
# -o FILE does not need standard output
"$ROOFLINE" classify -f csv -o file.csv one.csv >&- 2>err.txt
check "-o FILE >&-: exit 0" test $? -eq 0
check "-o FILE >&-: the csv" cmp -s ref.csv file.csv
"$ROOFLINE" classify -f csv one.csv 2>&- | cat >stderr-closed.csv
check "a closed standard error: the csv still written" cmp -s ref.csv stderr-closed.csv

# --- 3. an output that is an input ----------------------------------------
cat "$BERT" >t.json.gz # writable, though the source tree may not be (distcheck)
cp t.json.gz t.orig
one_error "import t.json.gz -o t.json.gz" 2 \
	"^roofline: -o 't.json.gz' is also an input \(the trace 't.json.gz'\): write the output elsewhere$" \
	import t.json.gz -o t.json.gz
check "import -o its trace: the trace untouched" cmp -s t.orig t.json.gz
cp one.csv ops.csv
one_error "classify ops.csv -o ops.csv" 2 "^roofline: -o 'ops.csv' is also an input \(the op list 'ops.csv'\)" \
	classify ops.csv -o ops.csv
check "classify -o its op list: untouched" cmp -s one.csv ops.csv
one_error "classify -o ./ops.csv" 2 "is also an input \(the op list 'ops.csv', the same file\)" \
	classify ops.csv -o ./ops.csv
ln -s ops.csv ops-link.csv
ln ops.csv ops-hard.csv
one_error "classify -o a symbolic link to the op list" 2 "the same file" \
	classify ops.csv -o ops-link.csv
one_error "classify -o a hard link to the op list" 2 "the same file" \
	classify ops.csv -o ops-hard.csv
one_error "classify --svg the op list" 2 "^roofline: --svg 'ops.csv' is also an input" \
	classify ops.csv --svg ops.csv
one_error "plot -o its op list" 2 "is also an input \(the op list" plot ops.csv -o ops.csv
one_error "report -o its trace" 2 "is also an input \(the trace" report t.json.gz -o t.json.gz
cat "$LLAMA" >cfg.json
one_error "model -o its config" 2 "is also an input \(the config 'cfg.json'\)" \
	model cfg.json -f oplist -o cfg.json
check "model -o its config: untouched" cmp -s "$LLAMA" cfg.json
cat "$top_srcdir/hwdb/h100-sxm.device" >dev.device
one_error "classify -o its --hw file" 2 "is also an input \(--hw 'dev.device'\)" \
	classify --hw dev.device ops.csv -o dev.device
check "classify -o its --hw file: untouched" cmp -s "$top_srcdir/hwdb/h100-sxm.device" dev.device
cat "$top_srcdir/hwdb/h200-pytorch.efficiency" >e.efficiency
one_error "classify -o its --efficiency file" 2 "is also an input \(--efficiency 'e.efficiency'\)" \
	classify --efficiency e.efficiency ops.csv -o e.efficiency
check "classify -o its --efficiency file: untouched" \
	cmp -s "$top_srcdir/hwdb/h200-pytorch.efficiency" e.efficiency
# standard output sent to the input (as cat refuses it)
"$ROOFLINE" classify ops.csv >>ops.csv 2>err.txt
check "classify ops.csv >>ops.csv: exit 2" test $? -eq 2
check "classify ops.csv >>ops.csv: says so" \
	grep -qx "roofline: standard output is also an input (the op list 'ops.csv', the same file): write the output elsewhere" err.txt
check "classify ops.csv >>ops.csv: untouched" cmp -s one.csv ops.csv
# standard input is not a path
"$ROOFLINE" classify -f csv - -o ops.csv <ops.csv 2>err.txt
check "classify - -o FILE <FILE: exit 0 (standard input is read first)" test $? -eq 0
check "classify - -o FILE <FILE: the csv" cmp -s ref.csv ops.csv
cp one.csv ops.csv
no_temporaries "an output that is an input"

# --- 4. two outputs to one place -------------------------------------------
one_error "classify -o X --svg X" 2 "^roofline: -o 'X' and --svg 'X' are the same file: give each output its own file$" \
	classify one.csv -o X --svg X
check "classify -o X --svg X: nothing made" test ! -e X
one_error "classify -o X --svg ./X" 2 "^roofline: -o 'X' and --svg './X' are the same file" \
	classify one.csv -o X --svg ./X
cp old.txt Y
one_error "report -o Y --svg Y" 2 "^roofline: -o 'Y' and --svg 'Y' are the same file" \
	report "$BERT" -o Y --svg Y
check "report -o Y --svg Y: Y untouched" cmp -s old.txt Y
one_error "classify -o - --svg /dev/stdout" 2 \
	"^roofline: -o '-' and --svg '/dev/stdout' both write to standard output" \
	classify one.csv -o - --svg /dev/stdout
one_error "classify --svg - (with the table on standard output)" 2 \
	"^roofline: standard output and --svg '-' both write to standard output" \
	classify one.csv --svg -
run classify one.csv -o /dev/null --svg /dev/null
check "-o /dev/null --svg /dev/null: allowed (exit 0)" test "$rc" -eq 0
no_temporaries "two outputs"

# refused before anything is read: the op list is a fifo nobody writes to,
# whose open would wait for ever
rm -f wait.fifo
mkfifo wait.fifo
timeout 5 "$ROOFLINE" classify wait.fifo -o X --svg X 2>err.txt
check "-o X --svg X on an op list not read yet: exit 2 at once" test $? -eq 2
timeout 5 "$ROOFLINE" classify wait.fifo >&- 2>err.txt
check "a closed standard output, op list not read yet: exit 1 at once" test $? -eq 1

# --- 11. outputs committed together ----------------------------------------
if [ -c /dev/full ]; then
	cp old.txt T
	one_error "classify -o T --svg /dev/full" 1 "^roofline: cannot write '/dev/full': No space left" \
		classify one.csv -o T --svg /dev/full
	check "classify -o T --svg /dev/full: T untouched" cmp -s old.txt T
	one_error "report -o T --svg /dev/full" 1 "^roofline: cannot write '/dev/full'" \
		report "$BERT" -o T --svg /dev/full
	check "report -o T --svg /dev/full: T untouched" cmp -s old.txt T
	cp old.txt S
	one_error "classify -o /dev/full --svg S" 1 "^roofline: cannot write '/dev/full'" \
		classify one.csv -o /dev/full --svg S
	check "classify -o /dev/full --svg S: S untouched" cmp -s old.txt S
	no_temporaries "committed together"
fi

# --- 5. signals and the file size limit ------------------------------------
# the file size limit: write() fails with EFBIG, said as such; the old file
# stays (the csv of bert-base is 3 KB; ulimit -f counts blocks of 512 or
# 1024 bytes)
cp old.txt big.out
(ulimit -f 2 && exec "$ROOFLINE" classify -f csv -o big.out "$EX/bert-base.csv") 2>err.txt
rc=$?
check "ulimit -f: exit 1 (not killed by SIGXFSZ)" test "$rc" -eq 1
check "ulimit -f: says the file is too large" \
	grep -qx "roofline: cannot write 'big.out': File too large (past the file size limit, ulimit -f)" err.txt
check "ulimit -f: big.out untouched" cmp -s old.txt big.out
(ulimit -f 2 && exec "$ROOFLINE" classify -f csv "$EX/bert-base.csv") >big.stdout 2>err.txt
check "ulimit -f, standard output: exit 1" test $? -eq 1
check "ulimit -f, standard output: nothing written" test ! -s big.stdout
# the same while the op list is still being read: rows are written as they
# are predicted, so the write fails mid-list (40,000 rows of about 150
# bytes of csv each, 6 MB, past a limit of 64 blocks): the message names the
# output, not the op list being read
awk 'BEGIN { print "name,kind,dtype,shape"; for (i = 0; i < 40000; i++) printf "op%d,pointwise,bf16,4096x%d\n", i, 1024 + i % 7 }' >long.csv
cp old.txt big.out
(ulimit -f 64 && exec "$ROOFLINE" classify -f csv -o big.out long.csv) 2>err.txt
check "ulimit -f mid-list: exit 1" test $? -eq 1
check "ulimit -f mid-list: one message naming the output" \
	test "$(cat err.txt)" = "roofline: cannot write 'big.out': File too large (past the file size limit, ulimit -f)"
check "ulimit -f mid-list: big.out untouched" cmp -s old.txt big.out
# model's step streams its rows too (1,943 bytes of csv, past one block)
(ulimit -f 1 && exec "$ROOFLINE" model -f csv -o big.out "$EX/llama3-8b.json") 2>err.txt
check "ulimit -f, model: exit 1" test $? -eq 1
check "ulimit -f, model: one message naming the output" \
	test "$(cat err.txt)" = "roofline: cannot write 'big.out': File too large (past the file size limit, ulimit -f)"
check "ulimit -f, model: big.out untouched" cmp -s old.txt big.out
no_temporaries "the file size limit"

# A signal while the output is pending: classify has created sig.out's
# temporary and waits on its op list, a fifo held open. Each signal that
# terminates by default ends it, killed by that signal, with the temporary
# removed and sig.out as it was. (A background job starts with INT and
# QUIT ignored: env gives every signal back its default.)
if env --default-signal true 2>/dev/null; then
	dflt="env --default-signal"
else
	dflt=
fi
sigs="HUP INT QUIT TERM USR1 USR2 PIPE ALRM XCPU XFSZ VTALRM PROF SYS TRAP"
for s in IO PWR STKFLT; do kill -l | tr ' ' '\n' | grep -qx "$s" && sigs="$sigs $s"; done
[ -n "$dflt" ] || sigs=$(echo "$sigs" | sed 's/INT //; s/QUIT //')
for sig in $sigs; do
	rm -f in.fifo sig.out.tmp.* # what an earlier case left, when it failed
	mkfifo in.fifo
	cp old.txt sig.out
	$dflt "$ROOFLINE" classify -o sig.out in.fifo 2>/dev/null &
	pid=$!
	exec 7>in.fifo
	printf 'name,kind,shape\nx,copy,4\n' >&7
	i=0
	while [ $i -lt 200 ] && ! ls | grep -q 'sig[.]out[.]tmp[.]'; do sleep 0.02; i=$((i + 1)); done
	check "SIG$sig: the temporary file existed" sh -c "ls | grep -q 'sig[.]out[.]tmp[.]'"
	kill -s "$sig" $pid
	wait $pid
	st=$?
	exec 7>&-
	check "SIG$sig: killed by it (status $st)" test "$st" -gt 128 -a "$(kill -l "$st")" = "$sig"
	check "SIG$sig: sig.out untouched" cmp -s old.txt sig.out
	check "SIG$sig: no temporary file left" test "$(ls -a | grep -c 'sig[.]out[.]tmp[.]')" -eq 0
done
# a signal ignored at the start stays ignored (nohup)
rm -f in.fifo sig.out.tmp.*
mkfifo in.fifo
cp old.txt sig.out
(trap '' HUP; exec "$ROOFLINE" classify -f csv -o sig.out in.fifo) 2>/dev/null &
pid=$!
exec 7>in.fifo
printf 'name,kind,shape\nx,copy,4\n' >&7
i=0
while [ $i -lt 200 ] && ! ls | grep -q 'sig[.]out[.]tmp[.]'; do sleep 0.02; i=$((i + 1)); done
kill -s HUP $pid
sleep 0.2
exec 7>&-
wait $pid
check "SIGHUP ignored: carried on, exit 0" test $? -eq 0
check "SIGHUP ignored: sig.out written" cmp -s ref.csv sig.out
check "SIGHUP ignored: no temporary file left" test "$(ls -a | grep -c 'sig[.]out[.]tmp[.]')" -eq 0

done_testing
