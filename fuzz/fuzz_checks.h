#pragma once
// What the mlplugin fuzz targets check beyond "no crash, no sanitizer report": a compile that
// succeeds produced a dispatchable that binding tables and the recorder can use without
// undefined behaviour on the GPU, and a compile that fails says why with a code an application
// can act on. A broken check aborts, which libFuzzer reports as a crash with the input.
#include "compiled_operator.h"
#include "mlplugin/graph.h"

#include <initializer_list>
#include <vector>

namespace vkml_fuzz {

// The devices the CPU-side compile plans for: one like lavapipe (fp16, no tensor cores, 32 KiB
// shared memory) and one like an NVIDIA GPU (cooperative matrices, 48 KiB shared memory), so
// both kernel selections are exercised.
const std::vector<mlplugin::Capabilities>& capabilitySets();

// Aborts unless `op`'s launches, binding rules and sub-bindings are consistent (workgroup counts
// in 1..65535, sets and slots in range, every descriptor range inside its binding and aligned).
void checkCompiled(const mlplugin::detail::CompiledOperatorImpl& op, const mlplugin::Capabilities& caps);
void checkCompiled(const mlplugin::CompiledGraph& graph, const mlplugin::Capabilities& caps);

// Aborts unless `e` has a message and one of `allowed` codes.
void checkError(const mlplugin::Error& e, std::initializer_list<mlplugin::ErrorCode> allowed);

}  // namespace vkml_fuzz
