# record.py - the PyTorch profiler traces behind tests/data/trace_*.json.gz of
# issue 13 (inference: LLMs with grouped-query attention, a mixture of experts,
# vision transformers and PyTorch's fused transformer paths) and issue 14
# (training steps: a CNN, a GPT-2 LM under autocast with AdamW, a ViT).
# Run on the GPU machine:  python3 bench/traces/record.py OUTDIR [NAME...]
#
# Every model is built from its configuration with random weights (no
# downloads). One profiled step after three warm-up steps, with
# torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True,
# with_flops=True), exported with export_chrome_trace and gzipped; the same
# method as ../shared/fixtures/pytorch-traces. Beside each trace, one line of
# OUTDIR/summary.txt: kernels, kernel time, and the step's GPU time measured
# without the profiler (CUDA events over 10 steps, median).
import gzip, os, platform, shutil, statistics, sys

import torch
import torch.nn as nn
import torch.nn.functional as F

dev = "cuda"
BF = torch.bfloat16
torch.manual_seed(0)


def llama_cfg(layers):
    """Llama-3-8B (examples/llama3-8b.json) with LAYERS decoder layers."""
    from transformers import LlamaConfig
    return LlamaConfig(vocab_size=128256, hidden_size=4096, intermediate_size=14336,
                       num_hidden_layers=layers, num_attention_heads=32,
                       num_key_value_heads=8, max_position_embeddings=8192,
                       rms_norm_eps=1e-5, rope_theta=500000.0,
                       tie_word_embeddings=False, attn_implementation="sdpa")


def mixtral_cfg(layers):
    """Mixtral-8x7B (examples/mixtral-8x7b.json) with LAYERS decoder layers."""
    from transformers import MixtralConfig
    return MixtralConfig(vocab_size=32000, hidden_size=4096, intermediate_size=14336,
                         num_hidden_layers=layers, num_attention_heads=32,
                         num_key_value_heads=8, num_local_experts=8,
                         num_experts_per_tok=2, max_position_embeddings=32768,
                         rms_norm_eps=1e-5, rope_theta=1e6,
                         tie_word_embeddings=False, attn_implementation="sdpa")


def causal_lm(cls_cfg, model_cls):
    with torch.device(dev):
        m = model_cls(cls_cfg).to(BF).eval()
    return m


def decode_step(model, batch, context):
    """A step function: one decode token per sequence on a KV cache of
    CONTEXT tokens (the prefill that fills the cache is not profiled)."""
    from transformers import DynamicCache
    ids = torch.randint(0, model.config.vocab_size, (batch, context), device=dev)
    tok = torch.randint(0, model.config.vocab_size, (batch, 1), device=dev)

    def prep():
        try:  # generate()'s cache: sliding layers keep their window
            cache = DynamicCache(config=model.config)
        except TypeError:
            cache = DynamicCache()
        with torch.inference_mode():
            model(input_ids=ids, past_key_values=cache, use_cache=True)
        return cache

    def step(cache):
        with torch.inference_mode():
            model(input_ids=tok, past_key_values=cache, use_cache=True)
    return prep, step


def prefill_step(model, batch, seq):
    ids = torch.randint(0, model.config.vocab_size, (batch, seq), device=dev)

    def step(_):
        with torch.inference_mode():
            model(input_ids=ids, use_cache=False)
    return None, step


class GQA(nn.Module):
    """SDPA with enable_gqa: 32 query heads over 8 KV heads, head dim 128."""

    def forward(self, q, k, v, causal):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)


def gqa_steps():
    q1, k1 = torch.randn(64, 32, 1, 128, device=dev, dtype=BF), torch.randn(64, 8, 2048, 128, device=dev, dtype=BF)
    v1 = torch.randn_like(k1)
    q2, k2 = torch.randn(4, 32, 1024, 128, device=dev, dtype=BF), torch.randn(4, 8, 1024, 128, device=dev, dtype=BF)
    v2 = torch.randn_like(k2)
    m = GQA()
    x = torch.randn(64, 4096, device=dev, dtype=BF)
    norm = nn.RMSNorm(4096, device=dev, dtype=BF)

    def step(_):
        with torch.inference_mode():
            m(q1, k1, v1, False)
            m(q2, k2, v2, True)
            norm(x)
    return None, step


