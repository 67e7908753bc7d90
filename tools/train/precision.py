#!/usr/bin/env python3
"""fp16 vs fp32: the shipped networks inside the engine (upscale_demo --mode ml / --denoise ml,
bridge::MlPass) in both precisions on the held-out camera paths, scored like evaluate.py
(sRGB-encoded 0..1, PSNR and luma SSIM from metrics.py) against the native render (upscaler)
and the many-ray reference (denoiser). Needs numpy and an upscale_demo build, not PyTorch; the
GPU it runs on decides the arithmetic (lavapipe here: fp16 storage and fp16 arithmetic, like
the H100). Prints a markdown table for docs/QUALITY.md.

  python3 tools/train/precision.py [--demo build/demos/upscale_demo/upscale_demo] [--out DIR] [--write FILE]
  (--write docs/quality/precision.md: the table evaluate.py puts into docs/QUALITY.md)
"""
import argparse
import os
import subprocess
import sys

import numpy as np

from common import ASSETS, DEMO, HELDOUT_PATHS, frame_count, load_channel, srgb_encode
from metrics import psnr, ssim
import render


def run(demo, directory, args):
    os.makedirs(directory, exist_ok=True)
    r = subprocess.run([demo] + args + ["--out", directory], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"precision.py: upscale_demo {' '.join(args)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")


def base(c, path):
    return ["--headless", "--path", path, "--frames", str(c["frames"]), "--fps", str(c["fps"]), "--time", str(c["time"]),
            "--width", str(c["width"]), "--height", str(c["height"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--demo", default=os.environ.get("TRAIN_DEMO", DEMO))
    ap.add_argument("--out", default="precision_out")
    ap.add_argument("--write", help="also write the table with its explanation to this markdown file")
    ap.add_argument("--device-name", default="", help="where it ran, for the written explanation")
    a = ap.parse_args()
    rows = {}

    def score(name, out, target):
        r = rows.setdefault(name, {"psnr": [], "ssim": []})
        r["psnr"].append(psnr(out, target))
        r["ssim"].append(ssim(out, target))

    for p in HELDOUT_PATHS:
        c = render.UP_EVAL
        d = os.path.join(a.out, "up", p)
        run(a.demo, f"{d}/native", base(c, p) + ["--mode", "native", "--channels", "color"])
        for prec in ("fp32", "fp16"):
            run(a.demo, f"{d}/{prec}", base(c, p) + ["--mode", "ml", "--render-scale", "0.5", "--ml-precision", prec,
                                                      "--model", os.path.join(ASSETS, "upscaler_x2.onnx"), "--channels", "output"])
        for f in range(frame_count(f"{d}/native")):
            target = srgb_encode(load_channel(f"{d}/native", "color", f))
            outs = {prec: srgb_encode(load_channel(f"{d}/{prec}", "output", f)) for prec in ("fp32", "fp16")}
            for prec, o in outs.items():
                score(f"upscaler x2, {prec}", o, target)
            score("upscaler x2, fp16 against fp32", outs["fp16"], outs["fp32"])
        c = render.DN_EVAL
        d = os.path.join(a.out, "dn", p)
        run(a.demo, f"{d}/ref", base(c, p) + ["--mode", "native", "--shadows", "stochastic", "--shadow-samples", str(c["ref_spp"]),
                                              "--channels", "color"])
        for prec in ("fp32", "fp16"):
            run(a.demo, f"{d}/{prec}", base(c, p) + ["--mode", "native", "--shadows", "stochastic", "--denoise", "ml", "--ml-precision", prec,
                                                      "--denoise-model", os.path.join(ASSETS, "denoiser.onnx"), "--channels", "output"])
        for f in range(frame_count(f"{d}/ref")):
            target = srgb_encode(load_channel(f"{d}/ref", "color", f))
            outs = {prec: srgb_encode(load_channel(f"{d}/{prec}", "output", f)) for prec in ("fp32", "fp16")}
            for prec, o in outs.items():
                score(f"denoiser, {prec}", o, target)
            score("denoiser, fp16 against fp32", outs["fp16"], outs["fp32"])

    lines = ["| Network (engine, bridge::MlPass) | frames | PSNR (dB) | SSIM (luma) |", "|---|---:|---:|---:|"]
    for name, r in rows.items():
        lines.append(f"| {name} | {len(r['psnr'])} | {np.mean(r['psnr']):.2f} | {np.mean(r['ssim']):.4f} |")
    table = "\n".join(lines)
    print(table)
    if a.write:
        where = f" on {a.device_name}" if a.device_name else ""
        with open(a.write, "w") as f:
            f.write(f"Both shipped networks inside the engine (`upscale_demo --mode ml` / `--denoise ml`, bridge::MlPass), "
                    f"`--ml-precision fp32` against `fp16` (fp16 tensors and fp16 arithmetic, the default where the "
                    f"device has them){where}, on the held-out paths and sizes above, scored like the tables above "
                    f"(upscaler against the native render, denoiser against the 128-ray reference); `fp16 against fp32` "
                    f"scores one precision's output against the other's. Written by `tools/train/precision.py`.\n\n"
                    f"{table}\n")


if __name__ == "__main__":
    main()
