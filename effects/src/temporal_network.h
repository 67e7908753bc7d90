#pragma once
// A network the effects run through mlplugin on the application's device: loaded from ONNX once,
// compiled for one set of input shapes, weights uploaded by a recorded initializer, bound once to
// effect-owned buffers (the inputs, outputs and scratch never change), recorded every frame.
#include "effects/effect_device.h"
#include "mlplugin/mlplugin.h"
#include "vulkan_api.h"

#include <vkutil/descriptors.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace effects::detail {

struct NetworkTensor {
    std::string name;                // the ONNX graph input/output name it must have
    std::vector<uint32_t> shape;     // NCHW; outputs may leave it empty (any shape, see outputShape())
    // Store the channels renumbered (channel i holds the model's channel channelOrder[i]), folded
    // into the weights next to the tensor (GraphDesc::permuteChannels). Empty: the model's order.
    std::vector<uint32_t> channelOrder;
};

struct NetworkDesc {
    std::string who;                 // "upscaler (ml-temporal)": the start of every message
    std::span<const uint8_t> onnx;
    std::vector<NetworkTensor> inputs;   // in the model's input order
    std::vector<NetworkTensor> outputs;  // in the model's output order
    bool fp16 = false;
    // Store the rank-4 inputs and outputs channels-last (NHWC strides; the shapes stay NCHW): the
    // tensor-core convolutions then read and write them 8 channels per 16-byte access, as they do
    // the graph's own intermediates, instead of one strided element at a time.
    bool channelsLast = false;
    // Record the network once into a CommandBundle and execute that every frame
    // (EffectDevice::primaryCommandBuffers).
    bool bundle = false;
};

class Network {
public:
    static Result<std::unique_ptr<Network>> create(const VulkanApi& vk, mlplugin::Device& device, const NetworkDesc& desc,
                                                   MemoryTally& tally);
    ~Network();
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    // Effect-owned tensors, bound once: write the inputs before record(), read the outputs after.
    const GpuBuffer& input(uint32_t i) const { return inputs_[i]; }
    const GpuBuffer& output(uint32_t i) const { return outputs_[i]; }
    const std::vector<uint32_t>& outputShape(uint32_t i) const { return outputShapes_[i]; }
    bool fp16() const { return fp16_; }
    // Whether its convolutions may run on tensor cores: fp16 on a plugin device that has them
    // enabled (the tensor-core kernels are fp16 only).
    bool tensorCores() const { return fp16_ && device_.capabilities().cooperativeMatrixNV; }
    bool channelsLast() const { return channelsLast_; }
    // Whether every channelOrder of the desc was applied. The orders are applied all or none:
    // a model whose tensors are not read and written by plain convolutions keeps its own order.
    bool channelsReordered() const { return channelsReordered_; }
    // The model file's metadata_props (mlplugin::OnnxModel::metadata).
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    uint32_t descriptorSets() const { return descriptorSets_; }
    // Memory of its buffers (already counted in the tally given to create()).
    VkDeviceSize deviceLocalBytes() const;
    VkDeviceSize hostVisibleBytes() const;
    uint32_t allocations() const;

    // Uploads the weights (staging -> persistent through the operator initializer). The caller
    // places a compute barrier before the first record().
    Status recordInitialization(VkCommandBuffer cmd);
    bool initialized() const { return initialized_; }
    // The network's dispatches, with the barriers between them (with NetworkDesc::bundle: one
    // vkCmdExecuteCommands of them, into a primary `cmd`). The caller orders the input writes
    // before and the output reads after with compute barriers.
    Status record(VkCommandBuffer cmd);

private:
    Network(const VulkanApi& vk, mlplugin::Device& device) : vk_(vk), device_(device) {}
    Status build(const NetworkDesc& desc, MemoryTally& tally);
    std::vector<const GpuBuffer*> buffers() const;

    const VulkanApi& vk_;
    mlplugin::Device& device_;
    std::string who_;
    bool fp16_ = false;
    bool channelsLast_ = false;
    bool channelsReordered_ = false;
    std::map<std::string, std::string> metadata_;
    bool initialized_ = false;
    mlplugin::CompiledGraph compiled_;
    std::unique_ptr<mlplugin::OperatorInitializer> initializer_;
    std::unique_ptr<mlplugin::BindingTable> initTable_, table_;
    std::unique_ptr<mlplugin::CommandRecorder> recorder_;
    std::vector<GpuBuffer> inputs_, outputs_;
    std::vector<std::vector<uint32_t>> outputShapes_;
    GpuBuffer temporary_, persistent_, constants_;
    vkutil::DescriptorPool pool_;
    uint32_t descriptorSets_ = 0;
    // Last: destroyed first, while the table and sets it executes still exist.
    std::unique_ptr<mlplugin::CommandBundle> bundle_;
};

// The plugin device on the application's device (DeviceFlagDebug with EffectDevice::debugChecks).
Result<std::unique_ptr<mlplugin::Device>> createPluginDevice(const EffectDevice& device, const std::string& who);

// Reads a model file whole (errors name the file; at most mlplugin::kMaxOnnxFileBytes).
Result<std::vector<uint8_t>> readModelFile(const std::string& path, const std::string& who);

}  // namespace effects::detail
