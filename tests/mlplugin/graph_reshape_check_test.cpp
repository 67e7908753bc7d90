// reshapeGraph's decisions without a GPU: when two compilations' persistent resources hold the
// same bytes, and which reason is given when they do not.
#include "graph/graph_reshape.h"

#include <gtest/gtest.h>

using namespace mlplugin;
using namespace mlplugin::detail;

namespace {

PersistentLayout layout() {
    PersistentLayout p;
    p.bytes = 4096;
    p.blobBytes = 1024;
    p.blobHash = 0x1234;
    p.setCount = 2;
    RecordedLaunch pack;
    pack.pipeline = reinterpret_cast<VkPipeline>(uintptr_t(0x100));
    pack.set = 0;
    pack.groups = {4, 1, 1};
    pack.pushWords = 1;
    pack.push[0] = 7;
    p.launches = {pack, pack};
    p.launches[1].set = 1;
    p.inputTargets = {{}, {{0, 1, 0, 512}, {1, 0, 512, 256}}};
    p.persistentTargets = {{0, 14, 0, 2048}, {1, 14, 2048, 2048}};
    return p;
}

TEST(PersistentLayout, SameBytesWhenEverythingMatches) { EXPECT_EQ(persistentDifference(layout(), layout()), ""); }

TEST(PersistentLayout, PushConstantsBeyondTheUsedWordsDoNotMatter) {
    PersistentLayout b = layout();
    b.launches[0].push[5] = 99;  // not among pushWords
    EXPECT_EQ(persistentDifference(layout(), b), "");
}

TEST(PersistentLayout, EachDifferenceIsReported) {
    PersistentLayout b = layout();
    b.bytes = 8192;
    EXPECT_EQ(persistentDifference(layout(), b), "the persistent resource is 8192 bytes at these extents, 4096 before");
    b = layout();
    b.blobHash = 0x4321;
    EXPECT_EQ(persistentDifference(layout(), b), "constants differ at these extents");
    const std::string kernel = "a kernel chosen at these extents lays out its weights differently";
    b = layout();
    b.launches[1].pipeline = reinterpret_cast<VkPipeline>(uintptr_t(0x200));  // another packing shader
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
    b = layout();
    b.launches[0].groups = {8, 1, 1};
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
    b = layout();
    b.launches[0].push[0] = 8;
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
    b = layout();
    b.launches.pop_back();
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
    b = layout();
    b.inputTargets[1][1].offset = 768;  // the packer reads other weights
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
    b = layout();
    b.persistentTargets[1].size = 1024;  // and writes elsewhere
    EXPECT_EQ(persistentDifference(layout(), b), kernel);
}

}  // namespace
