#!/usr/bin/env python3
"""The peer side of the benchmark: the same reference networks as ml_bench (bench/networks.cpp),
with the same deterministic weights, timed in PyTorch/cuDNN on the same GPU in the same run.

Configurations: cuDNN eager fp32, tf32, fp16 (channels_last), each also replayed as a CUDA graph;
optionally torch.compile(mode="max-autotune") fp16 (--compile). Median of CUDA-event timings.
Writes JSON (--json) and prints a table.
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def det_weights(seed, count, scale):
    # Mirrors bench::detWeights: frac(((i + seed*1000003) * 2654435761) / 2^32), uint64 math.
    i = torch.arange(count, dtype=torch.int64)
    x = (i + seed * 1000003) * 2654435761
    frac = (x & 0xFFFFFFFF).to(torch.float64) / 4294967296.0
    return ((frac - 0.5) * 2.0 * scale).to(torch.float32)


class Seeds:
    def __init__(self):
        self.seed = 1

    def conv(self, cin, cout, k):
        conv = nn.Conv2d(cin, cout, k, padding=k // 2)
        fan = cin * k * k
        w = det_weights(self.seed, cout * cin * k * k, 1.0 / fan ** 0.5).reshape(cout, cin, k, k)
        self.seed += 1
        b = det_weights(self.seed, cout, 1.0 / fan ** 0.5)
        self.seed += 1
        with torch.no_grad():
            conv.weight.copy_(w)
            conv.bias.copy_(b)
        return conv


class Espcn(nn.Module):
    def __init__(self):
        super().__init__()
        s = Seeds()
        self.c1, self.c2, self.c3 = s.conv(3, 64, 5), s.conv(64, 32, 3), s.conv(32, 12, 3)

    def forward(self, x):
        x = torch.tanh(self.c1(x))
        x = torch.tanh(self.c2(x))
        return F.pixel_shuffle(self.c3(x), 2)


class Fsrcnn(nn.Module):
    def __init__(self):
        super().__init__()
        s = Seeds()
        layers = [s.conv(1, 56, 5), nn.PReLU(56, 0.25), s.conv(56, 12, 1), nn.PReLU(12, 0.25)]
        for _ in range(4):
            layers += [s.conv(12, 12, 3), nn.PReLU(12, 0.25)]
        layers += [s.conv(12, 56, 1), nn.PReLU(56, 0.25)]
        self.body = nn.Sequential(*layers)
        self.deconv = nn.ConvTranspose2d(56, 1, 9, stride=2, padding=4, output_padding=1)
        fan = 56 * 9 * 9 // 4
        with torch.no_grad():
            self.deconv.weight.copy_(det_weights(s.seed, 56 * 81, 1.0 / fan ** 0.5).reshape(56, 1, 9, 9))
            self.deconv.bias.copy_(det_weights(s.seed + 1, 1, 1.0 / 56 ** 0.5))

    def forward(self, x):
        return self.deconv(self.body(x))


def time_cuda(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


def run_config(model, x, runs, warmup, graph):
    with torch.inference_mode():
        if not graph:
            return time_cuda(lambda: model(x), runs, warmup)
        static_x = x.clone()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                model(static_x)
        torch.cuda.current_stream().wait_stream(stream)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            model(static_x)
        return time_cuda(g.replay, runs, warmup)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json", default="peer_torch.json")
    ap.add_argument("--compile", action="store_true", help="also torch.compile(mode='max-autotune') fp16 (slow to autotune)")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("peer_torch: CUDA is not available")
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, cudnn {torch.backends.cudnn.version()}")

    rows = []
    nets = [("espcn_x2", Espcn, 3), ("fsrcnn_x2", Fsrcnn, 1)]
    for res in [(960, 540), (1920, 1080)]:
        for name, cls, cin in nets:
            base = cls().to(dev).eval()
            x32 = torch.rand(1, cin, res[1], res[0], device=dev)
            configs = [
                ("fp32", torch.float32, False, torch.contiguous_format),
                ("tf32", torch.float32, True, torch.contiguous_format),
                ("fp16", torch.float16, False, torch.channels_last),
            ]
            for cname, dtype, tf32, fmt in configs:
                torch.backends.cudnn.allow_tf32 = tf32
                torch.backends.cuda.matmul.allow_tf32 = tf32
                model = cls().to(dev).eval().to(dtype=dtype, memory_format=fmt)
                model.load_state_dict(base.state_dict())
                model = model.to(dtype=dtype, memory_format=fmt)
                x = x32.to(dtype=dtype).contiguous(memory_format=fmt)
                for graph in (False, True):
                    med, mn = run_config(model, x, args.runs, args.warmup, graph)
                    label = cname + ("+cudagraph" if graph else " eager")
                    rows.append({"name": f"{name} {res[0]}x{res[1]}", "config": label, "median_ms": med, "min_ms": mn})
                    print(f"  {name} {res[0]}x{res[1]:<5} {label:<18} {med:8.3f} ms")
            if args.compile and res == (1920, 1080):
                model = cls().to(dev).eval().half().to(memory_format=torch.channels_last)
                model.load_state_dict(base.state_dict())
                model = model.half().to(memory_format=torch.channels_last)
                x = x32.half().contiguous(memory_format=torch.channels_last)
                t0 = time.time()
                compiled = torch.compile(model, mode="max-autotune")
                with torch.inference_mode():
                    compiled(x)
                    med, mn = time_cuda(lambda: compiled(x), args.runs, args.warmup)
                rows.append({"name": f"{name} {res[0]}x{res[1]}", "config": "fp16 compile max-autotune", "median_ms": med, "min_ms": mn})
                print(f"  {name} {res[0]}x{res[1]:<5} {'fp16 max-autotune':<18} {med:8.3f} ms (compile {time.time() - t0:.0f} s)")
    with open(args.json, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "results": rows}, f, indent=1)


if __name__ == "__main__":
    main()
