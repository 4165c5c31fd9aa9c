#!/usr/bin/env python3
"""torch_oplist.py - the op list (v1) of a torch.nn.Module, without a GPU.

Runs one forward pass of a module on PyTorch's meta device (tensors with
shapes and dtypes but no storage, so a model larger than the machine's memory
still runs) and records every ATen op it performs, through a dispatch mode
(torch.utils._python_dispatch.TorchDispatchMode), with a function mode
(torch.overrides.TorchFunctionMode) in front for the few composite calls that
`roofline import` sees whole in a profiler trace (F.linear, torch.matmul,
F.scaled_dot_product_attention). Each op becomes an op-list row the way
src/atenmap.c maps it when `roofline import` reads a trace: the same table of
ATen names, kinds, shape rules and flops_per_element (src/aten.def, read from
the source tree beside this script), the rules ported. Rows of a repeated block
(a layer run L times) are written once with count L.

    python3 contrib/torch_oplist.py torchvision.models:resnet50 --input 1x3x224x224
    python3 contrib/torch_oplist.py --hf-config examples/llama3-8b.json --batch 1 --seq 2048 --dtype bf16
    python3 contrib/torch_oplist.py mymodels.py:build -o ops.csv   # build() returns (module, inputs)

As a library:

    from torch_oplist import oplist, write_oplist
    rows = oplist(module, (x,))            # list of dicts, one per row
    write_oplist(rows, sys.stdout)

docs/torch-oplist.md documents the mapping, the merge rule and the limits.
Works with PyTorch 1.13 (Debian 12's python3-torch) and 2.x.
"""

import argparse
import bisect
import importlib
import importlib.util
import os
import re
import sys
import traceback

try:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
except ImportError as _e:  # a clear line, not a traceback
    if __name__ == "__main__":
        sys.stderr.write("torch_oplist.py: needs PyTorch 1.13 or later (%s; Debian: "
                         "apt-get install python3-torch)\n" % _e)
        sys.exit(1)
    raise

try:
    from torch.overrides import TorchFunctionMode
except ImportError:  # older than 1.12: no function mode, dispatch level only
    TorchFunctionMode = None

__all__ = ["oplist", "write_oplist", "build_hf", "load_spec", "meta_device", "parse_input"]

MAX_DIMS = 6  # src/op.h RL_MAX_DIMS

# ---- dtypes: torch dtype -> (op-list name, element size) -------------------

def _dtype_table():
    t = {}
    pairs = [
        ("bfloat16", "bf16", 2), ("float16", "fp16", 2), ("float32", "fp32", 4),
        ("float64", "fp64", 8), ("float8_e4m3fn", "fp8e4m3", 1),
        ("float8_e4m3fnuz", "fp8e4m3", 1), ("float8_e5m2", "fp8e5m2", 1),
        ("float8_e5m2fnuz", "fp8e5m2", 1), ("int64", "int64", 8), ("int32", "int32", 4),
        ("int8", "int8", 1), ("uint8", "int8", 1), ("bool", "int8", 1),
    ]
    for attr, name, size in pairs:
        d = getattr(torch, attr, None)
        if d is not None:
            t[d] = (name, size)
    return t


DTYPES = _dtype_table()
SIZES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8e4m3": 1,
         "fp8e5m2": 1, "int8": 1, "int32": 4, "int64": 8}
NAME_TO_TORCH = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32,
                 "fp64": torch.float64, "int64": torch.int64, "int32": torch.int32,
                 "int8": torch.int8, "bool": torch.bool, "uint8": torch.uint8}
for _n, _a in (("fp8", "float8_e4m3fn"), ("fp8e4m3", "float8_e4m3fn"), ("fp8e5m2", "float8_e5m2")):
    if hasattr(torch, _a):
        NAME_TO_TORCH[_n] = getattr(torch, _a)
INT_NAMES = ("int8", "int32", "int64")


def _esize(t):
    """Element size in bytes of tensor T (its own, whatever our table says)."""
    return t.element_size()


# ---- the ATen table: src/aten.def, which src/atenmap.c includes too ---------
# name: (kind, rule, flops_per_element (0: the kind's default), a, b)

# The rules ported from atenmap.c's enum rule (R_MM ...), by the names
# aten.def gives them; _apply below follows each one.
RULES = ("MM", "BMM", "MATMUL", "LINEAR", "MV", "DOT", "CONV", "SDPA", "SDPA_BSHD", "NORM",
         "GROUPNORM", "BATCHNORM", "INSTNORM", "SOFTMAX", "REDUCE", "POINTWISE", "FILL", "COPY",
         "TO", "EMBEDDING", "INDEX_SELECT", "GATHER", "INDEX", "SCATTER", "CAT", "STACK",
         "FOREACH", "FOREACH_FILL", "FOREACH_NORM", "ADAM")
MM, BMM, MATMUL, LINEAR, MV, DOT, CONV, SDPA, SDPA_BSHD, NORM, GROUPNORM, BATCHNORM, \
    INSTNORM, SOFTMAX, REDUCE, POINTWISE, FILL, COPY, TO, EMBEDDING, INDEX_SELECT, GATHER, \
    INDEX, SCATTER, CAT, STACK, FOREACH, FOREACH_FILL, FOREACH_NORM, ADAM = range(len(RULES))

# The table is not copied here: it is read from src/aten.def beside this
# script in roofline's source tree (contrib/../src/aten.def; the script is not
# installed), so that it maps every op as roofline import does.
ATEN_DEF = os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, "src",
                        "aten.def")
_ATEN_LINE = re.compile(r"^(ATEN|ATEN_TRACE)\((\w+), (\w+), (\w+), ([0-9]+(?:\.[0-9]+)?), "
                        r"(-?\w+), (-?\w+)\)\s*$")
_CONV_LINE = re.compile(r"^ATEN_CONV\((\w+), (-?[0-9]+), (-?[0-9]+), (-?[0-9]+), (-?[0-9]+), "
                        r"(-?[0-9]+)\)\s*$")


