#include "onnx_models.h"

#include <gtest/gtest.h>

#include <cmath>

namespace onnxtest {

std::string dataPath(const std::string& file) {
    // Appended in place: GCC 12 at -O1 warns (-Warray-bounds, a false positive) on the
    // temporary of `std::string(dir) + "/" + file`.
    std::string path = ONNX_TEST_DATA_DIR;
    path += '/';
    path += file;
    return path;
}

std::vector<ModelCase> allModels() {
    std::vector<ModelCase> cases;
    auto add = [&](const std::string& data, std::vector<int> opsets, std::vector<std::string> in, std::vector<std::string> out) {
        for (int op : opsets) cases.push_back({data + "_op" + std::to_string(op), data, in, out, {}});
    };
    add("espcn", {9, 11, 13, 17}, {"input"}, {"output"});
    add("unet", {9, 11, 13, 17}, {"input"}, {"output"});
    add("poolhead", {11, 13, 17}, {"input"}, {"output"});
    add("conv1d", {9, 11, 13, 17}, {"input"}, {"output"});
    add("elementwise", {9, 11, 13, 17}, {"input", "input2"}, {"output"});
    add("normsoftmax", {9, 11, 13, 17}, {"input"}, {"output", "output2"});
    add("warp", {16, 17}, {"input", "previous", "flow"}, {"output"});
    cases.push_back({"legacy_op6", "legacy6", {"input"}, {"output"}, {}});
    cases.push_back({"legacy_op8", "legacy8", {"input"}, {"output"}, {}});
    cases.push_back({"ops_op10", "ops10", {"input"}, {"output"}, {}});
    cases.push_back({"ops_op13", "ops", {"input"}, {"output", "output2"}, {}});
    ModelCase dynamic{"espcn_dynamic_op13", "espcn_dynamic", {"input"}, {"output"}, {}};
    dynamic.options.freeDimensions = {{"height", 5}, {"width", 7}};
    cases.push_back(dynamic);
    ModelCase batch{"poolhead_dynamic_op13", "poolhead_dynamic", {"input"}, {"output"}, {}};
    batch.options.freeDimensions = {{"batch", 2}};
    cases.push_back(batch);
    return cases;
}

std::vector<npy::Array> readArrays(const std::string& prefix, const std::vector<std::string>& names) {
    std::vector<npy::Array> arrays;
    for (const auto& n : names) {
        auto a = npy::read(dataPath(prefix + "_" + n + ".npy"));
        EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
        arrays.push_back(a.ok() ? std::move(a).value() : npy::Array{});
    }
    return arrays;
}

mlplugin::HostTensor toHost(const npy::Array& a, const mlplugin::TensorDesc& desc) {
    return {desc, std::vector<double>(a.values.begin(), a.values.end())};
}

double relativeL2(const std::vector<double>& got, const std::vector<float>& want) {
    if (got.size() != want.size()) return INFINITY;
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(got[i])) return INFINITY;
        num += (got[i] - want[i]) * (got[i] - want[i]);
        den += double(want[i]) * want[i];
    }
    return std::sqrt(num) / std::max(std::sqrt(den), 1e-30);
}

}  // namespace onnxtest
