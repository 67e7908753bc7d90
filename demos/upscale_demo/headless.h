#pragma once
#include "options.h"
#include "scene_setup.h"

namespace engine { class Context; }

namespace demo {
// Renders options.frames frames offscreen (frames in flight, read-back pipelined one slot
// behind) and writes frame_NNNNN.png, the requested .npy channels and report.json to outDir.
void runHeadless(engine::Context& ctx, const Options& options, const SceneSetup& setup);
// Renders the golden frame (golden.h) and writes it as PNG.
void writeGolden(engine::Context& ctx, const std::string& path);
}  // namespace demo
