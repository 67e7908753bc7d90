#pragma once
// IEEE binary16 conversions for uploading fp16 tensors and reading them back
// (round to nearest even, overflow to infinity, NaN preserved).
#include "mlplugin/export.h"

#include <cstddef>
#include <cstdint>
#include <span>

MLPLUGIN_API_BEGIN
namespace mlplugin {

uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
void floatsToHalves(std::span<const float> in, std::span<uint16_t> out);
void halvesToFloats(std::span<const uint16_t> in, std::span<float> out);

}  // namespace mlplugin
MLPLUGIN_API_END
