#!/bin/sh
# torch-oplist-device.sh - records the op lists that tests/cli_torch_oplist.sh
# compares in CI, on a machine with PyTorch 2.x, torchvision and transformers
# (the project's device machine; no network and no GPU needed: the models run
# on the meta device, built from configs with no weights).
#
#   sh bench/traces/torch-oplist-device.sh [OUTDIR]    (default tests/data/torch-oplist)
#
# Writes resnet50-b1.csv (torchvision's ResNet-50, one 3x224x224 image, fp32)
# and llama3-8b-prefill-b1-s2048.csv (examples/llama3-8b.json through
# transformers' AutoModelForCausalLM, 2048 tokens, bf16), then checks that a
# second run writes the same bytes (the script is deterministic) and prints
# the versions used. Commit the two files; docs/torch-oplist.md.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-tests/data/torch-oplist}
py=${PYTHON:-python3}
mkdir -p "$out"
$py -c 'import torch, torchvision, transformers, sys
print("python", sys.version.split()[0], "torch", torch.__version__, "torchvision",
      torchvision.__version__, "transformers", transformers.__version__)'
run() {
	name=$1
	shift
	$py contrib/torch_oplist.py "$@" -o "$out/$name.csv"
	$py contrib/torch_oplist.py "$@" -o "$out/$name.again.csv" 2>/dev/null
	if cmp -s "$out/$name.csv" "$out/$name.again.csv"; then
		echo "$name.csv: $(grep -vc '^#' "$out/$name.csv") lines, a second run wrote the same bytes"
	else
		echo "$name.csv: a second run differs"
		diff "$out/$name.csv" "$out/$name.again.csv" | head -n 20
	fi
	rm -f "$out/$name.again.csv"
}
run resnet50-b1 torchvision.models:resnet50 --input 1x3x224x224
run llama3-8b-prefill-b1-s2048 --hf-config examples/llama3-8b.json --batch 1 --seq 2048 --dtype bf16