def vit_step(batch):
    import torchvision
    with torch.device(dev):
        m = torchvision.models.vit_b_16().to(BF).eval()
    x = torch.randn(batch, 3, 224, 224, device=dev, dtype=BF)

    def step(_):
        with torch.inference_mode():
            m(x)
    return None, step


def encoder_step():
    layer = nn.TransformerEncoderLayer(768, 12, 3072, batch_first=True, norm_first=False)
    with torch.device(dev):
        m = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False).to(dev).to(BF).eval()
    x = torch.randn(32, 128, 768, device=dev, dtype=BF)

    def step(_):
        with torch.inference_mode():
            m(x)
    return None, step


def train_steps(model, make_batch, loss_fn, opt, autocast):
    def step(_):
        x, y = make_batch()
        with torch.autocast("cuda", dtype=BF, enabled=autocast):
            loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return None, step


def resnet_train(batch):
    import torchvision
    m = torchvision.models.resnet18().to(dev).to(memory_format=torch.channels_last).train()
    x = torch.randn(batch, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (batch,), device=dev)
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    return train_steps(m, lambda: (x, y), F.cross_entropy, opt, True)


def gpt2_train(batch, seq):
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(n_layer=6, attn_implementation="sdpa")
    m = GPT2LMHeadModel(cfg).to(dev).train()
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device=dev)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4)

    def loss_fn(out, y):
        return F.cross_entropy(out.logits.view(-1, out.logits.size(-1)), y.view(-1))
    return train_steps(m, lambda: (ids, ids), loss_fn, opt, True)


def vit_train(batch):
    import torchvision
    m = torchvision.models.vit_b_16().to(dev).train()
    x = torch.randn(batch, 3, 224, 224, device=dev)
    y = torch.randint(0, 1000, (batch,), device=dev)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True)
    return train_steps(m, lambda: (x, y), F.cross_entropy, opt, True)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def hf_model(example, layers):
    """The causal LM of examples/EXAMPLE.json, LAYERS decoder layers of it
    (0: all), bf16, sdpa, random weights: the config roofline model reads
    (tests/data/impl/EXAMPLE-lLAYERS.json is the same file with the layers
    set, and where it exists it is the one read: issue 24's families keep
    their first LAYERS layer_types and no quantization_config, since the
    recording holds its weights in bf16). gpt_oss runs eager attention (its
    sinks have no sdpa path in transformers 5.17)."""
    import json
    from transformers import AutoConfig, AutoModelForCausalLM
    l2 = os.path.join(ROOT, "tests", "data", "impl", "%s-l%d.json" % (example, layers))
    d = json.load(open(l2 if layers and os.path.exists(l2) else
                       os.path.join(ROOT, "examples", example + ".json")))
    if layers:
        d["n_layer" if d["model_type"] == "gpt2" else "num_hidden_layers"] = layers
    for key in ("architectures", "transformers_version", "torch_dtype", "dtype",
                "quantization_config", "auto_map"):
        d.pop(key, None)
    mt = d.pop("model_type")
    cfg = AutoConfig.for_model(mt, **d)
    attn = "eager" if mt == "gpt_oss" else "sdpa"
    with torch.device(dev):
        m = AutoModelForCausalLM.from_config(cfg, attn_implementation=attn).to(BF).eval()
    return m


def decode_steps(model, batch, context, n):
    """N decode steps one after another on one DynamicCache that starts at
    CONTEXT tokens and grows by one a step, as generate() runs them (each
    step sees a new KV length)."""
    prep, one = decode_step(model, batch, context)
    tok = torch.randint(0, model.config.vocab_size, (batch, 1), device=dev)

    def step(cache):
        with torch.inference_mode():
            for _ in range(n):
                model(input_ids=tok, past_key_values=cache, use_cache=True)
    return prep, step


