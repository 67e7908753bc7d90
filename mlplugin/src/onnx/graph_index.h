#pragma once
// Producer/consumer lookups over an ONNX graph for the pattern matchers (gelu_pattern,
// depth_to_space_pattern), which look at the graph before any node is converted.
#include "onnx/loader.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlplugin::onnx_detail {

struct GraphIndex {
    const onnx::GraphProto& graph;
    std::unordered_map<std::string, int> producer;
    std::unordered_map<std::string, std::vector<int>> consumers;
    std::unordered_map<std::string, const onnx::TensorProto*> initializers;
    std::set<std::string> graphOutputs;

    explicit GraphIndex(const onnx::GraphProto& g) : graph(g) {
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

    // The producing node of `tensor`, or -1 (graph input, initializer or undefined).
    int producerOf(const std::string& tensor) const {
        auto it = producer.find(tensor);
        return it == producer.end() ? -1 : it->second;
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

}  // namespace mlplugin::onnx_detail
