#!/usr/bin/python3
"""Exports the temporal upscaler's network (.npz from train_temporal.py) to ONNX in the effect's
contract: input 'features' [1, 64, h, w] -> output 'params' [1, 32, h, w], h and w free (half the
display size rounded up to 4; docs/EFFECTS.md). Then checks it: runs upscale_demo --mode
ml-temporal on a short sequence and the PyTorch mirror (temporal.py) on the very inputs the demo
dumped, and fails unless the two agree (mean absolute difference of the 8-bit frames).

    export_temporal.py [--weights assets/upscaler_temporal.npz] [--out assets/upscaler_temporal.onnx] [--no-check | --check-only]

--check-only checks an ONNX file already written (the shipped one, in the ctest
trained_upscaler_temporal_matches_pytorch) against the weights, without exporting.

The largest render / display ratio the network was trained at (the .npz meta's
"ratio_feature_max") goes into the model's metadata as "vkml.ratio_feature_max": the effect
clamps the ratio feature to it (docs/EFFECTS.md). The check runs at 1x too, where the clamp bites,
and fails if the file's value differs from the weights', and at an odd display size (150x95 at
1.25x), which the effect and the mirror pad up to a multiple of 4 r. A network trained for the accumulating
resolve (temporal.resolve) carries its cap as "vkml.history_weight_cap" in the same way, and one
trained with the 5-tap history fetch (train_temporal.py --history-taps 5) "vkml.history_taps" 5,
and one whose moving pixels keep a smaller history (--moving-history-weight) "vkml.moving_history_weight".
"""
import argparse
import inspect
import math
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


RATIO_FEATURE_MAX_KEY = "vkml.ratio_feature_max"
HISTORY_WEIGHT_CAP_KEY = "vkml.history_weight_cap"
HISTORY_TAPS_KEY = "vkml.history_taps"
MOVING_HISTORY_WEIGHT_KEY = "vkml.moving_history_weight"
METADATA_PROPS = 14  # ModelProto field number


