// The operator conformance harness (op_test.h): runs an operator through the public API on the
// shared validated context and compares with the CPU reference.
#include "op_test.h"
#include "op_test_internal.h"

#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>

namespace optest {
namespace {

using namespace mlplugin;

// IEEE binary16 conversions, round to nearest even (independent of the plugin's own).
uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) return uint16_t(sign | 0x7e00u);  // NaN
    if (absx >= 0x477ff000u) return uint16_t(sign | 0x7c00u); // rounds to >= 65520: infinity
    if (absx < 0x38800000u) {                                  // below the smallest normal half
        // Subnormal: value / 2^-24 rounded to an integer, nearest even.
        float a;
        std::memcpy(&a, &absx, 4);
        float scaled = a * 16777216.0f;  // exact: power-of-two scaling
        return uint16_t(sign | uint32_t(std::nearbyint(scaled)));
    }
    uint32_t mant = absx & 0x7fffffu;
    uint32_t exp = (absx >> 23) - 127 + 15;
    uint32_t half = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: correct
    return uint16_t(sign | half);
}

float halfToFloat(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    float magnitude;
    if (exp == 0) magnitude = std::ldexp(float(mant), -24);
    else if (exp == 31) magnitude = mant ? NAN : INFINITY;
    else magnitude = std::ldexp(float(mant | 0x400u), int(exp) - 25);
    uint32_t bits;
    std::memcpy(&bits, &magnitude, 4);
    bits |= sign;
    std::memcpy(&magnitude, &bits, 4);
    return magnitude;
}

// Elements a buffer holding `desc` spans (its highest addressed element + 1).
uint64_t elementSpan(const TensorDesc& desc) {
    uint64_t bytes = byteSize(desc.dataType);
    return (desc.requiredBytes() + bytes - 1) / bytes;
}

std::vector<uint8_t> encode(const HostTensor& t) {
    std::vector<uint8_t> bytes(t.desc.requiredBytes(), 0);
    uint64_t n = std::min<uint64_t>(elementSpan(t.desc), t.data.size());
    for (uint64_t i = 0; i < n; ++i) {
        if (t.desc.dataType == DataType::Float16) {
            uint16_t h = floatToHalf(float(t.data[i]));
            std::memcpy(&bytes[i * 2], &h, 2);
        } else {
            float f = float(t.data[i]);
            std::memcpy(&bytes[i * 4], &f, 4);
        }
    }
    return bytes;
}

HostTensor decode(const TensorDesc& desc, const uint8_t* bytes) {
    HostTensor t{desc, std::vector<double>(elementSpan(desc))};
    for (uint64_t i = 0; i < t.data.size(); ++i) {
        if (desc.dataType == DataType::Float16) {
            uint16_t h;
            std::memcpy(&h, bytes + i * 2, 2);
            t.data[i] = halfToFloat(h);
        } else {
            float f;
            std::memcpy(&f, bytes + i * 4, 4);
            t.data[i] = f;
        }
    }
    return t;
}

std::vector<uint8_t> poison(const TensorDesc& desc) {
    std::vector<uint8_t> bytes(desc.requiredBytes());
    uint32_t pattern = desc.dataType == DataType::Float16 ? 0x7e007e00u : 0x7fc00000u;  // quiet NaN
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) std::memcpy(&bytes[i], &pattern, 4);
    return bytes;
}

std::vector<uint8_t> junk(uint64_t size) {
    std::vector<uint8_t> bytes(size);
    std::mt19937 rng(1234);
    for (auto& b : bytes) b = uint8_t(rng());
    return bytes;
}

// Visits every element the desc addresses, with its offset in elements.
template <class F>
void forEachElement(const TensorDesc& desc, F&& f) {
    auto strides = desc.effectiveStrides();
    uint64_t count = desc.elementCount();
    std::array<uint32_t, kMaxTensorRank> idx{};
    for (uint64_t n = 0; n < count; ++n) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < desc.rank; ++d) off += uint64_t(idx[d]) * strides[d];
        f(off);
        for (int d = int(desc.rank) - 1; d >= 0; --d) {
            if (++idx[d] < desc.sizes[d]) break;
            idx[d] = 0;
        }
    }
}

constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// A device-local buffer with an upload staging copy (when initial contents are given).
struct GpuBuffer {
    engine::Buffer device;
    engine::Buffer staging;
    uint64_t size = 0;
};

