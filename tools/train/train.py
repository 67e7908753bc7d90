#!/usr/bin/env python3
"""Trains the x2 upscaler and the denoiser on the rendered training paths and saves their state
dicts as assets/{upscaler_x2,denoiser}.npz (export.py turns them into ONNX). CUDA when present
(TRAIN_DEVICE=cpu forces the CPU), else the CPU with TRAIN_THREADS (default: all cores).

Seeded (common.SEED) and single-process; steps are fixed (not time-boxed) so a rerun with the
same data and thread count gives the same weights.
"""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

import models
import render
from common import ASSETS, DATA, TRAIN_PATHS, Stopwatch, frame_count, load_channel, log, seed_everything, srgb_encode, torch_device, torch_threads


DEVICE = torch_device()


def load_upscaler_data():
    """[(lo, hi)] frame pairs of every training size."""
    pairs = []
    for c in render.UP_TRAIN:
        for p in TRAIN_PATHS:
            d = os.path.join(DATA, "train_up", f"{c['width']}x{c['height']}", p)
            for f in range(frame_count(os.path.join(d, "hi"))):
                pairs.append((torch.from_numpy(srgb_encode(load_channel(os.path.join(d, "lo"), "color", f))),
                              torch.from_numpy(srgb_encode(load_channel(os.path.join(d, "hi"), "color", f)))))
    return pairs


def load_denoiser_data():
    xs, ys = [], []
    for p in TRAIN_PATHS:
        d = os.path.join(DATA, "train_dn", p)
        for f in range(frame_count(os.path.join(d, "ref"))):
            n = os.path.join(d, "noisy")
            xs.append(np.concatenate([srgb_encode(load_channel(n, "color", f)), load_channel(n, "albedo", f),
                                      load_channel(n, "normal", f), load_channel(n, "depth", f)]))
            ys.append(srgb_encode(load_channel(os.path.join(d, "ref"), "color", f)))
    return torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ys))


