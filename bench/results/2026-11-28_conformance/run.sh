# The whole GoogleTest suite (42 binaries of the Release build, stripped, carried as .devcarry/tb.txz)
# on the GPU machine with the Khronos validation layer and synchronization validation on (the
# tests' own context asks for both; any message fails the test). Pack with
# tools/conformance_pack.sh [build/demos/effect_sample/effect_sample], then run from the repository
# root there with carry [".devcarry"]. LIMIT: seconds per binary (default 400).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra
python3 -c "import tarfile; tarfile.open('.devcarry/tb.txz').extractall('/tmp')"
mkdir -p /tmp/logs && cd /tmp/tb
ls *_tests | xargs -P 8 -I{} sh -c 'timeout ${LIMIT:-400} ./{} > /tmp/logs/{}.log 2>&1; echo "{} rc=$?"' | sort
cd /tmp/logs
echo "== summary"
for f in *.log; do
  printf '%-40s %s %s\n' "${f%.log}" "$(grep -h '^\[  PASSED  \]' $f | head -1)" "$(grep -h '^\[  SKIPPED \]' $f | head -1)"
done
echo "== failures"; grep -h '^\[  FAILED  \]' *.log | sort -u | head -40
echo "== validation messages"; grep -h '\[validation\]' *.log | sort | uniq -c | head -20
tar czf $OUT/conformance_logs.tgz *.log
# The golden frame as this GPU renders it (engine_golden_tests compares it with lavapipe's).
/work/main/.devcarry/bin/upscale_demo --write-golden $OUT/golden_96x64_device.png | tail -n 1
