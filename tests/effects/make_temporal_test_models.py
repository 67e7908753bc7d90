#!/usr/bin/python3
"""Writes tests/data/onnx/temporal_take_current.onnx: a temporal-upscaler model of the effect's
contract (input 'features' [1, 64, h, w], output 'params' [1, 32, h, w], free dims h and w;
docs/EFFECTS.md) whose parameters are constant: blend weight sigmoid(+30) = 1 (take the current
estimate), narrow-vs-wide sigmoid(+30) = 1 (the narrow kernel), no residual. The effect's first
frame then equals the narrow-kernel estimate the test computes on the CPU.

Also temporal_head.onnx and temporal_head_times_one.onnx: the same random network (3x3 64 -> 24,
ReLU, 3x3 24 -> 24, ReLU, 1x1 24 -> 32), the second with its output multiplied by 1. The effect
runs the first one's last 1x1 layer in its resolve pass and the second one's entirely in the
network, so the two must produce the same frames. Deterministic (fixed seed)."""
import os
import torch
import torch.nn as nn

FEATURES, PARAMS = 16, 8


class ConstantParams(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4 * FEATURES, 4 * PARAMS, 1)
        with torch.no_grad():
            self.conv.weight.zero_()
            bias = torch.zeros(PARAMS)
            bias[0] = 30.0   # alpha: current
            bias[1] = -30.0  # clipped history
            bias[2] = 30.0   # narrow estimate
            bias[6] = -30.0  # state
            self.conv.bias.copy_(bias.repeat_interleave(4))  # channel c * 4 + sub-pixel

    def forward(self, features):
        return self.conv(features)


class RandomHead(nn.Module):
    def __init__(self, times_one):
        super().__init__()
        torch.manual_seed(7)
        self.body = nn.Sequential(nn.Conv2d(4 * FEATURES, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(32, 4 * PARAMS, 1))
        self.times_one = times_one

    def forward(self, features):
        y = self.body(features)
        return y * torch.ones(1) if self.times_one else y


def export(model, out):
    torch.onnx.export(model.eval(), torch.rand(1, 4 * FEATURES, 4, 6), out, input_names=["features"], output_names=["params"],
                      opset_version=13, dynamic_axes={"features": {2: "h", 3: "w"}, "params": {2: "h", 3: "w"}})
    print("wrote", os.path.normpath(out))


def main():
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "onnx")
    export(ConstantParams(), os.path.join(data, "temporal_take_current.onnx"))
    export(RandomHead(False), os.path.join(data, "temporal_head.onnx"))
    export(RandomHead(True), os.path.join(data, "temporal_head_times_one.onnx"))


if __name__ == "__main__":
    main()
