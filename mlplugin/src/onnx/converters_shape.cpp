// Shape operators: Reshape, Flatten, Squeeze and Unsqueeze of runtime tensors are views (no
// node); on host tensors, and for Shape, Constant and ConstantOfShape, they run at load time, so
// shape-computing chains (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as PyTorch exports
// them) fold before the graph is built.
#include "onnx/loader.h"

#include <algorithm>

namespace mlplugin::onnx_detail {
namespace {

Status defineReshaped(Loader& l, const std::vector<int64_t>& dims) {
    auto v = l.input(0);
    if (!v) return v.error();
    if ((*v)->host) {
        HostTensorValue h = *(*v)->host;
        uint64_t count = 1;
        for (int64_t d : dims)
            if (d < 0 || uint64_t(d) > kMaxOnnxTensorElements || (count *= uint64_t(d)) > kMaxOnnxTensorElements)
                return l.invalid("cannot reshape to a dim of " + std::to_string(d));
        if (count != h.count()) return l.invalid("cannot reshape " + std::to_string(h.count()) + " elements to " + std::to_string(count));
        h.dims = dims;
        l.setHostOutput(0, std::move(h));
        return {};
    }
    auto sizes = toSizes(dims, l.where() + " output");
    if (!sizes) return sizes.error();
    auto view = reshapeView(l, *(*v)->graph, *sizes);
    if (!view) return view.error();
    l.setGraphOutput(0, *view);
    return {};
}

Status convertReshape(Loader& l) {
    MLP_TRY(l.onlyAttributes({"allowzero"}));
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    auto shape = l.hostInput(1, "shape");
    if (!shape) return shape.error();
    auto allowZero = l.intAttr("allowzero", 0);
    if (!allowZero) return allowZero.error();
    auto dims = resolveReshapeDims(l, *in, toInts(*shape), *allowZero != 0);
    if (!dims) return dims.error();
    return defineReshaped(l, *dims);
}

Status convertFlatten(Loader& l) {
    MLP_TRY(l.onlyAttributes({"axis"}));
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    auto a = l.intAttr("axis", 1);
    if (!a) return a.error();
    int64_t axis = *a < 0 ? *a + int64_t(in->size()) : *a;
    if (axis < 0 || axis > int64_t(in->size())) return l.invalid("axis " + std::to_string(*a) + " is out of range");
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < in->size(); ++i) (int64_t(i) < axis ? outer : inner) *= (*in)[i];
    return defineReshaped(l, {outer, inner});
}

Status convertSqueeze(Loader& l, bool unsqueeze) {
    MLP_TRY(l.onlyAttributes(l.opset() < 13 ? std::initializer_list<const char*>{"axes"} : std::initializer_list<const char*>{}));
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    auto axes = axesAttrOrInput(l, 13, "axes");
    if (!axes) return axes.error();
    std::vector<int64_t> dims;
    if (unsqueeze) {
        uint32_t outRank = uint32_t(in->size() + axes->size());
        std::vector<bool> inserted(outRank, false);
        for (int64_t a : *axes) {
            auto ax = l.axis(a, outRank, "axis");
            if (!ax) return ax.error();
            if (inserted[*ax]) return l.invalid("axis " + std::to_string(a) + " is listed twice");
            inserted[*ax] = true;
        }
        size_t next = 0;
        for (uint32_t i = 0; i < outRank; ++i) dims.push_back(inserted[i] ? 1 : (*in)[next++]);
    } else {
        uint32_t rank = uint32_t(in->size());
        std::vector<bool> removed(rank, axes->empty());
        for (int64_t a : *axes) {
            auto ax = l.axis(a, rank, "axis");
            if (!ax) return ax.error();
            if ((*in)[*ax] != 1) return l.invalid("cannot squeeze dim " + std::to_string(*ax) + " of size " + std::to_string((*in)[*ax]));
            removed[*ax] = true;
        }
        for (uint32_t i = 0; i < rank; ++i)
            if (!(removed[i] && (*in)[i] == 1)) dims.push_back((*in)[i]);
    }
    return defineReshaped(l, dims);
}

Status convertShape(Loader& l) {
    MLP_TRY(l.onlyAttributes({"start", "end"}));
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    int64_t rank = int64_t(in->size());
    auto s = l.intAttr("start", 0), e = l.intAttr("end", rank);
    if (!s) return s.error();
    if (!e) return e.error();
    int64_t start = std::clamp(*s < 0 ? *s + rank : *s, int64_t(0), rank), end = std::clamp(*e < 0 ? *e + rank : *e, int64_t(0), rank);
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; ++i) dims.push_back((*in)[size_t(i)]);
    l.setHostOutput(0, integerVector(dims));
    return {};
}