GpuBuffer makeBuffer(uint64_t size, const std::vector<uint8_t>* contents) {
    engine::Context& ctx = testsupport::context();
    GpuBuffer b;
    b.size = (size + 3) & ~uint64_t(3);
    b.device = engine::Buffer(ctx, b.size, kUsage, engine::MemoryUsage::DeviceLocal);
    if (contents) {
        b.staging = engine::Buffer(ctx, b.size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
        std::memset(b.staging.mapped(), 0, b.size);
        std::memcpy(b.staging.mapped(), contents->data(), contents->size());
        b.staging.flush();
    }
    return b;
}

BufferBinding bindingOf(const GpuBuffer& b) { return {b.device.handle(), 0, b.size}; }

using vkutil::memoryBarrier;

// A descriptor pool the test owns, with `sets` sets of the device's layout.
class DescriptorSets {
public:
    explicit DescriptorSets(uint32_t count) : sets_(count) {
        ENGINE_VK(pool_.createSets(testsupport::context().device(), device().descriptorSetLayout(),
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets_));
    }
    DescriptorSets(const DescriptorSets&) = delete;
    DescriptorSets& operator=(const DescriptorSets&) = delete;
    DescriptorRange range() const { return {sets_.data(), uint32_t(sets_.size())}; }

private:
    vkutil::DescriptorPool pool_;
    std::vector<VkDescriptorSet> sets_;
};

std::string describe(const OperatorDesc& desc) { return operatorLabel(desc) + " (" + operatorKind(desc) + ")"; }

void copyToDevice(VkCommandBuffer cmd, const GpuBuffer& b) {
    if (!b.staging.handle()) return;
    VkBufferCopy copy{0, 0, b.size};
    vkCmdCopyBuffer(cmd, b.staging.handle(), b.device.handle(), 1, &copy);
}

// Everything one run binds: tensors in operator order, temporary and persistent resources.
struct RunBuffers {
    std::vector<GpuBuffer> inputs, outputs;
    GpuBuffer temporary, persistent;
    std::vector<BufferBinding> initInputs, execInputs, outBindings;  // owned inputs go to the initializer
    BufferBinding persistentBinding;

    RunBuffers(const std::vector<const TensorDesc*>& ins, const std::vector<HostTensor>& host, const std::vector<const TensorDesc*>& outs,
               const BindingProperties& props, const RunOptions& options) {
        inputs.resize(ins.size());
        initInputs.resize(ins.size());
        execInputs.resize(ins.size());
        for (size_t i = 0; i < ins.size(); ++i) {
            if (!ins[i]) continue;
            std::vector<uint8_t> bytes = encode(host[i]);
            inputs[i] = makeBuffer(bytes.size(), &bytes);
            (ins[i]->ownedByPlugin() ? initInputs[i] : execInputs[i]) = bindingOf(inputs[i]);
        }
        for (const TensorDesc* out : outs) {
            std::vector<uint8_t> bytes = options.poisonOutputs ? poison(*out) : std::vector<uint8_t>(out->requiredBytes());
            outputs.push_back(makeBuffer(bytes.size(), &bytes));
            outBindings.push_back(bindingOf(outputs.back()));
        }
        if (props.temporaryBytes) {
            std::vector<uint8_t> bytes = options.junkTemporary ? junk(props.temporaryBytes) : std::vector<uint8_t>(props.temporaryBytes);
            temporary = makeBuffer(props.temporaryBytes, &bytes);
        }
        if (props.persistentBytes) {
            persistent = makeBuffer(props.persistentBytes, nullptr);
            persistentBinding = bindingOf(persistent);
        }
    }

    void recordUploads(VkCommandBuffer cmd) const {
        for (const GpuBuffer& b : inputs) copyToDevice(cmd, b);
        for (const GpuBuffer& b : outputs) copyToDevice(cmd, b);
        copyToDevice(cmd, temporary);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    }

    void recordReadback(VkCommandBuffer cmd, const std::vector<engine::Buffer>& readback) const {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_TRANSFER_READ_BIT);
        for (size_t i = 0; i < outputs.size(); ++i) {
            VkBufferCopy copy{0, 0, outputs[i].size};
            vkCmdCopyBuffer(cmd, outputs[i].device.handle(), readback[i].handle(), 1, &copy);
        }
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    }
};

#define OPTEST_TRY(expr, what)                                                                   \
    do {                                                                                         \
        auto&& optest_result_ = (expr);                                                          \
        if (!optest_result_.ok()) {                                                              \
            ADD_FAILURE() << label << ": " << what << ": " << optest_result_.error().message;        \
            return {};                                                                           \
        }                                                                                        \
    } while (0)

}  // namespace

