// bridge::tuneGraph: the choice among measured candidates (driven with made-up timings, no GPU),
// the GPU copy of inputs its sessions share (GraphSession::copyInputsFrom), and one tuning of a
// small network on the test device, whose table then compiles and runs (skipped without tensor
// cores: the candidates are tensor-core kernels).
#include "bridge/graph_session.h"
#include "bridge/graph_tuning.h"
#include "candidate_selection.h"
#include "engine/error.h"
#include "mlplugin/graph_builder.h"
#include "op_test.h"
#include "vulkan_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace mlplugin;

namespace {

// A pretend GPU: each candidate's true cost, plus extra time for the measurements whose call
// index is in `slowAt` (a drifting GPU caught in a slow moment).
struct FakeGpu {
    std::map<std::string, double> cost;
    std::string key = "conv k3x3 test";
    std::set<int> slowAt;
    double slowExtra = 1.0;
    int calls = 0;
    double operator()(const TuningTable& table) {
        const TuningEntry* e = table.find(key);
        EXPECT_NE(e, nullptr) << "every measurement names a candidate for the key under test";
        double ms = e ? cost.at(e->candidate) : 0.0;
        if (slowAt.count(calls++)) ms += slowExtra;
        return ms;
    }
};

TunableConvolution tunable(const std::string& key, std::vector<std::string> candidates, std::string chosen = {}) {
    return {.node = "convolution 'c'", .key = key, .candidates = std::move(candidates), .chosen = std::move(chosen)};
}

size_t confirmations(const std::vector<bridge::TuneRecord>& records) {
    size_t n = 0;
    for (const auto& r : records) n += r.confirmation;
    return n;
}

// The table file: missing is empty; a device or a directory is refused before it is read
// (/dev/zero would be one line growing forever).
TEST(TuningTableFile, MissingIsEmptyDevicesAreNotRead) {
    TuningTable table;
    EXPECT_TRUE(table.load("/nonexistent/tuning.txt").ok());
    EXPECT_EQ(table.size(), 0u);
    Status s = table.load("/dev/zero");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::IoError);
    EXPECT_EQ(s.error().message, "tuning table '/dev/zero' is not a regular file");
}

TEST(TuningSelection, TheSecondSweepOutvotesASlowMoment) {
    // The default's first timing lands in a slow spell; the other candidate is truly slower.
    FakeGpu gpu{.cost = {{"default", 1.0}, {"other", 1.1}}, .slowAt = {0}};
    TuningTable table;
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "other"})}, table, {}, std::ref(gpu));
    ASSERT_NE(table.find(gpu.key), nullptr);
    EXPECT_EQ(table.find(gpu.key)->candidate, "default");
    EXPECT_DOUBLE_EQ(table.find(gpu.key)->ms, 1.0) << "each candidate counts with its fastest sweep";
    ASSERT_EQ(records.size(), 4u) << "two sweeps; the default won them, so nothing to confirm";
    EXPECT_EQ(confirmations(records), 0u);
    EXPECT_EQ(records[0].sweep, 0u);
    EXPECT_EQ(records[2].sweep, 1u);
    EXPECT_EQ(records[2].candidate, "default");
}

TEST(TuningSelection, KeepsTheDefaultWhenEverySweepTimedItInASlowMoment) {
    // Both sweeps catch the default slow (calls 0 and 2); the alternating re-timings do not.
    FakeGpu gpu{.cost = {{"default", 1.0}, {"other", 1.1}}, .slowAt = {0, 2}};
    TuningTable table;
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "other"})}, table, {}, std::ref(gpu));
    EXPECT_EQ(table.find(gpu.key)->candidate, "default");
    EXPECT_DOUBLE_EQ(table.find(gpu.key)->ms, 1.0);
    EXPECT_EQ(records.size(), 4u + 6u);  // the sweeps, then 3 alternating rounds of default and winner
    EXPECT_EQ(confirmations(records), 6u);
    EXPECT_EQ(records[4].candidate, "default");
    EXPECT_EQ(records[5].candidate, "other");
}

TEST(TuningSelection, TheReferenceIsTheHeuristicsChoiceNotTheFirstCandidate) {
    // The compile took "coop" (listed last, as coopmat is after the tiles); it wins, so nothing
    // needs confirming. A slow first sweep of "coop" against a truly slower "tile" does not
    // dethrone it either: the re-timings compare against "coop".
    FakeGpu gpu{.cost = {{"tile", 1.2}, {"coop", 1.0}}};
    TuningTable table;
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"tile", "coop"}, "coop")}, table, {}, std::ref(gpu));
    EXPECT_EQ(table.find(gpu.key)->candidate, "coop");
    EXPECT_EQ(confirmations(records), 0u);

    FakeGpu drifting{.cost = {{"tile", 1.1}, {"coop", 1.0}}, .slowAt = {1, 3}};
    TuningTable second;
    records = bridge::detail::selectCandidates({tunable(drifting.key, {"tile", "coop"}, "coop")}, second, {}, std::ref(drifting));
    EXPECT_EQ(second.find(drifting.key)->candidate, "coop");
    ASSERT_EQ(confirmations(records), 6u);
    EXPECT_EQ(records[4].candidate, "coop") << "the re-timings alternate the heuristic's choice and the sweeps' winner";
}

