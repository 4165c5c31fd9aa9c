#!/bin/sh
# cli_torch_oplist.sh - contrib/torch_oplist.py (issue 13, item 6): modules
# run on PyTorch's meta device give the op-list rows worked out here by hand,
# every list it writes classifies, a model larger than the machine's memory
# gets its list; and the lists recorded on the device machine with PyTorch 2.11
# (bench/traces/torch-oplist-device.sh: torchvision's ResNet-50, Llama-3-8B
# from examples/llama3-8b.json) have the FLOPs of the published figures.
#
# The torch cases need a python with torch: TORCH_OPLIST_PYTHON, else
# /usr/bin/python3 (Debian 12's python3-torch is 1.13; .ci/run installs it
# when it can). Without one they are TAP SKIPs; the recorded lists are checked
# with roofline alone.
. "$top_srcdir/tests/lib.sh"

py=${TORCH_OPLIST_PYTHON:-/usr/bin/python3}
script="$top_srcdir/contrib/torch_oplist.py"
M="$top_srcdir/tests/data/torch-oplist/models.py"
R="$top_srcdir/tests/data/torch-oplist"
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE

have_torch=0
"$py" -c 'import torch' >/dev/null 2>&1 && have_torch=1
if [ "$have_torch" -eq 0 ] && [ ! -f "$R/resnet50-b1.csv" ] && [ ! -f "$R/llama3-8b-prefill-b1-s2048.csv" ]; then
	echo "1..0 # SKIP $py cannot import torch, and no recorded op lists in tests/data/torch-oplist"
	exit 0
fi

skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# the script's ATen table is a copy of src/atenmap.c's: the two must not
# drift (tests/torch_oplist_sync.py; python alone, no torch)
if "$py" -c 'import re' >/dev/null 2>&1; then
	check "torch_oplist.py's ATen table agrees with src/atenmap.c's" \
		"$py" "$top_srcdir/tests/torch_oplist_sync.py" "$top_srcdir"
else
	skip "torch_oplist.py's ATen table against src/atenmap.c's" "no $py"
fi
# oplist NAME ARGS...: torch_oplist.py ARGS > $tmp/NAME.csv (stderr
# $tmp/NAME.err, status $prc), then roofline classify -f csv of it into
# $tmp/NAME.out (status $rc): every list the script writes must classify.
oplist() {
	name=$1
	shift
	"$py" "$script" "$@" >"$tmp/$name.csv" 2>"$tmp/$name.err"
	prc=$?
	run classify -f csv "$tmp/$name.csv"
	cp "$tmp/out" "$tmp/$name.out"
	if [ "$prc" -ne 0 ] || [ "$rc" -ne 0 ]; then
		not_ok "$name: torch_oplist.py exit $prc, classify exit $rc" "$(head -n 3 "$tmp/$name.err" "$tmp/err")"
	else
		ok "$name: written and classified"
	fi
}
# rows FILE: the data rows of an op list (no comments, no header)
rows() { grep -v '^#' "$1" | tail -n +2; }
# has FILE LINE: the op list FILE holds the row LINE exactly
has() { rows "$1" | grep -qxF -- "$2"; }
# sum FILE EXPR: the sum over classify's csv rows of an awk expression of
# the columns (c["flops"], c["count"], c["kind"], c["name"])
sum() {
	awk -F, -v e="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ for (i = 1; i <= NF; i++) c[h[i]] = $i; s += '"$2"' }
		END { printf "%.0f\n", s }' "$1"
}

