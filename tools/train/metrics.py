"""Image quality metrics in numpy, on sRGB-encoded images in 0..1, [C, H, W] float arrays.

PSNR: over all pixels and the three channels, peak 1.
SSIM: Wang et al. 2004 on luma (BT.709 weights applied to the sRGB-encoded values), 11x11
      gaussian window of sigma 1.5, K1 = 0.01, K2 = 0.03, L = 1, 'valid' windows only (no
      padding), mean over the map.

Every function takes numpy arrays or torch tensors (on any device: evaluate_temporal.py scores
4K frames on the GPU) and computes in float64 either way, so both give the same figures.
"""
import numpy as np


def _clip(img):
    return img.clamp(0, 1) if hasattr(img, "clamp") else np.clip(img, 0, 1)


def _f64(img):
    return img.double() if hasattr(img, "double") else img.astype(np.float64)


def psnr(a, b):
    mse = float(((_f64(_clip(a)) - _f64(_clip(b))) ** 2).mean())
    return float("inf") if mse == 0 else 10.0 * np.log10(1.0 / mse)


def luma(img):
    return 0.2126 * img[0] + 0.7152 * img[1] + 0.0722 * img[2]


def _gauss_valid(x, size=11, sigma=1.5):
    r = np.arange(size) - (size - 1) / 2
    g = np.exp(-r * r / (2 * sigma * sigma))
    g /= g.sum()
    h, w = x.shape
    rows = sum(g[i] * x[i:h - size + 1 + i, :] for i in range(size))
    return sum(g[i] * rows[:, i:w - size + 1 + i] for i in range(size))


def ssim(a, b):
    x = _f64(luma(_clip(a)))
    y = _f64(luma(_clip(b)))
    c1, c2 = 0.01 ** 2, 0.03 ** 2
    mx, my = _gauss_valid(x), _gauss_valid(y)
    sxx = _gauss_valid(x * x) - mx * mx
    syy = _gauss_valid(y * y) - my * my
    sxy = _gauss_valid(x * y) - mx * my
    m = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    return float(m.mean())


def _self_test():
    rng = np.random.default_rng(0)
    a = rng.random((3, 40, 50)).astype(np.float32)
    assert psnr(a, a) == float("inf") and abs(ssim(a, a) - 1) < 1e-9
    b = np.clip(a + 0.1, 0, 1)
    assert 15 < psnr(a, b) < 25 and ssim(a, b) < 1
    # Constant offset of 0.1 everywhere: PSNR exactly 20 dB.
    c = np.full((3, 20, 20), 0.5, np.float32)
    assert abs(psnr(c, c + 0.1) - 20) < 1e-4
    try:
        import torch
    except ImportError:
        return
    # The torch path (what the GPU scoring runs) gives the numpy figures.
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    assert abs(psnr(ta, tb) - psnr(a, b)) < 1e-9 and abs(ssim(ta, tb) - ssim(a, b)) < 1e-9


if __name__ == "__main__":
    _self_test()
    print("metrics self-test ok")
