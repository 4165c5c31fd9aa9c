# PyTorch eager per-op host overhead, behind hwdb/eager.runtime
# (docs/measurements/h200-launch-overhead-2026-11-29.txt). Run: python3 eager.py
import time, statistics, torch, platform, os
torch.backends.cuda.matmul.allow_tf32 = False
dev = 'cuda'
print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_device_name(0), 'python', platform.python_version())
p = torch.cuda.get_device_properties(0)
print('props', p.multi_processor_count, p.total_memory, p.total_memory/2**30, 'GiB', getattr(p, 'L2_cache_size', None))
a = torch.ones(1, device=dev); b = torch.ones(1, device=dev); c = torch.empty(1, device=dev)
x = torch.randn(1024, device=dev)
cases = {
  'a+b (new tensor)': lambda: a + b,
  'torch.add(a,b,out=c)': lambda: torch.add(a, b, out=c),
  'x*2 (scalar)': lambda: x * 2,
  'x.cos()': lambda: x.cos(),
  'x.relu_()': lambda: x.relu_(),
}
N = 50000
for name, f in cases.items():
    for _ in range(2000): f()
    torch.cuda.synchronize()
    sub, tot = [], []
    for r in range(5):
        t0 = time.perf_counter()
        for _ in range(N): f()
        t1 = time.perf_counter(); torch.cuda.synchronize(); t2 = time.perf_counter()
        sub.append((t1-t0)/N*1e6); tot.append((t2-t0)/N*1e6)
    print(f'eager {name}: host {statistics.median(sub):.3f} us/op, end-to-end {statistics.median(tot):.3f} us/op, ops/s {1e6/statistics.median(tot):.0f}')
with torch.inference_mode():
    y = torch.ones(1, device=dev)
    for _ in range(2000): y + y
    torch.cuda.synchronize(); t0=time.perf_counter()
    for _ in range(N): y + y
    torch.cuda.synchronize(); print(f'eager inference_mode a+a: {(time.perf_counter()-t0)/N*1e6:.3f} us/op')
# requires_grad
w = torch.ones(1, device=dev, requires_grad=True)
for _ in range(2000): w * w
torch.cuda.synchronize(); t0=time.perf_counter()
for _ in range(N): w * w
torch.cuda.synchronize(); print(f'eager requires_grad w*w: {(time.perf_counter()-t0)/N*1e6:.3f} us/op')
# torch CUDA graph of 1000 tiny adds
s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
z = torch.ones(1024, device=dev)
with torch.cuda.stream(s):
    for _ in range(3): z.add_(1)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    for _ in range(1000): z.add_(1)
g.replay(); torch.cuda.synchronize()
ts = []
for r in range(15):
    e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
    e0.record(); g.replay(); e1.record(); e1.synchronize(); ts.append(e0.elapsed_time(e1)*1e3/1000)
print(f'torch CUDAGraph 1000 x z.add_(1) (1024 fp32): {statistics.median(ts):.3f} us/node')
