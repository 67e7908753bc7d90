#!/usr/bin/python3
"""Writes tests/data/onnx/temporal_take_current.onnx: a temporal-upscaler model of the effect's
contract (input 'features' [1, 64, h, w], output 'params' [1, 32, h, w], free dims h and w;
docs/EFFECTS.md) whose parameters are constant: blend weight sigmoid(+30) = 1 (take the current
estimate), narrow-vs-wide sigmoid(+30) = 1 (the narrow kernel), no residual. The effect's first
frame then equals the narrow-kernel estimate the test computes on the CPU. Deterministic."""
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


def main():
    model = ConstantParams().eval()
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "data", "onnx", "temporal_take_current.onnx")
    torch.onnx.export(model, torch.rand(1, 4 * FEATURES, 4, 6), out, input_names=["features"], output_names=["params"],
                      opset_version=13, dynamic_axes={"features": {2: "h", 3: "w"}, "params": {2: "h", 3: "w"}})
    print("wrote", os.path.normpath(out))


if __name__ == "__main__":
    main()
