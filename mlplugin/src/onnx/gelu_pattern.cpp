#include "onnx/gelu_pattern.h"

#include "onnx/graph_index.h"

#include <cmath>

namespace mlplugin::onnx_detail {
namespace {

bool near(double v, double want) { return std::abs(v - want) <= 1e-4 * std::abs(want); }

}  // namespace

GeluPatterns findGeluPatterns(const onnx::GraphProto& graph) {
    GeluPatterns result;
    GraphIndex ix(graph);
    for (int erf = 0; erf < graph.node_size(); ++erf) {
        if (!ix.isOp(erf, "Erf") || graph.node(erf).input_size() != 1) continue;
        // x / sqrt(2) or x * (1 / sqrt(2))
        auto p = ix.producer.find(graph.node(erf).input(0));
        if (p == ix.producer.end()) continue;
        int scale = p->second;
        const auto& sn = graph.node(scale);
        if (sn.input_size() != 2 || ix.onlyConsumer(ix.out0(scale)) != erf) continue;
        std::string x = sn.input(0);
        double k;
        bool scaleOk = (ix.isOp(scale, "Div") && ix.scalar(sn.input(1), k) && near(k, std::sqrt(2.0))) ||
                       (ix.isOp(scale, "Mul") && ix.scalar(sn.input(1), k) && near(k, std::sqrt(0.5)));
        if (!scaleOk) continue;
        // erf(...) + 1
        int add = ix.onlyConsumer(ix.out0(erf));
        std::string one;
        if (!ix.isOp(add, "Add") || !ix.other(add, ix.out0(erf), one) || !ix.scalar(one, k) || !near(k, 1.0)) continue;
        // Either (x * (1 + erf)) * 0.5, or (x * 0.5) * (1 + erf).
        int mul1 = ix.onlyConsumer(ix.out0(add));
        std::string otherIn;
        if (!ix.isOp(mul1, "Mul") || !ix.other(mul1, ix.out0(add), otherIn)) continue;
        std::set<int> chain{scale, erf, add, mul1};
        int last = -1;
        if (otherIn == x) {
            int mul2 = ix.onlyConsumer(ix.out0(mul1));
            std::string half;
            if (!ix.isOp(mul2, "Mul") || !ix.other(mul2, ix.out0(mul1), half) || !ix.scalar(half, k) || !near(k, 0.5)) continue;
            chain.insert(mul2);
            last = mul2;
        } else {
            auto hp = ix.producer.find(otherIn);
            if (hp == ix.producer.end()) continue;
            int halfMul = hp->second;
            std::string half;
            if (!ix.isOp(halfMul, "Mul") || !ix.other(halfMul, x, half) || !ix.scalar(half, k) || !near(k, 0.5) ||
                ix.onlyConsumer(otherIn) != mul1)
                continue;
            chain.insert(halfMul);
            last = mul1;
        }
        for (int n : chain)
            if (n != last) result.skipped.insert(n);
        result.geluInput[last] = x;
    }
    return result;
}

}  // namespace mlplugin::onnx_detail
