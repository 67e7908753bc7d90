#!/usr/bin/env bash
# Packs an A/B measurement for the GPU machine: the benchmark tools of a base commit (built in a
# worktree beside this checkout, "_old") and of the current build ("_new"), so that one device
# command can time both alternately (bench/RESULTS.md: every A/B of a kernel change ran so; timings
# from different commands drift by more than many changes gain).
#
#   tools/ab_pack.sh BASE_COMMIT [TOOL...] [-- EXTRA...]
#
# TOOL: targets under bench/ (default: ml_bench frame_bench). EXTRA: appended to
# ../shared/device/pack.sh's arguments after the two builds' tools (more binaries, then its own
# `--` and extra files). Result: .devcarry/bin/TOOL_old and TOOL_new, stripped, and
# the device command then runs, for example:
#   source .devcarry/env.sh; for r in 1 2; do for v in old new; do
#     .devcarry/bin/ml_bench_$v --group network --filter '...' --assets assets | sed "s/^/$v r$r /"; done; done
# The base build lives in ../ab-base (a git worktree, kept between calls; ccache makes rebuilds
# cheap); BUILD_DIR names the current build (default build/).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: tools/ab_pack.sh BASE_COMMIT [TOOL...] [-- EXTRA...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(git -C "$root" rev-parse --verify -q "$1^{commit}" 2>/dev/null) || { echo "ab_pack: '$1' is not a commit" >&2; exit 2; }
shift
tools=() extras=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; extras=("$@"); break; fi
  tools+=("$1"); shift
done
[ ${#tools[@]} -gt 0 ] || tools=(ml_bench frame_bench)
build=${BUILD_DIR:-$root/build}
tree=$(dirname "$root")/ab-base
if [ -d "$tree" ]; then
  git -C "$tree" checkout -q --detach "$base"
else
  git -C "$root" worktree add -q --detach "$tree" "$base"
fi
echo "ab_pack: base $(git -C "$tree" log --oneline -1) in $tree"
CCACHE_BASEDIR=$(dirname "$root") cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
CCACHE_BASEDIR=$(dirname "$root") cmake --build "$tree/build" --parallel "$(nproc)" --target "${tools[@]}"
cmake --build "$build" --parallel "$(nproc)" --target "${tools[@]}"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
binaries=()
for t in "${tools[@]}"; do
  cp "$tree/build/bench/$t" "$staging/${t}_old"
  cp "$build/bench/$t" "$staging/${t}_new"
  binaries+=("$staging/${t}_old" "$staging/${t}_new")
done
cd "$root"
"$root/../shared/device/pack.sh" "${binaries[@]}" ${extras[@]+"${extras[@]}"}
strip .devcarry/bin/* 2>/dev/null || true
du -sh .devcarry
