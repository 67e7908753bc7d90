#pragma once
/// \file
/// IEEE binary16 conversions for uploading fp16 tensors and reading them back
/// (round to nearest even, overflow to infinity, NaN preserved).
#include "mlplugin/export.h"

#include <cstddef>
#include <cstdint>
#include <span>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// The fp16 bits nearest to `value`.
uint16_t floatToHalf(float value);
/// The value of fp16 `bits` (exact).
float halfToFloat(uint16_t bits);
/// floatToHalf over a span (`out` at least as long as `in`).
void floatsToHalves(std::span<const float> in, std::span<uint16_t> out);
/// halfToFloat over a span (`out` at least as long as `in`).
void halvesToFloats(std::span<const uint16_t> in, std::span<float> out);

}  // namespace mlplugin
MLPLUGIN_API_END
