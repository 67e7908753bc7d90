# After the channel padding (on by default on tensor-core devices): the suites that compile graphs
# or run networks, on the GPU machine under validation. Pack as run.sh (tools/conformance_pack.sh,
# then the layer and binaries in .devcarry/big.txz); carry [".devcarry"].
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra VKML_MODEL_DIR=$PWD/assets
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import tarfile; tarfile.open('.devcarry/tb.txz').extractall('/tmp')"
mkdir -p /tmp/logs && cd /tmp/tb
ls mlplugin_graph_tests mlplugin_graph_reshape_tests bridge_*_tests effects_*_tests mlplugin_onnx_gpu_tests mlplugin_readme_example_tests \
   mlplugin_framework_tests mlplugin_convolution_tests demo_*_tests | xargs -P 6 -I{} sh -c 'timeout 400 ./{} > /tmp/logs/{}.log 2>&1; echo "{} rc=$?"' | sort
cd /tmp/logs
for f in *.log; do printf '%-36s %s %s\n' "${f%.log}" "$(grep -h '^\[  PASSED  \]' $f | head -1)" "$(grep -h '^\[  SKIPPED \]' $f | head -1)"; done
echo "== failures"; grep -h '^\[  FAILED  \]' *.log | sort -u | head -20
echo "== validation messages"; grep -h '\[validation\]' *.log | sort | uniq -c | head
tar czf $OUT/conformance_after_padding.tgz *.log
