// Resample (ONNX Resize on the two innermost dims of NCHW): nearest with four rounding modes,
// bilinear, bicubic (4x4 taps, Keys' kernel with coefficient a, border taps clamped or excluded
// and the rest renormalised); half-pixel, align-corners, asymmetric, pytorch-half-pixel and half-pixel-symmetric coordinates; any
// positive scale. Given scales must agree with the sizes: out = floor(in * scale) (or round, for
// ONNX Resize-18 keep_aspect_ratio_policy).
//
// Source coordinates are computed in fp32 by both the shader and the reference (as ONNX
// Runtime does), and nearest snaps coordinates within a few ULP of a rounding boundary onto
// it, so ties and exact integers resolve identically on any GPU; interpolation in the
// reference is in double.
#include "index_util.h"
#include "ml_shaders.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kResampleLocalSize = 128;

// The effective output/input scale of spatial dim k (0: height, 1: width).
float scaleOf(const ResampleDesc& d, uint32_t k) {
    return d.scales[k] != 0.0f ? d.scales[k] : float(d.output.sizes[2 + k]) / float(d.input.sizes[2 + k]);
}

Status checkResample(const PlanContext& pc, const ResampleDesc& d) {
    std::string op = opLabel("resample", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkRank(op, "input", d.input, 4));
    if (uint32_t(d.mode) > uint32_t(ResampleMode::Cubic))
        return invalidArgument(op + ": unknown mode " + str(uint32_t(d.mode)));
    if (d.mode == ResampleMode::Cubic && !std::isfinite(d.cubicCoeffA))
        return invalidArgument(op + ": cubicCoeffA is " + std::to_string(d.cubicCoeffA) + ", expected a finite number");
    if (uint32_t(d.transform) > uint32_t(CoordinateTransform::HalfPixelSymmetric))
        return invalidArgument(op + ": unknown coordinate transform " + str(uint32_t(d.transform)));
    if (uint32_t(d.rounding) > uint32_t(NearestRounding::Ceil))
        return invalidArgument(op + ": unknown nearest rounding " + str(uint32_t(d.rounding)));
    Index expected{d.input.sizes[0], d.input.sizes[1], d.output.sizes[2], d.output.sizes[3]};
    for (uint32_t k = 0; k < 2; ++k) {
        float s = d.scales[k];
        if (s == 0.0f) continue;
        if (!(s > 0.0f) || !std::isfinite(s))
            return invalidArgument(op + ": scales[" + str(k) + "] is " + std::to_string(s) + ", expected a positive number (or 0)");
        // The small slack accepts scales like 0.7f that sit just below the intended ratio.
        double size = std::floor(double(d.input.sizes[2 + k]) * s + 1e-4);
        if (size < 1 || size >= double(UINT32_MAX))
            return invalidArgument(op + ": scales[" + str(k) + "] " + std::to_string(s) + " turns input size " +
                                   str(d.input.sizes[2 + k]) + " into an empty or huge output");
        // ONNX Resize-18's keep_aspect_ratio_policy rounds instead of flooring.
        double rounded = std::round(double(d.input.sizes[2 + k]) * s);
        expected[2 + k] = d.output.rank == 4 && d.output.sizes[2 + k] == rounded ? uint32_t(rounded) : uint32_t(size);
    }
    return checkSizes(op, "output", d.output, expected, 4);
}

// HalfPixelSymmetric's shift of spatial dim k, in fp32 (0 for the other transforms); pushed to
// the shader, so both sides use the same value.
float symmetricOffset(const ResampleDesc& d, uint32_t k) {
    if (d.transform != CoordinateTransform::HalfPixelSymmetric) return 0.0f;
    float in = float(d.input.sizes[2 + k]), out = float(d.output.sizes[2 + k]);
    return in / 2.0f * (1.0f - out / (scaleOf(d, k) * in));
}

// The resized length the align-corners and pytorch-half-pixel formulas use: inLen * scale as
// ONNX Resize defines it (not a whole number when a given scale is not), the output size when
// the scale comes from the sizes. fp32, pushed to the shader.
float resizedLength(const ResampleDesc& d, uint32_t k) {
    return d.scales[k] != 0.0f ? float(d.input.sizes[2 + k]) * d.scales[k] : float(d.output.sizes[2 + k]);
}

// Mirrors sourceCoord() in resample.comp, in fp32 on purpose (see the top of this file).
float sourceCoord(CoordinateTransform t, uint32_t o, float resized, uint32_t inLen, float scale, float offset) {
    if (t == CoordinateTransform::AlignCorners) return resized == 1.0f ? 0.0f : float(o) * float(inLen - 1) / (resized - 1.0f);
    if (t == CoordinateTransform::Asymmetric) return float(o) / scale;
    if (t == CoordinateTransform::PytorchHalfPixel && resized == 1.0f) return 0.0f;
    return offset + ((float(o) + 0.5f) / scale - 0.5f);
}

// Mirrors snapToBoundary() in resample.comp: GPU division may be a few ULP off the exact
// quotient, which must not flip a floor/ceil/tie decision.
float snapToBoundary(float c) {
    float boundary = std::floor(c * 2.0f + 0.5f) * 0.5f;
    return std::fabs(c - boundary) <= std::max(std::fabs(c), 1.0f) * 5e-7f ? boundary : c;
}

uint32_t nearestIndex(NearestRounding r, float coordinate, uint32_t inLen) {
    float c = snapToBoundary(coordinate);
    double i = 0;
    double floorC = std::floor(double(c)), frac = double(c) - floorC;
    switch (r) {
    case NearestRounding::RoundPreferFloor: i = frac <= 0.5 ? floorC : floorC + 1; break;
    case NearestRounding::RoundPreferCeil: i = frac < 0.5 ? floorC : floorC + 1; break;
    case NearestRounding::Floor: i = floorC; break;
    case NearestRounding::Ceil: i = std::ceil(double(c)); break;
    }
    return uint32_t(std::clamp(i, 0.0, double(inLen - 1)));
}

