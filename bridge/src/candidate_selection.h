#pragma once
// The deciding half of bridge::tuneGraph, apart from the GPU so that tests can drive it with
// made-up timings (tests/bridge/tuning_selection_test.cpp).
#include "bridge/graph_tuning.h"
#include <functional>
#include <vector>

namespace bridge::detail {

/// The whole graph's median GPU time in ms, compiled with `table`.
using MeasureGraph = std::function<double(const mlplugin::TuningTable& table)>;

/// For every key of `tunables` that `table` lacks (every key with `options.retune`), once per key:
/// times each candidate (the first `options.maxCandidates`, the plugin's default first) in
/// `options.sweeps` sweeps, each candidate counting with its fastest; then, when a candidate
/// other than the default (the key's `chosen`, when it is among those timed; else the first)
/// measured fastest, times the default and that candidate alternately
/// `options.confirmRounds` times each and keeps the candidate only if its fastest re-timing beats
/// the default's. `table` gains the choice with that time. Returns every measurement in the order
/// taken.
std::vector<TuneRecord> selectCandidates(const std::vector<mlplugin::TunableConvolution>& tunables, mlplugin::TuningTable& table,
                                         const TuneOptions& options, const MeasureGraph& measure);

}  // namespace bridge::detail
