#!/usr/bin/env python3
"""Varied procedural glTF scenes (.glb with embedded PNG textures) and camera paths for them.

Each scene is built to hold what upscalers get wrong: thin geometry (poles, wires, window
frames, chain-link), high-frequency textures (tiles, bricks, checkers, stripes), text-like detail
(signs, posters, book spines with rows of generated glyphs) and alpha-tested edges (foliage
cards, cut-out letters, chain-link fences, window panes) as glTF alphaMode MASK.

Kinds (every one parameterised by a seed; the same seed gives the same bytes):
  street   buildings with window-grid facades and signs along a road, lamp posts, overhead wires, trees
  poles    a field of power poles with sagging wires, chain-link fences, foliage
  room     a room with a tiled floor, bookshelves, posters, a window with a frame, plants
  objects  random boxes, cylinders and spheres with checker/brick/stripe textures, trees, signs

Outputs, for each kind K and seed S:
  <out>/K_sS.glb             the scene (metres, +y up), loadable by `upscale_demo --scene`
  <out>/K_sS_<path>.json     two camera paths (`upscale_demo --camera-path`; one contains a cut)
  <out>/manifest.json        every scene and path written, with the generator's arguments

Usage:
  make_scenes.py --out DIR [--kinds street,poles,room,objects] [--seeds 1,2,3 | --seed-range 1:20]
                 [--texture-size 512]

Only numpy and zlib: PNGs are written by hand (8-bit RGBA, filter 0).
"""
import argparse
import json
import math
import os
import struct
import sys
import zlib

import numpy as np

KINDS = ("street", "poles", "room", "objects")

# glTF constants
FLOAT, UINT = 5126, 5125
NEAREST, LINEAR, LINEAR_MIPMAP_LINEAR, NEAREST_MIPMAP_LINEAR = 9728, 9729, 9987, 9986
REPEAT, CLAMP, MIRROR = 10497, 33071, 33648


# ---------------------------------------------------------------------------------------------
# PNG and GLB writing


def png_bytes(rgba):
    """8-bit RGBA PNG of an H x W x 4 uint8 array."""
    rgba = np.ascontiguousarray(rgba, dtype=np.uint8)
    h, w, _ = rgba.shape
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rgba.reshape(h, w * 4)], axis=1).tobytes()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


