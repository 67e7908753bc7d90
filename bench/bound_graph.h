#pragma once
// A compiled graph with a binding table bound to buffers of the right sizes, ready to be
// recorded: what an application holds per network. For CPU-side measurements (cpu_bench, the
// recording allocation test): the persistent resource is bound but never initialized, so the
// command buffers it records must not be submitted.
#include "engine/buffer.h"
#include "engine/context.h"
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"

#include <vkutil/descriptors.h>

#include <memory>
#include <vector>

namespace bench {

class BoundGraph {
public:
    BoundGraph(engine::Context& ctx, mlplugin::Device& device, const mlplugin::GraphDesc& graph, uint32_t compileFlags = 0);
    BoundGraph(const BoundGraph&) = delete;
    BoundGraph& operator=(const BoundGraph&) = delete;

    const mlplugin::CompiledGraph& compiled() const { return compiled_; }
    const mlplugin::BindingTable& table() const { return *table_; }
    // Creates a binding table on this graph's descriptor sets and binds every buffer (what an
    // application does when its resources change); replaces table().
    void bind();

private:
    engine::Context& ctx_;
    mlplugin::Device& device_;
    mlplugin::CompiledGraph compiled_;
    std::vector<engine::Buffer> buffers_;  // inputs, outputs, temporary, persistent
    std::vector<mlplugin::BufferBinding> inputs_, outputs_;
    mlplugin::BufferBinding temporary_, persistent_;
    vkutil::DescriptorPool pool_;
    std::vector<VkDescriptorSet> sets_;
    std::unique_ptr<mlplugin::BindingTable> table_;
};

// A primary command buffer of its own pool (reset as a whole) on the context's queue family.
class CommandBuffer {
public:
    explicit CommandBuffer(const engine::Context& ctx);
    ~CommandBuffer();
    CommandBuffer(const CommandBuffer&) = delete;
    CommandBuffer& operator=(const CommandBuffer&) = delete;
    VkCommandBuffer handle() const { return cmd_; }
    void begin();
    void end();
    void reset();  // resets the pool (the buffer returns to the initial state)

private:
    VkDevice device_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
};

}  // namespace bench
