#pragma once
/// \file
/// Writing frames to disk: 8-bit PNG for viewing, NumPy .npy (float32, C order) for linear data
/// that training and evaluation scripts load directly. Reading PNG back is for golden tests.
/// Every function throws engine::Error with the path and the reason when the file cannot be
/// written or read.
#include "engine/export.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

/// An 8-bit image in memory, rows top to bottom, `channels` bytes per pixel (1..4).
struct Image8 {
    uint32_t width = 0;  ///< pixels
    uint32_t height = 0;  ///< pixels
    uint32_t channels = 4;  ///< bytes per pixel
    std::vector<uint8_t> pixels;  ///< width * height * channels bytes
};

/// Images larger than this (width x height) are rejected before any pixel is decoded: a corrupt
/// or hostile header cannot make the reader allocate gigabytes. 16384 x 16384 is the largest 2-D
/// image current desktop GPUs create.
inline constexpr uint64_t kMaxImagePixels = uint64_t(16384) * 16384;

/// Writes `image` as PNG; throws engine::Error (ErrorCode::IoError) naming the file on failure.
void writePng(const std::string& path, const Image8& image);
/// Reads a PNG as `channels` (1..4) 8-bit channels per pixel (converted from what the file holds).
Image8 readPng(const std::string& path, uint32_t channels = 4);
/// The same from PNG bytes in memory; `what` names them in errors (a path, "texture 3"). Images
/// over `maxPixels` are rejected (callers may lower the limit, never raise it past the default).
Image8 decodePng(std::span<const uint8_t> bytes, uint32_t channels, const std::string& what,
                 uint64_t maxPixels = kMaxImagePixels);

/// An encoded image's file format.
enum class ImageFormat { Unknown, Png, Jpeg };
/// By the file signature.
ImageFormat sniffImageFormat(std::span<const uint8_t> bytes);
/// Decodes a PNG or JPEG held in memory into RGBA (4 channels). The size is read from the header
/// first and must be 1..maxSize texels per side and at most maxTexels in all, so a lying header
/// never becomes a huge allocation. Throws engine::Error starting with `what` otherwise.
Image8 decodeImage(std::span<const uint8_t> bytes, const std::string& what, uint32_t maxSize, uint64_t maxTexels);

/// Writes `data` as a little-endian float32 .npy array of the given shape (e.g. {H, W, C}).
/// data.size() must equal the product of `shape`.
void writeNpy(const std::string& path, std::span<const float> data, std::span<const uint32_t> shape);
/// Reads a float32 .npy file (v1/v2/v3 header, C order); `shape` receives its dimensions. The
/// data must be exactly what the shape says: a lying header is an error
/// (ErrorCode::InvalidModel), not an allocation; a missing file is ErrorCode::IoError.
std::vector<float> readNpy(const std::string& path, std::vector<uint32_t>& shape);
/// The same from .npy bytes in memory; `what` names them in errors.
std::vector<float> decodeNpy(std::span<const uint8_t> bytes, std::vector<uint32_t>& shape, const std::string& what);

/// IEEE half -> float (readback of 16-bit float images).
float halfToFloat(uint16_t h);

/// Image comparison for golden tests: mean absolute difference in 0..255 units and PSNR in dB
/// over all channels (infinity when identical). Sizes must match.
struct ImageDiff {
    double meanAbsDiff = 0;  ///< mean |a - b|
    double psnr = 0;  ///< peak signal-to-noise ratio, dB
    uint8_t maxAbsDiff = 0;  ///< largest |a - b|
};
/// Compares two images of equal size (throws engine::Error otherwise).
ImageDiff compareImages(const Image8& a, const Image8& b);

}  // namespace engine
ENGINE_API_END
