#include "engine/error.h"
#include "engine/image_io.h"
#include "gltf_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

// Per process: ctest runs each test in its own process, several at once, and two tests writing
// and removing one shared file raced (CI: "no IHDR chunk" from a file removed mid-read).
std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("vkml_image_io_" + std::to_string(::getpid()) + "_" + name)).string();
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

TEST(ImageIo, DevicesAreNotRead) {  // /dev/zero would be read without end
    try {
        engine::readPng("/dev/zero");
        FAIL() << "expected engine::Error";
    } catch (const engine::Error& e) {
        EXPECT_EQ(e.code(), engine::ErrorCode::IoError);
        EXPECT_NE(std::string(e.what()).find("'/dev/zero' is not a regular file"), std::string::npos) << e.what();
    }
}

TEST(ImageIo, MismatchedSizesAreRejected) {
    engine::Image8 img{4, 4, 4, std::vector<uint8_t>(10)};
    EXPECT_THROW(engine::writePng(tempPath("bad.png"), img), engine::Error);
    std::vector<float> data(5);
    const uint32_t shape[] = {2, 3};
    EXPECT_THROW(engine::writeNpy(tempPath("bad.npy"), data, shape), engine::Error);
}

// --- hostile files (found by fuzz_image_io, fuzz/): clear errors, no huge allocations

std::vector<uint8_t> readBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

// A valid 3x2 RGBA PNG written by writePng, as bytes.
std::vector<uint8_t> smallPng() {
    engine::Image8 img{3, 2, 4, std::vector<uint8_t>(3 * 2 * 4, 128)};
    std::string path = tempPath("small.png");
    engine::writePng(path, img);
    std::vector<uint8_t> bytes = readBytes(path);
    std::filesystem::remove(path);
    return bytes;
}

// Byte offset of the first chunk of `type` (its length field).
size_t chunkOffset(const std::vector<uint8_t>& png, const char* type) {
    for (size_t pos = 8; pos + 8 <= png.size();) {
        uint32_t len = uint32_t(png[pos]) << 24 | uint32_t(png[pos + 1]) << 16 | uint32_t(png[pos + 2]) << 8 | png[pos + 3];
        if (std::memcmp(&png[pos + 4], type, 4) == 0) return pos;
        pos += 12 + len;
    }
    ADD_FAILURE() << "no " << type << " chunk";
    return 0;
}

void putBe32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (24 - 8 * i));
}

std::string pngError(const std::vector<uint8_t>& bytes, uint32_t channels = 4, uint64_t maxPixels = engine::kMaxImagePixels) {
    try {
        engine::decodePng(bytes, channels, "hostile.png", maxPixels);
    } catch (const engine::Error& e) {
        return e.what();
    }
    return "";
}

TEST(ImageIo, DecodesPngFromMemory) {
    engine::Image8 img = engine::decodePng(smallPng(), 3, "small.png");
    EXPECT_EQ(img.width, 3u);
    EXPECT_EQ(img.height, 2u);
    EXPECT_EQ(img.pixels, std::vector<uint8_t>(3 * 2 * 3, 128));
}

TEST(ImageIo, PngChunkLengthPastTheEndIsAnErrorNotAnAllocation) {
    // stb_image grew its buffer to the declared IDAT length (2 GiB here) before reading it.
    std::vector<uint8_t> png = smallPng();
    putBe32(png, chunkOffset(png, "IDAT"), 0x7fffffffu);
    std::string error = pngError(png);
    EXPECT_NE(error.find("declares 2147483647 bytes"), std::string::npos) << error;
    EXPECT_NE(error.find("hostile.png"), std::string::npos) << error;
}

TEST(ImageIo, PngWithAnEmptyFirstIdatIsRejected) {
    // stb_image copied the empty chunk into a null buffer (undefined behaviour).
    std::vector<uint8_t> png = smallPng();
    size_t at = chunkOffset(png, "IDAT");
    const uint8_t empty[12] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0, 0, 0, 0};
    png.insert(png.begin() + long(at), empty, empty + 12);
    EXPECT_NE(pngError(png).find("first IDAT chunk is empty"), std::string::npos) << pngError(png);
}