TEST(TuningSelection, WithOneSweepAndNoCheckTheSlowMomentDecides) {
    FakeGpu gpu{.cost = {{"default", 1.0}, {"other", 1.1}}, .slowAt = {0}};
    TuningTable table;
    bridge::TuneOptions options;
    options.sweeps = 1;
    options.confirmRounds = 0;
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "other"})}, table, options, std::ref(gpu));
    EXPECT_EQ(table.find(gpu.key)->candidate, "other");
    EXPECT_EQ(records.size(), 2u);
    EXPECT_EQ(confirmations(records), 0u);
}

TEST(TuningSelection, KeepsACandidateThatIsReallyFaster) {
    FakeGpu gpu{.cost = {{"default", 1.0}, {"a", 0.9}, {"b", 0.7}}};
    TuningTable table;
    bridge::TuneOptions options;
    std::vector<std::string> reported;  // progress: every measurement as it is taken
    options.progress = [&](const bridge::TuneRecord& r) { reported.push_back(r.candidate); };
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "a", "b"})}, table, options, std::ref(gpu));
    ASSERT_EQ(reported.size(), records.size());
    for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(reported[i], records[i].candidate);
    EXPECT_EQ(table.find(gpu.key)->candidate, "b");
    EXPECT_DOUBLE_EQ(table.find(gpu.key)->ms, 0.7);
    EXPECT_EQ(records.size(), 2u * 3u + 6u);
    EXPECT_EQ(confirmations(records), 6u);
}

TEST(TuningSelection, ADefaultThatWinsTheSweepIsNotTimedAgain) {
    FakeGpu gpu{.cost = {{"default", 0.5}, {"a", 0.9}}};
    TuningTable table;
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "a"})}, table, {}, std::ref(gpu));
    EXPECT_EQ(table.find(gpu.key)->candidate, "default");
    EXPECT_EQ(records.size(), 2u * 2u);
}

TEST(TuningSelection, EachKeyOnceKnownKeysKeptCandidatesCapped) {
    FakeGpu gpu{.cost = {{"default", 1.0}, {"a", 0.8}, {"b", 0.1}}};
    TuningTable table;
    table.set("known", {"a", 2.0});
    bridge::TuneOptions options;
    options.maxCandidates = 2;  // "b", the fastest, is past the cap
    auto records = bridge::detail::selectCandidates({tunable(gpu.key, {"default", "a", "b"}), tunable(gpu.key, {"default", "a", "b"}),
                                                     tunable("known", {"default", "a"}), tunable("no candidates", {})},
                                                    table, options, std::ref(gpu));
    EXPECT_EQ(records.size(), 2u * 2u + 6u) << "the repeated key is tuned once; the known key and the empty list not at all";
    EXPECT_EQ(table.find(gpu.key)->candidate, "a");
    EXPECT_EQ(table.find("known")->candidate, "a");
    EXPECT_DOUBLE_EQ(table.find("known")->ms, 2.0);
    EXPECT_EQ(table.find("no candidates"), nullptr);

    options.maxCandidates = 0;  // times nothing, records nothing
    TuningTable untouched;
    EXPECT_TRUE(bridge::detail::selectCandidates({tunable(gpu.key, {"default", "a"})}, untouched, options, std::ref(gpu)).empty());
    EXPECT_EQ(untouched.size(), 0u);

    options.maxCandidates = 12;
    options.retune = true;
    FakeGpu known{.cost = {{"default", 0.3}, {"a", 0.8}}, .key = "known"};
    bridge::detail::selectCandidates({tunable("known", {"default", "a"})}, table, options, std::ref(known));
    EXPECT_EQ(table.find("known")->candidate, "default") << "retune measures keys the table has";
}

// Two 3x3 convolutions with a ReLU between them, `channels` wide, on a 13x11 image.
GraphDesc smallNetwork(DataType type, uint32_t channels = 8) {
    GraphBuilder g;
    Expr x = g.input("image", TensorDesc::make(type, {1, channels, 13, 11}));
    auto weights = [&](const std::string& name, std::initializer_list<uint32_t> sizes, uint32_t seed) {
        TensorDesc d = TensorDesc::make(DataType::Float32, sizes);
        HostTensor t = optest::randomTensor(d, seed, -0.3, 0.3);
        return g.constant(name, d, std::vector<float>(t.data.begin(), t.data.begin() + d.elementCount()));
    };
    Expr y = relu(conv2d(x, weights("w1", {16, channels, 3, 3}, 1), weights("b1", {16}, 2), {.pad = 1}));
    g.output(conv2d(y, weights("w2", {8, 16, 3, 3}, 3), weights("b2", {8}, 4), {.pad = 1}));
    return g.finish().value();
}

