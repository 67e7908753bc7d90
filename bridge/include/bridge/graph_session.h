#pragma once
/// \file
/// A compiled graph bound to buffers on an engine::Context, run the way an application runs one:
/// the initializer once (constants blob -> persistent resource), one binding table, the recorder
/// per execution. Inputs and outputs are exchanged as fp32 host values (converted to/from fp16
/// when the graph's tensors are fp16). Errors throw std::runtime_error with the plugin's message.
#include "bridge/export.h"

#include "engine/buffer.h"
#include "engine/context.h"
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"

#include <chrono>
#include <memory>
#include <vector>

BRIDGE_API_BEGIN
namespace bridge {

/// GraphSession::time results.
struct Timing {
    double medianGpuMs = 0;     ///< timestamp queries around each execution
    double minGpuMs = 0;        ///< the fastest execution: on a shared, noisy GPU the least disturbed
    double medianRecordUs = 0;  ///< CPU time of CommandRecorder::record
    uint32_t runs = 0;  ///< timed executions
};

/// `graph` must outlive the session (its descs give the input/output shapes).
class GraphSession {
public:
    /// Compiles `graph` on `device`, allocates its buffers and initializes the weights (waits once).
    GraphSession(engine::Context& ctx, mlplugin::Device& device, const mlplugin::GraphDesc& graph, uint32_t compileFlags = 0);
    ~GraphSession();
    GraphSession(const GraphSession&) = delete;
    GraphSession& operator=(const GraphSession&) = delete;

    /// The compiled graph and its report.
    const mlplugin::CompiledGraph& compiled() const { return compiled_; }
    /// One fp32 vector per graph input, packed in the input's shape.
    void setInputs(const std::vector<std::vector<float>>& inputs);
    /// One execution: records, submits and waits.
    void run();
    /// `warmup` untimed, then `runs` timed executions in one command buffer, barriers between them.
    /// `clockRampUp`: how long to keep the GPU busy before the timed submission (idle GPUs start
    /// at a low clock); 0 for smoke runs.
    Timing time(uint32_t runs, uint32_t warmup = 1, std::chrono::milliseconds clockRampUp = std::chrono::milliseconds(250));
    /// One fp32 vector per graph output, packed in the output's shape.
    std::vector<std::vector<float>> readOutputs();

private:
    engine::Context& ctx_;
    mlplugin::Device& device_;
    const mlplugin::GraphDesc& graph_;
    mlplugin::CompiledGraph compiled_;
    std::vector<engine::Buffer> inputs_, outputs_;
    engine::Buffer temporary_, persistent_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::unique_ptr<mlplugin::BindingTable> table_;
    std::unique_ptr<mlplugin::CommandRecorder> recorder_;
};

/// The plugin device over an engine context (DeviceFlagDebug when `debug`).
std::unique_ptr<mlplugin::Device> createDevice(engine::Context& ctx, bool debug);

}  // namespace bridge
BRIDGE_API_END
