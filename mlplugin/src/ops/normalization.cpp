// Normalization family: batch normalization (inference) and the row-reduction normalizations
// (instance, mean-variance) sharing shaders/ml/mvn.comp.
//
// Constants may be owned by the plugin. Batch normalization with all four statistics owned
// folds them once at initialization into the persistent resource (scale', bias'); otherwise
// the owned ones are packed into the persistent resource as fp32 copies and the fold runs at
// every execution into the temporary resource. Instance / MVN scale and bias are read in place,
// from their slot or from their persistent copy. Instance / MVN rows longer than 8192 elements
// are split into chunks (statistics per chunk in the temporary resource, then a merge), see
// row_plan.h and mvn.comp.
#include "kernel.h"
#include "ml_shaders.h"
#include "ops/normalization_common.h"
#include "ops/row_plan.h"
#include "index_util.h"

#include <cmath>
#include <vector>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kNormalizationLocalSize = 256;
constexpr uint32_t kNoSlot = 0xFFFF;  // NO_SLOT in mvn.comp

bool anyF16(std::initializer_list<const TensorDesc*> tensors) {
    for (const TensorDesc* t : tensors)
        if (t && t->dataType == DataType::Float16) return true;
    return false;
}

// --- batch normalization ---------------------------------------------------------------

struct BatchNormShape {
    uint32_t channels = 0;
    std::array<uint32_t, 4> channelStrides{};  // mean, variance, scale, bias
};

Result<BatchNormShape> validateBatchNorm(const PlanContext& pc, const BatchNormalizationDesc& d, const std::string& op) {
    MLP_TRY(checkEpsilonAndActivation(d.epsilon, d.activation, op));
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    if (d.input.rank < 2)
        return invalidArgument(op + ": input " + sizesString(d.input) + " has rank " + std::to_string(d.input.rank) +
                               ", batch normalization needs [N, C, ...]");
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkSameSizes(d.input, d.output, op, "input", "output"));
    BatchNormShape shape;
    shape.channels = d.input.sizes[1];
    const TensorDesc* constants[] = {&d.mean, &d.variance, &d.scale, &d.bias};
    const char* names[] = {"mean", "variance", "scale", "bias"};
    for (int i = 0; i < 4; ++i) {
        MLP_TRY(checkTensor(*constants[i], op, names[i], false, pc));
        auto stride = channelStride(*constants[i], shape.channels, op + ": " + names[i]);
        MLP_TRY(stride);
        shape.channelStrides[i] = *stride;
    }
    return shape;
}

// Apply kernel: y = x * scale'[c] + bias'[c], folded constants at the start of `foldedSlot`.
Launch addBatchNormApply(Plan& plan, const PlanContext& pc, const BatchNormalizationDesc& d, uint32_t foldedSlot,
                           uint32_t channels) {
    const uint32_t pad = kMaxTensorRank - d.input.rank;
    Dims sizes = onesDims(), inStrides{}, outStrides{};
    const Dims in = d.input.effectiveStrides(), out = d.output.effectiveStrides();
    for (uint32_t i = 0; i < d.input.rank; ++i) {
        sizes[pad + i] = d.input.sizes[i];
        inStrides[pad + i] = in[i];
        outStrides[pad + i] = out[i];
    }
    PipelineSpec p;
    p.spirv = pc.fp16Storage && anyF16({&d.input, &d.output}) ? shaders::batchnorm_f16() : shaders::batchnorm_f32();
    p.debugName = "batch_normalization";
    p.specConstants = {kNormalizationLocalSize, 1, 1, pad + 1, uint32_t(d.input.dataType), uint32_t(d.output.dataType), 5u, foldedSlot,
                       uint32_t(d.activation.type), asUint(d.activation.alpha), asUint(d.activation.beta)};
    plan.pipelines.push_back(std::move(p));

    const uint64_t count = d.input.elementCount();
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size() - 1);
    launch.groups = linearGroups(count, kNormalizationLocalSize);
    pushWords(launch, {uint32_t(count), channels});
    for (uint32_t v : sizes) pushWords(launch, {v});
    for (uint32_t v : inStrides) pushWords(launch, {v});
    for (uint32_t v : outStrides) pushWords(launch, {v});
    return launch;
}

