#!/usr/bin/env python3
"""Writes the same-run comparison tables (ours vs the PyTorch peer, ratio; ceilings; frame
times) from the benchmark JSONs into bench/RESULTS.md, between the markers
<!-- generated:begin --> and <!-- generated:end -->. Every figure comes from the JSONs; nothing
is typed in.

  python3 bench/make_results.py                      # newest bench/results/*_{ml_bench,peer_torch,frame_bench,cpu_bench}.json
                                                     # (all <date>_ml_bench*.json / _peer_torch*.json of that date, merged)
  python3 bench/make_results.py --ml A.json --peer B.json [B2.json] --frame C.json --cpu D.json [--out RESULTS.md | --print]
"""
import argparse
import os
import sys

import results_io as rio

BEGIN, END = "<!-- generated:begin -->", "<!-- generated:end -->"


def ms(v):
    return "–" if v is None else (f"{v:.3f}" if v < 1 else f"{v:.2f}")


def pct(v):
    return "–" if v is None else f"{100 * v:.0f}%"


def ratio(ours, peer):
    if ours is None or peer is None or ours <= 0 or peer <= 0:
        return "–"
    return f"{ours / peer:.2f}x slower" if ours >= peer else f"{peer / ours:.2f}x faster"


def network_table(ml, peer):
    ours, theirs = rio.ours_by_case(ml), rio.peer_by_case(peer) if peer else {}
    labels = []
    for rows in ours.values():
        for p in rows:
            if p not in labels:
                labels.append(p)
    cases = [n for n, rows in ours.items() if next(iter(rows.values()))["group"] == "network"]
    cases.sort(key=lambda n: (rio.network(n), rio.pixels(n.split()[-1])))
    head = ("| network | input | " + " | ".join(f"ours {p}" for p in labels)
            + " | ours best: % of ceiling | best peer (config) | ours best / best peer |")
    lines = [head, "|" + "---|" * 2 + "---:|" * (len(labels) + 1) + "---|---:|"]
    for n in cases:
        rows = ours[n]
        mine = rio.best(rows.values())
        peer_best = rio.best(theirs.get(n, {}).values())
        peer_text = f"{ms(peer_best['median_ms'])} ({peer_best['config']})" if peer_best else "–"
        cells = " | ".join(ms(rows[p]["median_ms"]) if p in rows else "–" for p in labels)
        bound = bound_fraction(mine) if mine else None
        lines.append(f"| {rio.network(n)} | {n.split()[-1]} | {cells} | {pct(bound)} | {peer_text} | "
                     f"{ratio(mine['median_ms'] if mine else None, peer_best['median_ms'] if peer_best else None)} |")
    return lines


def peer_table(peer):
    theirs = rio.peer_by_case(peer)
    configs = []
    for rows in theirs.values():
        for c in rows:
            if c not in configs:
                configs.append(c)
    lines = ["| network | input | " + " | ".join(configs) + " |", "|---|---|" + "---:|" * len(configs)]
    for n in sorted(theirs, key=lambda n: (rio.network(n), rio.pixels(n.split()[-1]))):
        lines.append(f"| {rio.network(n)} | {n.split()[-1]} | " + " | ".join(ms(theirs[n][c]["median_ms"]) if c in theirs[n] else "–" for c in configs) + " |")
    return lines


def bound_fraction(row):
    """The nearest ceiling: tensor-core GEMM peak for runs with tensor cores (their FLOPs are not
    bounded by the FMA peak), FMA peak otherwise, or copy bandwidth, whichever is reached most."""
    f = row.get("fraction") or {}
    keys = ["tensor", "bandwidth"] if row.get("coop") and f.get("tensor") is not None else ["fma", "bandwidth"]
    return max([f[k] for k in keys if f.get(k) is not None], default=None)


