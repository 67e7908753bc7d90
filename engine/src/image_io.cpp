#include "engine/image_io.h"

#include "engine/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG  // glTF base colour textures
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb_image.h>
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace engine {

void writePng(const std::string& path, const Image8& image) {
    if (image.channels < 1 || image.channels > 4) throw Error("writePng " + path + ": channels must be 1..4");
    if (image.pixels.size() != size_t(image.width) * image.height * image.channels)
        throw Error("writePng " + path + ": pixel buffer size does not match " + std::to_string(image.width) + "x" +
                    std::to_string(image.height) + "x" + std::to_string(image.channels));
    int stride = int(image.width * image.channels);
    if (!stbi_write_png(path.c_str(), int(image.width), int(image.height), int(image.channels), image.pixels.data(), stride))
        throw Error(ErrorCode::IoError, "cannot write PNG file '" + path + "' (directory missing or not writable?)");
}

Image8 readPng(const std::string& path, uint32_t channels) {
    int w = 0, h = 0, n = 0;
    std::unique_ptr<uint8_t, void (*)(void*)> data(stbi_load(path.c_str(), &w, &h, &n, int(channels)), stbi_image_free);
    if (!data) throw Error(ErrorCode::IoError, "cannot read PNG file '" + path + "': " + stbi_failure_reason());
    Image8 img{uint32_t(w), uint32_t(h), channels, {}};
    img.pixels.assign(data.get(), data.get() + size_t(w) * h * channels);
    return img;
}

ImageFormat sniffImageFormat(std::span<const uint8_t> bytes) {
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), png, 8) == 0) return ImageFormat::Png;
    if (bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff) return ImageFormat::Jpeg;
    return ImageFormat::Unknown;
}

Image8 decodeImage(std::span<const uint8_t> bytes, const std::string& what, uint32_t maxSize, uint64_t maxTexels) {
    if (sniffImageFormat(bytes) == ImageFormat::Unknown) throw Error(what + ": not a PNG or JPEG image");
    if (bytes.size() > uint64_t(std::numeric_limits<int>::max())) throw Error(what + ": the image has more than 2 GiB of data");
    int w = 0, h = 0, n = 0;
    // The header alone first: a lying size must not become a huge allocation.
    if (!stbi_info_from_memory(bytes.data(), int(bytes.size()), &w, &h, &n))
        throw Error(what + ": cannot read the image header: " + stbi_failure_reason());
    if (w < 1 || h < 1 || uint32_t(w) > maxSize || uint32_t(h) > maxSize)
        throw Error(what + ": the image is " + std::to_string(w) + "x" + std::to_string(h) + ", outside 1.." + std::to_string(maxSize) +
                    " texels per side");
    if (uint64_t(w) * uint64_t(h) > maxTexels)
        throw Error(what + ": the image's " + std::to_string(uint64_t(w) * uint64_t(h)) + " texels exceed the remaining budget of " +
                    std::to_string(maxTexels));
    int dw = 0, dh = 0;
    std::unique_ptr<uint8_t, void (*)(void*)> data(stbi_load_from_memory(bytes.data(), int(bytes.size()), &dw, &dh, &n, 4), stbi_image_free);
    if (!data) throw Error(what + ": cannot decode the image: " + stbi_failure_reason());
    if (dw != w || dh != h) throw Error(what + ": the decoded size differs from the header's");
    Image8 img{uint32_t(w), uint32_t(h), 4, {}};
    img.pixels.assign(data.get(), data.get() + size_t(w) * size_t(h) * 4);
    return img;
}

