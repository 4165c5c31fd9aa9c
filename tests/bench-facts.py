#!/usr/bin/env python3
"""bench-facts.py - the figures of a bench or validate recording, worked out
independently of roofline (Python's statistics module and the formulas of
docs/oplist-format.md written out again here), for tests/cli_bench.sh.

usage: bench-facts.py bench BENCH.json
       bench-facts.py validate VALIDATE.json DEVICE_FILE HOST_US

bench prints one line per entry: group name dtype shape repeat median_us best_us
GB/s TFLOPS (medians; 0 when the entry moves no bytes or does no FLOPs),
then "roof KEY VALUE" for each roof a calibration keeps and "knee DTYPE R"
for each sweep. validate prints "op NAME predicted_us error predicted_bound
measured_bound" per measured op, then "summary median_err p90_err
long_median long_p90 agreement".
"""
import json
import math
import statistics
import sys


def quantile(xs, q):
    """numpy's default (linear, type 7)."""
    s = sorted(xs)
    h = (len(s) - 1) * q
    lo = math.floor(h)
    return s[lo] + (h - lo) * (s[lo + 1] - s[lo]) if lo + 1 < len(s) else s[lo]


ROOFS = [  # key, group, name, dtype ('' any), figure
    ("mem_bandwidth_gbs", "memory", "copy", "", "gbs"),
    ("mem_read_bandwidth_gbs", "memory", "read", "", "gbs"),
    ("mem_write_bandwidth_gbs", "memory", "write", "", "gbs"),
    ("l2_bandwidth_gbs", "l2", "read", "", "gbs"),
    ("fp64_vector_tflops", "vector", "fp64-fma", "", "tflops"),
    ("fp32_vector_tflops", "vector", "fp32-fma", "", "tflops"),
    ("fp16_vector_tflops", "vector", "fp16-fma", "", "tflops"),
    ("bf16_vector_tflops", "vector", "bf16-fma", "", "tflops"),
    ("fp64_tensor_tflops", "gemm", "gemm", "fp64", "tflops"),
    ("tf32_tensor_tflops", "gemm", "gemm", "tf32", "tflops"),
    ("fp16_tensor_tflops", "gemm", "gemm", "fp16", "tflops"),
    ("bf16_tensor_tflops", "gemm", "gemm", "bf16", "tflops"),
    ("fp8_tensor_tflops", "gemm", "gemm", "fp8e4m3", "tflops"),
    ("int8_tensor_tops", "gemm", "gemm", "int8", "tflops"),
    # no min_kernel_us: calibrate keeps the datasheet's launch floor, since
    # the graph-node figure is the spacing of graph nodes, not a floor under
    # every kernel (validate below reads the floor from the device file)
]


def bench(path):
    b = json.load(open(path))
    fig = []
    for e in b["entries"]:
        med = statistics.median(e["samples_us"])
        best = min(e["samples_us"])
        gbs = e["bytes"] / med / 1e3 if e["bytes"] > 0 else 0
        tf = e["flops"] / med / 1e6 if e["flops"] > 0 else 0
        print(e["group"], e["name"], e["dtype"] or "-", e["shape"] or "-", "%g" % e["repeat"],
              "%.9g %.9g %.9g %.9g" % (med, best, gbs, tf))
        fig.append((e, {"gbs": gbs, "tflops": tf, "us": med}))
    for key, group, name, dtype, f in ROOFS:
        cand = [v[f] for e, v in fig if e["group"] == group and e["name"] == name
                and (not dtype or e["dtype"] == dtype) and e["check"] >= 0 and v[f] > 0]
        if cand:
            print("roof", key, "%.9g" % (min(cand) if f == "us" else max(cand)))
    for dtype in ("fp32", "bf16", "fp16"):
        pts = [e for e in b["entries"] if e["group"] == "sweep" and e["dtype"] == dtype]
        if not pts:
            continue
        bw = max(p["bytes"] / statistics.median(p["samples_us"]) for p in pts)
        fl = max(p["flops"] / statistics.median(p["samples_us"]) for p in pts)
        elem_bytes = pts[0]["bytes"] / (pts[0]["flops"] / pts[0]["repeat"])
        print("knee", dtype, "%.9g" % (fl / bw * elem_bytes))


ES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8e4m3": 1, "int8": 1}
VEC = {"fp64": "fp64_vector_tflops", "fp32": "fp32_vector_tflops",
       "fp16": "fp16_vector_tflops", "bf16": "bf16_vector_tflops"}
