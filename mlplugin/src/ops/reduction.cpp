// Reduction family: reductions over axesMask (reduce.comp) and softmax / log-softmax along
// axesMask (softmax.comp), both on the row machinery of reduce_rows.glsl, and CPU references.
#include "kernel.h"
#include "ml_shaders.h"
#include "ops/normalization_common.h"
#include "ops/row_plan.h"
#include "index_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kReductionOutputSlot = 1;  // slots: input 0, output 1

const char* toString(ReduceOp op) {
    switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Mean: return "mean";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::L2: return "l2";
    case ReduceOp::SumSquare: return "sum_square";
    case ReduceOp::ArgMax: return "argmax";
    case ReduceOp::ArgMin: return "argmin";
    case ReduceOp::Prod: return "prod";
    }
    return "unknown";
}

bool anyF16(const TensorDesc& a, const TensorDesc& b) {
    return a.dataType == DataType::Float16 || b.dataType == DataType::Float16;
}

Status validateReduce(const PlanContext& pc, const ReduceDesc& d, const std::string& op) {
    if (uint32_t(d.op) > uint32_t(ReduceOp::Prod)) return invalidArgument(op + ": unknown reduce operation " + std::to_string(uint32_t(d.op)));
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkAxesMask(d.axesMask, d.input.rank, op));
    TensorDesc expected = d.input;
    for (uint32_t i = 0; i < d.input.rank; ++i)
        if ((d.axesMask >> i) & 1u) expected.sizes[i] = 1;
    bool same = d.output.rank == expected.rank;
    for (uint32_t i = 0; same && i < expected.rank; ++i) same = d.output.sizes[i] == expected.sizes[i];
    if (!same)
        return invalidArgument(op + ": output sizes " + sizesString(d.output) + " should be " + sizesString(expected) +
                               " (input " + sizesString(d.input) + " with the axesMask dims reduced to 1)");
    if (d.op == ReduceOp::ArgMax || d.op == ReduceOp::ArgMin) {
        // Indices are written as floats: integers are exact up to 2^24 in fp32, 2^11 in fp16.
        const bool half = d.output.dataType == DataType::Float16;
        const uint64_t rowLength = d.input.elementCount() / d.output.elementCount();
        if (rowLength > (uint64_t(1) << (half ? 11 : 24)))
            return invalidArgument(op + ": " + toString(d.op) + " over " + std::to_string(rowLength) + " elements into an " +
                                   mlplugin::toString(d.output.dataType) + " output: indices above " +
                                   (half ? "2048" : "2^24") + " would not be exact");
    }
    return {};
}

Status validateSoftmax(const PlanContext& pc, const SoftmaxDesc& d, const std::string& op) {
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkSameSizes(d.input, d.output, op, "input", "output"));
    MLP_TRY(checkAxesMask(d.axesMask, d.input.rank, op));
    return {};
}

// Output strides in the input's iteration space: 0 on the reduced dims (the output has size 1 there).
Dims reducedOutputStrides(const TensorDesc& output, uint32_t axesMask) {
    Dims strides = output.effectiveStrides();
    for (uint32_t i = 0; i < output.rank; ++i)
        if ((axesMask >> i) & 1u) strides[i] = 0;
    return strides;
}

Plan rowPlan(const RowLayout& layout, std::span<const uint32_t> spirv, std::vector<uint32_t> kernelConstants, const char* name) {
    PipelineSpec p;
    p.spirv = spirv;
    p.debugName = name;
    p.specConstants = rowSpecConstants(layout);
    p.specConstants.insert(p.specConstants.end(), kernelConstants.begin(), kernelConstants.end());
    finishRowSpecConstants(p.specConstants, layout);
    Plan plan;
    plan.pipelines.push_back(std::move(p));
    plan.execute.push_back(rowLaunch(layout));
    return plan;
}

}  // namespace

Result<Plan> planReduce(const PlanContext& pc, const ReduceDesc& d) {
    MLP_TRY(validateReduce(pc, d, describe("reduce", d.name)));
    RowLayout layout = rowLayout(d.input.sizes, d.input.rank, d.axesMask,
                                 {d.input.effectiveStrides(), reducedOutputStrides(d.output, d.axesMask), Dims{}, Dims{}});
    const auto spirv = pc.fp16Storage && anyF16(d.input, d.output) ? shaders::reduce_f16() : shaders::reduce_f32();
    const std::vector<uint32_t> constants{uint32_t(d.op), uint32_t(d.input.dataType), uint32_t(d.output.dataType), kReductionOutputSlot};
    auto withPhase = [&](uint32_t phase) {
        std::vector<uint32_t> c = constants;
        c.push_back(phase);
        return c;
    };
    if (!splitLongRows(layout)) return rowPlan(layout, spirv, withPhase(0), "reduce");

    // Long rows: a workgroup per chunk writes partials (value, index) to the temporary resource,
    // then a workgroup per row merges them.
    Plan plan = rowPlan(layout, spirv, withPhase(1), "reduce_partials");
    Plan merge = rowPlan(layout, spirv, withPhase(2), "reduce_merge");
    plan.pipelines.push_back(merge.pipelines[0]);
    Launch mergeLaunch = merge.execute[0];
    mergeLaunch.pipeline = 1;
    mergeLaunch.groups = linearGroups(layout.rows, 1);
    mergeLaunch.barrierBefore = true;
    plan.execute.push_back(mergeLaunch);
    plan.temporaryBytes = uint64_t(layout.rows) * layout.chunks * 2 * sizeof(float);
    return plan;
}

