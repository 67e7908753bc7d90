#!/usr/bin/python3
"""Writes tests/data/onnx/bridge_upscaler_x2.onnx: a tiny untrained x2 upscaler with the
assets/upscaler_x2.onnx contract (input 'color' [1,3,H,W] sRGB 0..1, output 'output'
[1,3,2H,2W] sRGB 0..1, free dims H and W) for the demo's --mode ml test. Deterministic."""
import os
import torch
import torch.nn as nn


class TinyUpscaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 12, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, color):
        residual = self.shuffle(self.c2(torch.tanh(self.c1(color)))) * 0.1
        return torch.clamp(self.up(color) + residual, 0.0, 1.0)


def main():
    torch.manual_seed(7)
    model = TinyUpscaler().eval()
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "data", "onnx", "bridge_upscaler_x2.onnx")
    torch.onnx.export(model, torch.rand(1, 3, 8, 12), out, input_names=["color"], output_names=["output"],
                      opset_version=13, dynamic_axes={"color": {2: "H", 3: "W"}, "output": {2: "H2", 3: "W2"}})
    print("wrote", os.path.normpath(out))


if __name__ == "__main__":
    main()
