// Fuzz target: image files the engine reads (engine/image_io.h): PNG (stb_image behind
// decodePng, 1 to 4 channels), PNG and JPEG textures (decodeImage, what the glTF loader uses)
// and float32 .npy (decodeNpy). The same bytes go to every reader; each rejects the others'
// formats at their magic. Errors must be engine::Error (no other exception type escapes);
// accepted images must be as large as they say and within the limits given.
#include "engine/error.h"
#include "engine/image_io.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Well below engine::kMaxImagePixels: the limit is checked the same way, and a 4-channel
// 16384 x 16384 decode per input would make the fuzzer crawl.
constexpr uint64_t kFuzzMaxPixels = uint64_t(1) << 22;

void fail(const char* what) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::span<const uint8_t> bytes(data, size);
    // The channel count varies with the input so that every conversion path is reached.
    uint32_t channels = size ? 1 + data[size - 1] % 4 : 4;
    try {
        engine::Image8 image = engine::decodePng(bytes, channels, "fuzz.png", kFuzzMaxPixels);
        if (image.pixels.size() != size_t(image.width) * image.height * channels) fail("PNG pixel count does not match its size");
        if (uint64_t(image.width) * image.height > kFuzzMaxPixels) fail("PNG over the pixel limit was decoded");
    } catch (const engine::Error&) {
    }
    try {
        constexpr uint32_t kMaxSide = 512;
        engine::Image8 image = engine::decodeImage(bytes, "fuzz texture", kMaxSide, kFuzzMaxPixels / 4);
        if (image.channels != 4 || image.pixels.size() != size_t(image.width) * image.height * 4) fail("texture pixel count does not match its size");
        if (image.width > kMaxSide || image.height > kMaxSide || uint64_t(image.width) * image.height > kFuzzMaxPixels / 4)
            fail("texture over the limits was decoded");
    } catch (const engine::Error&) {
    }
    try {
        std::vector<uint32_t> shape;
        std::vector<float> values = engine::decodeNpy(bytes, shape, "fuzz.npy");
        uint64_t count = 1;
        for (uint32_t d : shape) count *= d;
        if (count != values.size()) fail(".npy shape does not match its values");
    } catch (const engine::Error&) {
    }
    return 0;
}
