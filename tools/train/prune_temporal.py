#!/usr/bin/env python3
"""Prunes a trained temporal upscaler network to a narrower one of the same depth: the starting
point (--init) for distilling the wide network into a cheaper shape, instead of starting from
random weights (run r25, tools/train/README.md).

    prune_temporal.py --weights assets/upscaler_temporal.npz --width 16 --out narrow.npz DATA_DIR...

Each hidden layer keeps the `width` channels that carry the most into the next layer: the RMS of
the channel's activation over the calibration sequences (DATA_DIR: rendered sequences of the
training split, as render_temporal.py writes them) times the norm of the next layer's weights that
read it. The mean contribution of each dropped channel is folded into the next layer's bias (exact
for a constant activation, away from the zero-padded border), so the narrow network starts close to
the wide one. The metadata (resolve, ratio clamp) is kept; "pruned_from" names the source."""
import argparse
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import temporal  # noqa: E402
import train_temporal  # noqa: E402


def run_sequences(net, sequences):
    """Runs the effect with `net` over every frame of every sequence; -> PSNR (dB) of the frames
    from the third on against the reference (what training counts)."""
    mse, frames = 0.0, 0
    with torch.no_grad():
        for seq in sequences:
            up = temporal.TemporalUpscaler(net, seq.reference.shape[-2:])
            for t in range(seq.frames):
                def frame(x):
                    return x[t:t + 1].float()
                out = up.step(frame(seq.color), frame(seq.depth), frame(seq.motion), torch.from_numpy(seq.jitter[t:t + 1]),
                              reset=(t == 0 or t in seq.cuts))
                if t >= 2:
                    mse += float(((out - frame(seq.reference) / 255.0) ** 2).mean())
                    frames += 1
    return 10 * math.log10(1.0 / max(mse / max(frames, 1), 1e-10))


def activation_moments(net, sequences):
    """Per ReLU of net.body: (mean, RMS) of each channel over every frame of every sequence."""
    relus = [m for m in net.body if isinstance(m, torch.nn.ReLU)]
    sums = [None] * len(relus)
    counts = [0] * len(relus)

    def hook(i):
        def record(_module, _inputs, out):
            a = out.detach().double()
            s = torch.stack([a.sum(dim=(0, 2, 3)), (a * a).sum(dim=(0, 2, 3))])
            sums[i] = s if sums[i] is None else sums[i] + s
            counts[i] += a.numel() // a.shape[1]
        return record

    handles = [m.register_forward_hook(hook(i)) for i, m in enumerate(relus)]
    try:
        run_sequences(net, sequences)
    finally:
        for h in handles:
            h.remove()
    if any(c == 0 for c in counts):
        raise SystemExit("prune_temporal.py: the calibration sequences produced no activations")
    return [(s[0] / c, torch.sqrt(s[1] / c)) for s, c in zip(sums, counts)]


def prune(net, width, moments):
    """A copy of net with `width` channels per hidden layer (see the module docstring)."""
    convs = [m for m in net.body if isinstance(m, torch.nn.Conv2d)]
    first = convs[0].kernel_size[0]
    narrow = temporal.TemporalNet(width, len(convs) - 1, net.unshuffle, first)
    narrow_convs = [m for m in narrow.body if isinstance(m, torch.nn.Conv2d)]
    keep_in = torch.arange(convs[0].in_channels)
    for i, conv in enumerate(convs):
        w, b = conv.weight.detach().double()[:, keep_in], conv.bias.detach().double().clone()
        if i > 0:  # fold the mean output of the previous layer's dropped channels into this bias
            mean = moments[i - 1][0]
            dropped = torch.ones(conv.in_channels, dtype=torch.bool)
            dropped[keep_in] = False
            b += (conv.weight.detach().double()[:, dropped].sum(dim=(2, 3)) * mean[dropped]).sum(dim=1)
        if i + 1 < len(convs):
            nxt = convs[i + 1].weight.detach().double()
            importance = moments[i][1] * nxt.pow(2).sum(dim=(0, 2, 3)).sqrt()
            keep_out = torch.sort(torch.argsort(importance, descending=True)[:width]).values
        else:
            keep_out = torch.arange(conv.out_channels)
        with torch.no_grad():
            narrow_convs[i].weight.copy_(w[keep_out].float())
            narrow_convs[i].bias.copy_(b[keep_out].float())
        keep_in = keep_out
    narrow.ratio_feature_max = net.ratio_feature_max
    narrow.history_weight_cap = net.history_weight_cap
    narrow.history_taps = net.history_taps
    narrow.moving_history_weight = net.moving_history_weight
    return narrow


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="calibration sequences (training split only)")
    ap.add_argument("--weights", required=True, help="the wide network (.npz)")
    ap.add_argument("--width", type=int, required=True, help="channels per hidden layer of the narrow network")
    ap.add_argument("--out", required=True, help="the narrow network (.npz)")
    args = ap.parse_args()
    net, meta = train_temporal.load_net(args.weights)
    if not 1 <= args.width < meta["width"]:
        raise SystemExit(f"--width must be 1..{meta['width'] - 1} (the network has {meta['width']}), got {args.width}")
    if os.path.abspath(args.out) == os.path.abspath(args.weights):
        raise SystemExit("--out would overwrite --weights")
    sequences = train_temporal.load_sequences(args.data, "cpu")
    print(f"[prune] {len(sequences)} calibration sequences, {sum(s.frames for s in sequences)} frames", flush=True)
    narrow = prune(net, args.width, activation_moments(net, sequences))
    print(f"[prune] calibration PSNR: width {meta['width']} {run_sequences(net, sequences):.3f} dB, "
          f"pruned to {args.width} {run_sequences(narrow, sequences):.3f} dB", flush=True)
    out_meta = dict(meta, width=args.width, pruned_from=os.path.basename(args.weights), steps=0)
    train_temporal.save_npz(narrow, args.out, out_meta)
    print(f"[prune] {args.weights} (width {meta['width']}) -> {args.out} (width {args.width})")


if __name__ == "__main__":
    main()
