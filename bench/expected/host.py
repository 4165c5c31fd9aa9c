# Host cost per op kind of eager PyTorch, and what calling through nn.Module
# adds (hwdb/eager.runtime, hwdb/module.runtime; docs/expected.md), and the
# memory bandwidth PyTorch's own kernels reach by access mix (item 2 of
# issue 12). Run on the GPU machine: python3 bench/expected/host.py
# (--quant: only the host cost of the quantised GEMM paths, issue 26)
import platform, statistics, sys, time

import torch
import torch.nn as nn
import torch.nn.functional as F

dev = "cuda"
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0),
      "python", platform.python_version())
torch.backends.cuda.matmul.allow_tf32 = False


def per_call(fn, n=20000, runs=5):
    """Median over RUNS of the wall time per call of N back-to-back calls,
    one synchronize at the end; the host time alone (before the synchronize)
    beside it."""
    for _ in range(500):
        fn()
    torch.cuda.synchronize()
    tot, host = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        host.append((t1 - t0) / n * 1e6)
        tot.append((t2 - t0) / n * 1e6)
    return statistics.median(tot), statistics.median(host)


def gpu_per_call(fn, k=200):
    """GPU time per call in a CUDA graph of K calls (warm L2)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(); fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(k):
            fn()
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(7):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record(); g.replay(); e1.record(); e1.synchronize()
        ts.append(e0.elapsed_time(e1) * 1e3 / k)
    return statistics.median(ts)


BF = torch.bfloat16
r = lambda *s, dtype=BF: torch.randn(*s, device=dev, dtype=dtype)


def quant_paths():
    """Host cost per call of the quantised GEMM paths (issue 26): each is a
    matmul op of the op list with its own dtype, but its own ATen entry point
    (torch._int_mm, torch._scaled_mm, torch._weight_int4pack_mm,
    torch._weight_int8pack_mm), with torch.mm of the same tiny shape beside
    them as the matmul key's control."""
    a = r(32, 64)
    w = r(64, 64)
    i8a = torch.randint(-128, 127, (32, 64), dtype=torch.int8, device=dev)
    i8b = torch.randint(-128, 127, (64, 64), dtype=torch.int8, device=dev).t()
    f8a = r(32, 64).to(torch.float8_e4m3fn)
    f8b = r(64, 64).to(torch.float8_e4m3fn).t()
    one = torch.tensor(1.0, device=dev)
    sa, sb = torch.ones(32, 1, device=dev), torch.ones(1, 64, device=dev)
    x1 = r(1, 256)
    a32 = r(32, 256)
    try:  # torch >= 2.5: uint8 [N, K / 2] (measure.py's add_int4_wo)
        packed = torch._convert_weight_to_int4pack(
            torch.randint(0, 255, (256, 128), dtype=torch.uint8, device=dev), 8)
    except Exception:  # noqa: BLE001 - older: int32 [N, K]
        packed = torch._convert_weight_to_int4pack(
            torch.randint(0, 15, (256, 256), dtype=torch.int32, device=dev), 8)
    sz = torch.rand(2, 256, 2, device=dev, dtype=BF) + 0.5
    w8 = torch.randint(-128, 127, (256, 256), dtype=torch.int8, device=dev)
    s8 = torch.rand(256, device=dev, dtype=BF) + 0.5
    paths = [
        ("matmul", "torch.mm (32x64x64)", lambda: torch.mm(a, w)),
        ("matmul.int8", "torch._int_mm (32x64x64)", lambda: torch._int_mm(i8a, i8b)),
        ("matmul.fp8", "torch._scaled_mm per-tensor (32x64x64)",
         lambda: torch._scaled_mm(f8a, f8b, scale_a=one, scale_b=one, out_dtype=BF)),
        ("matmul.fp8", "torch._scaled_mm row-wise (32x64x64)",
         lambda: torch._scaled_mm(f8a, f8b, scale_a=sa, scale_b=sb, out_dtype=BF)),
        ("matmul.weight_int4", "torch._weight_int4pack_mm (1x256x256, g128)",
         lambda: torch._weight_int4pack_mm(x1, packed, 128, sz)),
        ("matmul.weight_int8", "torch._weight_int8pack_mm (1x256x256)",
         lambda: torch._weight_int8pack_mm(x1, w8, s8)),
        # gpt-fast's WeightOnlyInt8Linear and torchao's int8_weight_only, eager:
        # the cast, the GEMM and the scales' multiply (measure.py's add_wo8)
        ("matmul.weight_int8", "F.linear(x, w.to(bf16)) * s (1x256x256)",
         lambda: F.linear(x1, w8.to(BF)) * s8),
        ("matmul.weight_int8", "F.linear(x, w.to(bf16)) * s (32x256x256)",
         lambda: F.linear(a32, w8.to(BF)) * s8),
    ]
    print("\n## host cost of the quantised GEMM paths: tiny tensors, wall time per call "
          "(end-to-end) and host-only time, us; GPU time per call in a CUDA graph")
    with torch.no_grad():
        for key, name, fn in paths:
            try:
                tot, host = per_call(fn)
                g = gpu_per_call(fn)
            except Exception as ex:  # noqa: BLE001 - a path this build lacks
                print(f"{key:18s} {name:46s} FAILED {type(ex).__name__}: {str(ex)[:160]}")
                continue
            print(f"{key:18s} {name:46s} eager {tot:7.2f} us  host {host:7.2f} us  graph GPU {g:6.2f} us")


