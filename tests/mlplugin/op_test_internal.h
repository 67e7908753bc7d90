#pragma once
// Internal to the op harness: run an already compiled dispatchable (an operator or a compiled
// graph) with the harness's buffers, initializer and checks.
#include "op_test.h"

#include <string>
#include <vector>

namespace optest {

// Uploads `inputs` (laid out per `inDescs`; owned ones go to the initializer), poisons outputs,
// fills the temporary with junk, initializes, records, submits, reads back. Fails the current
// test (and returns empty) on any error; `label` names the dispatchable in messages.
std::vector<mlplugin::HostTensor> runCompiled(mlplugin::CompiledOperator& op, const std::vector<const mlplugin::TensorDesc*>& inDescs,
                                              const std::vector<mlplugin::HostTensor>& inputs,
                                              const std::vector<const mlplugin::TensorDesc*>& outDescs, const RunOptions& options,
                                              const std::string& label);

// EXPECT_LT(relativeL2) per output with the options' tolerance.
void expectClose(const std::vector<mlplugin::HostTensor>& got, const std::vector<mlplugin::HostTensor>& want,
                 const RunOptions& options, const std::string& label);

}  // namespace optest
