#!/usr/bin/python3
"""Writes ONNX node tests for the loader under tests/data/onnx_node (needs Debian's python3-onnx
and python3-numpy; CI only reads the committed files).

Sources:
  * ONNX's own backend node test cases (onnx/backend/test/case/node in python3-onnx, the code
    that generates upstream's backend/test/data/node; Debian ships the code, not the data) for
    every operator the loader converts, at the opsets they were written for (up to 17);
  * the same cases moved to the opset 18-21 forms of their operators where the expected outputs
    do not change (Reduce* axes as an input, Split num_outputs, Resize / Pad / AveragePool at 19
    or 21);
  * hand-written cases for what is new in opsets 18-21 (Resize axes, keep_aspect_ratio_policy,
    antialias, half_pixel_symmetric; Pad axes and wrap; Gelu tanh; GridSample-20 mode names;
    AveragePool dilations) and for rank-8 tensors, with numpy references.

Each case is a folder in upstream's layout:
  <case>/model.onnx, <case>/test_data_set_0/input_<i>.pb, output_<i>.pb (TensorProto)
The model's doc_string says what the loader must do: "expect: pass", or "expect: unsupported:
<text>" (an Unsupported error containing <text>). Inputs the loader needs at load time (integer
inputs: shapes, axes, pads, repeats; Resize scales, Clip bounds, Pad values) are turned into
initializers holding the test's values; cases whose outputs are not floating-point (the loader's
graphs compute floats) or that keep no runtime input are left out.

Run from the repository root:  /usr/bin/python3 tools/make_node_tests.py
"""
import importlib
import math
import os
import pkgutil
import shutil

import numpy as np

# The case modules of python3-onnx 1.12 still use numpy's removed aliases.
for alias, value in (("float", float), ("int", int), ("bool", bool), ("object", object)):
    if not hasattr(np, alias):
        setattr(np, alias, value)

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
import onnx.backend.test.case.node as node_cases  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "onnx_node")
# Cases above this many bytes of test data are left out (the committed copy stays small).
MAX_CASE_BYTES = 16 * 1024

# Operators the loader converts (mlplugin::supportedOnnxOperators()).
SUPPORTED = {
    "Abs", "Add", "AveragePool", "BatchNormalization", "Cast", "Ceil", "Clip", "Concat", "Constant", "ConstantOfShape", "Conv",
    "ConvTranspose", "DepthToSpace", "Div", "Dropout", "Elu", "Equal", "Exp", "Expand", "Flatten", "Floor", "Gather", "Gelu",
    "Gemm", "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool", "Greater", "GridSample", "HardSigmoid", "HardSwish",
    "Identity", "InstanceNormalization", "LayerNormalization", "LeakyRelu", "Less", "Log", "LogSoftmax", "LpPool", "MatMul",
    "Max", "MaxPool", "Min", "Mul", "Neg", "Not", "PRelu", "Pad", "Pow", "Range", "Reciprocal", "ReduceL1", "ReduceL2",
    "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
    "Relu", "Reshape", "Resize", "Selu", "Shape", "Sigmoid", "Slice", "Softmax", "Softplus", "SpaceToDepth", "Split", "Sqrt",
    "Squeeze", "Sub", "Sum", "Tanh", "Tile", "Transpose", "Unsqueeze", "Upsample", "Where",
}

# Float inputs the loader needs at load time, by operator: input indices.
LOAD_TIME_INPUTS = {"Resize": {1, 2, 3}, "Upsample": {1}, "Clip": {1, 2}, "Pad": {1, 2, 3}}

FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE}

