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
/// Errors throw engine::Error with the plugin's code (bridge/errors.h), like GraphSession.
#include "bridge/export.h"
#include "bridge/graph_session.h"
#include "mlplugin/tuning.h"

#include <chrono>
#include <functional>
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
};

/// How tuneGraph measures.
struct TuneOptions {
    uint32_t runs = 10;           ///< timed executions per candidate (median)
    uint32_t warmup = 2;          ///< untimed executions before them
    uint32_t maxCandidates = 12;  ///< per key, in the order the plugin lists them (its default first)
    bool retune = false;          ///< also keys the table already has
    std::chrono::milliseconds clockRampUp{150};  ///< GPU kept busy before each candidate's timing
    /// When a candidate other than the plugin's default wins a key's sweep, the default and the
    /// winner are timed alternately this many times each, and the winner is kept only if the
    /// median of its re-timings beats the default's (0: no check), so that a sweep that caught
    /// the GPU in a slower moment does not decide.
    uint32_t confirmRounds = 3;
    /// Called after each measurement with its record (progress output: a network's tuning takes
    /// seconds to minutes); on the calling thread.
    std::function<void(const TuneRecord&)> progress;
};

/// Tunes `graph` compiled with `flags`; `table` gains an entry per key it lacked (all keys with
/// `retune`). The device's own table is restored afterwards. Returns every measurement.
std::vector<TuneRecord> tuneGraph(engine::Context& ctx, mlplugin::Device& device, const mlplugin::GraphDesc& graph, uint32_t flags,
                                  mlplugin::TuningTable& table, const TuneOptions& options = {});

}  // namespace bridge
BRIDGE_API_END