def crops(gen, n, h, w, size):
    """A random (frame, y, x, flip) crop of n frames on a multiple-of-4 grid."""
    f = torch.randint(0, n, (1,), generator=gen).item()
    y = torch.randint(0, (h - size) // 4 + 1, (1,), generator=gen).item() * 4
    x = torch.randint(0, (w - size) // 4 + 1, (1,), generator=gen).item() * 4
    flip = torch.rand(1, generator=gen).item() < 0.5
    return f, y, x, flip


def pair_batch(gen, pairs, size, count):
    """Aligned random crops of (lo, hi) pairs of any size, frames drawn by pixel count."""
    weights = torch.tensor([float(lo.shape[1] * lo.shape[2]) for lo, _ in pairs])
    xs, ys = [], []
    for _ in range(count):
        lo, hi = pairs[torch.multinomial(weights, 1, generator=gen).item()]
        _, y, x, flip = crops(gen, 1, lo.shape[1], lo.shape[2], size)
        a, b = lo[:, y:y + size, x:x + size], hi[:, 2 * y:2 * (y + size), 2 * x:2 * (x + size)]
        xs.append(torch.flip(a, [2]) if flip else a)
        ys.append(torch.flip(b, [2]) if flip else b)
    return torch.stack(xs).to(DEVICE), torch.stack(ys).to(DEVICE)


def batch(gen, tensors, scales, size, count):
    """Aligned random crops of every tensor (tensor i at `scales[i]` x the first's resolution)."""
    n, _, h, w = tensors[0].shape
    out = [[] for _ in tensors]
    for _ in range(count):
        f, y, x, flip = crops(gen, n, h, w, size)
        for i, (t, s) in enumerate(zip(tensors, scales)):
            c = t[f, :, y * s:(y + size) * s, x * s:(x + size) * s]
            out[i].append(torch.flip(c, [2]) if flip else c)
    return [torch.stack(o).to(DEVICE) for o in out]


def fit(name, model, sample, steps, lr, loss_fn):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    # Warm-up: 5% of the steps (at least 3, so that short smoke runs work too).
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=max(0.05, 3 / steps))
    sw = Stopwatch()
    cpu0 = time.process_time()
    running = None
    model.train()
    for step in range(1, steps + 1):
        inputs, target = sample()
        loss = loss_fn(model(*inputs), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = loss.item() if running is None else 0.95 * running + 0.05 * loss.item()
        if step % 50 == 0 or step == steps:
            eta = sw() / step * (steps - step)
            log(f"{name} step {step}/{steps} loss {running:.6f} lr {sched.get_last_lr()[0]:.2e} "
                f"({sw():.0f} s, {eta:.0f} s left; {(time.process_time() - cpu0) / step:.2f} CPU-s/step)")
    model.eval()
    return sw()


def train_upscaler(steps, batch_size=16, patch=48, lr=4e-3):
    pairs = load_upscaler_data()
    log(f"upscaler data: {len(pairs)} frame pairs, output sizes " + ", ".join(f"{c['width']}x{c['height']}" for c in render.UP_TRAIN))
    gen = torch.Generator().manual_seed(1)
    model = models.build_upscaler().to(DEVICE)

    def sample():
        x, y = pair_batch(gen, pairs, patch, batch_size)
        return (x,), y

    # Fixed training crops to show progress against: plain bilinear.
    x, y = pair_batch(torch.Generator().manual_seed(99), pairs, patch, 64)
    bil = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
    log(f"upscaler: bilinear MSE on fixed training crops {F.mse_loss(bil, y).item():.6f}")
    # MSE: PSNR is what the upscaler is judged by, and the native target's aliasing is partly
    # unpredictable from the low-resolution frame (the mean is the best guess there).
    secs = fit("upscaler", model, sample, steps, lr, F.mse_loss)
    with torch.no_grad():
        log(f"upscaler: MSE on the fixed crops {F.mse_loss(model(x), y).item():.6f}")
    return model, secs


def train_denoiser(steps, batch_size=8, patch=96, lr=2e-3):
    x, y = load_denoiser_data()
    log(f"denoiser data: {x.shape[0]} frames {x.shape[3]}x{x.shape[2]}")
    gen = torch.Generator().manual_seed(2)
    model = models.build_denoiser().to(DEVICE)

    def sample():
        xb, yb = batch(gen, [x, y], [1, 1], patch, batch_size)
        return (xb[:, 0:3], xb[:, 3:6], xb[:, 6:9], xb[:, 9:10]), yb

    xb, yb = batch(torch.Generator().manual_seed(99), [x, y], [1, 1], patch, 16)
    log(f"denoiser: noisy-input MSE on fixed training crops {F.mse_loss(xb[:, 0:3], yb).item():.7f}")
    # MSE, not L1: the reference is the mean of the 1-ray estimate; L1 would learn its median,
    # which for binary shadow rays is the noisy 0 or 1 itself.
    secs = fit("denoiser", model, sample, steps, lr, F.mse_loss)
    with torch.no_grad():
        out = model(xb[:, 0:3], xb[:, 3:6], xb[:, 6:9], xb[:, 9:10])
        log(f"denoiser: MSE on the fixed crops {F.mse_loss(out, yb).item():.7f}")
    return model, secs


def save(model, stem):
    os.makedirs(ASSETS, exist_ok=True)
    models.save_npz(model.cpu(), os.path.join(ASSETS, stem + ".npz"))
    log(f"saved {os.path.join(ASSETS, stem + '.npz')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--which", default="both", choices=["both", "upscaler", "denoiser"])
    ap.add_argument("--upscaler-steps", type=int, default=2000)
    ap.add_argument("--denoiser-steps", type=int, default=5000)
    a = ap.parse_args()
    torch.set_num_threads(torch_threads())
    log(f"PyTorch {torch.__version__} on {DEVICE}, {torch.get_num_threads()} CPU threads")
    if a.which in ("both", "upscaler"):
        seed_everything()
        model, secs = train_upscaler(a.upscaler_steps)
        log(f"upscaler trained in {secs:.0f} s")
        save(model, "upscaler_x2")
    if a.which in ("both", "denoiser"):
        seed_everything()
        model, secs = train_denoiser(a.denoiser_steps)
        log(f"denoiser trained in {secs:.0f} s")
        save(model, "denoiser")


if __name__ == "__main__":
    main()
