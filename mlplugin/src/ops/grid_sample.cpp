// Grid sample (mlplugin/grid_sample.h): validation, planning and the CPU reference.
//
// One GPU invocation per output pixel (n, y, x): it reads its grid position once, turns it into
// input coordinates and taps, then walks the channels (shaders/ml/grid_sample.comp). Positions
// are computed in fp32 on both sides with the same operation order (multiplications by 0.5
// instead of divisions, which Vulkan allows 2.5 ULP), so the nearest pixel and the taps agree;
// the reference then interpolates in double.
#include "index_util.h"
#include "ml_shaders.h"

#include <cmath>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kGridSampleLocalSize = 64;

Status checkGridSample(const PlanContext& pc, const GridSampleDesc& d) {
    std::string op = opLabel("grid_sample", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.grid, op, "grid", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    if (d.mode != GridSampleMode::Linear && d.mode != GridSampleMode::Nearest)
        return invalidArgument(op + ": unknown mode " + str(uint32_t(d.mode)));
    if (uint32_t(d.padding) > uint32_t(GridSamplePadding::Reflection))
        return invalidArgument(op + ": unknown padding " + str(uint32_t(d.padding)));
    MLP_TRY(checkRank(op, "input", d.input, 4));
    MLP_TRY(checkRank(op, "grid", d.grid, 4));
    if (d.grid.sizes[3] != 2)
        return invalidArgument(op + ": grid " + sizesString(d.grid.sizes.data(), 4) + " must end in 2 (an x, y pair per output pixel)");
    if (d.grid.sizes[0] != d.input.sizes[0])
        return invalidArgument(op + ": grid batch " + str(d.grid.sizes[0]) + " differs from the input batch " + str(d.input.sizes[0]));
    Index expected{d.input.sizes[0], d.input.sizes[1], d.grid.sizes[1], d.grid.sizes[2]};
    return checkSizes(op, "output", d.output, expected, 4);
}

// Mirrors grid_sample.comp's position functions, in fp32 on purpose (see the top of this file).
float unnormalize(float g, uint32_t size, bool alignCorners) {
    return alignCorners ? (g + 1.0f) * 0.5f * float(size - 1) : ((g + 1.0f) * float(size) - 1.0f) * 0.5f;
}

// Reflects x about `low` and `low + span` until it lies between them.
float reflectPosition(float x, float low, float span) {
    if (span <= 0.0f) return 0.0f;
    float d = std::fabs(x - low);
    float flips = std::floor(d / span);
    float extra = d - span * flips;
    return std::fmod(flips, 2.0f) == 0.0f ? low + extra : low + span - extra;
}

float sourcePosition(const GridSampleDesc& d, float g, uint32_t size) {
    float x = unnormalize(g, size, d.alignCorners);
    if (d.padding == GridSamplePadding::Reflection)
        x = d.alignCorners ? reflectPosition(x, 0.0f, float(size - 1)) : reflectPosition(x, -0.5f, float(size));
    if (d.padding != GridSamplePadding::Zeros) x = std::fmin(std::fmax(x, 0.0f), float(size - 1));
    return x;
}

double sampleOne(const GridSampleDesc& d, const HostTensor& in, uint32_t n, uint32_t c, float px, float py) {
    const double h = d.input.sizes[2], w = d.input.sizes[3];
    // Taps outside the input (Zeros padding, or NaN / infinite positions) contribute nothing.
    auto inside = [&](double y, double x) { return y >= 0 && y < h && x >= 0 && x < w; };
    auto at = [&](double y, double x) { return in.data[offsetOf(d.input, Index{n, c, uint32_t(y), uint32_t(x)})]; };
    if (d.mode == GridSampleMode::Nearest) {
        double y = std::nearbyint(double(py)), x = std::nearbyint(double(px));
        return inside(y, x) ? at(y, x) : 0.0;
    }
    double x0 = std::floor(double(px)), y0 = std::floor(double(py));
    double tx = double(px) - x0, ty = double(py) - y0;
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
        double x = x0 + (k & 1), y = y0 + (k >> 1);
        if (inside(y, x)) sum += at(y, x) * ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
    }
    return sum;
}

}  // namespace

Result<Plan> planGridSample(const PlanContext& pc, const GridSampleDesc& d) {
    MLP_TRY(checkGridSample(pc, d));
    Plan plan;
    PipelineSpec spec;
    spec.spirv = anyFp16({&d.input, &d.grid, &d.output}) ? shaders::grid_sample_f16() : shaders::grid_sample_f32();
    spec.specConstants = {kGridSampleLocalSize, 1, 1, uint32_t(d.mode), uint32_t(d.padding), d.alignCorners ? 1u : 0u, dtypeCode(d.input),
                          dtypeCode(d.grid), dtypeCode(d.output)};
    spec.debugName = "grid_sample";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    const uint64_t pixels = uint64_t(d.output.sizes[0]) * d.output.sizes[2] * d.output.sizes[3];
    launch.groups = linearGroups(pixels, kGridSampleLocalSize);
    auto is = d.input.effectiveStrides(), gs = d.grid.effectiveStrides(), os = d.output.effectiveStrides();
    pushWords(launch, {uint32_t(pixels), d.input.sizes[1], d.input.sizes[2], d.input.sizes[3], d.output.sizes[2], d.output.sizes[3]});
    pushWords(launch, {is[0], is[1], is[2], is[3], gs[0], gs[1], gs[2], gs[3], os[0], os[1], os[2], os[3]});
    plan.execute.push_back(launch);
    return plan;
}

Result<HostTensors> referenceGridSample(const GridSampleDesc& d, const HostTensors& in) {
    MLP_TRY(checkGridSample(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    const uint32_t h = d.input.sizes[2], w = d.input.sizes[3];
    forEachIndex(d.output, [&](const Index& o) {
        // Grid values as the shader sees them: fp32 (fp16 grids hold fp16 values already).
        float gx = float(in[1].data[offsetOf(d.grid, Index{o[0], o[2], o[3], 0})]);
        float gy = float(in[1].data[offsetOf(d.grid, Index{o[0], o[2], o[3], 1})]);
        float px = sourcePosition(d, gx, w), py = sourcePosition(d, gy, h);
        storeValue(out, offsetOf(d.output, o), sampleOne(d, in[0], o[0], o[1], px, py));
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
