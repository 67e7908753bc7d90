// ml_minimal: the whole plugin lifecycle on one operator, in the order an application does it:
//   device -> compile -> initializer -> descriptor sets -> binding tables -> record -> submit.
// Computes output = a + b for two small fp32 tensors and prints them. Exit code 0 when the
// result is right (and, with --validation, the Khronos validation layer stayed silent).
#include "bridge/errors.h"
#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "mlplugin/mlplugin.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

namespace {

using namespace mlplugin;

constexpr uint32_t kCount = 8;

// Errors from the plugin are values; the demo stops at the first one, keeping its code
// (bridge/errors.h maps mlplugin::ErrorCode onto engine::ErrorCode one to one).
template <class T>
T check(Result<T> r, const char* what) {
    return bridge::take(std::move(r), what);
}
void check(const Status& s, const char* what) { bridge::check(s, what); }

// A host-visible storage buffer: fine for a demo this small (real apps use device-local memory).
engine::Buffer tensorBuffer(const engine::Context& ctx, const std::vector<float>& values) {
    engine::Buffer b(ctx, values.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Readback);
    std::memcpy(b.mapped(), values.data(), values.size() * sizeof(float));
    b.flush();
    return b;
}

BufferBinding bindingOf(const engine::Buffer& b) { return {b.handle(), 0, b.size()}; }

int run(bool validation) {
    engine::ContextDesc ctxDesc;
    ctxDesc.applicationName = "ml_minimal";
    ctxDesc.validation = validation;
    engine::Context ctx(ctxDesc);

    // 1. The plugin device over the application's Vulkan objects.
    DeviceDesc deviceDesc;
    deviceDesc.instance = ctx.instance();
    deviceDesc.physicalDevice = ctx.physicalDevice();
    deviceDesc.device = ctx.device();
    deviceDesc.queueFamilyIndex = ctx.queueFamily();
    deviceDesc.getInstanceProcAddr = vkGetInstanceProcAddr;
    deviceDesc.shaderStorageBufferArrayDynamicIndexingEnabled = true;  // engine::Context enables it
    deviceDesc.flags = DeviceFlagDebug;
    auto device = check(createDevice(deviceDesc), "createDevice");
    std::printf("device: %s\n", device->capabilities().deviceName.c_str());

    // 2. Compile one operator.
    ElementWiseDesc add;
    add.name = "add";
    add.op = ElementWiseOp::Add;
    add.a = TensorDesc::make(DataType::Float32, {kCount});
    add.b = add.a;
    add.output = add.a;
    auto op = check(device->compileOperator(add), "compileOperator");
    CompiledOperator* ops[] = {op.get()};
    auto initializer = check(device->createOperatorInitializer(ops), "createOperatorInitializer");

    // 3. Descriptor sets: as many as the two dispatchables ask for, from a pool the app owns.
    BindingProperties opProps = op->bindingProperties();
    BindingProperties initProps = initializer->bindingProperties();
    uint32_t setCount = opProps.descriptorSetCount + initProps.descriptorSetCount;
    vkutil::DescriptorPool pool;  // destroyed before the context, also when a step below fails
    std::vector<VkDescriptorSet> sets(setCount);
    ENGINE_VK(pool.createSets(ctx.device(), device->descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets));

    // 4. Resources: tensors, plus temporary/persistent memory if the operator asks for it.
    std::vector<float> a(kCount), b(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        a[i] = float(i);
        b[i] = 0.5f * float(i) + 1.0f;
    }
    engine::Buffer aBuf = tensorBuffer(ctx, a), bBuf = tensorBuffer(ctx, b), outBuf = tensorBuffer(ctx, std::vector<float>(kCount));
    std::vector<engine::Buffer> scratch;  // temporary and persistent, when needed
    auto resource = [&](uint64_t bytes) {
        if (!bytes) return BufferBinding{};
        scratch.emplace_back(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::DeviceLocal);
        return bindingOf(scratch.back());
    };
    scratch.reserve(2);
    BufferBinding temporary = resource(opProps.temporaryBytes);
    BufferBinding persistent = resource(opProps.persistentBytes);

    // 5. Binding tables over their slices of the descriptor sets.
    auto initTable = check(device->createBindingTable({initializer.get(), {sets.data(), initProps.descriptorSetCount}}), "init table");
    check(initTable->bindInputs(std::vector<BufferBinding>(initializer->inputCount())), "init bindInputs");  // nothing owned
    check(initTable->bindOutputs({&persistent, 1}), "init bindOutputs");
    auto table = check(device->createBindingTable({op.get(), {sets.data() + initProps.descriptorSetCount, opProps.descriptorSetCount}}),
                       "table");
    check(table->bindInputs(std::vector<BufferBinding>{bindingOf(aBuf), bindingOf(bBuf)}), "bindInputs");
    check(table->bindOutputs(std::vector<BufferBinding>{bindingOf(outBuf)}), "bindOutputs");
    if (temporary.buffer) check(table->bindTemporary(temporary), "bindTemporary");
    if (persistent.buffer) check(table->bindPersistent(persistent), "bindPersistent");

    // 6. Record initialization and execution into one command buffer; the app submits.
    auto recorder = check(device->createCommandRecorder(), "createCommandRecorder");
    Status recorded;
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        recorded = recorder->record(cmd, *initializer, *initTable);
        if (!recorded) return;
        recordComputeBarrier(*device, cmd);
        recorded = recorder->record(cmd, *op, *table);
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                              VK_ACCESS_2_HOST_READ_BIT);
    });
    check(recorded, "record");

    // 7. Read back and print.
    outBuf.invalidate();
    const float* out = static_cast<const float*>(outBuf.mapped());
    int wrong = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
        std::printf("%5.2f + %5.2f = %5.2f\n", a[i], b[i], out[i]);
        wrong += out[i] != a[i] + b[i];
    }
    if (wrong) std::fprintf(stderr, "ml_minimal: %d wrong results\n", wrong);
    if (ctx.validationMessageCount()) std::fprintf(stderr, "ml_minimal: %llu validation messages\n", (unsigned long long)ctx.validationMessageCount());
    return wrong || ctx.validationMessageCount() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    bool validation = argc > 1 && std::strcmp(argv[1], "--validation") == 0;
    try {
        return run(validation);
    } catch (const engine::Error& e) {
        std::fprintf(stderr, "ml_minimal: %s: %s\n", engine::toString(e.code()), e.what());
        return e.deviceLost() ? 3 : e.outOfMemory() ? 4 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ml_minimal: %s\n", e.what());
        return 1;
    }
}
