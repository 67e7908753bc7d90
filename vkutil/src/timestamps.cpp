#include "vkutil/timestamps.h"

#include <cassert>

namespace vkutil {

TimestampPool& TimestampPool::operator=(TimestampPool&& other) noexcept {
    if (this != &other) {
        destroy();
        device_ = std::exchange(other.device_, VK_NULL_HANDLE);
        pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
        pairs_ = std::exchange(other.pairs_, 0);
        periodNs_ = other.periodNs_;
        validMask_ = other.validMask_;
        results_ = std::move(other.results_);
    }
    return *this;
}

VkResult TimestampPool::create(VkDevice device, uint32_t pairs, double periodNs, uint32_t validBits) {
    destroy();
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = 2 * pairs;
    if (VkResult r = vkCreateQueryPool(device, &ci, nullptr, &pool_); r != VK_SUCCESS) {
        pool_ = VK_NULL_HANDLE;
        return r;
    }
    device_ = device;
    pairs_ = pairs;
    periodNs_ = periodNs;
    validMask_ = validBits >= 64 ? ~0ull : (1ull << validBits) - 1;
    results_.assign(size_t(pairs) * 4, 0);
    return VK_SUCCESS;
}

void TimestampPool::destroy() {
    if (pool_) vkDestroyQueryPool(device_, pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
    device_ = VK_NULL_HANDLE;
    pairs_ = 0;
}

void TimestampPool::reset(VkCommandBuffer cmd) const { vkCmdResetQueryPool(cmd, pool_, 0, 2 * pairs_); }

void TimestampPool::begin(VkCommandBuffer cmd, uint32_t pair, VkPipelineStageFlags2 stage) const {
    assert(pair < pairs_);
    vkCmdWriteTimestamp2(cmd, stage, pool_, 2 * pair);
}

void TimestampPool::end(VkCommandBuffer cmd, uint32_t pair, VkPipelineStageFlags2 stage) const {
    assert(pair < pairs_);
    vkCmdWriteTimestamp2(cmd, stage, pool_, 2 * pair + 1);
}

VkResult TimestampPool::readMs(std::span<double> ms, bool wait) {
    assert(ms.size() <= pairs_);
    if (ms.empty()) return VK_SUCCESS;
    const uint32_t queries = uint32_t(2 * ms.size());
    VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
    if (wait) flags |= VK_QUERY_RESULT_WAIT_BIT;
    const VkResult r = vkGetQueryPoolResults(device_, pool_, 0, queries, queries * 2 * sizeof(uint64_t), results_.data(), 2 * sizeof(uint64_t), flags);
    if (r != VK_SUCCESS && r != VK_NOT_READY) return r;
    for (size_t i = 0; i < ms.size(); ++i) {
        const uint64_t* begin = &results_[4 * i];
        const uint64_t* end = begin + 2;
        ms[i] = begin[1] && end[1] ? double((end[0] - begin[0]) & validMask_) * periodNs_ * 1e-6 : -1.0;
    }
    return VK_SUCCESS;
}

}  // namespace vkutil
