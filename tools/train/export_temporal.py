#!/usr/bin/python3
"""Exports the temporal upscaler's network (.npz from train_temporal.py) to ONNX in the effect's
contract: input 'features' [1, 64, h, w] -> output 'params' [1, 32, h, w], h and w free (half the
display size rounded up to 4; docs/EFFECTS.md). Then checks it: runs upscale_demo --mode
ml-temporal on a short sequence and the PyTorch mirror (temporal.py) on the very inputs the demo
dumped, and fails unless the two agree (mean absolute difference of the 8-bit frames).

    export_temporal.py [--weights assets/upscaler_temporal.npz] [--out assets/upscaler_temporal.onnx] [--no-check | --check-only]

--check-only checks an ONNX file already written (the shipped one, in the ctest
trained_upscaler_temporal_matches_pytorch) against the weights, without exporting.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import temporal  # noqa: E402
from train_temporal import load_net, load_png  # noqa: E402


def export(net, path):
    net = net.eval()
    r = net.unshuffle
    dummy = torch.rand(1, r * r * temporal.ML_FEATURES, 12, 20)
    torch.onnx.export(net, dummy, path, input_names=["features"], output_names=["params"], opset_version=13,
                      dynamic_axes={"features": {2: "h", 3: "w"}, "params": {2: "h", 3: "w"}})


def check(net, model_path, demo, scale=0.5, width=160, height=96, frames=10, path="orbit"):
    """PyTorch mirror vs the engine on the same rendered inputs at render scale `scale`; returns the
    mean abs diff (0..255) per frame."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [demo, "--headless", "--width", str(width), "--height", str(height), "--frames", str(frames), "--path", path,
               "--mode", "ml-temporal", "--temporal-model", model_path, "--render-scale", str(scale), "--channels", "color,depth,motion",
               "--out", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        up = temporal.TemporalUpscaler(net.eval(), (height, width))
        phases = temporal.phase_count(common.load_channel(out, "color", 0).shape[-1], width)
        diffs = []
        with torch.no_grad():
            for i in range(frames):
                c = torch.from_numpy(common.load_channel(out, "color", i))[None]
                d = torch.from_numpy(common.load_channel(out, "depth", i))[None]
                m = torch.from_numpy(common.load_channel(out, "motion", i))[None]
                j = torch.tensor([temporal.halton_jitter(i, phases)], dtype=torch.float32)
                mine = up.step(c, d, m, j, reset=(i == 0))[0].numpy().transpose(1, 2, 0)
                engine = load_png(os.path.join(out, f"frame_{i:05d}.png")).astype(np.float32) / 255.0
                diffs.append(float(np.abs(mine - engine).mean() * 255.0))
        return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", default=os.path.join(common.ASSETS, "upscaler_temporal.npz"))
    ap.add_argument("--out", default=os.path.join(common.ASSETS, "upscaler_temporal.onnx"))
    ap.add_argument("--demo", default=common.DEMO)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--no-check", action="store_true", help="export only")
    mode.add_argument("--check-only", action="store_true", help="check the ONNX file at --out, do not export")
    ap.add_argument("--tolerance", type=float, default=1.5, help="largest mean abs difference per frame, 8-bit units")
    ap.add_argument("--render-scales", default="0.5,0.6666667,0.3333333", help="render scales the check runs at (2x, 1.5x and 3x)")
    args = ap.parse_args()
    for path in [args.weights] + ([args.out] if args.check_only else []):
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")
    net, meta = load_net(args.weights)
    if not args.check_only:
        export(net, args.out)
        common.log(f"wrote {args.out} (width {meta['width']}, depth {meta['depth']}, unshuffle {net.unshuffle}, first kernel {meta.get('first_kernel', 3)})")
    if args.no_check:
        return
    worst = 0.0
    for scale in (float(v) for v in args.render_scales.split(",") if v):
        diffs = check(net, args.out, args.demo, scale)
        common.log(f"render scale {scale:.4g}: PyTorch mirror vs engine, mean |difference| per frame (8-bit units): " +
                   " ".join(f"{d:.2f}" for d in diffs))
        worst = max(worst, max(diffs))
    if worst > args.tolerance:
        raise SystemExit(f"the engine and the PyTorch mirror disagree (worst frame {worst:.2f} > {args.tolerance})")


if __name__ == "__main__":
    main()
