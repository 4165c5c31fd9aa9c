#!/bin/bash
# hostile.sh - the sixteen hostile-input cases of issue 21, each run once with
# its wall time and peak resident memory, against the goal: one clear message
# and a non-zero exit (or the right output), nothing lost or left behind,
# within 5 s and 200 MB. Prints one line per case and a last line
# "N passed, N failed".
#
# Usage: bench/hostile.sh [ROOFLINE]   (from the source tree after make; needs
# GNU time, Debian package "time", and python3)
set -u
bin=$(realpath "${1:-./roofline}")
top=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/roofline-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# the database of the tree the binary belongs to (ROOFLINE_HWDB), else this one
export ROOFLINE_HWDB="${ROOFLINE_HWDB:-$top/hwdb}"
pass=0 fail=0

# measure NAME CMD...: runs CMD under GNU time (wall seconds, peak RSS), its
# stderr to NAME.err; sets rc, secs and mb
measure() {
	local name=$1
	shift
	rm -f "$name.time"
	# timeout signals its whole process group: time and the command
	timeout -s KILL 60 /usr/bin/time -f "%e %M" -o "$name.time" "$@" >"$name.out" 2>"$name.err"
	rc=$?
	secs=60 kib=0
	# GNU time writes "Command exited with non-zero status N" first
	[ -s "$name.time" ] && read -r secs kib < <(tail -n 1 "$name.time")
	mb=$((kib / 1024))
}

# verdict NAME OK WHAT: prints the case's line; OK is 0 when its own check
# held; also fails past 5 s or 200 MB
verdict() {
	local name=$1 ok=$2 what=$3 msg
	# the message: the last line said on stderr, else the first on stdout
	msg=$( { [ -s "$name.err" ] && tail -n 1 "$name.err" || head -n 1 "$name.out"; } |
		cut -c 1-150 | tr -c '[:print:]\n' '?')
	if [ "$ok" -eq 0 ] && awk -v s="$secs" 'BEGIN { exit !(s <= 5) }' && [ "$mb" -le 200 ]; then
		pass=$((pass + 1))
		printf 'ok    %-3s %5.2f s %4d MB exit %-3s %s: %s\n' "$name" "$secs" "$mb" "$rc" "$what" "$msg"
	else
		fail=$((fail + 1))
		printf 'FAIL  %-3s %5.2f s %4d MB exit %-3s %s: %s\n' "$name" "$secs" "$mb" "$rc" "$what" "$msg"
	fi
}

ops=$top/examples/llama2-7b-decode.csv
cfg=$top/examples/llama3-8b.json
leftover() { ls -a | grep -c '\.tmp\.' ; }

# 1: -o /dev/stdout appended to a log keeps the log's earlier content
echo "earlier line" >log
measure 1 sh -c "\"$bin\" classify --hw h200 -f csv $ops -o /dev/stdout >>log"
head -n 1 log | grep -qx "earlier line" && [ "$(wc -l <log)" -gt 2 ]
verdict 1 $? "-o /dev/stdout >> log keeps the log"

# 2: a closed standard output is an error
measure 2 sh -c "\"$bin\" model --hw h200 $cfg >&-"
[ $rc -ne 0 ] && [ -s 2.err ]
verdict 2 $? "closed stdout"

# 3: -o naming the input is refused, the input intact
cp "$ops" in.csv
measure 3 "$bin" classify --hw h200 in.csv -o in.csv
[ $rc -ne 0 ] && cmp -s in.csv "$ops"
verdict 3 $? "-o names the input"

# 4: -o X --svg X is refused
measure 4 "$bin" classify --hw h200 "$ops" -o same --svg same
[ $rc -ne 0 ] && [ ! -e same ]
verdict 4 $? "-o X --svg X"

# 5: a terminating signal mid-write leaves no temporary (a million-row list,
# the signal after 0.3 s), and the file size limit; one line for all
python3 - <<'EOF' >big.csv
print("name,kind,dtype,shape,count")
for i in range(1000000):
    print(f"op{i},pointwise,bf16,4096x{1024 + i % 7},1")
EOF
echo "old" >five.out
bad=
# job control on: a background job of a script starts with INT and QUIT
# ignored otherwise (and then rightly runs to the end)
set -m
for sig in HUP INT QUIT PIPE ALRM TERM USR1 USR2 XCPU VTALRM PROF SYS; do
	"$bin" classify --hw h200 -f csv -o five.out big.csv 2>/dev/null &
	p=$!
	sleep 0.3
	kill -s $sig $p 2>/dev/null
	wait $p 2>/dev/null
	[ "$(leftover)" -eq 0 ] && [ "$(cat five.out)" = old ] || bad="$bad $sig"
done
set +m
measure 5 sh -c "ulimit -f 64; \"$bin\" classify --hw h200 -f csv -o five.out big.csv"
[ "$(leftover)" -eq 0 ] && [ "$(cat five.out)" = old ] || bad="$bad XFSZ"
[ -z "$bad" ] || echo "  left a temporary or lost five.out on:$bad" >>5.err
[ -z "$bad" ]
verdict 5 $? "13 signals and ulimit -f, no temporary left"

