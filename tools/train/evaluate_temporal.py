#!/usr/bin/python3
"""Scores the upscalers on held-out sequences and writes the report (docs/quality/temporal.md,
summarised in docs/QUALITY.md).

    evaluate_temporal.py PLAN.json --work DIR [--methods bilinear,bicubic,ml,taau,ml-temporal]
                         [--warmup 8] [--report docs/quality/temporal.md] [--demo upscale_demo]
                         [--render-scale S] [--temporal-model FILE.onnx] [--display WxH]
                         [--sequences NAME,...] [--jobs N] [--score-on auto|cpu|cuda]

PLAN is a render_temporal.py plan of sequences training never touched. For every sequence the
reference is the --supersample S render at the display size (exactly the held-out check's
command), and every method runs the same camera at --render-scale 0.5:

    upscale_demo --headless --scene F.glb --camera-path P.json --frames N --fps F --width W --height H
                 --mode native --supersample 16 --out DIR          (the reference)
    upscale_demo ... --mode bilinear|bicubic|ml|taau|ml-temporal --render-scale 0.5 --out DIR

Scores, on the 8-bit sRGB frames after `--warmup` frames: PSNR (all pixels and channels), SSIM
(luma, tools/train/metrics.py) and flicker = mean |(out_t - out_t-1) - (ref_t - ref_t-1)| in 8-bit
units (how much more, or less, the output changes from frame to frame than the reference does).
Frames right after a camera cut are scored separately (no warm-up there: how fast a method
recovers). Crops of the first sequences go next to the report.

--render-scale runs the methods at another scale than the plan's (other upscale ratios: 0.6666667
is 1.5x, 0.3333333 is 3x) against the same references; --temporal-model scores a candidate
network instead of the shipped one. Either writes the methods' frames to directories of their own
(METHOD@SCALE, ml-temporal+MODEL), so that the runs of several settings share the work directory
and its references. --display scores the plan at another output size (every method and the
reference render again, into directories tagged _WxH). --sequences scores a subset of the plan
(a report of a subset names its sequences like any other); --jobs renders and scores that many
sequences at once. The scores are taken with PyTorch on the GPU when it sees one (--score-on
cpu: numpy), and kept beside each method's frames (score.json): a run that was cut off, or
another report of the same frames, renders and scores only what is missing.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import metrics  # noqa: E402
from render_temporal import scene_args  # noqa: E402

METHODS = {
    "bilinear": ["--mode", "bilinear"],
    "bicubic": ["--mode", "bicubic"],
    "ml": ["--mode", "ml"],
    "taau": ["--mode", "taau"],
    "ml-temporal": ["--mode", "ml-temporal"],
}
LABELS = {"bilinear": "bilinear", "bicubic": "bicubic", "ml": "single-frame ML", "taau": "TAAU", "ml-temporal": "temporal ML"}


def load(path):
    from PIL import Image
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float32).transpose(2, 0, 1) / 255.0


def run(cmd, timeout=None):
    """Runs upscale_demo; returns the Vulkan device it names ("... on DEVICE into DIR"). Raises
    RuntimeError (not SystemExit, which would silently end a --jobs worker and leave the pool
    waiting for it) when the command fails or outlives `timeout` seconds."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"command still running after {timeout} s: " + " ".join(cmd))
    if r.returncode != 0:
        raise RuntimeError("command failed: " + " ".join(cmd) + "\n" + r.stdout)
    import re
    found = re.search(r" on (.+?) into ", r.stdout)
    return found.group(1) if found else None


def settings_tags(args, plan):
    """(model tag, scale tag, display tag): "" for the shipped network, the plan's scale and the
    plan's display size."""
    model = "+" + os.path.splitext(os.path.basename(args.temporal_model))[0] if args.temporal_model else ""
    scale = "" if args.scale == plan["render_scale"] else f"@{args.scale:g}"
    display = "" if list(args.size) == list(plan["display"]) else f"_{args.size[0]}x{args.size[1]}"
    return model, scale, display


