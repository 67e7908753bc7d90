#pragma once
// Tensors whose bytes live in a separate file (TensorProto data_location = EXTERNAL, the
// layout onnx.save_model(..., save_as_external_data=True) writes). The file is named by a
// relative `location` and read only from inside the model file's folder: an absolute
// location, a `..` component, or a symbolic link that resolves outside the folder is refused
// with a message naming the tensor. `offset` / `length` are checked against the file's size
// and against the bytes the tensor's dims need before anything is read, so a lying length
// cannot make the loader allocate or read beyond the file.
#include "mlplugin/result.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace mlplugin::onnx_detail {

// Where external data may come from: the canonical folder of the model file, or none (a model
// loaded from bytes, which then refuses external data).
struct ExternalDataSource {
    std::filesystem::path folder;  // empty: no folder
};

// The `expectedBytes` bytes of `t`'s external data. `what` names the tensor in messages.
Result<std::string> readExternalData(const onnx::TensorProto& t, const std::string& what, const ExternalDataSource& source,
                                     uint64_t expectedBytes);

}  // namespace mlplugin::onnx_detail
