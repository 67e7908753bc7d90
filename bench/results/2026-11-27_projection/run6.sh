# Every candidate tile of the projected convolutions forced through a tuning table
# (GraphCompile.PointwiseHeadsOnEveryCandidateTile), with the validation layer.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
.devcarry/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.Pointwise*' 2>&1 | tee $OUT/conformance.txt | grep -E "OK|FAILED|PASSED|validation|Failure" | head -30
