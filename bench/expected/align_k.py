#!/usr/bin/env python3
"""align_k.py - cuBLAS's fallback GEMM for an unaligned N (an odd vocabulary:
GPT-2's 50257) across K, on the GPU: M x N x K bf16 F.linear products timed
with CUDA events after an L2 flush (measure.py's cold_us), median of 20, with
the kernel's name from the profiler (issue 23,
docs/measurements/h200-issue23-align-2026-12-02).

    python3 bench/expected/align_k.py OUT.csv

Rows: name,kind,dtype,shape,measured_us,kernels,split (the op list columns
bench/expected/fit.py reads); the split is fixed here, before any fit: K of
512, 1024 and 4096 fit, the others held out.
"""
import csv, os, sys
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # bench/expected/measure.py: its cold-L2 event timer

dev = "cuda"
measure.flush = torch.randint(0, 255, (512 << 20,), dtype=torch.uint8, device=dev)
FIT = {512, 1024, 4096}


def timed(fn, reps=20):
    for _ in range(3):
        fn()
    return measure.cold_us(fn, reps)


def kernel(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    return ";".join(e.name[:90] for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA)


rows = []
for n in (50257, 4095):
    for k in (256, 512, 768, 1024, 1536, 2048, 3072, 4096):
        m = 4096
        x = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
        w = torch.randn(n, k, device=dev, dtype=torch.bfloat16)
        fn = lambda: torch.nn.functional.linear(x, w)
        us = timed(fn)
        rows.append({"name": "align-k/linear-%dx%dx%d" % (m, n, k), "kind": "matmul", "dtype": "bf16",
                     "shape": "%dx%dx%d" % (m, n, k), "measured_us": "%.3f" % us,
                     "kernels": kernel(fn), "split": "fit" if k in FIT else "held-out"})
        print(rows[-1]["shape"], rows[-1]["measured_us"], "%.0f TF/s" % (2 * m * n * k / us / 1e6),
              rows[-1]["kernels"][:70], flush=True)
with open(sys.argv[1], "w", newline="") as f:
    wr = csv.DictWriter(f, fieldnames=list(rows[0]))
    wr.writeheader()
    wr.writerows(rows)