# Cases the loader refuses on purpose, with a fragment of its Unsupported message.
_CUBIC = "'mode' = 'cubic' is not supported"
_LOAD_TIME = "must be known at load time"
EXPECTED_UNSUPPORTED = {
    "gridsample20_cubic": _CUBIC,
    "gridsample20_volumetric": "only 2-D sampling of 4-D",
    "test_gridsample_bicubic": "'mode' = 'bicubic' is not supported",
    "test_gridsample_bicubic_opset19": "'mode' = 'bicubic' is not supported",
    "matmul_rank6_four_batch_groups": "needs 4 batch dims after merging",
    "resize18_antialias_downsample": "'antialias' = 1 when downsampling",
    "test_resize_tf_crop_and_resize": "'tf_crop_and_resize' is not supported",
    "test_resize_tf_crop_and_resize_opset19": "'tf_crop_and_resize' is not supported",
    "test_batchnorm_epsilon_training_mode": "training_mode = 1 is not supported",
    "test_batchnorm_example_training_mode": "training_mode = 1 is not supported",
    "test_training_dropout": "training_mode = true is not supported",
    "test_training_dropout_default": "training_mode = true is not supported",
    "test_training_dropout_zero_ratio": "training_mode = true is not supported",
    "test_castlike_BFLOAT16_to_FLOAT_expanded": "is not supported (float, float16",
    "test_castlike_STRING_to_FLOAT_expanded": "is not supported (float, float16",
    "test_pow_types_float32_uint32": "is not supported (float, float16",
    "test_pow_types_float32_uint64": "is not supported (float, float16",
    # Host-only operators (shape arithmetic) on runtime tensors.
    "test_ceil": _LOAD_TIME, "test_ceil_example": _LOAD_TIME, "test_floor": _LOAD_TIME, "test_floor_example": _LOAD_TIME,
    "test_range_float_type_positive_delta": _LOAD_TIME, "test_where_example": _LOAD_TIME,
    "test_gather_0": "supports one index only", "test_gather_1": "supports one index only",
    "test_gather_2d_indices": "supports one index only", "test_gather_negative_indices": "supports one index only",
    "test_convtranspose_3d": "3-D (NCW) and 4-D (NCHW) tensors are supported",
    "test_convtranspose_autopad_same": "without output_shape is not supported",
    "test_convtranspose_output_shape": "larger than the full transposed convolution is not supported",
    "test_globalaveragepool": "opset 1 is not supported", "test_globalaveragepool_precomputed": "opset 1 is not supported",
    "test_globalmaxpool": "opset 1 is not supported", "test_globalmaxpool_precomputed": "opset 1 is not supported",
    "test_softplus": "opset 1 is not supported", "test_softplus_example": "opset 1 is not supported",
    "test_reshape_allowzero_reordered": "empty tensors are not supported",
    "test_split_zero_size_splits": "empty tensors are not supported",
    "test_slice_start_out_of_bounds": "empty slices are not supported",
}

# Cases left out, with the reason (documented deviations).
EXCLUDED = {
    # Casts between float types are views: a Cast to float16 inside an fp32 graph does not round.
    "test_cast_DOUBLE_to_FLOAT16", "test_cast_FLOAT_to_FLOAT16", "test_castlike_DOUBLE_to_FLOAT16_expanded",
    "test_castlike_FLOAT_to_FLOAT16_expanded", "test_castlike_DOUBLE_to_FLOAT16", "test_castlike_FLOAT_to_FLOAT16",
}


def expectation(name):
    reason = EXPECTED_UNSUPPORTED.get(name)
    return "expect: pass" if reason is None else "expect: unsupported: " + reason


def opset_of(model):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    return 0


def set_opset(model, version):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = version


