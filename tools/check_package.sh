#!/usr/bin/env bash
# Checks the package the way a consumer sees it (docs/PACKAGING.md), from a configured and built
# build directory: install into a scratch prefix, move the prefix, check it names neither the
# source nor the build directory, build and run examples/onnx_inference against it (validation
# layer on), check the package's error messages (unknown target or component, wrong version),
# pkg-config, the installed tools' model lookup, the Debian packages (built, unpacked with dpkg -x,
# the example built and run against them, their Depends resolved against Debian 12 with apt), the
# symbol visibility and the Doxygen reference (warnings are errors). Any failure exits non-zero.
#
#   tools/check_package.sh [BUILD_DIR]     (default: $BUILD_DIR, else build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "${1:-${BUILD_DIR:-$root/build}}" && pwd -P)
scratch=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/vkml-package.XXXXXX")" && pwd -P)
trap 'rm -rf "$scratch"' EXIT
start=$SECONDS

step() { echo "[package $((SECONDS - start))s] $*"; }
fail() { printf '[package] FAILED: %b\n' "$*" >&2; exit 1; }
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

version=$(cache CMAKE_PROJECT_VERSION)
abi=${version%.*}
shared=$(cache BUILD_SHARED_LIBS)
libdir=$(cache CMAKE_INSTALL_LIBDIR)
[ -n "$version" ] && [ -n "$libdir" ] || fail "$build is not a configured vkml build directory"
validation=()
[ -n "$(find /usr/share/vulkan/explicit_layer.d -name 'VkLayer_khronos_validation.json' 2>/dev/null)" ] && validation=(--validation)
[ ${#validation[@]} -gt 0 ] || fail "the Khronos validation layer is not installed (vulkan-validationlayers)"

# A consumer project: configure (and build) it against a prefix. Prints CMake's output on failure.
consume() {  # consume NAME PREFIX SOURCE_DIR [cmake args...]
    local name=$1 prefix=$2 src=$3
    shift 3
    cmake -S "$src" -B "$scratch/consumers/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "$@" \
        >"$scratch/consumers/$name.log" 2>&1
}
mkdir -p "$scratch/consumers"

# -- 1. install, move, nothing names the build or source tree ------------------------------------
step "install $build (vkml $version, shared libraries: ${shared:-OFF}) into a scratch prefix"
cmake --install "$build" --prefix "$scratch/stage" >/dev/null
mkdir -p "$scratch/moved/opt"
mv "$scratch/stage" "$scratch/moved/opt/vkml"
prefix=$scratch/moved/opt/vkml
for f in "$libdir/cmake/vkml/vkmlConfig.cmake" "$libdir/cmake/vkml/vkmlConfigVersion.cmake" "$libdir/pkgconfig/vkml-mlplugin.pc" \
         "include/vkml-$abi/mlplugin/mlplugin.h" "include/vkml-$abi/mlplugin/version.h" "include/vkml-$abi/mlplugin/export.h" \
         "include/vkml-$abi/engine/renderer_shared.h" "include/vkml-$abi/bridge/ml_pass.h" \
         "include/vkml-$abi/effects/upscaler.h" "include/vkml-$abi/effects/export.h" \
         bin/mlrun bin/upscale_demo share/vkml/models/upscaler_x2.onnx share/vkml/models/denoiser.onnx; do
    [ -e "$prefix/$f" ] || fail "the installation lacks $f"
done
if grep -q shaders <<<"$(ls "$prefix/$libdir")"; then fail "an internal shader library was installed: $(ls "$prefix/$libdir")"; fi

step "moved to $prefix; looking for the source ($root) and build ($build) paths in it"
grep -rqF "$root" "$build/CMakeCache.txt" || fail "the path check cannot see paths (grep found nothing in CMakeCache.txt)"
if leaks=$(grep -rlF -e "$root" -e "$build" "$prefix"); then fail "installed files name the source or build tree:\n$leaks"; fi

# -- 2. the example, against the moved prefix, with stale headers of other versions around -------
# A header tree of an older installation (unversioned include/, or include/vkml-0.1/) must never be
# compiled: the consumer's include path names include/vkml-<major>.<minor> only. -idirafter puts
# the stale unversioned tree where /usr/include would be for a package installed into /usr.
other_abi=0.1
[ "$abi" != "$other_abi" ] || other_abi=0.0
for stale in "$prefix/include/mlplugin" "$prefix/include/vkml-$other_abi/mlplugin"; do
    mkdir -p "$stale"
    echo '#error "a stale mlplugin header from another version was compiled"' >"$stale/mlplugin.h"
    cp "$stale/mlplugin.h" "$stale/onnx.h"
done
step "examples/onnx_inference: configure, build, run against the moved prefix"
consume example "$prefix" "$root/examples/onnx_inference" "-DCMAKE_CXX_FLAGS=-idirafter $prefix/include" ||
    { cat "$scratch/consumers/example.log"; fail "configuring the example against $prefix"; }
cmake --build "$scratch/consumers/example" >"$scratch/consumers/example-build.log" 2>&1 ||
    { cat "$scratch/consumers/example-build.log"; fail "building the example against $prefix"; }
LD_LIBRARY_PATH="" "$scratch/consumers/example/onnx_inference" "${validation[@]}" || fail "the example failed against $prefix"

# -- 3. what a consumer gets wrong: clear CMake messages ------------------------------------------
mkdir -p "$scratch/bad"
cat >"$scratch/bad/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES CXX)
find_package(vkml ${REQUEST} CONFIG REQUIRED ${COMPONENTS})
add_executable(app ${MAIN})
target_compile_features(app PRIVATE cxx_std_20)
target_link_libraries(app PRIVATE ${LINK})
EOF
echo 'int main() { return 0; }' >"$scratch/bad/empty.cpp"
# Every library through vkml::bridge: the config must find what each links (static: all of it).
cat >"$scratch/bad/all.cpp" <<'EOF'
#include <bridge/effect_upscaler.h>
#include <bridge/ml_pass.h>
#include <effects/upscaler.h>
#include <engine/context.h>
#include <engine/error.h>
#include <mlplugin/mlplugin.h>
#include <mlplugin/onnx.h>
#include <cstdio>
int main() {
    VkExtent2D render = effects::renderSizeForRatio({64, 48}, 2.0f);
    std::printf("vkml %s: %s, %u onnx operators, render %ux%u, %zu devices listed\n", mlplugin::versionString(),
                engine::toString(VK_ERROR_DEVICE_LOST), unsigned(mlplugin::supportedOnnxOperators().size()),
                render.width, render.height, engine::Context::listDevices().size());
    return render.width == 32 && render.height == 24 ? 0 : 1;
}
EOF
expect_failure() {  # expect_failure NAME MESSAGE [cmake args...]: configuring must fail, saying MESSAGE
    local name=$1 message=$2
    shift 2
    if consume "$name" "$prefix" "$scratch/bad" -DMAIN="$scratch/bad/empty.cpp" "$@"; then fail "$name: configuring succeeded, expected: $message"; fi
    grep -qF -- "$message" <(tr -s ' \n' ' ' <"$scratch/consumers/$name.log") ||
        { cat "$scratch/consumers/$name.log"; fail "$name: the message does not say '$message'"; }
}
step "consumers: all of vkml::bridge; unknown target, unknown component, incompatible versions"
consume good "$prefix" "$scratch/bad" -DREQUEST="$abi" -DLINK=vkml::bridge -DMAIN="$scratch/bad/all.cpp" ||
    { cat "$scratch/consumers/good.log"; fail "a consumer of vkml::bridge (vkml $abi) did not configure"; }
cmake --build "$scratch/consumers/good" >"$scratch/consumers/good-build.log" 2>&1 ||
    { cat "$scratch/consumers/good-build.log"; fail "a consumer of vkml::bridge did not build"; }
"$scratch/consumers/good/app" || fail "the vkml::bridge consumer failed"
expect_failure unknown_target "links 'vkml::plugin', which the vkml package does not provide. Its targets: vkml::mlplugin, " \
    -DREQUEST="$abi" -DLINK=vkml::plugin
expect_failure unknown_component "vkml has no component 'plugin'. Components (targets vkml::<name>): vkml::mlplugin" \
    -DREQUEST="$abi" -DCOMPONENTS="COMPONENTS;plugin" -DLINK=vkml::mlplugin
major=${abi%.*} minor=${abi#*.}
for request in "$major.$((minor + 1))" "$((major + 1)).0" "$major.$((minor - 1))"; do
    [ "${request#*.}" != "-1" ] || continue
    expect_failure "version_$request" "compatible with requested version \"$request\"" -DREQUEST="$request" -DLINK=vkml::mlplugin
    grep -qF "version: $version" "$scratch/consumers/version_$request.log" ||
        { cat "$scratch/consumers/version_$request.log"; fail "version_$request: the message does not name the version found"; }
done

# -- 4. pkg-config ---------------------------------------------------------------------------------
step "pkg-config vkml-mlplugin: a program built with its flags reports the library version"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
[ "$(pkg-config --modversion vkml-mlplugin)" = "$version" ] || fail "pkg-config --modversion vkml-mlplugin is not $version"
cat >"$scratch/pc.cpp" <<'EOF'
#include <mlplugin/mlplugin.h>
#include <cstdio>
int main() {
    std::printf("mlplugin %s, headers %d\n", mlplugin::versionString(), MLPLUGIN_VERSION);
    return mlplugin::version() == mlplugin::headerVersion() ? 0 : 1;
}
EOF
# shellcheck disable=SC2046
g++ -std=c++20 "$scratch/pc.cpp" -o "$scratch/pc" $(pkg-config --cflags --libs vkml-mlplugin) -Wl,-rpath,"$prefix/$libdir" ||
    fail "building with pkg-config's flags"
grep -qF "mlplugin $version" <<<"$("$scratch/pc")" || fail "the pkg-config program does not report mlplugin $version"
unset PKG_CONFIG_PATH

# -- 5. the installed tools find the models next to themselves, and say where they looked ---------
step "installed tools: models found from the executable's location; missing ones named"
grep -qF "$prefix/share/vkml/models" <<<"$("$prefix/bin/mlrun" --list-models)" || fail "mlrun --list-models does not list $prefix/share/vkml/models"
"$prefix/bin/upscale_demo" --headless --mode ml --frames 1 --width 64 --height 48 "${validation[@]}" --out "$scratch/demo" >"$scratch/demo.log" 2>&1 ||
    { cat "$scratch/demo.log"; fail "the installed upscale_demo --mode ml failed"; }
grep -q "(ml)" "$scratch/demo.log" || { cat "$scratch/demo.log"; fail "the installed upscale_demo did not run the ML upscaler"; }
expect_tool_failure() {  # expect_tool_failure MESSAGE COMMAND...
    local message=$1 out
    shift
    if out=$("$@" 2>&1); then fail "'$*' succeeded; expected: $message"; fi
    grep -qF -- "$message" <<<"$out" || fail "'$*' failed without saying '$message':\n$out"
}
expect_tool_failure "VKML_MODEL_DIR=$scratch/none is not a directory (it does not exist)" \
    env VKML_MODEL_DIR="$scratch/none" "$prefix/bin/upscale_demo" --headless --mode ml --out "$scratch/demo"
mv "$prefix/share/vkml/models" "$prefix/share/vkml/models.away"
expect_tool_failure "expected $prefix/share/vkml/models (../share/vkml/models from the executable $prefix/bin/upscale_demo)" \
    "$prefix/bin/upscale_demo" --headless --mode ml --out "$scratch/demo"
expect_tool_failure "'upscaler_x2' is not a file here, and cannot find upscaler_x2.onnx: no model directory: expected $prefix/share/vkml/models" \
    "$prefix/bin/mlrun" upscaler_x2 --output-dir "$scratch/mlrun"
grep -qF "upscaler_x2.onnx" <<<"$(VKML_MODEL_DIR="$prefix/share/vkml/models.away" "$prefix/bin/mlrun" --list-models)" ||
    fail "mlrun ignores VKML_MODEL_DIR"
mv "$prefix/share/vkml/models.away" "$prefix/share/vkml/models"

# -- 6. symbol visibility: the API exported, the internals hidden ---------------------------------
step "symbol visibility of the libraries"
lib=$prefix/$libdir/libvkml_mlplugin
if [ "$shared" = ON ]; then
    symbols=$(nm -DC --defined-only "$lib.so")
    grep -q "mlplugin::createDevice(" <<<"$symbols" || fail "libvkml_mlplugin.so does not export mlplugin::createDevice"
    grep -q "mlplugin::versionString()" <<<"$symbols" || fail "libvkml_mlplugin.so does not export mlplugin::versionString"
    grep -q "DeviceImpl::" <<<"$(nm -C "$lib.so")" || fail "libvkml_mlplugin.so has no DeviceImpl symbols to check"
    if grep -q "DeviceImpl" <<<"$symbols"; then fail "libvkml_mlplugin.so exports internal symbols (DeviceImpl)"; fi
    if grep -q "spirv\|mlplugin::shaders::" <<<"$symbols"; then fail "libvkml_mlplugin.so exports its shaders"; fi
else
    symbols=$(readelf -sW "$lib.a" | c++filt)
    grep -E "GLOBAL +DEFAULT +[0-9]+ .*mlplugin::createDevice\(" <<<"$symbols" >/dev/null || fail "mlplugin::createDevice is not a default-visibility symbol"
    grep -E "GLOBAL +HIDDEN +[0-9]+ .*mlplugin::shaders::" <<<"$symbols" >/dev/null || fail "the embedded shaders are not hidden"
    grep -E "GLOBAL +HIDDEN +[0-9]+ .*::DeviceImpl::" <<<"$symbols" >/dev/null || fail "no hidden DeviceImpl symbols in libvkml_mlplugin.a"
    if grep -E "GLOBAL +DEFAULT +[0-9]+ .*::DeviceImpl::" <<<"$symbols" >/dev/null; then fail "internal symbols (DeviceImpl) are not hidden"; fi
fi

# -- 7. Debian packages: built, unpacked, consumed; their Depends resolve on Debian 12 --------------
step "Debian packages (cpack -G DEB)"
(cd "$build" && cpack -G DEB -B "$scratch/deb" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log"; fail "cpack -G DEB"; }
debs=("$scratch"/deb/*.deb)
expected_debs="libvkml-dev vkml-tools"
[ "$shared" = ON ] && expected_debs="libvkml$abi $expected_debs"
for p in $expected_debs; do
    ls "$scratch/deb/${p}_${version}_"*.deb >/dev/null 2>&1 || fail "no package $p (built: ${debs[*]##*/})"
done
for d in "${debs[@]}"; do
    echo "  ${d##*/}: Depends: $(dpkg-deb -f "$d" Depends)"
    dpkg -x "$d" "$scratch/debroot"
done
if leaks=$(grep -rlF -e "$root" -e "$build" "$scratch/debroot"); then fail "packaged files name the source or build tree:\n$leaks"; fi
step "examples/onnx_inference against the unpacked packages"
consume example-deb "$scratch/debroot/usr" "$root/examples/onnx_inference" ||
    { cat "$scratch/consumers/example-deb.log"; fail "configuring the example against the unpacked packages"; }
cmake --build "$scratch/consumers/example-deb" >"$scratch/consumers/example-deb-build.log" 2>&1 ||
    { cat "$scratch/consumers/example-deb-build.log"; fail "building the example against the unpacked packages"; }
LD_LIBRARY_PATH="$scratch/debroot/usr/$libdir" "$scratch/consumers/example-deb/onnx_inference" "${validation[@]}" ||
    fail "the example failed against the unpacked packages"
grep -qF "$scratch/debroot/usr/share/vkml/models" <<<"$("$scratch/debroot/usr/bin/mlrun" --list-models)" ||
    fail "the packaged mlrun does not find the packaged models"
# apt on a system where nothing is installed yet: every Depends must name a Debian 12 package.
if ! apt-cache show libvulkan1 >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then apt-get update -qq; fi
if apt-cache show libvulkan1 >/dev/null 2>&1; then
    : >"$scratch/empty-status"
    apt-get install -s -o Dir::State::status="$scratch/empty-status" -o Debug::NoLocking=1 "${debs[@]}" >"$scratch/apt.log" 2>&1 ||
        { cat "$scratch/apt.log"; fail "apt cannot install the packages on a clean Debian 12 (simulated)"; }
    echo "  apt (simulated, clean system): $(grep -c '^Inst ' "$scratch/apt.log") packages to install, no unmet dependencies"
else
    fail "apt has no package lists (run apt-get update) to resolve the packages' Depends against"
fi

# -- 8. the API reference builds without a warning ------------------------------------------------
step "Doxygen reference (cmake --build $build --target docs)"
cmake --build "$build" --target docs >"$scratch/docs.log" 2>&1 || { cat "$scratch/docs.log"; fail "the Doxygen reference has warnings"; }
[ -f "$build/docs/html/index.html" ] || fail "no $build/docs/html/index.html"

step "all package checks passed"
