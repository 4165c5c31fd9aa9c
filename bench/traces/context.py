#!/usr/bin/env python3
"""context.py - the same kernels timed back to back and as an eager decode
step runs them: with the host idle between launches (GPU gaps), and over
different weight buffers each launch (a cold TLB and L2), so that what an
eager trace's kernels lose against isolated microbenchmarks can be put down
to its cause (issue 23, docs/measurements/h200-issue23-2026-12-02).

    python3 bench/traces/context.py OUT.json [--cpu]

--cpu profiles as bench/traces/record.py does (CPU and CUDA activities,
record_shapes, with_flops) instead of the CUDA activity alone.

Each case: the kernels' GPU time as the profiler records it (CUPTI, as in
the traces), median over the launches, per regime: 'hot' (one buffer, back
to back), 'rotate' (16 buffers in turn, back to back), 'gap' (one buffer,
the host spinning GAP_US between launches, a synchronize before each),
'rotate_gap' (both). nvidia-smi's SM and memory clocks are sampled through
each regime.
"""
import json, os, subprocess, sys, tempfile, time, statistics
import torch
import torch.nn.functional as F

GAP_US = 150
CPU = "--cpu" in sys.argv[2:]
REPS = 40
dev = "cuda"
torch.manual_seed(0)


def spin(us):
    t = time.perf_counter() + us / 1e6
    while time.perf_counter() < t:
        pass


def cases():
    b16 = torch.bfloat16
    out = []
    # Llama-3-8B's gate_proj at batch 2 (117 MB of weights), its o_proj
    ws = [torch.randn(14336, 4096, device=dev, dtype=b16) for _ in range(16)]
    x = torch.randn(2, 4096, device=dev, dtype=b16)
    out.append(("gemm_2x14336x4096", lambda i: F.linear(x, ws[i])))
    wo = [torch.randn(4096, 4096, device=dev, dtype=b16) for _ in range(16)]
    out.append(("gemm_2x4096x4096", lambda i: F.linear(x, wo[i])))
    # decode attention, GQA as transformers' sdpa passes it (enable_gqa)
    q = torch.randn(2, 32, 1, 128, device=dev, dtype=b16)
    kv = [(torch.randn(2, 8, 8193, 128, device=dev, dtype=b16),
           torch.randn(2, 8, 8193, 128, device=dev, dtype=b16)) for _ in range(16)]
    out.append(("sdpa_gqa_b2_c8193", lambda i: F.scaled_dot_product_attention(q, kv[i][0], kv[i][1], enable_gqa=True)))
    # the same bytes without GQA (MHA over 8 heads)
    q8 = torch.randn(2, 8, 1, 128, device=dev, dtype=b16)
    out.append(("sdpa_mha8_b2_c8193", lambda i: F.scaled_dot_product_attention(q8, kv[i][0], kv[i][1])))
    # a contiguous elementwise op (16 MB in, 16 MB out) and a broadcast one
    a = [torch.randn(8192, 1024, device=dev, dtype=b16) for _ in range(16)]
    w = torch.randn(1024, device=dev, dtype=b16)
    out.append(("add_8Mi", lambda i: a[i] + a[i]))
    out.append(("bcast_mul_8Mi", lambda i: w * a[i]))
    return out


def timed(fn, regime):
    rotate = regime.startswith("rotate")
    gap = regime.endswith("gap")
    for i in range(5):
        fn(i % 16)
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CUDA]
    if CPU:
        acts.insert(0, torch.profiler.ProfilerActivity.CPU)
    with torch.profiler.profile(activities=acts, record_shapes=CPU, with_flops=CPU) as prof:
        for i in range(REPS):
            if gap:
                torch.cuda.synchronize()
                spin(GAP_US)
            fn(i % 16 if rotate else 0)
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    prof.export_chrome_trace(path)
    ev = json.load(open(path))["traceEvents"]
    os.unlink(path)
    ks = sorted([e for e in ev if e.get("cat") == "kernel"], key=lambda e: e["ts"])
    per = len(ks) // REPS
    durs = [sum(k["dur"] for k in ks[j * per:(j + 1) * per]) for j in range(REPS)]
    return statistics.median(durs), per, ks[0]["name"][:90]


def main():
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "gap_us": GAP_US, "cpu": CPU,
           "reps": REPS, "cases": {}}
    smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,clocks.mem,power.draw",
                            "--format=csv,noheader", "-lms", "100"], stdout=subprocess.PIPE, text=True)
    marks = []
    for name, fn in cases():
        res["cases"][name] = {}
        for regime in ("hot", "rotate", "gap", "rotate_gap"):
            marks.append((time.time(), name, regime))
            med, per, kname = timed(fn, regime)
            res["cases"][name][regime] = med
            res["cases"][name]["kernels"] = per
            res["cases"][name]["kernel"] = kname
            print("%-22s %-10s %8.2f us (%d kernels) %s" % (name, regime, med, per, kname), flush=True)
    smi.terminate()
    res["clocks"] = smi.stdout.read().splitlines()
    res["marks"] = marks
    json.dump(res, open(sys.argv[1], "w"), indent=1)


main()
