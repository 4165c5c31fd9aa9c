# Times PyTorch ops on the GPU, for the expected-time model (docs/expected.md):
# the kernels' GPU time with a cold L2 (the L2 flushed by reading 512 MiB
# before each run), as the profiler records kernel durations (measured_us:
# the sum of the op's kernels, as a trace shows them) and as CUDA events
# around the op alone see it (event_us: plus the launch-to-start latency of
# an isolated kernel), the time per call in CUDA-graph replay, and the eager
# wall time per call (back to back, one synchronize). Writes an op list with
# measured_us and the others as carried-through columns, plus the kernels
# each op ran.
#
# Run on the GPU machine: python3 bench/expected/measure.py OUT.csv [--fresh]
# (--fresh: the families measured after the profile was frozen, split "fresh")
# Families and their split (fit or held-out) are fixed here, before fitting.
import csv, math, statistics, sys, time

import torch
import torch.nn.functional as F

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = "cuda"
BF, H, F32 = torch.bfloat16, torch.float16, torch.float32
DT = {BF: "bf16", H: "fp16", F32: "fp32"}
# A read flush leaves the L2 clean: a write flush (zero_) leaves up to its
# whole size of dirty lines, whose write-back then competes with the timed
# op (+10 us on a 134 MB GEMV in the first run, measure-run1-writeflush.log).
# The flush reduces uint8 data, a kernel no timed op runs ("unsigned char" in
# its name), so the profiler's kernels of the op can be told from it.
flush = torch.randint(0, 255, (512 * 2**20,), dtype=torch.uint8, device=dev)

ROWS = []
# The split, chosen before any fit: whole model families and shape families
# are held out, never single points.
HELD_OUT = {"llama2-7b-decode", "gpt2-small", "bert-base", "vit-b16", "mixtral-experts",
            "convnet-vgg", "odd-gemm", "sweep-pointwise-fp16", "sweep-norm-fp32"}


def op(family, name, kind, dtype, shape, fn, **cols):
    ROWS.append(dict(family=family, name=name, kind=kind, dtype=dtype, shape=shape, fn=fn, cols=cols))


def rnd(*s, dtype=BF):
    return torch.randn(*s, device=dev, dtype=dtype)


def shape_str(*d):
    return "x".join(str(int(x)) for x in d)


# ---- builders: each returns a zero-argument callable running one op -------
def b_mm(m, n, k, dtype=BF, linear=False, batch=None):
    def make():
        if batch:
            a, b = rnd(batch, m, k, dtype=dtype), rnd(batch, k, n, dtype=dtype)
            return lambda: torch.bmm(a, b)
        if linear:
            x, w = rnd(m, k, dtype=dtype), rnd(n, k, dtype=dtype)
            return lambda: F.linear(x, w)
        a, b = rnd(m, k, dtype=dtype), rnd(k, n, dtype=dtype)
        return lambda: torch.mm(a, b)
    return make


def add_mm(family, name, m, n, k, dtype=BF, linear=False, batch=None):
    shp = shape_str(batch, m, n, k) if batch else shape_str(m, n, k)
    op(family, name, "matmul", DT[dtype] if not (dtype == F32 and torch.backends.cuda.matmul.allow_tf32) else "tf32",
       shp, b_mm(m, n, k, dtype, linear, batch))


def add_pw(family, name, n, dtype, which):
    def make():
        a, b = rnd(n, dtype=dtype), rnd(n, dtype=dtype)
        return {"relu": lambda: torch.relu(a), "add": lambda: a + b, "mul2": lambda: a * 2,
                "gelu": lambda: F.gelu(a), "silu": lambda: F.silu(a), "mul": lambda: a * b,
                "cos": lambda: torch.cos(a)}[which]
    inputs = 2 if which in ("add", "mul") else 1
    fpe = {"gelu": 8, "silu": 4, "cos": 4}.get(which, 1)
    op(family, name, "pointwise", DT[dtype], shape_str(n), make, inputs=inputs, flops_per_element=fpe)


