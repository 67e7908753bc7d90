#include "ops/convolution_shape.h"
#include "ops/fused_activation.h"
#include "ops/index_util.h"

#include <algorithm>

namespace mlplugin {

uint32_t convolutionOutputSize(const ConvolutionDesc& d, int dim) {
    if (dim < 0 || dim > 1 || d.input.rank != 4 || d.filter.rank != 4) return 0;
    int64_t in = d.input.sizes[2 + dim], k = d.filter.sizes[2 + dim];
    int64_t stride = d.strides[dim], dilation = d.dilations[dim];
    int64_t pads = int64_t(d.padBegin[dim]) + d.padEnd[dim];
    if (stride == 0 || dilation == 0 || k == 0 || in == 0) return 0;
    // Products of two 32-bit values overflow int64: past 2^34 (pads are below 2^33) no output
    // size fits 32 bits, so larger terms give 0 before any signed arithmetic.
    constexpr uint64_t kLimit = uint64_t(1) << 34;
    uint64_t extentU = uint64_t(dilation) * uint64_t(k - 1) + 1, spanU = uint64_t(in - 1) * uint64_t(stride);
    if (extentU > kLimit || (d.transposed && spanU > kLimit)) return 0;
    int64_t extent = int64_t(extentU);
    int64_t out = d.transposed ? int64_t(spanU) + extent + d.outputPadding[dim] - pads
                               : (in + pads - extent) < 0 ? 0 : (in + pads - extent) / stride + 1;
    return out > 0 && out <= int64_t(UINT32_MAX) ? uint32_t(out) : 0;
}

namespace detail {

namespace {

std::string pair(const std::array<uint32_t, 2>& v) { return std::to_string(v[0]) + "x" + std::to_string(v[1]); }

Status checkTensors(const ConvolutionDesc& d, const PlanContext& pc, const std::string& op) {
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.filter, op, "filter", false, pc));
    if (d.bias) MLP_TRY(checkTensor(*d.bias, op, "bias", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    if (d.input.ownedByPlugin())
        return invalidArgument(op + ": input cannot be owned by the plugin (only filter and bias are weights)");
    const std::pair<const TensorDesc*, const char*> fourD[] = {{&d.input, "input"}, {&d.filter, "filter"}, {&d.output, "output"}};
    for (auto [t, field] : fourD)
        if (t->rank != 4)
            return invalidArgument(op + ": " + field + " must be 4-D, got rank " + std::to_string(t->rank) + " " + sizesText(*t));
    return {};
}

Status checkParameters(const ConvolutionDesc& d, const std::string& op) {
    if (d.strides[0] == 0 || d.strides[1] == 0) return invalidArgument(op + ": strides must be non-zero, got " + pair(d.strides));
    if (d.dilations[0] == 0 || d.dilations[1] == 0)
        return invalidArgument(op + ": dilations must be non-zero, got " + pair(d.dilations));
    if (d.groups == 0) return invalidArgument(op + ": groups must be at least 1");
    MLP_TRY(checkFusedActivation(d.activation, op));
    for (int i = 0; i < 2; ++i) {
        const char* dim = i == 0 ? "height" : "width";
        if (!d.transposed && d.outputPadding[i] != 0)
            return invalidArgument(op + ": output padding " + pair(d.outputPadding) + " is only valid for a transposed convolution");
        if (d.transposed && d.outputPadding[i] >= d.strides[i])
            return invalidArgument(op + ": output padding " + std::to_string(d.outputPadding[i]) + " must be smaller than stride " +
                                   std::to_string(d.strides[i]) + " (" + dim + ")");
    }
    return {};
}

Status checkChannels(const ConvolutionDesc& d, const std::string& op) {
    uint32_t inC = d.input.sizes[1];
    auto n = [](uint32_t v) { return std::to_string(v); };
    if (inC % d.groups != 0) return invalidArgument(op + ": input channels " + n(inC) + " not divisible by groups " + n(d.groups));
    uint32_t outC;
    if (!d.transposed) {
        outC = d.filter.sizes[0];
        if (outC % d.groups != 0)
            return invalidArgument(op + ": filter output channels " + n(outC) + " not divisible by groups " + n(d.groups));
        if (d.filter.sizes[1] != inC / d.groups)
            return invalidArgument(op + ": filter " + sizesText(d.filter) + " has " + n(d.filter.sizes[1]) +
                                   " input channels per group, expected input channels " + n(inC) + " / groups " + n(d.groups) +
                                   " = " + n(inC / d.groups));
    } else {
        if (d.filter.sizes[0] != inC)
            return invalidArgument(op + ": transposed filter " + sizesText(d.filter) + " must start with the input channels " + n(inC) +
                                   " ([inC, outC/groups, kH, kW])");
        outC = d.filter.sizes[1] * d.groups;
    }
    if (d.output.sizes[0] != d.input.sizes[0])
        return invalidArgument(op + ": output batch " + n(d.output.sizes[0]) + " differs from input batch " + n(d.input.sizes[0]));
    if (d.output.sizes[1] != outC)
        return invalidArgument(op + ": output channels " + n(d.output.sizes[1]) + " do not match the " + n(outC) +
                               " implied by filter " + sizesText(d.filter) + " and groups " + n(d.groups));
    if (d.bias) {
        const TensorDesc& b = *d.bias;
        bool ok = (b.rank == 1 && b.sizes[0] == outC) ||
                  (b.rank == 4 && b.sizes[0] == 1 && b.sizes[1] == outC && b.sizes[2] == 1 && b.sizes[3] == 1);
        if (!ok)
            return invalidArgument(op + ": bias must be [" + n(outC) + "] or [1, " + n(outC) + ", 1, 1] (the output channels), got " +
                                   sizesText(b));
    }
    return {};
}

Status checkSpatial(const ConvolutionDesc& d, const std::string& op) {
    for (int i = 0; i < 2; ++i) {
        const char* dim = i == 0 ? "height" : "width";
        auto n = [](uint32_t v) { return std::to_string(v); };
        uint32_t implied = convolutionOutputSize(d, i);
        std::string how = "input " + n(d.input.sizes[2 + i]) + ", kernel " + n(d.filter.sizes[2 + i]) + ", stride " + n(d.strides[i]) +
                          ", pads " + n(d.padBegin[i]) + "/" + n(d.padEnd[i]) + ", dilation " + n(d.dilations[i]) +
                          (d.transposed ? ", output padding " + n(d.outputPadding[i]) : std::string());
        if (implied == 0) return invalidArgument(op + ": no valid output " + dim + " for " + how + " (the kernel does not fit)");
        if (d.output.sizes[2 + i] != implied)
            return invalidArgument(op + ": output " + dim + " " + n(d.output.sizes[2 + i]) + " does not match the " + n(implied) +
                                   " implied by " + how);
        // Shaders do signed coordinate arithmetic in 32 bits.
        uint64_t reach = uint64_t(d.output.sizes[2 + i]) * d.strides[i] + uint64_t(d.filter.sizes[2 + i]) * d.dilations[i] +
                         d.padBegin[i] + d.input.sizes[2 + i];
        if (reach > uint64_t(INT32_MAX)) return unsupported(op + ": " + dim + " coordinates exceed 32-bit range (" + how + ")");
    }
    return {};
}

}  // namespace

Status validateConvolution(const ConvolutionDesc& d, const PlanContext& pc) {
    std::string op = describe("convolution", d.name);
    MLP_TRY(checkTensors(d, pc, op));
    MLP_TRY(checkParameters(d, op));
    MLP_TRY(checkChannels(d, op));
    return checkSpatial(d, op);
}

ConvGeometry convolutionGeometry(const ConvolutionDesc& d) {
    ConvGeometry g;
    g.batch = d.input.sizes[0];
    g.inC = d.input.sizes[1];
    g.inH = d.input.sizes[2];
    g.inW = d.input.sizes[3];
    g.outC = d.output.sizes[1];
    g.outH = d.output.sizes[2];
    g.outW = d.output.sizes[3];
    g.kH = d.filter.sizes[2];
    g.kW = d.filter.sizes[3];
    g.groupInC = g.inC / d.groups;
    g.groupOutC = g.outC / d.groups;
    return g;
}

}  // namespace detail
}  // namespace mlplugin
