#pragma once
/// \file
/// The measuring half of kernel selection (mlplugin/tuning.h): times every candidate kernel
/// configuration of every tunable convolution of a graph on an engine::Context and records the
/// fastest in a TuningTable, which the caller keeps on disk (TuningTable::save) and hands to the
/// device (Device::setTuningTable) for later compiles.
///
/// Each candidate is measured in the whole graph (compiled with a table naming it, the other keys
/// at their current choice), so what is timed is what runs: the fused epilogues, the layouts the
/// graph chose and the cache state its neighbours leave. Keys are tuned one after another in the
/// order the graph reports them; each keeps its fastest candidate before the next is tried, a
/// candidate other than the plugin's default only once it beat the default again in alternating
/// re-timings (TuneOptions::confirmRounds).
///
/// GPU clocks drift within a process: a GPU left idle while pipelines compile drops its clock and
/// raises it again only after a while under load (bench/RESULTS.md, "Clock drift"). A drifting
/// measurement is only ever slower than the truth, so each candidate is timed in several sweeps
/// over the key's candidates (the first compiles their pipelines; later ones find them cached and
/// keep the GPU busy) and counts with its fastest; confirmations compare fastest re-timings too.
/// Errors throw engine::Error with the plugin's code (bridge/errors.h), like GraphSession.
#include "bridge/export.h"
#include "bridge/graph_session.h"
#include "mlplugin/tuning.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

BRIDGE_API_BEGIN
namespace bridge {

/// One measurement of tuneGraph.
struct TuneRecord {
    std::string node;       ///< the graph node's label
    std::string key;        ///< its tuning key
    std::string candidate;  ///< the kernel configuration timed
    double ms = 0;          ///< the whole graph's median with this candidate
    bool confirmation = false;  ///< a re-timing of the default against the sweep's winner
    uint32_t sweep = 0;         ///< which sweep over the key's candidates (0-based; 0 for confirmations)
};

/// How tuneGraph measures.
struct TuneOptions {
    uint32_t runs = 10;           ///< timed executions per candidate (median)
    uint32_t warmup = 2;          ///< untimed executions before them
    uint32_t maxCandidates = 12;  ///< per key, in the order the plugin lists them (its default first)
    bool retune = false;          ///< also keys the table already has
    /// The least time the GPU is kept busy before each candidate's timing (GraphSession::time
    /// goes on until the clock has settled).
    std::chrono::milliseconds clockRampUp{150};
    /// Sweeps over each key's candidates (at least 1); a candidate counts with its fastest.
    uint32_t sweeps = 2;
    /// When a candidate other than the plugin's default wins a key's sweeps, the default and the
    /// winner are timed alternately this many times each, and the winner is kept only if its
    /// fastest re-timing beats the default's (0: no check), so that sweeps that caught the GPU
    /// in a slower moment for the default do not decide.
    uint32_t confirmRounds = 3;
    /// Called after each measurement with its record (progress output: a network's tuning takes
    /// seconds to minutes); on the calling thread.
    std::function<void(const TuneRecord&)> progress;
};

/// A table written by tuneGraph or `mlrun MODEL.onnx --tuning FILE`, for Device::setTuningTable
/// or effects::EffectDevice::tuning. Unlike TuningTable::load, a missing file is an error here
/// (a table that was asked for and is not there is a mistake, not an empty table). Throws
/// engine::Error (InvalidArgument) naming the file, and the line of a malformed entry.
std::shared_ptr<const mlplugin::TuningTable> loadTuningTable(const std::string& path);

/// Tunes `graph` compiled with `flags`; `table` gains an entry per key it lacked (all keys with
/// `retune`). The device's own table is restored afterwards. Returns every measurement.
std::vector<TuneRecord> tuneGraph(engine::Context& ctx, mlplugin::Device& device, const mlplugin::GraphDesc& graph, uint32_t flags,
                                  mlplugin::TuningTable& table, const TuneOptions& options = {});

}  // namespace bridge
BRIDGE_API_END
