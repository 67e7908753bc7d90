#pragma once
/// \file
/// How a network's tensors meet the frame's images: which frame images (and which of their
/// components) feed each graph input, with what encoding and range mapping, and how the graph
/// output becomes an image. Consumed by bridge::MlPass, which runs the conversions on the GPU
/// (shaders/bridge/image_to_tensor.comp, tensor_to_image.comp).
///
///   // An sRGB-trained upscaler reading the renderer's display-linear colour:
///   TensorInput color{.name = "color", .channels = {{.image = FrameImage::Color, .components = "rgb", .encoding = Encoding::Srgb}}};
///   // Albedo, normals and depth concatenated along C into one [1,7,H,W] tensor:
///   TensorInput aux{.name = "aux", .channels = {{.image = FrameImage::Albedo, .components = "rgb"},
///                                               {.image = FrameImage::Normal, .components = "xyz"},
///                                               {.image = FrameImage::Depth, .components = "r"}}};
///   TensorOutput out{.encoding = Encoding::Srgb};   // network writes sRGB: decode to linear
#include "bridge/export.h"

#include <cstdint>
#include <string>
#include <vector>

BRIDGE_API_BEGIN
namespace bridge {

/// The frame images an ML pass can read (the renderer's output and denoise stages provide them).
enum class FrameImage : uint32_t { Color, Albedo, Normal, Depth, Motion };
/// Number of FrameImage values.
inline constexpr uint32_t kFrameImageCount = 5;
const char* toString(FrameImage image);  ///< "color", "albedo", ...

/// How colour values are encoded on the way between image and tensor.
enum class Encoding : uint32_t {
    Linear,  ///< values as stored in the image / tensor
    Srgb,    ///< image -> tensor: linear -> sRGB (RGB only); tensor -> image: sRGB -> linear
};

/// A run of tensor channels read from one image: tensor = encode(component) * scale + bias.
/// Depth images have one component ("r"); motion two ("rg").
struct ImageChannels {
    FrameImage image = FrameImage::Color;  ///< the source image
    std::string components = "rgb";  ///< one letter per tensor channel: r g b a (or x y z w), 1..4
    Encoding encoding = Encoding::Linear;  ///< applied before scale and bias
    float scale = 1.0f;  ///< e.g. normals [-1,1] -> [0,1]: scale 0.5, bias 0.5
    float bias = 0.0f;  ///< added after scaling
};

/// One graph input: the concatenation (along C) of its channel runs. Its tensor must be
/// [1, C, H, W] with C = the total component count and H x W = the input extent, in any layout
/// its TensorDesc strides describe (NCHW, NHWC, ...), fp32 or fp16.
struct TensorInput {
    std::string name;  ///< the graph input's name; empty: matched by position
    std::vector<ImageChannels> channels;  ///< channel runs, concatenated in order
};

/// The graph output written to the pass's output image: [1, C, H, W] with C = 1 (grey), 3 or 4
/// (alpha ignored) and H x W = the output extent. image = decode(tensor * scale + bias), alpha 1.
/// sRGB decoding clamps to [0, 1] first.
struct TensorOutput {
    std::string name;  ///< the graph output's name; empty: the graph's only output
    Encoding encoding = Encoding::Linear;  ///< applied after scale and bias
    float scale = 1.0f;  ///< multiplies the tensor values
    float bias = 0.0f;  ///< added after scaling
};

}  // namespace bridge
BRIDGE_API_END
