#pragma once
#include "options.h"
#include "scene_setup.h"

namespace demo {
// Opens a window and renders until it is closed (or options.frames frames). Handles resizes by
// recreating the swapchain and re-baking the frame graph; --resize-test resizes the window
// itself half-way through.
void runWindowed(const Options& options, const SceneSetup& setup);
}  // namespace demo
