// Element-wise ONNX operators: arithmetic, activations, Clip, Softmax, Identity, Cast. Inputs
// known at load time (shape arithmetic) are evaluated on the CPU instead of becoming nodes.
#include "onnx/loader.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace mlplugin::onnx_detail {
Result<HostTensorValue> broadcastHost(const Loader& l, const HostTensorValue& a, const HostTensorValue& b, double (*f)(double, double)) {
    size_t rank = std::max(a.dims.size(), b.dims.size());
    HostTensorValue out;
    out.integer = a.integer && b.integer;
    out.dims.resize(rank);
    auto dimOf = [&](const HostTensorValue& t, size_t i) -> int64_t {
        size_t off = rank - t.dims.size();
        return i < off ? 1 : t.dims[i - off];
    };
    for (size_t i = 0; i < rank; ++i) {
        int64_t da = dimOf(a, i), db = dimOf(b, i);
        if (da != db && da != 1 && db != 1) return l.invalid("constant inputs do not broadcast");
        out.dims[i] = da == 1 ? db : da;  // a 0-sized dim broadcasts to 0
    }
    uint64_t count = out.count();
    if (count > kMaxFoldedElements) return l.invalid("folded tensor would have " + std::to_string(count) + " elements (at most " + std::to_string(kMaxFoldedElements) + ")");
    out.data.resize(count);
    std::vector<int64_t> idx(rank, 0);
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t ia = 0, ib = 0;
        for (size_t i = 0; i < rank; ++i) {
            int64_t da = dimOf(a, i), db = dimOf(b, i);
            ia = ia * uint64_t(da) + uint64_t(da == 1 ? 0 : idx[i]);
            ib = ib * uint64_t(db) + uint64_t(db == 1 ? 0 : idx[i]);
        }
        out.data[e] = f(a.data[ia], b.data[ib]);
        for (size_t i = rank; i-- > 0;) {
            if (++idx[i] < out.dims[i]) break;
            idx[i] = 0;
        }
    }
    if (out.integer)
        for (double& v : out.data) v = std::trunc(v);
    return out;
}