def impl_models():
    """Issue 23's eager recordings: name -> (builder, description). The
    transformers eager stack (DynamicCache, sdpa) at prefill and decode,
    several families, batches 1 to 64, contexts to 8,192."""
    spec = [
        # name, example, layers, phase, batch, seq or context
        ("llama3_8b_l2", "llama3-8b", 2, "decode", 16, 1024),
        ("llama3_8b_l2", "llama3-8b", 2, "decode", 64, 4096),
        ("llama3_8b_l2", "llama3-8b", 2, "prefill", 4, 2048),
        ("qwen2_7b_l2", "qwen2-7b", 2, "decode", 8, 4096),
        ("qwen2_7b_l2", "qwen2-7b", 2, "prefill", 1, 2048),
        ("qwen3_8b_l2", "qwen3-8b", 2, "decode", 4, 8192),
        ("qwen3_8b_l2", "qwen3-8b", 2, "decode", 32, 2048),
        ("qwen3_8b_l2", "qwen3-8b", 2, "prefill", 2, 1024),
        ("gpt2", "gpt2", 0, "decode", 4, 1000),
        ("gpt2", "gpt2", 0, "prefill", 8, 512),
        ("mixtral_8x7b_l2", "mixtral-8x7b", 2, "decode", 16, 2048),
        # a fresh held-out set, recorded after the implementation files
        # were written (docs/measurements/h200-issue23-fresh-2026-12-02)
        ("llama3_70b_l2", "llama3-70b", 2, "decode", 8, 2048),
        ("llama3_70b_l2", "llama3-70b", 2, "prefill", 1, 1024),
        ("qwen2_7b_l2", "qwen2-7b", 2, "decode", 32, 1024),
        ("llama3_8b_l2", "llama3-8b", 2, "decode", 2, 8192),
        ("gpt2", "gpt2", 0, "decode", 32, 256),
        ("qwen3_8b_l2", "qwen3-8b", 2, "prefill", 8, 512),
        ("mixtral_8x7b_l2", "mixtral-8x7b", 2, "prefill", 4, 512),
        # issue 24's families with no hf lines before these recordings
        # (docs/measurements/h200-issue24-traces-2026-12-03): the first
        # two of each read, the other two held out
        ("falcon_7b_l2", "falcon-7b", 2, "decode", 8, 2048),
        ("falcon_7b_l2", "falcon-7b", 2, "prefill", 1, 2048),
        ("falcon_7b_l2", "falcon-7b", 2, "decode", 32, 1024),
        ("falcon_7b_l2", "falcon-7b", 2, "prefill", 4, 512),
        ("deepseek_v2_lite_l2", "deepseek-v2-lite", 2, "decode", 8, 4096),
        ("deepseek_v2_lite_l2", "deepseek-v2-lite", 2, "prefill", 1, 2048),
        ("deepseek_v2_lite_l2", "deepseek-v2-lite", 2, "decode", 1, 2048),
        ("deepseek_v2_lite_l2", "deepseek-v2-lite", 2, "prefill", 2, 1024),
        ("gpt_oss_20b_l2", "gpt-oss-20b", 2, "decode", 8, 4096),
        ("gpt_oss_20b_l2", "gpt-oss-20b", 2, "prefill", 1, 2048),
        ("gpt_oss_20b_l2", "gpt-oss-20b", 2, "decode", 32, 1024),
        ("gpt_oss_20b_l2", "gpt-oss-20b", 2, "prefill", 4, 512),
        # issue 24's families whose hf lines were first written from the
        # code they share (docs/measurements/h200-issue24-traces2-2026-12-03)
        ("phi3_mini_l2", "phi3-mini", 2, "decode", 8, 4096),
        ("phi3_mini_l2", "phi3-mini", 2, "prefill", 1, 2048),
        ("gemma2_9b_l2", "gemma2-9b", 2, "decode", 8, 8192),
        ("gemma2_9b_l2", "gemma2-9b", 2, "prefill", 1, 2048),
        ("gemma3_1b_l2", "gemma3-1b", 2, "decode", 8, 8192),
        ("gemma3_1b_l2", "gemma3-1b", 2, "prefill", 1, 2048),
        ("olmo2_7b_l2", "olmo2-7b", 2, "decode", 8, 4096),
        ("olmo2_7b_l2", "olmo2-7b", 2, "prefill", 1, 2048),
        ("granite3_8b_l2", "granite3-8b", 2, "decode", 8, 4096),
        ("granite3_8b_l2", "granite3-8b", 2, "prefill", 1, 2048),
        ("qwen15_moe_l2", "qwen1.5-moe-a2.7b", 2, "decode", 8, 4096),
        ("qwen15_moe_l2", "qwen1.5-moe-a2.7b", 2, "prefill", 1, 2048),
        ("qwen3_30b_a3b_l2", "qwen3-30b-a3b", 2, "decode", 8, 4096),
        ("qwen3_30b_a3b_l2", "qwen3-30b-a3b", 2, "prefill", 1, 2048),
        # DeepSeek-V3's router (sigmoid scores, a bias, group-limited top-k):
        # a dense layer and an MoE layer (tests/data/impl/deepseek-v3-l2.json:
        # first_k_dense_replace 1, no quantization_config, no MTP layer); the
        # first two read, the other two held out
        ("deepseek_v3_l2", "deepseek-v3", 2, "decode", 8, 2048),
        ("deepseek_v3_l2", "deepseek-v3", 2, "prefill", 1, 1024),
        ("deepseek_v3_l2", "deepseek-v3", 2, "decode", 32, 1024),
        ("deepseek_v3_l2", "deepseek-v3", 2, "prefill", 2, 512),
    ]
    out = {}
    for name, ex, layers, phase, b, n in spec:
        if phase == "decode":
            key = "hf_%s_decode_b%d_c%d_bf16" % (name, b, n)
            out[key] = ((lambda ex=ex, layers=layers, b=b, n=n: decode_step(hf_model(ex, layers), b, n)),
                        "transformers eager %s (%s layers), decode batch %d on a %d-token DynamicCache" % (ex, layers or "all", b, n))
        else:
            key = "hf_%s_prefill_b%d_s%d_bf16" % (name, b, n)
            out[key] = ((lambda ex=ex, layers=layers, b=b, n=n: prefill_step(hf_model(ex, layers), b, n)),
                        "transformers eager %s (%s layers), prefill batch %d of %d tokens" % (ex, layers or "all", b, n))
    out["hf_llama3_8b_l2_decode4_b1_c2048_bf16"] = (
        lambda: decode_steps(hf_model("llama3-8b", 2), 1, 2048, 4),
        "transformers eager llama3-8b (2 layers), 4 decode steps in a row, batch 1, the DynamicCache growing from 2048 tokens")
    return out


