#!/usr/bin/env python3
# collbench-facts.py - every collective entry of a bench recording worked out
# again from its samples, independently of roofline: the median (Python's
# statistics.median), algbw = S / median and busbw = algbw x the bus factor
# of nccl-tests (doc/PERFORMANCE.md: 2(n-1)/n for all-reduce, (n-1)/n for
# all-gather, reduce-scatter and all-to-all, 1 for send/recv; "-" where it is
# 0). One line per entry: kind ranks placement S median_us algbw busbw.
import json
import statistics
import sys

FACTOR = {"allreduce": lambda n: 2 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
          "reducescatter": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n,
          "sendrecv": lambda n: 1.0}
for e in json.load(open(sys.argv[1]))["entries"]:
    if e["group"] != "collective":
        continue
    med = statistics.median(e["samples_us"])
    alg = e["bytes"] / med / 1e3
    f = FACTOR[e["name"]](e["ranks"])
    print(e["name"], e["ranks"], e["shape"], "%.0f" % e["bytes"], "%.9g" % med,
          "%.9g" % alg, "%.9g" % (alg * f) if f > 0 else "-")