def add_pw2d(family, name, rows, cols_, dtype, which):
    def make():
        a, b = rnd(rows, cols_, dtype=dtype), rnd(rows, cols_, dtype=dtype)
        return {"silu": lambda: F.silu(a), "mul": lambda: a * b, "add": lambda: a + b,
                "gelu": lambda: F.gelu(a), "relu": lambda: torch.relu(a)}[which]
    inputs = 2 if which in ("add", "mul") else 1
    fpe = {"gelu": 8, "silu": 4}.get(which, 1)
    op(family, name, "pointwise", DT[dtype], shape_str(rows, cols_), make, inputs=inputs,
       flops_per_element=fpe)


def add_softmax(family, name, rows, d, dtype=BF):
    def make():
        x = rnd(rows, d, dtype=dtype)
        return lambda: torch.softmax(x, -1)
    op(family, name, "softmax", DT[dtype], shape_str(rows, d), make)


def add_ln(family, name, rows, d, dtype=BF, rms=False):
    def make():
        x, w, b = rnd(rows, d, dtype=dtype), rnd(d, dtype=dtype), rnd(d, dtype=dtype)
        if rms:
            return lambda: F.rms_norm(x, (d,), w)
        return lambda: F.layer_norm(x, (d,), w, b)
    op(family, name, "layernorm", DT[dtype], shape_str(rows, d), make)


def add_sum(family, name, rows, d, dtype=BF):
    def make():
        x = rnd(rows, d, dtype=dtype)
        return lambda: x.sum(-1)
    op(family, name, "reduction", DT[dtype], shape_str(rows, d), make)


def add_copy(family, name, n, dtype=BF):
    def make():
        x = rnd(n, dtype=dtype)
        return lambda: x.clone()
    op(family, name, "copy", DT[dtype], shape_str(n), make)


def add_embed(family, name, tokens, hidden, vocab, dtype=BF):
    def make():
        w = rnd(vocab, hidden, dtype=dtype)
        idx = torch.randint(0, vocab, (tokens,), device=dev)
        return lambda: F.embedding(idx, w)
    op(family, name, "copy", DT[dtype], shape_str(tokens, hidden), make)


def add_attn(family, name, b, h, sq, sk, d, causal, dtype=BF):
    def make():
        q, k, v = rnd(b, h, sq, d, dtype=dtype), rnd(b, h, sk, d, dtype=dtype), rnd(b, h, sk, d, dtype=dtype)
        return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    shp = shape_str(b, h, sq, d) if sq == sk else shape_str(b, h, sq, sk, d)
    op(family, name, "attention", DT[dtype], shp, make, causal=causal)