Status convertConstant(Loader& l) {
    if (l.node().attribute_size() != 1) return l.invalid("Constant needs exactly one value attribute");
    const auto& a = l.node().attribute(0);
    HostTensorValue h;
    if (a.name() == "value" && a.type() == onnx::AttributeProto::TENSOR) {
        auto t = hostFromTensorProto(a.t(), l.where() + " value", l.external());
        if (!t) return t.error();
        h = std::move(*t);
    } else if (a.name() == "value_float" && a.type() == onnx::AttributeProto::FLOAT) {
        h.data = {a.f()};
    } else if (a.name() == "value_floats" && a.type() == onnx::AttributeProto::FLOATS) {
        h.data.assign(a.floats().begin(), a.floats().end());
        h.dims = {int64_t(h.data.size())};
    } else if (a.name() == "value_int" && a.type() == onnx::AttributeProto::INT) {
        h = integerVector({a.i()});
        h.dims.clear();
    } else if (a.name() == "value_ints" && a.type() == onnx::AttributeProto::INTS) {
        h = integerVector({a.ints().begin(), a.ints().end()});
    } else {
        return l.unsupportedHere("attribute '" + a.name() + "' is not supported (value, value_float(s), value_int(s))");
    }
    l.setHostOutput(0, std::move(h));
    return {};
}

Status convertConstantOfShape(Loader& l) {
    MLP_TRY(l.onlyAttributes({"value"}));
    auto shape = l.hostInput(0, "shape");
    if (!shape) return shape.error();
    HostTensorValue h;
    double value = 0;
    if (const auto* a = l.attribute("value")) {
        auto t = hostFromTensorProto(a->t(), l.where() + " value", l.external());
        if (!t) return t.error();
        if (t->data.size() != 1) return l.invalid("value must hold one element");
        value = t->data[0];
        h.integer = t->integer;
    }
    h.dims = toInts(*shape);
    uint64_t count = 1;
    for (int64_t d : h.dims) {
        if (d < 0 || uint64_t(d) > kMaxFoldedElements || (count *= uint64_t(d)) > kMaxFoldedElements)
            return l.invalid("shape is negative or too large to fill at load time");
    }
    h.data.assign(count, value);
    l.setHostOutput(0, std::move(h));
    return {};
}

}  // namespace

Result<std::vector<int64_t>> resolveReshapeDims(const Loader& l, const std::vector<int64_t>& in, std::vector<int64_t> dims, bool allowZero) {
    uint64_t count = 1;
    for (int64_t d : in) count *= uint64_t(d);
    int inferred = -1;
    uint64_t known = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0 && !allowZero) {
            if (i >= in.size()) return l.invalid("shape entry " + std::to_string(i) + " copies a dim the input does not have");
            dims[i] = in[i];
        }
        if (dims[i] == -1) {
            if (inferred >= 0) return l.invalid("shape has more than one -1");
            inferred = int(i);
            continue;
        }
        if (dims[i] <= 0 || uint64_t(dims[i]) > kMaxOnnxTensorElements) return l.invalid("shape entry " + std::to_string(dims[i]) + " is not valid");
        known *= uint64_t(dims[i]);
        if (known > kMaxOnnxTensorElements) return l.invalid("shape is too large");
    }
    if (inferred >= 0) {
        if (count % known)
            return l.invalid("cannot infer the -1 dim of shape " + dimsString(dims) + " for input " + dimsString(in) + ": " + std::to_string(count) +
                             " elements are not divisible by " + std::to_string(known));
        dims[size_t(inferred)] = int64_t(count / known);
    }
    return dims;
}

void registerShapeConverters(std::unordered_map<std::string, Converter>& t) {
    t["Reshape"] = [](Loader& l, const onnx::NodeProto&) { return convertReshape(l); };
    t["Flatten"] = [](Loader& l, const onnx::NodeProto&) { return convertFlatten(l); };
    t["Squeeze"] = [](Loader& l, const onnx::NodeProto&) { return convertSqueeze(l, false); };
    t["Unsqueeze"] = [](Loader& l, const onnx::NodeProto&) { return convertSqueeze(l, true); };
    t["Shape"] = [](Loader& l, const onnx::NodeProto&) { return convertShape(l); };
    t["Constant"] = [](Loader& l, const onnx::NodeProto&) { return convertConstant(l); };
    t["ConstantOfShape"] = [](Loader& l, const onnx::NodeProto&) { return convertConstantOfShape(l); };
}

}  // namespace mlplugin::onnx_detail
