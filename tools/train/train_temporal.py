#!/usr/bin/python3
"""Trains the temporal ML upscaler (tools/train/temporal.py) on sequences the engine rendered
(tools/train/render_temporal.py): jittered render-resolution colour, depth and motion, and the
16-sample supersampled reference at the display resolution. Training unrolls the effect's exact
computation over several frames, so that what the history carries and how stable the output is
are learned, not assumed.

    train_temporal.py --data DIR [--steps N] [--frames T] [--detach-every K] [--crop C] [--batch B]
                      [--init weights.npz] [--out assets/upscaler_temporal.npz]

DIR holds one sub-directory per sequence, each with input/ (color_, depth_, motion_NNNNN.npy) and
reference/ (frame_NNNNN.png); tools/train/render_temporal.py writes them. Progress (step, loss,
PSNR of the last batch, seconds per step, time left) is printed every --log-every steps.
"""
import argparse
import glob
import json
import math
import os
import random
import sys
import time
from fractions import Fraction

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import temporal  # noqa: E402


def load_png(path):
    from PIL import Image
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.uint8)


class Sequence:
    """One rendered sequence in memory (fp16 inputs, uint8 reference)."""

    def __init__(self, directory):
        self.name = os.path.basename(os.path.normpath(directory))
        inp, ref = os.path.join(directory, "input"), os.path.join(directory, "reference")
        n = common.frame_count(inp)
        # The reference: the supersampled float means when present (exact), else the 8-bit frames.
        compact = os.path.join(ref, common.REFERENCE_U8)
        floats = os.path.exists(compact) or common.frame_count(ref, "output") >= n > 0
        frames = sorted(glob.glob(os.path.join(ref, "frame_*.png")))
        if n == 0 or (not floats and len(frames) < n):
            raise SystemExit(f"{directory}: {n} input frames and {len(frames)} reference frames; render it again")
        self.color = np.stack([common.load_channel(inp, "color", i) for i in range(n)]).astype(np.float16)
        self.depth = np.stack([common.load_channel(inp, "depth", i) for i in range(n)]).astype(np.float32)
        self.motion = np.stack([common.load_channel(inp, "motion", i) for i in range(n)]).astype(np.float16)
        if floats:
            self.reference = np.load(compact)[:n] if os.path.exists(compact) else common.reference_u8(ref, n)
        else:
            self.reference = np.stack([load_png(frames[i]).transpose(2, 0, 1) for i in range(n)])
        self.frames = n
        h, w = self.color.shape[-2:]
        H, W = self.reference.shape[-2:]
        phases = temporal.phase_count(w, W)
        self.jitter = np.array([temporal.halton_jitter(i, phases) for i in range(n)], dtype=np.float32)
        meta = os.path.join(directory, "sequence.json")
        self.cuts = set(json.load(open(meta)).get("cuts", [])) if os.path.exists(meta) else set()

    def to(self, device):
        """Moves the frames to `device` as tensors (same dtypes): batches are then cut there, with
        no host-to-device copy per step. The whole training set fits a GPU easily (~0.6 MB/frame)."""
        for name in ("color", "depth", "motion", "reference"):
            setattr(self, name, torch.from_numpy(getattr(self, name)).to(device))
        return self

    def ratio(self):
        """(display / render) per axis as exact fractions: sequences of one ratio share a batch."""
        H, W = self.reference.shape[-2:]
        h, w = self.color.shape[-2:]
        return Fraction(H, h), Fraction(W, w)

    def sample(self, rng, frames, crop):
        """A random run of `frames` frames and a random crop. The crop's display offset and size are
        multiples of the smallest display span that covers whole render pixels (2 at 2x, 3 at 1.5x
        and 3x), of 8 (offsets) and of 16 (sizes: whole unshuffle blocks for r <= 4), so that the
        render crop is exactly the display crop times the ratio."""
        start = rng.randrange(0, self.frames - frames + 1)
        H, W = self.reference.shape[-2:]
        h, w = self.color.shape[-2:]
        (ry, rx) = self.ratio()
        uy, ux = ry.numerator, rx.numerator  # display pixels per whole run of render pixels
        sy, sx = math.lcm(16, uy), math.lcm(16, ux)
        if sy > H or sx > W:
            raise SystemExit(f"{self.name}: render size {w}x{h} for display {W}x{H} leaves no crop of whole render pixels "
                             f"(a {sx}x{sy} display block is the smallest); render it at a display size the scale divides exactly")
        ch, cw = (min(crop, H), min(crop, W)) if crop else (H, W)
        ch, cw = max(ch // sy * sy, sy), max(cw // sx * sx, sx)
        oy, ox = math.lcm(8, uy), math.lcm(8, ux)
        y0 = rng.randrange(0, (H - ch) // oy + 1) * oy
        x0 = rng.randrange(0, (W - cw) // ox + 1) * ox
        t = slice(start, start + frames)
        r = (slice(None), slice(int(y0 / ry), int((y0 + ch) / ry)), slice(int(x0 / rx), int((x0 + cw) / rx)))
        d = (slice(None), slice(y0, y0 + ch), slice(x0, x0 + cw))
        return (self.color[t][(slice(None),) + r], self.depth[t][(slice(None),) + r], self.motion[t][(slice(None),) + r],
                self.jitter[t], self.reference[t][(slice(None),) + d], [start + k in self.cuts for k in range(frames)])


def batch(sequences, rng, size, frames, crop, device):
    """`size` random samples stacked as [T, N, ...] float32 tensors on `device` (the sequences'
    frames may already live there: Sequence.to). A batch takes one upscale ratio: a sequence is drawn
    first, then the rest from the sequences of its ratio (so each ratio gets batches in proportion
    to its sequences)."""
    first = rng.choice(sequences)
    same = [s for s in sequences if s.ratio() == first.ratio()]
    items = [first.sample(rng, frames, crop)] + [rng.choice(same).sample(rng, frames, crop) for _ in range(size - 1)]
    # Every item of a batch needs one shape: crop all to the smallest.
    hh = min(i[4].shape[-2] for i in items)
    ww = min(i[4].shape[-1] for i in items)
    out = []
    for k in range(5):
        arrs = []
        for it in items:
            a = it[k]
            if k < 3:
                a = a[..., : hh * a.shape[-2] // it[4].shape[-2], : ww * a.shape[-1] // it[4].shape[-1]]  # exact: one ratio
            elif k == 4:
                a = a[..., :hh, :ww]
            a = a if torch.is_tensor(a) else torch.from_numpy(np.ascontiguousarray(a))
            arrs.append(a.to(device).float())
        out.append(torch.stack(arrs, 1))  # [T, N, ...]
    out[4] = out[4] / 255.0
    cuts = [any(it[5][t] for it in items) for t in range(frames)]
    return out, cuts


def charbonnier(a, b):
    return torch.sqrt((a - b) ** 2 + 1e-6).mean()


def mse(a, b):
    return ((a - b) ** 2).mean()


# --loss: the distance every term of the loss uses. Charbonnier (a smooth L1) is robust early on;
# the mean squared error is what PSNR scores, for fine-tuning a trained network to the metric.
DISTANCES = {"charbonnier": charbonnier, "mse": mse}


def unroll(net, data, cuts, loss_from, temporal_weight, detach_every=0, teacher=None, distill_weight=0.0,
           distance=charbonnier):
    """Runs the effect over the batch's frames and back-propagates the loss (mean over the frames
    from `loss_from` on). detach_every > 0 truncates back-propagation through time: every that many
    frames the loss so far is back-propagated and the history detached, so a long unroll (the
    many-frame accumulation of nearly static content) costs the memory of a short one. With a
    teacher network, every counted frame also pays distill_weight times the distance to what the
    teacher makes of the same features and history (the student's own unroll, so the student
    learns the teacher's decisions in the states it reaches itself). Every term measures with
    `distance` (DISTANCES). Returns
    (loss, PSNR of the counted frames) as numbers; gradients are left in the parameters."""
    color, depth, motion, jitter, ref = data
    T = color.shape[0]
    counted = max(T - loss_from, 1)
    up = temporal.TemporalUpscaler(net, ref.shape[-2:], teacher if distill_weight > 0 else None)
    loss, total, prev_out, squared_error = 0.0, 0.0, None, 0.0  # stays on the device: no sync per frame
    for t in range(T):
        out = up.step(color[t], depth[t], motion[t], jitter[t], reset=(t == 0 or cuts[t]))
        if t >= loss_from:
            loss = loss + distance(out, ref[t]) / counted
            if up.teacher_output is not None:
                loss = loss + distill_weight * distance(out, up.teacher_output) / counted
            if prev_out is not None and not cuts[t]:
                loss = loss + temporal_weight * distance(out - prev_out, ref[t] - ref[t - 1]) / counted
            squared_error = squared_error + mse(out.detach(), ref[t])
        prev_out = out
        chunk_end = t == T - 1 or (detach_every > 0 and (t + 1) % detach_every == 0)
        if chunk_end and torch.is_tensor(loss):
            loss.backward()
            total, loss = total + float(loss), 0.0
        if chunk_end:
            up.detach()
            prev_out = prev_out.detach()
    return total, 10 * math.log10(1.0 / max(float(squared_error) / counted, 1e-10))


def save_npz(net, path, meta):
    arrays = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez(path, **arrays)


def load_sequences(dirs, device):
    """Sequence(d).to(device) for every directory, read by a pool of threads (numpy's file reads
    and conversions release the GIL; larger display sizes made the serial load minutes long). Each
    sequence moves to the device as soon as it is read, so host memory holds a pool's worth of
    sequences, not the whole set once per training process."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=min(16, os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda d: Sequence(d).to(device), dirs))


def load_net(path):
    data = np.load(path)
    meta = json.loads(bytes(data["meta"]).decode())
    net = temporal.TemporalNet(meta["width"], meta["depth"], meta.get("unshuffle", 2), meta.get("first_kernel", 3))
    net.load_state_dict({k: torch.from_numpy(data[k]) for k in data.files if k != "meta"})
    net.ratio_feature_max = float(meta.get("ratio_feature_max", math.inf))
    cap = meta.get("history_weight_cap")
    net.history_weight_cap = math.inf if cap is None else float(cap)
    net.history_taps = int(meta.get("history_taps", 9))
    moving = meta.get("moving_history_weight")
    net.moving_history_weight = math.inf if moving is None else float(moving)
    return net, meta


def resolve_name(cap, moving=math.inf):
    if not math.isfinite(cap):
        return "blend resolve"
    return f"accumulating resolve (history weight cap {cap:g}" + (f", moving pixels {moving:g})" if math.isfinite(moving) else ")")


def start_accumulating(net, cap):
    """Switches a network to the accumulating resolve (temporal.resolve) with this weight cap. A
    network trained for the blend resolve keeps p0 (its blend factor becomes the history's
    distrust: trust = 1 - alpha) and starts with gain 1: p7, which the blend resolve never read,
    is zeroed."""
    if not (math.isfinite(cap) and cap > 0):
        raise SystemExit(f"--history-weight-cap must be a positive number, got {cap:g}")
    if not math.isfinite(net.history_weight_cap):
        last, r2 = net.body[-1], net.unshuffle * net.unshuffle
        with torch.no_grad():
            last.weight[7 * r2:8 * r2].zero_()
            last.bias[7 * r2:8 * r2].zero_()
    net.history_weight_cap = cap


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, nargs="+", help="directories of rendered sequences")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=8, help="frames unrolled per sample")
    ap.add_argument("--detach-every", type=int, default=0,
                    help="truncated back-propagation through time: detach the history every N frames (0: never)")
    ap.add_argument("--loss-from", type=int, default=2, help="first unrolled frame that counts in the loss")
    ap.add_argument("--crop", type=int, default=96, help="display-resolution crop (0: whole frames)")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--unshuffle", type=int, default=4, choices=[1, 2, 4], help="the network runs at 1/r of the display resolution")
    ap.add_argument("--first-kernel", type=int, default=1, choices=[1, 3], help="size of the first convolution")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--temporal-weight", type=float, default=0.5)
    ap.add_argument("--loss", choices=sorted(DISTANCES), default="charbonnier",
                    help="the distance of every loss term: charbonnier (a smooth L1), or mse (what PSNR scores)")
    ap.add_argument("--log-every", type=int, default=25)
    ap.add_argument("--init", help="start from these weights (.npz)")
    ap.add_argument("--teacher", help="distil from this trained network (.npz): see --distill-weight")
    ap.add_argument("--distill-weight", type=float, default=1.0,
                    help="with --teacher: weight of the distance to the teacher's output on the same features and history")
    ap.add_argument("--history-weight-cap", type=float,
                    help="train the accumulating resolve with this cap of the history's sample weight (temporal.resolve; "
                         "default: the --init network's resolve, else the blend resolve)")
    ap.add_argument("--history-taps", type=int, choices=[9, 5],
                    help="the feature pass's Catmull-Rom history fetch: 9 taps or 5 (the corners dropped; "
                         "default: the --init network's, else 9)")
    ap.add_argument("--moving-history-weight", type=float,
                    help="accumulating resolve: the most sample weight a moving pixel's history keeps (temporal.features; "
                         "the TAAU resolve keeps 0.5; default: the --init network's, else no such cap)")
    ap.add_argument("--max-minutes", type=float, default=0, help="stop (and save) after this long, whatever --steps says")
    ap.add_argument("--save-every", type=int, default=0,
                    help="also write the weights to --out every N steps (0: only at the end), so that a run cut off "
                         "(a device machine taken back) leaves a network to continue with --init")
    ap.add_argument("--out", default=os.path.join(common.ASSETS, "upscaler_temporal.npz"))
    args = ap.parse_args()
    if args.history_weight_cap is not None and not (math.isfinite(args.history_weight_cap) and args.history_weight_cap > 0):
        raise SystemExit(f"--history-weight-cap must be a positive number, got {args.history_weight_cap:g}")
    if args.moving_history_weight is not None and not (math.isfinite(args.moving_history_weight) and args.moving_history_weight > 0):
        raise SystemExit(f"--moving-history-weight must be a positive number, got {args.moving_history_weight:g}")

    common.seed_everything()
    torch.set_num_threads(common.torch_threads())
    device = common.torch_device()
    dirs = [d for pattern in args.data for d in sorted(glob.glob(os.path.join(pattern, "*"))) if os.path.isdir(os.path.join(d, "input"))]
    if not dirs:
        raise SystemExit("no sequences (DIR/*/input) under " + " ".join(args.data))
    if args.save_every < 0:
        raise SystemExit(f"--save-every must be >= 0, got {args.save_every}")
    common.log(f"loading {len(dirs)} sequences")
    sequences = load_sequences(dirs, device)
    common.log(f"{sum(s.frames for s in sequences)} frames; training on {device} for {args.steps} steps "
               f"(batch {args.batch}, {args.frames} frames unrolled, crop {args.crop}, {args.loss} loss)")
    net = temporal.TemporalNet(args.width, args.depth, args.unshuffle, args.first_kernel).to(device)
    # The largest render / display width ratio trained at (of this data and of the --init
    # network's): inference clamps the ratio feature to it (TemporalNet.ratio_feature_max).
    ratio_feature_max = max(float(1 / s.ratio()[1]) for s in sequences)
    if args.init:
        init, init_meta = load_net(args.init)
        given = {"width": args.width, "depth": args.depth, "unshuffle": args.unshuffle, "first_kernel": args.first_kernel}
        stored = {"width": init_meta["width"], "depth": init_meta["depth"], "unshuffle": init.unshuffle, "first_kernel": init_meta.get("first_kernel", 3)}
        if given != stored:
            raise SystemExit(f"--init {args.init} is a network of shape {stored}, the arguments ask for {given}: "
                             "pass its --width, --depth, --unshuffle and --first-kernel")
        net.load_state_dict(init.state_dict())
        if math.isfinite(init.ratio_feature_max):
            ratio_feature_max = max(ratio_feature_max, init.ratio_feature_max)
        net.history_weight_cap = init.history_weight_cap
        net.history_taps = init.history_taps
        net.moving_history_weight = init.moving_history_weight
    if args.history_taps is not None:
        net.history_taps = args.history_taps
    if args.history_weight_cap is not None:
        start_accumulating(net, args.history_weight_cap)
    if args.moving_history_weight is not None:
        if not math.isfinite(net.history_weight_cap):
            raise SystemExit("--moving-history-weight needs the accumulating resolve: pass --history-weight-cap too, "
                             "or --init a network that has one")
        if not (math.isfinite(args.moving_history_weight) and 0 < args.moving_history_weight <= net.history_weight_cap):
            raise SystemExit(f"--moving-history-weight must be a positive number no larger than the history weight cap "
                             f"{net.history_weight_cap:g}, got {args.moving_history_weight:g}")
        net.moving_history_weight = args.moving_history_weight
    if math.isfinite(net.history_weight_cap):
        moving = f", moving pixels {net.moving_history_weight:g}" if math.isfinite(net.moving_history_weight) else ""
        common.log(f"accumulating resolve, history weight cap {net.history_weight_cap:g}{moving}")
    teacher = None
    if args.teacher:
        if args.distill_weight < 0:
            raise SystemExit(f"--distill-weight must be >= 0, got {args.distill_weight}")
        teacher = load_net(args.teacher)[0].to(device).eval()
        if (teacher.history_weight_cap, teacher.moving_history_weight) != (net.history_weight_cap, net.moving_history_weight):
            # The history's fourth channel (feature 14) is the accumulated weight under one resolve
            # and a learned state under the other: the teacher would misread the student's history.
            raise SystemExit(f"--teacher {args.teacher} uses the {resolve_name(teacher.history_weight_cap, teacher.moving_history_weight)}, the network "
                             f"trains the {resolve_name(net.history_weight_cap, net.moving_history_weight)}: distillation needs "
                             "both on one resolve (--history-weight-cap, --moving-history-weight)")
        for p in teacher.parameters():
            p.requires_grad_(False)
        common.log(f"distilling from {args.teacher} (weight {args.distill_weight})")
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    warmup = max(1, args.steps // 20)
    budget = args.max_minutes * 60.0 if args.max_minutes > 0 else float("inf")

    def progress(step):
        """0..1: the larger of the step fraction and the time-budget fraction."""
        return min(1.0, max(step / args.steps, (time.time() - start) / budget))
    def meta(steps):
        return {"width": args.width, "depth": args.depth, "unshuffle": args.unshuffle, "first_kernel": args.first_kernel, "steps": steps, "frames": args.frames, "detach_every": args.detach_every, "crop": args.crop,
                "sequences": [s.name for s in sequences], "seconds": round(time.time() - start, 1),
                "ratio_feature_max": ratio_feature_max,
                "history_weight_cap": net.history_weight_cap if math.isfinite(net.history_weight_cap) else None,
                "history_taps": net.history_taps,
                "moving_history_weight": net.moving_history_weight if math.isfinite(net.moving_history_weight) else None,
                "teacher": os.path.basename(args.teacher) if args.teacher else None, "distill_weight": args.distill_weight if args.teacher else 0.0,
                "loss": args.loss, "temporal_weight": args.temporal_weight}
    rng = random.Random(common.SEED)
    start = time.time()
    for step in range(1, args.steps + 1):
        for group in opt.param_groups:  # linear warm-up, cosine decay over steps or time
            group["lr"] = args.lr * min(1.0, step / warmup) * 0.5 * (1.0 + math.cos(math.pi * progress(step - 1)))
        data, cuts = batch(sequences, rng, args.batch, args.frames, args.crop, device)
        opt.zero_grad()
        loss, psnr = unroll(net, data, cuts, args.loss_from, args.temporal_weight, args.detach_every, teacher, args.distill_weight,
                            DISTANCES[args.loss])
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        out_of_time = progress(step) >= 1.0 and step < args.steps
        if step % args.log_every == 0 or step == args.steps or out_of_time:
            per = (time.time() - start) / step
            common.log(f"step {step}/{args.steps}  loss {loss:.4f}  psnr {psnr:.2f} dB  {per:.2f} s/step  "
                       f"{per * (args.steps - step) / 60:.1f} min left")
        if out_of_time:
            common.log(f"--max-minutes {args.max_minutes} reached: stopping at step {step} of {args.steps}")
            args.steps = step
            break
        if args.save_every > 0 and step % args.save_every == 0:
            # Replaced whole (never a half-written file where a reader globs for networks).
            partial = args.out + ".partial.npz"
            save_npz(net, partial, meta(step))
            os.replace(partial, args.out)
            common.log(f"checkpoint of step {step} in {args.out}")
    save_npz(net.cpu(), args.out, meta(args.steps))
    common.log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