class Glb:
    """One buffer, one bufferView per accessor or image, nodes with TRS transforms."""

    def __init__(self, generator):
        self.json = {"asset": {"version": "2.0", "generator": generator}, "scene": 0, "scenes": [{"nodes": []}],
                     "nodes": [], "meshes": [], "materials": [], "textures": [], "images": [], "samplers": [],
                     "accessors": [], "bufferViews": [], "buffers": []}
        self.bin = bytearray()
        self.texture_cache = {}

    def _view(self, data, target=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        view = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if target:
            view["target"] = target
        self.bin += data
        self.json["bufferViews"].append(view)
        return len(self.json["bufferViews"]) - 1

    def _accessor(self, array, kind, target):
        array = np.ascontiguousarray(array)
        comp = FLOAT if array.dtype == np.float32 else UINT
        acc = {"bufferView": self._view(array.tobytes(), target), "componentType": comp, "count": int(array.shape[0]), "type": kind}
        if kind == "VEC3":
            acc["min"] = [float(v) for v in array.min(axis=0)]
            acc["max"] = [float(v) for v in array.max(axis=0)]
        self.json["accessors"].append(acc)
        return len(self.json["accessors"]) - 1

    def sampler(self, mag=LINEAR, min_filter=LINEAR_MIPMAP_LINEAR, wrap_s=REPEAT, wrap_t=REPEAT):
        s = {"magFilter": mag, "minFilter": min_filter, "wrapS": wrap_s, "wrapT": wrap_t}
        if s not in self.json["samplers"]:
            self.json["samplers"].append(s)
        return self.json["samplers"].index(s)

    def texture(self, name, rgba, sampler):
        key = (name, sampler)
        if key not in self.texture_cache:
            self.json["images"].append({"bufferView": self._view(png_bytes(rgba)), "mimeType": "image/png", "name": name})
            self.json["textures"].append({"source": len(self.json["images"]) - 1, "sampler": sampler})
            self.texture_cache[key] = len(self.json["textures"]) - 1
        return self.texture_cache[key]

    def material(self, name, texture=None, color=(1, 1, 1, 1), metallic=0.0, roughness=0.8, mask=None, double_sided=False):
        pbr = {"baseColorFactor": [float(c) for c in color], "metallicFactor": metallic, "roughnessFactor": roughness}
        if texture is not None:
            pbr["baseColorTexture"] = {"index": texture}
        m = {"name": name, "pbrMetallicRoughness": pbr, "doubleSided": double_sided}
        if mask is not None:
            m["alphaMode"] = "MASK"
            m["alphaCutoff"] = mask
        self.json["materials"].append(m)
        return len(self.json["materials"]) - 1

    def mesh(self, geometry, material):
        p, n, uv, idx = geometry
        prim = {"attributes": {"POSITION": self._accessor(p.astype(np.float32), "VEC3", 34962),
                               "NORMAL": self._accessor(n.astype(np.float32), "VEC3", 34962),
                               "TEXCOORD_0": self._accessor(uv.astype(np.float32), "VEC2", 34962)},
                "indices": self._accessor(idx.astype(np.uint32), "SCALAR", 34963), "material": material}
        self.json["meshes"].append({"primitives": [prim]})
        return len(self.json["meshes"]) - 1

    def node(self, mesh, translation=(0, 0, 0), yaw=0.0, scale=None, parent=None):
        """A node placing `mesh` (rotation `yaw` radians about +y); a root node unless `parent`."""
        n = {"mesh": mesh, "translation": [float(t) for t in translation]}
        if yaw:
            n["rotation"] = [0.0, math.sin(yaw / 2), 0.0, math.cos(yaw / 2)]
        if scale is not None:
            n["scale"] = [float(s) for s in scale]
        self.json["nodes"].append(n)
        index = len(self.json["nodes"]) - 1
        if parent is None:
            self.json["scenes"][0]["nodes"].append(index)
        else:
            self.json["nodes"][parent].setdefault("children", []).append(index)
        return index

    def group(self, translation=(0, 0, 0), yaw=0.0):
        """An empty node to hang children on (exercises the node hierarchy)."""
        n = {"translation": [float(t) for t in translation]}
        if yaw:
            n["rotation"] = [0.0, math.sin(yaw / 2), 0.0, math.cos(yaw / 2)]
        self.json["nodes"].append(n)
        self.json["scenes"][0]["nodes"].append(len(self.json["nodes"]) - 1)
        return len(self.json["nodes"]) - 1

    def bytes(self):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.json["buffers"] = [{"byteLength": len(self.bin)}]
        for key in ("samplers", "textures", "images"):
            if not self.json[key]:
                del self.json[key]
        text = json.dumps(self.json, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 4)
        total = 12 + 8 + len(text) + 8 + len(self.bin)
        return (struct.pack("<III", 0x46546C67, 2, total) + struct.pack("<II", len(text), 0x4E4F534A) + text +
                struct.pack("<II", len(self.bin), 0x004E4942) + bytes(self.bin))


# ---------------------------------------------------------------------------------------------
# Geometry: (positions, normals, uvs, indices), counter-clockwise front faces


def quad(width, height, uv_repeat=(1.0, 1.0)):
    """A rectangle in the xy plane centred on the origin, facing +z; uv (0,0) top-left."""
    w, h = width / 2, height / 2
    p = np.array([[-w, -h, 0], [w, -h, 0], [w, h, 0], [-w, h, 0]], np.float32)
    n = np.tile([0, 0, 1], (4, 1)).astype(np.float32)
    u, v = uv_repeat
    uv = np.array([[0, v], [u, v], [u, 0], [0, 0]], np.float32)
    return p, n, uv, np.array([0, 1, 2, 0, 2, 3], np.uint32)


def ground(width, depth, uv_repeat):
    """A horizontal rectangle at y = 0 facing +y."""
    w, d = width / 2, depth / 2
    p = np.array([[-w, 0, d], [w, 0, d], [w, 0, -d], [-w, 0, -d]], np.float32)
    n = np.tile([0, 1, 0], (4, 1)).astype(np.float32)
    u, v = uv_repeat
    uv = np.array([[0, v], [u, v], [u, 0], [0, 0]], np.float32)
    return p, n, uv, np.array([0, 1, 2, 0, 2, 3], np.uint32)


def box(size, uv_per_metre=1.0, uv_faces=None):
    """An axis-aligned box with its base on y = 0. uv_faces: (u, v) repeat per face instead of per metre."""
    sx, sy, sz = (s / 2 for s in size)
    faces = [((1, 0, 0), (0, 0, -1), (0, 1, 0), sz * 2, sy * 2, sx),   # +x: u along -z
             ((-1, 0, 0), (0, 0, 1), (0, 1, 0), sz * 2, sy * 2, sx),   # -x
             ((0, 0, 1), (1, 0, 0), (0, 1, 0), sx * 2, sy * 2, sz),    # +z
             ((0, 0, -1), (-1, 0, 0), (0, 1, 0), sx * 2, sy * 2, sz),  # -z
             ((0, 1, 0), (1, 0, 0), (0, 0, -1), sx * 2, sz * 2, sy),   # top
             ((0, -1, 0), (1, 0, 0), (0, 0, 1), sx * 2, sz * 2, sy)]   # bottom
    ps, ns, uvs, idx = [], [], [], []
    for f, (normal, u_axis, v_axis, fw, fh, dist) in enumerate(faces):
        normal, u_axis, v_axis = (np.array(a, np.float32) for a in (normal, u_axis, v_axis))
        centre = normal * dist + np.array([0, sy, 0], np.float32)
        corners = [centre - u_axis * fw / 2 - v_axis * fh / 2, centre + u_axis * fw / 2 - v_axis * fh / 2,
                   centre + u_axis * fw / 2 + v_axis * fh / 2, centre - u_axis * fw / 2 + v_axis * fh / 2]
        ru, rv = uv_faces if uv_faces else (fw * uv_per_metre, fh * uv_per_metre)
        base = len(ps)
        ps += corners
        ns += [normal] * 4
        uvs += [(0, rv), (ru, rv), (ru, 0), (0, 0)]
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(ps, np.float32), np.array(ns, np.float32), np.array(uvs, np.float32), np.array(idx, np.uint32)


def cylinder(p0, p1, radius, sides=8, uv_repeat=(1.0, 1.0)):
    """An open tube from p0 to p1 (thin poles and wires)."""
    p0, p1 = np.asarray(p0, np.float32), np.asarray(p1, np.float32)
    axis = p1 - p0
    length = float(np.linalg.norm(axis))
    axis /= length
    helper = np.array([0, 1, 0], np.float32) if abs(axis[1]) < 0.9 else np.array([1, 0, 0], np.float32)
    t = np.cross(axis, helper)
    t /= np.linalg.norm(t)
    b = np.cross(axis, t)
    ps, ns, uvs, idx = [], [], [], []
    for s in range(sides + 1):
        a = 2 * math.pi * s / sides
        n = math.cos(a) * t + math.sin(a) * b
        ps += [p0 + radius * n, p1 + radius * n]
        ns += [n, n]
        uvs += [(uv_repeat[0] * s / sides, uv_repeat[1]), (uv_repeat[0] * s / sides, 0)]
    for s in range(sides):
        a = 2 * s
        idx += [a, a + 2, a + 3, a, a + 3, a + 1]
    return np.array(ps, np.float32), np.array(ns, np.float32), np.array(uvs, np.float32), np.array(idx, np.uint32)


def sphere(radius, rings=16, segments=32, uv_repeat=(4.0, 2.0)):
    ps, ns, uvs, idx = [], [], [], []
    for r in range(rings + 1):
        th = math.pi * r / rings
        for s in range(segments + 1):
            ph = 2 * math.pi * s / segments
            n = np.array([math.sin(th) * math.cos(ph), math.cos(th), -math.sin(th) * math.sin(ph)], np.float32)
            ps.append(n * radius + np.array([0, radius, 0], np.float32))
            ns.append(n)
            uvs.append((uv_repeat[0] * s / segments, uv_repeat[1] * r / rings))
    for r in range(rings):
        for s in range(segments):
            a = r * (segments + 1) + s
            b = a + segments + 1
            idx += [a, b, b + 1, a, b + 1, a + 1]
    return np.array(ps, np.float32), np.array(ns, np.float32), np.array(uvs, np.float32), np.array(idx, np.uint32)


def merge(*geometries):
    ps, ns, uvs, idx, base = [], [], [], [], 0
    for p, n, uv, i in geometries:
        ps.append(p)
        ns.append(n)
        uvs.append(uv)
        idx.append(i + base)
        base += len(p)
    return np.concatenate(ps), np.concatenate(ns), np.concatenate(uvs), np.concatenate(idx)


def translated(geometry, offset):
    p, n, uv, i = geometry
    return p + np.asarray(offset, np.float32), n, uv, i


def rotated_y(geometry, yaw):
    p, n, uv, i = geometry
    c, s = math.cos(yaw), math.sin(yaw)
    r = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], np.float32)
    return p @ r.T, n @ r.T, uv, i


