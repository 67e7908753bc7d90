// DepthToSpace / SpaceToDepth (ONNX semantics, DCR and CRD orders). Both are a 6-D strided
// copy: the channel dim splits into (blockRow, blockCol, channel) or (channel, blockRow,
// blockCol) and the spatial dims into (row, blockRow) and (col, blockCol).
#include "index_util.h"
#include "strided_copy.h"

namespace mlplugin::detail {
namespace {

// Shared checks. `deep` is the [N, C*b*b, H, W] side, `wide` the [N, C, H*b, W*b] side; the
// wide side's sizes follow from the deep side's.
Status checkDepthSpace(const PlanContext& pc, const std::string& op, const TensorDesc& input, const TensorDesc& output,
                       uint32_t b, bool toSpace) {
    MLP_TRY(checkTensor(input, op, "input", false, pc));
    MLP_TRY(checkTensor(output, op, "output", true, pc));
    MLP_TRY(checkRank(op, "input", input, 4));
    if (b == 0) return invalidArgument(op + ": blockSize is 0");
    const auto& in = input.sizes;
    // In 64 bits: b * b wrapped to 0 (a division by zero) for b = 65536, and to a wrong size above.
    const uint64_t bb = uint64_t(b) * b;
    uint64_t deep[4] = {in[0], in[1], in[2], in[3]};
    if (toSpace) {
        if (in[1] % bb)
            return invalidArgument(op + ": input channels " + str(in[1]) + " not divisible by blockSize^2 = " + str(bb));
        deep[1] = in[1] / bb, deep[2] = uint64_t(in[2]) * b, deep[3] = uint64_t(in[3]) * b;
    } else {
        for (uint32_t d : {2u, 3u})
            if (in[d] % b)
                return invalidArgument(op + ": input " + (d == 2 ? "height " : "width ") + str(in[d]) +
                                       " not divisible by blockSize " + str(b));
        deep[1] = uint64_t(in[1]) * bb, deep[2] = in[2] / b, deep[3] = in[3] / b;
    }
    for (uint64_t v : deep)
        if (v > UINT32_MAX) return invalidArgument(op + ": blockSize " + str(b) + " makes an output dim of " + str(v) + " (more than 2^32 - 1)");
    Index expected{in[0], uint32_t(deep[1]), uint32_t(deep[2]), uint32_t(deep[3])};
    return checkSizes(op, "output", output, expected, 4);
}

// Strides of the deep tensor's channel parts for channel = f(c, i, j).
struct ChannelSplit {
    int64_t c, i, j;
};

ChannelSplit channelSplit(DepthSpaceOrder order, uint32_t channels, uint32_t b, int64_t channelStride) {
    if (order == DepthSpaceOrder::DCR)  // channel = (i * b + j) * C + c
        return {channelStride, channelStride * b * channels, channelStride * channels};
    return {channelStride * b * b, channelStride * b, channelStride};  // CRD: channel = c * b * b + i * b + j
}

// Walk over (n, c, h, i, w, j) with `deep` and `wide` strides; the caller decides which side
// is the input. Dims are reordered by output stride in appendCopy.
void addDepthSpaceDims(CopyView& v, const TensorDesc& deep, const TensorDesc& wide, uint32_t b, DepthSpaceOrder order,
                       bool deepIsInput) {
    auto ds = deep.effectiveStrides();
    auto ws = wide.effectiveStrides();
    uint32_t channels = wide.sizes[1];
    ChannelSplit cs = channelSplit(order, channels, b, ds[1]);
    auto add = [&](uint32_t size, int64_t deepStride, int64_t wideStride) {
        if (deepIsInput) v.addDim(size, deepStride, wideStride);
        else v.addDim(size, wideStride, deepStride);
    };
    add(deep.sizes[0], ds[0], ws[0]);
    add(channels, cs.c, ws[1]);
    add(deep.sizes[2], ds[2], int64_t(ws[2]) * b);
    add(b, cs.i, ws[2]);
    add(deep.sizes[3], ds[3], int64_t(ws[3]) * b);
    add(b, cs.j, ws[3]);
}

// Calls fn(deepIndex, wideIndex) for every element.
template <class Fn>
void forEachDepthSpacePair(const TensorDesc& wide, uint32_t b, DepthSpaceOrder order, Fn&& fn) {
    uint32_t channels = wide.sizes[1];
    forEachIndex(wide, [&](const Index& w) {
        uint32_t i = w[2] % b, j = w[3] % b;
        uint32_t channel = order == DepthSpaceOrder::DCR ? (i * b + j) * channels + w[1] : (w[1] * b + i) * b + j;
        fn(Index{w[0], channel, w[2] / b, w[3] / b, 0}, w);
    });
}

Plan planDepthSpace(const TensorDesc& deep, const TensorDesc& wide, uint32_t b,
                            DepthSpaceOrder order, bool deepIsInput) {
    Plan plan;
    CopyView v;
    addDepthSpaceDims(v, deep, wide, b, order, deepIsInput);
    const TensorDesc& in = deepIsInput ? deep : wide;
    const TensorDesc& out = deepIsInput ? wide : deep;
    appendCopy(plan, anyFp16({&in, &out}), v, {0, in.dataType}, {1, out.dataType});
    return plan;
}

}  // namespace

Result<Plan> planDepthToSpace(const PlanContext& pc, const DepthToSpaceDesc& d) {
    std::string op = opLabel("depth_to_space", d.name);
    MLP_TRY(checkDepthSpace(pc, op, d.input, d.output, d.blockSize, true));
    return planDepthSpace(d.input, d.output, d.blockSize, d.order, true);
}

Result<Plan> planSpaceToDepth(const PlanContext& pc, const SpaceToDepthDesc& d) {
    std::string op = opLabel("space_to_depth", d.name);
    MLP_TRY(checkDepthSpace(pc, op, d.input, d.output, d.blockSize, false));
    return planDepthSpace(d.output, d.input, d.blockSize, d.order, false);
}

Result<HostTensors> referenceDepthToSpace(const DepthToSpaceDesc& d, const HostTensors& in) {
    MLP_TRY(checkDepthSpace(referenceContext(), opLabel("depth_to_space", d.name), d.input, d.output, d.blockSize, true));
    HostTensor out = makeHostTensor(d.output);
    forEachDepthSpacePair(d.output, d.blockSize, d.order, [&](const Index& deep, const Index& wide) {
        storeValue(out, offsetOf(d.output, wide), in[0].data[offsetOf(d.input, deep)]);
    });
    return HostTensors{std::move(out)};
}

Result<HostTensors> referenceSpaceToDepth(const SpaceToDepthDesc& d, const HostTensors& in) {
    MLP_TRY(checkDepthSpace(referenceContext(), opLabel("space_to_depth", d.name), d.input, d.output, d.blockSize, false));
    HostTensor out = makeHostTensor(d.output);
    forEachDepthSpacePair(d.input, d.blockSize, d.order, [&](const Index& deep, const Index& wide) {
        storeValue(out, offsetOf(d.output, deep), in[0].data[offsetOf(d.input, wide)]);
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