def write_case(name, model, inputs, outputs):
    """Writes one case; inputs/outputs are numpy arrays in graph input/output order."""
    folder = os.path.join(OUT, name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    model.doc_string = expectation(name)
    with open(os.path.join(folder, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, arrays, infos in (("input", inputs, model.graph.input), ("output", outputs, model.graph.output)):
        for i, (array, info) in enumerate(zip(arrays, infos)):
            tensor = numpy_helper.from_array(np.asarray(array), info.name)
            with open(os.path.join(data, f"{kind}_{i}.pb"), "wb") as f:
                f.write(tensor.SerializeToString())


def freeze_load_time_inputs(model, inputs):
    """Turns integer inputs, and the float ones in LOAD_TIME_INPUTS, into initializers."""
    graph = model.graph
    consumers = {}
    for node in graph.node:
        for index, name in enumerate(node.input):
            consumers.setdefault(name, []).append((node.op_type, index))
    kept_inputs, kept_values = [], []
    for info, value in zip(list(graph.input), inputs):
        elem = info.type.tensor_type.elem_type
        load_time = elem not in FLOAT_TYPES or any(index in LOAD_TIME_INPUTS.get(op, ()) for op, index in consumers.get(info.name, []))
        if load_time:
            graph.initializer.append(numpy_helper.from_array(np.asarray(value), info.name))
        else:
            kept_inputs.append(info)
            kept_values.append(value)
    del graph.input[:]
    graph.input.extend(kept_inputs)
    return kept_values


def usable(model, outputs):
    if any(n.op_type not in SUPPORTED or n.domain not in ("", "ai.onnx") for n in model.graph.node):
        return False
    for info in list(model.graph.input) + list(model.graph.output):
        if not info.type.HasField("tensor_type"):
            return False
    return all(isinstance(o, np.ndarray) and o.dtype.kind == "f" for o in outputs)


def case_bytes(inputs, outputs):
    return sum(np.asarray(a).nbytes for a in list(inputs) + list(outputs))


def onnx_cases():
    """ONNX's node cases for the supported operators: (name, model, inputs, outputs)."""
    for module in pkgutil.iter_modules(node_cases.__path__):
        importlib.import_module("onnx.backend.test.case.node." + module.name)
    for case in node_cases._NodeTestCases:
        if case.name in EXCLUDED:
            continue
        model = onnx.ModelProto()
        model.CopyFrom(case.model)
        inputs, outputs = case.data_sets[0]
        if not usable(model, outputs):
            continue
        inputs = freeze_load_time_inputs(model, list(inputs))
        if not inputs or case_bytes(inputs, outputs) > MAX_CASE_BYTES:
            continue
        yield case.name, model, inputs, list(outputs)


# --- the same cases in their opset 18-21 forms ----------------------------------------------

REDUCE_OPS = {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd",
              "ReduceSumSquare"}


def upgraded(name, model):
    """(new name, model) in an opset 18-21 form with the same outputs, or None."""
    node = model.graph.node[0] if len(model.graph.node) == 1 else None
    if node is None:
        return None
    op = node.op_type
    new = onnx.ModelProto()
    new.CopyFrom(model)
    n = new.graph.node[0]
    if op in REDUCE_OPS and opset_of(model) < 18:
        # axes: attribute -> int64 initializer input.
        axes = [a for a in n.attribute if a.name == "axes"]
        kept = [a for a in n.attribute if a.name != "axes"]
        del n.attribute[:]
        n.attribute.extend(kept)
        if axes:
            axes_name = n.name + "_axes" if n.name else "axes18"
            new.graph.initializer.append(numpy_helper.from_array(np.array(axes[0].ints, dtype=np.int64), axes_name))
            n.input.append(axes_name)
        set_opset(new, 18)
        return name + "_opset18", new
    if op == "Split" and opset_of(model) >= 13 and len(n.input) == 1:
        n.attribute.append(helper.make_attribute("num_outputs", len(n.output)))
        set_opset(new, 18)
        return name + "_opset18", new
    if op in ("Resize", "AveragePool", "GridSample") and 11 <= opset_of(model) < 18:
        set_opset(new, 19)
        return name + "_opset19", new
    if op == "Pad" and 11 <= opset_of(model) < 18:
        set_opset(new, 21)
        return name + "_opset21", new
    if op in ("GlobalAveragePool", "GlobalMaxPool", "Softplus") and opset_of(model) < 6:
        set_opset(new, 13)  # same semantics; opset 1 itself is below the loader's range
        return name + "_opset13", new
    return None


# --- hand-written opset 18-21 and rank-8 cases ---------------------------------------------

RNG = np.random.default_rng(20)


def rand(*shape):
    return RNG.uniform(-1.0, 1.0, size=shape).astype(np.float32)


def single_node_model(op, inputs, outputs, opset, initializers=(), **attrs):
    """inputs / outputs: (name, array-or-shape) lists; initializers: (name, array)."""
    node = helper.make_node(op, [n for n, _ in inputs] + [n for n, _ in initializers], [n for n, _ in outputs], **attrs)
    return graph_model([node], inputs, outputs, opset, initializers)


def graph_model(nodes, inputs, outputs, opset, initializers=()):
    def info(name, array):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(np.shape(array)))
    graph = helper.make_graph(nodes, "g", [info(n, a) for n, a in inputs], [info(n, a) for n, a in outputs],
                              [numpy_helper.from_array(np.asarray(a), n) for n, a in initializers])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def resize_1d(x, axis, out_len, scale, mode, transform):
    """ONNX Resize along one axis (linear or nearest round_prefer_floor), numpy reference."""
    in_len = x.shape[axis]
    coords = []
    for o in range(out_len):
        if transform == "half_pixel":
            c = (o + 0.5) / scale - 0.5
        elif transform == "half_pixel_symmetric":
            adjustment = out_len / (scale * in_len)
            c = in_len / 2 * (1 - adjustment) + (o + 0.5) / scale - 0.5
        elif transform == "align_corners":
            c = 0.0 if out_len == 1 else o * (in_len - 1) / (out_len - 1)
        else:
            c = o / scale
        coords.append(c)
    xs = np.moveaxis(x, axis, -1).astype(np.float64)
    out = np.empty(xs.shape[:-1] + (out_len,))
    for o, c in enumerate(coords):
        if mode == "nearest":
            i = int(math.ceil(c - 0.5))
            out[..., o] = xs[..., min(max(i, 0), in_len - 1)]
        else:
            c = min(max(c, 0.0), in_len - 1)
            i0 = int(math.floor(c))
            i1 = min(i0 + 1, in_len - 1)
            t = c - i0
            out[..., o] = xs[..., i0] * (1 - t) + xs[..., i1] * t
    return np.moveaxis(out, -1, axis)


def resize_ref(x, sizes, scales, mode="linear", transform="half_pixel"):
    y = x.astype(np.float64)
    for axis in (2, 3):
        y = resize_1d(y, axis, sizes[axis], scales[axis], mode, transform)
    return y.astype(np.float32)


def resize_cases():
    x = rand(1, 2, 5, 7)
    # axes (18): scales for H and W only.
    scales = np.array([2.0, 0.5], dtype=np.float32)
    y = resize_ref(x, [1, 2, 10, 3], [1, 1, 2.0, 0.5])
    model = single_node_model("Resize", [("X", x)], [("Y", y)], 18, [("roi", np.array([], dtype=np.float32)), ("scales", scales)],
                              mode="linear", axes=[2, 3])
    yield "resize18_axes_scales_linear", model, [x], [y]
    # axes with negative values and sizes.
    sizes = np.array([4, 9], dtype=np.int64)
    y = resize_ref(x, [1, 2, 4, 9], [1, 1, 4 / 5, 9 / 7], mode="nearest")
    model = single_node_model("Resize", [("X", x)], [("Y", y)], 18, [("roi", np.array([], dtype=np.float32)), ("scales", np.array([], dtype=np.float32)),
                                                                    ("sizes", sizes)], mode="nearest", axes=[-2, -1])
    yield "resize18_axes_sizes_nearest", model, [x], [y]
    # keep_aspect_ratio_policy: one scale for H and W, output round(scale * input).
    for policy, pick in (("not_larger", min), ("not_smaller", max)):
        want = [1, 2, 8, 8]
        s = pick(8 / 5, 8 / 7)
        out = [1, 2, int(round(s * 5)), int(round(s * 7))]
        y = resize_ref(x, out, [1, 1, s, s])
        model = single_node_model("Resize", [("X", x)], [("Y", y)], 18, [("roi", np.array([], dtype=np.float32)),
                                  ("scales", np.array([], dtype=np.float32)), ("sizes", np.array(want, dtype=np.int64))],
                                  mode="linear", keep_aspect_ratio_policy=policy)
        yield f"resize18_keep_aspect_ratio_{policy}", model, [x], [y]
    # antialias: no effect when upsampling; refused when downsampling.
    y = resize_ref(x, [1, 2, 10, 14], [1, 1, 2, 2])
    model = single_node_model("Resize", [("X", x)], [("Y", y)], 18, [("roi", np.array([], dtype=np.float32)),
                              ("scales", np.array([1, 1, 2, 2], dtype=np.float32))], mode="linear", antialias=1)
    yield "resize18_antialias_upsample", model, [x], [y]
    y = resize_ref(x, [1, 2, 2, 3], [1, 1, 0.5, 0.5])
    model = single_node_model("Resize", [("X", x)], [("Y", y)], 18, [("roi", np.array([], dtype=np.float32)),
                              ("scales", np.array([1, 1, 0.5, 0.5], dtype=np.float32))], mode="linear", antialias=1)
    yield "resize18_antialias_downsample", model, [x], [y]
    # half_pixel_symmetric (19): a scale that does not give a whole output size.
    for mode in ("linear", "nearest"):
        s = 0.7
        out = [1, 2, int(5 * s), int(7 * s)]
        y = resize_ref(x, out, [1, 1, s, s], mode=mode, transform="half_pixel_symmetric")
        model = single_node_model("Resize", [("X", x)], [("Y", y)], 19, [("roi", np.array([], dtype=np.float32)),
                                  ("scales", np.array([1, 1, s, s], dtype=np.float32))], mode=mode,
                                  coordinate_transformation_mode="half_pixel_symmetric")
        yield f"resize19_half_pixel_symmetric_{mode}", model, [x], [y]
    # Cubic (every transform, exclude_outside, cubic_coeff_a) is covered by upstream's
    # test_resize_*_cubic* cases and their _opset19 forms.


def pad_cases():
    x = rand(2, 3, 4, 5)
    # axes input (18): pads for dims 1 and 3 only (begin 1, 2; end 0, 1), negative axis.
    y = np.pad(x, [(0, 0), (1, 0), (0, 0), (2, 1)], mode="constant", constant_values=0.5)
    model = single_node_model("Pad", [("x", x)], [("y", y)], 18,
                              [("pads", np.array([1, 2, 0, 1], dtype=np.int64)), ("value", np.array(0.5, dtype=np.float32)),
                               ("axes", np.array([1, -1], dtype=np.int64))], mode="constant")
    yield "pad18_axes_constant", model, [x], [y]
    for mode in ("edge", "reflect"):
        y = np.pad(x, [(0, 0), (0, 0), (3, 1), (0, 0)], mode=mode)
        model = single_node_model("Pad", [("x", x)], [("y", y)], 18,
                                  [("pads", np.array([3, 1], dtype=np.int64)), ("value", np.array(0.0, dtype=np.float32)),
                                   ("axes", np.array([2], dtype=np.int64))], mode=mode)
        yield f"pad18_axes_{mode}", model, [x], [y]
    # wrap (19). Pads up to the dim's size: numpy (ONNX's reference) differs from the torus the
    # spec describes when a pad is larger (the loader wraps modulo the size).
    y = np.pad(x, [(0, 0), (1, 2), (4, 3), (2, 5)], mode="wrap")
    model = single_node_model("Pad", [("x", x)], [("y", y)], 19, [("pads", np.array([0, 1, 4, 2, 0, 2, 3, 5], dtype=np.int64))], mode="wrap")
    yield "pad19_wrap", model, [x], [y]
    # Negative pads crop (constant mode).
    y = np.pad(x[:, 1:, :, 2:4], [(1, 0), (0, 1), (2, 0), (0, 0)], mode="constant")
    model = single_node_model("Pad", [("x", x)], [("y", y)], 21, [("pads", np.array([1, -1, 2, -2, 0, 1, 0, -1], dtype=np.int64))],
                              mode="constant")
    yield "pad21_negative_crops", model, [x], [y]


def split_cases():
    x = rand(2, 7, 3)
    parts = np.split(x, [3, 6], axis=1)
    model = single_node_model("Split", [("x", x)], [(f"y{i}", p) for i, p in enumerate(parts)], 18, axis=1, num_outputs=3)
    yield "split18_num_outputs_uneven", model, [x], parts


def reduce_cases():
    x = rand(2, 3, 4, 5)
    refs = {
        "ReduceMean": lambda a, axes, keep: np.mean(a, axis=axes, keepdims=keep),
        "ReduceSum": lambda a, axes, keep: np.sum(a, axis=axes, keepdims=keep),
        "ReduceMax": lambda a, axes, keep: np.max(a, axis=axes, keepdims=keep),
        "ReduceMin": lambda a, axes, keep: np.min(a, axis=axes, keepdims=keep),
        "ReduceProd": lambda a, axes, keep: np.prod(a, axis=axes, keepdims=keep),
        "ReduceL1": lambda a, axes, keep: np.sum(np.abs(a), axis=axes, keepdims=keep),
        "ReduceL2": lambda a, axes, keep: np.sqrt(np.sum(a * a, axis=axes, keepdims=keep)),
        "ReduceSumSquare": lambda a, axes, keep: np.sum(a * a, axis=axes, keepdims=keep),
        "ReduceLogSum": lambda a, axes, keep: np.log(np.sum(a, axis=axes, keepdims=keep)),
        "ReduceLogSumExp": lambda a, axes, keep: np.log(np.sum(np.exp(a), axis=axes, keepdims=keep)),
    }
    for op, ref in refs.items():
        a = np.abs(x) + 0.5 if op == "ReduceLogSum" else x * 4 if op == "ReduceLogSumExp" else x
        y = ref(a.astype(np.float64), (1, 3), False).astype(np.float32)
        model = single_node_model(op, [("x", a)], [("y", y)], 18, [("axes", np.array([-3, 3], dtype=np.int64))], keepdims=0)
        yield f"{op.lower()}18_axes_input_no_keepdims", model, [a], [y]
        # noop_with_empty_axes: no axes -> the input unchanged.
        model = single_node_model(op, [("x", a)], [("y", a)], 18, noop_with_empty_axes=1)
        yield f"{op.lower()}18_noop_with_empty_axes", model, [a], [a]
        # No axes, no noop: every dim.
        y = ref(a.astype(np.float64), None, True).astype(np.float32)
        model = single_node_model(op, [("x", a)], [("y", y)], 20 if op in ("ReduceMax", "ReduceMin") else 18)
        yield f"{op.lower()}18_all_axes", model, [a], [y]


def pool_cases():
    x = rand(1, 2, 9, 8)
    # dilations (19): a 2x2 window with dilation 2 -> taps 2 apart, stride 1.
    y = np.zeros((1, 2, 7, 6), np.float32)
    for i in range(7):
        for j in range(6):
            y[:, :, i, j] = x[:, :, i:i + 3:2, j:j + 3:2].mean(axis=(2, 3))
    model = single_node_model("AveragePool", [("x", x)], [("y", y)], 19, kernel_shape=[2, 2], dilations=[2, 2])
    yield "averagepool19_dilations", model, [x], [y]
    # LpPool p=3 and GlobalLpPool p=2.
    y = np.zeros((1, 2, 4, 4), np.float32)
    for i in range(4):
        for j in range(4):
            y[:, :, i, j] = np.sum(np.abs(x[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 2]) ** 3, axis=(2, 3)) ** (1 / 3)
    model = single_node_model("LpPool", [("x", x)], [("y", y)], 18, kernel_shape=[3, 2], strides=[2, 2], p=3)
    yield "lppool18_p3", model, [x], [y]
    y = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=(2, 3), keepdims=True)).astype(np.float32)
    model = single_node_model("GlobalLpPool", [("x", x)], [("y", y)], 18)
    yield "globallppool_p2", model, [x], [y]


