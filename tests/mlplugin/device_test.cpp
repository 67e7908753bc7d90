// Device creation errors, capabilities and compile-time checks of the framework.
#include "device_impl.h"  // internal: pipeline cache size
#include "framework_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

using namespace mlplugin;
using namespace fwtest;
using ::testing::HasSubstr;

namespace {

class DeviceTest : public testsupport::VulkanTest {
protected:
    DeviceDesc validDesc() { return deviceDesc(); }
    static std::string errorOf(const DeviceDesc& d, ErrorCode expected) {
        auto r = createDevice(d);
        if (r.ok()) return "<created>";
        EXPECT_EQ(r.error().code, expected) << r.error().message;
        return r.error().message;
    }
};

TEST_F(DeviceTest, CreatesWithoutDebugFlag) {
    auto r = createDevice(validDesc());
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ((*r)->flags(), 0u);
    EXPECT_NE((*r)->descriptorSetLayout(), VK_NULL_HANDLE);
}

TEST_F(DeviceTest, RejectsNullLoaderEntryPoint) {
    DeviceDesc d = validDesc();
    d.getInstanceProcAddr = nullptr;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("getInstanceProcAddr is null"));
}

TEST_F(DeviceTest, RejectsNullHandles) {
    DeviceDesc d = validDesc();
    d.device = VK_NULL_HANDLE;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("DeviceDesc::device is VK_NULL_HANDLE"));
    d = validDesc();
    d.physicalDevice = VK_NULL_HANDLE;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("physicalDevice is VK_NULL_HANDLE"));
}

TEST_F(DeviceTest, RejectsQueueFamilyOutOfRange) {
    DeviceDesc d = validDesc();
    d.queueFamilyIndex = 99;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("queueFamilyIndex 99 is out of range"));
}

TEST_F(DeviceTest, RequiresDynamicIndexingDeclared) {
    DeviceDesc d = validDesc();
    d.shaderStorageBufferArrayDynamicIndexingEnabled = false;
    EXPECT_THAT(errorOf(d, ErrorCode::Unsupported), HasSubstr("shaderStorageBufferArrayDynamicIndexing"));
}

TEST_F(DeviceTest, RejectsFeaturesThePhysicalDeviceLacks) {
    if (ctx().features().cooperativeMatrixNV) GTEST_SKIP() << "the device supports VK_NV_cooperative_matrix";
    DeviceDesc d = validDesc();
    d.cooperativeMatrixNVEnabled = true;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("does not support VK_NV_cooperative_matrix"));
}

TEST_F(DeviceTest, RejectsUnknownFlags) {
    DeviceDesc d = validDesc();
    d.flags = 0x80;
    EXPECT_THAT(errorOf(d, ErrorCode::InvalidArgument), HasSubstr("unknown DeviceFlags"));
}

TEST_F(DeviceTest, CapabilitiesMatchTheContext) {
    const Capabilities& caps = optest::device().capabilities();
    EXPECT_EQ(caps.deviceName, ctx().deviceName());
    EXPECT_EQ(caps.fp16Storage, ctx().features().storageBuffer16BitAccess);
    EXPECT_EQ(caps.fp16Arithmetic, ctx().features().shaderFloat16);
    EXPECT_GT(caps.subgroupSize, 0u);
    EXPECT_TRUE(std::has_single_bit(caps.subgroupSize));
    EXPECT_GE(caps.maxComputeSharedMemoryBytes, 16384u);  // Vulkan's required minimum
    EXPECT_GE(caps.maxStorageBufferRange, uint64_t(1) << 27);
    EXPECT_TRUE(std::has_single_bit(caps.minStorageBufferOffsetAlignment));
    EXPECT_LE(caps.minStorageBufferOffsetAlignment, 256u);
    EXPECT_EQ(caps.cooperativeMatrixNV, !caps.cooperativeMatrixShapes.empty());
    EXPECT_EQ(optest::device().flags(), uint32_t(DeviceFlagDebug));
}

TEST_F(DeviceTest, FeatureLevelListsKindsAndTypes) {
    const FeatureLevel& level = optest::device().featureLevel();
    auto has = [&](const char* kind) { return std::find(level.operators.begin(), level.operators.end(), kind) != level.operators.end(); };
    EXPECT_TRUE(has(operatorKind(OperatorDesc(ElementWiseDesc{}))));
    EXPECT_TRUE(has(operatorKind(OperatorDesc(ConvolutionDesc{}))));
    EXPECT_EQ(level.operators.size(), std::variant_size_v<OperatorDesc>);
    auto hasType = [&](DataType t) { return std::find(level.dataTypes.begin(), level.dataTypes.end(), t) != level.dataTypes.end(); };
    EXPECT_TRUE(hasType(DataType::Float32));
    EXPECT_EQ(hasType(DataType::Float16), optest::fp16Supported());
}

TEST_F(DeviceTest, CompiledOperatorReportsItsBindings) {
    auto op = compile(addDesc(10));
    ASSERT_TRUE(op);
    BindingProperties p = op->bindingProperties();
    EXPECT_EQ(p.descriptorSetCount, 1u);
    EXPECT_EQ(p.descriptorCount, kDescriptorsPerSet);
    EXPECT_EQ(p.temporaryBytes, 0u);
    EXPECT_EQ(p.persistentBytes, 0u);
    EXPECT_EQ(op->inputCount(), 2u);
    EXPECT_EQ(op->outputCount(), 1u);
    EXPECT_THAT(op->name(), HasSubstr("add1"));
}

TEST_F(DeviceTest, IdenticalOperatorsSharePipelines) {
    auto& impl = dynamic_cast<detail::DeviceImpl&>(optest::device());
    auto first = compile(addDesc(1001, "first"));
    ASSERT_TRUE(first);
    size_t pipelines = impl.pipelines().size();
    EXPECT_GT(pipelines, 0u);
    auto second = compile(addDesc(1001, "second"));  // same shape, another name: same pipelines
    ASSERT_TRUE(second);
    EXPECT_EQ(impl.pipelines().size(), pipelines);
}

TEST_F(DeviceTest, PlannerErrorsPropagate) {
    ElementWiseDesc d = addDesc(10);
    d.b.reset();  // Add needs b
    auto r = optest::device().compileOperator(d);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_THAT(r.error().message, HasSubstr("add1"));
}

TEST_F(DeviceTest, RejectsOperatorsNeedingMoreThan14TensorSlots) {
    ConcatDesc d;
    d.name = "wide";
    d.axis = 0;
    d.inputs.assign(14, TensorDesc::make(DataType::Float32, {1, 4}));
    d.output = TensorDesc::make(DataType::Float32, {14, 4});
    auto r = optest::device().compileOperator(d);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("'wide': it has 15 input and output tensors; at most 14"));
}

TEST_F(DeviceTest, OwnedOutputIsRejected) {
    ElementWiseDesc d = addDesc(8);
    d.output.flags = TensorFlagOwnedByPlugin;
    auto r = optest::device().compileOperator(d);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("only valid on inputs"));
}

}  // namespace
