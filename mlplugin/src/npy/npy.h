#pragma once
// NumPy .npy files (format versions 1 and 2): float32 ('<f4') and float16 ('<f2') arrays in C
// order, the format mlrun and the ONNX tests exchange tensors in. Values are held as fp32.
#include "mlplugin/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace npy {

struct Array {
    std::vector<uint64_t> shape;
    std::vector<float> values;  // C order
};

// Rejects Fortran order, other dtypes, truncated data and malformed headers with a message
// naming the file (ErrorCode::InvalidArgument; IoError when the file cannot be read).
mlplugin::Result<Array> read(const std::string& path);
mlplugin::Result<Array> parse(std::span<const uint8_t> bytes, const std::string& what);
// Writes a version 1.0 '<f4' file.
mlplugin::Status write(const std::string& path, const Array& array);

}  // namespace npy