def gelu_cases():
    x = rand(3, 4, 5) * 4
    erf = np.vectorize(math.erf)
    y = (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(np.float32)
    yield "gelu20_default", single_node_model("Gelu", [("x", x)], [("y", y)], 20), [x], [y]
    y = (0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))).astype(np.float32)
    yield "gelu20_tanh", single_node_model("Gelu", [("x", x)], [("y", y)], 20, approximate="tanh"), [x], [y]


def grid_sample_ref(x, grid, mode, padding, align):
    """PyTorch's / ONNX's GridSample (2-D), numpy reference."""
    n, c, h, w = x.shape
    _, oh, ow, _ = grid.shape
    out = np.zeros((n, c, oh, ow))

    def unnorm(g, size):
        return (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2

    def reflect(v, low2, high2):
        if low2 == high2:
            return 0.0
        low, span = low2 / 2, (high2 - low2) / 2
        v = abs(v - low)
        extra, flips = math.fmod(v, span), math.floor(v / span)
        return extra + low if flips % 2 == 0 else span - extra + low

    def source(g, size):
        v = unnorm(g, size)
        if padding == "reflection":
            v = reflect(v, 0, 2 * (size - 1)) if align else reflect(v, -1, 2 * size - 1)
        if padding != "zeros":
            v = min(max(v, 0), size - 1)
        return v

    def at(b, yy, xx):
        return x[b, :, yy, xx] if 0 <= yy < h and 0 <= xx < w else np.zeros(c)

    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                px, py = source(float(grid[b, i, j, 0]), w), source(float(grid[b, i, j, 1]), h)
                if mode == "nearest":
                    out[b, :, i, j] = at(b, int(np.rint(py)), int(np.rint(px)))
                    continue
                x0, y0 = math.floor(px), math.floor(py)
                tx, ty = px - x0, py - y0
                out[b, :, i, j] = ((at(b, y0, x0) * (1 - tx) + at(b, y0, x0 + 1) * tx) * (1 - ty) +
                                   (at(b, y0 + 1, x0) * (1 - tx) + at(b, y0 + 1, x0 + 1) * tx) * ty)
    return out.astype(np.float32)


def grid_sample_cases():
    x = rand(2, 3, 5, 6)
    grid = (RNG.uniform(-1.4, 1.4, size=(2, 4, 7, 2))).astype(np.float32)
    for mode, name in (("linear", "linear"), ("nearest", "nearest")):
        for padding in ("zeros", "border", "reflection"):
            for align in (0, 1):
                y = grid_sample_ref(x, grid, mode, padding, align)
                model = single_node_model("GridSample", [("X", x), ("grid", grid)], [("Y", y)], 20, mode=name, padding_mode=padding,
                                          align_corners=align)
                yield f"gridsample20_{name}_{padding}_align{align}", model, [x, grid], [y]
    y = np.zeros((2, 3, 4, 7), np.float32)
    model = single_node_model("GridSample", [("X", x), ("grid", grid)], [("Y", y)], 20, mode="cubic")
    yield "gridsample20_cubic", model, [x, grid], [y]
    x3 = rand(1, 2, 3, 4, 5)
    grid3 = rand(1, 2, 3, 4, 3)
    y = np.zeros((1, 2, 2, 3, 4), np.float32)
    model = single_node_model("GridSample", [("X", x3), ("grid", grid3)], [("Y", y)], 20)
    yield "gridsample20_volumetric", model, [x3, grid3], [y]


def rank8_cases():
    # Transpose, broadcast Add with alternating size-1 dims, ReduceMean over alternating axes,
    # Softmax, Pad and Slice of 8-D tensors.
    a = rand(2, 1, 3, 1, 2, 1, 2, 1)
    b = rand(1, 2, 1, 3, 1, 2, 1, 3)
    perm = [7, 6, 5, 4, 3, 2, 1, 0]
    s = (a + b).transpose(perm)
    m = s.astype(np.float64).mean(axis=(0, 2, 5), keepdims=True)
    e = np.exp(m - m.max(axis=7, keepdims=True))
    sm = (e / e.sum(axis=7, keepdims=True)).astype(np.float32)
    nodes = [helper.make_node("Add", ["a", "b"], ["s0"]), helper.make_node("Transpose", ["s0"], ["s"], perm=perm),
             helper.make_node("ReduceMean", ["s", "axes"], ["m"], keepdims=1), helper.make_node("Softmax", ["m"], ["y"], axis=-1)]
    model = graph_model(nodes, [("a", a), ("b", b)], [("y", sm)], 18, [("axes", np.array([0, 2, 5], dtype=np.int64))])
    yield "rank8_add_transpose_reducemean_softmax", model, [a, b], [sm]
    x = rand(2, 3, 1, 2, 2, 3, 1, 2)
    y = np.pad(x, [(1, 0), (0, 1), (0, 0), (1, 1), (0, 0), (2, 0), (0, 1), (0, 0)], mode="edge")[:, 1:, :, ::2]
    nodes = [helper.make_node("Pad", ["x", "pads"], ["p"], mode="edge"), helper.make_node("Slice", ["p", "starts", "ends", "axes", "steps"], ["y"])]
    model = graph_model(nodes, [("x", x)], [("y", y)], 21, [
        ("pads", np.array([1, 0, 0, 1, 0, 2, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0], dtype=np.int64)),
        ("starts", np.array([1, 0], dtype=np.int64)), ("ends", np.array([100, 100], dtype=np.int64)),
        ("axes", np.array([1, 3], dtype=np.int64)), ("steps", np.array([1, 2], dtype=np.int64))])
    yield "rank8_pad_edge_slice", model, [x], [y]
    # Tile of a 4-D tensor along every dim (8 dims in the broadcast copy) and of a 7-D one.
    x = rand(2, 3, 2, 3)
    y = np.tile(x, (2, 3, 1, 2))
    model = single_node_model("Tile", [("x", x)], [("y", y)], 13, [("repeats", np.array([2, 3, 1, 2], dtype=np.int64))])
    yield "tile_every_dim", model, [x], [y]
    x = rand(2, 1, 3, 2, 1, 2, 3)
    y = np.tile(x, (3, 2, 2, 1, 3, 2, 2))
    model = single_node_model("Tile", [("x", x)], [("y", y)], 13, [("repeats", np.array([3, 2, 2, 1, 3, 2, 2], dtype=np.int64))])
    yield "tile_rank7_several_passes", model, [x], [y]
    # MatMul with 6-D operands whose batch dims broadcast: merged into 2 batch dims; 4 groups of
    # dims that broadcast differently do not fit the 4-D GEMM.
    a = rand(2, 3, 4, 1, 4, 5)
    b = rand(1, 1, 1, 2, 5, 3)
    y = np.matmul(a, b)
    model = single_node_model("MatMul", [("a", a), ("b", b)], [("y", y)], 13)
    yield "matmul_rank6_broadcast", model, [a, b], [y]
    a = rand(2, 1, 3, 2, 4, 5)
    b = rand(2, 2, 3, 1, 5, 3)
    y = np.matmul(a, b)
    model = single_node_model("MatMul", [("a", a), ("b", b)], [("y", y)], 13)
    yield "matmul_rank6_four_batch_groups", model, [a, b], [y]
    # 1-D operands.
    a, b = rand(5), rand(2, 5, 3)
    y = np.matmul(a, b)
    model = single_node_model("MatMul", [("a", a), ("b", b)], [("y", y)], 13)
    yield "matmul_vector_times_batch", model, [a, b], [y]


def handmade_cases():
    for generator in (resize_cases, pad_cases, split_cases, reduce_cases, pool_cases, gelu_cases, grid_sample_cases, rank8_cases):
        yield from generator()


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    names = set()
    count = 0
    for name, model, inputs, outputs in list(onnx_cases()):
        write_case(name, model, inputs, outputs)
        names.add(name)
        count += 1
        up = upgraded(name, model)
        if up:
            write_case(up[0], up[1], inputs, outputs)
            names.add(up[0])
            count += 1
    for name, model, inputs, outputs in handmade_cases():
        assert name not in names, name
        write_case(name, model, inputs, outputs)
        names.add(name)
        count += 1
    stale = set(EXPECTED_UNSUPPORTED) - names
    assert not stale, f"EXPECTED_UNSUPPORTED names cases that were not written: {sorted(stale)}"
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(OUT) for f in files)
    print(f"wrote {count} cases ({total // 1024} KiB) to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