// The tuner's sessions take their inputs from one session by a GPU copy
// (GraphSession::copyInputsFrom): the same outputs as inputs set from the host, and a named
// error for a graph whose inputs differ.
class GraphSessionTest : public testsupport::VulkanTest {};

TEST_F(GraphSessionTest, CopyInputsFromAnotherSessionOfTheSameNetwork) {
    const DataType type = optest::fp16Supported() ? DataType::Float16 : DataType::Float32;
    GraphDesc graph = smallNetwork(type);
    HostTensor input = optest::randomTensor(graph.values[graph.inputs[0]].desc, 7);
    bridge::GraphSession source(ctx(), optest::device(), graph);
    source.setInputs({std::vector<float>(input.data.begin(), input.data.begin() + input.desc.elementCount())});
    source.run();
    // Another compile of the same network (no fusion: other dispatches, same function).
    bridge::GraphSession copy(ctx(), optest::device(), graph, GraphCompileFlagDisableFusion);
    copy.copyInputsFrom(source);
    copy.run();
    const std::vector<float> want = source.readOutputs()[0], got = copy.readOutputs()[0];
    ASSERT_EQ(got.size(), want.size());
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) num += (got[i] - want[i]) * (got[i] - want[i]), den += want[i] * want[i];
    ASSERT_GT(den, 0.0) << "the source's output is not all zeros";
    EXPECT_LT(std::sqrt(num / den), type == DataType::Float16 ? 1e-2 : 1e-5);

    GraphDesc wider = smallNetwork(type, 12);
    bridge::GraphSession other(ctx(), optest::device(), wider);
    try {
        other.copyInputsFrom(source);
        FAIL() << "inputs of another size were copied";
    } catch (const engine::Error& e) {
        EXPECT_EQ(e.code(), engine::ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("input 'image' holds"), std::string::npos) << e.what();
    }
}

// On the test device: every key of a small network gets an entry naming one of its candidates,
// and the network compiled with the table matches the reference.
class TuneGraphTest : public testsupport::VulkanTest {};

TEST_F(TuneGraphTest, TunesEveryKeyAndTheTableRuns) {
    const DataType type = optest::fp16Supported() ? DataType::Float16 : DataType::Float32;
    GraphDesc graph = smallNetwork(type);

    auto compiled = compileGraph(optest::device(), graph);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    const std::vector<TunableConvolution> tunables = compiled->report.tuning;
    compiled->op.reset();
    if (tunables.empty()) GTEST_SKIP() << "no tunable convolution on this device (the candidates are tensor-core kernels)";

    TuningTable table;
    bridge::TuneOptions options;
    options.runs = 2, options.warmup = 1, options.maxCandidates = 2, options.sweeps = 1, options.confirmRounds = 1;
    options.clockRampUp = std::chrono::milliseconds(0);
    auto records = bridge::tuneGraph(ctx(), optest::device(), graph, 0, table, options);
    for (const TunableConvolution& t : tunables) {
        const TuningEntry* e = table.find(t.key);
        ASSERT_NE(e, nullptr) << t.key;
        EXPECT_NE(std::find(t.candidates.begin(), t.candidates.end(), e->candidate), t.candidates.end()) << e->candidate;
    }
    EXPECT_GE(records.size(), tunables.size());
    for (const auto& r : records) EXPECT_GT(r.ms, 0.0) << r.node << " " << r.candidate;

    optest::device().setTuningTable(std::make_shared<TuningTable>(table));
    bridge::GraphSession session(ctx(), optest::device(), graph);
    optest::device().setTuningTable(nullptr);
    HostTensor input = optest::randomTensor(graph.values[graph.inputs[0]].desc, 5);
    session.setInputs({std::vector<float>(input.data.begin(), input.data.begin() + input.desc.elementCount())});
    session.run();
    std::vector<float> got = session.readOutputs()[0];
    auto want = referenceEvaluateGraph(graph, {input});
    ASSERT_TRUE(want.ok()) << want.error().message;
    ASSERT_EQ(want->at(0).data.size() >= got.size(), true);
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) num += (got[i] - want->at(0).data[i]) * (got[i] - want->at(0).data[i]), den += want->at(0).data[i] * want->at(0).data[i];
    EXPECT_LT(std::sqrt(num / den), type == DataType::Float16 ? 1e-2 : 1e-4);
}

}  // namespace
