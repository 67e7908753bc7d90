# r22, first device command: copies the repository to /tmp/r22/root (a later command's sync of the
# working tree must not change the scripts under the running job), starts r22_pipeline.sh in its
# own process session so it outlives this command, and follows it (r22_wait.sh) for $1 seconds.
# Carry [".devcarry"]: tools/conformance_pack.sh build/bench/frame_bench
# build/demos/effect_sample/effect_sample, then .devcarry/heldout (tools/train/README.md) and
# .devcarry/abc2/upscaler_temporal.onnx (c2 exported by export_temporal.py); then
#   (cd .devcarry && tar cf - lib/libVkLayer_khronos_validation.so bin | xz > big.txz && rm -r lib/libVk* bin)
[ -e /tmp/r22 ] && { echo "/tmp/r22 exists: this machine ran r22 already; use r22_wait.sh"; exit 3; }
mkdir -p /tmp/r22/root /tmp/r22/out
# The validation layer and the binaries travel xz-compressed (.devcarry/big.txz): with the test
# binaries and the held-out content they exceed the 64 MiB the device tool carries otherwise.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
cp -r tools assets bench .devcarry /tmp/r22/root/
setsid nohup bash /tmp/r22/root/tools/train/logs/r22/r22_pipeline.sh > /tmp/r22/pipeline.log 2>&1 < /dev/null &
bash tools/train/logs/r22/r22_wait.sh "${1:-570}"
