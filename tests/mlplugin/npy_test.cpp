// The .npy reader/writer mlrun uses: versions 1 and 2, '<f4' and '<f2', and clear rejections.
#include "npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace {

std::vector<uint8_t> npyBytes(uint8_t major, const std::string& dict, const std::vector<uint8_t>& data) {
    std::string header = dict;
    size_t prefix = major == 1 ? 10 : 12;
    header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
    uint32_t len = uint32_t(header.size());
    b.push_back(uint8_t(len));
    b.push_back(uint8_t(len >> 8));
    if (major != 1) {
        b.push_back(uint8_t(len >> 16));
        b.push_back(uint8_t(len >> 24));
    }
    b.insert(b.end(), header.begin(), header.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

std::vector<uint8_t> floatBytes(std::vector<float> v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

TEST(Npy, ReadsVersion1Float32) {
    auto a = npy::parse(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", floatBytes({1, 2, 3, 4, 5, 6})), "t");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->shape, (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(a->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(Npy, ReadsVersion2Float16AndScalars) {
    // 1.0, -2.0, 0.5 as IEEE halves
    std::vector<uint8_t> halves = {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38};
    auto a = npy::parse(npyBytes(2, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", halves), "t");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->values, (std::vector<float>{1.0f, -2.0f, 0.5f}));
    auto s = npy::parse(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", floatBytes({7})), "t");
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_TRUE(s->shape.empty());
    EXPECT_EQ(s->values, (std::vector<float>{7}));
}

TEST(Npy, RejectsWithClearMessages) {
    auto expectError = [](const std::vector<uint8_t>& bytes, const std::string& mention) {
        auto a = npy::parse(bytes, "file.npy");
        ASSERT_FALSE(a.ok());
        EXPECT_NE(a.error().message.find(mention), std::string::npos) << a.error().message;
        EXPECT_NE(a.error().message.find("file.npy"), std::string::npos) << a.error().message;
    };
    expectError(npyBytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", floatBytes({1, 2, 3, 4})), "Fortran-order");
    expectError(npyBytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", floatBytes({1, 2})), "dtype '<f8'");
    expectError(npyBytes(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", floatBytes({1})), "dtype '>f4'");
    expectError(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", floatBytes({1, 2, 3})), "needs 16");
    expectError(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999, 99999999), }", {}), "dim too large");
    expectError(npyBytes(1, "{'descr': '<f4'}", {}), "malformed header");
    expectError({'x', 'y', 'z'}, "bad magic");
    std::vector<uint8_t> truncated = npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floatBytes({1}));
    truncated.resize(20);
    expectError(truncated, "truncated header");
}

TEST(Npy, ShapeWhoseProductWrapsIsRejected) {
    // 2^31 * 2^33 wraps to 0 in 64 bits: without the overflow check an empty payload "matched"
    // a shape promising 2^64 elements, and consumers trusting the shape read past `values`.
    auto a = npy::parse(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, 8589934592), }", {}), "wrap.npy");
    ASSERT_FALSE(a.ok());
    EXPECT_NE(a.error().message.find("too many elements"), std::string::npos) << a.error().message;
    // A shape that is not a tuple is malformed, not a scalar.
    auto b = npy::parse(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': 5, }", floatBytes({1})), "t.npy");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("malformed shape"), std::string::npos) << b.error().message;
}

TEST(Npy, WriteReadRoundTrip) {
    npy::Array a{{2, 1, 3}, {0.5f, -1.0f, 3.25f, 4.0f, 5.0f, 6.0f}};
    std::string path = (std::filesystem::temp_directory_path() / "mlplugin_npy_roundtrip.npy").string();
    ASSERT_TRUE(npy::write(path, a).ok());
    auto b = npy::read(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b->shape, a.shape);
    EXPECT_EQ(b->values, a.values);
    EXPECT_FALSE(npy::write("/nonexistent/dir/x.npy", a).ok());
}

TEST(Npy, DevicesAndDirectoriesAreNotRead) {  // /dev/zero would be read without end
    for (const std::string& path : {std::string("/dev/zero"), std::filesystem::temp_directory_path().string()}) {
        auto r = npy::read(path);
        ASSERT_FALSE(r.ok()) << path;
        EXPECT_EQ(r.error().message, "'" + path + "' is not a regular file");
    }
}

}  // namespace