def wire(p0, p1, radius, sag, segments=12):
    """A sagging wire between two points: a chain of thin tubes."""
    p0, p1 = np.asarray(p0, np.float32), np.asarray(p1, np.float32)
    points = [p0 + (p1 - p0) * (k / segments) - np.array([0, sag * 4 * (k / segments) * (1 - k / segments), 0], np.float32)
              for k in range(segments + 1)]
    return merge(*[cylinder(points[k], points[k + 1], radius, sides=6) for k in range(segments)])


# ---------------------------------------------------------------------------------------------
# Textures (H x W x 4 uint8, sRGB)


def rgba(color, alpha=255):
    return np.array([*(int(round(c * 255)) for c in color[:3]), alpha], np.uint8)


def noise(rng, size, scale=0.08):
    return (rng.random((size, size, 1)) - 0.5) * scale


def colorize(rng, base, size, variation=0.08):
    img = np.clip(np.asarray(base, np.float32)[None, None, :3] + noise(rng, size, variation), 0, 1)
    return np.concatenate([(img * 255).astype(np.uint8), np.full((size, size, 1), 255, np.uint8)], axis=2)


def checker(rng, size, cells, c1, c2):
    y, x = np.mgrid[0:size, 0:size]
    m = ((x * cells // size + y * cells // size) % 2).astype(bool)
    img = colorize(rng, c1, size, 0.04)
    img[m] = colorize(rng, c2, size, 0.04)[m]
    return img


def stripes(rng, size, count, c1, c2, diagonal=True):
    y, x = np.mgrid[0:size, 0:size]
    m = (((x + y) if diagonal else x) * count // size) % 2 == 1
    img = colorize(rng, c1, size, 0.03)
    img[m] = colorize(rng, c2, size, 0.03)[m]
    return img


def bricks(rng, size, rows, brick_color, mortar=(0.75, 0.73, 0.7)):
    img = colorize(rng, mortar, size, 0.05)
    grain = noise(rng, size, 20)
    bh = size // rows
    bw = bh * 2
    for r in range(rows):
        offset = (bw // 2) * (r % 2)
        for c in range(-1, size // bw + 1):
            x0, y0 = c * bw + offset + 1, r * bh + 1
            x1, y1 = x0 + bw - 2, y0 + bh - 2
            shade = np.clip(np.asarray(brick_color) * rng.uniform(0.8, 1.15), 0, 1)
            xs, xe = max(x0, 0), min(x1, size)
            if xs < xe:
                img[y0:y1, xs:xe, :3] = np.clip(shade * 255 + grain[y0:y1, xs:xe], 0, 255).astype(np.uint8)
    return img


def tiles(rng, size, count, c1, c2, grout=(0.2, 0.2, 0.2)):
    img = checker(rng, size, count, c1, c2)
    y, x = np.mgrid[0:size, 0:size]
    cell = size // count
    img[(x % cell < 2) | (y % cell < 2)] = rgba(grout)
    return img


def make_font(rng, glyphs=48):
    """5x7 bitmaps with letter-like structure: stems, bars, mirrored halves."""
    font = []
    for _ in range(glyphs):
        g = rng.random((7, 5)) < 0.45
        if rng.random() < 0.5:
            g[:, 3:] = g[:, 1::-1]
        if rng.random() < 0.4:
            g[:, 0] = True
        if rng.random() < 0.3:
            g[0, :] = g[6, :] = True
        font.append(g)
    return font


def text_block(rng, font, width, height, cell, ink, paper, paper_alpha=255, margin=2):
    """Rows of generated glyphs with word gaps: text-like detail without a font file."""
    img = np.zeros((height, width, 4), np.uint8)
    img[:] = rgba(paper, paper_alpha)
    gw, gh = 6 * cell, 9 * cell
    for row in range(margin * cell, height - gh, gh):
        x = margin * cell
        while x + gw < width - margin * cell:
            if rng.random() < 0.16:  # a space between words
                x += gw
                continue
            g = font[rng.integers(len(font))]
            block = np.kron(g, np.ones((cell, cell), bool))
            img[row + cell:row + cell + block.shape[0], x:x + block.shape[1]][block] = rgba(ink)
            x += gw
    return img


def facade(rng, size, wall, glass, frame, bays=1):
    """One window bay of a building: wall, frame (thin lines), glass with a gradient, sill."""
    img = colorize(rng, wall, size, 0.06)
    m = size // 6
    x0, x1, y0, y1 = m, size - m, m, size - 2 * m
    g = np.linspace(0.6, 1.2, y1 - y0)[:, None, None]
    img[y0:y1, x0:x1, :3] = np.clip(np.asarray(glass)[None, None, :] * g * 255, 0, 255).astype(np.uint8)
    f = max(size // 48, 1)
    img[y0:y0 + f, x0:x1] = img[y1 - f:y1, x0:x1] = rgba(frame)
    img[y0:y1, x0:x0 + f] = img[y0:y1, x1 - f:x1] = rgba(frame)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    img[y0:y1, cx - f // 2 - 1:cx + f // 2 + 1] = rgba(frame)   # mullion
    img[cy - f // 2 - 1:cy + f // 2 + 1, x0:x1] = rgba(frame)   # transom
    img[y1:y1 + 2 * f, x0 - f:x1 + f] = rgba((0.85, 0.85, 0.8))  # sill
    return img


def foliage(rng, size, leaves=160):
    """A tree-crown card: leaf ellipses, alpha 0 between them (alpha-tested edges)."""
    img = np.zeros((size, size, 4), np.uint8)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    cx0, cy0 = 0.5, 0.55
    for _ in range(leaves):
        r = math.sqrt(rng.random()) * 0.42
        a = rng.random() * 2 * math.pi
        cx, cy = cx0 + r * math.cos(a), cy0 + r * math.sin(a) * 0.9
        rx, ry, rot = rng.uniform(0.02, 0.05), rng.uniform(0.008, 0.02), rng.random() * math.pi
        dx, dy = x - cx, y - cy
        u = (dx * math.cos(rot) + dy * math.sin(rot)) / rx
        v = (-dx * math.sin(rot) + dy * math.cos(rot)) / ry
        m = u * u + v * v < 1
        green = np.array([rng.uniform(0.1, 0.3), rng.uniform(0.35, 0.6), rng.uniform(0.05, 0.2)])
        img[m] = rgba(green)
    return img


def chain_link(size, cells=8, wire_px=2):
    """Diamond wire mesh: wires opaque grey, holes transparent."""
    y, x = np.mgrid[0:size, 0:size]
    period = size // cells
    d1 = (x + y) % period < wire_px
    d2 = (x - y) % period < wire_px
    img = np.zeros((size, size, 4), np.uint8)
    img[d1 | d2] = rgba((0.6, 0.62, 0.6))
    return img


def window_frame(size, panes=3):
    """Window: frame bars opaque, panes transparent (the sky shows through)."""
    img = np.zeros((size, size, 4), np.uint8)
    bar = max(size // 40, 2)
    for k in range(panes + 1):
        p = min(k * (size - bar) // panes, size - bar)
        img[:, p:p + bar] = img[p:p + bar, :] = rgba((0.92, 0.92, 0.9))
    return img


# ---------------------------------------------------------------------------------------------
# Scenes


class Scene:
    def __init__(self, kind, seed, texture_size):
        self.kind, self.seed, self.size = kind, seed, texture_size
        # Distinct streams per kind so street seed 3 and room seed 3 are unrelated.
        self.rng = np.random.default_rng([seed, KINDS.index(kind)])
        self.glb = Glb(f"vkml tools/train/make_scenes.py {kind} seed {seed}")
        self.font = make_font(self.rng)
        self.paths = {}

    def color(self, lo=0.2, hi=0.9):
        return tuple(self.rng.uniform(lo, hi, 3))

    def textured(self, name, image, sampler=None, mask=None, double_sided=False, metallic=0.0, roughness=None):
        g = self.glb
        tex = g.texture(name, image, g.sampler() if sampler is None else sampler)
        return g.material(name, tex, metallic=metallic, roughness=self.rng.uniform(0.4, 0.9) if roughness is None else roughness,
                          mask=mask, double_sided=double_sided)

    def sign(self, width, height, alpha_letters=False):
        """A sign texture: glyph rows on a plate, or cut-out letters (MASK) when alpha_letters."""
        s = self.size
        cell = max(1, int(self.rng.integers(1, 4)) * s // 256)
        img = text_block(self.rng, self.font, s, max(s * height // width, 24 * cell), cell, self.color(0.0, 0.4),
                         self.color(0.6, 1.0), 0 if alpha_letters else 255)
        nearest = self.rng.random() < 0.3  # pixel-font signs: nearest magnification
        sampler = self.glb.sampler(NEAREST if nearest else LINEAR, LINEAR_MIPMAP_LINEAR, CLAMP, CLAMP)
        return self.textured(f"sign{len(self.glb.json['materials'])}", img, sampler, mask=0.5 if alpha_letters else None,
                             double_sided=alpha_letters)

    def tree(self, x, z, height):
        g, rng = self.glb, self.rng
        if "bark" not in self.__dict__:
            self.bark = self.textured("bark", stripes(rng, 64, 8, (0.35, 0.25, 0.15), (0.25, 0.18, 0.1), diagonal=False))
            self.leaves = [self.textured(f"foliage{i}", foliage(rng, self.size), g.sampler(wrap_s=CLAMP, wrap_t=CLAMP), mask=0.5,
                                         double_sided=True) for i in range(2)]
        root = g.group((x, 0, z), rng.uniform(0, math.pi))
        g.node(g.mesh(cylinder((0, 0, 0), (0, height * 0.6, 0), 0.08 + height * 0.01, 8, (1, 4)), self.bark), parent=root)
        crown = self.leaves[int(rng.integers(2))]
        for k in range(3):  # three crossed cards
            card = translated(quad(height * 0.8, height * 0.8), (0, height * 0.6, 0))
            g.node(g.mesh(rotated_y(card, k * math.pi / 3), crown), parent=root)

    def build(self):
        getattr(self, "build_" + self.kind)()
        return self.glb.bytes()

    # -- street -----------------------------------------------------------------------------
    def build_street(self):
        g, rng, s = self.glb, self.rng, self.size
        length = float(rng.uniform(50, 80))
        road_w = float(rng.uniform(7, 12))
        asphalt = colorize(rng, (0.22, 0.22, 0.23), s, 0.1)
        asphalt[:, s // 2 - s // 64:s // 2 + s // 64][(np.arange(s) // (s // 4)) % 2 == 0] = rgba((0.9, 0.85, 0.4))
        road = self.textured("asphalt", asphalt)
        g.node(g.mesh(rotated_y(ground(length, road_w, (length / road_w, 1)), math.pi / 2), road))
        pavement = self.textured("pavement", tiles(rng, s, 8, (0.6, 0.6, 0.58), (0.55, 0.55, 0.52), (0.35, 0.35, 0.35)))
        for side in (-1, 1):
            g.node(g.mesh(ground(3.0, length, (1.5, length / 2)), pavement), (side * (road_w / 2 + 1.5), 0.01, 0))
        # Buildings on both sides: facades of repeated window bays, signs in front.
        for side in (-1, 1):
            z = -length / 2
            while z < length / 2 - 4:
                w = float(rng.uniform(6, 14))
                floors = int(rng.integers(2, 7))
                depth = float(rng.uniform(6, 10))
                h = floors * 3.2
                bay = facade(rng, s // 2, self.color(0.3, 0.85), (0.25, 0.35, 0.5), self.color(0.05, 0.95))
                wall = self.textured(f"facade{len(g.json['materials'])}", bay)
                bays = max(1, int(w / 2.5))
                body = rotated_y(box((depth, h, w), uv_faces=(bays, floors)), 0)
                x = side * (road_w / 2 + 3 + depth / 2)
                g.node(g.mesh(body, wall), (x, 0, z + w / 2))
                if rng.random() < 0.8:  # a sign on the facade towards the road
                    sw, sh = float(rng.uniform(2, min(w - 1, 6))), float(rng.uniform(0.5, 1.2))
                    mat = self.sign(int(sw * 100), int(sh * 100), alpha_letters=rng.random() < 0.4)
                    plate = rotated_y(quad(sw, sh), -side * math.pi / 2)
                    g.node(g.mesh(plate, mat), (x - side * (depth / 2 + 0.03), float(rng.uniform(3.2, 4.5)), z + w / 2))
                z += w + float(rng.uniform(0.0, 2.0))
        # Lamp posts with overhead wires between them, trees along the pavement.
        metal = g.material("pole", color=(0.3, 0.3, 0.32, 1), metallic=0.8, roughness=0.4)
        wire_mat = g.material("wire", color=(0.05, 0.05, 0.05, 1), metallic=0.5, roughness=0.5)
        spacing = float(rng.uniform(8, 14))
        tops = {-1: [], 1: []}
        for side in (-1, 1):
            for k in range(int(length // spacing)):
                z = -length / 2 + spacing * (k + 0.5)
                x = side * (road_w / 2 + 0.4)
                h = 6.0
                g.node(g.mesh(cylinder((0, 0, 0), (0, h, 0), 0.07, 8), metal), (x, 0, z))
                g.node(g.mesh(cylinder((0, h, 0), (-side * 1.2, h, 0), 0.04, 6), metal), (x, 0, z))
                tops[side].append((x, h - 0.3, z))
                if rng.random() < 0.5:
                    self.tree(side * (road_w / 2 + 2.2), z + spacing / 2, float(rng.uniform(4, 7)))
        for side in (-1, 1):
            for a, b in zip(tops[side], tops[side][1:]):
                for dy in (0.0, -0.25):
                    g.node(g.mesh(wire((a[0], a[1] + dy, a[2]), (b[0], b[1] + dy, b[2]), 0.012, 0.4), wire_mat))
        for a, b in zip(tops[-1][::2], tops[1][::2]):  # wires across the street
            g.node(g.mesh(wire(a, b, 0.01, 0.3), wire_mat))
        eye = 1.7
        self.paths["walk"] = [(t, (float(math.sin(t * 0.3) * 1.5), eye, length / 2 - 5 - t * 2.5),
                               (float(math.sin(t * 0.3 + 1) * 2), eye + 0.5, length / 2 - 20 - t * 2.5)) for t in range(0, 17, 4)]
        x = road_w / 2 - 0.5
        self.paths["facades"] = ([(t, (x, eye, -t * 2.0), (-x - 5, 4.0, -t * 2.0 - 3)) for t in range(0, 9, 4)] +
                                 [(t, (-x, eye + 1, 10 - t), (x + 5, 4.5, 6 - t), "cut") for t in (10, 14, 18)])

    # -- poles ------------------------------------------------------------------------------
    def build_poles(self):
        g, rng, s = self.glb, self.rng, self.size
        grass = colorize(rng, (0.25, 0.45, 0.15), s, 0.25)
        field = self.textured("grass", grass)
        g.node(g.mesh(ground(120, 120, (40, 40)), field))
        wood = self.textured("wood", stripes(rng, 64, 6, (0.45, 0.35, 0.22), (0.38, 0.28, 0.18), diagonal=False))
        wire_mat = g.material("wire", color=(0.04, 0.04, 0.04, 1), metallic=0.6, roughness=0.4)
        lines = int(rng.integers(2, 5))
        for line in range(lines):
            z0 = float(rng.uniform(-30, 30))
            yaw = float(rng.uniform(-0.4, 0.4))
            count = int(rng.integers(5, 9))
            spacing = float(rng.uniform(18, 30))
            height = float(rng.uniform(7, 11))
            wires = int(rng.integers(2, 6))
            tops = []
            for k in range(count):
                d = (k - count / 2) * spacing
                x, z = d * math.cos(yaw), z0 + d * math.sin(yaw)
                g.node(g.mesh(cylinder((0, 0, 0), (0, height, 0), 0.13, 8, (1, 6)), wood), (x, 0, z))
                arm = rotated_y(cylinder((-1.2, height - 0.5, 0), (1.2, height - 0.5, 0), 0.06, 6), -(math.pi / 2 + yaw))
                g.node(g.mesh(arm, wood), (x, 0, z))
                tops.append((x, z))
            for w in range(wires):
                off = -1.1 + 2.2 * w / max(wires - 1, 1)
                ox, oz = off * math.sin(yaw), -off * math.cos(yaw)
                for (ax, az), (bx, bz) in zip(tops, tops[1:]):
                    g.node(g.mesh(wire((ax + ox, height - 0.45, az + oz), (bx + ox, height - 0.45, bz + oz), 0.012,
                                       float(rng.uniform(0.5, 1.5)), 16), wire_mat))
        # Chain-link fences (alpha-tested) on thin posts.
        mesh_tex = self.textured("chainlink", chain_link(s, cells=int(rng.integers(6, 14))), mask=0.5, double_sided=True,
                                 metallic=0.6, roughness=0.5)
        post = g.material("fencepost", color=(0.55, 0.55, 0.55, 1), metallic=0.8, roughness=0.35)
        for f in range(int(rng.integers(2, 5))):
            x0, z0, yaw = float(rng.uniform(-30, 10)), float(rng.uniform(-20, 20)), float(rng.uniform(0, math.pi))
            panels = int(rng.integers(4, 10))
            root = g.group((x0, 0, z0), yaw)
            for p in range(panels):
                g.node(g.mesh(translated(quad(2.5, 1.8, (4, 3)), (p * 2.5 + 1.25, 0.9, 0)), mesh_tex), parent=root)
                g.node(g.mesh(cylinder((p * 2.5, 0, 0), (p * 2.5, 1.9, 0), 0.03, 8), post), parent=root)
        for _ in range(int(rng.integers(6, 16))):
            self.tree(float(rng.uniform(-45, 45)), float(rng.uniform(-45, 45)), float(rng.uniform(4, 9)))
        self.paths["walk"] = [(t, (-30 + t * 3.0, 1.7, 38.0 - t), (-20 + t * 3.0, 5.0, 0.0)) for t in range(0, 21, 5)]
        self.paths["lookup"] = [(t, (float(10 * math.cos(t * 0.15)), 1.0, float(10 * math.sin(t * 0.15))), (0.0, 9.0, 0.0))
                                for t in range(0, 21, 4)]

    # -- room -------------------------------------------------------------------------------
    def build_room(self):
        g, rng, s = self.glb, self.rng, self.size
        w, d, h = float(rng.uniform(6, 10)), float(rng.uniform(6, 10)), float(rng.uniform(2.8, 3.6))
        floor = self.textured("floor", tiles(rng, s, int(rng.integers(4, 12)), self.color(0.5, 0.95), self.color(0.1, 0.5)))
        g.node(g.mesh(ground(w, d, (w / 1.5, d / 1.5)), floor))
        paper = self.textured("wallpaper", stripes(rng, s, int(rng.integers(8, 32)), self.color(0.6, 0.95), self.color(0.4, 0.8),
                                                   diagonal=False))
        ceiling = g.material("ceiling", color=(0.9, 0.9, 0.88, 1), roughness=0.9)
        # Walls face inwards (single-sided: a camera outside sees in). The -z wall has a window
        # hole; its frame bars are alpha-tested, the sky shows between them.
        for yaw, dist, span in ((math.pi, d / 2, w), (math.pi / 2, w / 2, d), (-math.pi / 2, w / 2, d)):
            g.node(g.mesh(rotated_y(translated(quad(span, h, (span, 1)), (0, h / 2, -dist)), yaw), paper))
        ww, wh, wy = 2.0, 1.6, 1.6
        pieces = [(-(w / 2 + ww / 2) / 2, h / 2, (w / 2 - ww / 2), h), ((w / 2 + ww / 2) / 2, h / 2, (w / 2 - ww / 2), h),
                  (0, (wy - wh / 2) / 2, ww, wy - wh / 2), (0, (h + wy + wh / 2) / 2, ww, h - wy - wh / 2)]
        for cx, cy, pw, ph in pieces:
            g.node(g.mesh(translated(quad(pw, ph, (pw, ph / h)), (cx, cy, -d / 2)), paper))
        top = translated(rotated_y(ground(w, d, (1, 1)), 0), (0, h, 0))
        top = (top[0], -top[1], top[2], top[3][[0, 2, 1, 3, 5, 4]])  # facing down
        g.node(g.mesh(top, ceiling))
        frame = self.textured("windowframe", window_frame(s, int(rng.integers(2, 5))), mask=0.5, double_sided=True, roughness=0.5)
        g.node(g.mesh(translated(quad(ww, wh), (0, wy, -d / 2)), frame))
        # Bookshelves: boards and books with glyph spines.
        board = self.textured("shelfwood", stripes(rng, 128, 10, (0.5, 0.35, 0.2), (0.45, 0.3, 0.18), diagonal=False))
        spines = [self.textured(f"book{k}", text_block(rng, self.font, 32, 128, 1, self.color(0.8, 1.0), self.color(0.05, 0.6), margin=1),
                                g.sampler(wrap_s=CLAMP, wrap_t=CLAMP)) for k in range(12)]
        for shelf in range(int(rng.integers(1, 4))):
            x0 = -w / 2 + 0.3
            z = -d / 2 + 1.0 + shelf * 2.2
            root = g.group((x0, 0, z), math.pi / 2)
            for level in range(5):
                y = 0.1 + level * 0.42
                g.node(g.mesh(box((1.8, 0.03, 0.3)), board), (0, y, 0), parent=root)
                x = -0.85
                while x < 0.8:
                    bw = float(rng.uniform(0.025, 0.07))
                    bh = float(rng.uniform(0.22, 0.36))
                    mat = spines[int(rng.integers(len(spines)))]
                    g.node(g.mesh(box((bw, bh, 0.22), uv_faces=(1, 1)), mat), (x + bw / 2, y + 0.015, 0), parent=root)
                    x += bw + float(rng.uniform(0.0, 0.01))
        for k in range(int(rng.integers(2, 5))):  # posters
            pw, ph = float(rng.uniform(0.6, 1.2)), float(rng.uniform(0.8, 1.4))
            mat = self.sign(int(pw * 100), int(ph * 100))
            g.node(g.mesh(quad(pw, ph), mat), (w / 2 - 0.02, float(rng.uniform(1.2, 2.0)), -d / 2 + 1 + k * 1.6), -math.pi / 2)
        for _ in range(int(rng.integers(1, 4))):  # plants
            self.tree(float(rng.uniform(0, w / 2 - 0.8)), float(rng.uniform(-d / 2 + 0.8, d / 2 - 0.8)), float(rng.uniform(1.0, 1.8)))
        self.paths["inside"] = [(t, (float(0.3 * w * math.cos(t * 0.2)), 1.6, float(0.3 * d * math.sin(t * 0.2))),
                                 (-w / 2, 1.1, float(-d / 2 + 2 + math.sin(t * 0.2)))) for t in range(0, 21, 4)]
        self.paths["closeup"] = [(0, (0.5, 1.5, 0.0), (-w / 2, 1.0, -d / 2 + 1.5)), (8, (-w / 2 + 1.3, 1.2, -d / 2 + 1.2), (-w / 2, 1.0, -d / 2 + 1.5)),
                                 (10, (w / 2 - 2.0, 1.6, 0.0), (w / 2, 1.6, -d / 2 + 1.8), "cut"), (18, (w / 2 - 1.0, 1.6, -d / 2 + 1.5), (w / 2, 1.6, -d / 2 + 1.8))]

    # -- objects ----------------------------------------------------------------------------
    def build_objects(self):
        g, rng, s = self.glb, self.rng, self.size
        base = self.textured("ground", checker(rng, s, int(rng.integers(4, 16)), self.color(0.5, 0.9), self.color(0.1, 0.4)))
        g.node(g.mesh(ground(60, 60, (20, 20)), base))
        makers = [lambda: checker(rng, s, int(rng.integers(4, 32)), self.color(), self.color()),
                  lambda: bricks(rng, s, int(rng.integers(6, 20)), self.color(0.4, 0.8)),
                  lambda: stripes(rng, s, int(rng.integers(6, 40)), self.color(), self.color(), rng.random() < 0.5)]
        wraps = [REPEAT, MIRROR, CLAMP]
        taken = []
        for i in range(int(rng.integers(10, 25))):
            for _ in range(30):
                x, z = float(rng.uniform(-20, 20)), float(rng.uniform(-20, 20))
                r = float(rng.uniform(0.5, 2.0))
                if all((x - a) ** 2 + (z - b) ** 2 > (r + c) ** 2 for a, b, c in taken):
                    break
            else:
                continue
            taken.append((x, z, r))
            wrap = wraps[int(rng.integers(3))]
            mat = self.textured(f"object{i}", makers[int(rng.integers(3))](), g.sampler(wrap_s=wrap, wrap_t=wrap),
                                metallic=float(rng.random() < 0.2))
            shape = int(rng.integers(3))
            if shape == 0:
                geom = box((r * 1.4, float(rng.uniform(0.5, 3)), r * 1.4), uv_per_metre=float(rng.uniform(0.3, 2)))
            elif shape == 1:
                geom = cylinder((0, 0, 0), (0, float(rng.uniform(0.5, 4)), 0), r * 0.6, 24, (float(rng.integers(1, 4)), 2))
            else:
                geom = sphere(r * 0.7)
            g.node(g.mesh(geom, mat), (x, 0, z), float(rng.uniform(0, math.pi)))
        for _ in range(int(rng.integers(3, 8))):
            self.tree(float(rng.uniform(-25, 25)), float(rng.uniform(-25, 25)), float(rng.uniform(3, 7)))
        post = g.material("signpost", color=(0.4, 0.4, 0.4, 1), metallic=1.0, roughness=0.3)
        for k in range(int(rng.integers(1, 4))):
            sw = float(rng.uniform(1.5, 3))
            mat = self.sign(int(sw * 100), 60, alpha_letters=rng.random() < 0.5)
            root = g.group((float(rng.uniform(-15, 15)), 0, float(rng.uniform(-15, 15))), float(rng.uniform(0, 2 * math.pi)))
            g.node(g.mesh(translated(quad(sw, sw * 0.6), (0, 1.5 + sw * 0.3, 0)), mat), parent=root)
            g.node(g.mesh(cylinder((0, 0, -0.02), (0, 1.5, -0.02), 0.03, 6), post), parent=root)
        self.paths["circle"] = [(t, (float(18 * math.cos(t * 0.12)), 4.0, float(18 * math.sin(t * 0.12))), (0.0, 1.0, 0.0))
                                for t in range(0, 21, 4)]
        self.paths["low"] = [(t, (-22.0 + t * 2.0, 0.6, float(6 * math.sin(t * 0.3))), (-10.0 + t * 2.0, 0.8, 0.0)) for t in range(0, 21, 5)]

    def path_json(self, name):
        """Keyframes of path `name`; an entry tagged "cut" after an untagged one starts a new shot."""
        keys, previous_cut = [], False
        for entry in self.paths[name]:
            t, pos, target = entry[:3]
            cut = len(entry) > 3 and entry[3] == "cut"
            k = {"time": float(t), "position": [round(float(v), 4) for v in pos], "target": [round(float(v), 4) for v in target],
                 "fov_y_deg": 60.0}
            if cut and not previous_cut and keys:
                k["cut"] = True
            previous_cut = cut
            keys.append(k)
        return {"name": f"{self.kind}_s{self.seed}_{name}", "keyframes": keys}


def parse_seeds(args):
    if args.seed_range:
        lo, hi = (int(v) for v in args.seed_range.split(":"))
        return list(range(lo, hi))
    return [int(v) for v in args.seeds.split(",") if v]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated subset of " + ", ".join(KINDS))
    ap.add_argument("--seeds", default="1", help="comma-separated seeds (default 1)")
    ap.add_argument("--seed-range", help="seeds lo:hi (hi exclusive), instead of --seeds")
    ap.add_argument("--texture-size", type=int, default=512, help="texels per side of most textures (64..2048, default 512)")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            ap.error(f"--kinds: '{k}' is not one of {', '.join(KINDS)}")
    if not 64 <= args.texture_size <= 2048 or args.texture_size & (args.texture_size - 1):
        ap.error("--texture-size: a power of two in 64..2048")
    os.makedirs(args.out, exist_ok=True)
    manifest = {"generator": "tools/train/make_scenes.py", "texture_size": args.texture_size, "scenes": []}
    for kind in kinds:
        for seed in parse_seeds(args):
            scene = Scene(kind, seed, args.texture_size)
            data = scene.build()
            stem = f"{kind}_s{seed}"
            with open(os.path.join(args.out, stem + ".glb"), "wb") as f:
                f.write(data)
            paths = []
            for name in scene.paths:
                file = f"{stem}_{name}.json"
                with open(os.path.join(args.out, file), "w") as f:
                    json.dump(scene.path_json(name), f, indent=1)
                paths.append(file)
            manifest["scenes"].append({"kind": kind, "seed": seed, "file": stem + ".glb", "bytes": len(data), "camera_paths": paths})
            print(f"{stem}.glb: {len(data) / 1e6:.1f} MB, {len(scene.glb.json['meshes'])} meshes, "
                  f"{len(scene.glb.json.get('textures', []))} textures, paths {', '.join(paths)}")
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
