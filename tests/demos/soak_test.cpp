// The soak's CPU side (demos/upscale_demo/soak.h): the cycle covers every configuration, the
// slope estimate, the verdict, soak.json. The GPU side runs as demo_cli.soak and tools/soak.sh.
#include "soak.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>

namespace {

using demo::MemorySample;

std::vector<MemorySample> line(double start, double perFrame, uint32_t count, uint64_t every = 200) {
    std::vector<MemorySample> s;
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t frame = 25 + i * every;
        s.push_back({frame, start + perFrame * double(frame), 1e6, 0});
    }
    return s;
}

TEST(Soak, CycleCoversEverySizeModeAndDenoiserAndStartsWhereItEnds) {
    const auto cycle = demo::soakCycle(70, 50, false);
    std::set<std::string> modes, denoisers;
    std::set<std::pair<uint32_t, uint32_t>> sizes;
    uint32_t reloads = 0, losses = 0;
    for (const demo::OutputConfig& c : cycle) {
        modes.insert(c.upscaleName());
        denoisers.insert(c.mlDenoise ? "ml" : engine::toString(c.denoise));
        sizes.insert({c.width, c.height});
        // Multiples of 8: the ML denoiser needs render extents that are multiples of 4 at scale 0.5.
        EXPECT_EQ(c.width % 8, 0u) << c.describe();
        EXPECT_EQ(c.height % 8, 0u) << c.describe();
        reloads += c.reloadModels;
        losses += c.loseDevice;
    }
    EXPECT_EQ(modes, (std::set<std::string>{"native", "bilinear", "bicubic", "ml", "taau"}));
    EXPECT_EQ(denoisers, (std::set<std::string>{"off", "atrous", "ml"}));
    EXPECT_EQ(sizes.size(), 3u);
    EXPECT_EQ(reloads, 1u);
    EXPECT_EQ(losses, 0u);
    // Step 0, the sampled one, is the base size with the plainest configuration.
    EXPECT_EQ(cycle[0].describe(), "64x48 bilinear, denoise off");
    EXPECT_FALSE(cycle[0].replacesFilter() || cycle[0].mlDenoise || cycle[0].reloadModels || cycle[0].loseDevice);

    uint32_t withLoss = 0;
    for (const demo::OutputConfig& c : demo::soakCycle(70, 50, true)) withLoss += c.loseDevice;
    EXPECT_EQ(withLoss, 1u);
}

TEST(Soak, EventsCountWhatEachTransitionChanges) {
    const auto cycle = demo::soakCycle(64, 48, true);
    const demo::SoakEvents e = demo::cycleEvents(cycle);
    EXPECT_EQ(e.resizes, 3u);  // base -> smaller -> larger -> base
    EXPECT_EQ(e.modelReloads, 1u);
    EXPECT_EQ(e.deviceLosses, 1u);
    EXPECT_GE(e.modeSwitches, 6u);
    EXPECT_GE(e.denoiseSwitches, 5u);

    demo::SoakEvents one;
    demo::OutputConfig a{64, 48}, b = a;
    demo::countChange(one, a, b);
    EXPECT_EQ(one.resizes + one.modeSwitches + one.denoiseSwitches + one.modelReloads, 0u);
    b.ml = true;
    b.mode = engine::UpscaleMode::Bicubic;  // ignored under ml
    demo::countChange(one, a, b);
    EXPECT_EQ(one.modeSwitches, 1u);
}

TEST(Soak, SlopeIsBytesPerThousandFrames) {
    EXPECT_NEAR(demo::slopePer1000Frames(line(1e8, 3.0, 10), &MemorySample::residentBytes), 3000.0, 1e-6);
    EXPECT_NEAR(demo::slopePer1000Frames(line(1e8, -0.5, 7), &MemorySample::residentBytes), -500.0, 1e-6);
    EXPECT_EQ(demo::slopePer1000Frames(line(1e8, 0.0, 10), &MemorySample::residentBytes), 0.0);
    EXPECT_EQ(demo::slopePer1000Frames(line(1e8, 5.0, 1), &MemorySample::residentBytes), 0.0);
    EXPECT_EQ(demo::slopePer1000Frames({}, &MemorySample::deviceBytes), 0.0);
}

