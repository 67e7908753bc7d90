#pragma once
// ONNX node tests in upstream's backend layout (tests/data/onnx_node, written by
// tools/make_node_tests.py): <case>/model.onnx and <case>/test_data_set_0/{input,output}_<i>.pb.
// The model's doc_string says what the loader must do ("expect: pass" or "expect: unsupported:
// <message fragment>").
#include "mlplugin/cpu_reference.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace onnxtest {

struct NodeCase {
    std::string name;
    std::string dir;
    bool expectPass = true;
    std::string unsupportedText;  // when !expectPass: a fragment of the Unsupported message
};

inline void PrintTo(const NodeCase& c, std::ostream* os) { *os << c.name; }

// Every case under the committed folder, sorted by name.
std::vector<NodeCase> nodeCases();

// A TensorProto file as values (float, float16, double, int64, int32) and dims.
struct NodeTensor {
    std::vector<int64_t> dims;
    std::vector<double> values;
};
NodeTensor readNodeTensor(const std::string& path);
// input_<i>.pb / output_<i>.pb of the case's first data set.
std::vector<NodeTensor> readNodeTensors(const NodeCase& c, const char* kind);

// Checks got against want element by element: |got - want| <= atol + rtol * |want| (NaN in
// both counts as equal). Returns "" or the first mismatch.
std::string compareNodeOutput(const std::vector<double>& got, const NodeTensor& want, double rtol, double atol);

}  // namespace onnxtest
