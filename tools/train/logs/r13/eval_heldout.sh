# The held-out split on the GPU machine: every method and the reference, at the plan's 2x
# (480x272), at 1.5x and 3x, and at 960x540 and 1920x1080 output; for the shipped network and
# for each candidate named in CANDIDATES (ONNX files). Reports and scores go into $OUT/heldout.tgz,
# refreshed after every setting (a command cut off at its limit still returns what it finished).
# Run from the repository root on the GPU machine (carry [".devcarry"]: ../shared/device/pack.sh of
# upscale_demo and frame_bench, plus .devcarry/heldout holding heldout_temporal.json, heldout_paths/,
# the gen*/ scenes of make_scenes.py and assets/models/ of fetch_heldout.md: tools/train/README.md).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
demo=$PWD/.devcarry/bin/upscale_demo ev=$PWD/tools/train/evaluate_temporal.py
cd .devcarry/heldout && mkdir -p reports
settings=${SETTINGS:-"d1920:--display=1920x1080 d960:--display=960x540 x2: x1.5:--render-scale=0.6666667 x3:--render-scale=0.3333333"}
for s in $settings; do
  for model in shipped ${CANDIDATES:-}; do
    tag=${s%%:*} arg=${s#*:}
    margs=() methods=bilinear,bicubic,taau,ml-temporal
    [ "$model" = shipped ] || margs=(--temporal-model "$OLDPWD/$model")
    [ "$tag" = x2 ] && methods=bilinear,bicubic,ml,taau,ml-temporal
    name=$(basename "${model%.onnx}")_$tag
    echo "== $name"
    python3 "$ev" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs "${EVAL_JOBS:-10}" --crops 0 --methods $methods \
      ${arg:+$arg} "${margs[@]}" --report reports/$name.md 2>&1 | tail -n 3
    sed -n '/^| Method/,/^$/p' reports/$name.md
    cp /tmp/ho/scores*.json reports/ 2>/dev/null
    tar czf $OUT/heldout.tgz reports
  done
done
