#pragma once
/// \file
/// A fluent layer over GraphDesc in the spirit of DirectMLX, for engine programmers who define
/// networks in code rather than ONNX:
///
///   GraphBuilder g;
///   Expr x = g.input("lowres", TensorDesc::make(DataType::Float16, {1, 3, 540, 960}));
///   Expr y = tanh(conv2d(x, g.constant("w1", w1Desc, w1), g.constant("b1", b1Desc, b1), {.pad = 2}));
///   g.output(depthToSpace(conv2d(y, w2, b2, {.pad = 1}), 2));
///   Result<GraphDesc> desc = g.finish();
///
/// Expressions are cheap handles. The first error (a shape that does not fit, say) is kept and
/// returned by finish(); expressions built on top of a failed one are failed too, so call sites
/// stay free of error checks.
#include "mlplugin/export.h"
#include "mlplugin/graph.h"

#include <optional>
#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

class GraphBuilder;

/// A value of a GraphBuilder's graph; cheap to copy. An invalid Expr stands for a failed step.
class Expr {
public:
    /// An invalid expression.
    Expr() = default;
    /// False for a default-constructed or failed expression.
    bool valid() const { return builder_ && id_ != kNoValue; }
    /// The value in the builder's graph.
    ValueId id() const { return id_; }
    /// The builder it belongs to.
    GraphBuilder* builder() const { return builder_; }
    /// The inferred desc (an empty desc for a failed expression).
    const TensorDesc& desc() const;

private:
    friend class GraphBuilder;
    Expr(GraphBuilder* b, ValueId id) : builder_(b), id_(id) {}
    GraphBuilder* builder_ = nullptr;
    ValueId id_ = kNoValue;
};

/// Builds a GraphDesc from expressions; see the file description.
class GraphBuilder {
public:
    /// A graph input. `freeDimMask`: the dims reshapeGraph may change (GraphValue::freeDimMask,
    /// e.g. kFreeHeightWidth).
    Expr input(std::string name, const TensorDesc& desc, uint32_t freeDimMask = 0);
    /// A constant (weights); `data` holds desc.elementCount() packed values.
    Expr constant(std::string name, const TensorDesc& desc, std::vector<float> data);
    /// Marks `e` as a graph output.
    void output(Expr e);
    /// Adds any operator desc (tensor fields are filled from `inputs`); returns its outputs.
    std::vector<Expr> node(OperatorDesc op, const std::vector<Expr>& inputs);
    /// node() for operators with one output.
    Expr node1(OperatorDesc op, const std::vector<Expr>& inputs);

    /// The graph, or the first error any expression ran into.
    Result<GraphDesc> finish() const;
    /// The graph built so far (also after an error).
    const GraphDesc& graph() const { return graph_; }

private:
    friend class Expr;
    void fail(Error e) { if (!error_) error_ = std::move(e); }
    GraphDesc graph_;
    std::optional<Error> error_;
};

/// conv2d parameters.
struct Conv2dOptions {
    uint32_t pad = 0;                    ///< all four sides; padBegin/padEnd override when set
    std::optional<std::array<uint32_t, 2>> padBegin;  ///< top, left (overrides `pad`)
    std::optional<std::array<uint32_t, 2>> padEnd;    ///< bottom, right (overrides `pad`)
    uint32_t stride = 1;  ///< both dims
    uint32_t dilation = 1;  ///< both dims
    uint32_t groups = 1;  ///< channel groups
    Activation activation;  ///< fused
    std::string name;  ///< node name (generated when empty)
};

/// convTranspose2d parameters.
struct ConvTranspose2dOptions {
    uint32_t stride = 1;  ///< both dims
    uint32_t pad = 0;  ///< all four sides
    uint32_t outputPadding = 0;  ///< added to the bottom and right of the output
    uint32_t groups = 1;  ///< channel groups
    Activation activation;  ///< fused
    std::string name;  ///< node name (generated when empty)
};

/// maxPool2d / avgPool2d parameters.
struct Pool2dOptions {
    uint32_t window = 2;  ///< window size, both dims
    uint32_t stride = 2;  ///< both dims
    uint32_t pad = 0;  ///< all four sides
    bool countIncludePad = false;  ///< average pooling: divide by the full window
    std::string name;  ///< node name (generated when empty)
};

