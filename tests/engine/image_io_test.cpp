#include "engine/error.h"
#include "engine/image_io.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace {

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("vkml_image_io_" + name)).string();
}

TEST(ImageIo, PngRoundTripsExactly) {
    engine::Image8 img{7, 5, 4, {}};
    for (uint32_t i = 0; i < 7 * 5 * 4; ++i) img.pixels.push_back(uint8_t(i * 37 + 11));
    std::string path = tempPath("roundtrip.png");
    engine::writePng(path, img);
    engine::Image8 back = engine::readPng(path);
    EXPECT_EQ(back.width, 7u);
    EXPECT_EQ(back.height, 5u);
    EXPECT_EQ(back.pixels, img.pixels);
    std::filesystem::remove(path);
}

TEST(ImageIo, NpyHeaderIsAlignedAndRoundTrips) {
    std::vector<float> data(2 * 3 * 4);
    for (size_t i = 0; i < data.size(); ++i) data[i] = float(i) * 0.25f - 1.0f;
    const uint32_t shape[] = {2, 3, 4};
    std::string path = tempPath("roundtrip.npy");
    engine::writeNpy(path, data, shape);

    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(std::string(bytes.begin() + 1, bytes.begin() + 6), "NUMPY");
    size_t headerLen = uint8_t(bytes[8]) | uint8_t(bytes[9]) << 8;
    EXPECT_EQ((10 + headerLen) % 64, 0u) << "data must start 64-byte aligned";
    EXPECT_EQ(bytes.size(), 10 + headerLen + data.size() * 4);
    std::string header(bytes.begin() + 10, bytes.begin() + 10 + long(headerLen));
    EXPECT_NE(header.find("'shape': (2, 3, 4)"), std::string::npos) << header;

    std::vector<uint32_t> readShape;
    std::vector<float> back = engine::readNpy(path, readShape);
    EXPECT_EQ(readShape, (std::vector<uint32_t>{2, 3, 4}));
    EXPECT_EQ(back, data);
    std::filesystem::remove(path);
}

TEST(ImageIo, OneDimensionalNpyShapeKeepsTrailingComma) {
    std::vector<float> data = {1, 2, 3};
    const uint32_t shape[] = {3};
    std::string path = tempPath("1d.npy");
    engine::writeNpy(path, data, shape);
    std::ifstream f(path, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(f)), {});
    EXPECT_NE(all.find("'shape': (3,)"), std::string::npos);
    std::filesystem::remove(path);
}

TEST(ImageIo, WritingIntoAMissingDirectoryIsAClearError) {
    engine::Image8 img{1, 1, 4, {0, 0, 0, 255}};
    try {
        engine::writePng("/nonexistent_dir_vkml/x.png", img);
        FAIL() << "expected engine::Error";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent_dir_vkml/x.png"), std::string::npos) << e.what();
    }
    const float v = 1.0f;
    const uint32_t shape[] = {1};
    EXPECT_THROW(engine::writeNpy("/nonexistent_dir_vkml/x.npy", {&v, 1}, shape), engine::Error);
}

TEST(ImageIo, MismatchedSizesAreRejected) {
    engine::Image8 img{4, 4, 4, std::vector<uint8_t>(10)};
    EXPECT_THROW(engine::writePng(tempPath("bad.png"), img), engine::Error);
    std::vector<float> data(5);
    const uint32_t shape[] = {2, 3};
    EXPECT_THROW(engine::writeNpy(tempPath("bad.npy"), data, shape), engine::Error);
}

TEST(ImageIo, HalfToFloatCoversNormalsSubnormalsAndSpecials) {
    EXPECT_EQ(engine::halfToFloat(0x3c00), 1.0f);
    EXPECT_EQ(engine::halfToFloat(0xc000), -2.0f);
    EXPECT_EQ(engine::halfToFloat(0x3555), 0.333251953125f);
    EXPECT_EQ(engine::halfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
    EXPECT_EQ(engine::halfToFloat(0x0000), 0.0f);
    EXPECT_TRUE(std::isinf(engine::halfToFloat(0x7c00)));
    EXPECT_TRUE(std::isnan(engine::halfToFloat(0x7e00)));
}

TEST(ImageIo, CompareImagesReportsPsnrAndMeanDifference) {
    engine::Image8 a{2, 1, 4, {10, 20, 30, 255, 40, 50, 60, 255}};
    engine::Image8 b = a;
    EXPECT_TRUE(std::isinf(engine::compareImages(a, b).psnr));
    b.pixels[0] = 18;  // one channel off by 8
    engine::ImageDiff d = engine::compareImages(a, b);
    EXPECT_DOUBLE_EQ(d.meanAbsDiff, 1.0);
    EXPECT_EQ(d.maxAbsDiff, 8);
    EXPECT_NEAR(d.psnr, 10.0 * std::log10(255.0 * 255.0 / 8.0), 1e-9);
    engine::Image8 c{1, 1, 4, {0, 0, 0, 0}};
    EXPECT_THROW(engine::compareImages(a, c), engine::Error);
}

}  // namespace
