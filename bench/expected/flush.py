# Is a compute-bound GEMM measured right after measure.py's L2 flush slower
# than the same GEMM in a model's step? Times each GEMM's kernels (the
# profiler's durations, as measure.py and a trace record them) in five
# settings: right after the 512 MiB read that flushes the L2 (measure.py's
# measured_us), back to back, after the flush and a 1 ms GPU sleep, after a
# small elementwise kernel, and after the flush with the host idle 5 ms;
# with the SM clock NVML reports during each; and 300 times back to back
# (the last 100's median: the rate a GEMM holds when nothing leaves the GPU
# idle).
#
#   python3 bench/expected/flush.py OUT.csv      (on the GPU machine)
import csv, statistics, sys, time
import torch
import torch.nn.functional as F

dev = "cuda"
BF = torch.bfloat16
try:
    import pynvml
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    def clock():
        return pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)
except Exception:  # noqa: BLE001 - no NVML: no clock column
    def clock():
        return 0

flush = torch.randint(0, 255, (512 * 2**20,), dtype=torch.uint8, device=dev)
small = torch.randn(4096, device=dev)


def gemm_kernels(prof):
    return [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA
            and "unsigned char" not in e.name and "elementwise" not in e.name
            and "Sleep" not in e.name and "sleep" not in e.name and "spin" not in e.name]


def timed(fn, before, reps=12):
    """Median over REPS of the GEMM's kernel time, BEFORE() run ahead of each."""
    runs, clocks = [], []
    for _ in range(reps):
        # as measure.py's kernels_of: what runs before the GEMM is inside
        # the profiled window, its kernels told apart by name
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            before()
            fn()
            torch.cuda.synchronize()
        clocks.append(clock())
        ks = gemm_kernels(prof)
        runs.append(sum(k.device_time for k in ks))
    return statistics.median(runs), statistics.median(clocks)


def do_flush():
    # measure.py's cold run: the flush, a synchronize, the op
    flush.max()
    torch.cuda.synchronize()


def nothing():
    pass


def sleep_gpu():
    flush.max()
    torch.cuda._sleep(2_000_000)


def elementwise():
    small.add_(1.0)


def idle():
    flush.max()
    torch.cuda.synchronize()
    time.sleep(0.005)


SHAPES = [(2048, 18944, 3584), (2048, 14336, 4096), (8192, 8192, 8192), (2048, 4096, 4096),
          (2048, 152064, 3584), (1, 14336, 4096), (8, 18944, 3584)]
CASES = [("after-flush", do_flush), ("back-to-back", nothing), ("flush-sleep-1ms", sleep_gpu),
         ("after-elementwise", elementwise), ("flush-idle-5ms", idle)]


def sustained(fn, n=300, last=100):
    """The GEMM run N times back to back in one profiled window: the median
    of the last LAST kernels' time, and the SM clock after."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
    mhz = clock()
    ks = sorted(gemm_kernels(prof), key=lambda e: e.time_range.start)
    per = max(1, len(ks) // n)
    runs = [sum(k.device_time for k in ks[i:i + per]) for i in range(0, len(ks), per)]
    return statistics.median(runs[-last:]), mhz


def main():
    out = sys.argv[1]
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["m", "n", "k", "case", "kernel_us", "tflops", "sm_mhz"])
        for m, n, k in SHAPES:
            x = torch.randn(m, k, device=dev, dtype=BF)
            wt = torch.randn(n, k, device=dev, dtype=BF)
            fn = lambda: F.linear(x, wt)  # noqa: E731
            fn(); torch.cuda.synchronize()
            # interleaved: each case's reps in turn, twice over
            res = {c: [] for c, _ in CASES}
            for _ in range(2):
                for c, before in CASES:
                    res[c].append(timed(fn, before))
            us, mhz = sustained(fn)
            tf = 2 * m * n * k / us / 1e6
            w.writerow([m, n, k, "sustained-300", f"{us:.3f}", f"{tf:.1f}", mhz])
            print(f"{m}x{n}x{k:<6} {'sustained-300':18s} {us:10.2f} us {tf:7.1f} TFLOP/s sm {mhz} MHz",
                  flush=True)
            for c, _ in CASES:
                us = statistics.median(r[0] for r in res[c])
                mhz = statistics.median(r[1] for r in res[c])
                tf = 2 * m * n * k / us / 1e6
                w.writerow([m, n, k, c, f"{us:.3f}", f"{tf:.1f}", mhz])
                print(f"{m}x{n}x{k:<6} {c:18s} {us:10.2f} us {tf:7.1f} TFLOP/s sm {mhz} MHz", flush=True)
            fh.flush()


if __name__ == "__main__":
    main()