TENSOR = {"fp64": "fp64_tensor_tflops", "tf32": "tf32_tensor_tflops",
          "fp16": "fp16_tensor_tflops", "bf16": "bf16_tensor_tflops",
          "fp8e4m3": "fp8_tensor_tflops", "int8": "int8_tensor_tops",
          "fp32": "fp32_vector_tflops"}
DEFAULT_FPE = {"pointwise": 1, "reduction": 1, "softmax": 5, "layernorm": 8}


def device(path):
    d = {}
    for line in open(path):
        line = line.split(";")[0].strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            try:
                d[k] = float(v)
            except ValueError:
                pass
    return d


def predict(row, d, host_us):
    """The model of docs/oplist-format.md for the kinds validate runs."""
    kind, dt = row["kind"], row["dtype"]
    dims = [int(x) for x in row["shape"].split("x")]
    n = math.prod(dims)
    es = ES[dt]
    fpe = float(row["flops_per_element"]) if row.get("flops_per_element") else DEFAULT_FPE.get(kind, 0)
    fma = int(row["fma"]) if row.get("fma") else (1 if kind == "matmul" else 0)
    # bytes read (the inputs) and written (the output)
    if kind == "pointwise":
        inputs = int(row["inputs"]) if row.get("inputs") else 1
        flops, rd, wr = n * fpe, inputs * n * es, n * es
    elif kind == "copy":
        flops, rd, wr = 0, n * es, n * es
    elif kind == "reduction":
        flops, rd, wr = n * fpe, n * es, n / dims[-1] * es
    elif kind == "softmax":
        flops, rd, wr = n * fpe, n * es, n * es
    elif kind == "layernorm":
        flops, rd, wr = n * fpe, (n + 2 * dims[-1]) * es, n * es
    elif kind == "matmul":
        b, m, nn, k = ([1] + dims)[-4:] if len(dims) == 3 else dims
        flops, rd, wr = 2 * b * m * nn * k, es * b * (m * k + k * nn), es * b * m * nn
    nbytes = rd + wr
    key = TENSOR[dt] if kind == "matmul" else VEC[dt]
    peak = d[key] * 1e12
    if "tensor" not in key and not fma:
        peak /= 2
    t_c = flops / peak * 1e6
    # the memory roof by access mix (docs/hwdb-format.md): reads at the
    # read-only bandwidth, writes at the write-only one, each falling back to
    # mem_bandwidth_gbs
    bw = d["mem_bandwidth_gbs"] * 1e9
    bw_r = d.get("mem_read_bandwidth_gbs", d["mem_bandwidth_gbs"]) * 1e9
    bw_w = d.get("mem_write_bandwidth_gbs", d["mem_bandwidth_gbs"]) * 1e9
    t_m = (rd / bw_r + wr / bw_w) * 1e6
    bw_eff = nbytes / (t_m * 1e-6) if nbytes > 0 else bw
    t_l = d["min_kernel_us"]
    t = max(t_c, t_m, t_l, host_us)
    ovh = max(host_us, t_l)
    bound = max((t_c, "compute"), (t_m, "memory"), (ovh, "overhead"), key=lambda x: x[0])[1]
    return t, bound, flops, nbytes, peak, bw_eff


def validate(path, devpath, host_us):
    import csv
    import io
    v = json.load(open(path))
    d = device(devpath)
    rows = [r for r in csv.DictReader(io.StringIO(
        "\n".join(l for l in v["ops_csv"].splitlines() if not l.startswith("#"))))]
    errs, long_errs, agree, n = [], [], 0, 0
    for row, res in zip(rows, v["results"]):
        if "skipped" in res:
            continue
        t, bound, flops, nbytes, peak, bw = predict(row, d, host_us)
        wall, gpu = res["wall_us"], res["gpu_us"]
        err = (t - wall) / wall
        if wall > 1.5 * gpu:
            emp = "overhead"
        else:
            cf = flops / (gpu * 1e-6) / peak
            mf = nbytes / (gpu * 1e-6) / bw
            emp = "compute" if cf > mf else "memory"
        print("op", row["name"], "%.9g %.9g" % (t, err), bound, emp)
        errs.append(abs(err))
        if wall >= 20:
            long_errs.append(abs(err))
        agree += bound == emp
        n += 1
    print("summary %.9g %.9g %.9g %.9g %.9g" % (
        quantile(errs, 0.5), quantile(errs, 0.9), quantile(long_errs, 0.5),
        quantile(long_errs, 0.9), agree / n))


if __name__ == "__main__":
    if sys.argv[1] == "bench":
        bench(sys.argv[2])
    else:
        validate(sys.argv[2], sys.argv[3], float(sys.argv[4]))
