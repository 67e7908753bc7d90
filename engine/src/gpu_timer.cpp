#include "engine/gpu_timer.h"

#include "engine/context.h"
#include "engine/error.h"

#include <vkutil/timestamps.h>

#include <algorithm>

namespace engine {

struct GpuTimer::Pools {
    std::vector<vkutil::TimestampPool> perSlot;
};

GpuTimer::GpuTimer(const Context& ctx, const GpuTimerDesc& desc)
    : device_(ctx.device()), maxScopes_(desc.maxScopesPerFrame), window_(std::max(1u, desc.window)), pools_(std::make_unique<Pools>()) {
    if (desc.framesInFlight == 0 || desc.maxScopesPerFrame == 0)
        throw Error("GpuTimer: framesInFlight and maxScopesPerFrame must be at least 1");
    enabled_ = ctx.features().timestamps;
    slots_.resize(desc.framesInFlight);
    pools_->perSlot.resize(desc.framesInFlight);
    openStack_.reserve(32);
    results_.resize(maxScopes_);
    for (uint32_t i = 0; i < slots_.size(); ++i) {
        slots_[i].scopes.reserve(maxScopes_);
        if (!enabled_) continue;
        if (VkResult r = pools_->perSlot[i].create(device_, maxScopes_, ctx.features().timestampPeriodNs, ctx.features().timestampValidBits); r != VK_SUCCESS)
            throw Error(std::string("GpuTimer: vkCreateQueryPool failed: ") + toString(r), r);
    }
}

GpuTimer::~GpuTimer() = default;

void GpuTimer::beginFrame(VkCommandBuffer cmd, uint32_t slot) {
    if (slot >= slots_.size())
        throw Error("GpuTimer: frame slot " + std::to_string(slot) + " out of range (framesInFlight " +
                    std::to_string(slots_.size()) + ")");
    if (!openStack_.empty()) throw Error("GpuTimer: beginFrame while a scope of the previous frame is still open");
    collect(slot);
    Slot& s = slots_[slot];
    s.scopes.clear();
    recording_ = int32_t(slot);
    if (enabled_) pools_->perSlot[slot].reset(cmd);
}

uint32_t GpuTimer::seriesFor(std::string_view name) {
    for (uint32_t i = 0; i < series_.size(); ++i)
        if (series_[i].name == name) return i;
    Series s;
    s.name = std::string(name);
    s.ring.assign(window_, 0.0);
    series_.push_back(std::move(s));
    return uint32_t(series_.size() - 1);
}

void GpuTimer::beginScope(VkCommandBuffer cmd, std::string_view name) {
    if (recording_ < 0) throw Error("GpuTimer: beginScope('" + std::string(name) + "') before beginFrame");
    Slot& s = slots_[size_t(recording_)];
    if (s.scopes.size() >= maxScopes_)
        throw Error("GpuTimer: more than " + std::to_string(maxScopes_) + " scopes in one frame (at '" +
                    std::string(name) + "'); raise GpuTimerDesc::maxScopesPerFrame");
    const auto pair = uint32_t(s.scopes.size());
    s.scopes.push_back({seriesFor(name)});
    openStack_.push_back(pair);
    if (enabled_) pools_->perSlot[size_t(recording_)].begin(cmd, pair, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
}

void GpuTimer::endScope(VkCommandBuffer cmd) {
    if (openStack_.empty() || recording_ < 0) throw Error("GpuTimer: endScope without a matching beginScope");
    Slot& s = slots_[size_t(recording_)];
    const uint32_t pair = openStack_.back();
    openStack_.pop_back();
    if (enabled_) pools_->perSlot[size_t(recording_)].end(cmd, pair, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT);
    s.pending = true;
}

void GpuTimer::collect(uint32_t slot) {
    Slot& s = slots_.at(slot);
    if (!s.pending || !enabled_ || s.scopes.empty()) {
        s.pending = false;
        return;
    }
    s.pending = false;
    // No wait: a result the GPU has not produced is skipped (negative), not waited on.
    std::span<double> ms(results_.data(), s.scopes.size());
    if (VkResult r = pools_->perSlot[slot].readMs(ms, /*wait*/ false); r != VK_SUCCESS)
        throw Error(std::string("GpuTimer: vkGetQueryPoolResults failed: ") + toString(r), r);
    for (size_t i = 0; i < ms.size(); ++i) {
        if (ms[i] < 0) continue;
        Series& series = series_[s.scopes[i].series];
        series.lastMs = ms[i];
        series.ring[series.next] = series.lastMs;
        series.next = (series.next + 1) % window_;
        series.count = std::min(series.count + 1, window_);
    }
}

std::vector<GpuTiming> GpuTimer::timings() const {
    std::vector<GpuTiming> out;
    for (const Series& s : series_) {
        if (s.count == 0) continue;
        std::vector<double> samples(s.ring.begin(), s.ring.begin() + s.count);
        const size_t mid = samples.size() / 2;
        std::nth_element(samples.begin(), samples.begin() + long(mid), samples.end());
        double median = samples[mid];
        if (samples.size() % 2 == 0) median = (median + *std::max_element(samples.begin(), samples.begin() + long(mid))) / 2;
        out.push_back({s.name, s.lastMs, median, s.count});
    }
    return out;
}

}  // namespace engine
