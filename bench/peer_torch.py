#!/usr/bin/env python3
"""The peer side of the benchmark: the same reference networks as ml_bench (bench/networks.cpp),
with the same deterministic weights and shapes, timed in PyTorch/cuDNN on the same GPU in the
same run; plus the shipped upscaler/denoiser rebuilt from tools/train/models.py and the temporal
upscaler's network from tools/train/temporal.py, with assets/*.npz, when those exist.

Configurations (each network at 960x540 and 1920x1080 input):
  fp32, tf32, fp16 (NCHW) and fp16 channels_last in cuDNN eager mode, each also replayed as a
  CUDA graph; torch.compile(mode="max-autotune") fp16 channels_last.
Median of CUDA-event timings (--runs, after --warmup). Writes JSON in ml_bench's schema style
(tool, device, results[] with name/group/resolution/precision/config/median_ms) so
bench/make_results.py can join the two, and prints a table.

  python3 bench/peer_torch.py                       # everything
  python3 bench/peer_torch.py --filter espcn --configs fp16-cl,fp16-cl+cudagraph --no-compile
  python3 bench/peer_torch.py --smoke               # tiny sizes, CPU allowed: checks the script runs
"""
import argparse
import importlib.util
import json
import os
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
    """ESPCN x scale, as bench::espcnScaled (bench::espcn for 2)."""
    def __init__(self, scale=2):
        super().__init__()
        s = Seeds()
        self.scale = scale
        self.c1, self.c2, self.c3 = s.conv(3, 64, 5), s.conv(64, 32, 3), s.conv(32, 3 * scale * scale, 3)

    def forward(self, x):
        x = torch.tanh(self.c1(x))
        x = torch.tanh(self.c2(x))
        return F.pixel_shuffle(self.c3(x), self.scale)


class Conv3x3x64(nn.Module):
    """ml_bench's single-operator case 'conv3x3 64->64' (timing only: weights need not match)."""
    def __init__(self):
        super().__init__()
        self.c = Seeds().conv(64, 64, 3)

    def forward(self, x):
        return self.c(x)


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


class Srvgg(nn.Module):
    """SRVGG-compact (realesr-animevideov3's shape: 64 channels, 16 bodies, x2), as bench::srvggVariant."""
    def __init__(self, channels=64, bodies=16, scale=2):
        super().__init__()
        s = Seeds()
        self.scale = scale
        layers = [s.conv(3, channels, 3), nn.PReLU(channels, 0.25)]
        for _ in range(bodies):
            layers += [s.conv(channels, channels, 3), nn.PReLU(channels, 0.25)]
        layers += [s.conv(channels, 3 * scale * scale, 3)]
        self.body = nn.Sequential(*layers)

    def forward(self, x):
        return F.pixel_shuffle(self.body(x), self.scale) + F.interpolate(x, scale_factor=self.scale, mode="nearest")


OIDN_WIDTHS = (9, (32, 32, 48, 64, 80, 96, 96), (112, 112, 96, 96, 64, 64, 64, 32))
UNET_SMALL_WIDTHS = (3, (24, 24, 32, 48, 64, 80, 80), (96, 96, 80, 80, 48, 48, 32, 24))  # bench::kUnetSmall


