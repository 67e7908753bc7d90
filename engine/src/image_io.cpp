#include "engine/image_io.h"

#include "engine/error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>

// stb's implementation is compiled in stb_image_impl.cpp.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
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

namespace {

std::vector<uint8_t> readFile(const std::string& path) {
    // A device or a pipe (/dev/zero) would be read without end.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw Error(ErrorCode::IoError, "'" + path + "' is not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::IoError, "cannot open '" + path + "' for reading");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(ErrorCode::IoError, "failed while reading '" + path + "'");
    return bytes;
}

// stb_image trusts PNG chunk lengths: it grows its compressed-data buffer to an IDAT chunk's
// declared length before checking that the bytes exist (a 100-byte file asked for 2 GiB), and it
// copies an empty first IDAT chunk into a null buffer (undefined behaviour). Walking the chunks
// first turns both into errors; everything else is left to stb. Returns the problem, or "".
std::string pngChunkProblem(std::span<const uint8_t> bytes) {
    static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0) return "not a PNG file";
    bool sawData = false;
    for (size_t pos = 8; bytes.size() - pos >= 8;) {  // length, type, data, CRC
        const uint8_t* c = bytes.data() + pos;
        uint32_t length = uint32_t(c[0]) << 24 | uint32_t(c[1]) << 16 | uint32_t(c[2]) << 8 | c[3];
        std::string type(reinterpret_cast<const char*>(c + 4), 4);
        // A chunk header with no room for its CRC: stb reads the header and acts on it (an empty
        // IDAT there was the null-buffer copy again, found by the long fuzz_image_io run). Only
        // IEND, which stb reads no further than its type, may end the file like that.
        if (bytes.size() - pos < 12) {
            if (type == "IEND") break;
            return "the file ends inside the " + type + " chunk at byte " + std::to_string(pos);
        }
        if (length > bytes.size() - pos - 12)
            return "the chunk at byte " + std::to_string(pos) + " declares " + std::to_string(length) + " bytes of data, the file has " +
                   std::to_string(bytes.size() - pos - 12) + " left";
        if (type == "IDAT") {
            if (length == 0 && !sawData) return "its first IDAT chunk is empty";
            sawData = true;
        }
        if (type == "IEND") break;
        pos += 12 + size_t(length);
    }
    return "";
}

