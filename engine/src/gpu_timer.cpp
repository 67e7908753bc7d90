#include "engine/gpu_timer.h"

#include "engine/context.h"
#include "engine/error.h"

#include <algorithm>

namespace engine {

GpuTimer::GpuTimer(const Context& ctx, const GpuTimerDesc& desc)
    : device_(ctx.device()), maxScopes_(desc.maxScopesPerFrame), window_(std::max(1u, desc.window)) {
    if (desc.framesInFlight == 0 || desc.maxScopesPerFrame == 0)
        throw Error("GpuTimer: framesInFlight and maxScopesPerFrame must be at least 1");
    enabled_ = ctx.features().timestamps;
    periodNs_ = ctx.features().timestampPeriodNs;
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice(), &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice(), &familyCount, families.data());
    const uint32_t bits = families.at(ctx.queueFamily()).timestampValidBits;
    validMask_ = bits >= 64 ? ~0ull : (1ull << bits) - 1;

    slots_.resize(desc.framesInFlight);
    openStack_.reserve(32);
    results_.resize(size_t(maxScopes_) * 2 * 2);
    for (Slot& s : slots_) {
        s.scopes.reserve(maxScopes_);
        if (!enabled_) continue;
        VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = maxScopes_ * 2;
        VkResult r = vkCreateQueryPool(device_, &qci, nullptr, &s.pool);
        if (r != VK_SUCCESS) {
            for (Slot& t : slots_)
                if (t.pool) vkDestroyQueryPool(device_, t.pool, nullptr);
            throw Error(std::string("GpuTimer: vkCreateQueryPool failed: ") + toString(r), r);
        }
    }
}

GpuTimer::~GpuTimer() {
    for (Slot& s : slots_)
        if (s.pool) vkDestroyQueryPool(device_, s.pool, nullptr);
}

void GpuTimer::beginFrame(VkCommandBuffer cmd, uint32_t slot) {
    if (slot >= slots_.size())
        throw Error("GpuTimer: frame slot " + std::to_string(slot) + " out of range (framesInFlight " +
                    std::to_string(slots_.size()) + ")");
    if (!openStack_.empty()) throw Error("GpuTimer: beginFrame while a scope of the previous frame is still open");
    collect(slot);
    Slot& s = slots_[slot];
    s.scopes.clear();
    recording_ = int32_t(slot);
    if (enabled_) vkCmdResetQueryPool(cmd, s.pool, 0, maxScopes_ * 2);
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
    const auto query = uint32_t(s.scopes.size() * 2);
    s.scopes.push_back({seriesFor(name), query});
    openStack_.push_back(uint32_t(s.scopes.size() - 1));
    if (enabled_) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, s.pool, query);
}

void GpuTimer::endScope(VkCommandBuffer cmd) {
    if (openStack_.empty() || recording_ < 0) throw Error("GpuTimer: endScope without a matching beginScope");
    Slot& s = slots_[size_t(recording_)];
    const Scope& scope = s.scopes[openStack_.back()];
    openStack_.pop_back();
    if (enabled_) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, s.pool, scope.firstQuery + 1);
    s.pending = true;
}

void GpuTimer::collect(uint32_t slot) {
    Slot& s = slots_.at(slot);
    if (!s.pending || !enabled_ || s.scopes.empty()) {
        s.pending = false;
        return;
    }
    s.pending = false;
    const auto queries = uint32_t(s.scopes.size() * 2);
    // WITH_AVAILABILITY and no WAIT: a result the GPU has not produced is skipped, not waited on.
    const VkResult r = vkGetQueryPoolResults(device_, s.pool, 0, queries, queries * 2 * sizeof(uint64_t), results_.data(),
                                             2 * sizeof(uint64_t),
                                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (r != VK_SUCCESS && r != VK_NOT_READY) throw Error(std::string("GpuTimer: vkGetQueryPoolResults failed: ") + toString(r), r);
    for (const Scope& scope : s.scopes) {
        const uint64_t* begin = &results_[size_t(scope.firstQuery) * 2];
        const uint64_t* end = begin + 2;
        if (!begin[1] || !end[1]) continue;
        const uint64_t ticks = (end[0] - begin[0]) & validMask_;
        Series& series = series_[scope.series];
        series.lastMs = double(ticks) * periodNs_ * 1e-6;
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
