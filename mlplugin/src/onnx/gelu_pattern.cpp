#include "onnx/gelu_pattern.h"

#include "onnx/loader.h"

#include <cmath>
#include <unordered_map>
#include <vector>

namespace mlplugin::onnx_detail {
namespace {

struct Index {
    const onnx::GraphProto& graph;
    std::unordered_map<std::string, int> producer;
    std::unordered_map<std::string, std::vector<int>> consumers;
    std::unordered_map<std::string, const onnx::TensorProto*> initializers;
    std::set<std::string> graphOutputs;

    explicit Index(const onnx::GraphProto& g) : graph(g) {
        for (int i = 0; i < g.node_size(); ++i) {
            for (const auto& o : g.node(i).output()) producer[o] = i;
            for (const auto& in : g.node(i).input()) consumers[in].push_back(i);
        }
        for (const auto& t : g.initializer()) initializers[t.name()] = &t;
        for (const auto& o : g.output()) graphOutputs.insert(o.name());
    }

    // The single consumer of `tensor`, or -1 (several consumers, or a graph output).
    int onlyConsumer(const std::string& tensor) const {
        if (tensor.empty()) return -1;
        auto it = consumers.find(tensor);
        if (it == consumers.end() || it->second.size() != 1 || graphOutputs.count(tensor)) return -1;
        return it->second[0];
    }

    // The scalar value of `tensor` if it is a one-element constant (initializer or Constant node).
    bool scalar(const std::string& tensor, double& out) const {
        const onnx::TensorProto* t = nullptr;
        if (auto it = initializers.find(tensor); it != initializers.end()) t = it->second;
        else if (auto p = producer.find(tensor); p != producer.end()) {
            const auto& n = graph.node(p->second);
            if (n.op_type() == "Constant")
                for (const auto& a : n.attribute())
                    if (a.name() == "value" && a.has_t()) t = &a.t();
        }
        if (!t) return false;
        auto h = hostFromTensorProto(*t, tensor);
        if (!h || h->data.size() != 1) return false;
        out = h->data[0];
        return true;
    }

    bool isOp(int i, const char* type) const { return i >= 0 && graph.node(i).op_type() == type && graph.node(i).domain().empty(); }

    // Output 0 of node i, or "" when it has none (hostile files).
    const std::string& out0(int i) const {
        static const std::string none;
        return graph.node(i).output_size() > 0 ? graph.node(i).output(0) : none;
    }

    // For a binary node, the input that is not `known`, and whether it had exactly two inputs.
    bool other(int i, const std::string& known, std::string& out) const {
        const auto& n = graph.node(i);
        if (n.input_size() != 2) return false;
        if (n.input(0) == known) { out = n.input(1); return true; }
        if (n.input(1) == known) { out = n.input(0); return true; }
        return false;
    }
};

bool near(double v, double want) { return std::abs(v - want) <= 1e-4 * std::abs(want); }

}  // namespace

GeluPatterns findGeluPatterns(const onnx::GraphProto& graph) {
    GeluPatterns result;
    Index ix(graph);
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
