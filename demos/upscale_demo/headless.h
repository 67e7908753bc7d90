#pragma once
#include "options.h"
#include "scene_setup.h"

#include "engine/context.h"

namespace demo {
// The context the headless demo creates (validation, device choice, memory budget).
engine::ContextDesc headlessContextDesc(const Options& options);
// Renders options.frames frames offscreen (frames in flight, read-back pipelined one slot
// behind) and writes frame_NNNNN.png, the requested .npy channels and report.json to outDir.
// A lost device (real, or --simulate-device-loss) is recovered from: everything on the device
// is destroyed and made again on a new context, and the run goes on with the next frame; the
// loss is printed and listed in report.json. With --soak, runs the soak cycle (soak.h) and
// writes soak.json; returns false when the soak fails its limits.
bool runHeadless(const Options& options, const SceneSetup& setup);
// Renders the golden frame (golden.h) and writes it as PNG.
void writeGolden(engine::Context& ctx, const std::string& path);
}  // namespace demo