Result<Plan> planSoftmax(const PlanContext& pc, const SoftmaxDesc& d) {
    MLP_TRY(validateSoftmax(pc, d, describe("softmax", d.name)));
    RowLayout layout = rowLayout(d.input.sizes, d.input.rank, d.axesMask,
                                 {d.input.effectiveStrides(), d.output.effectiveStrides(), Dims{}, Dims{}});
    const auto spirv = pc.fp16Storage && anyF16(d.input, d.output) ? shaders::softmax_f16() : shaders::softmax_f32();
    const char* name = d.logSoftmax ? "log_softmax" : "softmax";
    auto constants = [&](uint32_t phase) {
        return std::vector<uint32_t>{uint32_t(d.input.dataType), uint32_t(d.output.dataType), kReductionOutputSlot,
                                     d.logSoftmax ? 1u : 0u, phase};
    };
    if (!splitLongRows(layout)) return rowPlan(layout, spirv, constants(0), name);

    // Long rows: (max, sum) per chunk into the temporary resource, then merge and write per chunk.
    Plan plan = rowPlan(layout, spirv, constants(1), name);
    Plan write = rowPlan(layout, spirv, constants(2), name);
    plan.pipelines.push_back(write.pipelines[0]);
    Launch writeLaunch = write.execute[0];
    writeLaunch.pipeline = 1;
    writeLaunch.barrierBefore = true;
    plan.execute.push_back(writeLaunch);
    plan.temporaryBytes = uint64_t(layout.rows) * layout.chunks * 2 * sizeof(float);
    return plan;
}

// --- CPU references ---------------------------------------------------------------------

namespace {

// The elements of each row in row-major order of the reduced dims, keyed by the linear index
// of the row's kept coordinates (its element's index in the reduced output).
std::map<uint64_t, std::vector<std::pair<double, uint64_t>>> gatherRows(const TensorDesc& input, const std::vector<double>& data,
                                                                        uint32_t axesMask) {
    std::map<uint64_t, std::vector<std::pair<double, uint64_t>>> rows;  // value, linear index in the input
    const Dims strides = input.effectiveStrides();
    for (uint64_t i = 0; i < input.elementCount(); ++i) {
        Dims c = coordinates(i, input.sizes, input.rank);
        uint64_t row = 0;
        for (uint32_t dim = 0; dim < input.rank; ++dim)
            if (!((axesMask >> dim) & 1u)) row = row * input.sizes[dim] + c[dim];  // = linear index in the reduced output
        rows[row].push_back({data[offsetOf(c, strides, input.rank)], i});
    }
    return rows;
}

double reduceRow(ReduceOp op, const std::vector<std::pair<double, uint64_t>>& row) {
    double sum = 0, squares = 0, product = 1;
    for (const auto& [v, index] : row) {
        sum += v;
        squares += v * v;
        product *= v;
    }
    auto lessValue = [](const auto& a, const auto& b) { return a.first < b.first; };
    switch (op) {
    case ReduceOp::Sum: return sum;
    case ReduceOp::Mean: return sum / double(row.size());
    case ReduceOp::Max: return std::max_element(row.begin(), row.end(), lessValue)->first;
    case ReduceOp::Min: return std::min_element(row.begin(), row.end(), lessValue)->first;
    case ReduceOp::L2: return std::sqrt(squares);
    case ReduceOp::SumSquare: return squares;
    // max_element/min_element return the first of equal elements.
    case ReduceOp::ArgMax: return double(std::max_element(row.begin(), row.end(), lessValue) - row.begin());
    case ReduceOp::ArgMin: return double(std::min_element(row.begin(), row.end(), lessValue) - row.begin());
    case ReduceOp::Prod: return product;
    }
    return 0;
}

}  // namespace

Result<HostTensors> referenceReduce(const ReduceDesc& d, const HostTensors& in) {
    MLP_TRY(validateReduce(referenceContext(), d, describe("reduce", d.name)));
    HostTensor out{d.output, std::vector<double>(elementSpan(d.output), 0.0)};
    const Dims outStrides = d.output.effectiveStrides();
    for (const auto& [row, elements] : gatherRows(d.input, in[0].data, d.axesMask))
        out.data[offsetOf(coordinates(row, d.output.sizes, d.output.rank), outStrides, d.output.rank)] =
            representedAs(d.output, reduceRow(d.op, elements));
    return HostTensors{std::move(out)};
}

Result<HostTensors> referenceSoftmax(const SoftmaxDesc& d, const HostTensors& in) {
    MLP_TRY(validateSoftmax(referenceContext(), d, describe("softmax", d.name)));
    HostTensor out{d.output, std::vector<double>(elementSpan(d.output), 0.0)};
    const Dims outStrides = d.output.effectiveStrides();
    for (const auto& [row, elements] : gatherRows(d.input, in[0].data, d.axesMask)) {
        double maximum = -std::numeric_limits<double>::infinity();
        for (const auto& e : elements) maximum = std::max(maximum, e.first);
        double sum = 0;
        for (const auto& e : elements) sum += std::exp(e.first - maximum);
        for (const auto& [v, index] : elements) {
            double y = d.logSoftmax ? (v - maximum) - std::log(sum) : std::exp(v - maximum) / sum;
            out.data[offsetOf(coordinates(index, d.input.sizes, d.input.rank), outStrides, d.input.rank)] = representedAs(d.output, y);
        }
    }
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