// Fold kernel reading each statistic from `sources` and writing [scale', bias'] to `dstSlot`.
Launch addBatchNormFold(Plan& plan, const PlanContext& pc, const BatchNormalizationDesc& d, const BatchNormShape& shape,
                        const std::array<ConstantSource, 4>& sources, uint32_t dstSlot) {
    PipelineSpec p;
    p.spirv = pc.fp16Storage && anyF16({&d.mean, &d.variance, &d.scale, &d.bias}) ? shaders::batchnorm_fold_f16()
                                                                                  : shaders::batchnorm_fold_f32();
    p.debugName = "batch_normalization_fold";
    p.specConstants = {64, 1, 1, asUint(d.epsilon), dstSlot};
    for (int i = 0; i < 4; ++i)
        p.specConstants.insert(p.specConstants.end(), {sources[i].slot, sources[i].dtype, sources[i].base, shape.channelStrides[i]});
    plan.pipelines.push_back(std::move(p));
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size() - 1);
    launch.groups = linearGroups(shape.channels, 64);
    pushWords(launch, {shape.channels});
    return launch;
}

// --- instance / mean-variance normalization --------------------------------------------

struct RowNormalization {
    const TensorDesc* input;
    const TensorDesc* output;
    const TensorDesc* scale;  // nullptr when absent
    const TensorDesc* bias;
    Dims scaleStrides{}, biasStrides{};  // in the input's dims, 0 where they broadcast
    uint32_t reducedMask = 0;
    bool normalizeVariance = true;
    float epsilon = 0;
    Activation activation;
    const char* debugName = "";
};

Result<Plan> planRowNormalization(const PlanContext& pc, const RowNormalization& n) {
    Plan plan;
    // Input slots: input 0, scale 1, bias 2; output 3.
    ConstantSource scale{kNoSlot, 0, 0}, bias{kNoSlot, 0, 0};
    if (n.scale) scale = constantSource(plan, pc, *n.scale, 1);
    if (n.bias) bias = constantSource(plan, pc, *n.bias, 2);

    RowLayout layout = rowLayout(n.input->sizes, n.input->rank, n.reducedMask,
                                 {n.input->effectiveStrides(), n.output->effectiveStrides(), n.scaleStrides, n.biasStrides});
    const bool split = splitLongRows(layout);
    // PHASE 0: whole rows; split rows: PHASE 1 (chunk statistics), then PHASE 2 (merge, normalize).
    // (Not a conditional over two initializer_lists: their arrays would die before the loop runs.)
    const std::vector<uint32_t> phases = split ? std::vector<uint32_t>{1, 2} : std::vector<uint32_t>{0};
    for (uint32_t phase : phases) {
        PipelineSpec p;
        p.spirv = pc.fp16Storage && anyF16({n.input, n.output, n.scale, n.bias}) ? shaders::mvn_f16() : shaders::mvn_f32();
        p.debugName = n.debugName;
        p.specConstants = rowSpecConstants(layout);
        p.specConstants.insert(p.specConstants.end(),
                               {uint32_t(n.input->dataType), uint32_t(n.output->dataType), 3u, n.normalizeVariance ? 1u : 0u,
                                asUint(n.epsilon), uint32_t(n.activation.type), asUint(n.activation.alpha),
                                asUint(n.activation.beta), scale.slot, scale.dtype, scale.base, bias.slot, bias.dtype,
                                bias.base, phase});
        finishRowSpecConstants(p.specConstants, layout);
        plan.pipelines.push_back(std::move(p));
        Launch launch = rowLaunch(layout);
        launch.pipeline = uint32_t(plan.pipelines.size() - 1);
        launch.barrierBefore = phase == 2;  // merges the statistics phase 1 wrote
        plan.execute.push_back(launch);
    }
    // Per chunk: mean and M2.
    if (split) plan.temporaryBytes = uint64_t(layout.rows) * layout.chunks * 2 * sizeof(float);
    return plan;
}

