"""mirror_scores.py DIR model.npz...: PSNR (8-bit sRGB frames 8.. against the reference) of the PyTorch
mirror (temporal.py) with each network, on a sequence render_seq.sh wrote into DIR, beside the
engine's TAAU."""
import glob, math, os, sys
import numpy as np, torch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import common, temporal, train_temporal
torch.set_num_threads(2)
DIR = sys.argv[1]
N = len(glob.glob(os.path.join(DIR, "ref", "output_*.npy")))
W, H, w, h = 480, 272, 240, 136
PHASES = temporal.phase_count(w, W)
def load(sub, ch, i): return np.load(os.path.join(DIR, sub, f"{ch}_{i:05d}.npy"))
def srgb8(x): return np.round(common.srgb_encode(x) * 255.0)
REF = [srgb8(load("ref", "output", i)) for i in range(N)]
def psnr(frames, first=8):
    mse = np.mean([np.mean((frames[i] - REF[i]) ** 2) for i in range(first, N)])
    return 10 * math.log10(255 ** 2 / mse)
def chw(sub, ch, t): return torch.from_numpy(load(sub, ch, t).transpose(2, 0, 1)[None].copy()).float()
@torch.no_grad()
def run(net):
    up = temporal.TemporalUpscaler(net, (H, W))
    frames = []
    for t in range(N):
        j = torch.tensor([temporal.halton_jitter(t, PHASES)], dtype=torch.float32)
        out = up.step(chw("taau", "color", t), chw("taau", "depth", t), chw("taau", "motion", t), j)
        frames.append(np.round(out[0].numpy().transpose(1, 2, 0) * 255.0))
    return frames
print(f"{DIR}: {N} frames; engine TAAU {psnr([srgb8(load('taau', 'output', i)) for i in range(N)]):.2f}", flush=True)
for path in sys.argv[2:]:
    net = train_temporal.load_net(path)[0].eval()
    print(f"  {os.path.basename(path)} (cap {net.history_weight_cap:g}): {psnr(run(net)):.2f}", flush=True)
