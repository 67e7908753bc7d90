#pragma once
// Internal: how an operator family plugs into the plugin. Each family validates its desc and
// turns it into a Plan: the pipelines it needs and the launches to record at execution and at
// initialization. The framework (device.cpp, binding_table.cpp, recorder.cpp, initializer.cpp)
// turns plans into pipelines, descriptor writes and recorded dispatches; families never call
// Vulkan themselves.
//
// Buffer slots. Each dispatchable owns one descriptor set of kDescriptorsPerSet storage-buffer
// descriptors (binding 0, an array). In shaders/ml/common.glsl the array is declared once per
// element type (heapF32[], heapF16[], heapVec4[], ...) aliasing binding 0. Slot numbers:
//   inputs 0..nIn-1 (operatorInputs order), outputs nIn..nIn+nOut-1 (operatorOutputs order),
//   kPersistentSlot, kTemporarySlot.
// Initializer launches see the same slots for the same operator (owned inputs at their input
// slot, the persistent resource at kPersistentSlot) in a descriptor set of their own.
// Element offsets into a slot (e.g. where a bias starts in the persistent resource) travel in
// push constants or specialization constants; descriptors cover whole bound ranges.
#include "mlplugin/cpu_reference.h"
#include "mlplugin/device.h"
#include "mlplugin/dispatchable.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"
#include "mlplugin/tuning.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mlplugin::detail {

inline constexpr uint32_t kPersistentSlot = kDescriptorsPerSet - 2;
inline constexpr uint32_t kTemporarySlot = kDescriptorsPerSet - 1;
inline constexpr uint32_t kMaxTensorSlots = kDescriptorsPerSet - 2;  // inputs + outputs
inline constexpr uint32_t kMaxPushWords = 32;                        // 128 bytes

// What a planner may know about the device.
struct PlanContext {
    const Capabilities* caps = nullptr;
    bool fp16Storage = false;        // 16-bit storage and shaderFloat16 enabled: f16 shader variants usable
    bool fp16Arithmetic = false;     // ...and the operator was compiled with AllowHalfPrecisionComputation
    bool cooperativeMatrix = false;  // NV cooperative matrix usable for this operator
    uint32_t executionFlags = 0;
    // Measured kernel choices (Device::setTuningTable); null: the planners' fixed heuristics.
    std::shared_ptr<const TuningTable> tuning;
};
// The plan context of a device with `caps` for an operator compiled with `executionFlags`
// (`caps` must outlive it).
PlanContext planContextFor(const Capabilities& caps, uint32_t executionFlags, std::shared_ptr<const TuningTable> tuning = nullptr);

// A compute pipeline: SPIR-V (from the generated ml_shaders.h accessors) and specialization
// constants, constant_id i = specConstants[i] (floats bit-cast with asUint).
// Convention: ids 0, 1, 2 are local_size_x/y/z (layout(local_size_x_id = 0, ...)).
struct PipelineSpec {
    std::span<const uint32_t> spirv;
    std::vector<uint32_t> specConstants;
    const char* debugName = "";
};

struct Launch {
    uint32_t pipeline = 0;                     // index into Plan::pipelines
    std::array<uint32_t, 3> groups{1, 1, 1};   // workgroup counts (each <= 65535)
    std::array<uint32_t, kMaxPushWords> push{};
    uint32_t pushWords = 0;
    // Record a compute->compute barrier before this launch: it reads what an earlier launch of
    // the same dispatchable wrote (temporary/persistent/outputs). Launches without it may overlap.
    bool barrierBefore = false;
};

struct Plan {
    std::vector<PipelineSpec> pipelines;
    std::vector<Launch> execute;
    std::vector<Launch> initialize;  // empty when the operator has nothing to initialize
    uint64_t persistentBytes = 0;
    uint64_t temporaryBytes = 0;
};

