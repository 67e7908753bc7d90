#!/usr/bin/python3
"""Writes random-weight temporal networks of several shapes, each as DIR/<name>/upscaler_temporal.onnx
with the shipped network's accumulating resolve (history weight cap 4), so that
frame_bench --assets DIR/<name> times the whole temporal ML pass as shipped with that shape (the
time does not depend on the weights' values). The 2026-11-27 set (../2026-11-27_temporal_shapes)
plus width 24, timed again after the fifteenth session's kernel changes."""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "tools", "train"))
import temporal  # noqa: E402
from export_temporal import export  # noqa: E402

SHAPES = {  # name: (width, depth, unshuffle, first kernel)
    "r2w32d3f3": (32, 3, 2, 3),  # the shipped shape
    "r2w32d3f1": (32, 3, 2, 1),
    "r2w32d2f3": (32, 2, 2, 3),
    "r2w32d2f1": (32, 2, 2, 1),
    "r2w24d3f3": (24, 3, 2, 3),
    "r2w24d3f1": (24, 3, 2, 1),
    "r2w16d3f3": (16, 3, 2, 3),
    "r2w48d2f1": (48, 2, 2, 1),
    "r4w32d3f1": (32, 3, 4, 1),
    "r4w48d3f1": (48, 3, 4, 1),
    "r4w64d3f1": (64, 3, 4, 1),
}

out = sys.argv[1]
torch.manual_seed(0)
for name, (w, d, r, f) in SHAPES.items():
    os.makedirs(os.path.join(out, name), exist_ok=True)
    net = temporal.TemporalNet(w, d, r, f)
    net.history_weight_cap = 4.0
    net.ratio_feature_max = 2.0 / 3.0
    export(net, os.path.join(out, name, "upscaler_temporal.onnx"))
    print(name, sum(p.numel() for p in net.parameters()), "parameters")
