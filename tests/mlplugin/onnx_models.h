#pragma once
// The committed ONNX test models (tests/data/onnx, written by tools/make_test_models.py) and
// helpers to load them with their PyTorch inputs and outputs.
#include "mlplugin/onnx.h"
#include "npy.h"

#include <ostream>
#include <string>
#include <vector>

namespace onnxtest {

struct ModelCase {
    std::string name;   // file stem: "unet_op13"
    std::string data;   // .npy prefix: "unet"
    std::vector<std::string> inputs, outputs;
    mlplugin::OnnxLoadOptions options;
};

inline void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.name; }

std::string dataPath(const std::string& file);
// Every exported model at every opset, the legacy opset-7 model and the free-dim model.
std::vector<ModelCase> allModels();
std::vector<npy::Array> readArrays(const std::string& prefix, const std::vector<std::string>& names);
mlplugin::HostTensor toHost(const npy::Array& a, const mlplugin::TensorDesc& desc);
// ||got - want|| / ||want|| over fp32 values.
double relativeL2(const std::vector<double>& got, const std::vector<float>& want);

}  // namespace onnxtest