def record_compiled(outdir, name, example, layers, batch, prompt, new, summary):
    """generate() with cache_implementation="static", which compiles the
    forward (torch.compile, transformers' default CompileConfig) once the
    cache is static: the time per generated token (the NEW-token call less
    the 1-token call, over NEW - 1), the kernels and kernel time per token
    (a profiled 9-token call less a profiled 1-token call, over 8), and
    the peak memory of the NEW-token call."""
    import json, time
    from torch.profiler import profile, ProfilerActivity
    m = hf_model(example, layers)
    ids = torch.randint(0, m.config.vocab_size, (batch, prompt), device=dev)

    def gen(n):
        with torch.inference_mode():
            m.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=n,
                       min_new_tokens=n, do_sample=False, cache_implementation="static",
                       pad_token_id=0)

    t0 = time.perf_counter()
    for n in (new, new, 1, 9, 1, 9):
        gen(n)
    torch.cuda.synchronize()
    warm = time.perf_counter() - t0

    def timed(n):
        ts = []
        for _ in range(5):
            torch.cuda.synchronize()
            t = time.perf_counter()
            gen(n)
            torch.cuda.synchronize()
            ts.append(time.perf_counter() - t)
        return statistics.median(ts) * 1e6
    t1, tn = timed(1), timed(new)
    torch.cuda.reset_peak_memory_stats()
    gen(new)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated()
    counts = {}
    for n in (1, 9):
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
            gen(n)
            torch.cuda.synchronize()
        path = os.path.join(outdir, "trace_%s_gen%d.json" % (name, n))
        p.export_chrome_trace(path)
        ev = json.load(open(path))["traceEvents"]
        k = [e for e in ev if e.get("cat") == "kernel"]
        counts[n] = (len(k), sum(e.get("dur", 0) for e in k))
        with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
            shutil.copyfileobj(f, g)
        os.remove(path)
    kpt = (counts[9][0] - counts[1][0]) / 8.0
    ktpt = (counts[9][1] - counts[1][1]) / 8.0
    line = ("%s\t%.1f kernels per token\t%.2f us kernel time per token\t%.1f us per token (generate %d less 1, median of 5)"
            "\t%.1f us generate(1)\t%d B peak allocated\t%.0f s compile and warm-up"
            "\tcompiled %s (%s layers), batch %d, prompt %d, %d new tokens, static cache") % (
        name, kpt, ktpt, (tn - t1) / (new - 1), new, t1, peak, warm, example, layers or "all", batch, prompt, new)
    print(line, flush=True)
    summary.write(line + "\n")
    summary.flush()


