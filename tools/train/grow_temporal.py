#!/usr/bin/env python3
"""Deepens a trained temporal upscaler network by one 3x3 layer that starts as the identity: the
starting point (--init) for training a deeper shape from a trained one instead of from random
weights (run r28, tools/train/README.md).

    grow_temporal.py --weights assets/upscaler_temporal_fast.npz --out deeper.npz

The new layer (width -> width, 3x3) goes after the last hidden 3x3 layer, before the 1x1 output
layer, with the centre tap of each channel's own filter 1 and every other weight and bias 0. Its
input is a ReLU's output, so ReLU(identity(x)) = x and the grown network computes exactly what the
source does until training moves it (Net2Net's deeper network, Chen et al. 2016). The metadata is
kept; "grown_from" names the source and "steps" restarts at 0."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import temporal  # noqa: E402
import train_temporal  # noqa: E402


def grow(net):
    """-> a TemporalNet one 3x3 layer deeper than `net` computing the same function."""
    width = net.body[-1].in_channels
    first = net.body[0].kernel_size[0]
    depth = (len(net.body) - 1) // 2
    deeper = temporal.TemporalNet(width, depth + 1, net.unshuffle, first)
    for attr in ("ratio_feature_max", "history_weight_cap", "history_taps", "moving_history_weight"):
        setattr(deeper, attr, getattr(net, attr))
    with torch.no_grad():
        for i in range(0, 2 * depth - 1, 2):  # the source's 3x3 layers, in place
            deeper.body[i].load_state_dict(net.body[i].state_dict())
        identity = deeper.body[2 * depth]
        identity.weight.zero_()
        identity.bias.zero_()
        for c in range(width):
            identity.weight[c, c, 1, 1] = 1.0
        deeper.body[2 * depth + 2].load_state_dict(net.body[-1].state_dict())
    return deeper


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True, help="the trained network (.npz, train_temporal.py)")
    ap.add_argument("--out", required=True, help="where the grown network goes (.npz)")
    args = ap.parse_args()
    if os.path.abspath(args.out) == os.path.abspath(args.weights):
        raise SystemExit("--out would overwrite --weights: give the grown network a file of its own")
    net, meta = train_temporal.load_net(args.weights)
    deeper = grow(net)
    x = torch.rand(1, net.body[0].in_channels, 12, 10)
    with torch.no_grad():
        gap = float((deeper(x) - net(x)).abs().max())
    if gap > 1e-5:
        raise SystemExit(f"[grow] the grown network differs from the source by {gap:g}: not an identity layer")
    out_meta = dict(meta, depth=meta["depth"] + 1, grown_from=os.path.basename(args.weights), steps=0)
    train_temporal.save_npz(deeper, args.out, out_meta)
    print(f"[grow] {args.weights} (depth {meta['depth']}) -> {args.out} (depth {meta['depth'] + 1}; largest difference {gap:.1e})")


if __name__ == "__main__":
    main()
