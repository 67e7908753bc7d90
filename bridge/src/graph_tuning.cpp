#include "bridge/graph_tuning.h"
#include "candidate_selection.h"

#include "bridge/errors.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <set>

namespace bridge {

using namespace mlplugin;

namespace {

// Deterministic values in [0, 1) for every graph input (the tuner times; values do not matter
// beyond being ordinary: no zeros, no NaNs).
std::vector<std::vector<float>> tuningInputs(const GraphDesc& graph) {
    std::vector<std::vector<float>> inputs;
    uint32_t state = 12345;
    for (ValueId v : graph.inputs) {
        std::vector<float> x(graph.values[v].desc.elementCount());
        for (float& f : x) {
            state = state * 1664525u + 1013904223u;
            f = float(state >> 8) / float(1u << 24);
        }
        inputs.push_back(std::move(x));
    }
    return inputs;
}

// Every candidate's timing starts from a busy GPU: building a session (pipeline compiles, uploads)
// leaves it idle long enough to drop its clock, and timing right after that measured candidates
// 1.5-3x slow at random (the first H100 run of the tuner, bench/RESULTS.md).
double timeWith(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t flags, const TuningTable& table,
                const std::vector<std::vector<float>>& inputs, const TuneOptions& o) {
    device.setTuningTable(std::make_shared<TuningTable>(table));
    GraphSession session(ctx, device, graph, flags);
    session.setInputs(inputs);
    return session.time(o.runs, o.warmup, o.clockRampUp).medianGpuMs;
}

}  // namespace

std::vector<TuneRecord> tuneGraph(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t flags, TuningTable& table,
                                  const TuneOptions& options) {
    struct Restore {
        Device& device;
        std::shared_ptr<const TuningTable> previous;
        ~Restore() { device.setTuningTable(previous); }
    } restore{device, nullptr};
    device.setTuningTable(std::make_shared<TuningTable>(table));
    auto compiled = take(compileGraph(device, graph, flags), "tuneGraph: compileGraph");
    const std::vector<TunableConvolution> tunables = compiled.report.tuning;
    compiled.op.reset();

    const std::vector<std::vector<float>> inputs = tuningInputs(graph);
    return detail::selectCandidates(tunables, table, options, [&](const TuningTable& trial) {
        return timeWith(ctx, device, graph, flags, trial, inputs, options);
    });
}

namespace detail {

namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

std::vector<TuneRecord> selectCandidates(const std::vector<TunableConvolution>& tunables, TuningTable& table, const TuneOptions& options,
                                         const MeasureGraph& measure) {
    std::vector<TuneRecord> records;
    std::set<std::string> done;
    auto timeCandidate = [&](const TunableConvolution& t, const std::string& candidate, bool confirmation) {
        TuningTable trial = table;
        trial.set(t.key, {candidate, 0});
        const double ms = measure(trial);
        records.push_back({t.node, t.key, candidate, ms, confirmation});
        if (options.progress) options.progress(records.back());
        return ms;
    };
    for (const TunableConvolution& t : tunables) {
        if (t.candidates.empty() || done.count(t.key) || (!options.retune && table.find(t.key))) continue;
        done.insert(t.key);
        std::string best;
        double bestMs = std::numeric_limits<double>::infinity();
        for (size_t c = 0; c < t.candidates.size() && c < options.maxCandidates; ++c) {
            const double ms = timeCandidate(t, t.candidates[c], false);
            if (ms < bestMs) bestMs = ms, best = t.candidates[c];
        }
        if (best.empty()) continue;  // maxCandidates 0: nothing timed, the heuristic stays
        // One sweep can crown a candidate that was only timed in a faster moment than the
        // default: GPU state drifts within a process (bench/RESULTS.md, 2026-11-27, a tuned table
        // slower than the heuristics). Alternating the two cancels a drift slower than a round.
        const std::string& fallback = t.candidates.front();
        if (best != fallback && options.confirmRounds > 0) {
            std::vector<double> fallbackMs, bestRetimed;
            for (uint32_t r = 0; r < options.confirmRounds; ++r) {
                fallbackMs.push_back(timeCandidate(t, fallback, true));
                bestRetimed.push_back(timeCandidate(t, best, true));
            }
            const double f = median(fallbackMs), b = median(bestRetimed);
            if (b < f) bestMs = b;
            else best = fallback, bestMs = f;
        }
        table.set(t.key, {best, bestMs});
    }
    return records;
}

}  // namespace detail
}  // namespace bridge
