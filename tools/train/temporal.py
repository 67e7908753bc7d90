"""The temporal ML upscaler in PyTorch: an exact mirror of the effect's shaders
(shaders/effects/upscaler_current.glsl with its reprojection, ml_features.comp, ml_resolve.comp) around
the network, so that training unrolls the same computation the engine runs.

Tensors are [N, C, H, W] float32. Render-resolution inputs per frame:
    color   [N, 3, h, w]  display-linear 0..1 (the renderer's colour channel)
    depth   [N, 1, h, w]  device depth, 0 near .. 1 far
    motion  [N, 2, h, w]  render pixels, previous position - this position, jitter excluded
    jitter  [N, 2]        render pixels (engine/jitter.h convention)
Display resolution: the history [N, 4, H, W] (rgb linear working-space colour, a learned state).

Constants below must equal the C++ ones (effects/src/upscaler.cpp, upscaler_shared.h).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ML_FEATURES, ML_PARAMS = 16, 8
NARROW_FALLOFF = 4.0
CLAMP_GAMMA_MOVING = 2.0
CLAMP_GAMMA_STATIC = 4.0
DEPTH_TOLERANCE = 0.05
CAMERA_NEAR, CAMERA_FAR = 0.05, 200.0
MOVING_FULL_MOTION = 0.5  # display pixels per frame at which a pixel counts as fully moving (upscaler_shared.h)


# ---------------------------------------------------------------- jitter (engine/src/jitter.cpp)
def halton(index, base):
    f, r = 1.0, 0.0
    while index > 0:
        f /= base
        r += f * (index % base)
        index //= base
    return r


def phase_count(render_width, display_width):
    ratio = display_width / render_width
    return int(min(max(math.ceil(8.0 * ratio * ratio), 8), 1024))


def halton_jitter(frame, phases):
    i = frame % max(phases, 1) + 1
    return (halton(i, 2) - 0.5, halton(i, 3) - 0.5)


# ---------------------------------------------------------------- colour (upscaler_common.glsl)
def srgb_to_linear(c):
    return torch.where(c >= 0.04045, ((c.clamp(min=0.04045) + 0.055) / 1.055) ** 2.4, c / 12.92)


def linear_to_srgb(c):
    return torch.where(c >= 0.0031308, 1.055 * c.clamp(min=0.0031308) ** (1.0 / 2.4) - 0.055, c * 12.92)


def rgb_to_ycocg(c):
    r, g, b = c[:, 0:1], c[:, 1:2], c[:, 2:3]
    return torch.cat([0.25 * r + 0.5 * g + 0.25 * b, 0.5 * r - 0.5 * b, -0.25 * r + 0.5 * g - 0.25 * b], 1)


def ycocg_to_rgb(c):
    y, co, cg = c[:, 0:1], c[:, 1:2], c[:, 2:3]
    return torch.cat([y + co - cg, y + cg, y - co - cg], 1)


def working_space(c):
    """toWorkingSpace without the sRGB/HDR flags: non-finite -> 0, clamped to 0..1."""
    c = torch.where(torch.isfinite(c), c, torch.zeros_like(c))
    return c.clamp(0.0, 1.0)


def linear_depth(d):
    d = torch.where(torch.isfinite(d), d, torch.ones_like(d)).clamp(0.0, 1.0)
    return CAMERA_NEAR * CAMERA_FAR / (CAMERA_FAR - d * (CAMERA_FAR - CAMERA_NEAR)).clamp(min=1e-7)


def _gather(t, ys, xs):
    """t [N, C, h, w], integer maps ys/xs [N, H, W] -> [N, C, H, W]."""
    n, c, h, w = t.shape
    flat = t.reshape(n, c, h * w)
    idx = (ys * w + xs).reshape(n, 1, -1).expand(n, c, -1)
    return torch.gather(flat, 2, idx).reshape(n, c, *ys.shape[1:])


def _shift(t, dy, dx):
    """t[y + dy, x + dx] with clamped indices (texelFetch of clamp(p + d, 0, size - 1))."""
    h, w = t.shape[-2:]
    ys = (torch.arange(h, device=t.device) + dy).clamp(0, h - 1)
    xs = (torch.arange(w, device=t.device) + dx).clamp(0, w - 1)
    return t[..., ys, :][..., :, xs]


# ---------------------------------------------------------------- upscaler_current.glsl: reprojection
def reproject(depth, motion, jitter, prev_linear_depth, prev_jitter, history_valid):
    """-> (dilated motion [N,2,h,w], confidence [N,1,h,w], linear depth [N,1,h,w]). The shaders take
    the same values per output pixel, for the render pixel holding its centre."""
    z = linear_depth(depth)
    # The nearest sample is found on the device depth (0 near .. 1 far), as the shader does.
    d = torch.where(torch.isfinite(depth), depth, torch.ones_like(depth)).clamp(0.0, 1.0)
    nearest_d, nearest_m = d, _shift(motion, 0, 0)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            dq = _shift(d, dy, dx)
            closer = dq < nearest_d
            nearest_d = torch.where(closer, dq, nearest_d)
            nearest_m = torch.where(closer, _shift(motion, dy, dx), nearest_m)
    m = torch.where(torch.isfinite(nearest_m).all(1, keepdim=True), nearest_m, torch.zeros_like(nearest_m))
    n, _, h, w = z.shape
    confidence = torch.zeros_like(z)
    if history_valid and prev_linear_depth is not None:
        ph, pw = prev_linear_depth.shape[-2:]
        ys, xs = torch.meshgrid(torch.arange(h, device=z.device, dtype=z.dtype), torch.arange(w, device=z.device, dtype=z.dtype), indexing="ij")
        px = xs + 0.5 - jitter[:, 0].view(n, 1, 1) + m[:, 0] + prev_jitter[:, 0].view(n, 1, 1)
        py = ys + 0.5 - jitter[:, 1].view(n, 1, 1) + m[:, 1] + prev_jitter[:, 1].view(n, 1, 1)
        inside = (px >= 0) & (py >= 0) & (px < pw) & (py < ph)
        bx, by = torch.floor(px - 0.5).long(), torch.floor(py - 0.5).long()
        best = torch.zeros_like(px)
        for oy in (0, 1):
            for ox in (0, 1):
                qy, qx = (by + oy).clamp(0, ph - 1), (bx + ox).clamp(0, pw - 1)
                zp = _gather(prev_linear_depth, qy, qx)[:, 0]
                rel = (zp - z[:, 0]).abs() / torch.minimum(zp, z[:, 0]).clamp(min=1e-6)
                t = ((rel - DEPTH_TOLERANCE) / DEPTH_TOLERANCE).clamp(0.0, 1.0)
                best = torch.maximum(best, 1.0 - t * t * (3.0 - 2.0 * t))
        confidence = torch.where(inside, best, torch.zeros_like(best)).unsqueeze(1)
    return m, confidence, z


# ---------------------------------------------------------------- upscaler_current.glsl
def catmull_rom_taps(tex, uv):
    """upscaler_common.glsl's catmullRomTaps: per axis the three bilinear positions (t0, t12, t3,
    as 0..1 coordinates) and their weights, for tex [N,C,H,W] at uv [N,H',W',2]."""
    n, c, th, tw = tex.shape
    size = torch.tensor([tw, th], dtype=tex.dtype, device=tex.device)
    pos = uv * size
    centre = torch.floor(pos - 0.5) + 0.5
    f = pos - centre
    w0 = f * (-0.5 + f * (1.0 - 0.5 * f))
    w1 = 1.0 + f * f * (-2.5 + 1.5 * f)
    w2 = f * (0.5 + f * (2.0 - 1.5 * f))
    w3 = f * f * (-0.5 + 0.5 * f)
    w12 = w1 + w2
    return (centre - 1.0) / size, (centre + w2 / w12) / size, (centre + 2.0) / size, w0, w12, w3


def _bilinear_tap(tex, tx, ty):
    grid = torch.stack([tx[..., 0], ty[..., 1]], -1) * 2.0 - 1.0
    return F.grid_sample(tex, grid, mode="bilinear", padding_mode="border", align_corners=False)


def catmull_rom(tex, uv):
    """9-tap bilinear Catmull-Rom of tex [N,C,H,W] at uv [N,H',W',2] (0..1), clamp to edge."""
    t0, t12, t3, w0, w12, w3 = catmull_rom_taps(tex, uv)
    out = 0.0
    for ty, wy in ((t0, w0), (t12, w12), (t3, w3)):
        for tx, wx in ((t0, w0), (t12, w12), (t3, w3)):
            out = out + _bilinear_tap(tex, tx, ty) * (wx[..., 0] * wy[..., 1]).unsqueeze(1)
    return out


def catmull_rom5(tex, uv):
    """catmull_rom with its four corner taps dropped and the other five renormalised
    (upscaler_common.glsl's catmullRom5: the TAAU resolve's fetch, and the feature pass's for a
    model whose history_taps is 5)."""
    t0, t12, t3, w0, w12, w3 = catmull_rom_taps(tex, uv)
    out, total = 0.0, 0.0
    for (tx, wx), (ty, wy) in (((t12, w12), (t0, w0)), ((t0, w0), (t12, w12)), ((t12, w12), (t12, w12)),
                               ((t3, w3), (t12, w12)), ((t12, w12), (t3, w3))):
        weight = (wx[..., 0] * wy[..., 1]).unsqueeze(1)
        out, total = out + _bilinear_tap(tex, tx, ty) * weight, total + weight
    return out / total


def clip_to_box(history, lo, hi):
    centre, extent = 0.5 * (lo + hi), (0.5 * (hi - lo)).clamp(min=1e-5)
    offset = history - centre
    m = (offset / extent).abs().amax(1, keepdim=True)
    return torch.where(m > 1.0, centre + offset / m.clamp(min=1.0), history)


def gather_current(color, info_motion, info_conf, jitter, display_hw, sample_motion=None):
    """-> dict of narrow, narrow_weight, wide, box_lo, box_hi, motion, confidence at display res,
    and with sample_motion (this frame's motion [N,2,h,w], render pixels) "fastest": the longest
    motion among the 3x3 samples, render pixels (upscaler_current.glsl's FASTEST_MOTION)."""
    n, _, h, w = color.shape
    H, W = display_hw
    dev, dt = color.device, color.dtype
    rpd = torch.tensor([w / W, h / H], device=dev, dtype=dt)
    ys, xs = torch.meshgrid(torch.arange(H, device=dev, dtype=dt), torch.arange(W, device=dev, dtype=dt), indexing="ij")
    px = ((xs + 0.5) * rpd[0]).expand(n, H, W)
    py = ((ys + 0.5) * rpd[1]).expand(n, H, W)
    jx, jy = jitter[:, 0].view(n, 1, 1), jitter[:, 1].view(n, 1, 1)
    cx = torch.floor(px + jx).long().clamp(0, w - 1)
    cy = torch.floor(py + jy).long().clamp(0, h - 1)
    colour = working_space(color)
    sum_n = sum_w = m1 = m2 = fastest2 = 0.0
    w_n = w_w = 0.0
    if sample_motion is not None:
        sample_motion = torch.where(torch.isfinite(sample_motion).all(1, keepdim=True), sample_motion, torch.zeros_like(sample_motion))
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            s = _gather(colour, (cy + dy).clamp(0, h - 1), (cx + dx).clamp(0, w - 1))
            tx = (cx + dx).to(dt) + 0.5 - jx - px
            ty = (cy + dy).to(dt) + 0.5 - jy - py
            # Separable, as the shader computes them: the x factor times the y factor.
            wn = (torch.exp(-NARROW_FALLOFF * (tx / rpd[0]) ** 2) * torch.exp(-NARROW_FALLOFF * (ty / rpd[1]) ** 2)).unsqueeze(1)
            ww = (torch.exp(-1.5 * tx * tx) * torch.exp(-1.5 * ty * ty)).unsqueeze(1)
            sum_n = sum_n + s * wn
            sum_w = sum_w + s * ww
            w_n = w_n + wn
            w_w = w_w + ww
            y = rgb_to_ycocg(s)
            m1 = m1 + y
            m2 = m2 + y * y
            if sample_motion is not None:
                mq = _gather(sample_motion, (cy + dy).clamp(0, h - 1), (cx + dx).clamp(0, w - 1))
                fastest2 = torch.maximum(torch.as_tensor(fastest2, device=dev, dtype=dt), (mq * mq).sum(1, keepdim=True))
    wide = sum_w / w_w.clamp(min=1e-6)
    narrow = torch.where(w_n > 1e-4, sum_n / w_n.clamp(min=1e-12), wide)
    motion = _gather(info_motion, cy, cx)
    confidence = _gather(info_conf, cy, cx)
    moving = (torch.sqrt((motion[:, 0:1] / rpd[0]) ** 2 + (motion[:, 1:2] / rpd[1]) ** 2)).clamp(0.0, 1.0)
    gamma = CLAMP_GAMMA_STATIC + (CLAMP_GAMMA_MOVING - CLAMP_GAMMA_STATIC) * moving
    mean = m1 / 9.0
    sigma = (m2 / 9.0 - mean * mean).clamp(min=0.0).sqrt()
    cur = {"narrow": narrow, "narrow_weight": w_n, "wide": wide, "box_lo": mean - gamma * sigma, "box_hi": mean + gamma * sigma,
           "motion": motion, "confidence": confidence, "rpd": rpd}
    if sample_motion is not None:
        cur["fastest"] = torch.sqrt(fastest2)
    return cur


def fetch_history(history, cur, history_valid, taps=9):
    """taps: the Catmull-Rom fetch's, 9 (catmull_rom) or 5 (catmull_rom5), as the model's history_taps."""
    n, _, H, W = history.shape
    dev, dt = history.device, history.dtype
    ys, xs = torch.meshgrid(torch.arange(H, device=dev, dtype=dt), torch.arange(W, device=dev, dtype=dt), indexing="ij")
    rpd = cur["rpd"]
    u = (xs + 0.5 + cur["motion"][:, 0] / rpd[0]) / W
    v = (ys + 0.5 + cur["motion"][:, 1] / rpd[1]) / H
    inside = ((u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)).unsqueeze(1).to(dt)
    fetched = (catmull_rom5 if taps == 5 else catmull_rom)(history, torch.stack([u, v], -1))
    fetched = torch.where(torch.isfinite(fetched).all(1, keepdim=True), fetched, torch.zeros_like(fetched))
    raw = fetched[:, :3].clamp(0.0, 1.0)
    clipped = ycocg_to_rgb(clip_to_box(rgb_to_ycocg(raw), cur["box_lo"], cur["box_hi"])).clamp(0.0, 1.0)
    state = fetched[:, 3:4].clamp(0.0, 1e4)
    valid = inside * cur["confidence"] if history_valid else torch.zeros_like(inside)
    return {"raw": raw, "clipped": clipped, "state": state, "valid": valid}


# ---------------------------------------------------------------- ml_features.comp / ml_resolve.comp
def moving_state_cap(cur, history_weight_cap, moving_history_weight):
    """The largest history state (accumulated weight / cap) a pixel keeps: 1 where the content is
    still, moving_history_weight / history_weight_cap once the fastest of its 3x3 samples moves
    MOVING_FULL_MOTION display pixels per frame, linear between (ml_features.comp with
    MOVING_HISTORY_CAP; the TAAU resolve caps its weight the same way)."""
    if not math.isfinite(history_weight_cap):
        # The effect refuses such a model too: the cap is a fraction of the accumulating resolve's.
        raise ValueError("a moving pixels' history cap needs the accumulating resolve (a finite history_weight_cap)")
    display_motion = cur["fastest"] / cur["rpd"][0]
    t = (display_motion / MOVING_FULL_MOTION).clamp(0.0, 1.0)
    return (history_weight_cap + (moving_history_weight - history_weight_cap) * t) / history_weight_cap


def features(cur, hist, ratio_feature_max=math.inf, history_weight_cap=math.inf, moving_history_weight=math.inf):
    """ratio_feature_max: the clamp of the ratio feature (the model's "vkml.ratio_feature_max").
    moving_history_weight (finite only with a finite history_weight_cap, the accumulating resolve;
    the model's "vkml.moving_history_weight"): the history state of feature 14 is capped by
    moving_state_cap(), so that a moving pixel's history keeps at most that much sample weight."""
    rpd_x = cur["rpd"][0].clamp(max=ratio_feature_max).expand_as(hist["valid"])
    state = hist["state"].clamp(0.0, 1.0)
    if math.isfinite(moving_history_weight):
        state = torch.minimum(state, moving_state_cap(cur, history_weight_cap, moving_history_weight))
    return torch.cat([linear_to_srgb(cur["narrow"]), cur["narrow_weight"], linear_to_srgb(cur["wide"]), linear_to_srgb(hist["raw"]),
                      linear_to_srgb(hist["clipped"]), hist["valid"], hist["valid"] * state, rpd_x], 1)


ACCUMULATE_EPSILON = 1e-4  # keeps a pixel without history or samples on the current estimate
GAIN_LOG_RANGE = (-8.0, 4.0)  # the clamp of p7, the log of the current samples' gain


def resolve(feat, params, history_weight_cap=math.inf):
    """-> (colour linear [N,3,H,W], state [N,1,H,W]).

    history_weight_cap infinite (the model has no "vkml.history_weight_cap"): the blend resolve,
        colour = mix(history, current, sigmoid(p0)), state = sigmoid(p6).
    finite: the accumulating resolve. The state holds the history's accumulated sample weight
    W / cap (feature 14 reads it back, times the history's validity), and
        h = W trust, c = g w_n   (trust = sigmoid(-p0), g = exp(p7), w_n = the narrow weight sum)
        colour = mix(history, current, (c + eps) / (h + c + eps)), state = min(h + c, cap) / cap,
    so that with trust 1 and g 1 a still pixel averages every sample it has had, each weighted by
    its distance to the pixel centre (tools/train/README.md, "Run r20")."""
    narrow = srgb_to_linear(feat[:, 0:3].clamp(0, 1))
    wide = srgb_to_linear(feat[:, 4:7].clamp(0, 1))
    raw = srgb_to_linear(feat[:, 7:10].clamp(0, 1))
    clipped = srgb_to_linear(feat[:, 10:13].clamp(0, 1))
    valid = feat[:, 13:14]
    p = params.clamp(-30.0, 30.0)
    current = wide + (narrow - wide) * torch.sigmoid(p[:, 2:3])
    history = clipped + (raw - clipped) * torch.sigmoid(p[:, 1:2])
    if math.isfinite(history_weight_cap):
        kept = history_weight_cap * feat[:, 14:15].clamp(0.0, 1.0) * torch.sigmoid(-p[:, 0:1])
        added = torch.exp(params[:, 7:8].clamp(*GAIN_LOG_RANGE)) * feat[:, 3:4].clamp(min=0.0)
        alpha = (added + ACCUMULATE_EPSILON) / (kept + added + ACCUMULATE_EPSILON)
        state = (kept + added).clamp(max=history_weight_cap) / history_weight_cap
    else:
        alpha = torch.where(valid > 0, torch.sigmoid(p[:, 0:1]), torch.ones_like(valid))
        state = torch.sigmoid(p[:, 6:7])
    colour = (history + (current - history) * alpha + 0.25 * torch.tanh(params[:, 3:6])).clamp(0.0, 1.0)
    return colour, state


# ---------------------------------------------------------------- the network
class TemporalNet(nn.Module):
    """params = pixel_shuffle(net(pixel_unshuffle(features, r)), r): the network runs at 1/r of the
    display resolution. Exported as 'features' [1, 16 r^2, h, w] -> 'params' [1, 8 r^2, h, w].

    Layers: a `first`x`first` convolution 16 r^2 -> width, `depth` - 1 3x3 convolutions width ->
    width (ReLU after each), a 1x1 convolution width -> 8 r^2.

    `ratio_feature_max` (not a parameter): the largest render / display width ratio of its training
    data. Exported as the ONNX metadata "vkml.ratio_feature_max"; the effect and the mirror clamp
    the ratio feature to it, so a ratio nearer 1 than any it was trained at (1x) reads as the
    nearest one it was (infinity: no clamp).

    `history_weight_cap` (not a parameter): infinity for the blend resolve, or the cap of the
    accumulating one (resolve()). Exported as the ONNX metadata "vkml.history_weight_cap".

    `history_taps` (not a parameter): the history fetch its features are computed with, 9 taps
    (catmull_rom, the default) or 5 (catmull_rom5, 0.020 ms less at 4K on an H200). Exported as the
    ONNX metadata "vkml.history_taps" when it is 5.

    `moving_history_weight` (not a parameter; accumulating resolve only): infinity, or the sample
    weight a moving pixel's history keeps at most (features(), moving_state_cap()). Exported as the
    ONNX metadata "vkml.moving_history_weight"."""

    def __init__(self, width=32, depth=3, unshuffle=2, first=3):
        super().__init__()
        self.unshuffle = unshuffle
        self.ratio_feature_max = math.inf
        self.history_weight_cap = math.inf
        self.history_taps = 9
        self.moving_history_weight = math.inf
        cin, cout = ML_FEATURES * unshuffle * unshuffle, ML_PARAMS * unshuffle * unshuffle
        layers = [nn.Conv2d(cin, width, first, padding=first // 2), nn.ReLU()]
        for _ in range(depth - 1):
            layers += [nn.Conv2d(width, width, 3, padding=1), nn.ReLU()]
        layers += [nn.Conv2d(width, cout, 1)]
        self.body = nn.Sequential(*layers)
        last = self.body[-1]
        with torch.no_grad():  # start as a plain temporal accumulator
            last.weight.mul_(0.1)
            bias = torch.tensor([-1.5, -2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 0.0])
            last.bias.copy_(bias.repeat_interleave(unshuffle * unshuffle))

    def forward(self, unshuffled):
        return self.body(unshuffled)


def run_network(net, feat):
    """The network on display-resolution features. As the effect does, a size that is not a multiple
    of 4 r (r: the unshuffle factor) is padded up to one with copies of the edge pixels' features
    (ml_features.comp clamps the pixel it computes), and the output cropped back."""
    r = net.unshuffle
    h, w = feat.shape[-2:]
    pad_h, pad_w = -h % (4 * r), -w % (4 * r)
    if pad_h or pad_w:
        feat = F.pad(feat, (0, pad_w, 0, pad_h), mode="replicate")
    return F.pixel_shuffle(net(F.pixel_unshuffle(feat, r)), r)[..., :h, :w]


class TemporalUpscaler:
    """Unrolls frames: step() takes one frame's render-res inputs and returns the display-res
    output (sRGB-encoded 0..1, what the PNG frames hold) as the effect does."""

    def __init__(self, net, display_hw, teacher=None):
        """teacher: another network (training only). When set, step() also resolves the frame with
        the teacher's parameters on the very same features and history, and leaves that output
        (sRGB 0..1, no gradient) in `teacher_output`: a dense per-pixel target for distillation."""
        self.net = net
        self.teacher = teacher
        self.teacher_output = None
        self.display_hw = display_hw
        self.history = None
        self.prev_linear_depth = None
        self.prev_jitter = None

    def reset(self):
        self.history = None

    def step(self, color, depth, motion, jitter, reset=False):
        n = color.shape[0]
        H, W = self.display_hw
        valid = self.history is not None and not reset
        prev_jitter = self.prev_jitter if valid else jitter
        m, conf, z = reproject(depth, motion, jitter, self.prev_linear_depth if valid else None, prev_jitter, valid)
        moving_cap = math.isfinite(self.net.moving_history_weight)
        cur = gather_current(color, m, conf, jitter, self.display_hw, motion if moving_cap else None)
        history = self.history if valid else torch.zeros(n, 4, H, W, dtype=color.dtype, device=color.device)
        hist = fetch_history(history, cur, valid, self.net.history_taps)
        feat = features(cur, hist, self.net.ratio_feature_max, self.net.history_weight_cap, self.net.moving_history_weight)
        params = run_network(self.net, feat)
        colour, state = resolve(feat, params, self.net.history_weight_cap)
        if self.teacher is not None:
            with torch.no_grad():
                teacher_params = run_network(self.teacher, feat.detach())
                self.teacher_output = linear_to_srgb(resolve(feat.detach(), teacher_params, self.teacher.history_weight_cap)[0])
        self.history = torch.cat([colour, state], 1)
        self.prev_linear_depth = z
        self.prev_jitter = jitter
        return linear_to_srgb(colour)

    def detach(self):
        if self.history is not None:
            self.history = self.history.detach()
