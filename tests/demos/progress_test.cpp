// upscale_demo's progress line: its format, its interval and its off switch.
#include "progress.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace {

std::string linesOf(std::optional<double> interval, uint64_t total, uint64_t updates) {
    testing::internal::CaptureStdout();
    demo::ProgressLine progress("frame", total, interval);
    for (uint64_t done = 0; done <= updates; ++done) progress.update(done);
    return testing::internal::GetCapturedStdout();
}

TEST(DemoProgress, EveryFrameAtIntervalZeroWithTimePerFrameAndTimeLeft) {
    const std::string out = linesOf(0.0, 3, 3);
    const std::regex line(R"(  frame [1-3]/3 \([0-9]+\.[0-9]{2} s per frame, about [0-9.]+ (s|min|h) left\)\n)");
    std::string rest = out;
    int lines = 0;
    for (std::smatch m; std::regex_search(rest, m, line); rest = m.suffix()) {
        EXPECT_EQ(m.position(0), 0) << "unexpected text before a line: " << out;
        ++lines;
    }
    EXPECT_EQ(lines, 3) << out;  // none for update(0)
    EXPECT_TRUE(rest.empty()) << out;
    EXPECT_NE(out.find("frame 3/3"), std::string::npos) << out;
    EXPECT_NE(out.find("about 0.0 s left"), std::string::npos) << "the last frame leaves nothing: " << out;
}

TEST(DemoProgress, NothingWhenOffOrBeforeTheInterval) {
    EXPECT_EQ(linesOf(std::nullopt, 5, 5), "");
    EXPECT_EQ(linesOf(3600.0, 5, 5), "");  // the first line waits for the interval
}

TEST(DemoProgress, RoughDurations) {
    EXPECT_EQ(demo::roughDuration(0.0), "0.0 s");
    EXPECT_EQ(demo::roughDuration(3.3), "3.3 s");
    EXPECT_EQ(demo::roughDuration(52.4), "52 s");
    EXPECT_EQ(demo::roughDuration(900.0), "15 min");
    EXPECT_EQ(demo::roughDuration(8280.0), "2.3 h");
}

}  // namespace
