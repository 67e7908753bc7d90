// GEMM planner: one tiled kernel (shaders/ml/gemm.comp) specialized per operator; plugin-owned
// operands are copied into the persistent resource first (packed, at the output's precision).
#include "ml_shaders.h"
#include "ops/gemm_shape.h"
#include "ops/weight_packing.h"

#include <algorithm>

namespace mlplugin::detail {

namespace {

// Specialization constant ids of shaders/ml/gemm.comp.
enum GemmConst : uint32_t {
    kM = 3, kN, kK, kBatch1,
    kASlot, kAType, kAOffset, kAStrideB0, kAStrideB1, kAStrideM, kAStrideK,
    kBSlot, kBType, kBOffset, kBStrideB0, kBStrideB1, kBStrideK, kBStrideN,
    kHasC, kCSlot, kCType, kCOffset, kCStrideB0, kCStrideB1, kCStrideM, kCStrideN,
    kGemmOutType, kGemmOutStrideB0, kGemmOutStrideB1, kGemmOutStrideM, kGemmOutStrideN,
    kGemmAlpha, kGemmBeta, kGemmAct, kGemmActAlpha, kGemmActBeta,
    kGemmConstCount
};

constexpr uint32_t kGemmTile = 64;  // mirrors TILE in gemm.comp
constexpr uint32_t kSlotA = 0, kSlotB = 1, kSlotC = 2;  // input slots (operatorInputs order); the output is 3
constexpr uint32_t kMaxGroups = 65535;

// Where the kernel reads one operand: its input slot, or its packed copy in the persistent resource.
struct OperandSource {
    uint32_t slot = 0, type = 0, offset = 0;
};

OperandSource placeOperand(Plan& plan, PersistentAllocator& persistent, const TensorDesc& t, uint32_t slot, DataType packType, bool f16) {
    if (!t.ownedByPlugin()) return {slot, shaderType(t.dataType), 0};
    uint64_t offset = persistent.allocate(t.elementCount() * byteSize(packType));
    addPackTensor(plan, t, slot, packType, offset, f16);
    return {kPersistentSlot, shaderType(packType), uint32_t(offset / byteSize(packType))};
}

void setOperand(std::vector<uint32_t>& s, uint32_t first, const OperandSource& src, const GemmOperand& strides) {
    s[first] = src.slot, s[first + 1] = src.type, s[first + 2] = src.offset;
    s[first + 3] = strides.batch0, s[first + 4] = strides.batch1, s[first + 5] = strides.row, s[first + 6] = strides.col;
}

bool anyHalf(const GemmDesc& d) {
    return d.a.dataType == DataType::Float16 || d.b.dataType == DataType::Float16 || d.output.dataType == DataType::Float16 ||
           (d.c && d.c->dataType == DataType::Float16);
}

}  // namespace

Result<Plan> planGemm(const PlanContext& pc, const GemmDesc& d) {
    MLP_TRY(validateGemm(d, pc));
    GemmGeometry g = gemmGeometry(d, true);
    bool f16 = anyHalf(d);
    DataType packType = d.output.dataType;  // owned operands are stored at the output's precision

    Plan plan;
    plan.pipelines.push_back({});  // the GEMM kernel, filled in below
    PersistentAllocator persistent;
    OperandSource a = placeOperand(plan, persistent, d.a, kSlotA, packType, f16);
    OperandSource b = placeOperand(plan, persistent, d.b, kSlotB, packType, f16);
    OperandSource c = d.c ? placeOperand(plan, persistent, *d.c, kSlotC, packType, f16) : OperandSource{};
    plan.persistentBytes = persistent.totalBytes();

    std::vector<uint32_t> s(kGemmConstCount, 0);
    s[0] = 16, s[1] = 16, s[2] = 1;
    s[kM] = g.m, s[kN] = g.n, s[kK] = g.k, s[kBatch1] = g.batch1;
    setOperand(s, kASlot, a, g.a);
    setOperand(s, kBSlot, b, g.b);
    s[kHasC] = d.c.has_value();
    if (d.c) setOperand(s, kCSlot, c, g.c);
    s[kGemmOutType] = shaderType(d.output.dataType);
    s[kGemmOutStrideB0] = g.out.batch0, s[kGemmOutStrideB1] = g.out.batch1, s[kGemmOutStrideM] = g.out.row, s[kGemmOutStrideN] = g.out.col;
    s[kGemmAlpha] = asUint(d.alpha), s[kGemmBeta] = asUint(d.beta);
    s[kGemmAct] = uint32_t(d.activation.type), s[kGemmActAlpha] = asUint(d.activation.alpha), s[kGemmActBeta] = asUint(d.activation.beta);
    plan.pipelines[0] = {f16 ? shaders::gemm_f16() : shaders::gemm_f32(), std::move(s), "gemm"};

    // Row tiles beyond the 65535-workgroup limit go to further launches (push: first row tile).
    uint32_t rowTiles = divUp(g.m, kGemmTile);
    for (uint32_t first = 0; first < rowTiles; first += kMaxGroups) {
        Launch launch;
        launch.groups = {divUp(g.n, kGemmTile), std::min(kMaxGroups, rowTiles - first), g.batch0 * g.batch1};
        pushWords(launch, {first});
        plan.execute.push_back(launch);
    }
    return plan;
}

}  // namespace mlplugin::detail
