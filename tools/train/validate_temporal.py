#!/usr/bin/python3
"""Scores trained temporal upscalers on a validation split with the PyTorch mirror of the effect
(tools/train/temporal.py), to choose among candidates without touching the held-out split.

    validate_temporal.py --data DIR [DIR ...] --models a.npz [b.npz ...] [--warmup 8] [--json OUT]

DIR holds rendered sequences (render_temporal.py), like train_temporal.py's --data, but of
content kept out of both training and the held-out evaluation (device_train.sh renders seeds of
their own for it). Every sequence is unrolled whole, from a reset, at full frame size; PSNR (sRGB,
peak 1) and flicker (mean |output change - reference change| in 8-bit units) are averaged over
the frames after the warm-up and outside the warm-up after each camera cut, as
evaluate_temporal.py scores the held-out split. Prints one table row per model, best PSNR first,
with the means over the slow sequences (names with "_slow") beside the overall ones, and a row for
the engine's own TAAU (the frames the input rendering wrote) as the baseline to beat, and the same
per upscale ratio, per display size and per camera motion (moving, slow, still: names with
"_static") where the data has several.
"""
import argparse
import glob
import json
import math
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import temporal  # noqa: E402
import train_temporal  # noqa: E402


def steady_frames(frames, cuts, warmup):
    after_cut = set()
    for c in cuts:
        after_cut.update(range(c, min(c + warmup, frames)))
    return [i for i in range(warmup, frames) if i not in after_cut]


def score_frames(frames_of, seq, warmup):
    """PSNR and flicker of the frames `frames_of(t)` ([1, 3, H, W] sRGB 0..1 on the reference's
    device) against the sequence's reference, over its steady frames."""
    steady = set(steady_frames(seq.frames, seq.cuts, warmup))
    mse, flicker, prev, prev_ref, n_mse, n_flicker = 0.0, 0.0, None, None, 0, 0
    for t in range(seq.frames):
        out = frames_of(t)
        ref = seq.reference[t:t + 1].float() / 255.0
        if t in steady:
            mse += float(((out - ref) ** 2).mean())
            n_mse += 1
            if prev is not None and t - 1 in steady:
                flicker += float(((out - prev) - (ref - prev_ref)).abs().mean()) * 255.0
                n_flicker += 1
        prev, prev_ref = out, ref
    return 10 * math.log10(1.0 / max(mse / max(n_mse, 1), 1e-12)), flicker / max(n_flicker, 1)


@torch.no_grad()
def score(net, seq, warmup, device):
    up = temporal.TemporalUpscaler(net, tuple(seq.reference.shape[-2:]))

    def frame_of(t):
        def frame(a):
            return a[t:t + 1].to(device).float()
        out = up.step(frame(seq.color), frame(seq.depth), frame(seq.motion),
                      torch.from_numpy(seq.jitter[t:t + 1]).to(device), reset=(t == 0 or t in seq.cuts))
        # The effect writes 8-bit frames: score what a PNG of the output would hold.
        return torch.round(out.clamp(0, 1) * 255.0) / 255.0
    return score_frames(frame_of, seq, warmup)


def score_taau(seq, directory, warmup, device):
    """The engine's own TAAU output, which the rendering of the inputs wrote as input/frame_*.png."""
    def frame_of(t):
        png = train_temporal.load_png(os.path.join(directory, "input", f"frame_{t:05d}.png"))
        return torch.from_numpy(png.transpose(2, 0, 1).copy()).unsqueeze(0).to(device).float() / 255.0
    return score_frames(frame_of, seq, warmup)


def grouped(per, group_of):
    """Means per group (`group_of`: sequence name -> group name)."""
    groups = {}
    for k, (p, f) in per.items():
        groups.setdefault(group_of[k], []).append((p, f))
    return {g: {"psnr": sum(p for p, _ in v) / len(v), "flicker": sum(f for _, f in v) / len(v), "sequences": len(v)}
            for g, v in sorted(groups.items())}