TEST(ImageIo, PngEndingInsideAChunkHeaderIsRejected) {
    // An empty IDAT header with no CRC after it: stb read the header and copied into a null
    // buffer; a chunk cut off after its header is an error (an IEND without its CRC is accepted).
    std::vector<uint8_t> png = smallPng();
    size_t at = chunkOffset(png, "IDAT");
    png.resize(at);
    const uint8_t header[9] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0};
    png.insert(png.end(), header, header + 9);
    EXPECT_NE(pngError(png).find("hostile.png': the file ends inside the IDAT chunk at byte " + std::to_string(at)), std::string::npos)
        << pngError(png);
    std::vector<uint8_t> noIendCrc = smallPng();
    noIendCrc.resize(noIendCrc.size() - 4);
    EXPECT_EQ(engine::decodePng(noIendCrc, 3, "no_iend_crc.png").width, 3u);
}

TEST(ImageIo, PngLargerThanThePixelLimitIsRejectedBeforeDecoding) {
    std::vector<uint8_t> png = smallPng();
    size_t ihdr = chunkOffset(png, "IHDR");
    putBe32(png, ihdr + 8, 20000);   // width
    putBe32(png, ihdr + 12, 20000);  // height: 400 M pixels, 1.6 GB as RGBA
    png[ihdr + 17] = 0;              // grayscale: within stb_image's own 2^30-byte limit
    std::string error = pngError(png);
    EXPECT_NE(error.find("20000x20000"), std::string::npos) << error;
    EXPECT_NE(error.find("limit"), std::string::npos) << error;
    EXPECT_NE(pngError(smallPng(), 4, 5).find("3x2 pixels, more than the limit of 5"), std::string::npos);
}

TEST(ImageIo, PngChannelCountOutOfRangeIsAnError) {
    // stb_image asserts (aborts) on a requested channel count outside 1..4.
    EXPECT_NE(pngError(smallPng(), 0).find("channels must be 1..4"), std::string::npos);
    EXPECT_NE(pngError(smallPng(), 5).find("channels must be 1..4"), std::string::npos);
    EXPECT_NE(pngError({'n', 'o', 't'}).find("not a PNG file"), std::string::npos);
}

// decodeImage's error for `bytes` (named `name`), or "accepted".
std::string imageError(const std::vector<uint8_t>& bytes, const std::string& name) {
    try {
        engine::decodeImage(bytes, name, 16, 256);
    } catch (const engine::Error& e) {
        return e.what();
    }
    return "accepted";
}

// The offset of the first JPEG marker 0xff `marker` after SOI, or 0.
size_t findMarker(const std::vector<uint8_t>& jpeg, uint8_t marker) {
    for (size_t i = 2; i + 1 < jpeg.size(); ++i)
        if (jpeg[i] == 0xff && jpeg[i + 1] == marker) return i;
    return 0;
}

TEST(ImageIo, JpegScanWithAnUndefinedHuffmanTableIsRejected) {
    // stb_image decoded such a scan with an uninitialized table (found by fuzz_image_io: a
    // progressive AC scan selecting an AC table the file never defined).
    std::vector<uint8_t> jpeg = testsupport::encodeJpeg(4, 4, std::vector<uint8_t>(4 * 4 * 4, 90));
    ASSERT_EQ(engine::decodeImage(jpeg, "ok.jpg", 16, 256).width, 4u);
    const size_t sos = findMarker(jpeg, 0xda);
    ASSERT_NE(sos, 0u);
    // A sequential scan that claims Se = 0 still decodes whole blocks with its AC table.
    std::vector<uint8_t> dcOnly = jpeg;
    const size_t spectral = sos + 5 + 2 * size_t(jpeg[sos + 4]);
    dcOnly[spectral + 1] = 0;
    dcOnly[sos + 6] = uint8_t((dcOnly[sos + 6] & 0xf0) | 3);
    EXPECT_NE(imageError(dcOnly, "dc_only.jpg").find("decodes with AC Huffman table 3"), std::string::npos) << imageError(dcOnly, "dc_only.jpg");
    for (int which : {0, 1}) {  // the first component's DC table, then its AC table -> 3 (never defined)
        std::vector<uint8_t> bad = jpeg;
        bad[sos + 6] = which == 0 ? uint8_t(0x30 | (bad[sos + 6] & 15)) : uint8_t((bad[sos + 6] & 0xf0) | 3);
        EXPECT_EQ(imageError(bad, "bad.jpg"), std::string("bad.jpg: cannot decode the image: the JPEG scan at byte ") + std::to_string(sos) +
                                                  " decodes with " + (which == 0 ? "DC" : "AC") +
                                                  " Huffman table 3, which no DHT segment before it defines");
    }
}