def add_conv(family, name, n, c, hw, k, r, stride=1, pad=0, groups=1, dtype=BF):
    def make():
        x = rnd(n, c, hw, hw, dtype=dtype).to(memory_format=torch.channels_last)
        w = rnd(k, c // groups, r, r, dtype=dtype).to(memory_format=torch.channels_last)
        return lambda: F.conv2d(x, w, None, stride, pad, 1, groups)
    op(family, name, "conv2d", DT[dtype], shape_str(n, c, hw, hw), make,
       kernel=shape_str(k, r, r), stride=stride, padding=pad, groups=groups)


# ---- the op set ----------------------------------------------------------
def build():
    # Sweeps (fit unless named in HELD_OUT)
    for e in range(10, 29, 2):
        n = 2**e
        add_pw("sweep-pointwise", f"relu-f32-2^{e}", n, F32, "relu")
        add_pw("sweep-pointwise", f"add-f32-2^{e}", n, F32, "add")
        add_pw("sweep-pointwise", f"gelu-bf16-2^{e}", n, BF, "gelu")
        add_pw("sweep-pointwise", f"mul2-bf16-2^{e}", n, BF, "mul2")
        add_pw("sweep-pointwise-fp16", f"silu-f16-2^{e}", n, H, "silu")
        add_pw("sweep-pointwise-fp16", f"mul-f16-2^{e}", n, H, "mul")
        add_copy("sweep-copy", f"clone-bf16-2^{e}", n, BF)
    for e in (11, 15, 19, 23, 27):
        add_pw("sweep-pointwise", f"cos-f32-2^{e}", 2**e, F32, "cos")
        add_copy("sweep-copy", f"clone-f32-2^{e}", 2**e, F32)
    tot = 2**26
    for d in (64, 128, 512, 1000, 1024, 1536, 2048, 3000, 4096, 8192, 10240, 16384, 32768, 131072):
        add_softmax("sweep-softmax", f"softmax-bf16-d{d}", tot // d, d)
    for d in (128, 1024, 4096):
        add_softmax("sweep-softmax", f"softmax-bf16-few-d{d}", 64, d)
    for d in (128, 768, 1024, 1026, 2048, 4096, 4098, 8192, 16384, 65536):
        add_ln("sweep-norm", f"layernorm-bf16-n{d}", tot // d, d)
        add_ln("sweep-norm", f"rmsnorm-bf16-n{d}", tot // d, d, rms=True)
    for rows, d in ((128, 65536), (64, 8192), (1, 4096), (16, 4096), (256, 4096), (1024, 1024)):
        add_ln("sweep-norm", f"layernorm-bf16-{rows}x{d}", rows, d)
    for d in (768, 1024, 4096, 4098):
        add_ln("sweep-norm-fp32", f"layernorm-f32-n{d}", tot // 2 // d, d, dtype=F32)
        add_softmax("sweep-norm-fp32", f"softmax-f32-d{d}", tot // 2 // d, d, dtype=F32)
    for rows, d in ((1, 2**27), (16, 2**23), (1024, 131072), (32768, 4096), (2**20, 128),
                    (2**24, 8), (2**22, 32), (4096, 4096), (128, 1024), (8, 8192)):
        add_sum("sweep-reduction", f"sum-bf16-{rows}x{d}", rows, d)
    for s in (128, 256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 16384):
        add_mm("sweep-gemm", f"mm-bf16-{s}", s, s, s)
    for s in (512, 2048, 8192):
        add_mm("sweep-gemm", f"mm-f16-{s}", s, s, s, dtype=H)
        add_mm("sweep-gemm", f"mm-f32-{s}", s, s, s, dtype=F32)
    for n in (1024, 1536, 1792, 2304, 2816, 3328, 5120, 6144, 7168):
        add_mm("sweep-gemm", f"mm-bf16-4096x{n}x4096", 4096, n, 4096)
    for k in (64, 128, 256, 512, 1024, 2048):
        add_mm("sweep-gemm", f"mm-bf16-8192x8192x{k}", 8192, 8192, k)
    for m in (1, 4, 16, 64, 128, 256, 512):
        add_mm("sweep-gemm", f"mm-bf16-{m}x8192x8192", m, 8192, 8192)
        add_mm("sweep-gemm", f"mm-bf16-{m}x4096x14336", m, 4096, 14336)
    for m, n, k in ((4096, 4095, 4096), (4096, 4096, 4095), (4096, 4100, 4096),
                    (4095, 4096, 4096), (4096, 4104, 4096), (2048, 2050, 2048)):
        add_mm("sweep-gemm-align", f"mm-bf16-{m}x{n}x{k}", m, n, k)
    for b, s, d in ((64, 512, 64), (256, 128, 64), (32, 1024, 128), (512, 64, 64)):
        add_mm("sweep-bmm", f"bmm-scores-{b}x{s}x{d}", s, s, d, batch=b)
        add_mm("sweep-bmm", f"bmm-pv-{b}x{s}x{d}", s, d, s, batch=b)
    for d in (64, 128):
        for s, b, h in ((512, 32, 16), (1024, 16, 16), (2048, 8, 16), (4096, 4, 16), (8192, 2, 16)):
            for causal in (0, 1):
                add_attn("sweep-attention", f"sdpa-d{d}-s{s}-c{causal}", b, h, s, s, d, causal)
    for b, l in ((1, 8192), (8, 8192), (32, 4096), (64, 2048), (128, 512), (4, 32768)):
        add_attn("sweep-attention", f"decode-b{b}-l{l}", b, 32, 1, l, 128, 0)
    # ResNet-50 convolutions, batch 64, bf16 channels-last (fit)
    for name, c, hw, k, r, s, p in (("stem", 3, 224, 64, 7, 2, 3), ("l1-1x1a", 64, 56, 64, 1, 1, 0),
                                    ("l1-3x3", 64, 56, 64, 3, 1, 1), ("l1-1x1b", 64, 56, 256, 1, 1, 0),
                                    ("l2-3x3", 128, 28, 128, 3, 1, 1), ("l2-1x1b", 128, 28, 512, 1, 1, 0),
                                    ("l3-3x3", 256, 14, 256, 3, 1, 1), ("l3-1x1b", 256, 14, 1024, 1, 1, 0),
                                    ("l4-3x3", 512, 7, 512, 3, 1, 1), ("l4-1x1b", 512, 7, 2048, 1, 1, 0),
                                    ("l2-down", 256, 56, 512, 1, 2, 0)):
        add_conv("resnet50", f"resnet50-{name}", 64, c, hw, k, r, s, p)
    for name, c, hw in (("dw-112", 32, 112), ("dw-56", 144, 56), ("dw-14", 576, 14)):
        add_conv("resnet50", f"mobilenet-{name}", 64, c, hw, c, 3, 1, 1, groups=c)
    # Llama-3-8B prefill, batch 1, 2048 tokens (fit)
    T = 2048
    f = "llama3-8b-prefill"
    add_embed(f, "embed", T, 4096, 128256)
    add_ln(f, "rmsnorm", T, 4096, rms=True)
    add_mm(f, "qkv", T, 6144, 4096, linear=True)
    add_attn(f, "attn", 1, 32, T, T, 128, 1)
    add_mm(f, "o-proj", T, 4096, 4096, linear=True)
    add_pw2d(f, "residual-add", T, 4096, BF, "add")
    add_mm(f, "gate-up", T, 28672, 4096, linear=True)
    add_pw2d(f, "silu", T, 14336, BF, "silu")
    add_pw2d(f, "mul", T, 14336, BF, "mul")
    add_mm(f, "down", T, 4096, 14336, linear=True)
    add_mm(f, "lm-head", T, 128256, 4096, linear=True)
    # Held-out: Llama-2-7B decode (MHA), context 4096
    f = "llama2-7b-decode"
    for b in (1, 16, 64):
        add_ln(f, f"b{b}-rmsnorm", b, 4096, rms=True)
        add_mm(f, f"b{b}-qkv", b, 12288, 4096, linear=True)
        add_attn(f, f"b{b}-attn", b, 32, 1, 4096, 128, 0)
        add_mm(f, f"b{b}-o-proj", b, 4096, 4096, linear=True)
        add_mm(f, f"b{b}-gate-up", b, 22016, 4096, linear=True)
        add_pw2d(f, f"b{b}-silu", b, 11008, BF, "silu")
        add_mm(f, f"b{b}-down", b, 4096, 11008, linear=True)
        add_mm(f, f"b{b}-lm-head", b, 32000, 4096, linear=True)
    # Held-out: GPT-2 small, batch 8 x 1024 tokens
    f = "gpt2-small"
    T = 8 * 1024
    add_ln(f, "ln", T, 768)
    add_mm(f, "c-attn", T, 2304, 768, linear=True)
    add_attn(f, "attn", 8, 12, 1024, 1024, 64, 1)
    add_mm(f, "c-proj", T, 768, 768, linear=True)
    add_mm(f, "c-fc", T, 3072, 768, linear=True)
    add_pw2d(f, "gelu", T, 3072, BF, "gelu")
    add_mm(f, "mlp-proj", T, 768, 3072, linear=True)
    add_mm(f, "lm-head", T, 50257, 768, linear=True)
    add_softmax(f, "softmax-vocab", T, 50257)
    # Held-out: BERT-base, batch 32 x 128 tokens
    f = "bert-base"
    T = 32 * 128
    add_ln(f, "ln", T, 768)
    add_mm(f, "qkv", T, 2304, 768, linear=True)
    add_attn(f, "attn", 32, 12, 128, 128, 64, 0)
    add_mm(f, "out", T, 768, 768, linear=True)
    add_mm(f, "ffn-in", T, 3072, 768, linear=True)
    add_pw2d(f, "gelu", T, 3072, BF, "gelu")
    add_mm(f, "ffn-out", T, 768, 3072, linear=True)
    # Held-out: ViT-B/16, batch 64 x 197 tokens
    f = "vit-b16"
    T = 64 * 197
    add_conv(f, "patch-embed", 64, 3, 224, 768, 16, 16, 0)
    add_ln(f, "ln", T, 768)
    add_mm(f, "qkv", T, 2304, 768, linear=True)
    add_attn(f, "attn", 64, 12, 197, 197, 64, 0)
    add_mm(f, "proj", T, 768, 768, linear=True)
    add_mm(f, "fc1", T, 3072, 768, linear=True)
    add_pw2d(f, "gelu", T, 3072, BF, "gelu")
    add_mm(f, "fc2", T, 768, 3072, linear=True)
    add_pw2d(f, "residual-add", T, 768, BF, "add")
    # Held-out: Mixtral-8x7B experts at several tokens per expert
    f = "mixtral-experts"
    for t in (16, 128, 512, 2048):
        add_mm(f, f"t{t}-router", t * 4, 8, 4096, linear=True)
        add_mm(f, f"t{t}-w13", t, 28672, 4096, linear=True)
        add_pw2d(f, f"t{t}-silu", t, 14336, BF, "silu")
        add_mm(f, f"t{t}-w2", t, 4096, 14336, linear=True)
    # Held-out: VGG-style and UNet-style convolutions, batch 16
    f = "convnet-vgg"
    for name, c, hw, k in (("c1", 64, 224, 64), ("c2", 128, 112, 128), ("c3", 256, 56, 256),
                           ("c4", 512, 28, 512), ("c5", 512, 14, 512), ("u1", 320, 64, 320),
                           ("u2", 640, 32, 640)):
        add_conv(f, f"vgg-{name}", 16, c, hw, k, 3, 1, 1)
    # Held-out: odd GEMM shapes
    f = "odd-gemm"
    for m, n, k in ((777, 999, 1234), (1000, 1000, 1000), (3000, 5000, 1500), (12345, 4096, 1024),
                    (4096, 11008, 4096), (100, 30522, 768), (2048, 4097, 2048), (8191, 8191, 8191)):
        add_mm(f, f"mm-{m}x{n}x{k}", m, n, k)


def build_fresh():
    """Families measured after the profile was fitted and frozen (2026-12-01,
    docs/expected.md): a test of the model on models it never saw, chosen
    for shapes the fit lacks (odd hidden sizes, long odd sequences, 5x5
    depthwise convolutions, tiny and huge batches)."""
    # Qwen2-7B prefill, 1 x 1024 tokens: hidden 3584, intermediate 18944,
    # 28 heads of 128 (MHA here: the op list has no GQA yet)
    f, T = "qwen2-7b-prefill", 1024
    add_ln(f, "rmsnorm", T, 3584, rms=True)
    add_mm(f, "qkv", T, 3584 + 2 * 512, 3584, linear=True)
    add_attn(f, "attn", 1, 28, T, T, 128, 1)
    add_mm(f, "o-proj", T, 3584, 3584, linear=True)
    add_mm(f, "gate-up", T, 2 * 18944, 3584, linear=True)
    add_pw2d(f, "silu", T, 18944, BF, "silu")
    add_pw2d(f, "mul", T, 18944, BF, "mul")
    add_mm(f, "down", T, 3584, 18944, linear=True)
    add_mm(f, "lm-head", T, 152064, 3584, linear=True)
    # Phi-3-mini decode at batch 4 and 32, context 2048: hidden 3072, 32 heads
    f = "phi3-mini-decode"
    for b in (4, 32):
        add_ln(f, f"b{b}-rmsnorm", b, 3072, rms=True)
        add_mm(f, f"b{b}-qkv", b, 9216, 3072, linear=True)
        add_attn(f, f"b{b}-attn", b, 32, 1, 2048, 96, 0)
        add_mm(f, f"b{b}-o-proj", b, 3072, 3072, linear=True)
        add_mm(f, f"b{b}-gate-up", b, 16384, 3072, linear=True)
        add_mm(f, f"b{b}-down", b, 3072, 8192, linear=True)
    # Whisper-large encoder, batch 4 x 1500 frames: d 1280, 20 heads of 64
    f, T = "whisper-encoder", 4 * 1500
    add_ln(f, "ln", T, 1280)
    add_mm(f, "qkv", T, 3840, 1280, linear=True)
    add_attn(f, "attn", 4, 20, 1500, 1500, 64, 0)
    add_mm(f, "out", T, 1280, 1280, linear=True)
    add_mm(f, "fc1", T, 5120, 1280, linear=True)
    add_pw2d(f, "gelu", T, 5120, BF, "gelu")
    add_mm(f, "fc2", T, 1280, 5120, linear=True)
    add_softmax(f, "softmax-1500", 4 * 20 * 1500, 1500)
    # T5-base encoder, batch 64 x 512: d 768, ff 3072, 12 heads of 64
    f, T = "t5-base", 64 * 512
    add_ln(f, "rmsnorm", T, 768, rms=True)
    add_mm(f, "qkv", T, 2304, 768, linear=True)
    add_attn(f, "attn", 64, 12, 512, 512, 64, 0)
    add_mm(f, "ffn-in", T, 3072, 768, linear=True)
    add_pw2d(f, "relu", T, 3072, BF, "relu")
    add_mm(f, "ffn-out", T, 768, 3072, linear=True)
    # EfficientNet-B0-like convolutions, batch 32: 5x5 depthwise, 1x1 expand
    f = "efficientnet"
    for name, c, hw, k, r, s, p, g in (("dw5-40", 240, 28, 240, 5, 1, 2, 240),
                                       ("dw3-80", 480, 14, 480, 3, 1, 1, 480),
                                       ("pw-expand", 40, 28, 240, 1, 1, 0, 1),
                                       ("pw-project", 480, 14, 80, 1, 1, 0, 1),
                                       ("conv3-32", 32, 112, 32, 3, 1, 1, 1)):
        add_conv(f, f"effnet-{name}", 32, c, hw, k, r, s, p, groups=g)
    # odd reductions and norms at sizes the fit lacks
    f = "odd-rows"
    add_sum(f, "sum-3000x1000", 3000, 1000)
    add_sum(f, "sum-50000x64", 50000, 64)
    add_ln(f, "ln-40000x1280", 40000, 1280)
    add_ln(f, "ln-8000x5120", 8000, 5120)
    add_softmax(f, "softmax-20000x7000", 20000, 7000)
    add_softmax(f, "softmax-100000x300", 100000, 300)
    for n in (3 * 2**20, 40 * 10**6):
        add_pw(f, f"add-f32-{n}", n, F32, "add")
        add_copy(f, f"clone-bf16-{n}", n, BF)


# ---- timing -------------------------------------------------------------
def sync():
    torch.cuda.synchronize()


def cold_us(fn, reps):
    pairs = []
    for _ in range(reps):
        flush.max()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        pairs.append((e0, e1))
    sync()
    return statistics.median(a.elapsed_time(b) * 1e3 for a, b in pairs)


def graph_us(fn, k):
    try:
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            fn(); fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(k):
                fn()
        g.replay(); sync()
        ts = []
        for _ in range(5):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record(); g.replay(); e1.record(); e1.synchronize()
            ts.append(e0.elapsed_time(e1) * 1e3 / k)
        del g
        return statistics.median(ts)
    except Exception as e:  # noqa: BLE001 - a capture failure is recorded, not fatal
        print("graph capture failed:", e, file=sys.stderr)
        return float("nan")


def eager_us(fn, n):
    for _ in range(3):
        fn()
    sync()
    ts = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(ts)


def kernels_of(fn, reps):
    """The op's kernel names and the median over REPS cold runs (a flush
    before each) of the sum of its kernels' durations, as the profiler
    records them."""
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            flush.max()
            sync()
            fn()
            sync()
    runs, names, in_flush = [], [], False
    evs = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    evs.sort(key=lambda e: e.time_range.start)
    # the flush: its reduce kernel ("unsigned char") and the memset of its
    # output just before it
    flushing = [("unsigned char" in e.name) for e in evs]
    for i in range(len(evs) - 1):
        if flushing[i + 1] and "Memset" in evs[i].name:
            flushing[i] = True
    for e, fl in zip(evs, flushing):
        if fl:  # the next kernel starts a run
            in_flush = True
            continue
        if in_flush:
            runs.append(0.0)
            in_flush = False
        if not runs:
            continue
        runs[-1] += e.time_range.end - e.time_range.start
        if len(runs) == 1:
            names.append(e.name)
    return names, (statistics.median(runs) if runs else float("nan"))


def short(name):
    for cut in ("(", "<"):
        if cut in name and not name.startswith("void"):
            name = name.split(cut)[0]
    name = name.replace("void ", "")
    return name[:90]


def main():
    out = sys.argv[1]
    fresh = len(sys.argv) > 2 and sys.argv[2] == "--fresh"
    if fresh:
        build_fresh()
    else:
        build()
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0),
          "ops", len(ROWS), flush=True)
    cols = ["name", "kind", "dtype", "shape", "kernel", "stride", "padding", "groups", "causal",
            "inputs", "flops_per_element", "measured_us", "event_us", "graph_us", "eager_us", "family",
            "split", "kernels"]
    t_start = time.time()
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in ROWS:
            try:
                fn = r["fn"]()
                fn(); sync()
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record(); fn(); e1.record(); e1.synchronize()
                warm = max(e0.elapsed_time(e1) * 1e3, 1.0)
                reps = int(min(40, max(7, 40e3 / warm)))
                cold = cold_us(fn, reps)
                gk = int(min(50, max(2, 2e3 / warm)))
                gr = graph_us(fn, gk)
                eg = eager_us(fn, int(min(500, max(5, 20e3 / max(warm, 10)))))
                ks, kern = kernels_of(fn, int(min(15, max(5, 20e3 / warm))))
                kn = ";".join(short(k) for k in ks)
            except torch.cuda.OutOfMemoryError:
                print("OOM", r["name"], file=sys.stderr)
                torch.cuda.empty_cache()
                continue
            c = r["cols"]
            split = "fresh" if fresh else ("held-out" if r["family"] in HELD_OUT else "fit")
            w.writerow([f'{r["family"]}/{r["name"]}', r["kind"], r["dtype"], r["shape"],
                        c.get("kernel", ""), c.get("stride", ""), c.get("padding", ""),
                        c.get("groups", ""), c.get("causal", ""), c.get("inputs", ""),
                        c.get("flops_per_element", ""), f"{kern:.3f}", f"{cold:.3f}", f"{gr:.3f}", f"{eg:.3f}",
                        r["family"], split, kn])
            fh.flush()
            print(f'{r["family"]:22s} {r["name"]:28s} kernels {kern:10.2f} events {cold:10.2f} graph {gr:10.2f} '
                  f'eager {eg:10.2f} k={len(ks)}', flush=True)
            del fn
            if time.time() - t_start > 420:
                print("time limit reached; stopping", file=sys.stderr)
                break
    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
