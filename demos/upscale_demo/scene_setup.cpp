#include "scene_setup.h"

#include <cstdio>

namespace demo {

SceneSetup loadSceneSetup(const Options& o) {
    SceneSetup s;
    s.scene = engine::loadScene({.seed = o.sceneSeed, .gltfPath = o.scene});
    for (const std::string& w : s.scene->warnings) std::fprintf(stderr, "upscale_demo: warning: glTF '%s': %s\n", o.scene.c_str(), w.c_str());
    if (!o.cameraPath.empty()) {
        s.path = engine::CameraPath::load(o.cameraPath);
        const size_t parseWarnings = s.path.warnings().size();
        const float moved = s.path.fitClipPlanesTo(s.scene->boundsMin, s.scene->boundsMax);
        for (const std::string& w : s.path.warnings())
            std::fprintf(stderr, "upscale_demo: warning: camera path '%s': %s\n", o.cameraPath.c_str(), w.c_str());
        if (moved != 1.0f && s.path.warnings().size() == parseWarnings)
            std::printf("camera path '%s' sets no clip planes and the scene %s: near %g, far %g\n", o.cameraPath.c_str(),
                        moved > 1.0f ? "reaches past the default far plane" : "lies within 2 m of the path", s.path.zNear(), s.path.zFar());
    } else if (!o.scene.empty() && !o.pathGiven) s.path = engine::CameraPath::orbitAround(s.scene->boundsMin, s.scene->boundsMax);
    else s.path = engine::CameraPath::builtIn(o.path);
    return s;
}

}  // namespace demo
