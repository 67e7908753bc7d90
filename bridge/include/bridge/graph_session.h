#pragma once
/// \file
/// A compiled graph bound to buffers on an engine::Context, run the way an application runs one:
/// the initializer once (constants blob -> persistent resource), one binding table, the recorder
/// per execution. Inputs and outputs are exchanged as fp32 host values (converted to/from fp16
/// when the graph's tensors are fp16). Errors throw engine::Error: the plugin's errors with their
/// code mapped one to one (bridge/errors.h), so a device loss stays ErrorCode::DeviceLost.
#include "bridge/export.h"

#include "engine/buffer.h"
#include "engine/context.h"
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"

#include <chrono>
#include <memory>
#include <span>
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
    /// The same network at other input extents (mlplugin::reshapeGraph): new input, output and
    /// temporary buffers and descriptors; the weights stay as they are unless the plugin reports
    /// that the new extents need them laid out differently (then they are initialized again).
    /// Input values must be set again after it. `graph` replaces the constructor's and must
    /// outlive the session too. Throws engine::Error for a reshape the plugin rejects.
    void reshape(const mlplugin::GraphDesc& graph);
    /// How many times the weights were initialized (constants blob -> persistent resource).
    uint32_t weightInitializations() const { return weightInitializations_; }
    /// How many reshape() calls succeeded.
    uint32_t reshapes() const { return reshapes_; }
    /// One fp32 vector per graph input, packed in the input's shape.
    void setInputs(const std::vector<std::vector<float>>& inputs);
    /// The input values of `source`, a session on the same context whose graph has inputs of the
    /// same sizes (the same network compiled another way), copied on the GPU: no host conversion
    /// or staging, which for a 265 MB input takes about a second (the tuner builds one session
    /// per candidate). Throws engine::Error (InvalidArgument) naming the input that differs.
    void copyInputsFrom(const GraphSession& source);
    /// One execution: records, submits and waits.
    void run();
    /// `warmup` untimed, then `runs` timed executions in one command buffer, barriers between them.
    /// `clockRampUp`: the least time to keep the GPU busy with this network before the timed
    /// submission (idle GPUs run at a low clock); the ramp then goes on, in timed batches of
    /// about 25 ms, until two batches in a row run no more than 2% faster per execution than the
    /// batch before them (the clock has settled), for at most 3 s in all. 0: no ramp (smoke runs).
    Timing time(uint32_t runs, uint32_t warmup = 1, std::chrono::milliseconds clockRampUp = std::chrono::milliseconds(250));
    /// One fp32 vector per graph output, packed in the output's shape.
    std::vector<std::vector<float>> readOutputs();

private:
    void initializeWeights();
    void bind();
    void recordExecutions(VkCommandBuffer cmd, uint32_t count);  // each after a barrier on the previous
    void rampUpClock(std::chrono::milliseconds minimum, uint32_t warmup);

    engine::Context& ctx_;
    mlplugin::Device& device_;
    const mlplugin::GraphDesc* graph_;
    mlplugin::CompiledGraph compiled_;
    std::vector<engine::Buffer> inputs_, outputs_;
    engine::Buffer temporary_, persistent_;
    struct Descriptors;  // the descriptor pool of the binding tables' sets (graph_session.cpp)
    std::unique_ptr<Descriptors> descriptors_;
    std::unique_ptr<mlplugin::BindingTable> table_;
    std::unique_ptr<mlplugin::CommandRecorder> recorder_;
    uint32_t weightInitializations_ = 0;
    uint32_t reshapes_ = 0;
};

/// The plugin device over an engine context (DeviceFlagDebug when `debug`). It loads its
/// functions through Context::libraryProcAddr(), so its device memory counts against the
/// context's budget and accounting. Its pipeline cache is seeded with `pipelineCacheData`
/// (mlplugin::Device::pipelineCacheData() of an earlier run, e.g. readPipelineCacheFile; a blob
/// that does not fit this device is ignored, see mlplugin::Device::pipelineCacheOrigin()).
std::unique_ptr<mlplugin::Device> createDevice(engine::Context& ctx, bool debug, std::span<const uint8_t> pipelineCacheData = {});

}  // namespace bridge
BRIDGE_API_END
