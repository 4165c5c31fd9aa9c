#!/bin/sh
# cli_kinds.sh - "roofline kinds": the op kinds of docs/oplist-format.md,
# each with its columns, in table, csv and json, and -o.
. "$top_srcdir/tests/lib.sh"

# the kind keywords of docs/oplist-format.md (the 'kind' row of "Columns")
grep '^| `kind` |' "$top_srcdir/docs/oplist-format.md" | awk -F'|' '{ print $5 }' |
	grep -o '`[a-z0-9]*`' | tr -d '`' | sort >"$tmp/doc-kinds"
check "docs/oplist-format.md lists 16 kinds" test "$(wc -l <"$tmp/doc-kinds")" -eq 16

run kinds
check "kinds: exit 0" test "$rc" -eq 0
check "kinds: nothing on stderr" test ! -s "$tmp/err"
check "kinds: the heading" grep -Eq '^kind +dims +shape +flops/elem +pipe +weights +kv_cache +fusable +collective +columns$' "$tmp/out"
for k in $(cat "$tmp/doc-kinds"); do
	check "kinds lists $k" grep -q "^$k " "$tmp/out"
done
tail -n +2 "$tmp/out" | awk '{ print $1 }' | sort >"$tmp/kinds"
check "kinds lists those of the docs and no other (not fused)" cmp -s "$tmp/doc-kinds" "$tmp/kinds"
# from the docs: matmul's shape MxNxK or BxMxNxK, the tensor pipe, its weights
check "kinds: matmul" grep -Eq '^matmul +3-4 +MxNxK or BxMxNxK +- +tensor +yes +no +no +no +weight_dtype weight_group weight_count trainable grouped layout params$' "$tmp/out"
check "kinds: conv2d takes kernel" grep -Eq '^conv2d +4-4 .* kernel stride padding groups ' "$tmp/out"
check "kinds: softmax 5 FLOPs per element, fusable" grep -Eq '^softmax +1-6 +- +5 +vector +no +no +yes +no +flops_per_element params$' "$tmp/out"
check "kinds: sendrecv a collective" grep -Eq '^sendrecv .* yes +ranks nodes overlap$' "$tmp/out"
check "kinds: params on every kind but the collectives" \
	test "$(grep -c ' params\( kv_dtype\| vector_bytes\)\{0,1\}$' "$tmp/out")" -eq 10 -a "$(grep -c ' ranks nodes overlap$' "$tmp/out")" -eq 6

run kinds -f csv
check "kinds -f csv: exit 0" test "$rc" -eq 0
check "kinds -f csv: header" test "$(head -n 1 "$tmp/out")" = \
	"kind,min_dims,max_dims,shape_form,flops_per_element,pipe,weights,kv_cache,fusable,collective,columns"
check "kinds -f csv: 16 rows" test "$(($(wc -l <"$tmp/out") - 1))" -eq 16
check "kinds -f csv: layernorm 8 FLOPs per element" \
	grep -q '^layernorm,1,6,,8,vector,0,0,1,0,flops_per_element params$' "$tmp/out"
check "kinds -f csv: attention's KV cache" \
	grep -q '^attention,4,5,BxHxSxD or BxHxSqxSkxD,,tensor,0,1,0,0,causal kv_heads window v_head_dim kv_shared kv_cached mask mask_shape params kv_dtype$' "$tmp/out"

run kinds -f json
check "kinds -f json: exit 0" test "$rc" -eq 0
check "kinds -f json parses" python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out"
check "kinds -f json: 16 kinds, pointwise first" python3 -c '
import json, sys
k = json.load(sys.stdin)["kinds"]
assert len(k) == 16 and k[0]["kind"] == "pointwise", k
assert k[0]["columns"] == ["inputs", "flops_per_element", "strided", "params", "vector_bytes"], k[0]
assert k[0]["fusable"] is True and k[0]["flops_per_element"] == 1, k[0]
' <"$tmp/out"

expect_error "kinds --bogus: exit 2" 2 "unknown option" kinds --bogus
expect_error "kinds -f md: exit 2" 2 "unknown format 'md'" kinds -f md
expect_error "kinds with an argument: exit 2" 2 "unexpected argument 'matmul'" kinds matmul

run kinds -f csv -o "$tmp/k.csv"
check "kinds -o: exit 0, nothing on stdout" test "$rc" -eq 0 -a ! -s "$tmp/out"
check "kinds -o: the file written" test "$(head -n 1 "$tmp/k.csv")" = \
	"kind,min_dims,max_dims,shape_form,flops_per_element,pipe,weights,kv_cache,fusable,collective,columns"
check "kinds -o: 17 lines" test "$(wc -l <"$tmp/k.csv")" -eq 17
expect_error "kinds -o a directory: exit 1" 1 "^roofline: " kinds -o "$tmp"

run kinds --help
check "kinds --help: exit 0" test "$rc" -eq 0
check "kinds --help: usage" grep -q '^Usage: roofline kinds ' "$tmp/out"

done_testing
