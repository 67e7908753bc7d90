"""The networks shipped in assets/ (PyTorch definitions; bench/peer_torch.py rebuilds them from
assets/*.npz with load_npz()).

Only operators the ONNX loader and the plugin's kernels handle well: Conv 3x3/1x1 (stride 1 and
2), Relu, LeakyRelu, DepthToSpace (pixel shuffle, CRD at opset >= 11), Resize (bilinear, half-pixel), Add,
Sub, Mul, Concat, Clip.

I/O contract (the bridge builds against it):
  upscaler_x2: color [1,3,H,W] sRGB-encoded 0..1 -> output [1,3,2H,2W] sRGB 0..1
  denoiser:    color [1,3,H,W] noisy sRGB 0..1, albedo [1,3,H,W] 0..1, normal [1,3,H,W] -1..1,
               depth [1,1,H,W] 0..1 (the renderer's depth buffer) -> output [1,3,H,W] sRGB 0..1;
               H and W multiples of 4 (two stride-2 levels)
The upscaler's output dims are named OH and OW in the ONNX file (2H, 2W).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class UpscalerX2(nn.Module):
    """A residual over the bilinear x2 upsample: a few 3x3 convs at input resolution predict
    the 2x2 sub-pixel corrections (pixel shuffle)."""

    def __init__(self, channels=32, layers=4):
        super().__init__()
        self.head = nn.Conv2d(3, channels, 3, padding=1)
        self.body = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers - 1))
        self.tail = nn.Conv2d(channels, 3 * 4, 3, padding=1)
        with torch.no_grad():  # start as plain bilinear
            self.tail.weight.mul_(0.1)
            self.tail.bias.zero_()

    def forward(self, color):
        x = F.relu(self.head(color))
        for conv in self.body:
            x = F.relu(conv(x))
        base = F.interpolate(color, scale_factor=2.0, mode="bilinear", align_corners=False)
        return torch.clamp(base + F.pixel_shuffle(self.tail(x), 2), 0.0, 1.0)


def act(x):
    # Leaky: with plain ReLU the denoiser sometimes never left its identity start (all units
    # dead within the first steps), depending on the run's numerics.
    return F.leaky_relu(x, 0.1)


class Denoiser(nn.Module):
    """A small U-Net (full, 1/2, 1/4 resolution; stride-2 convs down, 1x1 conv + pixel shuffle
    up, additive skips) predicting a correction of the noisy colour. Most work is at 1/2 and
    1/4 resolution, where the wide blur of the 1-ray shadow noise happens."""

    def __init__(self, c0=16, c1=32, c2=32):
        super().__init__()
        self.e0 = nn.Conv2d(10, c0, 3, padding=1)
        self.e1 = nn.Conv2d(c0, c1, 3, stride=2, padding=1)
        self.e1b = nn.Conv2d(c1, c1, 3, padding=1)
        self.e2 = nn.Conv2d(c1, c2, 3, stride=2, padding=1)
        self.e2b = nn.Conv2d(c2, c2, 3, padding=1)
        self.e2c = nn.Conv2d(c2, c2, 3, padding=1)
        self.up1 = nn.Conv2d(c2, c1 * 4, 1)
        self.d1 = nn.Conv2d(c1, c1, 3, padding=1)
        self.up0 = nn.Conv2d(c1, c0 * 4, 1)
        self.d0 = nn.Conv2d(c0, c0, 3, padding=1)
        self.out = nn.Conv2d(c0, 3, 3, padding=1)
        with torch.no_grad():  # start as the identity
            self.out.weight.mul_(0.1)
            self.out.bias.zero_()

    def forward(self, color, albedo, normal, depth):
        # 1 - depth ~ near / distance for this projection (near 0.05, far 200): the inverse
        # distance, a well-scaled geometry cue; raw depth crowds into 0.98..1.
        inv_distance = (1.0 - depth) * 20.0
        x = torch.cat([color, albedo, normal, inv_distance], dim=1)
        s0 = act(self.e0(x))
        s1 = act(self.e1b(act(self.e1(s0))))
        s2 = act(self.e2(s1))
        s2 = act(self.e2c(act(self.e2b(s2))))
        u1 = act(self.d1(F.pixel_shuffle(self.up1(s2), 2) + s1))
        u0 = act(self.d0(F.pixel_shuffle(self.up0(u1), 2) + s0))
        return torch.clamp(color + self.out(u0), 0.0, 1.0)


def build_upscaler():
    return UpscalerX2()


def build_denoiser():
    return Denoiser()


def save_npz(model, path):
    np.savez(path, **{k: v.detach().cpu().numpy() for k, v in model.state_dict().items()})


def load_npz(model, path):
    with np.load(path) as z:
        model.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files})
    return model


def conv_gflops(model, inputs):
    """Multiply-adds x 2 of every Conv2d for the given input shapes, in GFLOP."""
    total = [0]

    def hook(m, _inp, out):
        total[0] += 2 * out.numel() * m.in_channels // m.groups * m.kernel_size[0] * m.kernel_size[1]

    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        model(*inputs)
    for h in handles:
        h.remove()
    return total[0] / 1e9


def export_onnx(model, path, kind, opset=13):
    """Exports with free dims H and W (and 2H/2W named by the exporter for the output)."""
    model.eval()
    if kind == "upscaler":
        args = (torch.rand(1, 3, 32, 48),)
        names = ["color"]
    else:
        args = (torch.rand(1, 3, 32, 48), torch.rand(1, 3, 32, 48), torch.rand(1, 3, 32, 48) * 2 - 1, torch.rand(1, 1, 32, 48))
        names = ["color", "albedo", "normal", "depth"]
    dyn = {n: {2: "H", 3: "W"} for n in names}
    dyn["output"] = {2: "OH", 3: "OW"} if kind == "upscaler" else {2: "H", 3: "W"}
    torch.onnx.export(model, args, path, input_names=names, output_names=["output"], dynamic_axes=dyn,
                      opset_version=opset, do_constant_folding=True)


if __name__ == "__main__":
    up = build_upscaler()
    dn = build_denoiser()
    print("upscaler params", sum(p.numel() for p in up.parameters()),
          "GFLOP 960x540->1080p %.1f" % conv_gflops(up, (torch.rand(1, 3, 540, 960),)))
    x = [torch.rand(1, 3, 1080, 1920)] * 3 + [torch.rand(1, 1, 1080, 1920)]
    print("denoiser params", sum(p.numel() for p in dn.parameters()), "GFLOP 1080p %.1f" % conv_gflops(dn, x))