TEST(Soak, OneStepDoesNotLookLikeALeakButSteadyGrowthDoes) {
    auto flat = line(1e8, 0.0, 20);
    flat.back().residentBytes += 2.3e6;  // one allocator arena growing at the very end
    flat[7].residentBytes -= 8e5;
    EXPECT_EQ(demo::slopePer1000Frames(flat, &MemorySample::residentBytes), 0.0);
    const auto leak = line(1e8, 0.1, 20);  // 100 bytes per 1000 frames, every sample
    EXPECT_NEAR(demo::slopePer1000Frames(leak, &MemorySample::residentBytes), 100.0, 1e-6);
}

// Resident sizes (KiB) that CI on lavapipe measured for soak.ci (5000 frames, a sample every 200):
// flat, one 1.5 MB step at frame 2225, flat again. The pairwise median of the whole run read it as
// 655 KB per 1000 frames and failed the 512 KB limit; the same steady growth in both halves is a leak.
TEST(Soak, AStepInTheMiddleOfTheRunIsNotALeak) {
    const double kib[] = {98956,  195804, 196760, 196636, 197268, 197152, 197368, 197540, 197344, 196792, 197692, 199252, 199316,
                          199420, 199548, 198900, 199284, 199500, 199476, 199668, 199608, 199032, 199544, 199608, 199672};
    std::vector<MemorySample> samples;
    for (size_t i = 0; i < std::size(kib); ++i) samples.push_back({25 + 200 * uint64_t(i), kib[i] * 1024.0, 8819464.0, 0.0});
    ASSERT_GT(demo::slopePer1000Frames({samples.begin() + 5, samples.end()}, &MemorySample::residentBytes), 524288.0)
        << "the whole-run median must show the problem this test is about";
    const demo::SoakLimits ci{.residentSlope = 524288, .deviceSlope = 0};
    demo::SoakVerdict v = demo::judgeSoak(samples, 0, ci);
    EXPECT_TRUE(v.pass) << (v.failures.empty() ? "" : v.failures[0]);
    EXPECT_LT(v.residentSlope, 524288.0);

    auto leak = samples;  // the same run plus 1 KB per frame
    for (MemorySample& s : leak) s.residentBytes += 1024.0 * double(s.frame);
    demo::SoakVerdict leaking = demo::judgeSoak(leak, 0, ci);
    EXPECT_FALSE(leaking.pass);
    EXPECT_GT(leaking.residentSlope, 524288.0);
}

// CI's samples of a run (lavapipe, 2026-11-26) that swung between 211.7 and 214.7 MB with a period
// of about 2000 frames: both halves end near the top, so even their smaller Theil-Sen slope read
// 1.45 MB per 1000 frames, yet the peak was first reached at frame 2625 and never passed. Not a
// leak; the same run plus 1 KB per frame is one.
TEST(Soak, ASwingOfTheResidentSetIsNotALeak) {
    const double mb[] = {100.245504, 212.623360, 213.864448, 214.392832, 214.585344, 212.377600, 212.406272, 212.590592, 212.525056,
                         211.738624, 214.560768, 214.638592, 214.642688, 214.691840, 214.691840, 211.755008, 212.369408, 212.213760,
                         212.410368, 212.606976, 214.691840, 214.691840, 214.691840, 214.691840, 214.691840};
    std::vector<MemorySample> samples;
    for (size_t i = 0; i < std::size(mb); ++i) samples.push_back({25 + 200 * uint64_t(i), mb[i] * 1e6, 9219880.0, 0.0});
    const demo::SoakLimits ci{.residentSlope = 524288, .deviceSlope = 0};
    demo::SoakVerdict v = demo::judgeSoak(samples, 0, ci);
    EXPECT_TRUE(v.pass) << (v.failures.empty() ? "" : v.failures[0]);
    EXPECT_LT(v.residentSlope, 524288.0);

    auto leak = samples;
    for (MemorySample& s : leak) s.residentBytes += 1024.0 * double(s.frame);
    demo::SoakVerdict leaking = demo::judgeSoak(leak, 0, ci);
    EXPECT_FALSE(leaking.pass);
    EXPECT_GT(leaking.residentSlope, 524288.0);
}

