#include "ops/weight_packing.h"

#include "ml_shaders.h"

#include <cassert>

namespace mlplugin::detail {

namespace {
// Specialization constant ids of shaders/ml/pack_tensor.comp.
enum PackTensorConst : uint32_t { kSize0 = 3, kStride0 = 7, kSrcSlot = 11, kSrcType, kDstType, kDstOffset, kPackTensorConstCount };
}  // namespace

uint64_t PersistentAllocator::allocate(uint64_t bytes) {
    uint64_t offset = (end_ + kPersistentAlignment - 1) / kPersistentAlignment * kPersistentAlignment;
    end_ = offset + bytes;
    return offset;
}

void addPackTensor(Plan& plan, const TensorDesc& tensor, uint32_t slot, DataType dstType, uint64_t byteOffset, bool f16Variant) {
    assert(tensor.rank >= 1 && tensor.rank <= 4);
    assert(byteOffset % byteSize(dstType) == 0);
    std::vector<uint32_t> spec(kPackTensorConstCount, 0);
    spec[0] = kPackLocalSize;
    spec[1] = spec[2] = 1;
    auto strides = tensor.effectiveStrides();
    uint32_t lead = 4 - tensor.rank;  // left-pad to 4-D with size 1
    for (uint32_t i = 0; i < 4; ++i) {
        spec[kSize0 + i] = i < lead ? 1 : tensor.sizes[i - lead];
        spec[kStride0 + i] = i < lead ? 0 : strides[i - lead];
    }
    spec[kSrcSlot] = slot;
    spec[kSrcType] = shaderType(tensor.dataType);
    spec[kDstType] = shaderType(dstType);
    spec[kDstOffset] = uint32_t(byteOffset / byteSize(dstType));

    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size());
    launch.groups = linearGroups(tensor.elementCount(), kPackLocalSize);
    plan.pipelines.push_back({f16Variant ? shaders::pack_tensor_f16() : shaders::pack_tensor_f32(), std::move(spec), "pack_tensor"});
    plan.initialize.push_back(launch);
}

}  // namespace mlplugin::detail
