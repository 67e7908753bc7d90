#include "npy.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace npy {
namespace {

using mlplugin::Error;
using mlplugin::ErrorCode;

constexpr char kMagic[] = "\x93NUMPY";
constexpr uint64_t kMaxElements = uint64_t(1) << 31;

float halfToFloat(uint16_t h) {
    uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 31, mant = h & 1023;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else {  // subnormal: normalize
            int e = -1;
            do { mant <<= 1; ++e; } while (!(mant & 1024));
            bits = sign | uint32_t(127 - 15 - e) << 23 | (mant & 1023) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | mant << 13;
    } else {
        bits = sign | (exp - 15 + 127) << 23 | mant << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// The value of `key` in the header dict ("'descr': '<f4'" -> "'<f4'"), or empty.
std::string field(const std::string& header, const std::string& key) {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) return {};
    size_t colon = header.find(':', k);
    if (colon == std::string::npos) return {};
    size_t begin = header.find_first_not_of(' ', colon + 1);
    if (begin == std::string::npos) return {};
    size_t end = header[begin] == '(' ? header.find(')', begin) + 1 : header.find_first_of(",}", begin);
    if (end == std::string::npos || end == 0) return {};
    return header.substr(begin, end - begin);
}

}  // namespace

mlplugin::Result<Array> parse(std::span<const uint8_t> bytes, const std::string& what) {
    auto bad = [&](const std::string& why) { return Error{ErrorCode::InvalidArgument, what + ": " + why}; };
    if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0) return bad("not a .npy file (bad magic)");
    uint8_t major = bytes[6];
    size_t headerLen, headerStart;
    if (major == 1) {
        headerLen = bytes[8] | size_t(bytes[9]) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) return bad("truncated header");
        headerLen = bytes[8] | size_t(bytes[9]) << 8 | size_t(bytes[10]) << 16 | size_t(bytes[11]) << 24;
        headerStart = 12;
    } else {
        return bad(".npy format version " + std::to_string(major) + " is not supported (1, 2, 3 are)");
    }
    if (headerStart + headerLen > bytes.size()) return bad("truncated header");
    std::string header(bytes.begin() + long(headerStart), bytes.begin() + long(headerStart + headerLen));
    std::string descr = field(header, "descr"), fortran = field(header, "fortran_order"), shape = field(header, "shape");
    if (descr.empty() || fortran.empty() || shape.empty()) return bad("malformed header '" + header + "'");
    if (fortran != "False") return bad("Fortran-order arrays are not supported; save with np.ascontiguousarray");
    size_t elem;
    if (descr == "'<f4'" || descr == "'=f4'") elem = 4;
    else if (descr == "'<f2'" || descr == "'=f2'") elem = 2;
    else return bad("dtype " + descr + " is not supported (float32 '<f4' and float16 '<f2' are)");
    Array a;
    uint64_t count = 1;
    std::string digits;
    if (shape.front() != '(') return bad("malformed shape " + shape);
    for (char c : shape.substr(1)) {
        if (c >= '0' && c <= '9') { digits += c; continue; }
        if (c == ',' || c == ')') {
            if (digits.empty()) continue;
            if (digits.size() > 12) return bad("dim too large");
            a.shape.push_back(std::stoull(digits));
            // Checked before multiplying: a wrapped product could match the data size while the
            // shape promises far more elements than `values` holds.
            if (a.shape.back() != 0 && count > kMaxElements / a.shape.back()) return bad("too many elements in shape " + shape);
            count *= a.shape.back();
            digits.clear();
        } else if (c != ' ') {
            return bad("malformed shape " + shape);
        }
    }
    size_t dataStart = headerStart + headerLen;
    if (bytes.size() - dataStart != count * elem)
        return bad("holds " + std::to_string(bytes.size() - dataStart) + " data bytes, shape " + shape + " needs " + std::to_string(count * elem));
    a.values.resize(count);
    const uint8_t* data = bytes.data() + dataStart;
    for (uint64_t i = 0; i < count; ++i) {
        if (elem == 4) std::memcpy(&a.values[i], data + 4 * i, 4);
        else a.values[i] = halfToFloat(uint16_t(data[2 * i] | data[2 * i + 1] << 8));
    }
    return a;
}

mlplugin::Result<Array> read(const std::string& path) {
    // A device or a pipe (/dev/zero) would be read without end.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        return Error{ErrorCode::IoError, "'" + path + "' is not a regular file"};
    std::ifstream f(path, std::ios::binary);
    if (!f) return Error{ErrorCode::IoError, "cannot open '" + path + "'"};
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return parse(bytes, path);
}

mlplugin::Status write(const std::string& path, const Array& a) {
    std::string shape = "(";
    for (uint64_t d : a.shape) shape += std::to_string(d) + ",";
    if (a.shape.size() > 1) shape.pop_back();
    shape += ")";
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces so that the data starts at a multiple of 64 bytes; the header ends in '\n'.
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream f(path, std::ios::binary);
    if (!f) return Error{ErrorCode::IoError, "cannot create '" + path + "'"};
    f.write(kMagic, 6);
    char version[2] = {1, 0};
    f.write(version, 2);
    uint16_t len = uint16_t(header.size());
    char lenBytes[2] = {char(len & 0xff), char(len >> 8)};
    f.write(lenBytes, 2);
    f.write(header.data(), std::streamsize(header.size()));
    f.write(reinterpret_cast<const char*>(a.values.data()), std::streamsize(a.values.size() * 4));
    if (!f) return Error{ErrorCode::IoError, "cannot write '" + path + "'"};
    return {};
}

}  // namespace npy