def op_table(ml):
    lines = ["| case | precision | ms | TFLOP/s | GB/s | % FMA peak | % tensor peak | % copy bandwidth |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in ml.get("results", []):
        if r.get("group") == "network":
            continue
        f = r.get("fraction", {})
        tflops = f"{r['tflops']:.2f}" if r.get("gflop") else "–"
        gbs = f"{r['gbs']:.0f}" if r.get("gbs") is not None else "–"
        lines.append(f"| {r['name']} | {r['precision']} | {ms(r['median_ms'])} | {tflops} | {gbs} | "
                     f"{pct(f.get('fma'))} | {pct(f.get('tensor'))} | {pct(f.get('bandwidth'))} |")
    return lines


def ceilings_lines(ml):
    c = ml.get("ceilings")
    if not c:
        return [f"vkCmdCopyBuffer: {ml.get('copy_bandwidth_gbs', 0):.0f} GB/s (older ml_bench: no other ceilings)."]

    def v(key, unit):
        return "not measured" if c.get(key) is None else f"{c[key]:.1f} {unit}"
    return [
        "| ceiling | measured |", "|---|---:|",
        f"| vkCmdCopyBuffer (read + write) | {v('copyBufferGBs', 'GB/s')} |",
        f"| compute copy, vec4 (read + write) | {v('computeCopyGBs', 'GB/s')} |",
        f"| fp32 FMA | {v('fp32FmaTflops', 'TFLOP/s')} |",
        f"| fp16 FMA | {v('fp16FmaTflops', 'TFLOP/s')} |",
        f"| fp16 cooperative-matrix GEMM | {v('coopGemmTflops', 'TFLOP/s')} |",
    ]


def frame_table(frame):
    lines = ["| configuration | render | x2 by | denoiser | frame ms | vs native | top passes (ms) |", "|---|---|---|---|---:|---:|---|"]
    native = {r["output"]: r["frame_ms"] for r in frame["results"] if r["upscaler"] == "none" and r.get("denoiser", "none") == "none"}
    for r in frame["results"]:
        n = native.get(r["output"])
        speed = f"{n / r['frame_ms']:.2f}x" if n and r["frame_ms"] > 0 else "–"
        top = sorted(r["passes"], key=lambda p: -p["median_ms"])[:4]
        lines.append(f"| {r['name']} | {r['render']} | {r['upscaler']} | {r.get('denoiser', 'none')} | {ms(r['frame_ms'])} | {speed} | "
                     + ", ".join(f"{p['name']} {ms(p['median_ms'])}" for p in top) + " |")
    return lines


def cpu_table(cpu):
    lines = ["| benchmark | wall µs | CPU µs | heap allocations per iteration |", "|---|---:|---:|---:|"]
    for b in cpu.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}.get(b.get("time_unit", "ns"), 1.0)
        allocs = b.get("allocs_per_iter")
        lines.append(f"| {b['name']} | {b['real_time'] * scale:.2f} | {b['cpu_time'] * scale:.2f} | "
                     + ("–" if allocs is None else f"{allocs:g}") + " |")
    return lines


def generate(ml_paths, peer_paths, frame_path, cpu_path=None):
    ml = rio.load_ml(ml_paths)
    peer = rio.load_peers(peer_paths)
    frame = rio.load(frame_path) if frame_path else None
    cpu = rio.load(cpu_path) if cpu_path else None
    out = [BEGIN, "", "Generated by `bench/make_results.py` from "
           + ", ".join(f"`{os.path.relpath(p, rio.HERE)}`" for p in [*ml_paths, *peer_paths, frame_path, cpu_path] if p) + ".", ""]
    out += [f"Ours: {ml.get('device', '?')}, median of {ml.get('runs', '?')} runs. "
            + (f"Peer: {peer.get('device', '?')}, torch {peer.get('torch', '?')}, median of {peer.get('runs', '?')} runs." if peer else "No peer JSON."), ""]
    out += ["### Whole networks (ms per frame, lower is better)", ""] + network_table(ml, peer) + [""]
    out += ["\"% of ceiling\": the best row's TFLOP/s over the tensor-core GEMM peak when it ran with cooperative "
            "matrix (else over the FMA peak), or its minimum bytes over copy bandwidth, whichever is larger.", ""]
    if peer:
        out += ["### Peer configurations (ms)", ""] + peer_table(peer) + [""]
    out += ["### Device ceilings (measured by ml_bench)", ""] + ceilings_lines(ml) + [""]
    ops = op_table(ml)
    if len(ops) > 2:
        out += ["### Operators (fraction of the ceilings above)", ""] + ops + [""]
    if frame:
        out += ["### Frame time: native vs half resolution + x2 (frame_bench)", ""] + frame_table(frame) + [""]
    if cpu:
        out += ["### CPU side (cpu_bench, Google Benchmark)", ""] + cpu_table(cpu) + [""]
    out.append(END)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ml", nargs="+", default=rio.latest_set("ml_bench"), help="ml_bench JSON(s), merged")
    ap.add_argument("--peer", nargs="+", default=rio.latest_peers(), help="peer_torch.py JSON(s), merged")
    ap.add_argument("--frame", default=rio.latest("frame_bench"))
    ap.add_argument("--cpu", default=rio.latest("cpu_bench"))
    ap.add_argument("--out", default=os.path.join(rio.HERE, "RESULTS.md"))
    ap.add_argument("--print", action="store_true", help="print the section instead of writing --out")
    args = ap.parse_args()
    if not args.ml:
        sys.exit("make_results: no ml_bench JSON (give --ml or put <date>_ml_bench.json in bench/results)")
    section = generate(args.ml, args.peer, args.frame, args.cpu)
    if args.print:
        print(section)
        return
    text = open(args.out).read()
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Same-run tables\n\n" + section + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(f"make_results: wrote the generated section of {args.out}")


if __name__ == "__main__":
    main()