if "--quant" in sys.argv:
    quant_paths()
    sys.exit(0)
x1k, y1k = r(1024), r(1024)
x8 = r(8, 128)
w128, b128 = r(128), r(128)
a64, b64, bias64 = r(64, 64), r(64, 64), r(64)
bb = r(4, 64, 64)
q = r(1, 1, 64, 64)
img, filt = r(1, 8, 8, 8), r(8, 8, 3, 3)
table = r(1000, 64)
idx = torch.randint(0, 1000, (8,), device=dev)
dst = torch.empty(1024, device=dev, dtype=BF)
print("\n## eager host cost per kind: tiny bf16 tensors, wall time per call (end-to-end) "
      "and host-only time, us; GPU time per call in a CUDA graph")
kinds = [
    ("pointwise", "x + y (1024)", lambda: x1k + y1k),
    ("pointwise", "torch.relu(x) (1024)", lambda: torch.relu(x1k)),
    ("pointwise", "F.gelu(x) (1024)", lambda: F.gelu(x1k)),
    ("reduction", "x.sum(-1) (8x128)", lambda: x8.sum(-1)),
    ("reduction", "x.amax(-1) (8x128)", lambda: x8.amax(-1)),
    ("softmax", "torch.softmax(x, -1) (8x128)", lambda: torch.softmax(x8, -1)),
    ("layernorm", "F.layer_norm (8x128)", lambda: F.layer_norm(x8, (128,), w128, b128)),
    ("layernorm", "F.rms_norm (8x128)", lambda: F.rms_norm(x8, (128,), w128)),
    ("matmul", "torch.mm (64x64x64)", lambda: torch.mm(a64, b64)),
    ("matmul", "torch.matmul (64x64x64)", lambda: torch.matmul(a64, b64)),
    ("matmul", "F.linear no bias (64x64x64)", lambda: F.linear(a64, b64)),
    ("matmul", "F.linear + bias (64x64x64)", lambda: F.linear(a64, b64, bias64)),
    ("matmul", "torch.bmm (4x64x64x64)", lambda: torch.bmm(bb, bb)),
    ("attention", "F.scaled_dot_product_attention (1x1x64x64)",
     lambda: F.scaled_dot_product_attention(q, q, q)),
    ("conv2d", "F.conv2d (1x8x8x8, 8x3x3)", lambda: F.conv2d(img, filt, padding=1)),
    ("copy", "x.clone() (1024)", lambda: x1k.clone()),
    ("copy", "dst.copy_(x) (1024)", lambda: dst.copy_(x1k)),
    ("copy", "F.embedding (8 of 1000x64)", lambda: F.embedding(idx, table)),
]
with torch.no_grad():
    for kind, name, fn in kinds:
        tot, host = per_call(fn)
        g = gpu_per_call(fn)
        print(f"{kind:10s} {name:46s} eager {tot:7.2f} us  host {host:7.2f} us  graph GPU {g:6.2f} us")