// Keys' cubic convolution kernel with coefficient a at distance t (|t| < 2; 0 beyond).
double cubicKernel(double a, double t) {
    t = std::fabs(t);
    if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
    return 0;
}

// The four taps of a cubic resize around coordinate c along a dim of length len: indices
// floor(c) - 1 .. floor(c) + 2 (clamped to the border), and their weights (those of taps outside
// the input zeroed and the rest renormalised when excludeOutside). In double; mirrors
// cubicTaps() in resample.comp.
struct CubicTaps {
    std::array<uint32_t, 4> index;
    std::array<double, 4> weight;
};
CubicTaps cubicTaps(const ResampleDesc& d, float c, uint32_t len) {
    CubicTaps taps;
    double floorC = std::floor(double(c)), t = double(c) - floorC, sum = 0;
    for (int k = 0; k < 4; ++k) {
        double i = floorC - 1 + k;
        bool outside = i < 0 || i > double(len - 1);
        taps.index[k] = uint32_t(std::clamp(i, 0.0, double(len - 1)));
        taps.weight[k] = d.excludeOutside && outside ? 0.0 : cubicKernel(d.cubicCoeffA, t + 1 - k);
        sum += taps.weight[k];
    }
    // The tap at floor(c) or the next lies inside for every coordinate a transform gives, except
    // align_corners with a rounded output size above the resized length (keep_aspect_ratio_policy),
    // which can map past the input: all four taps excluded give 0 (the shader does the same).
    if (d.excludeOutside && sum != 0)
        for (double& w : taps.weight) w /= sum;
    return taps;
}

double resampleOne(const ResampleDesc& d, const HostTensor& in, const Index& o) {
    uint32_t inH = d.input.sizes[2], inW = d.input.sizes[3];
    float cy = sourceCoord(d.transform, o[2], resizedLength(d, 0), inH, scaleOf(d, 0), symmetricOffset(d, 0));
    float cx = sourceCoord(d.transform, o[3], resizedLength(d, 1), inW, scaleOf(d, 1), symmetricOffset(d, 1));
    auto at = [&](uint32_t y, uint32_t x) { return in.data[offsetOf(d.input, Index{o[0], o[1], y, x, 0})]; };
    if (d.mode == ResampleMode::Nearest) return at(nearestIndex(d.rounding, cy, inH), nearestIndex(d.rounding, cx, inW));
    if (d.mode == ResampleMode::Cubic) {
        // No clamping of the coordinate: taps past the border read it (or are excluded).
        CubicTaps ty = cubicTaps(d, cy, inH), tx = cubicTaps(d, cx, inW);
        double sum = 0;
        for (int j = 0; j < 4; ++j) {
            double row = 0;
            for (int k = 0; k < 4; ++k) row += tx.weight[k] * at(ty.index[j], tx.index[k]);
            sum += ty.weight[j] * row;
        }
        return sum;
    }
    double y = std::clamp(double(cy), 0.0, double(inH - 1)), x = std::clamp(double(cx), 0.0, double(inW - 1));
    uint32_t y0 = uint32_t(y), x0 = uint32_t(x);
    uint32_t y1 = std::min(y0 + 1, inH - 1), x1 = std::min(x0 + 1, inW - 1);
    double ty = y - y0, tx = x - x0;
    double top = at(y0, x0) * (1 - tx) + at(y0, x1) * tx;
    double bottom = at(y1, x0) * (1 - tx) + at(y1, x1) * tx;
    return top * (1 - ty) + bottom * ty;
}

}  // namespace

Result<Plan> planResample(const PlanContext& pc, const ResampleDesc& d) {
    MLP_TRY(checkResample(pc, d));
    Plan plan;
    PipelineSpec spec;
    spec.spirv = anyFp16({&d.input, &d.output}) ? shaders::resample_f16() : shaders::resample_f32();
    // The cubic coefficient and exclude_outside only matter (and only vary the pipeline) for cubic.
    bool cubic = d.mode == ResampleMode::Cubic;
    spec.specConstants = {kResampleLocalSize, 1, 1, uint32_t(d.mode), uint32_t(d.transform), uint32_t(d.rounding), dtypeCode(d.input),
                          dtypeCode(d.output), asUint(cubic ? d.cubicCoeffA : -0.75f), uint32_t(cubic && d.excludeOutside)};
    spec.debugName = "resample";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    uint64_t count = d.output.elementCount();
    launch.groups = linearGroups(count, kResampleLocalSize);
    auto is = d.input.effectiveStrides();
    auto os = d.output.effectiveStrides();
    pushWords(launch, {uint32_t(count), d.output.sizes[1], d.output.sizes[2], d.output.sizes[3], d.input.sizes[2], d.input.sizes[3]});
    pushWords(launch, {is[0], is[1], is[2], is[3], os[0], os[1], os[2], os[3]});
    pushWords(launch, {asUint(scaleOf(d, 0)), asUint(scaleOf(d, 1)), asUint(symmetricOffset(d, 0)), asUint(symmetricOffset(d, 1))});
    pushWords(launch, {asUint(resizedLength(d, 0)), asUint(resizedLength(d, 1))});
    plan.execute.push_back(launch);
    return plan;
}

Result<HostTensors> referenceResample(const ResampleDesc& d, const HostTensors& in) {
    MLP_TRY(checkResample(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    forEachIndex(d.output, [&](const Index& o) { storeValue(out, offsetOf(d.output, o), resampleOne(d, in[0], o)); });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
