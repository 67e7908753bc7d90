"""The classic edge-aware baseline in numpy: a port of the engine's built-in a-trous denoiser
(shaders/engine/atrous.comp, parameters of engine/src/renderer_denoise.cpp at commit c15cabf):
the edge-avoiding a-trous wavelet filter of Dammertz et al. 2010.

5 iterations of the 5x5 B3-spline kernel (1/16, 1/4, 3/8, 1/4, 1/16) with taps 1, 2, 4, 8, 16
pixels apart, each tap weighted by
    exp(-|dc|^2 / sigma_c^2 - |dn|^2 / sigma_n^2 - |da|^2 / sigma_a^2 - dz)
on display-linear colour (sigma_c = 1.4 halved every iteration), normal (0.1), albedo (0.05) and
depth against the local plane's prediction (dz = |z_q - z_p| / (0.5 |slope . offset| + 1e-6)).
Taps outside the image or on the sky are skipped; sky pixels pass through.
"""
import numpy as np

KERNEL = {0: 3 / 8, 1: 1 / 4, 2: 1 / 16}
SIGMA_COLOR, SIGMA_NORMAL, SIGMA_DEPTH, SIGMA_ALBEDO = 1.4, 0.1, 0.5, 0.05


def _tap(x, dy, dx):
    """x[..., y + dy, x + dx] and whether that tap lies inside the image."""
    h, w = x.shape[-2:]
    ys, xs = np.arange(h) + dy, np.arange(w) + dx
    inside = ((ys >= 0) & (ys < h))[:, None] & ((xs >= 0) & (xs < w))[None, :]
    return x[..., np.clip(ys, 0, h - 1)[:, None], np.clip(xs, 0, w - 1)[None, :]], inside


def atrous(color, albedo, normal, depth, iterations=5):
    """color (display-linear), albedo, normal [3, H, W]; depth [1, H, W]. Returns display-linear [3, H, W]."""
    c = color.astype(np.float32)
    a, n, z = albedo.astype(np.float32), normal.astype(np.float32), depth[0].astype(np.float32)
    h, w = z.shape
    sx = 0.5 * (z[:, np.minimum(np.arange(w) + 1, w - 1)] - z[:, np.maximum(np.arange(w) - 1, 0)])
    sy = 0.5 * (z[np.minimum(np.arange(h) + 1, h - 1), :] - z[np.maximum(np.arange(h) - 1, 0), :])
    sky = z >= 1.0
    for it in range(iterations):
        step = 1 << it
        sc2 = (SIGMA_COLOR / step) ** 2
        acc = np.zeros_like(c)
        wsum = np.zeros((h, w), np.float32)
        for j in range(-2, 3):
            for i in range(-2, 3):
                dy, dx = j * step, i * step
                cq, inside = _tap(c, dy, dx)
                nq, _ = _tap(n, dy, dx)
                aq, _ = _tap(a, dy, dx)
                zq, _ = _tap(z, dy, dx)
                dz = np.abs(zq - z) / (SIGMA_DEPTH * np.abs(sx * dx + sy * dy) + 1e-6)
                wt = KERNEL[abs(i)] * KERNEL[abs(j)] * np.exp(
                    -np.sum((cq - c) ** 2, 0) / sc2 - np.sum((nq - n) ** 2, 0) / SIGMA_NORMAL ** 2
                    - np.sum((aq - a) ** 2, 0) / SIGMA_ALBEDO ** 2 - dz)
                wt = np.where(inside & (zq < 1.0), wt, 0.0).astype(np.float32)
                acc += wt * cq
                wsum += wt
        c = np.where(sky, c, acc / np.maximum(wsum, 1e-30))
    return c