namespace {

// Opset 6 element-wise ops broadcast only with broadcast=1, aligning B's dims at `axis` of A.
Result<std::vector<uint32_t>> legacyBroadcastSizes(Loader& l, uint32_t rankA, std::vector<uint32_t> sizesB) {
    auto broadcast = l.intAttr("broadcast", 0);
    if (!broadcast) return broadcast.error();
    if (!*broadcast || sizesB.size() >= rankA) return sizesB;
    auto axisAttr = l.intAttr("axis", int64_t(rankA) - int64_t(sizesB.size()));
    if (!axisAttr) return axisAttr.error();
    auto axis = l.axis(*axisAttr, rankA, "axis");
    if (!axis) return axis.error();
    if (*axis + sizesB.size() > rankA) return l.invalid("broadcast axis " + std::to_string(*axis) + " leaves no room for B's dims");
    sizesB.resize(rankA - *axis, 1);  // trailing ones: B's dims then line up at `axis`
    return sizesB;
}

struct BinaryOp {
    ElementWiseOp op;
    double (*fold)(double, double);
};

Status convertBinary(Loader& l, BinaryOp b) {
    MLP_TRY(l.onlyAttributes({"broadcast", "axis"}));
    if (l.inputCount() != 2) return l.invalid("expects 2 inputs, has " + std::to_string(l.inputCount()));
    auto a = l.input(0), bb = l.input(1);
    if (!a) return a.error();
    if (!bb) return bb.error();
    if ((*a)->host && (*bb)->host) {
        auto r = broadcastHost(l, *(*a)->host, *(*bb)->host, b.fold);
        if (!r) return r.error();
        l.setHostOutput(0, std::move(*r));
        return {};
    }
    auto ga = l.graphInput(0);
    if (!ga) return ga.error();
    auto gb = l.graphInput(1);
    if (!gb) return gb.error();
    if (l.opset() < 7) {
        auto sizes = legacyBroadcastSizes(l, ga->view.rank, sizesOf(gb->view));
        if (!sizes) return sizes.error();
        auto v = reshapeView(l, *gb, *sizes);
        if (!v) return v.error();
        gb = *v;
    }
    return l.emit(ElementWiseDesc{.op = b.op}, {*ga, *gb});
}

// Variadic Min/Max: a chain of binary nodes.
Status convertVariadic(Loader& l, ElementWiseOp op, double (*fold)(double, double)) {
    MLP_TRY(l.onlyAttributes({}));
    if (l.inputCount() == 0) return l.invalid("needs at least one input");
    if (l.inputCount() == 1) {
        auto v = l.input(0);
        if (!v) return v.error();
        if ((*v)->host) l.setHostOutput(0, *(*v)->host); else l.setGraphOutput(0, *(*v)->graph);
        return {};
    }
    bool allHost = true;
    for (size_t i = 0; i < l.inputCount(); ++i) {
        auto v = l.input(i);
        if (!v) return v.error();
        allHost &= bool((*v)->host);
    }
    if (allHost) {
        HostTensorValue acc = l.hostInput(0, "input").value();
        for (size_t i = 1; i < l.inputCount(); ++i) {
            auto r = broadcastHost(l, acc, l.hostInput(i, "input").value(), fold);
            if (!r) return r.error();
            acc = std::move(*r);
        }
        l.setHostOutput(0, std::move(acc));
        return {};
    }
    auto acc = l.graphInput(0);
    if (!acc) return acc.error();
    for (size_t i = 1; i < l.inputCount(); ++i) {
        auto next = l.graphInput(i);
        if (!next) return next.error();
        auto outs = l.addNode(ElementWiseDesc{.op = op}, {*acc, *next});
        if (!outs) return outs.error();
        acc = outs->at(0);
    }
    l.setGraphOutput(0, *acc);
    return {};
}

struct UnaryOp {
    ElementWiseOp op;
    double (*fold)(double);  // nullptr: not folded
};

Status convertUnary(Loader& l, UnaryOp u) {
    MLP_TRY(l.onlyAttributes({}));
    auto v = l.input(0);
    if (!v) return v.error();
    if ((*v)->host && u.fold) {
        HostTensorValue h = *(*v)->host;
        for (double& x : h.data) x = u.fold(x);
        h.integer = false;
        l.setHostOutput(0, std::move(h));
        return {};
    }
    auto g = l.graphInput(0);
    if (!g) return g.error();
    return l.emit(ElementWiseDesc{.op = u.op}, {*g});
}

// Activation with attributes read from the node (name, default).
struct ActivationSpec {
    ActivationType type;
    const char* alphaName = nullptr;
    float alphaDefault = 0;
    const char* betaName = nullptr;
    float betaDefault = 0;
};

Status convertActivation(Loader& l, ActivationSpec s) {
    std::vector<const char*> known;
    if (s.alphaName) known.push_back(s.alphaName);
    if (s.betaName) known.push_back(s.betaName);
    for (const auto& a : l.node().attribute()) {
        bool ok = std::any_of(known.begin(), known.end(), [&](const char* k) { return a.name() == k; });
        if (!ok) return l.unsupportedHere("attribute '" + a.name() + "' is not supported");
    }
    Activation act{s.type};
    if (s.alphaName) {
        auto a = l.floatAttr(s.alphaName, s.alphaDefault);
        if (!a) return a.error();
        act.alpha = *a;
    }
    if (s.betaName) {
        auto b = l.floatAttr(s.betaName, s.betaDefault);
        if (!b) return b.error();
        act.beta = *b;
    }
    auto g = l.graphInput(0);
    if (!g) return g.error();
    return l.emit(ElementWiseDesc{.op = ElementWiseOp::Activation, .activation = act}, {*g});
}

Status convertClip(Loader& l) {
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (l.opset() < 11) {
        MLP_TRY(l.onlyAttributes({"min", "max"}));
        auto mn = l.floatAttr("min", lo), mx = l.floatAttr("max", hi);
        if (!mn) return mn.error();
        if (!mx) return mx.error();
        lo = *mn;
        hi = *mx;
    } else {
        MLP_TRY(l.onlyAttributes({}));
        for (size_t i = 1; i <= 2; ++i) {
            if (!l.hasInput(i)) continue;
            auto h = l.hostInput(i, i == 1 ? "min" : "max");
            if (!h) return h.error();
            if (h->data.size() != 1) return l.invalid(std::string(i == 1 ? "min" : "max") + " must be a scalar");
            (i == 1 ? lo : hi) = float(h->data[0]);
        }
    }
    auto g = l.graphInput(0);
    if (!g) return g.error();
    return l.emit(ElementWiseDesc{.op = ElementWiseOp::Clip, .clipMin = lo, .clipMax = hi}, {*g});
}

Status convertSoftmax(Loader& l, bool logSoftmax) {
    MLP_TRY(l.onlyAttributes({"axis"}));
    auto g = l.graphInput(0);
    if (!g) return g.error();
    uint32_t rank = g->view.rank;
    // Before opset 13 the input is coerced to 2-D at `axis` ([prod(dims < axis), prod(dims >=
    // axis)]) and normalized along the second dim: the same as normalizing over every dim from
    // `axis` on, so no reshape is needed.
    bool coerced = l.opset() < 13;
    auto a = l.intAttr("axis", coerced ? 1 : -1);
    if (!a) return a.error();
    auto axis = l.axis(*a, rank, "axis");
    if (!axis) return axis.error();
    uint32_t mask = coerced ? ((1u << rank) - 1) & ~((1u << *axis) - 1) : (1u << *axis);
    return l.emit(SoftmaxDesc{.axesMask = mask, .logSoftmax = logSoftmax}, {*g});
}

// Identity and float Casts alias their input; integer Casts only apply to load-time values.
Status convertIdentityOrCast(Loader& l, bool cast) {
    MLP_TRY(l.onlyAttributes(cast ? std::initializer_list<const char*>{"to", "saturate"} : std::initializer_list<const char*>{}));
    auto v = l.input(0);
    if (!v) return v.error();
    bool toInteger = false;
    if (cast) {
        auto to = l.intAttr("to", -1);
        if (!to) return to.error();
        using TP = onnx::TensorProto;
        bool toFloat = *to == TP::FLOAT || *to == TP::FLOAT16 || *to == TP::DOUBLE;
        toInteger = *to == TP::INT64 || *to == TP::INT32 || *to == TP::INT16 || *to == TP::INT8 || *to == TP::UINT8 || *to == TP::BOOL;
        if (!toFloat && !toInteger) return l.unsupportedHere("Cast to data type " + std::to_string(*to) + " is not supported");
        if (toInteger && !(*v)->host) return l.unsupportedHere("Cast of a runtime tensor to an integer type is not supported (float types only)");
    }
    if ((*v)->host) {
        HostTensorValue h = *(*v)->host;
        if (cast) {
            h.integer = toInteger;
            if (toInteger) for (double& x : h.data) x = std::trunc(x);
        }
        l.setHostOutput(0, std::move(h));
    } else {
        l.setGraphOutput(0, *(*v)->graph);
    }
    return {};
}

}  // namespace

