#!/usr/bin/python3
"""Exports the small ONNX test models under tests/data/onnx (needs Debian's python3-torch and
python3-onnx; CI only reads the committed files).

Every model is exported at opsets 9, 11, 13 and 17 (where the exporter can; the warp model at 16
and 17) from one set of weights, with its input(s) and PyTorch's fp32 output(s) as .npy:
  <model>_op<N>.onnx, <model>_<input name>.npy, <model>_<output name>.npy
plus hand-made models for the loader's error paths and legacy opsets.

Run from the repository root:  /usr/bin/python3 tools/make_test_models.py
"""
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import TensorProto, helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "onnx")
OPSETS = [9, 11, 13, 17]


class Espcn(nn.Module):
    """ESPCN-style x2 upscaler: convs at low resolution, then depth-to-space."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 5, padding=2)
        self.c2 = nn.Conv2d(8, 4, 3, padding=1)
        self.c3 = nn.Conv2d(4, 4, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        x = torch.tanh(self.c1(x))
        x = torch.tanh(self.c2(x))
        return self.shuffle(self.c3(x))


class UNet(nn.Module):
    """One level of U-Net: strided conv down, transposed conv up, concat skip, residual add."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.down = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.dec = nn.Conv2d(16, 8, 3, padding=1)
        self.out = nn.Conv2d(8, 3, 1)

    def forward(self, x):
        e = F.relu(self.enc(x))
        d = F.relu(self.down(e))
        u = self.up(d)
        y = F.leaky_relu(self.dec(torch.cat([u, e], 1)), 0.1)
        return self.out(y + e) + x


class PoolHead(nn.Module):
    """Pooling, both resize modes, global pooling, flatten through a shape chain, GEMM."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = F.relu(self.conv(x))
        x = F.max_pool2d(x, 2)
        x = F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False)
        x = F.interpolate(x, scale_factor=2, mode="nearest")
        x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
        a = F.adaptive_avg_pool2d(x, 1)
        m = F.adaptive_max_pool2d(x, 1)
        x = torch.cat([a, m], 1)
        x = x.view(x.size(0), -1)
        return torch.sigmoid(self.fc(x))


class Elementwise(nn.Module):
    """Broadcasting arithmetic, every activation the loader maps, a batched MatMul."""

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.linspace(-0.5, 0.5, 4).reshape(4, 1, 1))
        self.prelu = nn.PReLU(4, 0.2)
        self.mix = nn.Parameter(torch.linspace(-1, 1, 25).reshape(5, 5))

    def forward(self, x, y):
        a = (x + self.bias) * y - x / (y.abs() + 1.5)
        b = torch.sqrt(a.abs() + 1) + torch.exp(-a.abs()) + torch.log(a.abs() + 2) + torch.reciprocal(a.abs() + 1)
        c = torch.max(a, b) - torch.min(a, -b) + torch.pow(a, 2) * 0.1
        c = torch.clamp(c, -2.0, 3.0)
        d = F.leaky_relu(c, 0.2) + F.elu(a) + F.selu(b) + torch.sigmoid(c) + F.hardsigmoid(a) + F.hardswish(b)
        e = torch.tanh(d) + F.softplus(a) + F.gelu(c) + self.prelu(a) - F.relu(-b)
        return e + torch.matmul(e, self.mix) * 0.1


class NormSoftmax(nn.Module):
    """Batch/instance normalization, reductions, softmax variants and data movement; 2 outputs."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.inorm = nn.InstanceNorm2d(6, affine=True)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.linspace(-0.2, 0.3, 6))
            self.bn.running_var.copy_(torch.linspace(0.5, 1.5, 6))
            self.bn.weight.copy_(torch.linspace(0.8, 1.2, 6))
            self.bn.bias.copy_(torch.linspace(-0.1, 0.1, 6))
            self.inorm.weight.copy_(torch.linspace(1.2, 0.8, 6))
            self.inorm.bias.copy_(torch.linspace(0.1, -0.1, 6))

    def forward(self, x):
        x = self.bn(self.conv(x))
        x = self.inorm(x)
        s = torch.softmax(x, 1) + torch.log_softmax(x, -1)
        m = s.mean(dim=(2, 3), keepdim=True)
        s = s - m + s.sum(dim=1, keepdim=True) * 0.1 + s.amax(dim=3, keepdim=True) - s.amin(dim=2, keepdim=True)
        p = F.pad(s, (1, 1, 0, 2), mode="constant", value=0.5)
        p = p[:, :, 1:-1, 4:]  # negative and open ends (INT64_MAX in the export)
        a, b = torch.split(p, [2, 4], dim=1)
        t = b.permute(0, 1, 3, 2)
        u = a.unsqueeze(2).squeeze(2).expand(1, 2, 6, 4)
        return t, u


