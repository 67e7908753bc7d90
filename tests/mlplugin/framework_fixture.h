#pragma once
// Helpers for the framework suites: host-visible storage buffers (small tensors, no staging),
// a descriptor pool the test owns, and a few operators to bind.
#include "engine/buffer.h"
#include "engine/error.h"
#include "op_test.h"

#include <gmock/gmock.h>
#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#include <cstring>
#include <string>
#include <vector>

namespace fwtest {

using namespace mlplugin;

inline engine::Buffer hostBuffer(const std::vector<float>& values, VkDeviceSize size = 0) {
    VkDeviceSize bytes = size ? size : values.size() * 4;
    engine::Buffer b(testsupport::context(), bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Readback);
    std::memset(b.mapped(), 0, bytes);
    if (!values.empty()) std::memcpy(b.mapped(), values.data(), values.size() * 4);
    b.flush();
    return b;
}

inline std::vector<float> read(const engine::Buffer& b, size_t count, size_t firstFloat = 0) {
    b.invalidate();
    std::vector<float> out(count);
    std::memcpy(out.data(), static_cast<const float*>(b.mapped()) + firstFloat, count * 4);
    return out;
}

inline BufferBinding whole(const engine::Buffer& b) { return {b.handle(), 0, b.size()}; }

using optest::deviceDesc;

// Shader writes -> host reads, for reading results after submitAndWait.
inline void hostReadBarrier(VkCommandBuffer cmd) {
    vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                          VK_ACCESS_2_HOST_READ_BIT);
}

// Descriptor sets of the device's layout from a pool the test owns.
class DescriptorPool {
public:
    explicit DescriptorPool(uint32_t maxSets) {
        const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, maxSets * kDescriptorsPerSet};
        ENGINE_VK(pool_.create(testsupport::context().device(), maxSets, {&size, 1}));
    }

    std::vector<VkDescriptorSet> allocate(uint32_t count) {
        std::vector<VkDescriptorSet> sets(count);
        ENGINE_VK(pool_.allocate(std::vector<VkDescriptorSetLayout>(count, optest::device().descriptorSetLayout()), sets.data()));
        return sets;
    }

private:
    vkutil::DescriptorPool pool_;
};

inline DescriptorRange rangeOf(const std::vector<VkDescriptorSet>& sets) { return {sets.data(), uint32_t(sets.size())}; }

// output = a + b over fp32[count].
inline ElementWiseDesc addDesc(uint32_t count, std::string name = "add1") {
    ElementWiseDesc d;
    d.name = std::move(name);
    d.op = ElementWiseOp::Add;
    d.a = TensorDesc::make(DataType::Float32, {count});
    d.b = d.a;
    d.output = d.a;
    return d;
}

// Batch normalization over fp32[1, channels, 2, 2]; statistics owned by the plugin when
// `owned` (then folded into the persistent resource at initialization).
inline BatchNormalizationDesc batchNormDesc(uint32_t channels, bool owned, std::string name = "bn1") {
    BatchNormalizationDesc d;
    d.name = std::move(name);
    d.input = TensorDesc::make(DataType::Float32, {1, channels, 2, 2});
    d.output = d.input;
    uint32_t flags = owned ? TensorFlagOwnedByPlugin : TensorFlagNone;
    d.mean = d.variance = d.scale = d.bias = TensorDesc::make(DataType::Float32, {channels}, flags);
    return d;
}

inline std::unique_ptr<CompiledOperator> compile(const OperatorDesc& desc) {
    auto r = optest::device().compileOperator(desc);
    if (!r) {
        ADD_FAILURE() << "compileOperator: " << r.error().message;
        return nullptr;
    }
    return std::move(r).value();
}

inline std::string messageOf(const Status& s) { return s.ok() ? std::string("<ok>") : s.error().message; }

}  // namespace fwtest
