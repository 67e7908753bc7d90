#include "onnx_node_cases.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace onnxtest {
namespace {

namespace fs = std::filesystem;

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

double halfToDouble(uint16_t h) {
    uint32_t sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
    double v = exp == 0 ? std::ldexp(double(mant), -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(double(mant | 1024), int(exp) - 25);
    return sign ? -v : v;
}

template <class T>
void fromRaw(const std::string& raw, std::vector<double>& out) {
    for (size_t i = 0; i + sizeof(T) <= raw.size(); i += sizeof(T)) {
        T v;
        std::memcpy(&v, raw.data() + i, sizeof(T));
        out.push_back(double(v));
    }
}

}  // namespace

std::vector<NodeCase> nodeCases() {
    std::vector<NodeCase> cases;
    for (const auto& entry : fs::directory_iterator(ONNX_NODE_TEST_DIR)) {
        if (!entry.is_directory()) continue;
        NodeCase c{entry.path().filename().string(), entry.path().string()};
        onnx::ModelProto model;
        if (model.ParseFromString(readFile(c.dir + "/model.onnx"))) {
            const std::string& doc = model.doc_string();
            const std::string prefix = "expect: unsupported: ";
            if (doc.rfind(prefix, 0) == 0) {
                c.expectPass = false;
                c.unsupportedText = doc.substr(prefix.size());
            }
        }
        cases.push_back(std::move(c));
    }
    std::sort(cases.begin(), cases.end(), [](const NodeCase& a, const NodeCase& b) { return a.name < b.name; });
    return cases;
}

NodeTensor readNodeTensor(const std::string& path) {
    onnx::TensorProto t;
    NodeTensor r;
    if (!t.ParseFromString(readFile(path))) {
        ADD_FAILURE() << "cannot parse " << path;
        return r;
    }
    r.dims.assign(t.dims().begin(), t.dims().end());
    const std::string& raw = t.raw_data();
    using TP = onnx::TensorProto;
    switch (t.data_type()) {
    case TP::FLOAT:
        if (t.has_raw_data()) fromRaw<float>(raw, r.values); else r.values.assign(t.float_data().begin(), t.float_data().end());
        break;
    case TP::DOUBLE:
        if (t.has_raw_data()) fromRaw<double>(raw, r.values); else r.values.assign(t.double_data().begin(), t.double_data().end());
        break;
    case TP::FLOAT16: {
        std::vector<double> bits;
        if (t.has_raw_data()) fromRaw<uint16_t>(raw, bits); else bits.assign(t.int32_data().begin(), t.int32_data().end());
        for (double b : bits) r.values.push_back(halfToDouble(uint16_t(b)));
        break;
    }
    case TP::INT64:
        if (t.has_raw_data()) fromRaw<int64_t>(raw, r.values); else r.values.assign(t.int64_data().begin(), t.int64_data().end());
        break;
    case TP::INT32:
        if (t.has_raw_data()) fromRaw<int32_t>(raw, r.values); else r.values.assign(t.int32_data().begin(), t.int32_data().end());
        break;
    default:
        ADD_FAILURE() << path << ": data type " << t.data_type() << " is not read by the harness";
    }
    return r;
}

std::vector<NodeTensor> readNodeTensors(const NodeCase& c, const char* kind) {
    std::vector<NodeTensor> tensors;
    for (int i = 0;; ++i) {
        std::string path = c.dir + "/test_data_set_0/" + kind + "_" + std::to_string(i) + ".pb";
        if (!fs::exists(path)) break;
        tensors.push_back(readNodeTensor(path));
    }
    return tensors;
}

std::string compareNodeOutput(const std::vector<double>& got, const NodeTensor& want, double rtol, double atol) {
    if (got.size() != want.values.size())
        return "has " + std::to_string(got.size()) + " values, expected " + std::to_string(want.values.size());
    for (size_t i = 0; i < got.size(); ++i) {
        double g = got[i], w = want.values[i];
        if (std::isnan(w) && std::isnan(g)) continue;
        if (std::isinf(w) && g == w) continue;
        if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w))) {
            std::ostringstream s;
            s << "value " << i << " is " << g << ", expected " << w;
            return s.str();
        }
    }
    return "";
}

}  // namespace onnxtest