def read_aten_def(path=ATEN_DEF):
    """src/aten.def: {name: (kind, rule, flops_per_element, a, b)} of its ATEN
    lines (ATEN_TRACE ops are left out: they become custom rows), the set of
    the ATEN_TRACE ops' names, and the conv layouts of its ATEN_CONV lines:
    their names and, by the same index (a conv row's a), the argument slots
    of stride, padding, dilation, groups and transposed. Raises ValueError
    naming the line for a line this reader cannot take, or a rule not ported
    here."""
    table, trace, layouts, slots = {}, set(), [], []
    with open(path) as f:
        lines = list(enumerate(f, 1))
    for no, line in lines:
        if line.startswith("ATEN_CONV"):
            m = _CONV_LINE.match(line)
            if m is None:
                raise ValueError("%s:%d: not ATEN_CONV(LAYOUT, stride, padding, dilation, "
                                 "groups, transposed)" % (path, no))
            layouts.append(m.group(1))
            slots.append(tuple(int(v) for v in m.groups()[1:]))
    for no, line in lines:
        if line.startswith("ATEN") and not line.startswith("ATEN_CONV"):
            m = _ATEN_LINE.match(line)
            if m is None:
                raise ValueError("%s:%d: not ATEN(name, KIND, RULE, flops_per_element, a, b)"
                                 % (path, no))
            mac, name, kind, rule, fpe, a, b = m.groups()
            if name in table or name in trace:
                raise ValueError("%s:%d: '%s' again" % (path, no, name))
            if mac == "ATEN_TRACE":
                trace.add(name)
                continue
            if rule not in RULES:
                raise ValueError("%s:%d: rule %s is not ported to torch_oplist.py (mark '%s' "
                                 "ATEN_TRACE, or port the rule)" % (path, no, rule, name))
            args = []
            for v in (a, b):
                if v in layouts:
                    args.append(layouts.index(v))
                elif re.match(r"^-?[0-9]+$", v):
                    args.append(int(v))
                else:
                    raise ValueError("%s:%d: '%s' is not a number or a layout of ATEN_CONV "
                                     "(%s)" % (path, no, v, ", ".join(layouts)))
            table[name] = (kind.lower(), RULES.index(rule),
                           float(fpe) if "." in fpe else int(fpe), args[0], args[1])
    return table, trace, layouts, slots


try:
    TABLE, TRACE_ONLY, CONV_LAYOUTS, CONV_SLOTS = read_aten_def()
except (OSError, ValueError) as _e:
    if __name__ == "__main__":
        sys.stderr.write("torch_oplist.py: the ATen table: %s (the script runs from roofline's "
                         "source tree, beside src/aten.def)\n" % _e)
        sys.exit(1)
    raise

# Ops that do no work: views and other metadata (besides every op whose schema
# says its result aliases an input), allocations without a fill, queries.
NO_ROW = set((
    "view _unsafe_view _reshape_alias reshape t transpose permute expand expand_as detach "
    "alias as_strided slice select unsqueeze squeeze split split_with_sizes chunk unbind "
    "narrow diagonal unfold view_as view_as_real view_as_complex real imag movedim "
    "numpy_T lift_fresh _indices _values indices values unsafe_split "
    "unsafe_split_with_sizes unsafe_chunk empty empty_like empty_strided new_empty "
    "new_empty_strided empty_permuted _fused_sdp_choice resize_ _assert_async "
    "_assert_tensor_metadata _functional_assert_async sym_size sym_stride sym_numel "
    "sym_storage_offset is_same_size _has_compatible_shallow_copy_type record_stream "
    "_local_scalar_dense _make_dep_token is_nonzero set_ _nested_tensor_from_mask "
    "_nested_tensor_from_mask_left_aligned dim size stride storage_offset is_contiguous "
    "_assert_scalar sym_constrain_range sym_constrain_range_for_size").split())


# ---- the rules: src/atenmap.c's, over real tensors --------------------------

def _is_tensor(x):
    return isinstance(x, torch.Tensor)


def _tensor(a, i):
    """A tensor argument at schema slot I (not a list), or None."""
    return a[i] if 0 <= i < len(a) and _is_tensor(a[i]) else None


def _numel(dims):
    n = 1
    for d in dims:
        n *= int(d)
    return n


def _tlist(x):
    """The tensors of a list argument, or None when X is not a list of them."""
    if isinstance(x, (list, tuple)) and x and any(_is_tensor(e) for e in x):
        return [e for e in x if _is_tensor(e)]
    return None


def _dtype_of(t):
    return DTYPES.get(t.dtype)


def _op_dtype(a, fallback):
    """The first floating-point tensor input's dtype, else the first tensor's;
    None when a tensor with a dtype we cannot name comes before either."""
    first = None
    for x in a:
        if not _is_tensor(x):
            continue
        d = _dtype_of(x)
        if d is None:
            if first is None:
                return None
            continue
        if d[0] not in INT_NAMES:
            return d[0]
        if first is None:
            first = d[0]
    return first if first is not None else fallback


def _conc_int(a, i):
    if 0 <= i < len(a) and isinstance(a[i], int) and not isinstance(a[i], bool):
        return int(a[i])
    return None


