#!/usr/bin/python3
"""Renders the temporal upscaler's training or evaluation sequences with upscale_demo.

    render_temporal.py plan --scenes DIR --out PLAN.json [--kinds street,poles,objects] [--seeds 1:6]
                            [--procedural-seeds 1:4] [--paths orbit,fence_walk,flyover,low_sweep]
                            [--display 384x224] [--frames 32] [--supersample 16]
    render_temporal.py render PLAN.json --out DIR [--demo upscale_demo] [--only NAME,...]

A plan is JSON: {"display": [W, H], "render_scale": 0.5, "fps": 30, "frames": N, "supersample": S,
"sequences": [{"name", "scene" | "scene_seed", "camera_path" | "path", "time"}]}. Rendering writes,
for each sequence, DIR/NAME/input (the jittered render-resolution color, depth and motion as .npy,
from a --mode taau run, whose output frames come along) and DIR/NAME/reference (the S-sample
supersampled frames: frame_NNNNN.png and the float means output_NNNNN.npy), plus
DIR/NAME/sequence.json with the frames that follow a camera cut. A sequence whose files are
complete is skipped, so an interrupted run resumes.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def parse_range(text):
    """'1:4' -> [1, 2, 3, 4]; '1,5,9' -> [1, 5, 9]."""
    if ":" in text:
        a, b = text.split(":")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",") if x]


def make_plan(args):
    manifest = json.load(open(os.path.join(args.scenes, "manifest.json")))
    w, h = (int(v) for v in args.display.split("x"))
    plan = {"display": [w, h], "render_scale": 0.5, "fps": 30, "frames": args.frames, "supersample": args.supersample, "sequences": []}
    kinds, seeds = args.kinds.split(","), set(parse_range(args.seeds))
    for scene in manifest["scenes"]:
        if scene["kind"] not in kinds or scene["seed"] not in seeds:
            continue
        for path in scene["camera_paths"]:
            name = os.path.splitext(os.path.basename(path))[0]
            plan["sequences"].append({"name": name, "scene": os.path.join(args.scenes, scene["file"]),
                                      "camera_path": os.path.join(args.scenes, path), "time": 0.0})
    for seed in parse_range(args.procedural_seeds) if args.procedural_seeds else []:
        for k, path in enumerate(args.paths.split(",")):
            plan["sequences"].append({"name": f"procedural_s{seed}_{path}", "scene_seed": seed, "path": path, "time": 1.5 + 3.0 * k + seed})
    json.dump(plan, open(args.out, "w"), indent=1)
    common.log(f"wrote {args.out}: {len(plan['sequences'])} sequences of {args.frames} frames at {w}x{h}")


def cut_frames(seq, frames, fps):
    """Frames i whose interval (t_i - 1/fps, t_i] holds a keyframe marked "cut" (camera-path files)."""
    if "camera_path" not in seq:
        return []
    keys = json.load(open(seq["camera_path"]))["keyframes"]
    cuts = [k["time"] for k in keys if k.get("cut")]
    out = []
    for i in range(frames):
        t = seq.get("time", 0.0) + i / fps
        if any(t - 1.0 / fps < c <= t for c in cuts):
            out.append(i)
    return out


def scene_args(seq):
    a = ["--scene", seq["scene"]] if "scene" in seq else ["--scene-seed", str(seq.get("scene_seed", 0))]
    a += ["--camera-path", seq["camera_path"]] if "camera_path" in seq else ["--path", seq.get("path", "orbit")]
    return a + ["--time", str(seq.get("time", 0.0))]


def complete(directory, stem, frames):
    return os.path.exists(os.path.join(directory, f"{stem}_{frames - 1:05d}.npy"))


def render(args):
    plan = json.load(open(args.plan))
    w, h = plan["display"]
    frames, fps = plan["frames"], plan["fps"]
    only = set(args.only.split(",")) if args.only else None
    todo = [s for s in plan["sequences"] if not only or s["name"] in only]
    clock = common.Stopwatch()
    for n, seq in enumerate(todo, 1):
        out = os.path.join(args.out, seq["name"])
        inp, ref = os.path.join(out, "input"), os.path.join(out, "reference")
        common_args = [args.demo, "--headless", "--width", str(w), "--height", str(h), "--frames", str(frames), "--fps", str(fps)] + scene_args(seq)
        if not complete(inp, "motion", frames):
            subprocess.run(common_args + ["--mode", "taau", "--render-scale", str(plan["render_scale"]), "--channels", "color,depth,motion",
                                          "--out", inp], check=True, stdout=subprocess.DEVNULL)
        if not complete(ref, "output", frames):
            subprocess.run(common_args + ["--mode", "native", "--supersample", str(plan["supersample"]), "--channels", "output", "--out", ref],
                           check=True, stdout=subprocess.DEVNULL)
        json.dump({"sequence": seq, "cuts": cut_frames(seq, frames, fps), "display": [w, h], "frames": frames, "fps": fps},
                  open(os.path.join(out, "sequence.json"), "w"), indent=1)
        left = clock() / n * (len(todo) - n)
        common.log(f"[{n}/{len(todo)}] {seq['name']}  ({clock():.0f} s, ~{left:.0f} s left)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--scenes", required=True, help="make_scenes.py output (manifest.json)")
    p.add_argument("--out", required=True)
    p.add_argument("--kinds", default="street,poles,objects")
    p.add_argument("--seeds", default="1:6")
    p.add_argument("--procedural-seeds", default="1:4", help="seeds of the engine's procedural scene ('' for none)")
    p.add_argument("--paths", default=",".join(common.TRAIN_PATHS), help="named camera paths for the procedural scenes")
    p.add_argument("--display", default="384x224")
    p.add_argument("--frames", type=int, default=32)
    p.add_argument("--supersample", type=int, default=16)
    r = sub.add_parser("render")
    r.add_argument("plan")
    r.add_argument("--out", required=True)
    r.add_argument("--demo", default=common.DEMO)
    r.add_argument("--only", help="comma-separated sequence names")
    args = ap.parse_args()
    make_plan(args) if args.command == "plan" else render(args)


if __name__ == "__main__":
    main()