def method_dirs(args, plan, methods):
    """Where each method's frames (and, under "reference", the reference's) go under a sequence's
    work directory. Another display size renders everything again, the reference included."""
    model, scale, display = settings_tags(args, plan)
    dirs = {m: m + (model if m == "ml-temporal" else "") + scale + display for m in methods}
    dirs["reference"] = "reference" + display
    return dirs


def render_sequence(args, plan, seq, methods, dirs):
    w, h = args.size
    base = [args.demo, "--headless", "--width", str(w), "--height", str(h), "--frames", str(plan["frames"]), "--fps", str(plan["fps"])] + scene_args(seq)
    out = os.path.join(args.work, seq["name"])
    last = f"frame_{plan['frames'] - 1:05d}.png"
    ref = os.path.join(out, dirs["reference"])
    devices = set()
    if not os.path.exists(os.path.join(ref, last)):
        devices.add(run(base + ["--mode", "native", "--supersample", str(plan["supersample"]), "--out", ref], args.timeout))
    for m in methods:
        d = os.path.join(out, dirs[m])
        extra = ["--temporal-model", args.temporal_model] if m == "ml-temporal" and args.temporal_model else []
        if not os.path.exists(os.path.join(d, last)):
            devices.add(run(base + METHODS[m] + extra + ["--render-scale", str(args.scale), "--out", d], args.timeout))
    return out, devices - {None}


def cut_frames(out):
    meta = os.path.join(out, "sequence.json")
    return json.load(open(meta)).get("cuts", []) if os.path.exists(meta) else []


def scoring_device(choice):
    """Where the frames are scored: None for numpy on the CPU, else a torch device. "auto" takes
    the GPU when PyTorch sees one (a 3840x2160 frame's SSIM takes seconds in numpy)."""
    if choice == "cpu":
        return None
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        return torch.device("cuda")
    if choice == "cuda":
        raise RuntimeError("--score-on cuda: " + ("PyTorch is not installed" if torch is None else "PyTorch sees no CUDA device"))
    return None


def load_frames(directory, frames, device):
    images = [load(os.path.join(directory, f"frame_{i:05d}.png")) for i in range(frames)]
    if device is None:
        return images
    import torch
    return [torch.from_numpy(i).to(device) for i in images]


def score_method(img, ref, frames, warmup, cuts, after_cut):
    steady = [i for i in range(warmup, frames) if i not in after_cut]
    per_frame = [metrics.psnr(img[i], ref[i]) for i in range(frames)]
    r = {"psnr": float(np.mean([per_frame[i] for i in steady])),
         "ssim": float(np.mean([metrics.ssim(img[i], ref[i]) for i in steady])),
         "flicker": float(np.mean([float(abs((img[i] - img[i - 1]) - (ref[i] - ref[i - 1])).mean()) * 255.0
                                   for i in steady if i - 1 not in after_cut or i - 1 >= warmup])),
         "psnr_per_frame": per_frame}
    if cuts:
        r["psnr_after_cut"] = float(np.mean([per_frame[i] for i in sorted(after_cut)]))
    return r


def score(out, methods, dirs, frames, warmup, cuts, device=None):
    """Each method's scores against the reference. They are kept beside its frames (score.json,
    keyed by what they depend on), so an evaluation cut off after rendering, or another report
    from the same frames, does not score them again."""
    after_cut = set()
    for c in cuts:
        after_cut.update(range(c, min(c + warmup, frames)))
    last = f"frame_{frames - 1:05d}.png"
    ref_dir = os.path.join(out, dirs["reference"])
    ref, result = None, {}
    for m in methods:
        d = os.path.join(out, dirs[m])
        key = {"reference": dirs["reference"], "frames": frames, "warmup": warmup, "cuts": sorted(cuts),
               "frames_mtime": os.path.getmtime(os.path.join(d, last)),
               "reference_mtime": os.path.getmtime(os.path.join(ref_dir, last))}
        cache = os.path.join(d, "score.json")
        if os.path.exists(cache):
            kept = json.load(open(cache))
            if kept.get("key") == key:
                result[m] = kept["scores"]
                continue
        if ref is None:
            ref = load_frames(ref_dir, frames, device)
        result[m] = score_method(load_frames(d, frames, device), ref, frames, warmup, cuts, after_cut)
        json.dump({"key": key, "scores": result[m]}, open(cache, "w"))
    return result