void writeNpy(const std::string& path, std::span<const float> data, std::span<const uint32_t> shape) {
    size_t count = 1;
    std::string dims;
    for (uint32_t d : shape) {
        count *= d;
        dims += std::to_string(d) + ", ";
    }
    // Python tuple syntax: "(3,)" keeps its comma, "(2, 3)" does not.
    if (shape.size() == 1) dims.resize(dims.size() - 1);
    else if (shape.size() > 1) dims.resize(dims.size() - 2);
    if (count != data.size())
        throw Error("writeNpy " + path + ": " + std::to_string(data.size()) + " values do not fill shape (" + dims + ")");
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + header length (2) + header, padded with spaces and ended by
    // '\n' so the data starts on a 64-byte boundary (the v1 format's alignment rule).
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(ErrorCode::IoError, "cannot open '" + path + "' for writing (directory missing or not writable?)");
    const char magic[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    uint16_t len = uint16_t(header.size());
    out.write(magic, 8);
    out.put(char(len & 0xff)).put(char(len >> 8));
    out.write(header.data(), std::streamsize(header.size()));
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size_bytes()));
    if (!out) throw Error(ErrorCode::IoError, "failed while writing '" + path + "' (disk full?)");
}

std::vector<float> readNpy(const std::string& path, std::vector<uint32_t>& shape) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::IoError, "cannot open '" + path + "' for reading");
    char magic[8];
    if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) throw Error(ErrorCode::InvalidModel, "'" + path + "' is not a .npy file");
    uint32_t len = 0;
    unsigned char lenBytes[4] = {};
    int lenSize = magic[6] == 1 ? 2 : 4;
    in.read(reinterpret_cast<char*>(lenBytes), lenSize);
    for (int i = lenSize - 1; i >= 0; --i) len = (len << 8) | lenBytes[i];
    std::string header(len, '\0');
    if (!in.read(header.data(), len)) throw Error(ErrorCode::InvalidModel, "'" + path + "': truncated .npy header");
    if (header.find("'<f4'") == std::string::npos) throw Error(ErrorCode::Unsupported, "'" + path + "': only little-endian float32 .npy is supported");
    if (header.find("'fortran_order': False") == std::string::npos) throw Error(ErrorCode::Unsupported, "'" + path + "': Fortran order is not supported");
    size_t open = header.find('('), close = header.find(')');
    if (open == std::string::npos || close == std::string::npos) throw Error(ErrorCode::InvalidModel, "'" + path + "': no shape in .npy header");
    shape.clear();
    size_t count = 1;
    for (size_t p = open + 1; p < close;) {
        while (p < close && (header[p] == ' ' || header[p] == ',')) ++p;
        if (p >= close) break;
        size_t end = p;
        while (end < close && std::isdigit(static_cast<unsigned char>(header[end]))) ++end;
        if (end == p) throw Error(ErrorCode::InvalidModel, "'" + path + "': malformed shape in .npy header");
        shape.push_back(uint32_t(std::stoul(header.substr(p, end - p))));
        count *= shape.back();
        p = end;
    }
    std::vector<float> data(count);
    if (!in.read(reinterpret_cast<char*>(data.data()), std::streamsize(count * sizeof(float))))
        throw Error(ErrorCode::InvalidModel, "'" + path + "': file shorter than its shape says");
    return data;
}

float halfToFloat(uint16_t h) {
    uint32_t sign = uint32_t(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: renormalize
            int e = -1;
            do { ++e; mant <<= 1; } while (!(mant & 0x400));
            bits = sign | uint32_t(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | mant << 13;
    } else {
        bits = sign | (exp + 127 - 15) << 23 | mant << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

ImageDiff compareImages(const Image8& a, const Image8& b) {
    if (a.width != b.width || a.height != b.height || a.channels != b.channels)
        throw Error("compareImages: sizes differ (" + std::to_string(a.width) + "x" + std::to_string(a.height) + " vs " +
                    std::to_string(b.width) + "x" + std::to_string(b.height) + ")");
    ImageDiff d;
    double sumAbs = 0, sumSq = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        int diff = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
        sumAbs += diff;
        sumSq += double(diff) * diff;
        d.maxAbsDiff = std::max<uint8_t>(d.maxAbsDiff, uint8_t(diff));
    }
    double n = double(std::max<size_t>(a.pixels.size(), 1));
    d.meanAbsDiff = sumAbs / n;
    double mse = sumSq / n;
    d.psnr = mse == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(255.0 * 255.0 / mse);
    return d;
}

}  // namespace engine
