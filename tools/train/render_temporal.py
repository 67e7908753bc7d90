#!/usr/bin/python3
"""Renders the temporal upscaler's training or evaluation sequences with upscale_demo.

    render_temporal.py plan --scenes DIR --out PLAN.json [--kinds street,poles,objects] [--seeds 1:6]
                            [--procedural-seeds 1:4] [--paths orbit,fence_walk,flyover,low_sweep]
                            [--display 384x216] [--displays 384x216,768x432] [--render-scales 0.5]
                            [--frames 32] [--supersample 16]
                            [--windows 2] [--slow-windows 0] [--slow-fps 120] [--static-windows 0]
    render_temporal.py render PLAN.json --out DIR [--demo upscale_demo] [--only NAME,...]

A plan is JSON: {"display": [W, H], "render_scale": 0.5, "fps": 30, "frames": N, "supersample": S,
"sequences": [{"name", "scene" | "scene_seed", "camera_path" | "path", "time", ["fps"], ["render_scale"]}]}. A
sequence's own "fps" overrides the plan's: the same path rendered at 120 frames per second moves a
quarter as far per frame (slow dollies and nearly static views, where a temporal upscaler must
accumulate many frames; the jitter sequence advances per frame either way). A sequence's own
"render_scale" overrides the plan's too: `plan --render-scales 0.5,0.6666667,0.5,0.3333333` deals
the listed scales out to the sequences in turn (here half at 2x, a quarter each at 1.5x and 3x), so
that a network learns every upscale ratio an engine may ask for, not one. A display size a scale does not
divide exactly is rounded down to one it does (384x216 at 0.8: 380x215, render 304x172), so that
training crops map to whole render pixels. `--displays 384x216,768x432` deals display sizes out the same way (a
sequence's own "display"; every ratio gets every size): content renders with other statistics
per pixel at other resolutions (smoother texture, more pixels of motion per frame), and a network
trained at one size loses ground to TAAU at larger ones. `--static-windows N` adds N windows per
keyframed path whose camera stands still at one of the path's keyframes (a camera-path file of
its own, written beside the plan in static_paths/), and one per procedural path at 1000 frames per
second (a thirtieth of the motion per frame of the 30 fps windows: 1 mm per frame on a path
moving 1 m/s). Only the jitter moves: that is where a temporal upscaler must settle as TAAU's
capped accumulation does, not keep blending in each new jittered frame. Rendering writes,
for each sequence, DIR/NAME/input (the jittered render-resolution color, depth and motion as .npy,
from a --mode taau run, whose output frames come along) and DIR/NAME/reference (the S-sample
supersampled frames: frame_NNNNN.png, and the float means as training reads them: reference_u8.npy,
8-bit sRGB, the float output_NNNNN.npy deleted once it is written), plus
DIR/NAME/sequence.json with the frames that follow a camera cut. A sequence whose files are
complete is skipped, so an interrupted run resumes.
"""
import argparse
import json
import os
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import numpy as np  # noqa: E402


def parse_range(text):
    """'1:4' -> [1, 2, 3, 4]; '1,5,9' -> [1, 5, 9]; '1:3,10:11' -> [1, 2, 3, 10, 11]."""
    out = []
    for part in (p for p in text.split(",") if p):
        if ":" in part:
            a, b = part.split(":")
            out += range(int(a), int(b) + 1)
        else:
            out.append(int(part))
    return out


def windows(camera_path, seconds, count, seed):
    """Start times of `count` windows of `seconds` spread over a keyframed path (deterministic per
    seed), plus one that straddles the path's first camera cut."""
    keys = json.load(open(camera_path))["keyframes"]
    duration = max(0.0, keys[-1]["time"] - seconds)
    starts = [(duration * (k + 0.5) / count + 0.37 * seed) % max(duration, 1e-3) for k in range(count)]
    cuts = [k["time"] for k in keys if k.get("cut")]
    if cuts:
        starts.append(max(0.0, cuts[0] - seconds / 2))
    return starts


def static_path(camera_path, index, out_dir, name):
    """Writes a camera-path file that holds the pose of keyframe `index` (modulo the count) of
    `camera_path` still for 100 s, and returns its path."""
    keys = json.load(open(camera_path))["keyframes"]
    key = keys[index % len(keys)]
    pose = {f: key[f] for f in ("position", "target", "fov_y_deg", "near", "far") if f in key}
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name + ".json")
    with open(path, "w") as f:
        json.dump({"name": name, "keyframes": [dict(time=0.0, **pose), dict(time=100.0, **pose)]}, f)
    return path


