#pragma once
/// \file
/// StepCallbacks: optional instrumentation of an effect's record(). The effect calls `begin`
/// before each of its steps and `end` after it, with the command buffer it records into, so the
/// application can write GPU timestamps or debug labels around the steps (an engine's GPU timer
/// scopes, vkCmdBeginDebugUtilsLabelEXT for RenderDoc or Nsight).
///
///   struct Timer { ... };  // the application's
///   inputs.steps = {.begin = [](void* t, VkCommandBuffer cmd, const char* step) { static_cast<Timer*>(t)->begin(cmd, step); },
///                   .end = [](void* t, VkCommandBuffer cmd) { static_cast<Timer*>(t)->end(cmd); },
///                   .user = &timer};
///
/// Contract:
///   - Called only from inside record(), on the recording thread, in recording order; every
///     `begin` is followed by exactly one `end`, also when record() fails part-way (the failing
///     step's `end` comes before record() returns its error). Steps do not nest.
///   - `step` names a step of the effect (a static string; the effect's header lists them).
///   - The callbacks may record commands into `cmd` that need no barrier against the effect's
///     work (timestamps, debug labels). The effect places its own barriers between steps, so a
///     timestamp written between two steps separates their GPU time.
///   - Either pointer may be null (that callback is skipped). Plain function pointers: the
///     effect allocates nothing per frame for them.
#include "effects/export.h"

#include <vulkan/vulkan.h>

EFFECTS_API_BEGIN
namespace effects {

/// Called around each step of an effect's record() (see the file comment).
struct StepCallbacks {
    void (*begin)(void* user, VkCommandBuffer cmd, const char* step) = nullptr;  ///< before a step
    void (*end)(void* user, VkCommandBuffer cmd) = nullptr;  ///< after it
    void* user = nullptr;  ///< passed to both
};

}  // namespace effects
EFFECTS_API_END