std::vector<HostTensor> runCompiled(CompiledOperator& op, const std::vector<const TensorDesc*>& inDescs,
                                    const std::vector<HostTensor>& inputs, const std::vector<const TensorDesc*>& outDescs,
                                    const RunOptions& options, const std::string& label) {
    Device& dev = device();
    BindingProperties props = op.bindingProperties();
    RunBuffers buffers(inDescs, inputs, outDescs, props, options);

    // Initializer and operator tables over one pool the test owns.
    CompiledOperator* ops[] = {&op};
    auto initializer = dev.createOperatorInitializer(ops);
    OPTEST_TRY(initializer, "createOperatorInitializer");
    uint32_t initSets = (*initializer)->bindingProperties().descriptorSetCount;
    DescriptorSets sets(initSets + props.descriptorSetCount);
    DescriptorRange all = sets.range();
    auto initTable = dev.createBindingTable({initializer->get(), {all.sets, initSets}});
    OPTEST_TRY(initTable, "createBindingTable (initializer)");
    OPTEST_TRY((*initTable)->bindInputs(buffers.initInputs), "bindInputs (initializer)");
    OPTEST_TRY((*initTable)->bindOutputs({&buffers.persistentBinding, 1}), "bindOutputs (initializer)");
    auto table = dev.createBindingTable({&op, {all.sets + initSets, props.descriptorSetCount}});
    OPTEST_TRY(table, "createBindingTable");
    OPTEST_TRY((*table)->bindInputs(buffers.execInputs), "bindInputs");
    OPTEST_TRY((*table)->bindOutputs(buffers.outBindings), "bindOutputs");
    if (props.temporaryBytes) OPTEST_TRY((*table)->bindTemporary(bindingOf(buffers.temporary)), "bindTemporary");
    if (props.persistentBytes) OPTEST_TRY((*table)->bindPersistent(buffers.persistentBinding), "bindPersistent");
    auto recorder = dev.createCommandRecorder();
    OPTEST_TRY(recorder, "createCommandRecorder");

    engine::Context& ctx = testsupport::context();
    std::vector<engine::Buffer> readback;
    for (const GpuBuffer& b : buffers.outputs) readback.emplace_back(ctx, b.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    // Bundles (CommandBundle) are recorded before the submission and executed inside it.
    std::unique_ptr<CommandBundle> initBundle, opBundle;
    if (options.viaBundle) {
        auto b = (*recorder)->recordBundle(**initializer, **initTable);
        OPTEST_TRY(b, "recordBundle (initializer)");
        initBundle = std::move(b).value();
        auto o = (*recorder)->recordBundle(op, **table);
        OPTEST_TRY(o, "recordBundle");
        opBundle = std::move(o).value();
    }
    auto recordOne = [&](VkCommandBuffer cmd, const Dispatchable& d, const BindingTable& t, const CommandBundle* bundle) {
        return bundle ? bundle->execute(cmd) : (*recorder)->record(cmd, d, t);
    };
    Status recorded;
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        buffers.recordUploads(cmd);
        recorded = recordOne(cmd, **initializer, **initTable, initBundle.get());
        if (!recorded) return;
        recordComputeBarrier(dev, cmd);
        recorded = recordOne(cmd, op, **table, opBundle.get());
        if (recorded) buffers.recordReadback(cmd, readback);
    });
    OPTEST_TRY(recorded, "record");

    std::vector<HostTensor> outputs;
    for (size_t i = 0; i < readback.size(); ++i) {
        readback[i].invalidate();
        outputs.push_back(decode(*outDescs[i], static_cast<const uint8_t*>(readback[i].mapped())));
    }
    return outputs;
}

void expectClose(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want, const RunOptions& options,
                 const std::string& label) {
    ASSERT_EQ(got.size(), want.size()) << label;
    for (size_t i = 0; i < got.size(); ++i) {
        double tolerance = options.tolerance > 0 ? options.tolerance : got[i].desc.dataType == DataType::Float16 ? 1e-2 : 1e-4;
        EXPECT_LT(relativeL2(got[i], want[i]), tolerance) << label << " output " << i << " " << got[i].desc.toString();
    }
}

namespace {

std::vector<HostTensor> run(const OperatorDesc& desc, const std::vector<HostTensor>& inputs, const RunOptions& options) {
    std::string label = describe(desc);
    if (inputs.size() != operatorInputs(desc).size()) {
        ADD_FAILURE() << label << ": " << inputs.size() << " host inputs given, the operator has " << operatorInputs(desc).size();
        return {};
    }
    auto compiled = device().compileOperator(desc, options.executionFlags);
    OPTEST_TRY(compiled, "compileOperator");
    return runCompiled(**compiled, operatorInputs(desc), inputs, operatorOutputs(desc), options, label);
}

}  // namespace

