#!/usr/bin/env python3
"""trace-facts.py - the numbers tests/check_import.c and tests/cli_import.sh
assert, worked out from the fixture traces independently of roofline.

Run once by hand (python3 tests/trace-facts.py tests/data/trace_*.json.gz);
its output was copied into the tests. It uses only json/gzip: GPU activities
are joined to the runtime call with the same correlation id, the call to the
innermost cpu_op of its thread holding its start, and that op to its
outermost ancestor, as docs/trace-import.md describes.
"""
import collections
import gzip
import json
import sys

MATMUL = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul",
          "aten::linear"}

for path in sys.argv[1:]:
    with gzip.open(path, "rt") as f:
        ev = json.load(f)["traceEvents"]
    ops = [e for e in ev if e.get("cat") == "cpu_op" and e.get("ph") == "X"]
    gpu = [e for e in ev if e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy")]
    launch = {e["args"]["correlation"]: e for e in ev
              if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    ns = lambda x: round(x * 1000)
    kinds = collections.Counter(e["cat"] for e in gpu)
    print(path)
    print("  activities", dict(kinds))
    for cat in sorted(kinds):
        print("  %s: sum of dur %.3f us" % (cat, sum(ns(e["dur"]) for e in gpu if e["cat"] == cat) / 1000))
    print("  all GPU activities: %.3f us" % (sum(ns(e["dur"]) for e in gpu) / 1000))
    # parents: an op's parent is the shortest op of its thread containing it
    for o in ops:
        o["s"], o["e"] = ns(o["ts"]), ns(o["ts"]) + ns(o["dur"])
    by_thread = collections.defaultdict(list)
    for o in ops:
        by_thread[(o["pid"], o["tid"])].append(o)
    def enclosing(th, start, end):
        c = [o for o in by_thread[th] if o["s"] <= start and end <= o["e"]]
        return min(c, key=lambda o: o["e"] - o["s"]) if c else None
    def outermost(o):
        while True:
            p = [q for q in by_thread[(o["pid"], o["tid"])]
                 if q is not o and q["s"] <= o["s"] and o["e"] <= q["e"]]
            if not p:
                return o
            o = max(p, key=lambda q: q["e"] - q["s"])
    rows = {}
    for g in gpu:
        l = launch[g["args"]["correlation"]]
        o = enclosing((l["pid"], l["tid"]), ns(l["ts"]), ns(l["ts"]))
        top = outermost(o)
        r = rows.setdefault(id(top), [top, 0, 0])
        r[1] += ns(g["dur"])
        r[2] += 1
    rows = sorted(rows.values(), key=lambda r: r[0]["s"])
    print("  rows", len(rows), "matmul-named rows", sum(r[0]["name"] in MATMUL for r in rows))
    print("  summed measured_us %.3f, launches %d" % (sum(r[1] for r in rows) / 1000,
                                                     sum(r[2] for r in rows)))
    print("  host_us of the rows %.3f" % (sum(ns(r[0]["dur"]) for r in rows) / 1000))
    names = collections.Counter(r[0]["name"] for r in rows)
    print("  row names", dict(names))
    for i, (o, g, n) in enumerate(rows[:12], 1):
        print("   row %d %s dims %s measured %.3f launches %d host %.3f" % (
            i, o["name"], o["args"].get("Input Dims"), g / 1000, n, ns(o["dur"]) / 1000))
    # busy time: union of activity intervals; gaps between them
    iv = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in gpu)
    busy, gaps, longest = 0, 0, 0
    s, e = iv[0]
    for a, b in iv[1:]:
        if a > e:
            busy += e - s
            gaps += 1
            longest = max(longest, a - e)
            s = a
        e = max(e, b)
    busy += e - s
    span = e - iv[0][0]
    print("  span %.3f us busy %.3f us (%.1f %%) gaps %d longest %.3f us" % (
        span / 1000, busy / 1000, 100.0 * busy / span, gaps, longest / 1000))
