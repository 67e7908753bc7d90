# An EDSR-baseline-shaped x2 network (residual blocks: conv-ReLU-conv + skip), random weights,
# for timing the implicit GEMM's fragment-store epilogue with a 1:1 residual read.
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(s, c): super().__init__(); s.a = nn.Conv2d(c, c, 3, padding=1); s.b = nn.Conv2d(c, c, 3, padding=1)
    def forward(s, x): return x + s.b(F.relu(s.a(x)))
class Edsr(nn.Module):
    def __init__(s, c=64, n=8):
        super().__init__(); s.head = nn.Conv2d(3, c, 3, padding=1); s.body = nn.Sequential(*[Block(c) for _ in range(n)])
        s.mid = nn.Conv2d(c, c, 3, padding=1); s.up = nn.Conv2d(c, 4 * c, 3, padding=1); s.tail = nn.Conv2d(c, 3, 3, padding=1)
    def forward(s, x):
        h = s.head(x); y = s.mid(s.body(h)) + h
        return s.tail(F.pixel_shuffle(s.up(y), 2))
m = Edsr().eval()
for p in m.parameters(): p.data *= 0.5
x = torch.rand(1, 3, 540, 960)
torch.onnx.export(m, (x,), "edsr_x2.onnx", input_names=["x"], output_names=["y"], opset_version=13)
np.save("x.npy", x.numpy())