class OidnUnet(nn.Module):
    """OIDN's U-Net shape (9 input channels, 5 levels), as bench::unetVariant (bench::unetOidn by default)."""
    def __init__(self, widths=OIDN_WIDTHS):
        super().__init__()
        s = Seeds()
        i, e, d = widths
        self.enc = nn.ModuleList([s.conv(i, e[0], 3), s.conv(e[0], e[1], 3), s.conv(e[1], e[2], 3), s.conv(e[2], e[3], 3),
                                  s.conv(e[3], e[4], 3), s.conv(e[4], e[5], 3), s.conv(e[5], e[6], 3)])
        self.dec = nn.ModuleList([s.conv(e[6] + e[3], d[0], 3), s.conv(d[0], d[1], 3), s.conv(d[1] + e[2], d[2], 3), s.conv(d[2], d[3], 3),
                                  s.conv(d[3] + e[1], d[4], 3), s.conv(d[4], d[5], 3), s.conv(d[5] + i, d[6], 3), s.conv(d[6], d[7], 3)])
        self.out = s.conv(d[7], 3, 3)

    def forward(self, inp):
        e, d = self.enc, self.dec
        pool = lambda t: F.max_pool2d(t, 2, 2)
        up = lambda t: F.interpolate(t, scale_factor=2, mode="nearest")
        x = F.relu(e[0](inp))
        pool1 = pool(F.relu(e[1](x)))
        pool2 = pool(F.relu(e[2](pool1)))
        pool3 = pool(F.relu(e[3](pool2)))
        x = pool(F.relu(e[4](pool3)))
        x = F.relu(e[6](F.relu(e[5](x))))
        x = F.relu(d[1](F.relu(d[0](torch.cat([up(x), pool3], 1)))))
        x = F.relu(d[3](F.relu(d[2](torch.cat([up(x), pool2], 1)))))
        x = F.relu(d[5](F.relu(d[4](torch.cat([up(x), pool1], 1)))))
        x = F.relu(d[7](F.relu(d[6](torch.cat([up(x), inp], 1)))))
        return self.out(x)


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shipped_models(assets):
    """(name, builder) for each shipped network whose .npz exists; builder() -> (module, input shapes fn)."""
    models_py = os.path.join(REPO, "tools", "train", "models.py")
    found = []
    if not os.path.exists(models_py):
        print(f"skipping the shipped networks: {models_py} not found")
        return found
    spec = importlib.util.spec_from_file_location("vkml_train_models", models_py)
    models = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(models)
    for name, npz, build, shapes in [
        ("upscaler_x2", "upscaler_x2.npz", models.build_upscaler, lambda h, w: [(1, 3, h, w)]),
        ("denoiser", "denoiser.npz", models.build_denoiser, lambda h, w: [(1, 3, h, w)] * 3 + [(1, 1, h, w)]),
    ]:
        path = os.path.join(assets, npz)
        if not os.path.exists(path):
            print(f"skipping the shipped {name}: {path} not found")
            continue
        found.append((name, (lambda b=build, p=path: models.load_npz(b(), p)), shapes))
    # The temporal upscaler's network (effects::Upscaler; tools/train/temporal.py): its input is
    # the 16 r^2 features at 1/r of the display (ml_bench's upscaler_temporal case).
    # Both shipped models: the quality one and the performance one (upscaler_temporal_fast).
    for name in ("upscaler_temporal", "upscaler_temporal_fast"):
        path = os.path.join(assets, name + ".npz")
        if not os.path.exists(path):
            print(f"skipping the shipped {name}: {path} not found")
            continue
        sys.path.insert(0, os.path.join(REPO, "tools", "train"))
        import train_temporal  # noqa: E402 (tools/train on the path)
        net, _ = train_temporal.load_net(path)
        channels = 16 * net.unshuffle * net.unshuffle
        found.append((name, lambda p=path: train_temporal.load_net(p)[0], lambda h, w, c=channels: [(1, c, h, w)]))
    return found


# Warm-up lasts at least this long: an idle H100 sits at 345-700 MHz and needs ~0.1-0.2 s of work
# to reach its 1980 MHz boost clock; timing short cases before that measured them 2-3x slow
# (nvidia-smi trace, bench/RESULTS.md). ml_bench does the same (bridge/src/graph_session.cpp).
WARMUP_SECONDS = 0.25


