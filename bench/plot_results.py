#!/usr/bin/env python3
"""Plots time vs resolution, ours vs the PyTorch peer, from the benchmark JSONs:
bench/results/time_vs_resolution.png (one panel per network; x: output pixels, y: median ms).
Ours: each ml_bench precision/path; peer: the fp32 and best fp16 configurations plus the best
overall. Needs matplotlib (Debian: python3-matplotlib); CI does not plot.

  python3 bench/plot_results.py                      # newest bench/results/*_{ml_bench,peer_torch}.json
  python3 bench/plot_results.py --ml A.json --peer B.json --out plot.png
"""
import argparse
import os
import sys

import results_io as rio


def series(ml, peer):
    """{network: {label: [(output pixels, ms), ...]}}: output = 2x the input for x2 networks."""
    out = {}

    def add(net, label, res, value):
        scale = 4 if net.endswith("_x2") else 1
        out.setdefault(net, {}).setdefault(label, []).append((rio.pixels(res) * scale, value))

    for name, rows in rio.ours_by_case(ml).items():
        first = next(iter(rows.values()))
        if first.get("group") != "network":
            continue
        for precision, r in rows.items():
            add(rio.network(name), f"ours {precision}", first["resolution"], r["median_ms"])
    if peer:
        for name, rows in rio.peer_by_case(peer).items():
            net, res = rio.network(name), name.split()[-1]
            fp32 = rio.best([r for c, r in rows.items() if c.startswith("fp32")])
            fp16 = rio.best([r for c, r in rows.items() if c.startswith("fp16")])
            if fp32:
                add(net, "PyTorch fp32 (best)", res, fp32["median_ms"])
            if fp16:
                add(net, "PyTorch fp16 (best)", res, fp16["median_ms"])
            best = rio.best(rows.values())
            if best:
                add(net, "PyTorch best overall", res, best["median_ms"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ml", nargs="+", default=rio.latest_set("ml_bench"), help="ml_bench JSON(s), merged")
    ap.add_argument("--peer", nargs="+", default=rio.latest_peers(), help="peer_torch.py JSON(s), merged")
    ap.add_argument("--out", default=os.path.join(rio.RESULTS_DIR, "time_vs_resolution.png"))
    args = ap.parse_args()
    if not args.ml:
        sys.exit("plot_results: no ml_bench JSON (give --ml or put <date>_ml_bench.json in bench/results)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        sys.exit("plot_results: matplotlib is missing (Debian: apt-get install python3-matplotlib)")
    ml = rio.load_ml(args.ml)
    peer = rio.load_peers(args.peer)
    data = series(ml, peer)
    if not data:
        sys.exit("plot_results: no network results in " + ", ".join(args.ml))
    nets = sorted(data)
    fig, axes = plt.subplots(1, len(nets), figsize=(5.5 * len(nets), 4.5), squeeze=False)
    for ax, net in zip(axes[0], nets):
        for label, points in sorted(data[net].items()):
            points.sort()
            xs = [p[0] / 1e6 for p in points]
            ys = [p[1] for p in points]
            ax.plot(xs, ys, marker="o", linestyle="--" if label.startswith("PyTorch") else "-", label=label)
        ax.set_title(net)
        ax.set_xlabel("output megapixels")
        ax.set_ylabel("median ms per frame")
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks(sorted({p[0] / 1e6 for points in data[net].values() for p in points}))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    device = ml.get("device", "?")
    sources = ", ".join(os.path.basename(p) for p in [*args.ml, *args.peer] if p)
    fig.suptitle(f"Time vs resolution on {device}: ml_bench (Vulkan) vs PyTorch, same run ({sources})", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"plot_results: wrote {args.out}")


if __name__ == "__main__":
    main()