def _varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _read_varint(data, i):
    v, shift = 0, 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError("truncated varint")
        b = data[i]
        v |= (b & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if b < 0x80:
            return v, i


def _fields(data):
    """(field number, value) of a serialized protobuf message's length-delimited fields (others skipped)."""
    i = 0
    while i < len(data):
        tag, i = _read_varint(data, i)
        wire = tag & 7
        if wire == 0:
            _, i = _read_varint(data, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            n, i = _read_varint(data, i)
            if i + n > len(data):
                raise ValueError("truncated field")
            yield tag >> 3, data[i:i + n]
            i += n
        else:
            raise ValueError(f"wire type {wire}")


def read_metadata(path):
    """The metadata_props of the ONNX file at `path` (a protobuf read of ModelProto, no onnx package)."""
    with open(path, "rb") as f:
        data = f.read()
    out = {}
    for field, entry in _fields(data):
        if field == METADATA_PROPS:
            kv = dict(_fields(entry))
            out[kv.get(1, b"").decode()] = kv.get(2, b"").decode()
    return out


def append_metadata(path, entries):
    """Adds metadata_props entries to the ONNX file at `path`: a field appended to a serialized
    message is merged by every protobuf parser (torch.onnx.export has no metadata argument)."""
    blob = bytearray()
    for key, value in entries.items():
        entry = b"".join(_varint(n << 3 | 2) + _varint(len(t)) + t for n, t in ((1, key.encode()), (2, value.encode())))
        blob += _varint(METADATA_PROPS << 3 | 2) + _varint(len(entry)) + entry
    with open(path, "ab") as f:
        f.write(blob)


def export(net, path):
    net = net.eval()
    r = net.unshuffle
    dummy = torch.rand(1, r * r * temporal.ML_FEATURES, 12, 20)
    # PyTorch 2.9 and later default to the dynamo exporter, which writes opset 18 or later (past the
    # importer's 6-17); the TorchScript exporter keeps opset 13.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(net, dummy, path, input_names=["features"], output_names=["params"], opset_version=13,
                      dynamic_axes={"features": {2: "h", 3: "w"}, "params": {2: "h", 3: "w"}}, **legacy)
    entries = {key: f"{value:.9g}" for key, value in metadata_values(net).items() if math.isfinite(value)}
    if entries:
        append_metadata(path, entries)


def metadata_values(net):
    """The model metadata the effect reads, from the weights (infinity: the key is left out). The
    9-tap history fetch, the effect's default, is left out too: models exported before the key
    existed keep their bytes."""
    return {RATIO_FEATURE_MAX_KEY: net.ratio_feature_max, HISTORY_WEIGHT_CAP_KEY: net.history_weight_cap,
            HISTORY_TAPS_KEY: float(net.history_taps) if net.history_taps != 9 else math.inf,
            MOVING_HISTORY_WEIGHT_KEY: net.moving_history_weight}


def check_metadata(net, path):
    """The file's metadata values must be the weights' (both absent, or equal as float32)."""
    written_all = read_metadata(path)
    for key, value in metadata_values(net).items():
        written = written_all.get(key)
        want = None if not math.isfinite(value) else f"{value:.9g}"
        if (written is None) != (want is None) or (want is not None and np.float32(written) != np.float32(want)):
            raise SystemExit(f"{path}: metadata '{key}' is {written!r}, the weights say {want!r}; export it again")


def render(model_path, demo, out, scale=0.5, width=160, height=96, frames=10, path="orbit", precision="auto"):
    """upscale_demo's ml-temporal run with this model into `out`: its inputs (colour, depth,
    motion) and its output frames. precision: the demo's --ml-precision (auto, fp16 or fp32)."""
    cmd = [demo, "--headless", "--width", str(width), "--height", str(height), "--frames", str(frames), "--path", path,
           "--mode", "ml-temporal", "--temporal-model", model_path, "--render-scale", str(scale), "--channels", "color,depth,motion",
           "--ml-precision", precision, "--out", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def mirror_frames(net, out, width=160, height=96, frames=10):
    """The PyTorch mirror's output frames (H x W x 3, sRGB 0..1) on the inputs render() dumped."""
    up = temporal.TemporalUpscaler(net.eval(), (height, width))
    phases = temporal.phase_count(common.load_channel(out, "color", 0).shape[-1], width)
    mine = []
    with torch.no_grad():
        for i in range(frames):
            c = torch.from_numpy(common.load_channel(out, "color", i))[None]
            d = torch.from_numpy(common.load_channel(out, "depth", i))[None]
            m = torch.from_numpy(common.load_channel(out, "motion", i))[None]
            j = torch.tensor([temporal.halton_jitter(i, phases)], dtype=torch.float32)
            mine.append(up.step(c, d, m, j, reset=(i == 0))[0].numpy().transpose(1, 2, 0))
    return mine


def engine_frames(out, frames=10):
    """The engine's output frames render() wrote (H x W x 3, 0..1)."""
    return [load_png(os.path.join(out, f"frame_{i:05d}.png")).astype(np.float32) / 255.0 for i in range(frames)]


def check(net, model_path, demo, scale=0.5, width=160, height=96, frames=10, path="orbit"):
    """PyTorch mirror vs the engine on the same rendered inputs at render scale `scale`; returns the
    mean abs diff (0..255) per frame."""
    with tempfile.TemporaryDirectory() as out:
        render(model_path, demo, out, scale, width, height, frames, path)
        mine = mirror_frames(net, out, width, height, frames)
        return [float(np.abs(a - b).mean() * 255.0) for a, b in zip(mine, engine_frames(out, frames))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", default=os.path.join(common.ASSETS, "upscaler_temporal.npz"))
    ap.add_argument("--out", default=os.path.join(common.ASSETS, "upscaler_temporal.onnx"))
    ap.add_argument("--demo", default=common.DEMO)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--no-check", action="store_true", help="export only")
    mode.add_argument("--check-only", action="store_true", help="check the ONNX file at --out, do not export")
    ap.add_argument("--tolerance", type=float, default=1.5, help="largest mean abs difference per frame, 8-bit units")
    ap.add_argument("--render-scales", default="0.5,0.6666667,0.3333333,1", help="render scales the check runs at (2x, 1.5x, 3x and 1x)")
    ap.add_argument("--odd-size", default="150x95", help="a display size that is not a multiple of 4 r, checked at render scale 0.8 "
                    "(the mirror pads it as the effect does); empty: none")
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
    check_metadata(net, args.out)
    worst = 0.0
    for scale in (float(v) for v in args.render_scales.split(",") if v):
        diffs = check(net, args.out, args.demo, scale)
        common.log(f"render scale {scale:.4g}: PyTorch mirror vs engine, mean |difference| per frame (8-bit units): " +
                   " ".join(f"{d:.2f}" for d in diffs))
        worst = max(worst, max(diffs))
    if args.odd_size:
        width, height = (int(v) for v in args.odd_size.split("x"))
        diffs = check(net, args.out, args.demo, 0.8, width, height)
        common.log(f"render scale 0.8 at {width}x{height}: PyTorch mirror vs engine, mean |difference| per frame (8-bit units): " +
                   " ".join(f"{d:.2f}" for d in diffs))
        worst = max(worst, max(diffs))
    if worst > args.tolerance:
        raise SystemExit(f"the engine and the PyTorch mirror disagree (worst frame {worst:.2f} > {args.tolerance})")


if __name__ == "__main__":
    main()
