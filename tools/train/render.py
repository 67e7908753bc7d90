#!/usr/bin/env python3
"""Renders the training and evaluation data with the engine itself (upscale_demo --headless).

Every job is one upscale_demo run into its own directory; a directory whose recorded command
matches is reused (--force re-renders). Training jobs use TRAIN_PATHS only, evaluation jobs
HELDOUT_PATHS only (common.py).

  upscaler pairs:  the same camera rendered natively at W x H (target) and W/2 x H/2 (input)
  denoiser pairs:  1 shadow ray per pixel (noisy input, with albedo/normal/depth) and many rays
                   (converged reference) of the same camera and frame seed
  baselines:       the engine's own bilinear/bicubic output stage at render scale 0.5
"""
import argparse
import json
import os
import subprocess
import sys

from common import DATA, DEMO, HELDOUT_PATHS, TRAIN_PATHS, Stopwatch, log

# Sizes and counts: chosen so that rendering stays a few minutes on 2 lavapipe cores.
# References use 128 shadow rays: lavapipe's loop guard (65535 iterations per invocation) caps
# the rays actually traced at about 500 on this scene (docs/RENDERER.md), and 128 keeps the
# rendering time of the references within the pipeline's budget.
# Several output sizes: the scene's pixel-sized texture looks different at each, and the upscaler
# must not learn one size's aliasing (evaluation is at 960x540).
UP_TRAIN = [dict(width=512, height=288, frames=12, fps=1, time=0.5),
            dict(width=768, height=432, frames=6, fps=1, time=3.2),
            dict(width=1024, height=576, frames=4, fps=1, time=5.7)]
DN_TRAIN = dict(width=384, height=216, frames=16, fps=1, time=1.0, ref_spp=128)
UP_EVAL = dict(width=960, height=540, frames=3, fps=1, time=1.5)
DN_EVAL = dict(width=480, height=272, frames=2, fps=1, time=2.5, ref_spp=128)  # denoiser: H, W multiples of 4
GBUFFER = "color,albedo,normal,depth"


def jobs(which):
    """(directory, upscale_demo arguments) of every render."""
    out = []

    def add(d, path, size, frames, fps, time, extra):
        args = ["--headless", "--path", path, "--frames", str(frames), "--fps", str(fps), "--time", str(time),
                "--width", str(size[0]), "--height", str(size[1])] + extra
        out.append((os.path.join(DATA, d), args))

    if which in ("train", "all"):
        for c in UP_TRAIN:
            for p in TRAIN_PATHS:
                base = (c["frames"], c["fps"], c["time"])
                d = f"train_up/{c['width']}x{c['height']}/{p}"
                add(f"{d}/hi", p, (c["width"], c["height"]), *base, ["--mode", "native", "--channels", "color"])
                add(f"{d}/lo", p, (c["width"] // 2, c["height"] // 2), *base, ["--mode", "native", "--channels", "color"])
        c = DN_TRAIN
        for p in TRAIN_PATHS:
            base = (c["frames"], c["fps"], c["time"])
            size = (c["width"], c["height"])
            add(f"train_dn/{p}/noisy", p, size, *base, ["--mode", "native", "--shadows", "stochastic", "--channels", GBUFFER])
            add(f"train_dn/{p}/ref", p, size, *base, ["--mode", "native", "--shadows", "stochastic",
                                                      "--shadow-samples", str(c["ref_spp"]), "--channels", "color"])
    if which in ("eval", "all"):
        c = UP_EVAL
        for p in HELDOUT_PATHS:
            base = (c["frames"], c["fps"], c["time"])
            size = (c["width"], c["height"])
            add(f"eval_up/{p}/native", p, size, *base, ["--mode", "native", "--channels", "color"])
            add(f"eval_up/{p}/lo", p, (c["width"] // 2, c["height"] // 2), *base, ["--mode", "native", "--channels", "color"])
            for mode in ("bilinear", "bicubic"):
                add(f"eval_up/{p}/{mode}", p, size, *base, ["--mode", mode, "--render-scale", "0.5", "--channels", "color,output"])
        c = DN_EVAL
        for p in HELDOUT_PATHS:
            base = (c["frames"], c["fps"], c["time"])
            size = (c["width"], c["height"])
            add(f"eval_dn/{p}/noisy", p, size, *base, ["--mode", "native", "--shadows", "stochastic", "--channels", GBUFFER])
            add(f"eval_dn/{p}/ref", p, size, *base, ["--mode", "native", "--shadows", "stochastic",
                                                     "--shadow-samples", str(c["ref_spp"]), "--channels", "color"])
    return out


def render(which="all", force=False, demo=DEMO):
    if not os.access(demo, os.X_OK):
        sys.exit(f"render.py: {demo} is not an executable upscale_demo (build it: ninja -C build-train upscale_demo)")
    total = Stopwatch()
    todo = jobs(which)
    timings = {}
    for i, (d, args) in enumerate(todo):
        stamp = os.path.join(d, "command.json")
        if not force and os.path.exists(stamp):
            with open(stamp) as f:
                if json.load(f) == args:
                    continue
        os.makedirs(d, exist_ok=True)
        sw = Stopwatch()
        r = subprocess.run([demo] + args + ["--out", d], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"render.py: upscale_demo {' '.join(args)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
        with open(stamp, "w") as f:
            json.dump(args, f)
        timings[os.path.relpath(d, DATA)] = round(sw(), 1)
        log(f"render {i + 1}/{len(todo)} {os.path.relpath(d, DATA)}: {sw():.1f} s")
    log(f"rendering ({which}) took {total():.0f} s")
    return timings


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", nargs="?", default="all", choices=["train", "eval", "all"])
    ap.add_argument("--force", action="store_true", help="re-render even where the data exists")
    ap.add_argument("--demo", default=DEMO, help="upscale_demo binary")
    a = ap.parse_args()
    render(a.which, a.force, a.demo)