// stb_image (Debian 12's libstb-dev) builds a JPEG Huffman table from a DHT segment's 16 code
// counts without checking that they add up to at most 256: a larger sum writes past the table's
// 257-entry size array and 256-entry value array (later stb releases check it). Walking the
// markers as stb does, each table is checked first; stb reads a table's 17 header bytes and its
// values even past the end of the segment, and so does this walk. A scan (SOS) that selects a
// Huffman table no DHT segment defined makes stb decode with an uninitialized table, whose
// symbol index can land outside its value array (fuzz_image_io, UBSan); such scans are refused
// too. Returns the problem, or "".
std::string jpegSegmentProblem(std::span<const uint8_t> bytes) {
    bool defined[2][4] = {};  // [DC, AC][table id]: set by DHT segments, in file order
    bool progressive = false;  // SOF2: a scan decodes DC or AC coefficients, by its Ss and Se
    for (size_t pos = 2; pos + 4 <= bytes.size();) {  // after SOI
        if (bytes[pos] != 0xff) { ++pos; continue; }  // entropy-coded data, padding
        uint8_t marker = bytes[pos + 1];
        if (marker == 0xff) { ++pos; continue; }      // fill byte
        // Stuffed 0xff, RSTn, TEM and SOI carry no length.
        if (marker == 0x00 || marker == 0x01 || marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) { pos += 2; continue; }
        if (marker == 0xd9) break;  // EOI
        size_t length = size_t(bytes[pos + 2]) << 8 | bytes[pos + 3];
        if (length < 2) break;  // stb stops with its own error
        if (marker == 0xc4) {
            // DHT: tables of (class << 4 | id, 16 counts, the values). A segment may claim more
            // bytes than the file has: stb reads on, taking 0 past the end.
            int64_t left = int64_t(length) - 2;
            for (size_t p = pos + 4; left > 0 && p < bytes.size();) {
                if ((bytes[p] >> 4) > 1 || (bytes[p] & 15) > 3) break;  // stb: "bad DHT header"
                size_t codes = 0;
                for (size_t i = 1; i <= 16 && p + i < bytes.size(); ++i) codes += bytes[p + i];
                if (codes > 256)
                    return "the JPEG Huffman table at byte " + std::to_string(p) + " declares " + std::to_string(codes) + " codes, more than 256";
                defined[bytes[p] >> 4][bytes[p] & 15] = true;
                p += 17 + codes;
                left -= int64_t(17 + codes);
            }
        }
        if (marker == 0xc2) progressive = true;
        if (marker == 0xda && pos + 5 <= bytes.size()) {
            // SOS: Ns, then (component, DC table << 4 | AC table) per component, then Ss, Se,
            // Ah/Al. A sequential frame's scans decode whole blocks with both tables whatever Ss
            // and Se say; a progressive scan decodes DC coefficients (Ss = 0) with the DC table
            // and AC ones (Se > 0) with the AC table. Out-of-range selectors and short headers
            // are stb's own errors.
            const size_t count = bytes[pos + 4], spectral = pos + 5 + 2 * count;
            if (spectral + 2 > bytes.size()) break;
            const uint8_t ss = progressive ? bytes[spectral] : 0, se = progressive ? bytes[spectral + 1] : 63;
            for (size_t c = 0; c < count; ++c) {
                const uint8_t dc = bytes[pos + 6 + 2 * c] >> 4, ac = bytes[pos + 6 + 2 * c] & 15;
                if (dc > 3 || ac > 3) continue;
                if ((ss == 0 && !defined[0][dc]) || (se > 0 && !defined[1][ac]))
                    return "the JPEG scan at byte " + std::to_string(pos) + " decodes with " + (ss == 0 && !defined[0][dc] ? "DC" : "AC") +
                           " Huffman table " + std::to_string(ss == 0 && !defined[0][dc] ? dc : ac) + ", which no DHT segment before it defines";
            }
        }
        pos += 2 + length;
    }
    return "";
}

}  // namespace

Image8 decodePng(std::span<const uint8_t> bytes, uint32_t channels, const std::string& what, uint64_t maxPixels) {
    if (channels < 1 || channels > 4) throw Error("cannot read PNG '" + what + "': channels must be 1..4, not " + std::to_string(channels));
    if (bytes.size() > size_t(std::numeric_limits<int>::max()))
        throw Error("cannot read PNG '" + what + "': " + std::to_string(bytes.size()) + " bytes is more than the decoder takes (2 GiB)");
    if (std::string problem = pngChunkProblem(bytes); !problem.empty()) throw Error("cannot read PNG '" + what + "': " + problem);
    int len = int(bytes.size());
    int w = 0, h = 0, n = 0;
    // The header first: the decoder allocates width x height before it checks the pixel data.
    if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &n))
        throw Error("cannot read PNG '" + what + "': " + stbi_failure_reason());
    if (uint64_t(w) * uint64_t(h) > maxPixels)
        throw Error("cannot read PNG '" + what + "': its header says " + std::to_string(w) + "x" + std::to_string(h) +
                    " pixels, more than the limit of " + std::to_string(maxPixels));
    std::unique_ptr<uint8_t, void (*)(void*)> data(stbi_load_from_memory(bytes.data(), len, &w, &h, &n, int(channels)), stbi_image_free);
    if (!data) throw Error("cannot read PNG '" + what + "': " + stbi_failure_reason());
    Image8 img{uint32_t(w), uint32_t(h), channels, {}};
    img.pixels.assign(data.get(), data.get() + size_t(w) * size_t(h) * channels);
    return img;
}