class Conv1d(nn.Module):
    """1-D layers (lifted to 2-D by the loader): conv, batch norm, pools, transposed conv."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm1d(4)
        self.up = nn.ConvTranspose1d(4, 2, 2, stride=2)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.linspace(-0.1, 0.2, 4))
            self.bn.running_var.copy_(torch.linspace(0.6, 1.4, 4))

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        x = F.max_pool1d(x, 2)
        x = F.avg_pool1d(x, 3, stride=1, padding=1)
        y = self.up(x)
        return y * torch.sigmoid(F.adaptive_avg_pool1d(y, 1))


class Warp(nn.Module):
    """A temporal step: the previous frame warped by a flow field (grid_sample), fused with the
    current frame, layer-normalized over channels and tiled."""

    def __init__(self):
        super().__init__()
        self.fuse = nn.Conv2d(6, 4, 3, padding=1)
        self.norm = nn.LayerNorm(4)
        with torch.no_grad():
            self.norm.weight.copy_(torch.linspace(0.8, 1.2, 4))
            self.norm.bias.copy_(torch.linspace(-0.1, 0.1, 4))

    def forward(self, current, previous, flow):
        _, _, h, w = current.shape
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
        grid = torch.stack([xs, ys], dim=-1).unsqueeze(0) + flow.permute(0, 2, 3, 1)
        warped = F.grid_sample(previous, grid, mode="bilinear", padding_mode="border", align_corners=False)
        zeros = F.grid_sample(previous, grid * 1.2, mode="bilinear", padding_mode="zeros", align_corners=True)
        x = self.fuse(torch.cat([current, warped + 0.5 * zeros], 1))
        x = self.norm(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        return x.repeat(1, 2, 1, 2)


def write_npy(name, array):
    np.save(os.path.join(OUT, name), np.ascontiguousarray(array, dtype=np.float32))


def export(model, name, inputs, input_names, output_names, opsets, dynamic_axes=None):
    model.eval()
    with torch.no_grad():
        outputs = model(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    for n, t in zip(input_names, inputs):
        write_npy(f"{name}_{n}.npy", t.numpy())
    for n, t in zip(output_names, outputs):
        write_npy(f"{name}_{n}.npy", t.numpy())
    for opset in opsets:
        path = os.path.join(OUT, f"{name}_op{opset}.onnx")
        torch.onnx.export(model, tuple(inputs), path, opset_version=opset, input_names=input_names,
                          output_names=output_names, dynamic_axes=dynamic_axes, do_constant_folding=True)
        onnx.checker.check_model(onnx.load(path))
        print(f"  {path}: {os.path.getsize(path)} bytes")


def handmade_models():
    """Models the exporter cannot write: an unsupported operator, opset 7 legacy attributes."""
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 2, 2, 2])
    y = helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 2, 2, 2])
    node = helper.make_node("Hardmax", ["input"], ["output"], name="mystery", axis=1)
    g = helper.make_graph([node], "unsupported", [x], [y])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(OUT, "unsupported_op.onnx"))

    # Opset 6: Add with broadcast/axis, BatchNormalization with spatial/is_test, Softmax over the
    # coerced 2-D shape. Opset 8: Clip with min/max attributes, Upsample with a scales attribute.
    rng = np.random.default_rng(7)
    xin = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
    bias = np.array([0.25, -0.5], np.float32)
    mean = np.array([0.1, -0.1], np.float32)
    var = np.array([0.9, 1.1], np.float32)
    scale = np.array([1.5, 0.5], np.float32)
    shift = np.array([0.0, 0.2], np.float32)
    inits = [helper.make_tensor(n, TensorProto.FLOAT, v.shape, v) for n, v in
             [("bias", bias), ("mean", mean), ("var", var), ("scale", scale), ("shift", shift)]]
    nodes = [
        helper.make_node("Add", ["input", "bias"], ["a"], broadcast=1, axis=1),
        helper.make_node("BatchNormalization", ["a", "scale", "shift", "mean", "var"], ["b"], epsilon=1e-3, is_test=1, spatial=1),
        helper.make_node("Softmax", ["b"], ["output"], axis=2),
    ]
    g = helper.make_graph(nodes, "legacy6", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 2, 3, 3])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 6)]), os.path.join(OUT, "legacy_op6.onnx"))
    a = xin + bias.reshape(1, 2, 1, 1)
    b = (a - mean.reshape(1, 2, 1, 1)) / np.sqrt(var.reshape(1, 2, 1, 1) + 1e-3) * scale.reshape(1, 2, 1, 1) + shift.reshape(1, 2, 1, 1)
    flat = b.reshape(2, 9).astype(np.float64)
    e = np.exp(flat - flat.max(axis=1, keepdims=True))
    write_npy("legacy6_input.npy", xin)
    write_npy("legacy6_output.npy", (e / e.sum(axis=1, keepdims=True)).reshape(b.shape))

    nodes = [
        helper.make_node("Clip", ["input"], ["c"], min=-0.5, max=0.6),
        helper.make_node("Upsample", ["c"], ["output"], mode="nearest", scales=[1.0, 1.0, 2.0, 3.0]),
    ]
    g = helper.make_graph(nodes, "legacy8", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 2, 6, 9])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 8)]), os.path.join(OUT, "legacy_op8.onnx"))
    write_npy("legacy8_input.npy", xin)
    write_npy("legacy8_output.npy", np.clip(xin, -0.5, 0.6).repeat(2, axis=2).repeat(3, axis=3))


def handmade_ops():
    """Opset 13 operators PyTorch's small models do not produce: SpaceToDepth, Gather of a
    runtime tensor, Tile, Resize with sizes and align_corners, ReduceSum keepdims=0, and a graph
    output that is a Flatten view."""
    rng = np.random.default_rng(11)
    x = rng.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
    i64 = lambda name, v: helper.make_tensor(name, TensorProto.INT64, [len(v)] if isinstance(v, list) else [], v if isinstance(v, list) else [v])
    inits = [i64("index", 3), i64("axes1", [1]), i64("repeats", [1, 3, 1, 1]),
             i64("sizes", [1, 3, 3, 5]), helper.make_tensor("empty", TensorProto.FLOAT, [0], [])]
    nodes = [
        helper.make_node("SpaceToDepth", ["input"], ["s2d"], blocksize=2),
        helper.make_node("Gather", ["s2d", "index"], ["g"], axis=1),
        helper.make_node("Unsqueeze", ["g", "axes1"], ["u"]),
        helper.make_node("Tile", ["u", "repeats"], ["t"]),
        helper.make_node("Resize", ["t", "empty", "empty", "sizes"], ["r"], mode="linear",
                         coordinate_transformation_mode="align_corners"),
        helper.make_node("ReduceSum", ["r", "axes1"], ["output"], keepdims=0),
        helper.make_node("Flatten", ["s2d"], ["output2"], axis=2),
    ]
    g = helper.make_graph(nodes, "ops13", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 3, 5]),
                           helper.make_tensor_value_info("output2", TensorProto.FLOAT, [8, 4])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, "ops_op13.onnx"))
    s2d = x.reshape(1, 2, 2, 2, 2, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 2)
    t = np.tile(s2d[:, 3][:, None], (1, 3, 1, 1)).astype(np.float64)

    def align_corners(a, axis, size):
        n = a.shape[axis]
        pos = np.arange(size) * (n - 1) / (size - 1)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, n - 1)
        w = (pos - lo).reshape([-1 if d == axis else 1 for d in range(a.ndim)])
        return np.take(a, lo, axis) * (1 - w) + np.take(a, hi, axis) * w

    r = align_corners(align_corners(t, 2, 3), 3, 5)
    write_npy("ops_input.npy", x)
    write_npy("ops_output.npy", r.sum(axis=1))
    write_npy("ops_output2.npy", s2d.reshape(8, 4))

    # Opset 10: Resize with scales only (asymmetric, nearest rounds down), Slice with a negative step.
    x10 = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
    inits = [helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 1.5]), i64("starts", [-1]), i64("ends", [-100]),
             i64("axes", [3]), i64("steps", [-2])]
    nodes = [helper.make_node("Resize", ["input", "scales"], ["r"], mode="nearest"),
             helper.make_node("Slice", ["r", "starts", "ends", "axes", "steps"], ["output"])]
    g = helper.make_graph(nodes, "ops10", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 2, 6, 2])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 10)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, "ops_op10.onnx"))
    rows = np.floor(np.arange(6) / 2.0).astype(int)
    cols = np.floor(np.arange(4) / 1.5).astype(int)
    write_npy("ops10_input.npy", x10)
    write_npy("ops10_output.npy", x10[:, :, rows][:, :, :, cols][:, :, :, ::-2])


def extra_inputs():
    """.npy inputs for mlrun's tests: a float16 copy of the U-Net input, and files mlrun must
    reject (Fortran order, float64)."""
    np.save(os.path.join(OUT, "unet_input_f16.npy"), np.load(os.path.join(OUT, "unet_input.npy")).astype(np.float16))
    a = np.arange(3 * 8 * 8, dtype=np.float32).reshape(1, 3, 8, 8)
    np.save(os.path.join(OUT, "bad_fortran.npy"), np.asfortranarray(a[0].transpose(1, 2, 0)))
    np.save(os.path.join(OUT, "bad_float64.npy"), a.astype(np.float64))


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    rand = lambda *s: torch.rand(*s, generator=g) * 2 - 1
    # Opset 9 has no DepthToSpace CRD: PyTorch writes pixel_shuffle as a 6-D Reshape -> Transpose
    # -> Reshape chain, which the loader matches back into one DepthToSpace.
    export(Espcn(), "espcn", [rand(1, 1, 6, 6)], ["input"], ["output"], OPSETS)
    # Free dims: height/width symbolic, fixed at load time.
    export(Espcn(), "espcn_dynamic", [rand(1, 1, 5, 7)], ["input"], ["output"], [13],
           dynamic_axes={"input": {2: "height", 3: "width"}, "output": {2: "out_height", 3: "out_width"}})
    export(UNet(), "unet", [rand(1, 3, 8, 8)], ["input"], ["output"], OPSETS)
    # Opset 9's Upsample has no half-pixel bilinear (PyTorch's align_corners=False): from 11 on.
    export(PoolHead(), "poolhead", [rand(1, 3, 8, 8)], ["input"], ["output"], [11, 13, 17])
    # A free batch dim keeps PyTorch's Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain for
    # x.view(x.size(0), -1) in the file (static shapes let the exporter fold it).
    export(PoolHead(), "poolhead_dynamic", [rand(2, 3, 8, 8)], ["input"], ["output"], [13],
           dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})
    export(Conv1d(), "conv1d", [rand(1, 2, 12)], ["input"], ["output"], OPSETS)
    export(Elementwise(), "elementwise", [rand(1, 4, 3, 5), rand(1, 4, 1, 5)], ["input", "input2"], ["output"], OPSETS)
    export(NormSoftmax(), "normsoftmax", [rand(1, 3, 6, 6)], ["input"], ["output", "output2"], OPSETS)
    # GridSample exports from opset 16, LayerNormalization from 17 (16 spells it out).
    export(Warp(), "warp", [rand(1, 3, 7, 9), rand(1, 3, 7, 9), rand(1, 2, 7, 9) * 0.3], ["input", "previous", "flow"], ["output"],
           [16, 17])
    handmade_models()
    handmade_ops()
    extra_inputs()
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f"total {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
