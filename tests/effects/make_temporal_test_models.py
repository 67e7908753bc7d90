#!/usr/bin/python3
"""Writes tests/data/onnx/temporal_take_current.onnx: a temporal-upscaler model of the effect's
contract (input 'features' [1, 64, h, w], output 'params' [1, 32, h, w], free dims h and w;
docs/EFFECTS.md) whose parameters are constant: blend weight sigmoid(+30) = 1 (take the current
estimate), narrow-vs-wide sigmoid(+30) = 1 (the narrow kernel), no residual. The effect's first
frame then equals the narrow-kernel estimate the test computes on the CPU.

Also temporal_r1.onnx and temporal_r4.onnx: small random networks of the contract at unshuffle
factors 1 and 4 (input [1, 16 r^2, h, w], output [1, 8 r^2, h, w]; 3x3 16 r^2 -> 8, ReLU, 1x1 8 ->
8 r^2), for the tensor layouts at every factor; and temporal_r2_scaled_output.onnx, the r = 2
network with its output scaled by an element-wise Mul, which the effect cannot fold its
pixel-major channel order into (its tensors then keep the model's order). And
temporal_ratio_probe.onnx: "take the current estimate" plus a residual of RATIO_GAIN times the
ratio feature (feature 15) on every colour channel, so the output tells which ratio feature the
effect wrote (the clamp of the model's "vkml.ratio_feature_max" metadata, which the test adds).
And temporal_validity_probe.onnx: the same with VALIDITY_GAIN times the history-validity feature
(feature 13: the depth test's confidence), so the output tells where the effect trusted the
history. And temporal_accumulate.onnx: constant parameters that trust the history fully, for the
accumulating resolve (the test adds the "vkml.history_weight_cap" metadata).
Deterministic (fixed seeds)."""
import os
import torch
import torch.nn as nn

FEATURES, PARAMS = 16, 8
RATIO_GAIN = 2.0  # upscaler_test.cpp's kRatioProbeGain
VALIDITY_GAIN = 2.0  # upscaler_test.cpp's kValidityProbeGain


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


class TrustHistory(ConstantParams):
    """For the accumulating resolve: trust = sigmoid(-p0) = 1, the unclipped history, the narrow
    estimate, gain exp(p7) = 1, no residual."""
    def __init__(self):
        super().__init__()
        with torch.no_grad():
            bias = torch.zeros(PARAMS)
            bias[0] = -30.0  # trust the history fully
            bias[1] = 30.0   # the unclipped history
            bias[2] = 30.0   # narrow estimate
            self.conv.bias.copy_(bias.repeat_interleave(4))


class FeatureProbe(ConstantParams):
    """Take the current estimate, plus gain x one feature as the residual of every colour."""
    def __init__(self, feature, gain):
        super().__init__()
        with torch.no_grad():
            for s in range(4):  # channel c * 4 + s: unshuffled by 2
                for c in (3, 4, 5):
                    self.conv.weight[c * 4 + s, feature * 4 + s] = gain


class RandomNet(nn.Module):
    def __init__(self, r):
        super().__init__()
        torch.manual_seed(r)
        self.body = nn.Sequential(nn.Conv2d(r * r * FEATURES, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, r * r * PARAMS, 1))

    def forward(self, features):
        return self.body(features)


class ScaledOutputNet(RandomNet):
    def forward(self, features):
        return self.body(features) * 0.75


def export(model, path, r):
    torch.onnx.export(model.eval(), torch.rand(1, r * r * FEATURES, 4, 6), path, input_names=["features"], output_names=["params"],
                      opset_version=13, dynamic_axes={"features": {2: "h", 3: "w"}, "params": {2: "h", 3: "w"}})
    print("wrote", os.path.normpath(path))


def main():
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "onnx")
    export(ConstantParams(), os.path.join(data, "temporal_take_current.onnx"), 2)
    for r in (1, 4):
        export(RandomNet(r), os.path.join(data, f"temporal_r{r}.onnx"), r)
    export(ScaledOutputNet(2), os.path.join(data, "temporal_r2_scaled_output.onnx"), 2)
    export(FeatureProbe(15, RATIO_GAIN), os.path.join(data, "temporal_ratio_probe.onnx"), 2)
    export(FeatureProbe(13, VALIDITY_GAIN), os.path.join(data, "temporal_validity_probe.onnx"), 2)
    export(TrustHistory(), os.path.join(data, "temporal_accumulate.onnx"), 2)


if __name__ == "__main__":
    main()