def summary(per, ratios, displays):
    """Means over all sequences, over the slow ones (render_temporal.py --slow-windows), per
    upscale ratio (`ratios`: sequence name -> "2x", "1.5x", ...), per display size
    (`displays`: sequence name -> "384x216", ...) and per camera motion (motion_name)."""
    slow = [v for k, v in per.items() if "_slow" in k] or [(float("nan"), float("nan"))]
    return {"psnr": sum(p for p, _ in per.values()) / len(per), "flicker": sum(f for _, f in per.values()) / len(per),
            "slow_psnr": sum(p for p, _ in slow) / len(slow), "slow_flicker": sum(f for _, f in slow) / len(slow),
            "ratios": grouped(per, ratios), "displays": grouped(per, displays),
            "motions": grouped(per, {k: motion_name(k) for k in per}),
            "sequences": {k: {"psnr": p, "flicker": f} for k, (p, f) in per.items()}}


def motion_name(name):
    """render_temporal.py's window kinds: "_static" (a still camera), "_slow", or a moving one."""
    return "still" if "_static" in name else "slow" if "_slow" in name else "moving"


def ratio_name(seq):
    ry, rx = seq.ratio()
    return f"{float(rx):.3g}x" if ry == rx else f"{float(rx):.3g}x{float(ry):.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, nargs="+", help="directories of rendered validation sequences")
    ap.add_argument("--models", required=True, nargs="+", help="trained networks (.npz)")
    ap.add_argument("--warmup", type=int, default=8)
    ap.add_argument("--json", help="also write the scores here")
    args = ap.parse_args()
    device = common.torch_device()
    dirs = [d for pattern in args.data for d in sorted(glob.glob(os.path.join(pattern, "*"))) if os.path.isdir(os.path.join(d, "input"))]
    if not dirs:
        raise SystemExit("no sequences (DIR/*/input) under " + " ".join(args.data))
    sequences = train_temporal.load_sequences(dirs, device)
    ratios = {s.name: ratio_name(s) for s in sequences}
    displays = {s.name: "x".join(str(v) for v in reversed(s.reference.shape[-2:])) for s in sequences}
    start = time.time()
    results = {}
    if os.path.isfile(os.path.join(dirs[0], "input", "frame_00000.png")):
        results["TAAU (engine)"] = summary({s.name: score_taau(s, d, args.warmup, device) for s, d in zip(sequences, dirs)}, ratios, displays)
    for path in args.models:
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such model")
        net, _ = train_temporal.load_net(path)
        net = net.to(device).eval()
        results[os.path.basename(path)] = summary({s.name: score(net, s, args.warmup, device) for s in sequences}, ratios, displays)
        common.log(f"{path}: {results[os.path.basename(path)]['psnr']:.3f} dB  ({time.time() - start:.0f} s)")
    print(f"validation: {len(sequences)} sequences ({', '.join(s.name for s in sequences)}), warm-up {args.warmup}")
    print("| model | PSNR (dB) | flicker | slow sequences: PSNR | flicker |\n|---|---:|---:|---:|---:|")
    for name, r in sorted(results.items(), key=lambda kv: -kv[1]["psnr"]):
        print(f"| {name} | {r['psnr']:.3f} | {r['flicker']:.3f} | {r['slow_psnr']:.3f} | {r['slow_flicker']:.3f} |")
    for key, title, names in (("ratios", "upscale ratio", sorted(set(ratios.values()), key=lambda r: float(r.split("x")[0]))),
                              ("displays", "display size", sorted(set(displays.values()), key=lambda d: int(d.split("x")[0]))),
                              ("motions", "camera motion", [m for m in ("moving", "slow", "still") if m in {motion_name(s.name) for s in sequences}])):
        if len(names) > 1:
            print(f"\nPer {title}, PSNR (dB) / flicker:\n")
            print("| model | " + " | ".join(f"{g} ({next(iter(results.values()))[key][g]['sequences']} seq.)" for g in names) + " |")
            print("|---|" + "---:|" * len(names))
            for name, r in sorted(results.items(), key=lambda kv: -kv[1]["psnr"]):
                print(f"| {name} | " + " | ".join(f"{r[key][g]['psnr']:.3f} / {r[key][g]['flicker']:.3f}" for g in names) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