if [ "$have_torch" -eq 1 ]; then
	tv=$("$py" -c 'import torch; print(torch.__version__)')
	echo "# $py: torch $tv"

	# nn.Linear(1024, 4096) on [8, 1024] in bf16: one matmul, M = 8 rows,
	# N = 4096, K = 1024 (addmm's bias not counted, as in roofline import);
	# FLOPs 2 x 8 x 4096 x 1024 = 67,108,864, bytes 2 x (8 x 1024 + 1024 x
	# 4096 + 8 x 4096) = 8,470,528
	oplist linear "$M:linear" --dtype bf16
	check "linear: one row, 8x4096x1024 bf16" \
		test "$(rows "$tmp/linear.csv")" = "linear,matmul,bf16,8x4096x1024,,,,,,,,,,,1"
	check "linear: FLOPs 67108864" test "$(csv_field "$tmp/linear.out" linear flops)" = 67108864
	check "linear: bytes 8470528" test "$(csv_field "$tmp/linear.out" linear bytes)" = 8470528

	# Conv2d(3, 64, 7, stride 2, padding 3) on 2 x 3 x 224 x 224: Ho = Wo =
	# (224 + 6 - 7) / 2 + 1 = 112; FLOPs 2 x 2 x 64 x 3 x 7 x 7 x 112 x 112
	# = 472,055,808
	oplist conv "$M:conv" --dtype bf16
	check "conv: one conv2d row, kernel 64x7x7, stride 2, padding 3" \
		has "$tmp/conv.csv" "convolution,conv2d,bf16,2x3x224x224,64x7x7,2,3,1,,,,,,,1"
	check "conv: FLOPs 472055808" test "$(csv_field "$tmp/conv.out" convolution flops)" = 472055808

	# conv 3x3 padding 1, eval-mode BatchNorm (as src/atenmap.c maps it: a
	# pointwise row of the input's shape, y = a x + b: 1 input, 2 FLOPs per
	# element), ReLU, and MaxPool2d(2), which has no
	# mapping: a custom row, flops 0, bytes = input 4 x 32 x 32 x 32 x 2 B
	# (262,144) + output 4 x 32 x 16 x 16 x 2 B (65,536) + its int64 indices
	# 4 x 32 x 16 x 16 x 8 B (262,144) = 589,824, named in a warning
	oplist convbn "$M:convbn" --dtype bf16
	check "convbn: conv2d 4x16x32x32, kernel 32x3x3, padding 1" \
		has "$tmp/convbn.csv" "0:convolution,conv2d,bf16,4x16x32x32,32x3x3,1,1,1,,,,,,,1"
	check "convbn: eval batch norm a pointwise row, 1 input, 2 FLOPs per element" \
		has "$tmp/convbn.csv" "1:native_batch_norm,pointwise,bf16,4x32x32x32,,,,,,,1,2,,,1"
	check "convbn: relu pointwise 4x32x32x32" \
		has "$tmp/convbn.csv" "2:relu,pointwise,bf16,4x32x32x32,,,,,,,1,,,,1"
	check "convbn: max pool a custom row of 589824 bytes" \
		has "$tmp/convbn.csv" "3:max_pool2d_with_indices,custom,bf16,,,,,,,,,,0,589824,1"
	check "convbn: the unmapped op named on stderr" grep -q 'custom rows.*max_pool2d_with_indices x1' "$tmp/convbn.err"

	# the same Linear(256, 256) + ReLU 12 times: two rows with count 12, the
	# layer number written '*'; FLOPs 12 x (2 x 32 x 256 x 256 + 32 x 256) =
	# 50,429,952 either way
	oplist stack "$M:stack" --dtype bf16
	check "stack: 12 layers merged into two rows of count 12" \
		test "$(rows "$tmp/stack.csv" | cut -d, -f1,2,4,15 | tr '\n' ' ')" = "*.0:linear,matmul,32x256x256,12 *.1:relu,pointwise,32x256,12 "
	check "stack: FLOPs 50429952" test "$(sum "$tmp/stack.out" 'c["flops"] * c["count"]')" = 50429952
	oplist stack-nomerge "$M:stack" --dtype bf16 --no-merge
	check "stack --no-merge: 24 rows of count 1" \
		test "$(rows "$tmp/stack-nomerge.csv" | cut -d, -f15 | sort | uniq -c | tr -s ' ')" = " 24 1"
	check "stack --no-merge: the same FLOPs" test "$(sum "$tmp/stack-nomerge.out" 'c["flops"] * c["count"]')" = 50429952
	check "stack --no-merge: layers named by number" has "$tmp/stack-nomerge.csv" "11.0:linear,matmul,bf16,32x256x256,,,,,,,,,,,1"

	# view, transpose, unsqueeze, expand, detach, select, permute, a reshape
	# that needs no copy, squeeze: no rows; then z + z, one pointwise row
	oplist views "$M:views" --dtype bf16
	check "views: only the add" test "$(rows "$tmp/views.csv")" = "add,pointwise,bf16,4x8x16,,,,,,,2,,,,1"

	# grouped-query attention by hand, B 2, S 128, 32 query heads and 8 KV
	# heads of 128: q_proj M = 2 x 128 = 256, N = K = 4096; k_proj N = 8 x
	# 128 = 1024; K and V repeated 4x (a copy of 2x8x4x128x128 each, count 2);
	# scores q @ k^T per (batch, head): B = 2 x 32 = 64, M = N = 128, K = 128
	oplist gqa "$M:gqa" --dtype bf16
	check "gqa: q_proj 256x4096x4096" has "$tmp/gqa.csv" "q_proj:linear,matmul,bf16,256x4096x4096,,,,,,,,,,,1"
	check "gqa: k_proj 256x1024x4096" has "$tmp/gqa.csv" "k_proj:linear,matmul,bf16,256x1024x4096,,,,,,,,,,,1"
	check "gqa: the KV repeat, two copies" has "$tmp/gqa.csv" "clone,copy,bf16,2x8x4x128x128,,,,,,,,,,,2"
	check "gqa: scores and output matmuls 64x128x128x128" \
		test "$(rows "$tmp/gqa.csv" | grep -c '^matmul,matmul,bf16,64x128x128x128,')" -eq 2
	check "gqa: softmax 2x32x128x128" has "$tmp/gqa.csv" "_softmax,softmax,bf16,2x32x128x128,,,,,,,,,,,1"

	# 4 pre-norm blocks with nn.MultiheadAttention (d 512, 8 heads) on
	# 4 x 64 tokens: the packed in-projection M = 256, N = 3 x 512, K = 512
	oplist blocks "$M:blocks" --dtype bf16
	check "blocks: ln1 4x64x512 x4" has "$tmp/blocks.csv" "*.ln1:native_layer_norm,layernorm,bf16,4x64x512,,,,,,,,,,,4"
	check "blocks: in-projection 256x1536x512 x4" has "$tmp/blocks.csv" "*.attn:linear,matmul,bf16,256x1536x512,,,,,,,,,,,4"
	check "blocks: fc1 256x2048x512 x4" has "$tmp/blocks.csv" "*.fc1:linear,matmul,bf16,256x2048x512,,,,,,,,,,,4"
	check "blocks: gelu, 14 FLOPs per element" has "$tmp/blocks.csv" "*:gelu,pointwise,bf16,4x64x2048,,,,,,,1,14,,,4"

	# F.scaled_dot_product_attention with enable_gqa (PyTorch 2.5 and later):
	# one attention row, 32 query heads, kv_heads 8, causal; FLOPs 4 x 4 x 32
	# x 256 x 256 x 128 / 2 = 2,147,483,648; bytes 2 x (2 x 4 x 256 x 32 x
	# 128 + 2 x 4 x 256 x 8 x 128) = 20,971,520
	if "$py" -c 'import inspect, torch.nn.functional as F
