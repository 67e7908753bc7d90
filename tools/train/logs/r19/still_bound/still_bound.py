#!/usr/bin/python3
"""How far TAAU and the temporal network are from plain accumulation on a still camera.

    still_bound.py DIR      (DIR from render.sh)

Scores (PSNR of the 8-bit sRGB frames against the reference, frames 8-31, as the held-out report):
- the engine's TAAU and temporal ML frames;
- "accumulation": every jittered sample of every frame so far, splatted onto the display pixels
  around it with a gaussian of its distance to each pixel centre and normalised over all frames
  (a still camera needs no reprojection), optionally with the accumulated weight capped as TAAU
  caps it;
- a TAAU written with the PyTorch mirror's pieces (temporal.py: the same current samples, history
  fetch and neighbourhood clip; weights as shaders/effects/taau_resolve.comp), with and without
  its clip, and with wider clip boxes;
- the temporal network's blend factor per frame (the mirror with the shipped weights).
Causal throughout: frame t uses frames 0..t only."""
import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
import common  # noqa: E402
import temporal  # noqa: E402
import train_temporal  # noqa: E402

DIR = sys.argv[1]
N, W, H, w, h = 32, 480, 272, 240, 136
PHASES = temporal.phase_count(w, W)


def load(sub, channel, i):
    return np.load(os.path.join(DIR, sub, f"{channel}_{i:05d}.npy"))


def srgb8(linear_hwc):
    return np.round(common.srgb_encode(linear_hwc) * 255.0)


REF = [srgb8(load("ref", "output", i)) for i in range(N)]


def psnr(frames, first=8):
    mse = np.mean([np.mean((frames[i] - REF[i]) ** 2) for i in range(first, N)])
    return 10 * math.log10(255 ** 2 / mse)


def chw(sub, channel, t):
    return torch.from_numpy(load(sub, channel, t).transpose(2, 0, 1)[None].copy()).double()


COLOR = [torch.from_numpy(load("taau", "color", i)).double().clamp(0, 1) for i in range(N)]
YS, XS = torch.meshgrid(torch.arange(h, dtype=torch.float64), torch.arange(w, dtype=torch.float64), indexing="ij")


def splat(t, sigma):
    """Frame t's samples splatted onto the display: (sum of w * colour, sum of w) per pixel."""
    jx, jy = temporal.halton_jitter(t, PHASES)
    px, py = (XS + 0.5 - jx) * (W / w), (YS + 0.5 - jy) * (H / h)
    num, den = torch.zeros(H * W, 3, dtype=torch.float64), torch.zeros(H * W, dtype=torch.float64)
    bx, by = torch.floor(px).long(), torch.floor(py).long()
    for oy in (-1, 0, 1):
        for ox in (-1, 0, 1):
            x, y = bx + ox, by + oy
            inside = (x >= 0) & (x < W) & (y >= 0) & (y < H)
            dx, dy = px - (x + 0.5), py - (y + 0.5)
            weight = (torch.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) * inside).reshape(-1)
            index = (y.clamp(0, H - 1) * W + x.clamp(0, W - 1)).reshape(-1)
            den.index_add_(0, index, weight)
            num.index_add_(0, index, COLOR[t].reshape(-1, 3) * weight[:, None])
    return num.reshape(H, W, 3), den.reshape(H, W)


def accumulation(sigma, cap=math.inf):
    colour, total, frames = None, None, []
    for t in range(N):
        num, den = splat(t, sigma)
        if colour is None:
            colour, total = num / den.clamp(min=1e-9)[..., None], den
        else:
            colour = (colour * total[..., None] + num) / (total + den).clamp(min=1e-9)[..., None]
            total = total + den
        total = total.clamp(max=cap)
        frames.append(srgb8(colour.numpy()))
    return frames


def luma(c):
    return 0.25 * c[:, 0:1] + 0.5 * c[:, 1:2] + 0.25 * c[:, 2:3]