def time_cuda(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    while time.perf_counter() - start < WARMUP_SECONDS:
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


def time_cpu(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times)


def capture_graph(model, xs):
    static = [x.clone() for x in xs]
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            model(*static)
    torch.cuda.current_stream().wait_stream(stream)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        model(*static)
    return g


# name -> (dtype, allow tf32, memory format)
CONFIGS = {
    "fp32": (torch.float32, False, torch.contiguous_format),
    "tf32": (torch.float32, True, torch.contiguous_format),
    "fp16": (torch.float16, False, torch.contiguous_format),
    "fp16-cl": (torch.float16, False, torch.channels_last),
}


def config_names(cuda, compile_):
    names = []
    for c in CONFIGS:
        names.append(c)
        if cuda:
            names.append(c + "+cudagraph")
    if cuda and compile_:
        names.append("fp16-cl+max-autotune")
    return names


def run_case(label, make_model, shapes, res, cfg, args, dev):
    """Times one network in one configuration; returns median, min (ms) or None if skipped."""
    base_cfg = cfg.split("+")[0]
    dtype, tf32, fmt = CONFIGS[base_cfg]
    if dev.type == "cpu" and dtype == torch.float16:
        return None  # no fp16 convolutions on the CPU
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    model = make_model().to(dev).eval().to(dtype=dtype, memory_format=fmt)
    gen = torch.Generator().manual_seed(1234)
    xs = [torch.rand(*s, generator=gen).to(dev, dtype).contiguous(memory_format=fmt) for s in shapes(res[1], res[0])]
    timer = time_cuda if dev.type == "cuda" else time_cpu
    with torch.inference_mode():
        if cfg.endswith("+cudagraph"):
            g = capture_graph(model, xs)
            return timer(g.replay, args.runs, args.warmup)
        if cfg.endswith("+max-autotune"):
            t0 = time.time()
            compiled = torch.compile(model, mode="max-autotune")
            compiled(*xs)
            result = timer(lambda: compiled(*xs), args.runs, args.warmup)
            print(f"    ({label} {cfg}: compiled in {time.time() - t0:.0f} s)")
            return result
        return timer(lambda: model(*xs), args.runs, args.warmup)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json", default="peer_torch.json")
    ap.add_argument("--filter", default="", help="only cases whose name ('espcn_x2 1920x1080') contains this text ('|' separates alternatives)")
    ap.add_argument("--configs", default="", help="comma-separated subset of: " + ", ".join(config_names(True, True)))
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile(mode='max-autotune') (minutes of autotuning)")
    ap.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for old commands
    ap.add_argument("--assets", default=os.path.join(REPO, "assets"), help="where upscaler_x2.npz / denoiser.npz are looked for")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, 2 runs; runs on the CPU when there is no GPU")
    args = ap.parse_args()
    if args.smoke:
        args.runs, args.warmup = min(args.runs, 2), min(args.warmup, 1)
    cuda = torch.cuda.is_available()
    if not cuda and not args.smoke:
        sys.exit("peer_torch: CUDA is not available (use --smoke to check the script on the CPU)")
    dev = torch.device("cuda" if cuda else "cpu")
    torch.backends.cudnn.benchmark = True
    device_name = torch.cuda.get_device_name(0) if cuda else "cpu"
    cudnn = torch.backends.cudnn.version() if cuda else None
    print(f"device: {device_name}, torch {torch.__version__}, cudnn {cudnn}")

    configs = config_names(cuda, not args.no_compile)
    if args.configs:
        wanted = [c.strip() for c in args.configs.split(",") if c.strip()]
        unknown = [c for c in wanted if c not in config_names(True, True)]
        if unknown:
            sys.exit(f"peer_torch: unknown config(s) {unknown}; known: {config_names(True, True)}")
        configs = [c for c in configs if c in wanted]

    nets = [("espcn_x2", Espcn, lambda h, w: [(1, 3, h, w)]), ("fsrcnn_x2", Fsrcnn, lambda h, w: [(1, 1, h, w)]),
            ("srvgg_x2", Srvgg, lambda h, w: [(1, 3, h, w)]),
            # OIDN pads to multiples of 16 (1080 -> 1088); runs at the larger resolution only, as ml_bench.
            ("unet", OidnUnet, lambda h, w: [(1, 9, h, w)], lambda res: res[0] >= 1920 or args.smoke,
             lambda res: ((res[0] + 15) // 16 * 16, (res[1] + 15) // 16 * 16))]
    # Networks of the same kinds in sizes nothing was tuned on (ml_bench's names, bench/networks.h).
    big = lambda res: res[0] >= 1920 or args.smoke
    small = lambda res: res[0] < 1920 or args.smoke
    pad16 = lambda res: ((res[0] + 15) // 16 * 16, (res[1] + 15) // 16 * 16)
    nets += [("espcn_x3", lambda: Espcn(3), lambda h, w: [(1, 3, h, w)], big, lambda res: res),
             ("unet_small", lambda: OidnUnet(UNET_SMALL_WIDTHS), lambda h, w: [(1, 3, h, w)], big, pad16),
             ("srvgg_x2_c48n12", lambda: Srvgg(48, 12, 2), lambda h, w: [(1, 3, h, w)], small, lambda res: res),
             ("srvgg_x4_c32n16", lambda: Srvgg(32, 16, 4), lambda h, w: [(1, 3, h, w)], small, lambda res: res)]
    nets += shipped_models(args.assets)
    nets += [("conv3x3 64->64", Conv3x3x64, lambda h, w: [(1, 64, h, w)])]
    resolutions = [(24, 16)] if args.smoke else [(960, 540), (1920, 1080)]
    rows = []
    def write():
        with open(args.json, "w") as f:
            json.dump({"tool": "peer_torch", "device": device_name, "torch": torch.__version__, "cudnn": cudnn,
                       "runs": args.runs, "warmup": args.warmup, "smoke": args.smoke, "results": rows}, f, indent=1)

    # Slow max-autotune compilations last, and the JSON rewritten after every result: a run cut
    # short (a device command's time limit) keeps everything measured so far.
    order = [(res, net, cfg) for res in resolutions for net in nets for cfg in configs if not cfg.endswith("+max-autotune")]
    order += [(res, net, cfg) for res in resolutions for net in nets for cfg in configs if cfg.endswith("+max-autotune")]
    for res, (name, make_model, shapes, *where), cfg in order:
        if where:
            if not where[0](res):
                continue
            res = where[1](res)
        resname = f"{res[0]}x{res[1]}"
        label = f"{name} {resname}"
        if args.filter and not any(part in label for part in args.filter.split("|")):
            continue
        try:
            r = run_case(label, make_model, shapes, res, cfg, args, dev)
        except Exception as e:  # a failing configuration (e.g. inductor missing) must not lose the rest
            print(f"  {label:<24} {cfg:<22} FAILED: {type(e).__name__}: {e}")
            rows.append({"name": label, "group": "network", "resolution": resname, "config": cfg, "median_ms": None,
                         "min_ms": None, "error": f"{type(e).__name__}: {e}"})
            write()
            continue
        if r is None:
            continue
        med, mn = r
        precision = CONFIGS[cfg.split("+")[0]][0]
        rows.append({"name": label, "group": "network", "resolution": resname,
                     "precision": "fp16" if precision == torch.float16 else "fp32", "config": cfg,
                     "median_ms": med, "min_ms": mn})
        write()
        print(f"  {label:<24} {cfg:<22} {med:9.3f} ms")
        sys.stdout.flush()
    write()
    print(f"wrote {args.json} ({len(rows)} results, median of {args.runs} runs after {args.warmup} warm-up)")

if __name__ == "__main__":
    main()