void registerElementwiseConverters(std::unordered_map<std::string, Converter>& t) {
    auto binary = [&](const char* name, ElementWiseOp op, double (*fold)(double, double)) {
        t[name] = [op, fold](Loader& l, const onnx::NodeProto&) { return convertBinary(l, {op, fold}); };
    };
    binary("Add", ElementWiseOp::Add, [](double a, double b) { return a + b; });
    binary("Sub", ElementWiseOp::Subtract, [](double a, double b) { return a - b; });
    binary("Mul", ElementWiseOp::Multiply, [](double a, double b) { return a * b; });
    binary("Div", ElementWiseOp::Divide, [](double a, double b) { return b == 0 ? 0.0 : a / b; });
    binary("Pow", ElementWiseOp::Pow, [](double a, double b) { return std::pow(a, b); });
    t["Min"] = [](Loader& l, const onnx::NodeProto&) { return convertVariadic(l, ElementWiseOp::Min, [](double a, double b) { return std::min(a, b); }); };
    t["Max"] = [](Loader& l, const onnx::NodeProto&) { return convertVariadic(l, ElementWiseOp::Max, [](double a, double b) { return std::max(a, b); }); };

    auto unary = [&](const char* name, UnaryOp u) { t[name] = [u](Loader& l, const onnx::NodeProto&) { return convertUnary(l, u); }; };
    unary("Sqrt", {ElementWiseOp::Sqrt, [](double x) { return std::sqrt(x); }});
    unary("Reciprocal", {ElementWiseOp::Reciprocal, [](double x) { return 1.0 / x; }});
    unary("Exp", {ElementWiseOp::Exp, [](double x) { return std::exp(x); }});
    unary("Log", {ElementWiseOp::Log, [](double x) { return std::log(x); }});
    unary("Abs", {ElementWiseOp::Abs, [](double x) { return std::abs(x); }});
    unary("Neg", {ElementWiseOp::Negate, [](double x) { return -x; }});

    auto act = [&](const char* name, ActivationSpec s) { t[name] = [s](Loader& l, const onnx::NodeProto&) { return convertActivation(l, s); }; };
    act("Relu", {ActivationType::Relu});
    act("LeakyRelu", {ActivationType::LeakyRelu, "alpha", 0.01f});
    act("Elu", {ActivationType::Elu, "alpha", 1.0f});
    act("Selu", {ActivationType::Selu, "alpha", 1.67326319217681884765625f, "gamma", 1.05070102214813232421875f});
    act("Sigmoid", {ActivationType::Sigmoid});
    act("HardSigmoid", {ActivationType::HardSigmoid, "alpha", 0.2f, "beta", 0.5f});
    act("HardSwish", {ActivationType::HardSwish});
    act("Tanh", {ActivationType::Tanh});
    t["Softplus"] = [](Loader& l, const onnx::NodeProto&) -> Status {
        MLP_TRY(l.onlyAttributes({}));
        auto g = l.graphInput(0);
        if (!g) return g.error();
        return l.emit(ElementWiseDesc{.op = ElementWiseOp::Activation, .activation = softplus(1.0f)}, {*g});
    };
    // Gelu (opset 20): erf form, or the tanh approximation.
    t["Gelu"] = [](Loader& l, const onnx::NodeProto&) -> Status {
        MLP_TRY(l.onlyAttributes({"approximate"}));
        auto approx = l.stringAttr("approximate", "none");
        if (!approx) return approx.error();
        if (*approx != "none" && *approx != "tanh") return l.invalid("attribute 'approximate' = '" + *approx + "' is not one of none, tanh");
        auto g = l.graphInput(0);
        if (!g) return g.error();
        return l.emit(ElementWiseDesc{.op = ElementWiseOp::Activation, .activation = *approx == "tanh" ? geluTanh() : gelu()}, {*g});
    };
    t["PRelu"] = [](Loader& l, const onnx::NodeProto&) -> Status {
        MLP_TRY(l.onlyAttributes({}));
        auto x = l.graphInput(0);
        if (!x) return x.error();
        auto slope = l.graphInput(1);
        if (!slope) return slope.error();
        // Opset 6 slopes are [C] for NCHW inputs (channel broadcast); later ones broadcast
        // numpy-style. A 1-D slope matching the channel count is aligned with dim 1.
        if (slope->view.rank == 1 && x->view.rank > 2 && slope->view.sizes[0] == x->view.sizes[1] && slope->view.sizes[0] != 1) {
            std::vector<uint32_t> sizes(x->view.rank - 1, 1);
            sizes[0] = slope->view.sizes[0];
            auto v = reshapeView(l, *slope, sizes);
            if (!v) return v.error();
            slope = *v;
        }
        return l.emit(ElementWiseDesc{.op = ElementWiseOp::PRelu}, {*x, *slope});
    };
    t["Clip"] = [](Loader& l, const onnx::NodeProto&) { return convertClip(l); };
    t["Softmax"] = [](Loader& l, const onnx::NodeProto&) { return convertSoftmax(l, false); };
    t["LogSoftmax"] = [](Loader& l, const onnx::NodeProto&) { return convertSoftmax(l, true); };
    t["Identity"] = [](Loader& l, const onnx::NodeProto&) { return convertIdentityOrCast(l, false); };
    t["Sum"] = [](Loader& l, const onnx::NodeProto&) { return convertVariadic(l, ElementWiseOp::Add, [](double a, double b) { return a + b; }); };
    // Inference-mode Dropout is the identity; the mask output and training mode are not supported.
    t["Dropout"] = [](Loader& l, const onnx::NodeProto& n) -> Status {
        MLP_TRY(l.onlyAttributes({"ratio", "seed", "is_test"}));
        if (n.output_size() > 1 && !n.output(1).empty()) return l.unsupportedHere("the mask output is not supported");
        if (l.hasInput(2)) {
            auto training = l.hostInput(2, "training_mode");
            if (!training) return training.error();
            if (!training->data.empty() && training->data[0] != 0) return l.unsupportedHere("training_mode = true is not supported");
        }
        auto v = l.input(0);
        if (!v) return v.error();
        if ((*v)->host) l.setHostOutput(0, *(*v)->host); else l.setGraphOutput(0, *(*v)->graph);
        return {};
    };
    t["Cast"] = [](Loader& l, const onnx::NodeProto&) { return convertIdentityOrCast(l, true); };
}

}  // namespace mlplugin::onnx_detail
