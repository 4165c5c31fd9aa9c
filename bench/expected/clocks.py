#!/usr/bin/env python3
# Why a large GEMM's profiled time (a flush, a synchronize, the op: the
# measured_us of measure.py) is 10-17 % over its event time (a flush and the
# op back to back) on the H200, while memory-bound ops agree: times three
# large GEMMs each way, and reads the SM clock and the power draw (NVML,
# through torch.cuda) right after each way's runs.
#
#   flush+op   a 512 MiB read, then the op, looped, CUDA events around the op
#   op+op      the op alone back to back (no flush), events around each
#   sync       a flush, a synchronize, the op, a synchronize, events around the op
#
# Run on the GPU machine: python3 bench/expected/clocks.py > clocks.txt
import statistics
import time

import torch

dev = "cuda"
flush = torch.randint(0, 255, (512 * 2**20,), dtype=torch.uint8, device=dev)


def gemm(m, n, k, dtype):
    if dtype == "fp8":
        a = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device=dev).to(torch.float8_e4m3fn).t()
        one = torch.ones((), device=dev)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    a = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(k, n, device=dev, dtype=torch.bfloat16)
    return lambda: torch.mm(a, b)


def state():
    try:
        return f"sm {torch.cuda.clock_rate()} MHz, {torch.cuda.power_draw() / 1000:.0f} W"
    except Exception as ex:  # noqa: BLE001 - NVML missing: say so
        return f"(no NVML: {type(ex).__name__})"


def timed(fn, reps, mode):
    ts = []
    for _ in range(reps):
        if mode != "op+op":
            flush.max()
        if mode == "sync":
            torch.cuda.synchronize()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        if mode == "sync":
            torch.cuda.synchronize()
        ts.append((e0, e1))
    torch.cuda.synchronize()
    us = [a.elapsed_time(b) * 1e3 for a, b in ts]
    return statistics.median(us), state()


def main():
    print("torch", torch.__version__, torch.cuda.get_device_name(0), "idle:", state(), flush=True)
    for m, n, k, dt in ((4096, 12288, 4096, "bf16"), (8192, 8192, 8192, "bf16"),
                        (4096, 4096, 4096, "fp8"), (2048, 11008, 4096, "bf16")):
        fn = gemm(m, n, k, dt)
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        fl = 2.0 * m * n * k
        for mode in ("flush+op", "op+op", "sync", "flush+op"):
            us, st = timed(fn, 30, mode)
            print(f"{dt} {m}x{n}x{k} {mode:9s} {us:9.1f} us {fl / us / 1e6:7.1f} TFLOP/s  after: {st}",
                  flush=True)
            time.sleep(0.5)


if __name__ == "__main__":
    main()
