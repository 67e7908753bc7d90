#!/usr/bin/env bash
# The whole training pipeline, end to end (tools/train/README.md):
#   build upscale_demo + mlrun -> render training and held-out data -> train both networks
#   -> export ONNX into assets/ (+ mlrun check against PyTorch) -> evaluate -> docs/QUALITY.md
# Environment: TRAIN_BUILD (build dir, default build-train), TRAIN_DATA (default tools/train/data),
# TRAIN_THREADS (PyTorch CPU threads), TRAIN_DEVICE (cpu|cuda; default CUDA when present),
# PYTHON (default /usr/bin/python3: the interpreter with PyTorch).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${TRAIN_BUILD:-$root/build-train}
data=${TRAIN_DATA:-$here/data}
py=${PYTHON:-/usr/bin/python3}
export TRAIN_BUILD=$build TRAIN_DATA=$data
mkdir -p "$data"
timings=$data/timings.json
echo "{}" > "$timings"

step() {  # step NAME COMMAND...: runs it, records its wall time in timings.json
    local name=$1; shift
    echo "== $name"
    local t0=$(date +%s)
    "$@"
    local t=$(( $(date +%s) - t0 ))
    "$py" -c "import json,sys; d=json.load(open(sys.argv[1])); d[sys.argv[2]]=int(sys.argv[3]); json.dump(d,open(sys.argv[1],'w'),indent=1)" "$timings" "$name" "$t"
    echo "== $name: ${t} s"
}

build() {
    [ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
    ninja -C "$build" upscale_demo mlrun
}

t_start=$(date +%s)
step "build (upscale_demo, mlrun)" build
cd "$here"
"$py" metrics.py
step "render training data" "$py" render.py train
step "train (upscaler + denoiser)" "$py" train.py "$@"
step "render held-out data" "$py" render.py eval
step "export ONNX + mlrun check" "$py" export.py
"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); d['total so far (before evaluation)']=int(sys.argv[2]); json.dump(d,open(sys.argv[1],'w'),indent=1)" "$timings" "$(( $(date +%s) - t_start ))"
step "evaluate (held-out paths)" "$py" evaluate.py
echo "pipeline done in $(( $(date +%s) - t_start )) s; docs/QUALITY.md written"
