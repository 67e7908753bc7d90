// CommandRecorder::record must not allocate in steady state (it runs every frame). Global
// operator new is replaced here to count C++ allocations; the context has no validation layer
// (itself C++, it allocates while tracking commands) and lavapipe allocates with malloc, so
// what is counted between the two marks is the plugin's own allocations.
#include "engine/buffer.h"
#include "engine/context.h"
#include "mlplugin/mlplugin.h"

#include <vkutil/descriptors.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

namespace {
std::atomic<uint64_t> g_allocations{0};
}

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
// GCC 12 at -O1 pairs the pointer reaching these deletes with operator new and calls the free()
// mismatched; the replaced operator new above allocates with malloc, so free() is its match.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// The nothrow form too (libLLVM and libstdc++'s temporary buffers use it): otherwise it stays
// the runtime's, and AddressSanitizer reports its blocks freed through the replaced delete.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace {

using namespace mlplugin;

uint64_t allocationsDuring(engine::Context& ctx, Device& device, uint32_t frames) {
    ElementWiseDesc add;
    add.name = "add";
    add.op = ElementWiseOp::Add;
    add.a = TensorDesc::make(DataType::Float32, {256});
    add.b = add.a;
    add.output = add.a;
    uint64_t atCompile = g_allocations.load();
    auto op = device.compileOperator(add);
    EXPECT_TRUE(op.ok());
    EXPECT_GT(g_allocations.load(), atCompile) << "the counting operator new is not in use: this test could not fail";
    engine::Buffer buf(ctx, 1024 * 3, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::DeviceLocal);

    vkutil::DescriptorPool pool;
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(pool.createSets(ctx.device(), device.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, {&set, 1}),
              VK_SUCCESS);

    auto table = device.createBindingTable({op->get(), {&set, 1}});
    EXPECT_TRUE(table.ok());
    std::vector<BufferBinding> inputs{{buf.handle(), 0, 1024}, {buf.handle(), 1024, 1024}};
    BufferBinding output{buf.handle(), 2048, 1024};
    EXPECT_TRUE((*table)->bindInputs(inputs).ok());
    EXPECT_TRUE((*table)->bindOutputs({&output, 1}).ok());
    auto recorder = device.createCommandRecorder();

    uint64_t counted = 0;
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        EXPECT_TRUE((*recorder)->record(cmd, **op, **table).ok());  // warm-up
        uint64_t before = g_allocations.load();
        auto start = std::chrono::steady_clock::now();
        for (uint32_t i = 0; i < frames; ++i) {
            recordComputeBarrier(device, cmd);
            if (!(*recorder)->record(cmd, **op, **table).ok()) ADD_FAILURE() << "record failed";
        }
        auto elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        counted = g_allocations.load() - before;
        // Informational (timing is not asserted: shared CI machines are noisy).
        std::printf("record + barrier: %.2f us per call (flags %u)\n", elapsed / frames, device.flags());
    });
    return counted;
}

TEST(RecordAllocations, NoneInSteadyState) {
    engine::ContextDesc cd;
    cd.applicationName = "record-alloc-test";
    engine::Context ctx(cd);
    for (uint32_t flags : {uint32_t(DeviceFlagNone), uint32_t(DeviceFlagDebug)}) {
        DeviceDesc d;
        d.instance = ctx.instance();
        d.physicalDevice = ctx.physicalDevice();
        d.device = ctx.device();
        d.queueFamilyIndex = ctx.queueFamily();
        d.getInstanceProcAddr = vkGetInstanceProcAddr;
        d.shaderStorageBufferArrayDynamicIndexingEnabled = true;
        d.flags = flags;
        auto device = createDevice(d);
        ASSERT_TRUE(device.ok()) << device.error().message;
        EXPECT_EQ(allocationsDuring(ctx, **device, 100), 0u) << "flags " << flags;
    }
}

}  // namespace