import sys; sys.exit("enable_gqa" not in (F.scaled_dot_product_attention.__doc__ or ""))' >/dev/null 2>&1; then
		oplist sdpa "$M:sdpa" --dtype bf16
		check "sdpa: one attention row, kv_heads 8, causal" \
			test "$(rows "$tmp/sdpa.csv")" = "scaled_dot_product_attention,attention,bf16,4x32x256x128,,,,,1,8,,,,,1"
		check "sdpa: FLOPs 2147483648" test "$(csv_field "$tmp/sdpa.out" scaled_dot_product_attention flops)" = 2147483648
		check "sdpa: bytes 20971520 (K and V with 8 heads)" test "$(csv_field "$tmp/sdpa.out" scaled_dot_product_attention bytes)" = 20971520
	else
		skip "sdpa: F.scaled_dot_product_attention with enable_gqa" "torch $tv has none (2.5 and later)"
	fi

	# 100 layers of 16384 x 16384 fp32 weights: 100 x 2^28 x 4 B = 100 GiB,
	# more than the machine has; one row of count 100, and classify's memory
	# line counts the 100 GiB of weights
	oplist big "$M:big"
	check "big: one row, count 100" test "$(rows "$tmp/big.csv")" = "*:linear,matmul,fp32,16x16384x16384,,,,,,,,,,,100"
	run classify "$tmp/big.csv"
	check "big: classify counts 100.00 GiB of weights" grep -q '^memory: 100.00 GiB weights' "$tmp/out"

	# MODULE_SPEC pkg.module:factory with --input, the dtype after ':'
	oplist relu torch.nn:ReLU --input 4x8:fp16
	check "torch.nn:ReLU --input 4x8:fp16" test "$(rows "$tmp/relu.csv")" = "relu,pointwise,fp16,4x8,,,,,,,1,,,,1"

	# the same run twice writes the same bytes (the recorded lists rely on it)
	"$py" "$script" "$M:gqa" --dtype bf16 >"$tmp/gqa2.csv" 2>/dev/null
	check "deterministic: a second run writes the same bytes" cmp -s "$tmp/gqa.csv" "$tmp/gqa2.csv"

	# as a library
	"$py" -c 'import sys, torch