COMPILED = {
    "compiled_llama3_8b_l2_b1_p512": ("llama3-8b", 2, 1, 512, 64),
    "compiled_qwen3_8b_l2_b8_p1024": ("qwen3-8b", 2, 8, 1024, 64),
    "compiled_gpt2_b4_p256": ("gpt2", 0, 4, 256, 64),
    "compiled_qwen2_7b_l2_b4_p512": ("qwen2-7b", 2, 4, 512, 64),
    "compiled_llama3_8b_l2_b16_p1024": ("llama3-8b", 2, 16, 1024, 64),
}


def compiled_forward(example, layers, mode, batch, seq):
    """torch.compile(MODE) of the causal LM's forward over BATCH x SEQ
    tokens, no cache (a prefill)."""
    m = hf_model(example, layers)
    cm = torch.compile(m, mode=mode)
    ids = torch.randint(0, m.config.vocab_size, (batch, seq), device=dev)

    def step(_):
        with torch.no_grad():
            cm(input_ids=ids, use_cache=False)
    return None, step


def compiled_decode(example, layers, batch, context):
    """torch.compile (default mode) of the causal LM's forward, one decode
    token per sequence on a DynamicCache of CONTEXT tokens (rebuilt by prep,
    so that every step sees the same shapes)."""
    m = hf_model(example, layers)
    cm = torch.compile(m)
    prep, _ = decode_step(m, batch, context)
    tok = torch.randint(0, m.config.vocab_size, (batch, 1), device=dev)

    def step(cache):
        with torch.no_grad():
            cm(input_ids=tok, past_key_values=cache, use_cache=True)
    return prep, step


def compiled_vision(name, batch, mode=None):
    import torchvision
    with torch.device(dev):
        m = getattr(torchvision.models, name)().to(BF).eval().to(memory_format=torch.channels_last)
    cm = torch.compile(m, mode=mode)
    x = torch.randn(batch, 3, 224, 224, device=dev, dtype=BF).to(memory_format=torch.channels_last)

    def step(_):
        with torch.no_grad():
            cm(x)
    return None, step


def compiled_gpt2_train(batch, seq):
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(n_layer=6, attn_implementation="sdpa")
    m = GPT2LMHeadModel(cfg).to(dev).train()
    cm = torch.compile(m)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device=dev)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4)

    def loss_fn(out, y):
        return F.cross_entropy(out.logits.view(-1, out.logits.size(-1)), y.view(-1))
    return train_steps(cm, lambda: (ids, ids), loss_fn, opt, True)


