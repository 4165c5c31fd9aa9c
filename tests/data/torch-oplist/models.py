"""models.py - small modules for tests/cli_torch_oplist.sh, in plain torch (no
torchvision, no transformers), each a function returning (module, inputs) for
contrib/torch_oplist.py's FILE.py:FUNCTION spec. The rows each must give are
worked out by hand in the test; torch 1.13 (Debian 12) and 2.x alike."""
import math

import torch
from torch import nn
import torch.nn.functional as F


def linear():
    # one matmul: M = 8 rows, N = 4096 outputs, K = 1024 inputs
    return nn.Linear(1024, 4096), (torch.empty(8, 1024),)


def conv():
    # ResNet's stem: 3 -> 64 channels, 7x7 at stride 2, padding 3, on 2 images
    return nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False), (torch.empty(2, 3, 224, 224),)


def convbn():
    # conv, eval-mode BatchNorm, ReLU, a max pool (no mapping: a custom row)
    return nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                         nn.MaxPool2d(2)), (torch.empty(4, 16, 32, 32),)


def stack():
    # the same layer 12 times: two rows, count 12
    return nn.Sequential(*[nn.Sequential(nn.Linear(256, 256), nn.ReLU())
                           for _ in range(12)]), (torch.empty(32, 256),)


class Views(nn.Module):
    """Only views and metadata, then one add: a single row."""

    def forward(self, x):
        y = x.view(4, 8, 16).transpose(1, 2)
        y = y.unsqueeze(0).expand(3, 4, 16, 8).detach()[1]
        z = y.permute(0, 2, 1).reshape(4, 8, 16).squeeze()
        return z + z


def views():
    return Views(), (torch.empty(32, 16),)


class GQA(nn.Module):
    """Grouped-query attention written with matmuls (no SDPA: torch 1.13 has
    none): 32 query heads, 8 KV heads of 128, the KV heads repeated as
    Hugging Face's repeat_kv does (expand, then a reshape that copies)."""

    def __init__(self, d=4096, h=32, kv=8):
        super().__init__()
        self.h, self.kv, self.hd = h, kv, d // h
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, kv * self.hd, bias=False)
        self.v_proj = nn.Linear(d, kv * self.hd, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x):
        b, s, d = x.shape
        q = self.q_proj(x).view(b, s, self.h, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv, self.hd).transpose(1, 2)
        n = self.h // self.kv
        k = k[:, :, None].expand(b, self.kv, n, s, self.hd).reshape(b, self.h, s, self.hd)
        v = v[:, :, None].expand(b, self.kv, n, s, self.hd).reshape(b, self.h, s, self.hd)
        a = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.hd), dim=-1)
        return self.o_proj((a @ v).transpose(1, 2).reshape(b, s, d))


def gqa():
    return GQA(), (torch.empty(2, 128, 4096),)


class Block(nn.Module):
    """A pre-norm transformer block with nn.MultiheadAttention."""

    def __init__(self, d=512, h=8):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        y = self.ln1(x)
        x = x + self.attn(y, y, y, need_weights=False)[0]
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def blocks():
    return nn.Sequential(*[Block() for _ in range(4)]), (torch.empty(4, 64, 512),)


class SDPA(nn.Module):
    """F.scaled_dot_product_attention with 32 query and 8 KV heads (torch 2.5
    and later: enable_gqa), causal."""

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def sdpa():
    return SDPA(), (torch.empty(4, 32, 256, 128), torch.empty(4, 8, 256, 128),
                    torch.empty(4, 8, 256, 128))


def big():
    # 100 layers of 16384 x 16384 fp32 weights: 100 x 2^28 x 4 B = 100 GiB,
    # more than this machine's memory; on the meta device it takes none
    return nn.Sequential(*[nn.Linear(16384, 16384, bias=False) for _ in range(100)]), \
        (torch.empty(16, 16384),)
