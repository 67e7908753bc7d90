// The plugin's threading contract (mlplugin/OVERVIEW.md, "Threading"): Device methods may be
// called from several threads at once, and threads may record different dispatchables into
// their own command buffers concurrently. `SANITIZE=thread tools/sanitize.sh` runs these under
// ThreadSanitizer (docs/RELIABILITY.md); in every build they check that concurrent use gives the
// results sequential use gives, and the validation layer checks Vulkan's external
// synchronization rules.
#include "device_impl.h"
#include "framework_fixture.h"
#include "mlplugin/binding_table.h"
#include "mlplugin/command_recorder.h"
#include "mlplugin/graph.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

using namespace fwtest;

constexpr uint32_t kThreads = 4;

// A small network: 3x3 convolution + ReLU on fp32[1, 2, 6, 6].
GraphDesc smallNetwork() {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float32, {1, 2, 6, 6}));
    ValueId w = g.addConstant("w", TensorDesc::make(DataType::Float32, {3, 2, 3, 3}), std::vector<float>(54, 0.25f));
    auto y = g.addNode(ConvolutionDesc{.name = "conv", .padBegin = {1, 1}, .padEnd = {1, 1}, .activation = relu()}, {x, w});
    g.markOutput(y.value()[0]);
    return g;
}

TEST(DeviceThreading, ConcurrentCompilesShareOnePipelineCache) {
    Device& device = optest::device();
    auto& impl = dynamic_cast<detail::DeviceImpl&>(device);
    GraphDesc network = smallNetwork();
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            // One shape every thread compiles (a cache hit or a race to insert it), one of its own,
            // a whole graph, and the other Device entry points.
            for (uint32_t count : {4096u, 64u + t}) {
                auto op = device.compileOperator(addDesc(count, "add" + std::to_string(t)));
                if (!op) { ++failures; continue; }
                CompiledOperator* ops[] = {op->get()};
                if (!device.createOperatorInitializer(ops)) ++failures;
            }
            if (!compileGraph(device, network)) ++failures;
            if (!device.createCommandRecorder()) ++failures;
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    // Every shape is cached now: compiling them again, sequentially, adds no pipeline.
    size_t cached = impl.pipelines().size();
    for (uint32_t t = 0; t < kThreads; ++t) ASSERT_TRUE(compile(addDesc(64 + t)));
    ASSERT_TRUE(compile(addDesc(4096)));
    ASSERT_TRUE(compileGraph(device, network).ok());
    EXPECT_EQ(impl.pipelines().size(), cached);
}

// What one thread owns: its operator, descriptor sets, binding table, recorder, buffers and
// command pool (Vulkan command pools are externally synchronized).
struct ThreadWork {
    std::unique_ptr<CompiledOperator> op;
    DescriptorPool pool{1};
    std::unique_ptr<BindingTable> table;
    std::unique_ptr<CommandRecorder> recorder;
    engine::Buffer a, b, out;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    Status recorded;

    ThreadWork(uint32_t count, float base)
        : a(hostBuffer(std::vector<float>(count, base))),
          b(hostBuffer(std::vector<float>(count, 1.0f))),
          out(hostBuffer(std::vector<float>(count, -7.0f))) {}
};

TEST(DeviceThreading, ThreadsRecordTheirOwnDispatchablesConcurrently) {
    Device& device = optest::device();
    VkDevice vk = testsupport::context().device();
    constexpr uint32_t kCount = 1000;
    std::vector<std::unique_ptr<ThreadWork>> work;
    for (uint32_t t = 0; t < kThreads; ++t) work.push_back(std::make_unique<ThreadWork>(kCount, float(t)));

    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            ThreadWork& w = *work[t];
            auto op = device.compileOperator(addDesc(kCount, "add" + std::to_string(t)));
            if (!op) { w.recorded = op.error(); return; }
            w.op = std::move(*op);
            std::vector<VkDescriptorSet> sets = w.pool.allocate(1);
            auto table = device.createBindingTable({w.op.get(), rangeOf(sets)});
            auto recorder = device.createCommandRecorder();
            if (!table || !recorder) { w.recorded = invalidArgument("binding table or recorder failed"); return; }
            w.table = std::move(*table);
            w.recorder = std::move(*recorder);
            BufferBinding inputs[] = {whole(w.a), whole(w.b)};
            BufferBinding outputs[] = {whole(w.out)};
            if (Status s = w.table->bindInputs(inputs); !s) { w.recorded = s; return; }
            if (Status s = w.table->bindOutputs(outputs); !s) { w.recorded = s; return; }

            VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            pci.queueFamilyIndex = testsupport::context().queueFamily();
            ENGINE_VK(vkCreateCommandPool(vk, &pci, nullptr, &w.commandPool));
            VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            ai.commandPool = w.commandPool;
            ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            ai.commandBufferCount = 1;
            ENGINE_VK(vkAllocateCommandBuffers(vk, &ai, &w.cmd));
            VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
            ENGINE_VK(vkBeginCommandBuffer(w.cmd, &bi));
            w.recorded = w.recorder->record(w.cmd, *w.op, *w.table);
            hostReadBarrier(w.cmd);
            ENGINE_VK(vkEndCommandBuffer(w.cmd));
        });
    }
    for (auto& th : threads) th.join();

    std::vector<VkCommandBufferSubmitInfo> buffers;
    for (auto& w : work) {
        ASSERT_TRUE(w->recorded.ok()) << w->recorded.error().message;
        buffers.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, w->cmd, 0});
    }
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    ENGINE_VK(vkCreateFence(vk, &fci, nullptr, &fence));
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = uint32_t(buffers.size());
    si.pCommandBufferInfos = buffers.data();
    ENGINE_VK(vkQueueSubmit2(testsupport::context().queue(), 1, &si, fence));
    ENGINE_VK(vkWaitForFences(vk, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(vk, fence, nullptr);

    for (uint32_t t = 0; t < kThreads; ++t) {
        EXPECT_EQ(read(work[t]->out, kCount), std::vector<float>(kCount, float(t) + 1.0f)) << "thread " << t;
        vkDestroyCommandPool(vk, work[t]->commandPool, nullptr);
    }
}

}  // namespace
