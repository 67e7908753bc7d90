#!/usr/bin/env bash
# The shipped temporal upscalers (assets/upscaler_temporal.onnx, and the performance model
# upscaler_temporal_fast.onnx) in the engine against the PyTorch
# mirror of the effect's shaders (tools/train/temporal.py) with the same weights
# (assets/upscaler_temporal.npz), on frames the demo renders at 2x, 1.5x and 3x: a shader change the
# mirror does not follow, or an ONNX file that does not match its weights, fails here. The two agree
# to 0.24-0.28 of an 8-bit level per frame (the rounding of the PNG frames); a kernel falloff of 3
# instead of 4 in the mirror alone reads 0.45-0.85, so the bound is 0.4.
# Then the same weights switched to the other resolve and checked at 2x, so that the resolve the
# shipped network does not use must match too: a blend network (no "vkml.history_weight_cap") is
# switched to the accumulating resolve with a cap of 4, an accumulating one to the blend resolve
# (the metadata key left out). Untrained for it, which does not matter for agreement: 0.25 per frame,
# while the mirror's blend resolve against the engine's accumulating one reads 2.8 to 7.5 from the
# second frame on.
# Last, the same weights with the 5-tap history fetch ("vkml.history_taps" 5): the agreement at 2x
# as above, and then which fetch the engine ran, since the two differ too little for the mean to
# tell (a 9-tap engine against the 5-tap mirror reads 0.25-0.35 per frame): on the pixels where the
# 5-tap and 9-tap mirrors differ by more than 2 levels (about 100 over ten frames), the engine's
# frame must be nearer the 5-tap one on at least 90% (it is on all; an engine that ignores the
# key is on 1%).
# And the same weights with a moving pixels' history cap ("vkml.moving_history_weight" 0.5): the
# agreement at 2x, and that the engine's frames follow the capped mirror rather than the uncapped
# one where the two differ (an engine that ignores the key reads 3.2 per frame against the capped
# mirror); then the cap with the 5-tap fetch, the agreement alone.
# Usage: temporal_mirror_test.sh UPSCALE_DEMO PROJECT_SOURCE_DIR
set -euo pipefail
demo=$1 root=$2
source "$(dirname "$0")/../support/script_test.sh"
require_python torch PIL numpy
"$py" "$root/tools/train/export_temporal.py" --check-only --weights "$root/assets/upscaler_temporal.npz" \
  --out "$root/assets/upscaler_temporal.onnx" --demo "$demo" --tolerance 0.4
# The performance model (assets/upscaler_temporal_fast.*, the 5-tap history fetch) the same way.
"$py" "$root/tools/train/export_temporal.py" --check-only --weights "$root/assets/upscaler_temporal_fast.npz" \
  --out "$root/assets/upscaler_temporal_fast.onnx" --demo "$demo" --tolerance 0.4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" - "$root" "$work/other_resolve.npz" <<'PY'
import math, sys
sys.path.insert(0, sys.argv[1] + "/tools/train")
import common, train_temporal
net, meta = train_temporal.load_net(common.ASSETS + "/upscaler_temporal.npz")
if math.isfinite(net.history_weight_cap):
    net.history_weight_cap = net.moving_history_weight = math.inf  # the moving cap belongs to the accumulating resolve
    meta = dict(meta, moving_history_weight=None)
    print("shipped network: accumulating resolve; checking the blend resolve")
else:
    train_temporal.start_accumulating(net, 4.0)
    print("shipped network: blend resolve; checking the accumulating resolve (cap 4)")
cap = net.history_weight_cap
train_temporal.save_npz(net, sys.argv[2], dict(meta, history_weight_cap=cap if math.isfinite(cap) else None))
PY
"$py" "$root/tools/train/export_temporal.py" --weights "$work/other_resolve.npz" --out "$work/other_resolve.onnx" \
  --demo "$demo" --tolerance 0.4 --render-scales 0.5
"$py" - "$root" "$work" "$demo" <<'PY'
import sys, tempfile
sys.path.insert(0, sys.argv[1] + "/tools/train")
import numpy as np
import common, export_temporal, train_temporal
work, demo = sys.argv[2], sys.argv[3]


def variant(name, key, expected, **attrs):
    """The shipped quality network with `attrs` set, exported; the metadata `key` must read `expected`."""
    net, meta = train_temporal.load_net(common.ASSETS + "/upscaler_temporal.npz")
    for attr, value in attrs.items():
        setattr(net, attr, value)
    train_temporal.save_npz(net, f"{work}/{name}.npz", dict(meta, **attrs))
    net = train_temporal.load_net(f"{work}/{name}.npz")[0]
    export_temporal.export(net, f"{work}/{name}.onnx")
    written = export_temporal.read_metadata(f"{work}/{name}.onnx").get(key)
    if written != expected:
        raise SystemExit(f"{name}.onnx: metadata '{key}' is {written!r}, expected {expected!r}")
    return net


def check_agreement(net, name, what):
    worst = max(export_temporal.check(net, f"{work}/{name}.onnx", demo, 0.5))
    print(f"{what}: PyTorch mirror vs engine, worst frame {worst:.2f}")
    if worst > 0.4:
        raise SystemExit(f"{what}: the engine and the PyTorch mirror disagree (worst frame {worst:.2f} > 0.4)")


def check_engine_ran(net, name, what, attr, named, other):
    """Which of two mirrors (net.attr = named, as the metadata says, or = other) the engine's frames
    follow, on the values where the two differ by more than 2 levels."""
    for precision in ("fp16", "fp32"):  # the feature pass is built once per tensor type
        with tempfile.TemporaryDirectory() as out:
            export_temporal.render(f"{work}/{name}.onnx", demo, out, precision=precision)
            engine = export_temporal.engine_frames(out)
            setattr(net, attr, named)
            mine = export_temporal.mirror_frames(net, out)
            setattr(net, attr, other)
            theirs = export_temporal.mirror_frames(net, out)
            setattr(net, attr, named)
        differs = np.concatenate([(np.abs(a - b) > 2 / 255).ravel() for a, b in zip(mine, theirs)])
        nearer = np.concatenate([(np.abs(e - a) < np.abs(e - b)).ravel() for e, a, b in zip(engine, mine, theirs)])
        share = float(nearer[differs].mean()) if differs.any() else 0.0
        print(f"{what}, {precision}: {int(differs.sum())} values where the two mirrors differ; the engine is nearer "
              f"the one the metadata names on {share:.0%}")
        if differs.sum() < 30 or share < 0.9:
            raise SystemExit(f"{what}, {precision}: the engine did not follow the model's metadata")


net = variant("five_taps", "vkml.history_taps", "5", history_taps=5)
check_agreement(net, "five_taps", "5-tap history fetch")
check_engine_ran(net, "five_taps", "5-tap history fetch", "history_taps", 5, 9)
net = variant("moving_cap", "vkml.moving_history_weight", "0.5", moving_history_weight=0.5)
check_agreement(net, "moving_cap", "moving pixels' history cap 0.5")
check_engine_ran(net, "moving_cap", "moving pixels' history cap 0.5", "moving_history_weight", 0.5, float("inf"))
net = variant("five_taps_moving_cap", "vkml.moving_history_weight", "0.5", history_taps=5, moving_history_weight=0.5)
check_agreement(net, "five_taps_moving_cap", "5-tap history fetch with the moving pixels' cap")
PY