# issue 25: torch.compile's programs. Default mode: every Triton kernel is
# a cpu_op of its own name with its inputs' dims, types and strides.
# reduce-overhead ("_ro"): the kernels run in CUDA graphs; "_capture" traces
# hold the call that captures the graph (cudagraph trees: the first call
# warms up, the second records and replays, the rest replay) and two
# replays, the others replays alone.
COMPILE_TRACES = {
    "compiled_llama3_8b_l2_prefill_b1_s1024": (lambda: compiled_forward("llama3-8b", 2, None, 1, 1024),
        "torch.compile (default) Llama-3-8B, 2 layers, prefill batch 1 of 1024 tokens"),
    "compiled_qwen3_8b_l2_prefill_b2_s512": (lambda: compiled_forward("qwen3-8b", 2, None, 2, 512),
        "torch.compile (default) Qwen3-8B, 2 layers, prefill batch 2 of 512 tokens"),
    "compiled_gpt2_prefill_b8_s512": (lambda: compiled_forward("gpt2", 0, None, 8, 512),
        "torch.compile (default) GPT-2, prefill batch 8 of 512 tokens"),
    "compiled_llama3_8b_l2_decode_b8_c1024": (lambda: compiled_decode("llama3-8b", 2, 8, 1024),
        "torch.compile (default) Llama-3-8B, 2 layers, decode batch 8 on a 1024-token DynamicCache"),
    "compiled_resnet50_fwd_b32": (lambda: compiled_vision("resnet50", 32),
        "torch.compile (default) torchvision resnet50 forward, batch 32 at 224, channels_last, bf16"),
    "compiled_convnext_tiny_fwd_b32": (lambda: compiled_vision("convnext_tiny", 32),
        "torch.compile (default) torchvision convnext_tiny forward, batch 32 at 224, channels_last, bf16"),
    "compiled_train_gpt2_l6_b8_s512_adamw_amp": (lambda: compiled_gpt2_train(8, 512),
        "torch.compile (default) GPT-2 small with 6 layers, training step, batch 8 x 512, bf16 autocast, AdamW (foreach, eager)"),
    "compiled_ro_llama3_8b_l2_prefill_b1_s1024_capture": (lambda: compiled_forward("llama3-8b", 2, "reduce-overhead", 1, 1024),
        "torch.compile (reduce-overhead) Llama-3-8B, 2 layers, prefill batch 1 of 1024: the CUDA graph's capture and two replays"),
    "compiled_ro_qwen3_8b_l2_prefill_b2_s512": (lambda: compiled_forward("qwen3-8b", 2, "reduce-overhead", 2, 512),
        "torch.compile (reduce-overhead) Qwen3-8B, 2 layers, prefill batch 2 of 512: one CUDA graph replay"),
    "compiled_ro_resnet50_fwd_b32_capture": (lambda: compiled_vision("resnet50", 32, "reduce-overhead"),
        "torch.compile (reduce-overhead) resnet50 forward, batch 32: the CUDA graph's capture and two replays"),
    # held out: chosen before the import's rules were set, and only read to
    # report their error (docs/trace-import.md, "Compiled programs")
    "compiled_phi3_mini_l4_prefill_b4_s512": (lambda: compiled_forward("phi3-mini", 4, None, 4, 512),
        "held out: torch.compile (default) Phi-3-mini, 4 layers, prefill batch 4 of 512 tokens"),
    "compiled_olmo2_7b_l2_prefill_b2_s1024": (lambda: compiled_forward("olmo2-7b", 2, None, 2, 1024),
        "held out: torch.compile (default) OLMo-2-7B, 2 layers, prefill batch 2 of 1024 tokens"),
    "compiled_granite3_8b_l2_decode_b16_c512": (lambda: compiled_decode("granite3-8b", 2, 16, 512),
        "held out: torch.compile (default) Granite-3-8B, 2 layers, decode batch 16 on a 512-token DynamicCache"),
    "compiled_resnet18_fwd_b64": (lambda: compiled_vision("resnet18", 64),
        "held out: torch.compile (default) torchvision resnet18 forward, batch 64 at 224, channels_last, bf16"),
    "compiled_vit_b_16_fwd_b32": (lambda: compiled_vision("vit_b_16", 32),
        "held out: torch.compile (default) torchvision vit_b_16 forward, batch 32 at 224, bf16"),
    "compiled_ro_gpt2_prefill_b4_s256_capture": (lambda: compiled_forward("gpt2", 0, "reduce-overhead", 4, 256),
        "held out: torch.compile (reduce-overhead) GPT-2, prefill batch 4 of 256: the CUDA graph's capture and two replays"),
}


