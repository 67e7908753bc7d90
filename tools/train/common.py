"""Shared pieces of the training pipeline: locations, the camera-path split, colour encoding,
loading the renderer's .npy channels."""
import os
import random
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ASSETS = os.environ.get("TRAIN_ASSETS", os.path.join(ROOT, "assets"))
DATA = os.environ.get("TRAIN_DATA", os.path.join(ROOT, "tools", "train", "data"))
BUILD = os.environ.get("TRAIN_BUILD", os.path.join(ROOT, "build-train"))
DEMO = os.environ.get("TRAIN_DEMO", os.path.join(BUILD, "demos", "upscale_demo", "upscale_demo"))
MLRUN = os.path.join(BUILD, "demos", "mlrun", "mlrun")

# Camera paths (engine/src/camera.cpp). Evaluation paths are never rendered for training.
TRAIN_PATHS = ["orbit", "fence_walk", "flyover", "low_sweep"]
HELDOUT_PATHS = ["text_dolly", "spheres_pan"]

SEED = 1234


def seed_everything(seed=SEED):
    import torch
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def torch_device():
    """TRAIN_DEVICE if set, else CUDA when present, else the CPU."""
    import torch
    return torch.device(os.environ.get("TRAIN_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu"))


def torch_threads():
    """Threads for PyTorch: TRAIN_THREADS, else every core this process may use."""
    n = int(os.environ.get("TRAIN_THREADS", "0")) or len(os.sched_getaffinity(0))
    return max(1, n)


def srgb_encode(linear):
    """Display-linear 0..1 -> sRGB-encoded 0..1 (the encode pass's curve, shaders/engine/srgb.glsl)."""
    x = np.clip(linear, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1.0 / 2.4) - 0.055).astype(np.float32)


def load_channel(directory, channel, frame):
    """One channel of one rendered frame as float32 [C, H, W]."""
    a = np.load(os.path.join(directory, f"{channel}_{frame:05d}.npy"))
    return np.ascontiguousarray(a.transpose(2, 0, 1), dtype=np.float32)


# The training reference of a rendered sequence, compacted (render_temporal.py): [frames, 3, H, W]
# uint8, round(srgb_encode(float mean) * 255), exactly what train_temporal.py used to compute from
# the float output_NNNNN.npy frames, a quarter of their size (the frames are then deleted).
REFERENCE_U8 = "reference_u8.npy"


def reference_u8(directory, frames):
    return np.stack([np.round(srgb_encode(load_channel(directory, "output", i)) * 255.0) for i in range(frames)]).astype(np.uint8)


def frame_count(directory, channel="color"):
    return len([f for f in os.listdir(directory) if f.startswith(channel + "_") and f.endswith(".npy")])


class Stopwatch:
    def __init__(self):
        self.start = time.time()

    def __call__(self):
        return time.time() - self.start


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)
