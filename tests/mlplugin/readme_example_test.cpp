// The README's "Using the plugin" example, statement for statement (smaller tensors), so the
// README cannot drift from the API. Lines marked README are copied from it.
#include "op_test.h"

#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#include <cstring>
#include <vector>

using namespace mlplugin;

namespace {

void check(const Status& s) { ASSERT_TRUE(s.ok()) << s.error().message; }

constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

}  // namespace

class ReadmeExample : public testsupport::VulkanTest {};

TEST_F(ReadmeExample, LifecycleCompilesAndRuns) {
    engine::Context& c = ctx();
    VkInstance instance = c.instance();
    VkPhysicalDevice gpu = c.physicalDevice();
    VkDevice vkDevice = c.device();
    uint32_t family = c.queueFamily();
    if (!optest::fp16Supported()) GTEST_SKIP() << "the README example uses fp16 tensors";

    // README 1.
    auto device = createDevice({.instance = instance, .physicalDevice = gpu, .device = vkDevice,
                                .queueFamilyIndex = family, .getInstanceProcAddr = vkGetInstanceProcAddr,
                                .shaderStorageBufferArrayDynamicIndexingEnabled = true,
                                .storageBuffer16BitAccessEnabled = true, .shaderFloat16Enabled = true}).value();

    // README 2 (540x960 there).
    ConvolutionDesc conv{.name = "conv1",
        .input  = TensorDesc::make(DataType::Float16, {1, 32, 9, 13}),
        .filter = TensorDesc::make(DataType::Float32, {32, 32, 3, 3}, TensorFlagOwnedByPlugin),
        .bias   = TensorDesc::make(DataType::Float32, {32}, TensorFlagOwnedByPlugin),
        .output = TensorDesc::make(DataType::Float16, {1, 32, 9, 13}),
        .padBegin = {1, 1}, .padEnd = {1, 1}, .activation = relu()};
    auto op = device->compileOperator(conv).value();
    BindingProperties props = op->bindingProperties();

    // README 3.
    CompiledOperator* ops[] = {op.get()};
    auto init = device->createOperatorInitializer(ops).value();

    // What the README elides: buffers, descriptor sets, recording the initializer.
    engine::Buffer inputBuf(c, conv.input.requiredBytes(), kUsage, engine::MemoryUsage::DeviceLocal);
    engine::Buffer outputBuf(c, conv.output.requiredBytes(), kUsage, engine::MemoryUsage::DeviceLocal);
    engine::Buffer weights(c, conv.filter.requiredBytes(), kUsage, engine::MemoryUsage::Upload);
    engine::Buffer biases(c, conv.bias->requiredBytes(), kUsage, engine::MemoryUsage::Upload);
    engine::Buffer persistent(c, props.persistentBytes, kUsage, engine::MemoryUsage::DeviceLocal);
    std::vector<float> w(conv.filter.elementCount(), 0.01f), b(32, 0.5f);
    std::memcpy(weights.mapped(), w.data(), w.size() * 4);
    std::memcpy(biases.mapped(), b.data(), b.size() * 4);
    uint32_t initSets = init->bindingProperties().descriptorSetCount;
    vkutil::DescriptorPool pool;
    std::vector<VkDescriptorSet> sets(initSets + 1);
    ENGINE_VK(pool.createSets(vkDevice, device->descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets));
    VkDescriptorSet* frameSets = sets.data() + initSets;
    auto initTable = device->createBindingTable({init.get(), {sets.data(), initSets}}).value();
    BufferBinding initInputs[] = {{}, {weights.handle(), 0, weights.size()}, {biases.handle(), 0, biases.size()}};
    BufferBinding persistentOut{persistent.handle(), 0, props.persistentBytes};
    check(initTable->bindInputs(initInputs));
    check(initTable->bindOutputs({&persistentOut, 1}));
    VkBuffer persistentBuf = persistent.handle();

    // README 4.
    auto table = device->createBindingTable({op.get(), {frameSets, 1}}).value();
    BufferBinding in{inputBuf.handle(), 0, conv.input.requiredBytes()}, none{}, out{outputBuf.handle(), 0, conv.output.requiredBytes()};
    BufferBinding inputs[] = {in, none, none};
    check(table->bindInputs(inputs));
    check(table->bindOutputs({&out, 1}));
    check(table->bindPersistent({persistentBuf, 0, props.persistentBytes}));
    auto recorder = device->createCommandRecorder().value();
    auto bundle = recorder->recordBundle(*op, *table).value();  // README
    engine::Buffer readback(c, conv.output.requiredBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    c.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdFillBuffer(cmd, inputBuf.handle(), 0, VK_WHOLE_SIZE, 0x3c003c00u);  // fp16 1.0 everywhere
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              // The plugin's buffer array is not readonly-qualified, so validation
                              // counts every bound buffer as written too.
                              VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        check(recorder->record(cmd, *init, *initTable));
        recordComputeBarrier(*device, cmd);
        check(recorder->record(cmd, *op, *table));  // README
        recordComputeBarrier(*device, cmd);          // the same dispatch again, as the README's bundle
        check(bundle->execute(cmd));                 // README
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                              VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy copy{0, 0, outputBuf.size()};
        vkCmdCopyBuffer(cmd, outputBuf.handle(), readback.handle(), 1, &copy);
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                              VK_ACCESS_2_HOST_READ_BIT);
    });
    // Input 1, weights 0.01, bias 0.5: an interior output is relu(32 * 9 * 0.01 + 0.5) = 3.38,
    // a corner sees 4 of the 9 taps: 32 * 4 * 0.01 + 0.5 = 1.78.
    readback.invalidate();
    const auto* halves = static_cast<const uint16_t*>(readback.mapped());
    EXPECT_NEAR(halfToFloat(halves[4 * 13 + 6]), 3.38f, 0.01f);
    EXPECT_NEAR(halfToFloat(halves[0]), 1.78f, 0.01f);
}
