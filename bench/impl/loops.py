#!/usr/bin/env python3
"""loops.py - PyTorch's elementwise kernels in recorded traces, by loop:
each one-kernel op of `roofline import` joined to its kernel (in launch
order), grouped by kernel family (vectorized_elementwise_kernel,
elementwise_kernel<128, 4|2>, unrolled_elementwise_kernel,
CatArrayBatchedCopy with and without _vectorized) and size, with the
median GPU time and the elements per us per SM (issue 23,
docs/expected.md "Unvectorised loops").

    python3 bench/impl/loops.py [--roofline ./roofline] [--sms 132] TRACE.json.gz...

Prints, per family and size class (<= 32768 elements, up to 4 M, larger):
the kernels, their median time, and for the larger ones the elements per us
per SM; then the fixed-time figure of hwdb/h200-pytorch.efficiency's
copy.strided.latency_us (median of the small unvectorised kernels less
that of the small vectorised ones).
"""
import csv, gzip, io, json, re, statistics, subprocess, sys

args = sys.argv[1:]
R, sms = "./roofline", 132
while args and args[0].startswith("--"):
    if args[0] == "--roofline":
        R = args[1]
    elif args[0] == "--sms":
        sms = int(args[1])
    args = args[2:]


def family(name):
    m = re.search(r"at::native::(vectorized_elementwise_kernel|unrolled_elementwise_kernel)<", name)
    if m:
        return m.group(1)
    m = re.search(r"at::native::elementwise_kernel<(\d+), (\d+)", name)
    if m:
        return "elementwise_kernel<%s, %s>" % m.groups()
    if "CatArrayBatchedCopy_vectorized<" in name:
        return "CatArrayBatchedCopy_vectorized"
    if "::CatArrayBatchedCopy<" in name:
        return "CatArrayBatchedCopy"
    return None


rows = {}
for tr in args:
    out = subprocess.run([R, "import", tr], capture_output=True, text=True, check=True).stdout
    ops = list(csv.DictReader(io.StringIO("\n".join(l for l in out.splitlines() if not l.startswith("#")))))
    ev = json.load(gzip.open(tr))["traceEvents"]
    ks = sorted((e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"])
    i = 0
    for op in ops:
        n = int(op["launches"] or 0)
        mine, i = ks[i:i + n], i + n
        if n != 1 or op["kind"] not in ("pointwise", "copy"):
            continue
        f = family(mine[0]["name"])
        if f is None:
            continue
        el = 1
        for d in op["shape"].split("x"):
            el *= int(d)
        size = "small" if el <= 32768 else ("mid" if el <= 4 << 20 else "large")
        rows.setdefault((f, size), []).append((el, mine[0]["dur"]))

print("%-32s %-6s %6s %10s %18s" % ("family", "size", "kernels", "median_us", "elements/us/SM"))
for (f, size) in sorted(rows):
    v = rows[(f, size)]
    med = statistics.median(d for _, d in v)
    rate = sum(e for e, _ in v) / sum(d for _, d in v) / sms if size == "large" else float("nan")
    print("%-32s %-6s %6d %10.2f %18.0f" % (f, size, len(v), med, rate))
loops = [d for (f, s), v in rows.items() if s == "small" and f != "vectorized_elementwise_kernel"
         and f != "CatArrayBatchedCopy_vectorized" for _, d in v]
vec = [d for (f, s), v in rows.items() if s == "small" and f == "vectorized_elementwise_kernel" for _, d in v]
if loops and vec:
    print("small unvectorised loops: %d, median %.2f us; vectorised: %d, median %.2f us; "
          "copy.strided.latency_us = %.2f" % (len(loops), statistics.median(loops), len(vec),
                                              statistics.median(vec),
                                              statistics.median(loops) - statistics.median(vec)))
