# torch_oplist_sync.py - contrib/torch_oplist.py's ATen table against
# src/atenmap.c's, which it copies (tests/cli_torch_oplist.sh runs it; no
# torch needed): every ATen op both name must have the same kind and
# flops_per_element, and an op only atenmap.c maps must be on the list below
# of those the script leaves as custom rows (docs/torch-oplist.md, "Limits").
# Prints one line per difference; exits 1 when there is any.
import re
import sys

top = sys.argv[1]
# ops atenmap.c maps and the script does not (yet): backward and optimizer
# ops never run in a forward pass on the meta device; the rest need values
# a meta tensor lacks, or rules not ported yet
NOT_PORTED = set("""
_grouped_mm topk sort argsort histc cumsum cumsum_ cumprod floor_divide floor_divide_
remainder fmod diff arange is_nonzero item _local_scalar_dense nll_loss_forward nll_loss
nll_loss_nd nll_loss_backward max_pool2d max_pool2d_with_indices
max_pool2d_with_indices_backward adaptive_avg_pool2d _adaptive_avg_pool2d
native_layer_norm_backward native_batch_norm_backward cudnn_batch_norm_backward
_softmax_backward_data _log_softmax_backward_data convolution_backward
_scaled_dot_product_flash_attention_backward _scaled_dot_product_efficient_attention_backward
_scaled_dot_product_cudnn_attention_backward embedding_backward embedding_dense_backward
select_backward threshold_backward tanh_backward sigmoid_backward silu_backward
gelu_backward native_dropout_backward zeros ones new_zeros new_ones
""".split())

c = open(top + "/src/atenmap.c").read()
cmap = {m[0]: (m[1].lower(), float(m[3])) for m in re.findall(
    r'^\t\{"([A-Za-z0-9_.]+)", RL_KIND_(\w+), R_(\w+), ([0-9.]+), ([-0-9A-Z_]+), ([-0-9A-Z_]+)\}',
    c, re.M)}
src = open(top + "/contrib/torch_oplist.py").read()
ns = {}
exec(src[src.index("MM, BMM, MATMUL"):src.index("# Ops that do no work")], ns)
py = ns["TABLE"]
bad = []
for name, (kind, fpe) in sorted(cmap.items()):
    if name not in py:
        if name not in NOT_PORTED:
            bad.append("%s: mapped by atenmap.c (%s), not by torch_oplist.py" % (name, kind))
        continue
    pk, pf = py[name][0], float(py[name][2])
    if pk != kind or pf != fpe:
        bad.append("%s: atenmap.c %s (flops_per_element %g), torch_oplist.py %s (%g)"
                   % (name, kind, fpe, pk, pf))
for name in sorted(NOT_PORTED & set(py)):
    bad.append("%s: ported now: take it off NOT_PORTED" % name)
for line in bad:
    print("# " + line)
print("# %d ops in atenmap.c, %d in torch_oplist.py, %d not ported, %d differences"
      % (len(cmap), len(py), len(NOT_PORTED), len(bad)))
sys.exit(1 if bad else 0)
