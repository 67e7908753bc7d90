#pragma once
// What the demo draws and where its camera goes, from the command line.
#include "engine/camera_path.h"
#include "engine/scene.h"
#include "options.h"

#include <memory>

namespace demo {

struct SceneSetup {
    std::shared_ptr<const engine::SceneGeometry> scene;
    engine::CameraPath path;
};

// Loads --scene (or builds the procedural scene of --scene-seed), printing the loader's
// warnings to stderr, and picks the camera path: --camera-path, else the automatic orbit
// around a glTF scene's bounds unless --path was given, else --path. Throws engine::Error
// naming the file and problem.
SceneSetup loadSceneSetup(const Options& options);

}  // namespace demo