STATIC_FPS = 1000.0  # upscale_demo's highest --fps: a named path barely moves over a window


def parse_size(text, flag):
    try:
        w, h = (int(v) for v in text.split("x"))
    except ValueError:
        raise SystemExit(f"{flag} {text}: expected WIDTHxHEIGHT")
    if not (16 <= w <= 16384 and 16 <= h <= 16384):
        raise SystemExit(f"{flag} {text}: sizes are 16..16384")
    return w, h


def exact_display(w, h, scale):
    """(w, h) rounded down to the nearest size that `scale` maps to whole render pixels, so that
    training crops cover whole render pixels: 384x216 stays at 0.5, 2/3 and 1/3, and becomes
    380x215 at 0.8 (render 304x172, exactly 1.25x)."""
    q = Fraction(scale).limit_denominator(16).denominator
    return max(w // q * q, q), max(h // q * q, q)


def make_plan(args):
    w, h = parse_size(args.display, "--display")
    plan = {"display": [w, h], "render_scale": 0.5, "fps": 30, "frames": args.frames, "supersample": args.supersample, "sequences": []}
    kinds, seeds = args.kinds.split(","), set(parse_range(args.seeds))
    for directory in args.scenes:
        manifest = json.load(open(os.path.join(directory, "manifest.json")))
        for scene in manifest["scenes"]:
            if scene["kind"] not in kinds or scene["seed"] not in seeds:
                continue
            for path in scene["camera_paths"]:
                name = os.path.splitext(os.path.basename(path))[0]
                camera = os.path.join(directory, path)
                for k, t in enumerate(windows(camera, args.frames / 30.0, args.windows, scene["seed"])):
                    plan["sequences"].append({"name": f"{name}_t{k}", "scene": os.path.join(directory, scene["file"]),
                                              "camera_path": camera, "time": round(t, 3)})
                slow = windows(camera, args.frames / args.slow_fps, args.slow_windows, scene["seed"] + 101)[:args.slow_windows]
                for k, t in enumerate(slow):
                    plan["sequences"].append({"name": f"{name}_slow{k}", "scene": os.path.join(directory, scene["file"]),
                                              "camera_path": camera, "time": round(t, 3), "fps": args.slow_fps})
                for k in range(args.static_windows):
                    still = static_path(camera, scene["seed"] * 3 + k * 5, os.path.join(os.path.dirname(os.path.abspath(args.out)), "static_paths"),
                                        f"{name}_static{k}")
                    plan["sequences"].append({"name": f"{name}_static{k}", "scene": os.path.join(directory, scene["file"]),
                                              "camera_path": still, "time": 0.0})
    for seed in parse_range(args.procedural_seeds) if args.procedural_seeds else []:
        for k, path in enumerate(args.paths.split(",")):
            plan["sequences"].append({"name": f"procedural_s{seed}_{path}", "scene_seed": seed, "path": path, "time": 1.5 + 3.0 * k + seed})
            if args.slow_windows > 0:
                plan["sequences"].append({"name": f"procedural_s{seed}_{path}_slow", "scene_seed": seed, "path": path,
                                          "time": 2.5 + 3.0 * k + seed, "fps": args.slow_fps})
            if args.static_windows > 0:
                plan["sequences"].append({"name": f"procedural_s{seed}_{path}_static", "scene_seed": seed, "path": path,
                                          "time": 2.0 + 3.0 * k + seed, "fps": STATIC_FPS})
    scales = [float(v) for v in args.render_scales.split(",") if v]
    if not scales or any(not 0.1 <= v <= 2.0 for v in scales):
        raise SystemExit(f"--render-scales {args.render_scales}: expected a list of scales in [0.1, 2]")
    plan["render_scale"] = scales[0]
    if len(set(scales)) > 1:
        for k, seq in enumerate(plan["sequences"]):
            seq["render_scale"] = scales[k % len(scales)]
            seq["name"] += f"_x{1.0 / seq['render_scale']:.3g}"
    displays = [parse_size(v, "--displays") for v in (args.displays or "").split(",") if v]
    several = len(set(displays)) > 1
    if several:
        plan["display"] = list(displays[0])
    for k, seq in enumerate(plan["sequences"]):
        # Each run of len(scales) sequences takes one size: every ratio meets every size.
        size = displays[(k // len(scales)) % len(displays)] if several else (w, h)
        exact = exact_display(*size, seq.get("render_scale", plan["render_scale"]))
        if several or exact != (w, h):
            seq["display"] = list(exact)
        if several:
            seq["name"] += f"_d{exact[0]}"
    refuse_held_out(plan, args.held_out)
    json.dump(plan, open(args.out, "w"), indent=1)
    sizes = args.displays if len(set(displays)) > 1 else f"{w}x{h}"
    common.log(f"wrote {args.out}: {len(plan['sequences'])} sequences of {args.frames} frames at {sizes}, render scales {args.render_scales}")


def scene_key(seq):
    """What identifies a sequence's content: the scene file's name (make_scenes.py names files by
    kind and seed, so gen/street_s8.glb and scenes/s8/street_s8.glb are the same scene), or the
    procedural seed and named path."""
    if "scene" in seq:
        return os.path.basename(seq["scene"])
    return f"procedural seed {seq.get('scene_seed', 0)} on {seq.get('path', 'orbit')}"


def refuse_held_out(plan, held_out_paths):
    """Training or validation content must never be held-out content: a plan that renders a scene
    the held-out plans use (or the procedural scene on a held-out seed and path) is refused."""
    for path in held_out_paths:
        held = {scene_key(s) for s in json.load(open(path))["sequences"]}
        clash = sorted({scene_key(s) for s in plan["sequences"]} & held)
        if clash:
            raise SystemExit(f"{path} holds these out, so this plan may not render them: {', '.join(clash)}"
                             " (choose other --seeds; tools/train/README.md, 'Split')")


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
    """A glTF scene without a camera path or named path gets the demo's automatic orbit."""
    a = ["--scene", seq["scene"]] if "scene" in seq else ["--scene-seed", str(seq.get("scene_seed", 0))]
    if "camera_path" in seq:
        a += ["--camera-path", seq["camera_path"]]
    elif "path" in seq or "scene" not in seq:
        a += ["--path", seq.get("path", "orbit")]
    return a + ["--time", str(seq.get("time", 0.0))]


def complete(directory, stem, frames):
    return os.path.exists(os.path.join(directory, f"{stem}_{frames - 1:05d}.npy"))


def render_one(args, plan, seq):
    w, h = seq.get("display", plan["display"])
    frames, fps = plan["frames"], seq.get("fps", plan["fps"])
    out = os.path.join(args.out, seq["name"])
    inp, ref = os.path.join(out, "input"), os.path.join(out, "reference")
    base = [args.demo, "--headless", "--width", str(w), "--height", str(h), "--frames", str(frames), "--fps", str(fps)] + scene_args(seq)
    if not complete(inp, "motion", frames):
        subprocess.run(base + ["--mode", "taau", "--render-scale", str(seq.get("render_scale", plan["render_scale"])), "--channels", "color,depth,motion",
                               "--out", inp], check=True, stdout=subprocess.DEVNULL)
    compact = os.path.join(ref, common.REFERENCE_U8)
    if not os.path.exists(compact):
        if not complete(ref, "output", frames):
            subprocess.run(base + ["--mode", "native", "--supersample", str(plan["supersample"]), "--channels", "output", "--out", ref],
                           check=True, stdout=subprocess.DEVNULL)
        # The float means are 4 bytes per channel: a plan of 150 sequences with a third at 1536x864
        # filled a 64 GB disk. Training reads them as 8-bit sRGB, so keep only that.
        np.save(compact + ".tmp.npy", common.reference_u8(ref, frames))
        os.replace(compact + ".tmp.npy", compact)
        for i in range(frames):
            os.remove(os.path.join(ref, f"output_{i:05d}.npy"))
    json.dump({"sequence": seq, "cuts": cut_frames(seq, frames, fps), "display": [w, h], "frames": frames, "fps": fps},
              open(os.path.join(out, "sequence.json"), "w"), indent=1)
    return seq["name"]


def disk_need(args, plan, todo):
    """Bytes the sequences of `todo` still to render will take in args.out at the most: their
    inputs (float colour, depth and motion at the render size, and the TAAU run's PNG frames),
    their kept references (8-bit, plus the PNG frames) and, for each demo process at once, the
    float reference frames of one sequence before they are compacted. PNGs are counted
    uncompressed: an upper bound."""
    persistent, transient = 0, 0
    for seq in todo:
        out = os.path.join(args.out, seq["name"])
        w, h = seq.get("display", plan["display"])
        scale = seq.get("render_scale", plan["render_scale"])
        frames = plan["frames"]
        if not complete(os.path.join(out, "input"), "motion", frames):
            persistent += frames * (round(w * scale) * round(h * scale) * (3 + 1 + 2) * 4 + w * h * 3)
        if not os.path.exists(os.path.join(out, "reference", common.REFERENCE_U8)):
            persistent += frames * w * h * 3 * 2
            transient = max(transient, frames * w * h * 3 * 4)
    return persistent + transient * max(1, min(args.jobs, len(todo)))


def render(args):
    import shutil
    from concurrent.futures import ThreadPoolExecutor
    plan = json.load(open(args.plan))
    only = set(args.only.split(",")) if args.only else None
    todo = [s for s in plan["sequences"] if not only or s["name"] in only]
    # Refuse before rendering anything, not minutes later on a full disk. Only what the file
    # system reports as free is known here: the GPU machine's /tmp reported 235 GB free where its
    # 64 GB disk filled up, so there the compact references are what keeps a plan within it.
    need = disk_need(args, plan, todo)
    os.makedirs(args.out, exist_ok=True)
    free = shutil.disk_usage(args.out).free
    if need > free:
        raise SystemExit(f"render: the {len(todo)} sequences of {args.plan} need up to {need / 1e9:.1f} GB in {args.out} and it has "
                         f"{free / 1e9:.1f} GB free: render fewer (--only), with fewer --jobs, or elsewhere")
    common.log(f"rendering {len(todo)} sequences, up to {need / 1e9:.1f} GB of the {free / 1e9:.1f} GB free in {args.out}")
    clock = common.Stopwatch()
    # Several demo processes at once: on a GPU the CPU side (read-back, .npy writing) dominates.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for n, name in enumerate(pool.map(lambda s: render_one(args, plan, s), todo), 1):
            left = clock() / n * (len(todo) - n)
            common.log(f"[{n}/{len(todo)}] {name}  ({clock():.0f} s, ~{left:.0f} s left)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--scenes", required=True, nargs="+", help="make_scenes.py output directories (manifest.json)")
    p.add_argument("--out", required=True)
    p.add_argument("--kinds", default="street,poles,objects")
    p.add_argument("--seeds", default="1:6")
    p.add_argument("--procedural-seeds", default="1:4", help="seeds of the engine's procedural scene ('' for none)")
    p.add_argument("--paths", default=",".join(common.TRAIN_PATHS), help="named camera paths for the procedural scenes")
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--held-out", nargs="*", default=[os.path.join(here, "heldout_temporal.json"), os.path.join(here, "heldout_static.json")],
                   help="held-out plans whose scenes this plan must not render")
    p.add_argument("--display", default="384x216")
    p.add_argument("--displays", help="display sizes dealt out to the sequences (e.g. 384x216,768x432); overrides --display")
    p.add_argument("--render-scales", default="0.5",
                   help="render scales dealt out to the sequences in turn (render size = display x scale)")
    p.add_argument("--windows", type=int, default=2, help="windows rendered along each keyframed path")
    p.add_argument("--slow-windows", type=int, default=0,
                   help="windows per keyframed path (and one per procedural path) rendered at --slow-fps")
    p.add_argument("--slow-fps", type=float, default=120.0, help="frame rate of the slow windows (the camera moves 30/fps as far per frame)")
    p.add_argument("--static-windows", type=int, default=0,
                   help="windows per keyframed path (and one per procedural path) with a still camera: only the jitter moves")
    p.add_argument("--frames", type=int, default=32)
    p.add_argument("--supersample", type=int, default=16)
    r = sub.add_parser("render")
    r.add_argument("plan")
    r.add_argument("--out", required=True)
    r.add_argument("--demo", default=common.DEMO)
    r.add_argument("--only", help="comma-separated sequence names")
    r.add_argument("--jobs", type=int, default=1, help="demo processes at once")
    args = ap.parse_args()
    make_plan(args) if args.command == "plan" else render(args)


if __name__ == "__main__":
    main()