def record_capture(outdir, name, builder, desc, summary):
    """A reduce-overhead program's first calls in one trace: after the call
    that compiles and warms up, the call that captures and replays, and two
    more replays."""
    import json
    from torch.profiler import profile, ProfilerActivity
    _, step = builder()
    step(None)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 record_shapes=True, with_flops=True) as p:
        for _ in range(3):
            step(None)
        torch.cuda.synchronize()
    wall = gpu_time_us(None, step)
    path = os.path.join(outdir, "trace_%s.json" % name)
    p.export_chrome_trace(path)
    ev = json.load(open(path))["traceEvents"]
    k = [e for e in ev if e.get("cat") == "kernel"]
    ktime = sum(e.get("dur", 0) for e in k)
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(path)
    line = "%s\t%d kernels\t%.1f us kernel time\t%.1f us step (events, median of 10, no profiler)\t%s" % (
        name, len(k), ktime, wall, desc)
    print(line, flush=True)
    summary.write(line + "\n")
    summary.flush()


def memory_breakdown(example, layers):
    """Where a step's peak memory goes beside the weights: the bytes of the
    parameters and buffers against torch.cuda.memory_allocated()."""
    m = hf_model(example, layers)
    torch.cuda.synchronize()
    p = sum(t.numel() * t.element_size() for t in m.parameters())
    b = sum(t.numel() * t.element_size() for t in m.buffers())
    shared = len({t.data_ptr() for t in m.parameters()}) != len(list(m.parameters()))
    print("memory %s l%s: parameters %d B, buffers %d B, allocated %d B, shared storage %s, dtypes %s" % (
        example, layers, p, b, torch.cuda.memory_allocated(), shared,
        sorted({str(t.dtype) for t in m.parameters()})), flush=True)


def models():
    """name -> (builder, description); built lazily, one at a time."""
    from transformers import LlamaForCausalLM, MixtralForCausalLM
    return {
        "llama3_8b_l2_decode_b1_c2048_bf16": (lambda: decode_step(causal_lm(llama_cfg(2), LlamaForCausalLM), 1, 2048),
                                              "Llama-3-8B, 2 of 32 layers, decode batch 1 on a 2048-token KV cache"),
        "llama3_8b_l2_prefill_b1_s512_bf16": (lambda: prefill_step(causal_lm(llama_cfg(2), LlamaForCausalLM), 1, 512),
                                              "Llama-3-8B, 2 of 32 layers, prefill batch 1 of 512 tokens"),
        "mixtral_8x7b_l2_decode_b1_c512_bf16": (lambda: decode_step(causal_lm(mixtral_cfg(2), MixtralForCausalLM), 1, 512),
                                                "Mixtral-8x7B, 2 of 32 layers, decode batch 1 on a 512-token KV cache"),
        "mixtral_8x7b_l2_decode_b64_c512_bf16": (lambda: decode_step(causal_lm(mixtral_cfg(2), MixtralForCausalLM), 64, 512),
                                                 "Mixtral-8x7B, 2 of 32 layers, decode batch 64 on a 512-token KV cache"),
        "mixtral_8x7b_l2_prefill_b1_s256_bf16": (lambda: prefill_step(causal_lm(mixtral_cfg(2), MixtralForCausalLM), 1, 256),
                                                 "Mixtral-8x7B, 2 of 32 layers, prefill batch 1 of 256 tokens"),
        "sdpa_gqa_rmsnorm_bf16": (gqa_steps, "SDPA enable_gqa decode (64x32x1 over 64x8x2048, d 128) and causal prefill (4x32x1024 over 4x8x1024), nn.RMSNorm(4096) on 64 rows"),
        "vit_b16_fwd_b32_bf16": (lambda: vit_step(32), "torchvision vit_b_16 forward, batch 32, MultiheadAttention fast path"),
        "encoder_l4_fwd_b32_s128_bf16": (encoder_step, "nn.TransformerEncoder, 4 layers of d 768, 12 heads, FFN 3072, batch 32 x 128, fast path"),
        "train_resnet18_b64_sgd_amp": (lambda: resnet_train(64), "torchvision resnet18 training step, batch 64 at 224, channels_last, bf16 autocast, SGD momentum 0.9"),
        "train_gpt2_l6_b8_s512_adamw_amp": (lambda: gpt2_train(8, 512), "GPT-2 small with 6 layers, training step, batch 8 x 512, bf16 autocast, AdamW (foreach)"),
        "train_vit_b16_b32_adamw_fused_amp": (lambda: vit_train(32), "torchvision vit_b_16 training step, batch 32, bf16 autocast, AdamW (fused)"),
    }