def _conc_list(a, i):
    """[ints] from a list or a bare int at slot I, or None."""
    if not 0 <= i < len(a):
        return None
    v = a[i]
    if isinstance(v, (list, tuple)) and all(isinstance(e, int) and not isinstance(e, bool)
                                            for e in v):
        return [int(e) for e in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return [int(v)]
    return None


def _conc_true(a, i):
    return 0 <= i < len(a) and a[i] is True


def _norm_dim(d, nd):
    if d < 0:
        d += nd
    return d if 0 <= d < nd else None


def _set_shape(row, dims):
    dims = [int(d) for d in dims]
    if any(d == 0 for d in dims):
        return False
    if not dims:
        dims = [1]
    if len(dims) > MAX_DIMS:
        skip = len(dims) - MAX_DIMS
        dims = [_numel(dims[:skip + 1])] + dims[skip + 1:]
    row["shape"] = tuple(dims)
    return True


def _set_rows(row, n, l):
    if n == 0 or l == 0 or n % l != 0:
        return False
    return _set_shape(row, [l] if n == l else [n // l, l])


def _matmul_shape(row, b, m, n, k):
    return _set_shape(row, [m, n, k] if b == 1 else [b, m, n, k])


def _do_mm(e, a, row):
    x, y = _tensor(a, e[3]), _tensor(a, e[3] + 1)
    if x is None or y is None or x.dim() != 2 or y.dim() != 2 or x.shape[1] != y.shape[0]:
        return False
    return _matmul_shape(row, 1, x.shape[0], y.shape[1], x.shape[1])


def _do_bmm(e, a, row):
    x, y = _tensor(a, e[3]), _tensor(a, e[3] + 1)
    if (x is None or y is None or x.dim() != 3 or y.dim() != 3 or x.shape[0] != y.shape[0]
            or x.shape[2] != y.shape[1]):
        return False
    return _matmul_shape(row, x.shape[0], x.shape[1], y.shape[2], x.shape[2])


def _do_matmul(a, row):
    x, y = _tensor(a, 0), _tensor(a, 1)
    if x is None or y is None or x.dim() < 1 or y.dim() < 1:
        return False
    xd, yd = list(x.shape), list(y.shape)
    k = xd[-1]
    if (yd[0] if len(yd) == 1 else yd[-2]) != k:
        return False
    n = 1 if len(yd) == 1 else yd[-1]
    if len(yd) <= 2:
        m = _numel(xd[:-1])
        return m != 0 and _matmul_shape(row, 1, m, n, k)
    m = 1 if len(xd) == 1 else xd[-2]
    batch = 1
    for i in range(max(len(xd), len(yd)) - 2):
        ia, ib = len(xd) - 3 - i, len(yd) - 3 - i
        ba = xd[ia] if ia >= 0 else 1
        bb = yd[ib] if ib >= 0 else 1
        if ba != bb and ba != 1 and bb != 1:
            return False
        batch *= max(ba, bb)
    return _matmul_shape(row, batch, m, n, k)


def _do_linear(a, row):
    x, w = _tensor(a, 0), _tensor(a, 1)
    if x is None or w is None or x.dim() < 1 or w.dim() != 2 or x.shape[-1] != w.shape[1]:
        return False
    m = _numel(x.shape[:-1])
    return m != 0 and _matmul_shape(row, 1, m, w.shape[0], w.shape[1])


def _do_mv(e, a, row):
    x, v = _tensor(a, e[3]), _tensor(a, e[3] + 1)
    if x is None or v is None or x.dim() != 2 or v.dim() != 1 or x.shape[1] != v.shape[0]:
        return False
    return _matmul_shape(row, 1, x.shape[0], 1, x.shape[1])


def _do_dot(a, row):
    x, y = _tensor(a, 0), _tensor(a, 1)
    if x is None or y is None or x.dim() != 1 or y.dim() != 1 or x.shape[0] != y.shape[0]:
        return False
    return _matmul_shape(row, 1, 1, 1, x.shape[0])


def _square(a, i, default):
    """Equal values on both axes ([2, 2] or 2), the default when absent; None if not."""
    if not 0 <= i < len(a) or a[i] is None:
        return default
    v = _conc_list(a, i)
    if v is not None and (len(v) == 1 or (len(v) == 2 and v[0] == v[1])):
        return v[0]
    return None


def _do_conv(e, a, row):
    # stride, padding, dilation, groups, transposed (aten.def's ATEN_CONV)
    s = CONV_SLOTS[e[3]]
    x, w = _tensor(a, 0), _tensor(a, 1)
    if x is None or w is None or x.dim() != 4 or w.dim() != 4 or _conc_true(a, s[4]):
        return False
    stride, dil = _square(a, s[0], 1), _square(a, s[2], 1)
    if stride is None or dil is None or dil != 1 or stride < 1:
        return False
    pads = a[s[1]] if s[1] < len(a) else None
    if pads == "valid":
        pad = 0
    elif pads == "same":
        pad = (w.shape[2] // 2 if stride == 1 and w.shape[2] == w.shape[3] and w.shape[2] & 1
               else -1)
    else:
        pad = _square(a, s[1], 0)
    groups = 1
    if s[3] < len(a) and a[s[3]] is not None:
        groups = _conc_int(a, s[3])
        if groups is None or groups < 1:
            return False
    if pad is None or pad < 0 or x.shape[1] != w.shape[1] * groups:
        return False
    if not _set_shape(row, x.shape):
        return False
    row["kernel"] = (int(w.shape[0]), int(w.shape[2]), int(w.shape[3]))
    row["stride"], row["padding"], row["groups"] = stride, pad, groups
    return True


def _do_sdpa(e, a, row):
    q, k = _tensor(a, 0), _tensor(a, 1)
    bshd = e[1] == SDPA_BSHD
    if (q is None or k is None or q.dim() != 4 or k.dim() != 4 or q.shape[0] != k.shape[0]
            or q.shape[3] != k.shape[3]):
        return False
    b, d = q.shape[0], q.shape[3]
    h, hk = (q.shape[2], k.shape[2]) if bshd else (q.shape[1], k.shape[1])
    sq = q.shape[1] if bshd else q.shape[2]
    sk = k.shape[1] if bshd else k.shape[2]
    if not _set_shape(row, [b, h, sq, d] if sq == sk else [b, h, sq, sk, d]):
        return False
    if e[0] == "_efficient_attention_forward":
        mask = _conc_int(a, e[3])
        row["causal"] = 1 if mask in (1, 2) else 0
    else:
        row["causal"] = 1 if _conc_true(a, e[3]) else 0
    # grouped-query attention (SDPA's enable_gqa): K and V with fewer heads
    if hk != h and hk >= 1 and h % hk == 0:
        row["kv_heads"] = int(hk)
    return True


def _do_norm(e, a, row):
    x = _tensor(a, 0)
    if x is None or x.dim() < 1:
        return False
    v = _conc_list(a, e[3])
    k = len(v) if v is not None else -1
    if k < 1 or k > x.dim():
        k = 1
    if k == 1:
        return _set_shape(row, x.shape)
    return _set_rows(row, x.numel(), _numel(x.shape[x.dim() - k:]))


def _do_groupnorm(e, a, row):
    x, g = _tensor(a, 0), _conc_int(a, e[3])
    if x is None or x.dim() < 2 or g is None or g < 1 or x.shape[1] % g != 0:
        return False
    total = x.numel()
    return _set_rows(row, total, total // (x.shape[0] * g))


def _do_batchnorm(a, row, inst):
    """instance norm: N x C rows of the spatial size."""
    x = _tensor(a, 0)
    if x is None or x.dim() < 2:
        return False
    total = x.numel()
    return _set_rows(row, total, total // (x.shape[0] * x.shape[1]) if inst
                     else total // x.shape[1])


def _do_batchnorm_pw(e, a, row):
    """batch norm as atenmap.c's do_batchnorm_pw: a pointwise row of the
    input's shape (its statistics are per channel over N x H x W, which
    PyTorch's kernels split); in training x is read twice and y written
    (inputs 2, 7 FLOPs per element), in eval y = a x + b (inputs 1, 2)."""
    x = _tensor(a, 0)
    if x is None or x.dim() < 2:
        return False
    train = e[3] >= 0 and _conc_true(a, e[3])
    row["inputs"] = 2 if train else 1
    row["fpe"] = 7 if train else 2
    return _set_shape(row, x.shape)


def _do_softmax(e, a, row):
    x = _tensor(a, 0)
    if x is None or x.dim() < 1:
        return False
    d = _conc_int(a, e[3])
    dim = _norm_dim(d, x.dim()) if d is not None else None
    if dim is None:
        dim = x.dim() - 1
    if dim == x.dim() - 1:
        return _set_shape(row, x.shape)
    return _set_rows(row, x.numel(), x.shape[dim])


def _do_reduce(e, a, row):
    x = _tensor(a, 0)
    if x is None:
        return False
    total = x.numel()
    v = None
    if e[3] < len(a):
        arg = a[e[3]]
        if isinstance(arg, (list, tuple)) or (e[4] and isinstance(arg, int)
                                              and not isinstance(arg, bool)):
            v = _conc_list(a, e[3])
    if not v or x.dim() == 0:
        return _set_rows(row, total, total)
    seen, l = set(), 1
    for d in v:
        i = _norm_dim(d, x.dim())
        if i is None or i in seen:
            return False
        seen.add(i)
        l *= x.shape[i]
    return _set_rows(row, total, l)


def _do_pointwise(a, row):
    ts = [x for x in a if _is_tensor(x)]
    if not ts:
        return False
    nd = max(x.dim() for x in ts)
    out = [1] * nd
    for x in ts:
        for j, d in enumerate(x.shape):
            o = nd - x.dim() + j
            if out[o] == 1:
                out[o] = int(d)
            elif d != 1 and d != out[o]:
                return False
    n = _numel(out)
    if n == 0:
        return False
    es = SIZES[row["dtype"]]
    inputs, exact, nbytes = 0, True, 0
    for x in ts:
        k = x.numel()
        if k == 0 or (k == 1 and n > 1):
            continue
        if k == n and _esize(x) == es:
            inputs += 1
        else:
            exact = False
        nbytes += k * _esize(x)
    if not _set_shape(row, out):
        return False
    row["inputs"] = inputs
    if not exact:
        row["bytes"] = nbytes + n * es
    return True


def _do_fill(a, row):
    x = _tensor(a, 0)
    if x is None or not _set_shape(row, x.shape):
        return False
    row["inputs"] = 0
    row["fpe"] = 0
    return True


def _convert_bytes(row, n, dst):
    src = SIZES[row["dtype"]]
    if dst and dst != src:
        row["bytes"] = n * (src + dst)


def _do_copy(e, a, row):
    src, dst = _tensor(a, e[3]), _tensor(a, 0)
    if src is None or not _set_shape(row, src.shape):
        return False
    d = _dtype_of(src)
    if d is not None:
        row["dtype"] = d[0]
    if e[3] != 0 and dst is not None:
        _convert_bytes(row, src.numel(), _esize(dst))
    return True


def _do_to(a, row, out):
    x = _tensor(a, 0)
    if x is None or not _set_shape(row, x.shape):
        return False
    # the destination dtype: the result's (a trace records it as an argument)
    if _is_tensor(out):
        _convert_bytes(row, x.numel(), _esize(out))
    return True


def _do_embedding(a, row):
    w, idx = _tensor(a, 0), _tensor(a, 1)
    if w is None or idx is None or w.dim() != 2:
        return False
    return _set_shape(row, [idx.numel(), w.shape[1]])


def _do_index_select(a, row):
    x, idx, dim = _tensor(a, 0), _tensor(a, 2), _conc_int(a, 1)
    if x is None or idx is None or x.dim() < 1 or dim is None:
        return False
    i = _norm_dim(dim, x.dim())
    if i is None:
        return False
    d = list(x.shape)
    d[i] = idx.numel()
    return _set_shape(row, d)


def _do_index(a, row):
    x = _tensor(a, 0)
    if x is None or len(a) < 2 or not isinstance(a[1], (list, tuple)) or not a[1] \
            or len(a[1]) > x.dim():
        return False
    first = next((t for t in a[1] if _is_tensor(t) and t.dim() > 0), None)
    if first is None:
        return False
    return _set_shape(row, list(first.shape) + list(x.shape[len(a[1]):]))


def _do_cat(e, a, row):
    ts = _tlist(a[0]) if a else None
    if not ts:
        return False
    total = sum(t.numel() for t in ts)
    first = next((t for t in ts if t.numel() > 0), None)
    if total == 0 or first is None:
        return False
    fd = list(first.shape)
    if e[1] == STACK:
        d = [len(a[0])] + fd
        if _numel(d) == total:
            return _set_shape(row, d)
    else:
        dim = _conc_int(a, 1)
        i = _norm_dim(dim if dim is not None else 0, len(fd))
        rest = _numel(fd) // fd[i] if i is not None else 0
        if i is not None and rest > 0 and total % rest == 0:
            fd[i] = total // rest
            return _set_shape(row, fd)
    return _set_shape(row, [total])


def _do_foreach(e, a, row):
    total, lists = 0, 0
    for x in a:
        ts = _tlist(x)
        if ts is None:
            continue
        k = sum(t.numel() for t in ts)
        if total == 0:
            total = k
        if k == total and k > 0:
            lists += 1
    if total == 0 or not _set_shape(row, [total]):
        return False
    if e[1] == FOREACH_FILL:
        row["inputs"], row["fpe"] = 0, 0
    elif e[0] == "pointwise":
        row["inputs"] = lists
    return True


def _do_adam(a, row):
    ts = _tlist(a[0]) if a else None
    if not ts:
        return False
    total = sum(t.numel() for t in ts)
    reads = 5 if len(a) > 4 and _tlist(a[4]) else 4
    if total == 0 or not _set_shape(row, [total]):
        return False
    row["inputs"] = reads
    row["bytes"] = total * SIZES[row["dtype"]] * (reads + 3)
    return True


def _apply(e, a, row, out):
    r = e[1]
    if r == MM:
        return _do_mm(e, a, row)
    if r == BMM:
        return _do_bmm(e, a, row)
    if r == MATMUL:
        return _do_matmul(a, row)
    if r == LINEAR:
        return _do_linear(a, row)
    if r == MV:
        return _do_mv(e, a, row)
    if r == DOT:
        return _do_dot(a, row)
    if r == CONV:
        return _do_conv(e, a, row)
    if r in (SDPA, SDPA_BSHD):
        return _do_sdpa(e, a, row)
    if r == NORM:
        return _do_norm(e, a, row)
    if r == GROUPNORM:
        return _do_groupnorm(e, a, row)
    if r == BATCHNORM:
        return _do_batchnorm_pw(e, a, row)
    if r == INSTNORM:
        return _do_batchnorm(a, row, True)
    if r == SOFTMAX:
        return _do_softmax(e, a, row)
    if r == REDUCE:
        return _do_reduce(e, a, row)
    if r == POINTWISE:
        return _do_pointwise(a, row)
    if r == FILL:
        return _do_fill(a, row)
    if r == COPY:
        return _do_copy(e, a, row)
    if r == TO:
        return _do_to(a, row, out)
    if r == EMBEDDING:
        return _do_embedding(a, row)
    if r == INDEX_SELECT:
        return _do_index_select(a, row)
    if r == GATHER:
        x = _tensor(a, 2)
        return x is not None and _set_shape(row, x.shape)
    if r == INDEX:
        return _do_index(a, row)
    if r == SCATTER:
        x = _tensor(a, e[3]) if _tensor(a, e[3]) is not None else _tensor(a, 2)
        return x is not None and _set_shape(row, x.shape)
    if r in (CAT, STACK):
        return _do_cat(e, a, row)
    if r in (FOREACH, FOREACH_FILL, FOREACH_NORM):
        return _do_foreach(e, a, row)
    if r == ADAM:
        return _do_adam(a, row)
    return False


def _flatten_tensors(x, acc):
    if _is_tensor(x):
        acc.append(x)
    elif isinstance(x, (list, tuple)):
        for e in x:
            _flatten_tensors(e, acc)
    elif isinstance(x, dict):
        for e in x.values():
            _flatten_tensors(e, acc)
    return acc


def _custom(row, a, out, fallback):
    """An op without a mapping: no FLOPs; bytes = every tensor input read
    once and every tensor output written once (src/atenmap.c counts the
    inputs only: a trace records no outputs)."""
    d = _op_dtype(a, None)
    if d is None:  # no tensor input (arange, zeros): the result's dtype
        outs = [DTYPES.get(t.dtype) for t in _flatten_tensors(out, [])]
        d = outs[0][0] if outs and outs[0] is not None else fallback
    row.update(kind="custom", dtype=d, shape=None,
               kernel=None, causal=None, kv_heads=None, inputs=None, fpe=None, flops=0)
    row["bytes"] = sum(t.numel() * _esize(t) for t in _flatten_tensors(list(a), [])) + \
        sum(t.numel() * _esize(t) for t in _flatten_tensors(out, []))


def map_op(name, a, out, fallback="fp32"):
    """One ATen call as a row dict: NAME without "aten::", A its arguments in
    schema order, OUT its result. Returns (row, mapped)."""
    row = {"kind": None, "dtype": fallback, "shape": None, "kernel": None, "stride": None,
           "padding": None, "groups": None, "causal": None, "kv_heads": None,
           "inputs": None, "fpe": None, "flops": None, "bytes": None, "count": 1}
    e = TABLE.get(name)
    lfall = fallback
    for x in a:  # a list of tensors (cat) has its elements' dtype
        ts = _tlist(x)
        if ts and _dtype_of(ts[0]) is not None:
            lfall = _dtype_of(ts[0])[0]
            break
    d = _op_dtype(a, lfall) if e is not None else None
    if e is None or d is None:
        _custom(row, a, out, lfall)
        return row, False
    row["kind"], row["dtype"] = e[0], d
    if e[2] > 0:
        row["fpe"] = e[2]
    try:
        ok = _apply((name,) + e[1:] if e[1] in (SDPA, SDPA_BSHD) else e, a, row, out)
    except (TypeError, ValueError, IndexError):
        ok = False
    if not ok:
        _custom(row, a, out, lfall)
        return row, False
    return row, True


# ---- recording ----------------------------------------------------------------

def _schema_args(func, args, kwargs):
    """The call's arguments in schema order (defaults where not given)."""
    out = list(args)
    try:
        sargs = func._schema.arguments
    except AttributeError:
        return out
    for i in range(len(out), len(sargs)):
        s = sargs[i]
        if s.name in kwargs:
            out.append(kwargs[s.name])
        else:
            out.append(getattr(s, "default_value", None))
    return out


def _is_view(func):
    try:
        rets = func._schema.returns
    except AttributeError:
        return False
    if not rets:
        return False
    for r in rets:
        ai = r.alias_info
        if ai is None or ai.is_write:
            return False
    return True


class _Node(object):
    """One module call: its name and what ran in it, rows and calls in order."""

    def __init__(self, name):
        self.name = name
        self.items = []


class _Recorder(object):
    def __init__(self, fallback):
        self.fallback = fallback
        self.root = _Node("")
        self.stack = [self.root]
        self.unknown = {}
        self.quiet = 0
        self.branches = 0

    def where(self):
        return self.stack[-1].name

    def append(self, name, row):
        where = self.where()
        row["name"] = (where + ":" if where else "") + name
        self.stack[-1].items.append(row)

    def add(self, name, a, out):
        row, mapped = map_op(name, a, out, self.fallback)
        if not mapped:
            self.unknown[name] = self.unknown.get(name, 0) + 1
        self.append(name, row)
        return mapped

    def enter(self, name):
        node = _Node(name)
        self.stack[-1].items.append(node)
        self.stack.append(node)

    def leave(self, name):
        if len(self.stack) > 1 and self.stack[-1].name == name:
            self.stack.pop()


class _DispatchMode(TorchDispatchMode):
    def __init__(self, rec):
        super(_DispatchMode, self).__init__()
        self.rec = rec

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func._schema.name
        if name.startswith("aten::"):
            name = name[6:]
        if name == "_local_scalar_dense" and args and _is_tensor(args[0]) \
                and args[0].device.type == "meta":
            # A meta tensor holds no values: a Python branch on one (if
            # mask.all(): ...) gets True, the answer for the all-ones masks and
            # unpadded inputs that model code checks for; any other value is an
            # error naming the op.
            if args[0].dtype == torch.bool:
                self.rec.branches += 1
                return True
            raise RuntimeError("the model reads a value of a %s tensor (Tensor.item() or a "
                               "Python branch on a tensor): a meta tensor has no values"
                               % args[0].dtype)
        out = func(*args, **kwargs)
        if self.rec.quiet:
            return out
        if name in NO_ROW or _is_view(func):
            return out
        self.rec.add(name, _schema_args(func, args, kwargs), out)
        return out


# Composite calls recorded whole, as the profiler's outermost op is: the
# attribute (owner, name), the ATen op, the names of its arguments after the
# positional ones. While recording, each is replaced by a wrapper that writes
# one row and keeps the ATen ops it runs from writing theirs. (A function mode
# would see them too, but not inside another Python-level override such as
# F.multi_head_attention_forward: a mode is off while it handles a call.)
def _captured():
    F = torch.nn.functional
    lin = ("linear", ("input", "weight", "bias"))
    mat = ("matmul", ("input", "other"))
    sdpa = ("scaled_dot_product_attention",
            ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale",
             "enable_gqa"))
    c = [(F, "linear", lin), (torch, "matmul", mat), (torch.Tensor, "matmul", mat),
         (torch.Tensor, "__matmul__", mat)]
    if hasattr(F, "scaled_dot_product_attention"):
        c.append((F, "scaled_dot_product_attention", sdpa))
    return c


class _Captures(object):
    def __init__(self, rec):
        self.rec = rec
        self.saved = []

    def wrap(self, orig, aten, names):
        rec = self.rec

        def wrapper(*args, **kwargs):
            if rec.quiet:
                return orig(*args, **kwargs)
            rec.quiet += 1
            try:
                out = orig(*args, **kwargs)
            finally:
                rec.quiet -= 1
            a = list(args) + [kwargs.get(n) for n in names[len(args):]]
            row, mapped = map_op(aten, a, out, rec.fallback)
            if mapped:
                rec.append(aten, row)
                return out
            return orig(*args, **kwargs)  # record its parts instead
        wrapper.__name__ = getattr(orig, "__name__", aten)
        wrapper.__doc__ = getattr(orig, "__doc__", None)
        return wrapper

    def __enter__(self):
        for owner, attr, (aten, names) in _captured():
            had = attr in owner.__dict__
            orig = getattr(owner, attr)
            self.saved.append((owner, attr, had, orig))
            setattr(owner, attr, self.wrap(orig, aten, names))
        return self

    def __exit__(self, *exc):
        for owner, attr, had, orig in reversed(self.saved):
            if had:
                setattr(owner, attr, orig)
            else:
                delattr(owner, attr)
        self.saved = []
        return False


def _hooks(module, rec):
    handles = []
    for name, m in module.named_modules():
        if not name:
            continue

        def pre(mod, inp, name=name):
            rec.enter(name)

        def post(mod, inp, out, name=name):
            rec.leave(name)

        handles.append(m.register_forward_pre_hook(pre))
        handles.append(m.register_forward_hook(post))
    return handles


# ---- merging repeated blocks ----------------------------------------------------

_NUM = re.compile(r"^[0-9]+$")
KEY_COLS = ("kind", "dtype", "shape", "kernel", "stride", "padding", "groups", "causal",
            "kv_heads", "inputs", "fpe", "flops", "bytes")


def _general(name):
    """NAME with every numeric component of its module path as '*'."""
    path, sep, op = name.rpartition(":")
    if not sep:
        return name
    return ".".join("*" if _NUM.match(p) else p for p in path.split(".")) + ":" + op


def _join_names(names):
    """One name for rows merged together: path components that differ become '*'."""
    if all(n == names[0] for n in names):
        return names[0]
    split = [n.rpartition(":") for n in names]
    parts = [p[0].split(".") for p in split]
    if any(p[2] != split[0][2] for p in split) or any(len(p) != len(parts[0]) for p in parts):
        return _general(names[0])
    path = ".".join(c[0] if all(x == c[0] for x in c) else "*" for c in zip(*parts))
    return path + ":" + split[0][2] if split[0][1] else path


def _flat(items):
    rows = []
    for it in items:
        if isinstance(it, _Node):
            rows.extend(_flat(it.items))
        else:
            rows.append(it)
    return rows


def merge_tree(root, merge=True):
    """The rows of a call tree in the order they ran; with MERGE, repeats as
    counts (docs/torch-oplist.md): within each module call, the sequence of
    its rows and sub-calls is scanned from the start, and at each position the
    block of p items that repeats r >= 2 times back to back, covering the most
    items (p x r; the shortest p on a tie), is written once with its counts
    multiplied by r; the first repeat stands for all, and a path component
    that differs between the repeats is written '*' (layers.*.mlp). Two rows
    are the same when every column is, and so are their names once numbers in
    the module path (layers.0, layers.1) are set aside; two calls are the
    same when their names are so and their contents are the same in order.
    Count x FLOPs and count x bytes, summed, never change."""
    if not merge:
        rows = [dict(r) for r in _flat(root.items)]
        for r in rows:
            r["count"] = 1
        return rows
    keys = {}

    def sig(it):
        if isinstance(it, _Node):
            k = ("call", _general(it.name + ":")) + tuple(sig(c) for c in it.items)
        else:
            k = (_general(it["name"]),) + tuple(it.get(c) for c in KEY_COLS)
        return keys.setdefault(k, len(keys))

    def emit(items, mult):
        ids = [sig(it) for it in items]
        pos = {}
        for i, k in enumerate(ids):
            pos.setdefault(k, []).append(i)
        out, i, hi = [], 0, len(items)
        while i < hi:
            best_p, best_r = 0, 1
            plist = pos[ids[i]]
            j = bisect.bisect_right(plist, i)
            while j < len(plist) and plist[j] - i <= (hi - i) // 2:
                p = plist[j] - i
                r = 1
                while i + (r + 1) * p <= hi and ids[i + r * p:i + (r + 1) * p] == ids[i:i + p]:
                    r += 1
                if r >= 2 and p * r > best_p * best_r:
                    best_p, best_r = p, r
                j += 1
            p, r = (best_p, best_r) if best_r >= 2 else (1, 1)
            reps = []
            for s in range(r):
                block = []
                for it in items[i + s * p:i + (s + 1) * p]:
                    if isinstance(it, _Node):
                        block.extend(emit(it.items, 1))
                    else:
                        block.append(dict(it, count=1))
                reps.append(block)
            for t, row in enumerate(reps[0]):
                row["name"] = _join_names([b[t]["name"] for b in reps])
                row["count"] *= mult * r
                out.append(row)
            i += p * r
        return out

    return emit(root.items, 1)


# ---- the entry points ---------------------------------------------------------

def _to_meta(x, dtype=None):
    if _is_tensor(x):
        if x.device.type != "meta":
            x = x.to("meta")
        if dtype is not None and x.is_floating_point():
            x = x.to(dtype)
        return x
    if isinstance(x, tuple):
        return tuple(_to_meta(e, dtype) for e in x)
    if isinstance(x, list):
        return [_to_meta(e, dtype) for e in x]
    if isinstance(x, dict):
        return dict((k, _to_meta(v, dtype)) for k, v in x.items())
    return x


def oplist(module, inputs=(), kwargs=None, dtype=None, merge=True, warn=None):
    """The op list of one forward pass of MODULE on INPUTS (a tensor, or a
    tuple of positional arguments) and KWARGS (keyword arguments), on the meta
    device: a list of row dicts (name, kind, dtype, shape, kernel, stride,
    padding, groups, causal, kv_heads, inputs, fpe, flops, bytes, count), in
    the order the ops ran. DTYPE (a torch.dtype) casts the module's floating
    parameters and the floating inputs first. MERGE writes repeated blocks once
    with a count. WARN, when given, is called with one line naming the ops that
    had no mapping (they are custom rows). The module is moved to the meta
    device (no memory) and put in eval mode."""
    tdtype = NAME_TO_TORCH[dtype] if isinstance(dtype, str) else dtype
    module = module.to("meta")
    if tdtype is not None:
        module = module.to(tdtype)
    module.eval()
    if _is_tensor(inputs) or isinstance(inputs, dict):
        inputs = (inputs,)
    inputs = _to_meta(tuple(inputs), tdtype)
    kwargs = _to_meta(dict(kwargs or {}), tdtype)
    fallback = "fp32"
    for p in list(module.parameters()) + [x for x in inputs if _is_tensor(x)]:
        if p.is_floating_point() and _dtype_of(p) is not None:
            fallback = _dtype_of(p)[0]
            break
    rec = _Recorder(fallback)
    handles = _hooks(module, rec)
    try:
        with torch.no_grad(), _Captures(rec), _DispatchMode(rec):
            module(*inputs, **kwargs)
    finally:
        for h in handles:
            h.remove()
    if warn is not None and rec.branches:
        warn("%d Python branch%s on a boolean meta tensor taken as True (if mask.all())"
             % (rec.branches, "" if rec.branches == 1 else "es"))
    if warn is not None and rec.unknown:
        warn("%d op%s without a mapping, written as custom rows (flops 0, bytes in + out): %s"
             % (sum(rec.unknown.values()), "" if sum(rec.unknown.values()) == 1 else "s",
                ", ".join("%s x%d" % (k, v) for k, v in sorted(rec.unknown.items()))))
    return merge_tree(rec.root, merge)


COLUMNS = ("name", "kind", "dtype", "shape", "kernel", "stride", "padding", "groups", "causal",
           "kv_heads", "inputs", "flops_per_element", "flops", "bytes", "count")


def _csv_text(s):
    if re.search(r'[,"\r\n]', s) or s[:1] in (" ", "\t", "#") or s[-1:] in (" ", "\t"):
        return '"' + s.replace('"', '""') + '"'
    return s


def _num(v):
    if v is None:
        return ""
    if float(v) == int(v) and abs(v) < 2 ** 53:
        return str(int(v))
    return repr(float(v))


def _fpe(v):
    if v is None:
        return ""
    return ("%g" % v)


def write_oplist(rows, out, comments=()):
    """Writes ROWS as op list v1 (docs/oplist-format.md) to the file OUT,
    after the comment lines COMMENTS."""
    out.write("# op list v1 (docs/oplist-format.md), written by contrib/torch_oplist.py\n")
    for c in comments:
        out.write("# " + c.replace("\n", " ") + "\n")
    out.write(",".join(COLUMNS) + "\n")
    for r in rows:
        conv = r["kind"] == "conv2d"
        cells = [
            _csv_text(r["name"]), r["kind"], r["dtype"],
            "x".join(str(d) for d in r["shape"]) if r.get("shape") else "",
            "x".join(str(d) for d in r["kernel"]) if conv else "",
            str(r["stride"]) if conv else "", str(r["padding"]) if conv else "",
            str(r["groups"]) if conv else "",
            str(r.get("causal") or 0) if r["kind"] == "attention" else "",
            str(r["kv_heads"]) if r.get("kv_heads") else "",
            str(r["inputs"]) if r["kind"] == "pointwise" and r.get("inputs") is not None else "",
            _fpe(r.get("fpe")), _num(r.get("flops")), _num(r.get("bytes")),
            str(r.get("count", 1)),
        ]
        out.write(",".join(cells) + "\n")


# ---- building models ------------------------------------------------------------

class meta_device(object):
    """Builds tensors on the meta device: torch.device('meta') as a context
    where PyTorch has it (2.0 and later), a function mode that puts
    device='meta' on the factory functions otherwise (1.13)."""

    FACTORIES = ("empty", "zeros", "ones", "full", "rand", "randn", "randint", "tensor",
                 "arange", "empty_strided", "eye", "linspace", "logspace", "normal",
                 "as_tensor", "scalar_tensor", "randperm", "range")

    def __enter__(self):
        dev = torch.device("meta")
        if hasattr(dev, "__enter__"):
            self.ctx = dev
        else:
            names = self.FACTORIES

            class _Meta(TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    kwargs = dict(kwargs or {})
                    if getattr(func, "__name__", "") in names and \
                            getattr(func, "__module__", "") in ("torch", "torch._C._VariableFunctions", None):
                        kwargs["device"] = "meta"
                    return func(*args, **kwargs)

            self.ctx = _Meta()
        self.ctx.__enter__()
        return self

    def __exit__(self, *exc):
        return self.ctx.__exit__(*exc)


def load_spec(spec):
    """MODULE_SPEC -> an object: 'pkg.mod:attr' (importable) or 'file.py:attr'."""
    if ":" not in spec:
        raise ValueError("module spec '%s': expected MODULE:NAME or FILE.py:NAME "
                         "(e.g. torchvision.models:resnet50)" % spec)
    where, attr = spec.rsplit(":", 1)
    if where.endswith(".py") or os.sep in where:
        if not os.path.exists(where):
            raise ValueError("module spec '%s': no file '%s'" % (spec, where))
        name = "_torch_oplist_" + re.sub(r"\W", "_", os.path.basename(where)[:-3])
        s = importlib.util.spec_from_file_location(name, where)
        mod = importlib.util.module_from_spec(s)
        sys.modules[name] = mod
        s.loader.exec_module(mod)
    else:
        mod = importlib.import_module(where)
    obj = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError("module spec '%s': '%s' has no attribute '%s'"
                             % (spec, where if obj is mod else getattr(obj, "__name__", where),
                                part))
        obj = getattr(obj, part)
    return obj


def build_hf(config_path, dtype=None):
    """A transformers causal LM from a config.json, built on the meta device."""
    from transformers import AutoConfig, AutoModelForCausalLM
    cfg = AutoConfig.from_pretrained(config_path)
    cfg.use_cache = False
    with meta_device():
        try:
            model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa")
        except (TypeError, ValueError, ImportError):
            model = AutoModelForCausalLM.from_config(cfg)
    return model


def parse_input(text, default_dtype):
    """'8x1024[:bf16]' -> a meta tensor of that shape and dtype."""
    shape, _, dt = text.partition(":")
    try:
        dims = [int(d) for d in shape.split("x")]
    except ValueError:
        dims = []
    if not dims or any(d < 0 for d in dims):
        raise ValueError("--input '%s': expected dims joined by 'x' (e.g. 8x1024 or "
                         "1x128:int64)" % text)
    dt = dt or default_dtype
    if dt not in NAME_TO_TORCH:
        raise ValueError("--input '%s': unknown dtype '%s' (one of %s)"
                         % (text, dt, ", ".join(sorted(NAME_TO_TORCH))))
    return torch.empty(dims, dtype=NAME_TO_TORCH[dt], device="meta")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="torch_oplist.py",
        description="Write the op list (v1) of a torch.nn.Module's forward pass, run on "
                    "the meta device (no GPU, no memory for the weights).")
    ap.add_argument("spec", nargs="?", metavar="MODULE_SPEC",
                    help="pkg.module:factory (torchvision.models:resnet50) or file.py:function; "
                         "the factory is called with no arguments and returns a module or "
                         "(module, inputs)")
    ap.add_argument("--input", action="append", default=[], metavar="SHAPE[:DTYPE]",
                    help="a positional input, e.g. 1x3x224x224 or 1x128:int64 (repeatable)")
    ap.add_argument("--dtype", metavar="T", help="cast the module and floating inputs: "
                    "bf16, fp16, fp32, fp64")
    ap.add_argument("--hf-config", metavar="CONFIG.json",
                    help="a transformers config: AutoModelForCausalLM.from_config on meta, "
                         "input_ids of --batch x --seq")
    ap.add_argument("--batch", type=int, default=1, help="--hf-config: batch (default 1)")
    ap.add_argument("--seq", type=int, default=128, help="--hf-config: tokens (default 128)")
    ap.add_argument("--no-merge", action="store_true",
                    help="one row per call: do not merge repeated blocks into counts")
    ap.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    o = ap.parse_args(argv)

    def warn(msg):
        sys.stderr.write("torch_oplist.py: warning: %s\n" % msg)

    if (o.spec is None) == (o.hf_config is None):
        ap.error("give one of MODULE_SPEC or --hf-config")
    if o.dtype is not None and o.dtype not in ("bf16", "fp16", "fp32", "fp64"):
        ap.error("--dtype '%s': expected bf16, fp16, fp32 or fp64" % o.dtype)
    try:
        inputs, kwargs = (), {}
        if o.hf_config:
            module = build_hf(o.hf_config, o.dtype)
            kwargs = {"input_ids": torch.empty(o.batch, o.seq, dtype=torch.int64,
                                               device="meta")}
            source = "%s (transformers %s), input_ids %dx%d" % (
                o.hf_config, __import__("transformers").__version__, o.batch, o.seq)
        else:
            obj = load_spec(o.spec)
            if isinstance(obj, torch.nn.Module):
                module = obj
            elif callable(obj):
                with meta_device():
                    try:
                        module = obj()
                    except TypeError as e:
                        raise ValueError("module spec '%s': calling it with no arguments "
                                         "failed: %s" % (o.spec, e))
            else:
                raise ValueError("module spec '%s' is neither a module nor callable" % o.spec)
            if isinstance(module, tuple):
                module, inputs = module[0], module[1] if len(module) > 1 else ()
            if not isinstance(module, torch.nn.Module):
                raise ValueError("module spec '%s' did not give a torch.nn.Module" % o.spec)
            source = o.spec
        if o.input:
            inputs = tuple(parse_input(t, o.dtype or "fp32") for t in o.input)
        if _is_tensor(inputs):
            inputs = (inputs,)
        if not inputs and not kwargs:
            raise ValueError("no inputs: give --input SHAPE[:DTYPE] (e.g. --input 1x3x224x224)")
        rows = oplist(module, inputs, kwargs, dtype=o.dtype, merge=not o.no_merge, warn=warn)
    except (ValueError, ImportError, RuntimeError) as e:
        # where in the model's code (not torch's, not ours) it happened
        here = [f for f in traceback.extract_tb(sys.exc_info()[2])
                if os.sep + "torch" + os.sep not in f.filename and f.filename != __file__]
        at = " (at %s:%d)" % (here[-1].filename, here[-1].lineno) if here else ""
        sys.stderr.write("torch_oplist.py: %s%s\n" % (str(e).strip().split("\n")[0], at))
        return 1
    shown = ", ".join("x".join(str(d) for d in t.shape) + ":" + (_dtype_of(t) or ("?",))[0]
                      for t in _flatten_tensors([inputs, kwargs], []))
    comments = ["model: %s; inputs: %s%s" % (source, shown,
                                            "; --dtype " + o.dtype if o.dtype else ""),
                "torch %s, meta device; one row per ATen op that does work (views write none)"
                % torch.__version__.split("+")[0],
                "rows repeated back to back (a layer L times) are one block with count L"
                if not o.no_merge else "one row per call (--no-merge)"]
    if o.output:
        tmp = o.output + ".tmp"
        with open(tmp, "w") as f:
            write_oplist(rows, f, comments)
        os.replace(tmp, o.output)
    else:
        write_oplist(rows, sys.stdout, comments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