inline uint32_t asUint(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline uint32_t divUp(uint64_t a, uint32_t b) { return uint32_t((a + b - 1) / b); }

// Appends `words` to a launch's push constants (asserts on overflow: a planner bug).
void pushWords(Launch& launch, std::initializer_list<uint32_t> words);
// Splits `count` invocations of `localSize` over x/y to stay under 65535 groups per dim;
// shaders recover the linear index as gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * localSize.
std::array<uint32_t, 3> linearGroups(uint64_t count, uint32_t localSize);

// "convolution 'enc1'" (or just "convolution" when unnamed): how messages name an operator.
std::string describe(const char* kind, const std::string& name);

// Common validation helpers; `op` is describe(...), `field` the tensor ("input", "filter").
Status checkTensor(const TensorDesc& t, const std::string& op, const char* field, bool isOutput, const PlanContext& pc);
Status checkSameSizes(const TensorDesc& a, const TensorDesc& b, const std::string& op, const char* fa, const char* fb);

// One planner per operator family (each in its own source file).
Result<Plan> planElementWise(const PlanContext&, const ElementWiseDesc&);
Result<Plan> planConvolution(const PlanContext&, const ConvolutionDesc&);

// Graph compilation: what a convolution does besides convolving, folded into its kernel.
// Slots: input 0, filter 1, bias 2, output 3 as for a plain convolution; then the PReLU slopes
// kConvSlopeSlot (owned: packed at initialization), the residual kConvResidualSlot, the
// concat's second part kConvConcatSlot, and a fused 1x1 projection's filter and bias
// (kConvProjectionFilterSlot, kConvProjectionBiasSlot; owned, packed at initialization).
inline constexpr uint32_t kConvSlopeSlot = 4, kConvResidualSlot = 5, kConvConcatSlot = 6;
inline constexpr uint32_t kConvProjectionFilterSlot = 7, kConvProjectionBiasSlot = 8;
struct ConvolutionFusion {
    // The store lands in this depth-to-space's output (any kernel); the output slot takes it.
    std::optional<DepthToSpaceDesc> depthToSpace;
    // Per-channel PReLU after the bias and activation: [C], [C, 1, 1] or [1, C, 1, 1].
    std::optional<TensorDesc> preluSlope;
    // Added last, read at (y / residualScale, x / residualScale) of the stored position (after
    // the depth-to-space): a residual, or a nearest-upsampled base image; with residualLinear,
    // bilinearly upsampled by residualScale instead (half-pixel centres, edges clamped: ONNX
    // Resize linear half_pixel / pytorch_half_pixel, PyTorch bilinear align_corners=False).
    std::optional<TensorDesc> residual;
    uint32_t residualScale = 1;
    bool residualLinear = false;
    // Clamped to [min, max] after the residual (an ONNX Clip after the add: a residual image
    // model's last step).
    std::optional<std::array<float, 2>> clampAfterResidual;
    // The convolution's input (d.input: only its sizes matter then) is virtual: input 0
    // (`source`, nearest-upsampled by sourceScale) followed along channels by `concat` (slot
    // kConvConcatSlot) when present. Tensor-core implicit GEMM only.
    std::optional<TensorDesc> source;
    uint32_t sourceScale = 1;
    std::optional<TensorDesc> concat;
    // The output slot takes the 2x2 stride-2 max pooling (floor) of the activated output instead.
    // Tensor-core implicit GEMM only.
    std::optional<TensorDesc> pooledOutput;
    // A 1x1 convolution (stride 1, ungrouped, no padding) that alone reads the activated output:
    // the kernel applies it to each tile's activations in shared memory and the output slot
    // takes its output instead (the intermediate is never stored). Its filter and bias are
    // owned (kConvProjectionFilterSlot, kConvProjectionBiasSlot); its own activation applies.
    // Tensor-core implicit GEMM only, where one workgroup holds every channel of its pixels.
    std::optional<ConvolutionDesc> projection;

    bool any() const { return depthToSpace || preluSlope || residual || source || pooledOutput || projection; }
    // Fusions only conv2d_igemm takes (the others run on every tensor-core kernel).
    bool needsImplicitGemm() const { return source.has_value() || pooledOutput.has_value() || projection.has_value(); }
    // The tensor the output slot takes.
    const TensorDesc& stored(const ConvolutionDesc& d) const {
        return projection ? projection->output : pooledOutput ? *pooledOutput : depthToSpace ? depthToSpace->output : d.output;
    }
};
Result<Plan> planConvolution(const PlanContext&, const ConvolutionDesc& d, const ConvolutionFusion& fusion);
// Whether planConvolution would put `d` on a tensor-core kernel (conv2d_igemm, conv2d_coopmat, or
// conv2d_winograd when a tuning table names it).
bool convolutionUsesTensorCores(const PlanContext&, const ConvolutionDesc& d);
// Whether `d` can take `fusion` (whatever the layouts its tensors end up with): the graph's
// fusion passes ask before folding a node into a convolution.
bool convolutionTakesFusion(const PlanContext&, const ConvolutionDesc& d, const ConvolutionFusion& fusion);
// The kernel configurations a tuner may choose between for `d` (names of TuningTable entries;
// fewer than two: nothing to tune), the one planConvolution picks with the current table, and the
// key it is looked up under.
struct ConvolutionTuning {
    std::string key;
    std::vector<std::string> candidates;
    std::string chosen;
};
ConvolutionTuning convolutionTuning(const PlanContext&, const ConvolutionDesc& d, const ConvolutionFusion& fusion);
Result<Plan> planGemm(const PlanContext&, const GemmDesc&);
Result<Plan> planPooling(const PlanContext&, const PoolingDesc&);
Result<Plan> planResample(const PlanContext&, const ResampleDesc&);
Result<Plan> planGridSample(const PlanContext&, const GridSampleDesc&);
Result<Plan> planDepthToSpace(const PlanContext&, const DepthToSpaceDesc&);
Result<Plan> planSpaceToDepth(const PlanContext&, const SpaceToDepthDesc&);
Result<Plan> planConcat(const PlanContext&, const ConcatDesc&);
Result<Plan> planSplit(const PlanContext&, const SplitDesc&);
Result<Plan> planSlice(const PlanContext&, const SliceDesc&);
Result<Plan> planPad(const PlanContext&, const PadDesc&);
Result<Plan> planTranspose(const PlanContext&, const TransposeDesc&);
Result<Plan> planBatchNormalization(const PlanContext&, const BatchNormalizationDesc&);
Result<Plan> planInstanceNormalization(const PlanContext&, const InstanceNormalizationDesc&);
Result<Plan> planMeanVarianceNormalization(const PlanContext&, const MeanVarianceNormalizationDesc&);
Result<Plan> planReduce(const PlanContext&, const ReduceDesc&);
Result<Plan> planSoftmax(const PlanContext&, const SoftmaxDesc&);

// Graph compilation: up to kMaxChainSteps element-wise operators fused into one dispatch. Step 0
// reads inputs[0] (a) and inputs[1] (b); step s > 0 reads the running value as its a and
// inputs[s + 1] as its b. Absent b: nullptr. Every input broadcasts to `output`; the running
// value stays in an fp32 register. Slots: inputs 0..3, output 4 (kChainOutputSlot).
inline constexpr uint32_t kMaxChainSteps = 3;
inline constexpr uint32_t kChainOutputSlot = 4;
struct ElementWiseChain {
    std::string name;
    std::vector<ElementWiseDesc> steps;      // op, activation, scale/bias, clip of each step
    std::vector<const TensorDesc*> inputs;   // kMaxChainSteps + 1 entries
    TensorDesc output;
};
Result<Plan> planElementWiseChain(const PlanContext&, const ElementWiseChain&);

// Graph compilation: 2..kMaxConvChainLayers convolutions (ungrouped, stride 1, dilation 1, odd
// kernels with 'same' padding) run as one dispatch over spatial output tiles; each workgroup
// stages its input tile with the cumulative halo and keeps every intermediate, halo included,
// in shared memory (conv_chain.comp). A depth-to-space after the last layer folds into its
// store. Slots: input 0, filter of layer l at 1 + 2l and its bias at 2 + 2l (both owned by the
// plugin: packed at initialization), output kConvChainOutputSlot.
inline constexpr uint32_t kMaxConvChainLayers = 3;
inline constexpr uint32_t kConvChainOutputSlot = 1 + 2 * kMaxConvChainLayers;
struct ConvChain {
    std::string name;
    std::vector<ConvolutionDesc> layers;  // layer l + 1 reads layer l's output
    std::optional<DepthToSpaceDesc> depthToSpace;
    const TensorDesc& output() const { return depthToSpace ? depthToSpace->output : layers.back().output; }
};
// Whether the chain's shapes qualify, a tile fits `sharedMemoryBytes` without recomputing
// absurdly much, and fusing is wanted (`force`; unforced chains stay unfused for now: see the
// measurements in conv_chain.cpp). The fusion pass asks before fusing.
bool convChainFits(const ConvChain&, uint32_t sharedMemoryBytes, bool force);
Result<Plan> planConvChain(const PlanContext&, const ConvChain&);

// CPU references, one per family (cpu_reference.cpp dispatches on the variant).
using HostTensors = std::vector<HostTensor>;
Result<HostTensors> referenceElementWise(const ElementWiseDesc&, const HostTensors& in);
Result<HostTensors> referenceConvolution(const ConvolutionDesc&, const HostTensors& in);
Result<HostTensors> referenceGemm(const GemmDesc&, const HostTensors& in);
Result<HostTensors> referencePooling(const PoolingDesc&, const HostTensors& in);
Result<HostTensors> referenceResample(const ResampleDesc&, const HostTensors& in);
Result<HostTensors> referenceGridSample(const GridSampleDesc&, const HostTensors& in);
Result<HostTensors> referenceDepthToSpace(const DepthToSpaceDesc&, const HostTensors& in);
Result<HostTensors> referenceSpaceToDepth(const SpaceToDepthDesc&, const HostTensors& in);
Result<HostTensors> referenceConcat(const ConcatDesc&, const HostTensors& in);
Result<HostTensors> referenceSplit(const SplitDesc&, const HostTensors& in);
Result<HostTensors> referenceSlice(const SliceDesc&, const HostTensors& in);
Result<HostTensors> referencePad(const PadDesc&, const HostTensors& in);
Result<HostTensors> referenceTranspose(const TransposeDesc&, const HostTensors& in);
Result<HostTensors> referenceBatchNormalization(const BatchNormalizationDesc&, const HostTensors& in);
Result<HostTensors> referenceInstanceNormalization(const InstanceNormalizationDesc&, const HostTensors& in);
Result<HostTensors> referenceMeanVarianceNormalization(const MeanVarianceNormalizationDesc&, const HostTensors& in);
Result<HostTensors> referenceReduce(const ReduceDesc&, const HostTensors& in);
Result<HostTensors> referenceSoftmax(const SoftmaxDesc&, const HostTensors& in);

// Shared by references: activation in double.
double applyActivation(const Activation& a, double x);

}  // namespace mlplugin::detail