std::string compileError(const OperatorDesc& desc) {
    auto compiled = device().compileOperator(desc);
    return compiled.ok() ? std::string("<compiled>") : compiled.error().message;
}

TensorDesc nhwc(DataType type, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    return TensorDesc::strided(type, {n, c, h, w}, {h * w * c, 1, w * c, c});
}

TensorDesc paddedRows(DataType type, uint32_t n, uint32_t c, uint32_t h, uint32_t w, uint32_t pad) {
    uint32_t row = w + pad;
    return TensorDesc::strided(type, {n, c, h, w}, {c * h * row, h * row, row, 1});
}

DeviceDesc deviceDesc() {
    engine::Context& ctx = testsupport::context();
    DeviceDesc desc;
    desc.instance = ctx.instance();
    desc.physicalDevice = ctx.physicalDevice();
    desc.device = ctx.device();
    desc.queueFamilyIndex = ctx.queueFamily();
    desc.getInstanceProcAddr = vkGetInstanceProcAddr;
    desc.shaderStorageBufferArrayDynamicIndexingEnabled = true;  // the engine enables it (required by the plugin)
    return desc;
}

mlplugin::Device& device() {
    static std::unique_ptr<Device> dev = [] {
        engine::Context& ctx = testsupport::context();
        DeviceDesc desc = deviceDesc();
        desc.storageBuffer16BitAccessEnabled = ctx.features().storageBuffer16BitAccess;
        desc.shaderFloat16Enabled = ctx.features().shaderFloat16;
        desc.cooperativeMatrixNVEnabled = ctx.features().cooperativeMatrixNV;
        desc.flags = DeviceFlagDebug;
        auto created = createDevice(desc);
        if (!created) {
            // Every test needs the device: there is nothing sensible to continue with.
            std::fprintf(stderr, "optest: createDevice failed: %s\n", created.error().message.c_str());
            std::abort();
        }
        return std::move(created).value();
    }();
    return *dev;
}

bool fp16Supported() {
    const Capabilities& caps = device().capabilities();
    return caps.fp16Storage && caps.fp16Arithmetic;
}

HostTensor randomTensor(const TensorDesc& desc, uint32_t seed, double lo, double hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    HostTensor t{desc, std::vector<double>(elementSpan(desc))};
    for (double& v : t.data) {
        do {
            v = dist(rng);
            if (desc.dataType == DataType::Float16) v = roundToHalf(v);
            else v = double(float(v));
        } while (v == 0.0 && (lo != 0.0 || hi != 0.0));  // zeros hide missing multiplies
    }
    return t;
}

std::vector<HostTensor> randomInputs(const OperatorDesc& desc, uint32_t seed, double lo, double hi) {
    std::vector<HostTensor> out;
    uint32_t i = 0;
    for (const TensorDesc* t : operatorInputs(desc)) {
        out.push_back(t ? randomTensor(*t, seed * 7919u + i, lo, hi) : HostTensor{});
        ++i;
    }
    return out;
}

std::vector<HostTensor> runOnGpu(const OperatorDesc& desc, const std::vector<HostTensor>& inputs, const RunOptions& options) {
    try {
        return run(desc, inputs, options);
    } catch (const engine::Error& e) {
        ADD_FAILURE() << operatorLabel(desc) << ": " << e.what();
        return {};
    }
}

double relativeL2(const HostTensor& got, const HostTensor& want) {
    double diff = 0, norm = 0;
    bool nan = false;
    forEachElement(want.desc, [&](uint64_t off) {
        double g = off < got.data.size() ? got.data[off] : NAN;
        double w = want.data[off];
        if (std::isnan(g)) nan = true;
        diff += (g - w) * (g - w);
        norm += w * w;
    });
    if (nan) return INFINITY;
    return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
}

void checkOperator(const OperatorDesc& desc, const RunOptions& options, uint32_t seed) {
    checkOperator(desc, randomInputs(desc, seed), options);
}

void checkOperator(const OperatorDesc& desc, const std::vector<HostTensor>& inputs, const RunOptions& options) {
    std::vector<HostTensor> got = runOnGpu(desc, inputs, options);
    if (got.empty()) return;  // runOnGpu reported the failure
    auto want = referenceEvaluate(desc, inputs);
    ASSERT_TRUE(want.ok()) << operatorLabel(desc) << ": referenceEvaluate: " << want.error().message;
    expectClose(got, *want, options, describe(desc));
}

}  // namespace optest