def evaluate_sequence(job):
    """Renders and scores one sequence (a process of its own under --jobs)."""
    args, plan, seq, methods, dirs = job
    from render_temporal import cut_frames as plan_cuts
    out, devices = render_sequence(args, plan, seq, methods, dirs)
    scores = score(out, methods, dirs, plan["frames"], args.warmup, plan_cuts(seq, plan["frames"], plan["fps"]),
                   scoring_device(args.score_on))
    return seq["name"], out, scores, devices


def crop_image(out, methods, dirs, frame, ref, path, size=96):
    """The size x size window of the reference with the most detail, every method beside it, 2x."""
    from PIL import Image
    y = metrics.luma(ref[frame])
    gy, gx = np.abs(np.diff(y, axis=0))[:, :-1], np.abs(np.diff(y, axis=1))[:-1, :]
    energy = gy + gx
    h, w = energy.shape
    best, at = -1.0, (0, 0)
    for y0 in range(0, max(1, h - size), size // 4):
        for x0 in range(0, max(1, w - size), size // 4):
            e = energy[y0:y0 + size, x0:x0 + size].sum()
            if e > best:
                best, at = e, (y0, x0)
    y0, x0 = at
    tiles = [load(os.path.join(out, dirs[m], f"frame_{frame:05d}.png"))[:, y0:y0 + size, x0:x0 + size] for m in methods]
    tiles.append(ref[frame][:, y0:y0 + size, x0:x0 + size])
    strip = np.concatenate([np.pad(t, ((0, 0), (0, 0), (0, 2)), constant_values=1.0) for t in tiles], axis=2)
    im = Image.fromarray((np.clip(strip.transpose(1, 2, 0), 0, 1) * 255 + 0.5).astype(np.uint8))
    im.resize((im.width * 2, im.height * 2), Image.NEAREST).save(path)


def write_report(args, plan, methods, scores, crops, seconds, devices):
    w, h = args.size
    rw, rh = round(w * args.scale), round(h * args.scale)
    names = list(scores)
    mean = {m: {k: float(np.mean([scores[s][m][k] for s in names])) for k in ("psnr", "ssim", "flicker")} for m in methods}
    base = mean["bicubic"]["psnr"] if "bicubic" in mean else None  # the column reads "n/a" without bicubic
    L = []
    other = args.scale != plan["render_scale"]
    size = f" at {w}x{h} output" if list(args.size) != list(plan["display"]) else ""
    L.append(f"# Quality of the upscalers{f' at {w / rw:.3g}x' if other else ''}{size}\n")
    L.append("Generated by `tools/train/evaluate_temporal.py`; do not edit by hand.\n")
    L.append(f"**Held-out content only**: {len(names)} sequences whose scenes and camera paths were never rendered for training "
             f"({', '.join(names)}). Each method renders the same camera at {rw}x{rh} and outputs {w}x{h} (TAAU and temporal ML "
             f"from jittered frames with the texture LOD bias log2({rw}/{w}), as the effect contract asks); the reference is "
             f"the average of {plan['supersample']} jittered renders at {w}x{h} per frame (`--mode native --supersample {plan['supersample']}`). "
             f"{plan['frames']} frames at {plan['fps']} fps per sequence; the first {args.warmup} frames (and the {args.warmup} after a camera cut) are warm-up. "
             "Scores on the 8-bit sRGB frames: PSNR over all pixels and channels; SSIM on luma (11x11 gaussian, sigma 1.5); "
             "flicker = mean |(output change) - (reference change)| between consecutive frames, in 8-bit units (lower is steadier).\n")
    L.append("| Method | PSNR (dB) | vs bicubic | SSIM | Flicker |")
    L.append("|---|---:|---:|---:|---:|")
    for m in methods:
        versus = "n/a" if base is None else f"{mean[m]['psnr'] - base:+.2f}"
        L.append(f"| {LABELS[m]} | {mean[m]['psnr']:.2f} | {versus} | {mean[m]['ssim']:.4f} | {mean[m]['flicker']:.3f} |")
    L.append("")
    if "taau" in mean and "bicubic" in mean:
        t, b = mean["taau"]["psnr"], base
        L.append("Targets:\n" if not other else
                 f"Targets (set for the plan's {1 / plan['render_scale']:.3g}x, shown here for reference):\n")
        L.append(f"- TAAU >= bicubic + 3 dB: {t - b:+.2f} dB, **{'met' if t - b >= 3 else 'missed'}**.")
        if "ml-temporal" in mean:
            ml = mean["ml-temporal"]["psnr"]
            L.append(f"- Temporal ML >= TAAU + 1.5 dB: {ml - t:+.2f} dB, **{'met' if ml - t >= 1.5 else 'missed'}**.")
            L.append(f"- Temporal ML >= bicubic + 5 dB: {ml - b:+.2f} dB, **{'met' if ml - b >= 5 else 'missed'}**.")
            fm, ft = mean["ml-temporal"]["flicker"], mean["taau"]["flicker"]
            L.append(f"- Temporal ML flicker <= TAAU's: {fm:.3f} vs {ft:.3f}, **{'met' if fm <= ft else 'missed'}**.")
        L.append("")
    L.append("Per sequence, PSNR (dB) / flicker:\n")
    L.append("| Sequence | " + " | ".join(LABELS[m] for m in methods) + " |")
    L.append("|---|" + "---:|" * len(methods))
    for s in names:
        L.append(f"| {s} | " + " | ".join(f"{scores[s][m]['psnr']:.2f} / {scores[s][m]['flicker']:.2f}" for m in methods) + " |")
    L.append("")
    cut = [s for s in names if "psnr_after_cut" in scores[s][methods[0]]]
    if cut:
        L.append("Camera cuts: PSNR (dB) of the frames right after each cut (history reset; no warm-up):\n")
        L.append("| Sequence | " + " | ".join(LABELS[m] for m in methods) + " |")
        L.append("|---|" + "---:|" * len(methods))
        for s in cut:
            L.append(f"| {s} | " + " | ".join(f"{scores[s][m]['psnr_after_cut']:.2f}" for m in methods) + " |")
        L.append("")
    if crops:
        L.append("Crops (2x zoom; left to right: " + ", ".join(LABELS[m] for m in methods) + ", reference):\n")
        for name, path in crops:
            L.append(f"![{name}]({os.path.relpath(path, os.path.dirname(args.report))})")
        L.append("")
    where = " and ".join(sorted(devices)) if devices else "this machine's Vulkan device (every frame was already rendered)"
    L.append(f"Evaluation took {seconds / 60:.1f} minutes (`{os.path.basename(args.demo)}` on {where}, {args.at_once} sequence(s) at once).\n")
    with open(args.report, "w") as f:
        f.write("\n".join(L))
    common.log(f"wrote {args.report}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("plan")
    ap.add_argument("--work", required=True)
    ap.add_argument("--methods", default="bilinear,bicubic,ml,taau,ml-temporal")
    ap.add_argument("--warmup", type=int, default=8)
    ap.add_argument("--report", default=os.path.join(common.ROOT, "docs", "quality", "temporal.md"))
    ap.add_argument("--crops", type=int, default=3, help="sequences to take crops of")
    ap.add_argument("--demo", default=common.DEMO)
    ap.add_argument("--render-scale", type=float, help="render scale of the methods (default: the plan's)")
    ap.add_argument("--display", help="output size WxH of every method and the reference (default: the plan's)")
    ap.add_argument("--temporal-model", help="the temporal network ml-temporal runs (default: the demo's, the shipped one)")
    ap.add_argument("--sequences", help="comma-separated names: score only these sequences of the plan")
    ap.add_argument("--jobs", type=int, default=1, help="sequences rendered and scored at once")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds one upscale_demo run may take")
    ap.add_argument("--score-on", choices=("auto", "cpu", "cuda"), default="auto",
                    help="numpy on the CPU, or PyTorch on the GPU (auto: the GPU when PyTorch sees one)")
    args = ap.parse_args()
    args.report = os.path.abspath(args.report)  # a bare file name: its crops go beside it
    plan = json.load(open(args.plan))
    methods = args.methods.split(",")
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise SystemExit(f"--methods: unknown {', '.join(unknown)} (known: {', '.join(METHODS)})")
    if args.temporal_model and not os.path.isfile(args.temporal_model):
        raise SystemExit(f"--temporal-model {args.temporal_model}: no such file")
    if args.render_scale is not None and not 0.1 <= args.render_scale <= 2.0:
        raise SystemExit(f"--render-scale {args.render_scale}: expected 0.1..2")
    args.scale = args.render_scale if args.render_scale is not None else plan["render_scale"]
    from render_temporal import parse_size
    args.size = parse_size(args.display, "--display") if args.display else tuple(plan["display"])
    dirs = method_dirs(args, plan, methods)
    # Crops of other settings must not overwrite the plan's (temporal_NAME.png).
    crop_tag = "".join(settings_tags(args, plan)).replace("@", "_s").replace("+", "_")
    sequences = plan["sequences"]
    if args.sequences:
        wanted = args.sequences.split(",")
        missing = [n for n in wanted if n not in {q["name"] for q in sequences}]
        if missing:
            raise SystemExit(f"--sequences: {', '.join(missing)} not in {args.plan}")
        sequences = [q for q in sequences if q["name"] in wanted]
    if args.jobs < 1:
        raise SystemExit(f"--jobs {args.jobs}: expected 1 or more")
    args.at_once = min(args.jobs, len(sequences))  # what the report says ran at once
    clock = common.Stopwatch()
    scores, crops = {}, []
    jobs = [(args, plan, seq, methods, dirs) for seq in sequences]
    if args.jobs == 1:
        results = map(evaluate_sequence, jobs)
    else:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap_unordered(evaluate_sequence, jobs)
    devices = set()
    try:
        for n, (name, out, seq_scores, seq_devices) in enumerate(results, 1):
            scores[name] = seq_scores
            devices |= seq_devices
            common.log(f"[{n}/{len(sequences)}] {name}: " +
                       "  ".join(f"{m} {seq_scores[m]['psnr']:.2f}" for m in methods) + f"  ({clock():.0f} s)")
    except RuntimeError as e:
        if args.jobs > 1:
            pool.terminate()
        raise SystemExit(f"evaluate_temporal.py: {e}")
    if args.jobs > 1:
        pool.close()
        pool.join()
    scores = {q["name"]: scores[q["name"]] for q in sequences}  # plan order, whichever finished first
    for q in sequences[:args.crops]:
        out, last = os.path.join(args.work, q["name"]), plan["frames"] - 1
        ref = {last: load(os.path.join(out, dirs["reference"], f"frame_{last:05d}.png"))}
        path = os.path.join(os.path.dirname(args.report), f"temporal_{q['name']}{crop_tag}.png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        crop_image(out, methods, dirs, last, ref, path)
        crops.append((q["name"], path))
    json.dump(scores, open(os.path.join(args.work, "scores" + "".join(settings_tags(args, plan)) + ".json"), "w"), indent=1)
    write_report(args, plan, methods, scores, crops, clock(), devices)


if __name__ == "__main__":
    main()
