// The bridge's error paths: plugin error codes cross into engine::Error one to one, bad models
// and files carry their code, and a device loss or an allocation beyond the budget inside the
// bridge or the plugin reaches the caller as ErrorCode::DeviceLost / OutOfMemory, never as a
// generic exception.
#include "bridge/errors.h"
#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/renderer.h"
#include "mlplugin/graph_builder.h"
#include "vulkan_test.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace mlplugin;

namespace {

// ---------------------------------------------------------------------------------------------
// CPU: the mapping.

TEST(BridgeErrors, EveryPluginCodeMapsToTheEngineCodeOfTheSameMeaning) {
    const std::pair<ErrorCode, engine::ErrorCode> pairs[] = {
        {ErrorCode::InvalidArgument, engine::ErrorCode::InvalidArgument}, {ErrorCode::Unsupported, engine::ErrorCode::Unsupported},
        {ErrorCode::OutOfMemory, engine::ErrorCode::OutOfMemory},         {ErrorCode::DeviceLost, engine::ErrorCode::DeviceLost},
        {ErrorCode::VulkanError, engine::ErrorCode::VulkanError},         {ErrorCode::InvalidModel, engine::ErrorCode::InvalidModel},
        {ErrorCode::IoError, engine::ErrorCode::IoError}};
    for (const auto& [plugin, engineCode] : pairs) {
        EXPECT_EQ(bridge::toEngineCode(plugin), engineCode) << mlplugin::toString(plugin);
        // Same words on both sides.
        EXPECT_STREQ(engine::toString(engineCode), mlplugin::toString(plugin));
    }
}

TEST(BridgeErrors, APluginDeviceLossStaysADeviceLoss) {
    const mlplugin::Error lost = mlplugin::vulkanError(VK_ERROR_DEVICE_LOST, "record 'conv1'");
    const engine::Error e = bridge::toEngineError(lost, "MlPass 'ml'");
    EXPECT_EQ(e.code(), engine::ErrorCode::DeviceLost);
    EXPECT_TRUE(e.deviceLost());
    EXPECT_EQ(e.result(), VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(std::string(e.what()), "MlPass 'ml': " + lost.message);

    try {
        bridge::check(mlplugin::Status(lost), "bindInputs");
        FAIL() << "check did not throw";
    } catch (const engine::Error& thrown) {
        EXPECT_TRUE(thrown.deviceLost());
    }
    try {
        (void)bridge::take(mlplugin::Result<int>(mlplugin::vulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory")), "createDevice");
        FAIL() << "take did not throw";
    } catch (const engine::Error& thrown) {
        EXPECT_TRUE(thrown.outOfMemory());
        EXPECT_EQ(thrown.result(), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    }
    EXPECT_EQ(bridge::take(mlplugin::Result<int>(7), "x"), 7);
    EXPECT_NO_THROW(bridge::check(mlplugin::Status(), "x"));
}

// ---------------------------------------------------------------------------------------------
// GPU: each test has a context of its own (a device it loses, a budget).

class BridgeErrorPaths : public testsupport::VulkanTest {
protected:
    static std::unique_ptr<engine::Context> makeContext(VkDeviceSize budget = 0) {
        engine::ContextDesc d = testsupport::validatedContextDesc();
        d.deviceMemoryBudgetBytes = budget;
        return std::make_unique<engine::Context>(d);
    }
    // conv 3x3 + tanh, conv 3x3 -> 12, depth-to-space: an x2 upscaler with weights.
    static GraphDesc upscaler(uint32_t w, uint32_t h) {
        GraphBuilder g;
        Expr x = g.input("color", TensorDesc::make(DataType::Float32, {1, 3, h, w}));
        auto constant = [&](const char* name, std::initializer_list<uint32_t> sizes) {
            size_t n = 1;
            for (uint32_t s : sizes) n *= s;
            return g.constant(name, TensorDesc::make(DataType::Float32, sizes), std::vector<float>(n, 0.01f));
        };
        Expr y = tanh(conv2d(x, constant("w1", {8, 3, 3, 3}), constant("b1", {8}), {.pad = 1}));
        y = conv2d(y, constant("w2", {12, 8, 3, 3}), constant("b2", {12}), {.pad = 1});
        g.output(depthToSpace(y, 2));
        return g.finish().value();
    }
    static bridge::MlPassDesc passDesc() {
        bridge::MlPassDesc d;
        d.name = "up";
        d.buildGraph = upscaler;
        d.inputs = {{.name = "color", .channels = {{.image = bridge::FrameImage::Color}}}};
        return d;
    }
    static engine::RendererDesc rendererDesc() {
        engine::RendererDesc d;
        d.outputWidth = 32;
        d.outputHeight = 32;
        d.renderScale = 0.5f;
        return d;
    }
    // The code of the engine::Error `f` throws (fails the test if it throws anything else).
    template <class F>
    static engine::ErrorCode codeOf(F&& f, std::string* message = nullptr) {
        try {
            f();
        } catch (const engine::Error& e) {
            if (message) *message = e.what();
            return e.code();
        }
        ADD_FAILURE() << "no engine::Error";
        return engine::ErrorCode::VulkanError;
    }
};

TEST_F(BridgeErrorPaths, BadFilesAndModelsCarryTheirCode) {
    auto ctx = makeContext();
    auto device = bridge::createDevice(*ctx, true);
    bridge::MlPassDesc missing = passDesc();
    missing.buildGraph = nullptr;
    missing.onnxPath = "/nonexistent/model.onnx";
    EXPECT_EQ(codeOf([&] { bridge::MlPass(*ctx, *device, missing); }), engine::ErrorCode::IoError);

    bridge::MlPassDesc badLetter = passDesc();
    badLetter.inputs[0].channels[0].components = "rgq";
    EXPECT_EQ(codeOf([&] { bridge::MlPass(*ctx, *device, badLetter); }), engine::ErrorCode::InvalidArgument);

    // A model whose input has 3 channels, read through a 4-channel binding.
    bridge::MlPassDesc mismatch = passDesc();
    mismatch.inputs[0].channels[0].components = "rgba";
    bridge::MlPass pass(*ctx, *device, mismatch);
    engine::Renderer renderer(*ctx, rendererDesc());
    renderer.setUpscaler(pass.upscaler());
    EXPECT_EQ(codeOf([&] { renderer.build({.headless = true, .framesInFlight = 1}); }), engine::ErrorCode::InvalidModel);

#ifdef VKML_TEST_HAS_ONNX
    // The loader's own code (malformed protobuf) crosses the bridge unchanged, from the
    // constructor, which parses the model once.
    bridge::MlPassDesc garbage = passDesc();
    garbage.buildGraph = nullptr;
    garbage.onnxBytes = {0xde, 0xad, 0xbe, 0xef};
    std::string message;
    EXPECT_EQ(codeOf([&] { bridge::MlPass(*ctx, *device, garbage); }, &message), engine::ErrorCode::InvalidModel);
    EXPECT_NE(message.find("MlPass 'up': model (bytes): not a valid ONNX protobuf"), std::string::npos) << message;
#endif
}

TEST_F(BridgeErrorPaths, ADeviceLossDuringWeightInitializationIsADeviceLoss) {
    auto ctx = makeContext();
    auto device = bridge::createDevice(*ctx, true);
    bridge::MlPass pass(*ctx, *device, passDesc());
    engine::Renderer renderer(*ctx, rendererDesc());
    renderer.setUpscaler(pass.upscaler());
    ctx->simulateDeviceLoss();
    std::string message;
    // build() compiles the network and submits its weight initialization: the submit reports it.
    EXPECT_EQ(codeOf([&] { renderer.build({.headless = true, .framesInFlight = 1}); }, &message), engine::ErrorCode::DeviceLost);
    EXPECT_NE(message.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << message;
}

TEST_F(BridgeErrorPaths, ADeviceLossInAGraphSessionIsADeviceLoss) {
    auto ctx = makeContext();
    auto device = bridge::createDevice(*ctx, true);
    const GraphDesc graph = upscaler(8, 8);
    bridge::GraphSession session(*ctx, *device, graph);
    session.setInputs({std::vector<float>(3 * 8 * 8, 0.5f)});
    ctx->simulateDeviceLoss();
    EXPECT_EQ(codeOf([&] { session.run(); }), engine::ErrorCode::DeviceLost);
    EXPECT_EQ(codeOf([&] { session.readOutputs(); }), engine::ErrorCode::DeviceLost);
}

TEST_F(BridgeErrorPaths, ThePluginsAllocationsCountAgainstTheBudget) {
    auto ctx = makeContext();
    const engine::DeviceMemoryStats before = ctx->memoryStats();
    {
        auto device = bridge::createDevice(*ctx, true);  // its placeholder buffer for unbound slots
        EXPECT_GT(ctx->memoryStats().inUse, before.inUse);
        EXPECT_EQ(ctx->memoryStats().liveAllocations, before.liveAllocations + 1);
    }
    EXPECT_EQ(ctx->memoryStats().inUse, before.inUse);
    EXPECT_EQ(ctx->memoryStats().liveAllocations, before.liveAllocations);
}

TEST_F(BridgeErrorPaths, APluginAllocationBeyondTheBudgetIsOutOfMemoryOnBothSides) {
    auto ctx = makeContext(1);  // one byte: the plugin's first allocation does not fit
    DeviceDesc d;
    d.instance = ctx->instance();
    d.physicalDevice = ctx->physicalDevice();
    d.device = ctx->device();
    d.queueFamilyIndex = ctx->queueFamily();
    d.getInstanceProcAddr = ctx->libraryProcAddr();
    d.shaderStorageBufferArrayDynamicIndexingEnabled = true;
    auto direct = mlplugin::createDevice(d);
    ASSERT_FALSE(direct.ok());
    EXPECT_EQ(direct.error().code, ErrorCode::OutOfMemory);
    EXPECT_EQ(direct.error().vkResult, VK_ERROR_OUT_OF_DEVICE_MEMORY);

    std::string message;
    EXPECT_EQ(codeOf([&] { bridge::createDevice(*ctx, true); }, &message), engine::ErrorCode::OutOfMemory);
    EXPECT_NE(message.find("out of device memory"), std::string::npos) << message;
    EXPECT_EQ(ctx->memoryStats().liveAllocations, 0u);
    EXPECT_EQ(ctx->memoryStats().failedAllocations, 2u);
}

TEST_F(BridgeErrorPaths, NetworkMemoryBeyondTheBudgetNamesThePass) {
    auto ctx = makeContext(16 << 20);
    auto device = bridge::createDevice(*ctx, true);
    bridge::MlPass pass(*ctx, *device, passDesc());
    {
        engine::Renderer renderer(*ctx, rendererDesc());
        renderer.setUpscaler(pass.upscaler());
        // Ballast leaves 512 bytes of the budget: less than the network's weights.
        const VkDeviceSize free = ctx->memoryStats().budget - ctx->memoryStats().inUse;
        engine::Buffer ballast(*ctx, free - 512, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::DeviceLocal, "ballast");
        std::string message;
        EXPECT_EQ(codeOf([&] { renderer.build({.headless = true, .framesInFlight = 1}); }, &message), engine::ErrorCode::OutOfMemory);
        EXPECT_EQ(message.rfind("out of device memory: MlPass 'up' ", 0), 0u) << message;
        EXPECT_NE(message.find("needs"), std::string::npos) << message;
    }
    EXPECT_EQ(ctx->validationMessageCount(), 0u);
}

}  // namespace