// Operators on expressions, named as in ONNX. Every function takes and returns expressions of
// one builder; a failed input expression gives a failed result, and a new error is recorded in
// the builder (GraphBuilder::finish returns it).
/// Convolution of `x` [N, C, H, W] with `filter` [K, C/groups, kH, kW], plus `bias` [K].
Expr conv2d(Expr x, Expr filter, std::optional<Expr> bias = std::nullopt, const Conv2dOptions& o = {});
/// Transposed convolution; `filter` is [C, K/groups, kH, kW] (ONNX ConvTranspose).
Expr convTranspose2d(Expr x, Expr filter, std::optional<Expr> bias = std::nullopt, const ConvTranspose2dOptions& o = {});
/// alpha * op(a) x op(b) + beta * c (ONNX Gemm).
Expr gemm(Expr a, Expr b, std::optional<Expr> c = std::nullopt, bool transA = false, bool transB = false, float alpha = 1, float beta = 1);
/// `a` applied to `x` (fused into the producer when the compiler can).
Expr activation(Expr x, Activation a, std::string name = {});
/// max(x, 0).
Expr relu(Expr x);
/// x >= 0 ? x : alpha * x.
Expr leakyRelu(Expr x, float alpha = 0.01f);
/// 1 / (1 + exp(-x)).
Expr sigmoid(Expr x);
/// tanh(x).
Expr tanh(Expr x);
/// 0.5 x (1 + erf(x / sqrt(2))).
Expr gelu(Expr x);
/// x * sigmoid(x).
Expr silu(Expr x);
/// x >= 0 ? x : slope * x, `slope` broadcast (per channel: [1, C, 1, 1]).
Expr prelu(Expr x, Expr slope);
/// clamp(x, lo, hi).
Expr clip(Expr x, float lo, float hi);
/// a + b, broadcast.
Expr add(Expr a, Expr b);
/// a - b, broadcast.
Expr sub(Expr a, Expr b);
/// a * b, broadcast.
Expr mul(Expr a, Expr b);
/// a / b, broadcast.
Expr div(Expr a, Expr b);
/// add(a, b).
inline Expr operator+(Expr a, Expr b) { return add(a, b); }
/// sub(a, b).
inline Expr operator-(Expr a, Expr b) { return sub(a, b); }
/// mul(a, b).
inline Expr operator*(Expr a, Expr b) { return mul(a, b); }
/// div(a, b).
inline Expr operator/(Expr a, Expr b) { return div(a, b); }
/// Max pooling over windows of the two innermost dims.
Expr maxPool2d(Expr x, const Pool2dOptions& o = {});
/// Average pooling over windows of the two innermost dims.
Expr avgPool2d(Expr x, const Pool2dOptions& o = {});
/// Mean of each (n, c) plane: [N, C, 1, 1].
Expr globalAvgPool(Expr x);
/// Maximum of each (n, c) plane: [N, C, 1, 1].
Expr globalMaxPool(Expr x);
/// Resamples the two innermost dims by the given scales (ONNX Resize).
Expr resize(Expr x, float scaleH, float scaleW, ResampleMode mode = ResampleMode::Linear,
            CoordinateTransform transform = CoordinateTransform::HalfPixel);
/// Channel blocks to `block` x `block` spatial blocks (ONNX DepthToSpace).
Expr depthToSpace(Expr x, uint32_t block, DepthSpaceOrder order = DepthSpaceOrder::DCR);
/// The inverse of depthToSpace.
Expr spaceToDepth(Expr x, uint32_t block, DepthSpaceOrder order = DepthSpaceOrder::DCR);
/// Joins `xs` along `axis`.
Expr concat(const std::vector<Expr>& xs, uint32_t axis);
/// Permutes the dims: output dim i = input dim permutation[i].
Expr transpose(Expr x, std::vector<uint32_t> permutation);
/// Softmax along `axis`.
Expr softmax(Expr x, uint32_t axis);
/// Reduces over the dims in `axesMask` (kept with size 1).
Expr reduce(Expr x, ReduceOp op, uint32_t axesMask);
/// Batch normalization with running statistics (inference).
Expr batchNorm(Expr x, Expr mean, Expr variance, Expr scale, Expr bias, float epsilon = 1e-5f);
/// Instance normalization without scale and bias.
Expr instanceNorm(Expr x, float epsilon = 1e-5f);
/// Instance normalization with per-channel `scale` and `bias`.
Expr instanceNorm(Expr x, Expr scale, Expr bias, float epsilon = 1e-5f);

}  // namespace mlplugin
MLPLUGIN_API_END