Image8 readPng(const std::string& path, uint32_t channels) { return decodePng(readFile(path), channels, path); }

ImageFormat sniffImageFormat(std::span<const uint8_t> bytes) {
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), png, 8) == 0) return ImageFormat::Png;
    if (bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff) return ImageFormat::Jpeg;
    return ImageFormat::Unknown;
}

Image8 decodeImage(std::span<const uint8_t> bytes, const std::string& what, uint32_t maxSize, uint64_t maxTexels) {
    if (sniffImageFormat(bytes) == ImageFormat::Unknown) throw Error(what + ": not a PNG or JPEG image");
    if (bytes.size() > uint64_t(std::numeric_limits<int>::max())) throw Error(what + ": the image has more than 2 GiB of data");
    std::string problem = sniffImageFormat(bytes) == ImageFormat::Png ? pngChunkProblem(bytes) : jpegSegmentProblem(bytes);
    if (!problem.empty()) throw Error(what + ": cannot decode the image: " + problem);
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

std::vector<float> decodeNpy(std::span<const uint8_t> bytes, std::vector<uint32_t>& shape, const std::string& what) {
    auto bad = [&](const std::string& why) { return Error(ErrorCode::InvalidModel, "'" + what + "': " + why); };
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) throw bad("not a .npy file");
    // Version 1 has a 2-byte header length, versions 2 and 3 a 4-byte one (little-endian).
    uint8_t major = bytes[6];
    if (major < 1 || major > 3) throw bad(".npy format version " + std::to_string(major) + " is not supported (1, 2, 3 are)");
    size_t lenSize = major == 1 ? 2 : 4, headerStart = 8 + lenSize;
    if (bytes.size() < headerStart) throw bad("truncated .npy header");
    uint64_t len = 0;
    for (size_t i = lenSize; i-- > 0;) len = (len << 8) | bytes[8 + i];
    if (len > bytes.size() - headerStart) throw bad("truncated .npy header");
    std::string header(bytes.begin() + long(headerStart), bytes.begin() + long(headerStart + len));
    if (header.find("'<f4'") == std::string::npos) throw bad("only little-endian float32 .npy is supported");
    if (header.find("'fortran_order': False") == std::string::npos) throw bad("Fortran order is not supported");
    size_t key = header.find("'shape'");
    size_t open = header.find('(', key == std::string::npos ? 0 : key), close = header.find(')', open == std::string::npos ? 0 : open);
    if (key == std::string::npos || open == std::string::npos || close == std::string::npos) throw bad("no shape in .npy header");
    shape.clear();
    uint64_t count = 1;
    for (size_t p = open + 1; p < close;) {
        while (p < close && (header[p] == ' ' || header[p] == ',')) ++p;
        if (p >= close) break;
        uint64_t dim = 0;
        size_t end = p;
        for (; end < close && std::isdigit(static_cast<unsigned char>(header[end])); ++end) {
            dim = dim * 10 + uint64_t(header[end] - '0');
            if (dim > std::numeric_limits<uint32_t>::max()) throw bad("dimension " + std::to_string(shape.size()) + " is too large");
        }
        if (end == p) throw bad("malformed shape in .npy header");
        shape.push_back(uint32_t(dim));
        // Bounded by the bytes actually present, so the product cannot overflow either.
        count *= dim;
        if (count > bytes.size()) break;
        p = end;
    }
    uint64_t dataBytes = bytes.size() - headerStart - len;
    if (count > dataBytes / sizeof(float) || count * sizeof(float) != dataBytes)
        throw bad("holds " + std::to_string(dataBytes) + " data bytes, but its shape needs " +
                  (count > bytes.size() ? std::string("more") : std::to_string(count * sizeof(float))));
    std::vector<float> data(count);
    if (count) std::memcpy(data.data(), bytes.data() + headerStart + len, count * sizeof(float));
    return data;
}

std::vector<float> readNpy(const std::string& path, std::vector<uint32_t>& shape) { return decodeNpy(readFile(path), shape, path); }

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