Result<RowNormalization> validateInstanceNorm(const PlanContext& pc, const InstanceNormalizationDesc& d, const std::string& op) {
    MLP_TRY(checkEpsilonAndActivation(d.epsilon, d.activation, op));
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    if (d.input.rank < 3)
        return invalidArgument(op + ": input " + sizesString(d.input) + " has rank " + std::to_string(d.input.rank) +
                               ", instance normalization needs [N, C, spatial...]");
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkSameSizes(d.input, d.output, op, "input", "output"));
    RowNormalization n{&d.input, &d.output, d.scale ? &*d.scale : nullptr, d.bias ? &*d.bias : nullptr};
    const uint32_t channels = d.input.sizes[1];
    if (d.scale) {
        MLP_TRY(checkTensor(*d.scale, op, "scale", false, pc));
        auto s = channelStride(*d.scale, channels, op + ": scale");
        MLP_TRY(s);
        n.scaleStrides[1] = *s;
    }
    if (d.bias) {
        MLP_TRY(checkTensor(*d.bias, op, "bias", false, pc));
        auto s = channelStride(*d.bias, channels, op + ": bias");
        MLP_TRY(s);
        n.biasStrides[1] = *s;
    }
    for (uint32_t i = 2; i < d.input.rank; ++i) n.reducedMask |= 1u << i;
    n.epsilon = d.epsilon;
    n.activation = d.activation;
    n.debugName = "instance_normalization";
    return n;
}

Result<RowNormalization> validateMvn(const PlanContext& pc, const MeanVarianceNormalizationDesc& d, const std::string& op) {
    MLP_TRY(checkEpsilonAndActivation(d.epsilon, d.activation, op));
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkSameSizes(d.input, d.output, op, "input", "output"));
    MLP_TRY(checkAxesMask(d.axesMask, d.input.rank, op));
    RowNormalization n{&d.input, &d.output, d.scale ? &*d.scale : nullptr, d.bias ? &*d.bias : nullptr};
    if (d.scale) {
        MLP_TRY(checkTensor(*d.scale, op, "scale", false, pc));
        auto s = broadcastStrides(*d.scale, d.input, op + ": scale", "input");
        MLP_TRY(s);
        n.scaleStrides = *s;
    }
    if (d.bias) {
        MLP_TRY(checkTensor(*d.bias, op, "bias", false, pc));
        auto s = broadcastStrides(*d.bias, d.input, op + ": bias", "input");
        MLP_TRY(s);
        n.biasStrides = *s;
    }
    n.reducedMask = d.axesMask;
    n.normalizeVariance = d.normalizeVariance;
    n.epsilon = d.epsilon;
    n.activation = d.activation;
    n.debugName = "mean_variance_normalization";
    return n;
}

}  // namespace

Result<Plan> planBatchNormalization(const PlanContext& pc, const BatchNormalizationDesc& d) {
    const std::string op = describe("batch_normalization", d.name);
    auto shape = validateBatchNorm(pc, d, op);
    MLP_TRY(shape);
    const uint32_t channels = shape->channels;
    const uint64_t foldedBytes = uint64_t(channels) * 2 * sizeof(float);
    Plan plan;
    const bool allOwned = d.mean.ownedByPlugin() && d.variance.ownedByPlugin() && d.scale.ownedByPlugin() && d.bias.ownedByPlugin();
    if (allOwned) {
        // The initializer binds the owned statistics at their input slots: fold straight from there.
        std::array<ConstantSource, 4> sources;
        const TensorDesc* constants[] = {&d.mean, &d.variance, &d.scale, &d.bias};
        for (uint32_t i = 0; i < 4; ++i) sources[i] = {1 + i, uint32_t(constants[i]->dataType), 0};
        plan.initialize.push_back(addBatchNormFold(plan, pc, d, *shape, sources, kPersistentSlot));
        plan.persistentBytes = foldedBytes;
        plan.execute.push_back(addBatchNormApply(plan, pc, d, kPersistentSlot, channels));
        return plan;
    }
    std::array<ConstantSource, 4> sources{constantSource(plan, pc, d.mean, 1), constantSource(plan, pc, d.variance, 2),
                                          constantSource(plan, pc, d.scale, 3), constantSource(plan, pc, d.bias, 4)};
    plan.execute.push_back(addBatchNormFold(plan, pc, d, *shape, sources, kTemporarySlot));
    plan.temporaryBytes = foldedBytes;
    Launch apply = addBatchNormApply(plan, pc, d, kTemporarySlot, channels);
    apply.barrierBefore = true;  // reads the folded constants the fold launch wrote
    plan.execute.push_back(apply);
    return plan;
}

Result<Plan> planInstanceNormalization(const PlanContext& pc, const InstanceNormalizationDesc& d) {
    auto n = validateInstanceNorm(pc, d, describe("instance_normalization", d.name));
    MLP_TRY(n);
    return planRowNormalization(pc, *n);
}