print("\n## nn.Module: the same ops called through modules, bf16, eager, no_grad")
mods = [
    ("pointwise", "nn.ReLU (1024)", nn.ReLU(), (x1k,)),
    ("pointwise", "nn.GELU (1024)", nn.GELU(), (x1k,)),
    ("softmax", "nn.Softmax(-1) (8x128)", nn.Softmax(-1), (x8,)),
    ("layernorm", "nn.LayerNorm(128) (8x128)", nn.LayerNorm(128, device=dev, dtype=BF), (x8,)),
    ("layernorm", "nn.RMSNorm(128) (8x128)", nn.RMSNorm(128, device=dev, dtype=BF), (x8,)),
    ("matmul", "nn.Linear(64, 64) (64x64)", nn.Linear(64, 64, device=dev, dtype=BF), (a64,)),
    ("matmul", "nn.Linear(64, 64, bias=False)", nn.Linear(64, 64, bias=False, device=dev, dtype=BF), (a64,)),
    ("conv2d", "nn.Conv2d(8, 8, 3) (1x8x8x8)", nn.Conv2d(8, 8, 3, padding=1, device=dev, dtype=BF), (img,)),
    ("copy", "nn.Embedding(1000, 64) (8)", nn.Embedding(1000, 64, device=dev, dtype=BF), (idx,)),
    ("attention", "nn.MultiheadAttention(64, 1) (1x64x64)",
     nn.MultiheadAttention(64, 1, batch_first=True, device=dev, dtype=BF), None),
]
with torch.no_grad():
    for kind, name, m, args in mods:
        if args is None:
            xx = r(1, 64, 64)
            fn = lambda m=m, xx=xx: m(xx, xx, xx, need_weights=False)
        else:
            fn = lambda m=m, args=args: m(*args)
        tot, host = per_call(fn, n=10000)
        print(f"{kind:10s} {name:46s} eager {tot:7.2f} us  host {host:7.2f} us")

print("\n## 4 x (Linear(1024, 1024) + ReLU) in bf16: one eager forward, no_grad, us")
seq = nn.Sequential(*[m for _ in range(4) for m in (nn.Linear(1024, 1024), nn.ReLU())]).to(dev, BF)
with torch.no_grad():
    for b in (1, 8, 64, 512, 2048, 8192):
        xb = r(b, 1024)
        tot, host = per_call(lambda: seq(xb), n=2000)
        g = gpu_per_call(lambda: seq(xb), k=20)
        fl = [lambda: None]
        # the same eight ops as bare functional calls
        ws = [m.weight for m in seq if isinstance(m, nn.Linear)]
        bs = [m.bias for m in seq if isinstance(m, nn.Linear)]

        def functional():
            h = xb
            for w, bias in zip(ws, bs):
                h = torch.relu(F.linear(h, w, bias))
            return h
        ftot, fhost = per_call(functional, n=2000)
        print(f"batch {b:5d}: module forward {tot:8.2f} us (host {host:8.2f})  functional {ftot:8.2f} us "
              f"(host {fhost:8.2f})  GPU in a graph {g:8.2f} us")

print("\n## memory bandwidth by access mix, PyTorch kernels, 2^28 elements, GPU time in a CUDA graph"
      " of 5 calls (arrays of 1-3 GiB: far beyond the L2), GB/s counts bytes read + written")
n = 2**28
with torch.no_grad():
    a32, b32, c32 = r(n, dtype=torch.float32), r(n, dtype=torch.float32), torch.empty(n, device=dev)
    mix = [
        ("relu fp32 (1R+1W)", lambda: torch.relu(a32), 8 * n),
        ("x * 2 fp32 (1R+1W)", lambda: a32 * 2, 8 * n),
        ("relu_ in place fp32 (1R+1W)", lambda: a32.relu_(), 8 * n),
        ("a + b fp32 (2R+1W)", lambda: a32 + b32, 12 * n),
        ("torch.add(a, b, out=c) fp32 (2R+1W)", lambda: torch.add(a32, b32, out=c32), 12 * n),
        ("clone fp32 (memcpy, 1R+1W)", lambda: a32.clone(), 8 * n),
        ("fill_ fp32 (1W)", lambda: c32.fill_(1.0), 4 * n),
        ("zero_ fp32 (1W)", lambda: c32.zero_(), 4 * n),
        ("sum fp32 (1R)", lambda: a32.sum(), 4 * n),
        ("a * b + c (addcmul) fp32 (3R+1W)", lambda: torch.addcmul(c32, a32, b32), 16 * n),
    ]
    for name, fn, by in mix:
        t = gpu_per_call(fn, k=5)
        print(f"{name:40s} {t:9.1f} us  {by / t / 1e3:7.0f} GB/s")
    try:
        cf = torch.compile(lambda x: x * 2)
        cf(a32)
        t = gpu_per_call(lambda: cf(a32), k=5)
        print(f"{'torch.compile x * 2 fp32 (1R+1W)':40s} {t:9.1f} us  {8 * n / t / 1e3:7.0f} GB/s")
    except Exception as e:  # noqa: BLE001
        print("torch.compile unavailable:", type(e).__name__, str(e)[:200])
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch.relu(a32); a32 * 2
        torch.cuda.synchronize()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            print("kernel:", e.name[:160])
