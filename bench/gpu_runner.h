#pragma once
// Runs a compiled graph on the engine's context the way an application would (initializer once,
// bind once, record every iteration) and times it with timestamp queries.
#include "engine/buffer.h"
#include "engine/context.h"
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"

#include <memory>
#include <vector>

namespace bench {

struct Timing {
    double medianMs = 0, minMs = 0;
    double recordUs = 0;  // CPU time of one CommandRecorder::record (median)
    uint32_t runs = 0;
};

class GraphRunner {
public:
    GraphRunner(engine::Context& ctx, mlplugin::Device& device, const mlplugin::GraphDesc& graph, uint32_t flags);
    ~GraphRunner();
    GraphRunner(const GraphRunner&) = delete;
    GraphRunner& operator=(const GraphRunner&) = delete;

    const mlplugin::CompiledGraph& compiled() const { return compiled_; }
    // `warmup` untimed then `runs` timed executions in one command buffer, a barrier between each.
    Timing time(uint32_t warmup, uint32_t runs);
    // Host copies of the outputs after the last run (fp32 values).
    std::vector<std::vector<float>> readOutputs();
    // The input values uploaded (fp16 inputs as their rounded values), for a CPU reference.
    const std::vector<mlplugin::HostTensor>& inputValues() const { return inputValues_; }

private:
    engine::Context& ctx_;
    mlplugin::Device& device_;
    mlplugin::CompiledGraph compiled_;
    std::vector<engine::Buffer> inputs_, outputs_;
    engine::Buffer temporary_, persistent_, constants_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::unique_ptr<mlplugin::BindingTable> table_;
    std::unique_ptr<mlplugin::CommandRecorder> recorder_;
    std::vector<const mlplugin::TensorDesc*> outputDescs_;
    std::vector<mlplugin::HostTensor> inputValues_;
};

}  // namespace bench
