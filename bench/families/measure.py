# measure.py - issue 24's families on the GPU: for each examples/ config,
# what transformers builds from it (random weights, bf16, sdpa), measured:
#   - the parameter count (the model built on the meta device: no memory);
#   - torch.cuda.max_memory_allocated over one decode step of BATCH
#     sequences on a DynamicCache of CONTEXT tokens (DynamicCache(config=...),
#     as generate() makes it: sliding layers keep their window), and over a
#     prefill of SEQ tokens with use_cache=False and logits_to_keep=1 (the
#     last token's logits, as generate() asks at prefill);
#   - each step's time (CUDA events around the step, median of 10 after 3
#     warm-ups: an eager step waits on the host, so this is its wall time);
#   - the kernels the step launches and their summed time (one step under
#     torch.profiler: the GPU time).
# The decode step measured is the second after the prefill (steady state: see
# measure()). KERNELS=1 prints each step's kernels by time. gpt-oss-20b is
# built without its quantization_config (transformers then holds the experts
# in bf16: compare.sh gives roofline --weight-dtype bf16) and with eager
# attention (its sinks have no sdpa path in transformers 5.17).
# One line per model and step in OUTDIR/families.txt, tab-separated:
#   name step batch seq_or_context params peak_bytes step_us kernels kernel_us
# bench/families/compare.sh holds roofline model against it.
#
#   python3 bench/families/measure.py OUTDIR [NAME...]      (on the GPU machine)
import json, os, statistics, sys

import torch

dev = "cuda"
BF = torch.bfloat16
torch.manual_seed(0)

# name: (example, decode (batch, context), prefill (batch, seq))
MODELS = {
    "qwen1.5-moe-a2.7b": ((8, 4096), (1, 2048)),
    "qwen3-30b-a3b": ((8, 4096), (1, 2048)),
    "gemma2-9b": ((8, 8192), (1, 2048)),
    "gemma3-1b": ((8, 8192), (1, 2048)),
    "phi3-mini": ((8, 4096), (1, 2048)),
    "olmo2-7b": ((8, 4096), (1, 2048)),
    "granite3-8b": ((8, 4096), (1, 2048)),
    "falcon-7b": ((8, 2048), (1, 2048)),
    "deepseek-v2-lite": ((8, 4096), (1, 2048)),
    "gpt-oss-20b": ((8, 4096), (1, 2048)),
}


def config(path):
    from transformers import AutoConfig
    d = json.load(open(path))
    mt = d.pop("model_type")
    if mt == "gemma3" and "text_config" in d:
        d, mt = d["text_config"], "gemma3_text"
    for k in ("architectures", "transformers_version", "torch_dtype", "dtype",
              "quantization_config", "auto_map"):
        d.pop(k, None)
    c = AutoConfig.for_model(mt, **d)
    # gpt_oss's sinks have no sdpa path in transformers 5.17: eager
    c._attn_implementation = "eager" if mt == "gpt_oss" else "sdpa"
    return c


def gpu_us(fn, n=10):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(n):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record(); fn(); e1.record(); e1.synchronize()
        ts.append(e0.elapsed_time(e1) * 1e3)
    return statistics.median(ts)


def peak(fn):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    fn()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated()


def kernels(fn):
    """The kernels one call of FN launches and their summed duration (us),
    from its profiler trace (as bench/traces/record.py counts them)."""
    import tempfile
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        p.export_chrome_trace(f.name)
        ev = json.load(open(f.name))["traceEvents"]
    k = [e for e in ev if e.get("cat") == "kernel"]
    return len(k), sum(e.get("dur", 0) for e in k)


def table(what, fn):
    """Prints FN's kernels by their total time (KERNELS=1)."""
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    print("==", what, flush=True)
    print(p.key_averages().table(sort_by="cuda_time_total", row_limit=14, max_name_column_width=90),
          flush=True)


def measure(name, out):
    from transformers import AutoModelForCausalLM, DynamicCache
    (db, dc), (pb, ps) = MODELS[name]
    cfg = config("examples/%s.json" % name)
    with torch.device("meta"):
        params = sum(p.numel() for p in AutoModelForCausalLM.from_config(cfg).parameters())
    with torch.device(dev):
        m = AutoModelForCausalLM.from_config(cfg, dtype=BF).eval()
    V = cfg.vocab_size
    ids = torch.randint(0, V, (db, dc), device=dev)
    tok = torch.randint(0, V, (db, 1), device=dev)

    def prep():
        try:
            cache = DynamicCache(config=m.config)
        except TypeError:
            cache = DynamicCache()
        with torch.inference_mode():
            m(input_ids=ids, past_key_values=cache, use_cache=True, logits_to_keep=1)
        return cache

    def decode(cache):
        with torch.inference_mode():
            m(input_ids=tok, past_key_values=cache, use_cache=True)

    # the peak of a decode step in steady state: the second after the
    # prefill (the first still holds the prefill's whole K and V where a
    # sliding layer kept a view of its window: DynamicSlidingWindowLayer)
    cache = prep()
    decode(cache)
    torch.cuda.synchronize()
    dpeak = peak(lambda: decode(cache))
    kinds = sorted(set(type(l).__name__ for l in getattr(cache, "layers", [])))
    print(name, "cache layers:", kinds, flush=True)
    del cache
    torch.cuda.empty_cache()
    # time: a fresh cache each step would time the prefill; one cache grows
    # by a token a step (13 steps of a context of thousands: < 1 %)
    cache = prep()
    dus = gpu_us(lambda: decode(cache))
    dk, dkus = kernels(lambda: decode(cache))
    if os.environ.get("KERNELS"):
        table(name + " decode", lambda: decode(cache))
    del cache
    torch.cuda.empty_cache()
    pids = torch.randint(0, V, (pb, ps), device=dev)

    def prefill():
        with torch.inference_mode():
            m(input_ids=pids, use_cache=False, logits_to_keep=1)

    prefill()
    ppeak = peak(prefill)
    pus = gpu_us(prefill)
    pk, pkus = kernels(prefill)
    if os.environ.get("KERNELS"):
        table(name + " prefill", prefill)
    out.write("%s\tdecode\t%d\t%d\t%d\t%d\t%.1f\t%d\t%.1f\n" % (name, db, dc, params, dpeak, dus, dk, dkus))
    out.write("%s\tprefill\t%d\t%d\t%d\t%d\t%.1f\t%d\t%.1f\n" % (name, pb, ps, params, ppeak, pus, pk, pkus))
    out.flush()
    del m
    torch.cuda.empty_cache()


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    names = sys.argv[2:] or list(MODELS)
    with open(os.path.join(outdir, "families.txt"), "a") as out:
        for n in names:
            try:
                measure(n, out)
            except Exception as e:  # one model's failure is reported, the rest run
                out.write("%s\terror\t%s\n" % (n, str(e).replace("\n", " ")[:300]))
                out.flush()
            print(n, "done", flush=True)


if __name__ == "__main__":
    main()