sys.path.insert(0, sys.argv[1])
from torch_oplist import oplist, write_oplist
rows = oplist(torch.nn.Linear(1024, 4096), torch.empty(8, 1024), dtype=torch.bfloat16)
assert len(rows) == 1 and rows[0]["shape"] == (8, 4096, 1024) and rows[0]["count"] == 1, rows
write_oplist(rows, sys.stdout)' "$top_srcdir/contrib" >"$tmp/lib.csv" 2>"$tmp/lib.err"
	check "library: oplist(module, inputs) and write_oplist" has "$tmp/lib.csv" "linear,matmul,bf16,8x4096x1024,,,,,,,,,,,1"

	# errors: exit 1, one line naming the problem, no traceback
	# py_error DESC PATTERN ARGS...: torch_oplist.py ARGS exits 1, writes
	# nothing on stdout, and one stderr line matching PATTERN, no traceback
	py_error() {
		desc=$1 pattern=$2
		shift 2
		"$py" "$script" "$@" >"$tmp/o" 2>"$tmp/e"
		prc=$?
		if [ "$prc" -ne 1 ] || [ -s "$tmp/o" ] || ! grep -q -- "$pattern" "$tmp/e" || grep -q Traceback "$tmp/e"; then
			not_ok "$desc" "exit $prc" "$(head -n 3 "$tmp/e")"
		else
			ok "$desc"
		fi
	}
	py_error "no inputs: exit 1, says --input" "no inputs: give --input" torch.nn:ReLU
	py_error "bad --input: exit 1, names it" "input '4y8'" torch.nn:ReLU --input 4y8
	py_error "missing function: exit 1, names it" "no attribute 'nothing'" "$M:nothing" --input 4
else
	skip "torch_oplist.py on hand-built modules" "$py cannot import torch"
fi

# ---- the lists recorded on the device (torch 2.11, torchvision, transformers)

