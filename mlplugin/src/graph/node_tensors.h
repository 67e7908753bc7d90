#pragma once
// Internal: mutable access to an operator desc's tensor fields in binding order, so graph code
// can fill input descs from values and read/write output descs generically.
#include "mlplugin/operator_desc.h"

#include <vector>

namespace mlplugin::detail {

// Sets input i of `op` to `descs[i]`; nullptr clears an optional input. Returns false if a
// required input is given nullptr or the count does not fit the op.
bool setOperatorInputs(OperatorDesc& op, const std::vector<const TensorDesc*>& descs);
// Output tensors of `op`, mutable, in operatorOutputs order.
std::vector<TensorDesc*> mutableOperatorOutputs(OperatorDesc& op);
// Fills every output desc whose rank is 0 from the inputs and attributes (shape inference).
// Outputs that are already set are left alone (the planner validates them).
Status inferOperatorOutputs(OperatorDesc& op);

}  // namespace mlplugin::detail
