#!/usr/bin/python3
"""Writes a glTF scene whose G-buffer pass shades every pixel exactly once, for telling the
G-buffer pass's cost per pixel apart from the cost of overdraw (bench/RESULTS.md, "The native
G-buffer pass").

    make_overdraw_scene.py OUT.glb [--layers N]

The scene is N nested boxes (default 1) with inward-facing, single-sided walls and an untextured
material. Seen from outside, as frame_bench's automatic orbit sees a glTF scene, back-face culling
leaves only the far walls, so a pixel is covered by at most N walls and by the sky where no wall
is: with one box, exactly one fragment per pixel. With N boxes the walls are drawn innermost
first, so every outer wall fails the depth test where an inner one was drawn (early depth
rejection does the work), or outermost first (--back-to-front), so every wall is shaded: N
fragments per covered pixel. numpy only; deterministic.
"""
import argparse
import json
import struct

import numpy as np

# Six faces of the unit cube, each as 4 corners wound so that the face is front-facing when seen
# from inside (normal pointing inward).
FACES = [
    ([1, -1, -1], [1, -1, 1], [1, 1, 1], [1, 1, -1], [-1, 0, 0]),     # +x wall, normal -x
    ([-1, -1, 1], [-1, -1, -1], [-1, 1, -1], [-1, 1, 1], [1, 0, 0]),  # -x wall
    ([-1, 1, -1], [1, 1, -1], [1, 1, 1], [-1, 1, 1], [0, -1, 0]),     # +y (ceiling)
    ([-1, -1, 1], [1, -1, 1], [1, -1, -1], [-1, -1, -1], [0, 1, 0]),  # -y (floor)
    ([1, -1, 1], [-1, -1, 1], [-1, 1, 1], [1, 1, 1], [0, 0, -1]),     # +z wall
    ([-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [0, 0, 1]),  # -z wall
]


def box(scale):
    positions, normals, indices = [], [], []
    for a, b, c, d, n in FACES:
        base = len(positions)
        for corner in (a, b, c, d):
            positions.append([scale * v for v in corner])
            normals.append(n)
        # Counter-clockwise seen from inside, where the normal points.
        indices += [base, base + 2, base + 1, base, base + 3, base + 2]
    return np.array(positions, np.float32), np.array(normals, np.float32), np.array(indices, np.uint16)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=1, help="nested boxes (1..16)")
    ap.add_argument("--back-to-front", action="store_true", help="draw the outermost box first")
    args = ap.parse_args()
    if not 1 <= args.layers <= 16:
        raise SystemExit(f"--layers {args.layers} is out of range [1, 16]")
    scales = [10.0 * (1.0 + 0.1 * i) for i in range(args.layers)]
    if args.back_to_front:
        scales.reverse()
    blob, views, accessors, meshes, nodes = b"", [], [], [], []

    def add(array, target, kind, count, minmax=None):
        nonlocal blob
        while len(blob) % 4:
            blob += b"\0"
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": array.nbytes, "target": target})
        blob += array.tobytes()
        acc = {"bufferView": len(views) - 1, "componentType": 5126 if array.dtype == np.float32 else 5123, "count": count, "type": kind}
        if minmax is not None:
            acc["min"], acc["max"] = minmax
        accessors.append(acc)
        return len(accessors) - 1

    for i, s in enumerate(scales):
        p, n, idx = box(s)
        pa = add(p, 34962, "VEC3", len(p), (p.min(0).tolist(), p.max(0).tolist()))
        na = add(n, 34962, "VEC3", len(n))
        ia = add(idx, 34963, "SCALAR", len(idx))
        meshes.append({"primitives": [{"attributes": {"POSITION": pa, "NORMAL": na}, "indices": ia, "material": 0}]})
        nodes.append({"mesh": i, "name": f"box{i}"})
    doc = {"asset": {"version": "2.0", "generator": "vkml bench/make_overdraw_scene.py"},
           "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes, "meshes": meshes,
           "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.6, 0.55, 0.5, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.7}}],
           "accessors": accessors, "bufferViews": views, "buffers": [{"byteLength": len(blob)}]}
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    blob += b"\0" * (-len(blob) % 4)
    out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(blob))
    out += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(blob), 0x004E4942) + blob
    with open(args.out, "wb") as f:
        f.write(out)
    print(f"wrote {args.out}: {args.layers} nested box(es), {'outermost' if args.back_to_front else 'innermost'} first")


if __name__ == "__main__":
    main()