TEST(Soak, VerdictFailsOnASlopeAboveItsLimitOrAnyValidationMessage) {
    const demo::SoakLimits limits{.residentSlope = 1000, .deviceSlope = 0};
    demo::SoakVerdict ok = demo::judgeSoak(line(1e8, 0.5, 20), 0, limits);
    EXPECT_TRUE(ok.pass);
    EXPECT_TRUE(ok.failures.empty());
    EXPECT_EQ(ok.warmupSamples, 4u);
    EXPECT_NEAR(ok.residentSlope, 500.0, 1e-6);

    demo::SoakVerdict leaking = demo::judgeSoak(line(1e8, 2.0, 20), 0, limits);
    EXPECT_FALSE(leaking.pass);
    ASSERT_EQ(leaking.failures.size(), 1u);
    EXPECT_EQ(leaking.failures[0], "resident memory grows by 2000 bytes per 1000 frames (limit 1000 bytes)");

    auto deviceLeak = line(1e8, 0.0, 20);
    for (MemorySample& s : deviceLeak) s.deviceBytes += double(s.frame) * 0.064;  // 64 bytes per 1000 frames
    demo::SoakVerdict device = demo::judgeSoak(deviceLeak, 0, limits);
    EXPECT_FALSE(device.pass);
    EXPECT_NE(device.failures.at(0).find("device memory grows by 64 bytes"), std::string::npos);

    const demo::SoakLimits unlimited{.residentSlope = std::numeric_limits<double>::infinity(), .deviceSlope = 0};
    EXPECT_TRUE(demo::judgeSoak(line(1e8, 1e6, 20), 0, unlimited).pass);

    demo::SoakVerdict messages = demo::judgeSoak(line(1e8, 0.0, 20), 2, limits);
    EXPECT_FALSE(messages.pass);
    EXPECT_EQ(messages.failures.at(0), "2 validation message(s) were reported");
}

TEST(Soak, WarmupIsLeftOutAndTooFewSamplesFail) {
    auto warming = line(1e8, 0.0, 10);
    warming[0].residentBytes = 5e7;  // the first cycle compiles pipelines and fills caches
    warming[0].deviceBytes = 0;
    demo::SoakVerdict v = demo::judgeSoak(warming, 0, {});
    EXPECT_TRUE(v.pass) << (v.failures.empty() ? "" : v.failures[0]);
    EXPECT_EQ(v.warmupSamples, 2u);

    demo::SoakVerdict shortRun = demo::judgeSoak(line(1e8, 0.0, 3), 0, {});
    EXPECT_FALSE(shortRun.pass);
    EXPECT_NE(shortRun.failures.at(0).find("only 2 memory sample(s) after the warm-up"), std::string::npos);
}

TEST(Soak, JsonHasTheRunTheSamplesAndTheVerdict) {
    demo::SoakRun run;
    run.frames = 400;
    run.stepFrames = 2;
    run.cycle = demo::soakCycle(32, 24, false);
    run.events = demo::cycleEvents(run.cycle);
    run.samples = line(1e8, 0.0, 5);
    const demo::SoakVerdict v = demo::judgeSoak(run.samples, 0, run.limits);
    const std::string json = demo::soakJson(run, v);
    for (const char* key : {"\"frames\": 400", "\"step_frames\": 2", "\"32x24 bilinear, denoise off\"", "\"model_reloads\": 1",
                            "\"rss_slope_bytes_per_1000_frames\": 0", "\"device_slope_bytes_per_1000_frames\": 0",
                            "\"vk_ext_memory_budget\": false", "\"pass\": true", "{\"frame\": 25, \"rss_bytes\": 100000000, \"device_bytes\": 1000000}"})
        EXPECT_NE(json.find(key), std::string::npos) << key << " not in\n" << json;
    EXPECT_EQ(json.find("driver_bytes"), std::string::npos);
    run.limits.residentSlope = std::numeric_limits<double>::infinity();
    EXPECT_NE(demo::soakJson(run, v).find("\"limits\": {\"rss_slope_bytes_per_1000_frames\": null, \"device_slope_bytes_per_1000_frames\": 0}"),
              std::string::npos);
}

}  // namespace