# 6: a fifo in the database does not block
mkdir db && cp "$top"/hwdb/* db/ && mkfifo db/stuck.device db/stuck.efficiency
measure 6 "$bin" --version
measure 6 "$bin" hw list --hwdb db
[ $rc -eq 0 ] || [ $rc -eq 1 ]
verdict 6 $? "fifo in the database"

# 7: a bench recording with a sample of 1e-300 us is refused
python3 - "$top/docs/measurements/h200-bench-2026-11-29/bench.json" <<'EOF' >tiny.json
import json, sys
d = json.load(open(sys.argv[1]))
d["entries"][0]["samples_us"][0] = 1e-300
print(json.dumps(d))
EOF
measure 7 "$bin" bench --from tiny.json -f json
[ $rc -ne 0 ] && ! grep -q inf 7.err
verdict 7 $? "bench --from 1e-300 us"

# 8: validate --from with gpu_us 1e-300
python3 - "$top/tests/data/validate-one.json" <<'EOF' >val.json
import json, sys
d = json.load(open(sys.argv[1]))
for r in d.get("results", []):
    r["gpu_us"] = 1e-300
print(json.dumps(d))
EOF
measure 8 "$bin" validate --from val.json -f json
[ $rc -ne 0 ]
verdict 8 $? "validate --from gpu_us 1e-300"

# 9: 400,000 nested arrays in a config
python3 -c 'print("[" * 400000 + "]" * 400000)' >deep.json
measure 9 "$bin" model --hw h200 deep.json
[ $rc -ne 0 ] && [ $rc -lt 128 ]
verdict 9 $? "400,000 nested arrays"

# 10: plot --sweep-table - < /dev/zero is bounded
measure 10 sh -c "\"$bin\" plot --sweep-table - -o z.svg </dev/zero"
[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ ! -e z.svg ]
verdict 10 $? "--sweep-table from /dev/zero"

# 11: --svg failing leaves -o as it was
echo "old" >eleven.out
measure 11 "$bin" classify --hw h200 "$ops" -o eleven.out --svg /dev/full
[ $rc -ne 0 ] && [ "$(cat eleven.out)" = old ] && [ "$(leftover)" -eq 0 ]
verdict 11 $? "--svg /dev/full keeps -o"

# 12: the longest generation finishes
measure 12 "$bin" model --hw h200 "$cfg" --seq 1 --generate 16777216
[ $rc -eq 0 ] || [ -s 12.err ]
verdict 12 $? "--generate 16777216"

# 13: --max-batch says when the size cap stopped it (a model of one narrow
# layer, whose memory allows more than the cap)
python3 - "$top/examples/gpt2.json" <<'EOF' >narrow.json
import json, sys
c = json.load(open(sys.argv[1]))
c.update(n_layer=1, n_embd=64, n_head=1, vocab_size=64, n_positions=64)
print(json.dumps(c))
EOF
measure 13 "$bin" model --hw h200 narrow.json --phase decode --seq 1 --max-batch
[ $rc -eq 0 ] && grep -qi 'cap\|searched' 13.out
verdict 13 $? "--max-batch at the cap"

# 14: control bytes in a data file are escaped in the message
printf 'name,kind,dtype,shape\nx,\001\002\033[2J,bf16,4\n' >ctl.csv
measure 14 "$bin" classify --hw h200 ctl.csv
[ $rc -ne 0 ] && ! grep -q "$(printf '\033')" 14.err && grep -q 'x1b' 14.err
verdict 14 $? "control bytes escaped"

# 15: an overflowing config is one message naming its keys: qkv_proj's
# weights are hidden x (heads + 2 kv_heads) x head_dim = 2^24 x (2^24 + 2) x
# 2^24 elements, past 2^64
python3 - "$cfg" <<'EOF' >huge.json
import json, sys
c = json.load(open(sys.argv[1]))
c.update(hidden_size=2**24, num_attention_heads=2**24, num_key_value_heads=1, head_dim=2**24)
print(json.dumps(c))
EOF
measure 15 "$bin" model --hw h200 huge.json
[ $rc -ne 0 ] && [ "$(wc -l <15.err)" -eq 1 ] && grep -q 'hidden_size.*head_dim' 15.err
verdict 15 $? "overflowing config"

# 16: --generate N counts N output tokens: tokens/s = batch N / total
# and the prefill yields the first, so N - 1 decode steps follow it
measure 16 "$bin" model --hw h200 "$cfg" --seq 128 --generate 4 -f json
python3 - <<'EOF'
import json, sys
g = json.load(open("16.out"))["generate"]
rate = g["batch"] * 4 / g["total_us"] * 1e6
decode = g["total_us"] - g["prefill_us"]
sys.exit(0 if abs(g["tokens_per_s"] - rate) <= 1e-3 * rate and
         abs(decode - 3 * g["per_token_us"]) <= 1e-3 * decode else 1)
EOF
verdict 16 $? "--generate N: N tokens"

printf '%d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
