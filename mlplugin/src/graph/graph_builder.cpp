#include "mlplugin/graph_builder.h"

namespace mlplugin {
namespace {

const TensorDesc kEmptyDesc{};

GraphBuilder* builderOf(const std::vector<Expr>& xs) {
    for (const Expr& e : xs)
        if (e.builder()) return e.builder();
    return nullptr;
}

}  // namespace

const TensorDesc& Expr::desc() const { return valid() ? builder_->graph_.values[id_].desc : kEmptyDesc; }

Expr GraphBuilder::input(std::string name, const TensorDesc& desc, uint32_t freeDimMask) {
    ValueId v = graph_.addInput(std::move(name), desc);
    graph_.values[v].freeDimMask = freeDimMask;
    return {this, v};
}

Expr GraphBuilder::constant(std::string name, const TensorDesc& desc, std::vector<float> data) {
    if (data.size() != desc.elementCount())
        fail(invalidArgument("constant '" + name + "' has " + std::to_string(data.size()) + " values, its desc " + desc.toString() +
                             " needs " + std::to_string(desc.elementCount())));
    return {this, graph_.addConstant(std::move(name), desc, std::move(data))};
}

void GraphBuilder::output(Expr e) {
    if (!e.valid()) return fail(invalidArgument("output: the expression is invalid (an earlier operator failed)"));
    if (e.builder() != this) return fail(invalidArgument("output: the expression belongs to another builder"));
    graph_.markOutput(e.id());
}

std::vector<Expr> GraphBuilder::node(OperatorDesc op, const std::vector<Expr>& inputs) {
    std::vector<ValueId> ids;
    for (const Expr& e : inputs) {
        if (!e.valid()) {
            fail(invalidArgument(operatorLabel(op) + ": an input expression is invalid (an earlier operator failed)"));
            return {Expr{}};
        }
        if (e.builder() != this) {
            fail(invalidArgument(operatorLabel(op) + ": an input expression belongs to another builder"));
            return {Expr{}};
        }
        ids.push_back(e.id());
    }
    auto outs = graph_.addNode(std::move(op), std::move(ids));
    if (!outs) {
        fail(outs.error());
        return {Expr{}};
    }
    std::vector<Expr> result;
    for (ValueId v : *outs) result.push_back({this, v});
    return result;
}

Expr GraphBuilder::node1(OperatorDesc op, const std::vector<Expr>& inputs) { return node(std::move(op), inputs)[0]; }

Result<GraphDesc> GraphBuilder::finish() const {
    if (error_) return *error_;
    if (graph_.outputs.empty()) return invalidArgument("graph builder: no outputs were marked");
    return graph_;
}

namespace {

Expr build(OperatorDesc op, std::vector<Expr> inputs) {
    GraphBuilder* g = builderOf(inputs);
    if (!g) return {};
    return g->node1(std::move(op), inputs);
}

Expr withOptional(OperatorDesc op, std::vector<Expr> inputs, const std::optional<Expr>& extra) {
    if (extra) inputs.push_back(*extra);
    return build(std::move(op), std::move(inputs));
}

Expr elementWise(ElementWiseOp op, Expr a, std::optional<Expr> b, Activation act = {}, std::string name = {}) {
    ElementWiseDesc d{.name = std::move(name), .op = op, .activation = act};
    return withOptional(d, {a}, b);
}

}  // namespace

Expr conv2d(Expr x, Expr filter, std::optional<Expr> bias, const Conv2dOptions& o) {
    ConvolutionDesc d{.name = o.name};
    d.strides = {o.stride, o.stride};
    d.dilations = {o.dilation, o.dilation};
    d.padBegin = o.padBegin.value_or(std::array<uint32_t, 2>{o.pad, o.pad});
    d.padEnd = o.padEnd.value_or(std::array<uint32_t, 2>{o.pad, o.pad});
    d.groups = o.groups;
    d.activation = o.activation;
    return withOptional(d, {x, filter}, bias);
}

Expr convTranspose2d(Expr x, Expr filter, std::optional<Expr> bias, const ConvTranspose2dOptions& o) {
    ConvolutionDesc d{.name = o.name, .transposed = true};
    d.strides = {o.stride, o.stride};
    d.padBegin = d.padEnd = {o.pad, o.pad};
    d.outputPadding = {o.outputPadding, o.outputPadding};
    d.groups = o.groups;
    d.activation = o.activation;
    return withOptional(d, {x, filter}, bias);
}

Expr gemm(Expr a, Expr b, std::optional<Expr> c, bool transA, bool transB, float alpha, float beta) {
    GemmDesc d{.transposeA = transA, .transposeB = transB, .alpha = alpha, .beta = beta};
    return withOptional(d, {a, b}, c);
}

Expr activation(Expr x, Activation a, std::string name) { return elementWise(ElementWiseOp::Activation, x, std::nullopt, a, std::move(name)); }
Expr relu(Expr x) { return activation(x, relu()); }
Expr leakyRelu(Expr x, float alpha) { return activation(x, leakyRelu(alpha)); }
Expr sigmoid(Expr x) { return activation(x, sigmoid()); }
Expr tanh(Expr x) { return activation(x, tanhActivation()); }
Expr gelu(Expr x) { return activation(x, gelu()); }
Expr silu(Expr x) { return activation(x, silu()); }
Expr prelu(Expr x, Expr slope) { return elementWise(ElementWiseOp::PRelu, x, slope); }
Expr clip(Expr x, float lo, float hi) {
    ElementWiseDesc d{.op = ElementWiseOp::Clip, .clipMin = lo, .clipMax = hi};
    return build(d, {x});
}
Expr add(Expr a, Expr b) { return elementWise(ElementWiseOp::Add, a, b); }
Expr sub(Expr a, Expr b) { return elementWise(ElementWiseOp::Subtract, a, b); }
Expr mul(Expr a, Expr b) { return elementWise(ElementWiseOp::Multiply, a, b); }
Expr div(Expr a, Expr b) { return elementWise(ElementWiseOp::Divide, a, b); }

namespace {
Expr pool(Expr x, PoolingType type, const Pool2dOptions& o) {
    PoolingDesc d{.name = o.name, .type = type};
    d.window = {o.window, o.window};
    d.strides = {o.stride, o.stride};
    d.padBegin = d.padEnd = {o.pad, o.pad};
    d.countIncludePad = o.countIncludePad;
    return build(d, {x});
}
}  // namespace

Expr maxPool2d(Expr x, const Pool2dOptions& o) { return pool(x, PoolingType::Max, o); }
Expr avgPool2d(Expr x, const Pool2dOptions& o) { return pool(x, PoolingType::Average, o); }
Expr globalAvgPool(Expr x) { return build(PoolingDesc{.type = PoolingType::Average, .global = true}, {x}); }
Expr globalMaxPool(Expr x) { return build(PoolingDesc{.type = PoolingType::Max, .global = true}, {x}); }

Expr resize(Expr x, float scaleH, float scaleW, ResampleMode mode, CoordinateTransform transform) {
    ResampleDesc d{.mode = mode, .transform = transform, .scales = {scaleH, scaleW}};
    return build(d, {x});
}

Expr depthToSpace(Expr x, uint32_t block, DepthSpaceOrder order) { return build(DepthToSpaceDesc{.blockSize = block, .order = order}, {x}); }
Expr spaceToDepth(Expr x, uint32_t block, DepthSpaceOrder order) { return build(SpaceToDepthDesc{.blockSize = block, .order = order}, {x}); }
Expr concat(const std::vector<Expr>& xs, uint32_t axis) { return build(ConcatDesc{.axis = axis}, xs); }

Expr transpose(Expr x, std::vector<uint32_t> permutation) {
    TransposeDesc d;
    for (size_t i = 0; i < permutation.size() && i < kMaxTensorRank; ++i) d.permutation[i] = permutation[i];
    return build(d, {x});
}

Expr softmax(Expr x, uint32_t axis) { return build(SoftmaxDesc{.axesMask = 1u << axis}, {x}); }
Expr reduce(Expr x, ReduceOp op, uint32_t axesMask) { return build(ReduceDesc{.op = op, .axesMask = axesMask}, {x}); }

Expr batchNorm(Expr x, Expr mean, Expr variance, Expr scale, Expr bias, float epsilon) {
    return build(BatchNormalizationDesc{.epsilon = epsilon}, {x, mean, variance, scale, bias});
}

Expr instanceNorm(Expr x, float epsilon) { return build(InstanceNormalizationDesc{.epsilon = epsilon}, {x}); }
Expr instanceNorm(Expr x, Expr scale, Expr bias, float epsilon) {
    return build(InstanceNormalizationDesc{.epsilon = epsilon}, {x, scale, bias});
}

}  // namespace mlplugin