TEST(ImageIo, JpegHuffmanTableWithMoreThan256CodesIsRejected) {
    // stb_image wrote a DHT table's code sizes past its 257-entry array (found by fuzz_image_io
    // and fuzz_gltf through glTF textures).
    std::vector<uint8_t> jpeg = testsupport::encodeJpeg(4, 4, std::vector<uint8_t>(4 * 4 * 4, 200));
    EXPECT_EQ(engine::decodeImage(jpeg, "ok.jpg", 16, 256).width, 4u);
    const size_t dht = findMarker(jpeg, 0xc4);
    ASSERT_NE(dht, 0u) << "no DHT segment";
    for (size_t i = 0; i < 16; ++i) jpeg[dht + 5 + i] = 20;  // 16 x 20 = 320 codes in the first table
    const std::string error = imageError(jpeg, "hostile.jpg");
    EXPECT_NE(error.find("hostile.jpg: cannot decode the image: the JPEG Huffman table at byte"), std::string::npos) << error;
    EXPECT_NE(error.find("declares 320 codes, more than 256"), std::string::npos) << error;
    // The same table in a segment that claims more bytes than the file has left: stb reads on.
    std::vector<uint8_t> truncated(jpeg.begin(), jpeg.begin() + long(dht + 5 + 16));
    EXPECT_NE(imageError(truncated, "truncated.jpg").find("declares 320 codes, more than 256"), std::string::npos)
        << imageError(truncated, "truncated.jpg");
}

std::vector<uint8_t> npyBytes(const std::string& dict, size_t dataBytes, uint8_t major = 1) {
    std::string header = dict + "\n";
    std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0, uint8_t(header.size()), uint8_t(header.size() >> 8)};
    if (major != 1) {  // 4-byte header length
        b.push_back(0);
        b.push_back(0);
    }
    b.insert(b.end(), header.begin(), header.end());
    b.resize(b.size() + dataBytes, 0);
    return b;
}

std::string npyError(const std::vector<uint8_t>& bytes) {
    std::vector<uint32_t> shape;
    try {
        engine::decodeNpy(bytes, shape, "hostile.npy");
    } catch (const engine::Error& e) {
        return e.what();
    }
    return "";
}

TEST(ImageIo, NpyShapesThatLieAreErrorsNotAllocations) {
    const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
    // The old reader allocated the shape's element count before reading (4 G floats here) and
    // let std::stoul throw std::out_of_range for a dim past 32 bits.
    EXPECT_NE(npyError(npyBytes(f4 + "(65536, 65536), }", 16)).find("needs more"), std::string::npos);
    EXPECT_NE(npyError(npyBytes(f4 + "(99999999999999999999,), }", 16)).find("too large"), std::string::npos);
    EXPECT_NE(npyError(npyBytes(f4 + "(2, 2), }", 12)).find("holds 12 data bytes, but its shape needs 16"), std::string::npos);
    EXPECT_NE(npyError(npyBytes(f4 + "(4,), }", 20)).find("holds 20 data bytes"), std::string::npos);
    EXPECT_NE(npyError(npyBytes("{'descr': '<f4', 'fortran_order': False}", 4)).find("no shape"), std::string::npos);
    EXPECT_NE(npyError(npyBytes(f4 + "(1,), }", 4, 9)).find("version 9"), std::string::npos);
    std::vector<uint8_t> truncated = npyBytes(f4 + "(1,), }", 4);
    truncated.resize(20);
    EXPECT_NE(npyError(truncated).find("truncated"), std::string::npos);
    std::vector<uint32_t> shape;
    EXPECT_EQ(engine::decodeNpy(npyBytes(f4 + "(2, 1), }", 8, 2), shape, "v2.npy"), std::vector<float>(2, 0.0f));
    EXPECT_EQ(shape, (std::vector<uint32_t>{2, 1}));
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