Result<Plan> planMeanVarianceNormalization(const PlanContext& pc, const MeanVarianceNormalizationDesc& d) {
    auto n = validateMvn(pc, d, describe("mean_variance_normalization", d.name));
    MLP_TRY(n);
    return planRowNormalization(pc, *n);
}

// --- CPU references ---------------------------------------------------------------------

namespace {

// Value of element `linear` (row-major over the tensor's own sizes).
double elementAt(const HostTensor& t, uint64_t linear) {
    return t.data[offsetOf(coordinates(linear, t.desc.sizes, t.desc.rank), t.desc.effectiveStrides(), t.desc.rank)];
}

Result<HostTensors> referenceRowNormalization(const RowNormalization& n, const HostTensors& in) {
    const TensorDesc& x = *n.input;
    const uint64_t count = x.elementCount();
    const Dims inStrides = x.effectiveStrides(), outStrides = n.output->effectiveStrides();
    // Row of an element: its coordinates with the reduced dims zeroed, as a linear index.
    auto rowOf = [&](Dims c) {
        uint64_t row = 0;
        for (uint32_t dim = 0; dim < x.rank; ++dim) row = row * x.sizes[dim] + (((n.reducedMask >> dim) & 1u) ? 0 : c[dim]);
        return row;
    };
    std::vector<double> sum(count, 0.0), squares(count, 0.0), length(count, 0.0);
    for (uint64_t i = 0; i < count; ++i) {
        Dims c = coordinates(i, x.sizes, x.rank);
        sum[rowOf(c)] += in[0].data[offsetOf(c, inStrides, x.rank)];
        length[rowOf(c)] += 1;
    }
    for (uint64_t i = 0; i < count; ++i) {
        Dims c = coordinates(i, x.sizes, x.rank);
        uint64_t r = rowOf(c);
        double dev = in[0].data[offsetOf(c, inStrides, x.rank)] - sum[r] / length[r];
        squares[r] += dev * dev;
    }
    HostTensor out{*n.output, std::vector<double>(elementSpan(*n.output), 0.0)};
    for (uint64_t i = 0; i < count; ++i) {
        Dims c = coordinates(i, x.sizes, x.rank);
        uint64_t r = rowOf(c);
        double y = in[0].data[offsetOf(c, inStrides, x.rank)] - sum[r] / length[r];
        if (n.normalizeVariance) y /= std::sqrt(squares[r] / length[r] + n.epsilon);
        if (n.scale) y *= in[1].data[offsetOf(c, n.scaleStrides, x.rank)];
        if (n.bias) y += in[2].data[offsetOf(c, n.biasStrides, x.rank)];
        out.data[offsetOf(c, outStrides, x.rank)] = representedAs(*n.output, applyActivation(n.activation, y));
    }
    return HostTensors{std::move(out)};
}

}  // namespace

Result<HostTensors> referenceBatchNormalization(const BatchNormalizationDesc& d, const HostTensors& in) {
    auto shape = validateBatchNorm(referenceContext(), d, describe("batch_normalization", d.name));
    MLP_TRY(shape);
    const Dims inStrides = d.input.effectiveStrides(), outStrides = d.output.effectiveStrides();
    HostTensor out{d.output, std::vector<double>(elementSpan(d.output), 0.0)};
    for (uint64_t i = 0; i < d.input.elementCount(); ++i) {
        Dims c = coordinates(i, d.input.sizes, d.input.rank);
        const uint32_t ch = c[1];
        double y = (in[0].data[offsetOf(c, inStrides, d.input.rank)] - elementAt(in[1], ch)) /
                       std::sqrt(elementAt(in[2], ch) + d.epsilon) * elementAt(in[3], ch) + elementAt(in[4], ch);
        out.data[offsetOf(c, outStrides, d.input.rank)] = representedAs(d.output, applyActivation(d.activation, y));
    }
    return HostTensors{std::move(out)};
}

Result<HostTensors> referenceInstanceNormalization(const InstanceNormalizationDesc& d, const HostTensors& in) {
    auto n = validateInstanceNorm(referenceContext(), d, describe("instance_normalization", d.name));
    MLP_TRY(n);
    return referenceRowNormalization(*n, in);
}

Result<HostTensors> referenceMeanVarianceNormalization(const MeanVarianceNormalizationDesc& d, const HostTensors& in) {
    auto n = validateMvn(referenceContext(), d, describe("mean_variance_normalization", d.name));
    MLP_TRY(n);
    return referenceRowNormalization(*n, in);
}

}  // namespace mlplugin::detail