def mirror_inputs(t, history, prev_depth, prev_jitter):
    """Frame t through the mirror up to the history fetch: (current samples, history, linear depth, jitter)."""
    j = torch.tensor([temporal.halton_jitter(t, PHASES)], dtype=torch.float64)
    valid = history is not None
    m, conf, z = temporal.reproject(chw("taau", "depth", t), chw("taau", "motion", t), j, prev_depth if valid else None,
                                    prev_jitter if valid else j, valid)
    cur = temporal.gather_current(chw("taau", "color", t), m, conf, j, (H, W))
    hist = temporal.fetch_history(history if valid else torch.zeros(1, 4, H, W, dtype=torch.float64), cur, valid)
    return cur, hist, z, j


def taau(clip=True, cap=16.0):
    history, prev_depth, prev_jitter, frames = None, None, None, []
    for t in range(N):
        cur, hist, z, j = mirror_inputs(t, history, prev_depth, prev_jitter)
        base = hist["clipped"] if clip else hist["raw"]
        hw = hist["state"] * hist["valid"]
        base = torch.where(hw <= 0, cur["wide"], base)
        hw = torch.where(hw <= 0, torch.full_like(hw, 0.15), hw)
        wh, wc = hw / (1 + luma(base)), cur["narrow_weight"] / (1 + luma(cur["narrow"]))
        colour = (base * wh + cur["narrow"] * wc) / (wh + wc).clamp(min=1e-6)
        history = torch.cat([colour, (hw + cur["narrow_weight"]).clamp(max=cap)], 1)
        prev_depth, prev_jitter = z, j
        frames.append(srgb8(colour[0].numpy().transpose(1, 2, 0)))
    return frames


@torch.no_grad()
def network_alpha():
    net = train_temporal.load_net(os.path.join(common.ASSETS, "upscaler_temporal.npz"))[0].double().eval()
    history, prev_depth, prev_jitter, rows = None, None, None, []
    for t in range(N):
        cur, hist, z, j = mirror_inputs(t, history, prev_depth, prev_jitter)
        feat = temporal.features(cur, hist, net.ratio_feature_max)
        params = temporal.run_network(net, feat)
        colour, state = temporal.resolve(feat, params, net.history_weight_cap)
        history, prev_depth, prev_jitter = torch.cat([colour, state], 1), z, j
        alpha = torch.sigmoid(params[:, 0:1].clamp(-30, 30))
        rows.append((t, float(alpha.mean()), float(alpha.median()), float(torch.sigmoid(params[:, 1:2].clamp(-30, 30)).mean())))
    return rows


print(f"engine TAAU {psnr([srgb8(load('taau', 'output', i)) for i in range(N)]):.2f} dB, "
      f"engine temporal ML {psnr([srgb8(load('ml', 'output', i)) for i in range(N)]):.2f} dB")
for sigma in (0.25, 0.3, 1 / math.sqrt(8), 0.4, 0.5):
    print(f"accumulation, gaussian sigma {sigma:.3f} display px: {psnr(accumulation(sigma)):.2f} dB")
for cap in (4.0, 16.0):
    print(f"accumulation, sigma {1 / math.sqrt(8):.3f} (the narrow kernel's), weight capped at {cap:g}: "
          f"{psnr(accumulation(1 / math.sqrt(8), cap)):.2f} dB")
print(f"mirror TAAU: {psnr(taau()):.2f} dB; without its clip: {psnr(taau(clip=False)):.2f} dB")
for gamma in (8.0, 16.0):
    temporal.CLAMP_GAMMA_STATIC = gamma
    print(f"mirror TAAU, still-camera clip box +-{gamma:g} sigma (shipped 4): {psnr(taau()):.2f} dB")
temporal.CLAMP_GAMMA_STATIC = 4.0
for t, mean, median, raw in network_alpha():
    if t in (1, 2, 4, 8, 16, 24, 31):
        print(f"network frame {t:2d}: blend factor mean {mean:.3f} median {median:.3f}; raw (unclipped) history share {raw:.2f}")
