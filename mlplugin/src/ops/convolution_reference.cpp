// CPU reference for convolution and transposed convolution: direct loops, double accumulation,
// the same input-coordinate rules as shaders/ml/conv2d.comp.
#include "ops/convolution_shape.h"

namespace mlplugin::detail {

namespace {

// Input coordinate feeding output coordinate `o` through tap `k`, or -1.
int64_t inputCoord(bool transposed, int64_t o, int64_t k, int64_t stride, int64_t dilation, int64_t pad, int64_t size) {
    int64_t c = o * stride + k * dilation - pad;
    if (transposed) {
        int64_t num = o + pad - k * dilation;
        if (num < 0 || num % stride != 0) return -1;
        c = num / stride;
    }
    return c >= 0 && c < size ? c : -1;
}

uint64_t elementSpan(const TensorDesc& t) { return t.requiredBytes() / byteSize(t.dataType); }

}  // namespace

Result<HostTensors> referenceConvolution(const ConvolutionDesc& d, const HostTensors& in) {
    PlanContext anyDevice;
    anyDevice.fp16Storage = true;
    MLP_TRY(validateConvolution(d, anyDevice));
    ConvGeometry g = convolutionGeometry(d);
    auto is = d.input.effectiveStrides(), fs = d.filter.effectiveStrides(), os = d.output.effectiveStrides();
    uint32_t biasStride = 0;
    if (d.bias) biasStride = d.bias->rank == 1 ? d.bias->effectiveStrides()[0] : d.bias->effectiveStrides()[1];
    const std::vector<double>& x = in[0].data;
    const std::vector<double>& w = in[1].data;

    HostTensor out{d.output, std::vector<double>(elementSpan(d.output), 0.0)};
    for (uint32_t n = 0; n < g.batch; ++n)
    for (uint32_t oc = 0; oc < g.outC; ++oc) {
        uint32_t group = oc / g.groupOutC, ocl = oc % g.groupOutC;
        for (uint32_t oy = 0; oy < g.outH; ++oy)
        for (uint32_t ox = 0; ox < g.outW; ++ox) {
            double acc = d.bias ? in[2].data[uint64_t(oc) * biasStride] : 0.0;
            for (uint32_t ky = 0; ky < g.kH; ++ky) {
                int64_t iy = inputCoord(d.transposed, oy, ky, d.strides[0], d.dilations[0], d.padBegin[0], g.inH);
                if (iy < 0) continue;
                for (uint32_t kx = 0; kx < g.kW; ++kx) {
                    int64_t ix = inputCoord(d.transposed, ox, kx, d.strides[1], d.dilations[1], d.padBegin[1], g.inW);
                    if (ix < 0) continue;
                    for (uint32_t icl = 0; icl < g.groupInC; ++icl) {
                        uint64_t ic = uint64_t(group) * g.groupInC + icl;
                        uint64_t wi = d.transposed ? ic * fs[0] + ocl * fs[1] : uint64_t(oc) * fs[0] + icl * fs[1];
                        wi += uint64_t(ky) * fs[2] + uint64_t(kx) * fs[3];
                        acc += x[n * is[0] + ic * is[1] + iy * is[2] + ix * is[3]] * w[wi];
                    }
                }
            }
            out.data[uint64_t(n) * os[0] + uint64_t(oc) * os[1] + uint64_t(oy) * os[2] + uint64_t(ox) * os[3]] =
                applyActivation(d.activation, acc);
        }
    }
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
