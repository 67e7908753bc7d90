#pragma once
/// \file
/// Per-shape kernel selection by measurement (what cuDNN's benchmark mode and
/// torch.compile(mode="max-autotune") do), split the plugin's way: the plugin never submits or
/// times anything, so the application (or bridge::tuneGraph) measures and the plugin remembers.
///
///   1. compileGraph reports, per tunable convolution, its key and its candidate kernel
///      configurations (GraphCompileReport::tuning).
///   2. The tuner times the candidates (compiling with a table that names one of them) and
///      records the fastest with TuningTable::set; TuningTable::save keeps them on disk.
///   3. Device::setTuningTable: later compiles take the recorded choice for every key they find.
///      Keys start with the device name and driver version, so one file can serve several GPUs
///      and a driver update invalidates its entries instead of reusing them.
///
/// Without a table, or for keys it lacks, the planners' fixed heuristic decides: the choice is
/// deterministic for a given device, shape and flags. Every candidate computes the same function
/// (they differ in tiling and staging, and in accumulation order only within fp16 rounding), so
/// tuning changes speed, never results beyond the operator's tolerance. Winograd F(2x2, 3x3)
/// candidates ("winograd_...", 3x3 stride-1 fp16 convolutions) also round their transformed
/// operands to fp16: about 3x the direct kernels' error; F(4x4, 3x3) ("winograd_f4_...") about
/// 6x that, still within the fp16 tolerance.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <map>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// One recorded kernel choice.
struct TuningEntry {
    std::string candidate;  ///< a name from GraphCompileReport::tuning[].candidates
    double ms = 0;          ///< what the tuner measured for it (informational)
};

/// Recorded kernel choices by key. A value type; not synchronized (fill it, then hand a shared
/// copy to Device::setTuningTable).
class TuningTable {
public:
    /// The entry for `key`, or nullptr.
    const TuningEntry* find(const std::string& key) const;
    /// Adds or replaces the entry for `key`.
    void set(const std::string& key, TuningEntry entry);
    /// Number of entries.
    size_t size() const { return entries_.size(); }
    /// Every entry, by key.
    const std::map<std::string, TuningEntry>& entries() const { return entries_; }

    /// Text file, one entry per line: key TAB candidate TAB milliseconds. Merges the file's
    /// entries into the table; a missing file is an empty table (not an error); a path that is
    /// not a regular file (a directory, /dev/zero) is an IoError; a malformed line is an
    /// InvalidArgument naming the file and line.
    Status load(const std::string& path);
    /// Writes every entry in the load() format; IoError naming the file on failure.
    Status save(const std::string& path) const;

private:
    std::map<std::string, TuningEntry> entries_;
};

}  // namespace mlplugin
MLPLUGIN_API_END
