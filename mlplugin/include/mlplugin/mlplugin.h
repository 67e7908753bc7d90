#pragma once
/// \file
/// Everything in one include.
#include "mlplugin/binding_table.h"
#include "mlplugin/command_bundle.h"
#include "mlplugin/command_recorder.h"
#include "mlplugin/cpu_reference.h"
#include "mlplugin/device.h"
#include "mlplugin/device_support.h"
#include "mlplugin/dispatchable.h"
#include "mlplugin/graph.h"
#include "mlplugin/graph_builder.h"
#include "mlplugin/half.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"
#include "mlplugin/tensor_desc.h"
#include "mlplugin/version.h"