def gpu_time_us(prep, step, n=10):
    ts = []
    for _ in range(n):
        c = prep() if prep else None
        torch.cuda.synchronize()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record(); step(c); e1.record(); e1.synchronize()
        ts.append(e0.elapsed_time(e1) * 1e3)
    return statistics.median(ts)


def record(outdir, name, builder, desc, summary):
    from torch.profiler import profile, ProfilerActivity
    prep, step = builder()
    for _ in range(3):
        step(prep() if prep else None)
    torch.cuda.synchronize()
    wall = gpu_time_us(prep, step)
    c = prep() if prep else None
    torch.cuda.synchronize()
    # a decode step's peak in steady state: the second step after the
    # prefill (in the first, a sliding layer's DynamicSlidingWindowLayer
    # still holds the prefill's whole K and V; bench/families/measure.py
    # does the same)
    if prep:
        step(c)
        torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    step(c)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated()
    c = prep() if prep else None
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 record_shapes=True, with_flops=True) as p:
        step(c)
        torch.cuda.synchronize()
    path = os.path.join(outdir, "trace_%s.json" % name)
    p.export_chrome_trace(path)
    import json
    ev = json.load(open(path))["traceEvents"]
    k = [e for e in ev if e.get("cat") == "kernel"]
    ktime = sum(e.get("dur", 0) for e in k)
    span = (max(e["ts"] + e["dur"] for e in k) - min(e["ts"] for e in k)) if k else 0
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(path)
    line = "%s\t%d kernels\t%.1f us kernel time\t%.1f us kernel span\t%.1f us step (events, median of 10, no profiler)\t%d B peak allocated\t%s" % (
        name, len(k), ktime, span, wall, peak, desc)
    print(line, flush=True)
    summary.write(line + "\n")
    summary.flush()


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    import transformers
    try:
        import torchvision
        tv = torchvision.__version__
    except ImportError:
        tv = "none"
    summary = open(os.path.join(outdir, "summary.txt"), "a")
    head = "torch %s cuda %s %s python %s transformers %s torchvision %s" % (
        torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0),
        platform.python_version(), transformers.__version__, tv)
    print(head)
    summary.write("# " + head + "\n")
    todo = models()
    todo.update(impl_models())
    names = sys.argv[2:] or list(todo) + list(COMPILED) + list(COMPILE_TRACES)
    for n in names:
        try:
            if n.startswith("memory:"):  # memory:EXAMPLE,LAYERS
                ex, layers = n[7:].split(",")
                memory_breakdown(ex, int(layers))
            elif n in COMPILED:
                record_compiled(outdir, n, *COMPILED[n], summary)
            elif n.endswith("_capture"):
                record_capture(outdir, n, *COMPILE_TRACES[n], summary)
            elif n in COMPILE_TRACES:
                record(outdir, n, *COMPILE_TRACES[n], summary)
            else:
                builder, desc = todo[n]
                record(outdir, n, builder, desc, summary)
        except Exception as e:  # one model's failure must not lose the others
            print("FAILED %s: %r" % (n, e), flush=True)
            summary.write("# FAILED %s: %r\n" % (n, e))
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
