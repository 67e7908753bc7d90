#pragma once
// Helpers for frame graph tests: find the barrier a bake produced for a resource before a pass.
#include "engine/frame_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace fgtest {

inline uint32_t orderIndex(const engine::FrameGraph& g, const std::string& pass) {
    const auto order = g.passOrder();
    const auto it = std::find(order.begin(), order.end(), pass);
    EXPECT_NE(it, order.end()) << "pass '" << pass << "' not in the baked order";
    return uint32_t(it - order.begin());
}

inline const engine::BarrierBatch* batchBefore(const engine::FrameGraph& g, uint32_t index) {
    for (const engine::BarrierBatch& b : g.barriers())
        if (b.beforePass == index) return &b;
    return nullptr;
}

// The image barrier recorded before `pass` (or after the last pass when pass is empty).
inline std::optional<VkImageMemoryBarrier2> imageBarrier(const engine::FrameGraph& g, const std::string& pass,
                                                         engine::ResourceHandle image) {
    const uint32_t index = pass.empty() ? uint32_t(g.passOrder().size()) : orderIndex(g, pass);
    if (const engine::BarrierBatch* b = batchBefore(g, index))
        for (const VkImageMemoryBarrier2& ib : b->images)
            if (ib.image == g.physicalImage(image)) return ib;
    return std::nullopt;
}

inline std::optional<VkBufferMemoryBarrier2> bufferBarrier(const engine::FrameGraph& g, const std::string& pass,
                                                           engine::ResourceHandle buffer) {
    const uint32_t index = pass.empty() ? uint32_t(g.passOrder().size()) : orderIndex(g, pass);
    if (const engine::BarrierBatch* b = batchBefore(g, index))
        for (const VkBufferMemoryBarrier2& bb : b->buffers)
            if (bb.buffer == g.physicalBuffer(buffer)) return bb;
    return std::nullopt;
}

inline engine::PassDesc pass(std::string name, engine::PassType type,
                             std::initializer_list<engine::ResourceUse> uses) {
    engine::PassDesc p;
    p.name = std::move(name);
    p.type = type;
    p.uses = uses;
    return p;
}

}  // namespace fgtest
