#!/usr/bin/env python3
# hgx-h100-8-allreduce.py - writes hgx-h100-8-allreduce.json: a bench
# recording (format roofline-bench-1, group collective) TRANSCRIBED from a
# published nccl-tests table, not measured here: Azure AI-benchmarking-guide,
# "Azure Results/ND_H100_v5_results.md", "NCCL Bandwidth": all_reduce_perf bus
# bandwidth, NVLS algorithm, in-place, 8 x H100 80GB HBM3, NCCL 2.18.5, sizes
# doubling from 1K to 8G (the source hwdb/hgx-h100-8.system cites for its
# 1G row). The table gives busbw only; the time of one op is worked back from
# nccl-tests' definitions (doc/PERFORMANCE.md): busbw = S / t x 2(n-1)/n, so
# t = S x 1.75 / busbw on 8 ranks. One sample per size, check 0 (nothing was
# run here to verify). The gpu object holds the H100 SXM's published
# attributes, not a device query.
import json

busbw = [0.07, 0.14, 0.27, 0.53, 0.95, 1.71, 2.72, 5.40, 10.86, 21.35, 43.70, 81.93,
         128.73, 172.13, 234.45, 295.53, 361.78, 400.61, 423.38, 438.46, 466.35, 472.36,
         475.54, 478.87]
SRC = ("TRANSCRIBED, not measured here: Azure AI-benchmarking-guide, Azure Results/"
       "ND_H100_v5_results.md, NCCL Bandwidth: all_reduce_perf busbw, NVLS, in-place, "
       "8 x H100 80GB HBM3, NCCL 2.18.5; time = S x 2(n-1)/n / busbw")
entries = []
for i, bw in enumerate(busbw):
    s = 1024 << i
    t_us = float("%.7g" % (s * 1.75 / (bw * 1e9) * 1e6))
    entries.append({
        "group": "collective", "name": "allreduce", "dtype": "fp32", "shape": "in-place",
        "repeat": 0, "bytes": s, "flops": 0, "ranks": 8, "check": 0,
        "sm_clock_mhz": 0, "temp_c": 0, "method": SRC + " (%g GB/s)" % bw,
        "samples_us": [t_us]})
rec = {
    "format": "roofline-bench-1",
    "note": "transcribed from the published nccl-tests table of Azure ND H100 v5 (hwdb/"
            "hgx-h100-8.system, source az), not measured here; tests/data/"
            "hgx-h100-8-allreduce.py writes it",
    "roofline_version": "0.1.0", "date": "2024-11-01T00:00:00Z", "quick": False,
    "gpu": {"name": "NVIDIA H100 80GB HBM3", "pci_bus_id": "0000:00:00.0", "device": 0,
            "compute_capability_major": 9, "compute_capability_minor": 0,
            "multiprocessor_count": 132, "clock_rate_khz": 1980000,
            "memory_clock_rate_khz": 2619000, "global_memory_bus_width": 5120,
            "total_global_mem": 85520809984, "l2_cache_size": 52428800, "ecc_enabled": 1,
            "integrated": 0, "is_multi_gpu_board": 0,
            "max_shared_memory_per_multiprocessor": 233472,
            "max_threads_per_multiprocessor": 2048, "driver_version": 12060,
            "runtime_version": 12060},
    "entries": entries,
}
print(json.dumps(rec, indent=1))
