# Twenty-ninth session: the temporal ML feature pass with the 5-tap Catmull-Rom history fetch
# (the TAAU resolve's; corners dropped and renormalised) against the 9-tap one that
# tools/train/temporal.py mirrors, with r27's p4 as the network, three alternating rounds of
# frame_bench --effect-steps; a timing-only ablation without the feature pass's sRGB encode
# (wrong images); then p4's held-out quality through the 5-tap upscale_demo (the network was
# trained on 9-tap features). Builds: HEAD (base) and HEAD with "#define HISTORY_FETCH_5_TAPS"
# (and "#define linearToSrgb(x) (x)") in ml_features.comp, not committed. Carry [".devcarry"]
# with frame_bench_{base,5tap,5tap_nosrgb} and upscale_demo_5tap in .devcarry/big.txz.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
root=$PWD P=$PWD/tools/train/logs/r27/out/upscaler_temporal_p4.onnx
rm -rf /tmp/ap; cp -r assets /tmp/ap && cp $P /tmp/ap/upscaler_temporal.onnx
cp .devcarry/bin/frame_bench .devcarry/bin/frame_bench_base
for round in 1 2 3; do for v in base 5tap 5tap_nosrgb; do
  timeout 60 .devcarry/bin/frame_bench_$v --frames 200 --warmup 20 --assets /tmp/ap --filter ml-temporal --effect-steps | grep -E "upscale_" | sed "s/^/$v r$round /"
done; done
export VKML_MODEL_DIR=$root/assets
mkdir -p $OUT/quality
cd .devcarry/heldout
for p in heldout_temporal.json:temporal heldout_static.json:temporal_static; do
  IFS=: read -r plan report <<< "$p"
  timeout 130 python3 -u $root/tools/train/evaluate_temporal.py $plan --work /tmp/ho5 --demo $root/.devcarry/bin/upscale_demo_5tap \
    --jobs 11 --timeout 100 --score-on cuda --methods taau,ml-temporal --temporal-model $P --crops 0 \
    --report $OUT/quality/${report}_p4_5tap.md > $OUT/quality/${report}_p4_5tap.log 2>&1
  echo "$report: rc $?"; sed -n '/^| Method/,/^$/p' $OUT/quality/${report}_p4_5tap.md
done