f="$R/resnet50-b1.csv"
if [ -f "$f" ]; then
	run classify -f csv "$f"
	check "resnet50: classifies" test "$rc" -eq 0
	cp "$tmp/out" "$tmp/r50.out"
	# 53 convolutions (the stem, 16 bottlenecks of 3, 4 downsamples) and the fc
	check "resnet50: 53 conv2d occurrences" test "$(sum "$tmp/r50.out" '(c["kind"] == "conv2d") * c["count"]')" = 53
	check "resnet50: stem conv 7x7/2 pad 3" has "$f" "conv1:convolution,conv2d,fp32,1x3x224x224,64x7x7,2,3,1,,,,,,,1"
	check "resnet50: fc 1x1000x2048" has "$f" "fc:linear,matmul,fp32,1x1000x2048,,,,,,,,,,,1"
	# torchvision's model docs: 4.09 GFLOPS (multiply-adds) per 224x224
	# image, so 2 x 4.09e9 = 8.18e9 FLOPs of convolutions and fc, within 1 %
	mm=$(sum "$tmp/r50.out" '(c["kind"] == "conv2d" || c["kind"] == "matmul") * c["flops"] * c["count"]')
	check "resnet50: conv + fc FLOPs $mm within 1 % of 8.18e9" \
		test "$mm" -ge 8098200000 -a "$mm" -le 8261800000
else
	skip "resnet50 recorded list" "tests/data/torch-oplist/resnet50-b1.csv absent (bench/traces/torch-oplist-device.sh)"
fi

f="$R/llama3-8b-prefill-b1-s2048.csv"
if [ -f "$f" ]; then
	run classify -f csv "$f"
	check "llama3-8b: classifies" test "$rc" -eq 0
	cp "$tmp/out" "$tmp/l8.out"
	# non-embedding weights of examples/llama3-8b.json: per layer q and o
	# 4096 x 4096, k and v 4096 x 1024, gate, up, down 4096 x 14336:
	# 218,103,808, x 32 layers, + lm_head 4096 x 128256 = 7,504,658,432;
	# forward FLOPs of the projections 2 x 7,504,658,432 x 2048 tokens
	N=$(( (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336) * 32 + 4096 * 128256 ))
	check "hand: 7504658432 non-embedding weights" test "$N" -eq 7504658432
	proj=$(sum "$tmp/l8.out" '(c["kind"] == "matmul" && c["name"] ~ /(_proj|lm_head):linear$/) * c["flops"] * c["count"]')
	check "llama3-8b: projection FLOPs = 2 x weights x tokens" test "$proj" = $((2 * N * 2048))
	# attention: 32 layers of 4 x 32 heads x 2048 x 2048 x 128 / 2 (causal) =
	# 34,359,738,368 each, GQA with 8 KV heads
	check "llama3-8b: attention rows 1x32x2048x128, causal, kv_heads 8, count 32" \
		test "$(rows "$f" | grep -c ':scaled_dot_product_attention,attention,bf16,1x32x2048x128,,,,,1,8,,,,,32$')" -eq 1
	att=$(sum "$tmp/l8.out" '(c["kind"] == "attention") * c["flops"] * c["count"]')
	check "llama3-8b: attention FLOPs 32 x 34359738368" test "$att" = $((32 * 34359738368))
	# everything else (norms, rotary, activations) is under 0.2 % more; the
	# rule of thumb 2 x params x tokens with all 8.03e9 parameters is 3 %
	# above, for the 525 M of the embedding table do no arithmetic
	tot=$(sum "$tmp/l8.out" 'c["flops"] * c["count"]')
	want=$((2 * N * 2048 + 32 * 34359738368))
	check "llama3-8b: total FLOPs $tot within 0.2 % above $want" \
		test "$tot" -ge "$want" -a $(( (tot - want) * 500 )) -le "$want"
	# the memory line: weights 2 x 7,504,658,432 B = 13.98 GiB (and the
	# rotary matmul's 2048 fp32 values); K and V: 2 x 32 x 8 x 2048 x 128 x
	# 2 B = 0.25 GiB
	run classify "$f"
	check "llama3-8b: 13.98 GiB weights + 0.25 GiB KV cache" grep -q '^memory: 13.98 GiB weights + 0.25 GiB KV cache' "$tmp/out"
else
	skip "llama3-8b recorded list" "tests/data/torch-oplist/llama3-8b-prefill-b1-s2048.csv absent (bench/traces/torch-oplist-device.sh)"
fi

done_testing
