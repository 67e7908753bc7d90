#pragma once
// A fluent layer over GraphDesc in the spirit of DirectMLX, for engine programmers who define
// networks in code rather than ONNX:
//
//   GraphBuilder g;
//   Expr x = g.input("lowres", TensorDesc::make(DataType::Float16, {1, 3, 540, 960}));
//   Expr y = tanh(conv2d(x, g.constant("w1", w1Desc, w1), g.constant("b1", b1Desc, b1), {.pad = 2}));
//   g.output(depthToSpace(conv2d(y, w2, b2, {.pad = 1}), 2));
//   Result<GraphDesc> desc = g.finish();
//
// Expressions are cheap handles. The first error (a shape that does not fit, say) is kept and
// returned by finish(); expressions built on top of a failed one are failed too, so call sites
// stay free of error checks.
#include "mlplugin/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace mlplugin {

class GraphBuilder;

class Expr {
public:
    Expr() = default;
    bool valid() const { return builder_ && id_ != kNoValue; }
    ValueId id() const { return id_; }
    GraphBuilder* builder() const { return builder_; }
    // The inferred desc (an empty desc for a failed expression).
    const TensorDesc& desc() const;

private:
    friend class GraphBuilder;
    Expr(GraphBuilder* b, ValueId id) : builder_(b), id_(id) {}
    GraphBuilder* builder_ = nullptr;
    ValueId id_ = kNoValue;
};

class GraphBuilder {
public:
    // `freeDimMask`: the dims reshapeGraph may change (GraphValue::freeDimMask, e.g. kFreeHeightWidth).
    Expr input(std::string name, const TensorDesc& desc, uint32_t freeDimMask = 0);
    Expr constant(std::string name, const TensorDesc& desc, std::vector<float> data);
    void output(Expr e);
    // Adds any operator desc (tensor fields are filled from `inputs`); returns its outputs.
    std::vector<Expr> node(OperatorDesc op, const std::vector<Expr>& inputs);
    Expr node1(OperatorDesc op, const std::vector<Expr>& inputs);

    // The graph, or the first error any expression ran into.
    Result<GraphDesc> finish() const;
    const GraphDesc& graph() const { return graph_; }

private:
    friend class Expr;
    void fail(Error e) { if (!error_) error_ = std::move(e); }
    GraphDesc graph_;
    std::optional<Error> error_;
};

struct Conv2dOptions {
    uint32_t pad = 0;                    // all four sides; padBegin/padEnd override when set
    std::optional<std::array<uint32_t, 2>> padBegin, padEnd;
    uint32_t stride = 1;
    uint32_t dilation = 1;
    uint32_t groups = 1;
    Activation activation;
    std::string name;
};

struct ConvTranspose2dOptions {
    uint32_t stride = 1;
    uint32_t pad = 0;
    uint32_t outputPadding = 0;
    uint32_t groups = 1;
    Activation activation;
    std::string name;
};

struct Pool2dOptions {
    uint32_t window = 2;
    uint32_t stride = 2;
    uint32_t pad = 0;
    bool countIncludePad = false;
    std::string name;
};

// Operators. Every function takes and returns expressions of one builder.
Expr conv2d(Expr x, Expr filter, std::optional<Expr> bias = std::nullopt, const Conv2dOptions& o = {});
Expr convTranspose2d(Expr x, Expr filter, std::optional<Expr> bias = std::nullopt, const ConvTranspose2dOptions& o = {});
Expr gemm(Expr a, Expr b, std::optional<Expr> c = std::nullopt, bool transA = false, bool transB = false, float alpha = 1, float beta = 1);
Expr activation(Expr x, Activation a, std::string name = {});
Expr relu(Expr x);
Expr leakyRelu(Expr x, float alpha = 0.01f);
Expr sigmoid(Expr x);
Expr tanh(Expr x);
Expr gelu(Expr x);
Expr silu(Expr x);
Expr prelu(Expr x, Expr slope);
Expr clip(Expr x, float lo, float hi);
Expr add(Expr a, Expr b);
Expr sub(Expr a, Expr b);
Expr mul(Expr a, Expr b);
Expr div(Expr a, Expr b);
inline Expr operator+(Expr a, Expr b) { return add(a, b); }
inline Expr operator-(Expr a, Expr b) { return sub(a, b); }
inline Expr operator*(Expr a, Expr b) { return mul(a, b); }
inline Expr operator/(Expr a, Expr b) { return div(a, b); }
Expr maxPool2d(Expr x, const Pool2dOptions& o = {});
Expr avgPool2d(Expr x, const Pool2dOptions& o = {});
Expr globalAvgPool(Expr x);
Expr globalMaxPool(Expr x);
Expr resize(Expr x, float scaleH, float scaleW, ResampleMode mode = ResampleMode::Linear,
            CoordinateTransform transform = CoordinateTransform::HalfPixel);
Expr depthToSpace(Expr x, uint32_t block, DepthSpaceOrder order = DepthSpaceOrder::DCR);
Expr spaceToDepth(Expr x, uint32_t block, DepthSpaceOrder order = DepthSpaceOrder::DCR);
Expr concat(const std::vector<Expr>& xs, uint32_t axis);
Expr transpose(Expr x, std::vector<uint32_t> permutation);
Expr softmax(Expr x, uint32_t axis);
Expr reduce(Expr x, ReduceOp op, uint32_t axesMask);
Expr batchNorm(Expr x, Expr mean, Expr variance, Expr scale, Expr bias, float epsilon = 1e-5f);
Expr instanceNorm(Expr x, float epsilon = 1e-5f);
Expr instanceNorm(Expr x, Expr scale, Expr bias, float epsilon = 1e-5f);

}  // namespace mlplugin
