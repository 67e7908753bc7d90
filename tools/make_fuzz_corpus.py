#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets, fuzz/corpus/<target>/seed-*, from the committed
test data and small files generated here: ONNX models encoded with a few lines of protobuf wire
format, PNGs with zlib, glTF files as JSON/GLB, JPEGs with Debian's python3-pil (the only
dependency beyond the standard library).

Files named regression-* in the same folders are inputs that once crashed a target; they are
committed as found and never rewritten here.

Run from the repository root:  /usr/bin/python3 tools/make_fuzz_corpus.py
"""
import base64
import io
import json
import os
import random
import shutil
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
TEST_ONNX = os.path.join(ROOT, "tests", "data", "onnx")


def target_dir(name):
    d = os.path.join(CORPUS, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith("seed-"):
            os.remove(os.path.join(d, f))
    return d


def write(d, name, data):
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


# --- protobuf wire format (just what ONNX models need)
def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(num << 3 | 2) + varint(len(data)) + data


def field_float(num, v):
    return varint(num << 3 | 5) + struct.pack("<f", v)


FLOAT, INT64 = 1, 7


def tensor(name, dims, values, data_type=FLOAT):
    raw = struct.pack("<%d%s" % (len(values), "f" if data_type == FLOAT else "q"), *values)
    return b"".join(field_varint(1, d) for d in dims) + field_varint(2, data_type) + field_bytes(8, name) + field_bytes(9, raw)


def attribute(name, value):
    # AttributeProto: name 1, f 2, i 3, s 4, t 5, floats 7, ints 8, type 20.
    a = field_bytes(1, name)
    if isinstance(value, float):
        return a + field_float(2, value) + field_varint(20, 1)
    if isinstance(value, int):
        return a + field_varint(3, value) + field_varint(20, 2)
    if isinstance(value, str):
        return a + field_bytes(4, value) + field_varint(20, 3)
    if isinstance(value, bytes):  # an encoded TensorProto
        return a + field_bytes(5, value) + field_varint(20, 4)
    if value and isinstance(value[0], float):
        return a + b"".join(field_float(7, v) for v in value) + field_varint(20, 6)
    return a + b"".join(field_varint(8, v) for v in value) + field_varint(20, 7)


def node(op, inputs, outputs, **attrs):
    n = b"".join(field_bytes(1, i) for i in inputs) + b"".join(field_bytes(2, o) for o in outputs)
    n += field_bytes(3, op.lower() + "_0") + field_bytes(4, op)
    return n + b"".join(field_bytes(5, attribute(k, v)) for k, v in attrs.items())


def value_info(name, dims):
    shape = b"".join(field_bytes(1, field_varint(1, d) if isinstance(d, int) else field_bytes(2, d)) for d in dims)
    tensor_type = field_varint(1, FLOAT) + field_bytes(2, shape)
    return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor_type))


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = b"".join(field_bytes(1, n) for n in nodes) + field_bytes(2, "g")
    graph += b"".join(field_bytes(5, t) for t in initializers)
    graph += b"".join(field_bytes(11, value_info(n, d)) for n, d in inputs)
    graph += b"".join(field_bytes(12, value_info(n, d)) for n, d in outputs)
    opset_import = field_bytes(1, "") + field_varint(2, opset)
    return field_varint(1, 8) + field_bytes(2, "vkml-fuzz") + field_bytes(7, graph) + field_bytes(8, opset_import)


def one_node(op, extra_inputs=(), initializers=(), opset=13, in_shape=(1, 2, 4, 4), out_shape=None, **attrs):
    x = [("x", list(in_shape))]
    n = node(op, ["x"] + list(extra_inputs), ["y"], **attrs)
    return model([n], x, [("y", list(out_shape or ["d0"]))], initializers, opset)


def onnx_seeds():
    d = target_dir("onnx")
    # The exported test models: one opset each, plus the legacy and error-path ones.
    for name in ["espcn_op9", "espcn_op17", "espcn_dynamic_op13", "unet_op13", "conv1d_op11", "elementwise_op13",
                 "normsoftmax_op13", "ops_op10", "ops_op13", "legacy_op6", "legacy_op8", "poolhead_op11", "unsupported_op"]:
        src = os.path.join(TEST_ONNX, name + ".onnx")
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(d, "seed-" + name + ".onnx"))
    w = tensor("w", [3, 2, 3, 3], [0.1 * (i % 7) for i in range(54)])
    b = tensor("b", [3], [0.5, -0.5, 0.25])
    shape = tensor("shape", [2], [1, -1], INT64)
    axes = tensor("axes", [1], [1], INT64)
    seeds = {
        "conv": one_node("Conv", ["w", "b"], [w, b], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]),
        "conv_transpose": one_node("ConvTranspose", ["w2"], [tensor("w2", [2, 2, 2, 2], [0.5] * 16)], strides=[2, 2]),
        "maxpool": one_node("MaxPool", kernel_shape=[2, 2], strides=[2, 2]),
        "avgpool": one_node("AveragePool", kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
        "global_avgpool": one_node("GlobalAveragePool"),
        "batchnorm": one_node("BatchNormalization", ["s", "bb", "m", "v"],
                              [tensor(n, [2], [1.0, 0.5]) for n in ["s", "bb", "m", "v"]], epsilon=1e-5),
        "instancenorm": one_node("InstanceNormalization", ["s", "bb"], [tensor(n, [2], [1.0, 0.5]) for n in ["s", "bb"]]),
        "resize": one_node("Resize", ["", "scales"], [tensor("scales", [4], [1.0, 1.0, 2.0, 2.0])], mode="linear"),
        "upsample_op9": one_node("Upsample", ["scales"], [tensor("scales", [4], [1.0, 1.0, 2.0, 2.0])], opset=9, mode="nearest"),
        "depth_to_space": one_node("DepthToSpace", in_shape=(1, 4, 2, 2), blocksize=2, mode="CRD"),
        "space_to_depth": one_node("SpaceToDepth", blocksize=2),
        "reshape": one_node("Reshape", ["shape"], [shape]),
        "flatten": one_node("Flatten", axis=1),
        "transpose": one_node("Transpose", perm=[0, 2, 3, 1]),
        "slice": one_node("Slice", ["st", "en", "ax"], [tensor("st", [1], [1], INT64), tensor("en", [1], [3], INT64),
                                                         tensor("ax", [1], [2], INT64)]),
        "pad": one_node("Pad", ["pads"], [tensor("pads", [8], [0, 0, 1, 1, 0, 0, 1, 1], INT64)], mode="reflect"),
        "concat": model([node("Concat", ["x", "x"], ["y"], axis=1)], [("x", [1, 2, 4, 4])], [("y", ["d0"])]),
        "split": model([node("Split", ["x"], ["y", "z"], axis=1)], [("x", [1, 2, 4, 4])], [("y", ["d0"]), ("z", ["d1"])], opset=11),
        "gemm": one_node("Gemm", ["gb"], [tensor("gb", [4, 3], [0.25] * 12)], in_shape=(2, 4), transB=0, alpha=0.5),
        "matmul": one_node("MatMul", ["mb"], [tensor("mb", [4, 3], [0.25] * 12)], in_shape=(2, 2, 4)),
        "softmax": one_node("Softmax", axis=-1),
        "reduce_mean": one_node("ReduceMean", axes=[2, 3], keepdims=1, opset=13),
        "reduce_sum": one_node("ReduceSum", ["axes"], [axes], keepdims=0),
        "clip": one_node("Clip", ["lo", "hi"], [tensor("lo", [], [0.0]), tensor("hi", [], [6.0])]),
        "prelu": one_node("PRelu", ["slope"], [tensor("slope", [2, 1, 1], [0.1, 0.2])]),
        "leaky_relu": one_node("LeakyRelu", alpha=0.1),
        "hard_sigmoid": one_node("HardSigmoid", alpha=0.2, beta=0.5),
        "gelu_op20_style": one_node("Gelu", approximate="none"),
        "add_broadcast": one_node("Add", ["c"], [tensor("c", [2, 1, 1], [1.0, 2.0])]),
        "shape_arithmetic": model([
            node("Shape", ["x"], ["s"]),
            node("Gather", ["s", "i"], ["h"], axis=0),
            node("Unsqueeze", ["h", "axes"], ["hu"]),
            node("Concat", ["one", "hu", "m1"], ["target"], axis=0),
            node("Reshape", ["x", "target"], ["y"]),
        ], [("x", [1, 2, 4, 4])], [("y", ["d0"])],
            [tensor("i", [], [2], INT64), tensor("axes", [1], [0], INT64), tensor("one", [1], [1], INT64),
             tensor("m1", [1], [-1], INT64)]),
        "constant_of_shape": model([
            node("ConstantOfShape", ["cs"], ["c"], value=tensor("v", [1], [1.5])),
            node("Add", ["x", "c"], ["y"]),
        ], [("x", [1, 2, 4, 4])], [("y", ["d0"])], [tensor("cs", [4], [1, 2, 4, 4], INT64)]),
        "tile_expand": model([
            node("Tile", ["x", "reps"], ["e"]),
            node("Expand", ["e", "es"], ["y"]),
        ], [("x", [1, 2, 1, 4])], [("y", ["d0"])],
            [tensor("es", [4], [1, 2, 3, 4], INT64), tensor("reps", [4], [1, 1, 3, 1], INT64)]),
        # Shape arithmetic folded on the CPU: comparisons, Not, Where, Cast, rounding, Range.
        "host_folding": model([
            node("Shape", ["x"], ["s"]),
            node("Cast", ["s"], ["sf"], to=1),
            node("Ceil", ["sf"], ["sc"]),
            node("Floor", ["sc"], ["sfl"]),
            node("Cast", ["sfl"], ["si"], to=7),
            node("Greater", ["si", "one"], ["big"]),
            node("Not", ["big"], ["small"]),
            node("Equal", ["si", "si"], ["same"]),
            node("Where", ["small", "one", "si"], ["target"]),
            node("Range", ["r0", "r1", "r2"], ["axes"]),
            node("Expand", ["x", "target"], ["e"]),
            node("ReduceMax", ["e"], ["y"], axes=[1], keepdims=1),
        ], [("x", [1, 2, 1, 4])], [("y", ["d0"])],
            [tensor("one", [1], [1], INT64), tensor("r0", [], [0], INT64), tensor("r1", [], [2], INT64), tensor("r2", [], [1], INT64)]),
        "free_dims": model([node("Relu", ["x"], ["y"])], [("x", ["batch", 2, "height", "width"])], [("y", ["d0"])]),
    }
    for name, data in seeds.items():
        write(d, name + ".onnx", data)


# --- .npy
def npy(dict_text, payload, major=1):
    header = dict_text.encode()
    prefix = 10 if major == 1 else 12
    header += b" " * ((64 - (prefix + len(header) + 1) % 64) % 64) + b"\n"
    length = struct.pack("<H", len(header)) if major == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([major, 0]) + length + header + payload


def floats(values, fmt="f"):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def npy_files():
    f4 = lambda shape: "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    return {
        "f4_2x3.npy": npy(f4("(2, 3)"), floats([1, 2, 3, 4, 5, 6])),
        "f4_scalar.npy": npy(f4("()"), floats([7])),
        "f4_1d.npy": npy(f4("(3,)"), floats([1, -1, 0.5])),
        "f4_5d.npy": npy(f4("(1, 1, 2, 1, 2)"), floats([1, 2, 3, 4])),
        "f4_v2.npy": npy(f4("(2,)"), floats([1, 2]), major=2),
        "f4_v3.npy": npy(f4("(2,)"), floats([1, 2]), major=3),
        "f4_empty.npy": npy(f4("(0, 3)"), b""),
        "f2_3.npy": npy("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", floats([1.0, -2.0, 0.5], "e")),
        "fortran.npy": npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", floats([1, 2, 3, 4])),
        "f8.npy": npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", floats([1], "d")),
    }


def npy_seeds():
    d = target_dir("npy")
    for name, data in npy_files().items():
        write(d, name, data)


# --- PNG
def png(width, height, color_type, bit_depth, rows, plte=None, trns=None, interlace=0):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if plte:
        out += chunk(b"PLTE", plte)
    if trns:
        out += chunk(b"tRNS", trns)
    # Filter types cycle 0..4 over the rows so every unfilter path is in the corpus.
    raw = b"".join(bytes([i % 5]) + r for i, r in enumerate(rows))
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def png_files():
    rng = random.Random(7)
    rand = lambda n: bytes(rng.randrange(256) for _ in range(n))
    w, h = 5, 4
    files = {
        "gray8.png": png(w, h, 0, 8, [rand(w) for _ in range(h)]),
        "gray1.png": png(9, 2, 0, 1, [rand(2) for _ in range(2)]),
        "gray16.png": png(w, h, 0, 16, [rand(2 * w) for _ in range(h)]),
        "gray_alpha.png": png(w, h, 4, 8, [rand(2 * w) for _ in range(h)]),
        "rgb8.png": png(w, h, 2, 8, [rand(3 * w) for _ in range(h)]),
        "rgb16.png": png(2, 2, 2, 16, [rand(12) for _ in range(2)]),
        "rgba8.png": png(w, h, 6, 8, [rand(4 * w) for _ in range(h)]),
        "palette4.png": png(w, h, 3, 4, [rand(3) for _ in range(h)], plte=rand(48), trns=rand(4)),
        "rgb_trns.png": png(2, 2, 2, 8, [rand(6) for _ in range(2)], trns=rand(6)),
        # Adam7 with a 1x1 image: every pass but the first is empty, one row of one pixel.
        "interlaced.png": png(1, 1, 6, 8, [rand(4)], interlace=1),
    }
    golden = os.path.join(ROOT, "tests", "data", "golden_96x64.png")
    if os.path.exists(golden) and os.path.getsize(golden) < 32768:
        with open(golden, "rb") as f:
            files["golden_96x64.png"] = f.read()
    return files


def jpeg_files():
    from PIL import Image  # python3-pil
    rng = random.Random(5)
    files = {}
    for name, mode, size, kwargs in [("rgb_q90.jpg", "RGB", (8, 6), {"quality": 90}),
                                     ("gray.jpg", "L", (5, 3), {}),
                                     ("progressive.jpg", "RGB", (9, 9), {"progressive": True}),
                                     ("subsampled.jpg", "RGB", (17, 5), {"subsampling": 2, "quality": 50})]:
        img = Image.new(mode, size)
        img.putdata([tuple(rng.randrange(256) for _ in mode) if len(mode) > 1 else rng.randrange(256)
                     for _ in range(size[0] * size[1])])
        out = io.BytesIO()
        img.save(out, "JPEG", **kwargs)
        files[name] = out.getvalue()
    return files


def image_io_seeds():
    d = target_dir("image_io")
    for name, data in png_files().items():
        write(d, name, data)
    for name, data in jpeg_files().items():
        write(d, name, data)
    for name in ["f4_2x3.npy", "f4_1d.npy", "f4_v2.npy"]:
        write(d, name, npy_files()[name])


# --- glTF: JSON with data: URIs, external files (the fuzz target's folder holds ext.bin, a
# triangle's positions, and ext.png), and GLB with images in buffer views.
def gltf_model(primitive_mode=4, indexed=True, texture=None, glb=False, external=False, extra=None):
    positions = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    normals = [(0, 0, 1)] * 4
    uvs = [(0, 1), (1, 1), (1, 0), (0, 0)]
    indices = [0, 1, 2, 0, 2, 3]
    bin_ = b"".join(struct.pack("<3f", *p) for p in positions) + b"".join(struct.pack("<3f", *n) for n in normals)
    bin_ += b"".join(struct.pack("<2f", *u) for u in uvs) + struct.pack("<6H", *indices) + b"\0\0"
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48},
             {"buffer": 0, "byteOffset": 96, "byteLength": 32}, {"buffer": 0, "byteOffset": 128, "byteLength": 12}]
    accessors = [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
                 {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
                 {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
                 {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"}]
    primitive = {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "mode": primitive_mode}
    if indexed:
        primitive["indices"] = 3
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"children": [1], "rotation": [0, 0.3826834, 0, 0.9238795]},
                     {"mesh": 0, "translation": [0, 1, 0], "scale": [2, 2, 2]}],
           "meshes": [{"primitives": [primitive]}], "accessors": accessors, "bufferViews": views}
    material = {"pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.25, 1], "metallicFactor": 0, "roughnessFactor": 0.8},
                "alphaMode": "MASK", "alphaCutoff": 0.4, "doubleSided": False}
    if texture is not None:
        data, mime = texture
        material["pbrMetallicRoughness"]["baseColorTexture"] = {"index": 0}
        doc["samplers"] = [{"magFilter": 9728, "minFilter": 9987, "wrapS": 33071, "wrapT": 33648}]
        doc["textures"] = [{"source": 0, "sampler": 0}]
        if glb:
            while len(bin_) % 4:
                bin_ += b"\0"
            views.append({"buffer": 0, "byteOffset": len(bin_), "byteLength": len(data)})
            bin_ += data
            doc["images"] = [{"bufferView": len(views) - 1, "mimeType": mime}]
        elif external:
            doc["images"] = [{"uri": "ext.png"}]
        else:
            doc["images"] = [{"uri": "data:%s;base64,%s" % (mime, base64.b64encode(data).decode())}]
    doc["materials"] = [material]
    primitive["material"] = 0
    if extra:
        doc.update(extra)
    if glb:
        while len(bin_) % 4:
            bin_ += b"\0"
        doc["buffers"] = [{"byteLength": len(bin_)}]
        text = json.dumps(doc, separators=(",", ":")).encode()
        text += b" " * ((4 - len(text) % 4) % 4)
        chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(bin_), b"BIN\0") + bin_
        return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks
    if external:
        # ext.bin holds only a triangle's positions: a non-indexed triangle.
        doc["buffers"] = [{"uri": "ext.bin", "byteLength": 36}]
        doc["bufferViews"] = [{"buffer": 0, "byteLength": 36}]
        doc["accessors"] = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]
        doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}]
    else:
        doc["buffers"] = [{"byteLength": len(bin_), "uri": "data:application/octet-stream;base64," + base64.b64encode(bin_).decode()}]
    return json.dumps(doc, indent=1).encode()


def gltf_seeds():
    d = target_dir("gltf")
    png = png_files()["rgba8.png"]
    jpeg = jpeg_files()["rgb_q90.jpg"]
    seeds = {
        "quad_data_uri.gltf": gltf_model(),
        "triangle_strip_unindexed.gltf": gltf_model(primitive_mode=5, indexed=False),
        "triangle_fan.gltf": gltf_model(primitive_mode=6),
        "textured_png.gltf": gltf_model(texture=(png, "image/png")),
        "textured_jpeg.gltf": gltf_model(texture=(jpeg, "image/jpeg")),
        "textured.glb": gltf_model(texture=(png, "image/png"), glb=True),
        "plain.glb": gltf_model(glb=True),
        "external_files.gltf": gltf_model(texture=(png, "image/png"), external=True),
        "warnings.gltf": gltf_model(extra={"extensionsUsed": ["KHR_texture_transform"], "animations": [], "cameras": [
            {"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}]}),
        "required_extension.gltf": gltf_model(extra={"extensionsUsed": ["KHR_draco_mesh_compression"],
                                                     "extensionsRequired": ["KHR_draco_mesh_compression"]}),
    }
    for name, data in seeds.items():
        write(d, name, data)


def camera_path_seeds():
    d = target_dir("camera_path")
    key = lambda t, p, tg, **kw: dict({"time": t, "position": p, "target": tg}, **kw)
    seeds = {
        "one_keyframe.json": {"keyframes": [key(0, [0, 2, 10], [0, 1, 0])]},
        "spline.json": {"name": "walk", "near": 0.1, "far": 500, "keyframes": [
            key(0, [0, 2, 10], [0, 1, 0], fov_y_deg=60), key(1.5, [5, 2, 5], [0, 1, 0]), key(3, [10, 3, 0], [0, 1, 0], fov_y_deg=45),
            key(4, [8, 3, -6], [0, 1, 0])]},
        "cuts.json": {"keyframes": [key(0, [0, 2, 10], [0, 1, 0]), key(2, [1, 2, 9], [0, 1, 0]), key(2.5, [-5, 4, 0], [1, 0, 0], cut=True),
                                    key(4, [-4, 4, 1], [1, 0, 0])]},
        "unknown_field.json": {"keyframes": [key(0, [0, 2, 10], [0, 1, 0])], "fov": 60},
        "decreasing_time.json": {"keyframes": [key(1, [0, 2, 10], [0, 1, 0]), key(0.5, [1, 2, 10], [0, 1, 0])]},
    }
    for name, doc in seeds.items():
        write(d, name, json.dumps(doc).encode())


# --- the effect's argument checks: FuzzedDataProvider bytes, as for operator_desc.
def effect_desc_seeds():
    d = target_dir("effect_desc")
    rng = random.Random(13)
    for i, length in enumerate((32, 64, 128, 256, 512)):
        write(d, "random%d_%d.bin" % (i, length), bytes(rng.randrange(256) for _ in range(length)))


# --- structured descs: FuzzedDataProvider takes integers from the end of the input, so random
# bytes of a few lengths reach every operator kind quickly; the fuzzer grows them from there.
def operator_desc_seeds():
    d = target_dir("operator_desc")
    rng = random.Random(11)
    for kind in range(17):
        for length in (48, 160):
            data = bytearray(rng.randrange(256) for _ in range(length))
            data[-2] = kind  # after the name flag (last byte), the kind is read from the next one
            write(d, "kind%02d_%d.bin" % (kind, length), bytes(data))


if __name__ == "__main__":
    onnx_seeds()
    npy_seeds()
    image_io_seeds()
    operator_desc_seeds()
    gltf_seeds()
    camera_path_seeds()
    effect_desc_seeds()
    for t in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, t))
        size = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for f in files)
        print("%-14s %3d files %7d bytes" % (t, len(files), size))
