# Thirty-third session, the command after verify.sh on the same machine: r31's control a and the
# shipped quality model r on the other held-out plans (1.5x, 3x, still/slow, 1x, 1.25x), TAAU
# beside each -> quality/{x1.5,x3,static,x1,x1.25}_{a,r}.md. Carry [".devcarry"].
# MODELS ("name:path ...", paths from the repository root) and LIMIT (seconds after which no
# further evaluation starts) default to what that command ran; heldout_c.sh sets them.
python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh; root=$PWD; export VKML_MODEL_DIR=$root/assets; mkdir -p $OUT/q; cd .devcarry/heldout
models=${MODELS:-"a:tools/train/logs/r31/out/upscaler_temporal_a.onnx r:assets/upscaler_temporal.onnx"}
for p in heldout_temporal.json:x1.5:0.6666667 heldout_temporal.json:x3:0.3333333 heldout_static.json:static:0.5 \
         heldout_temporal.json:x1:1.0 heldout_temporal.json:x1.25:0.8; do
  IFS=: read -r plan rep scale <<< "$p"
  for m in $models; do
    left=$(( ${LIMIT:-330} - SECONDS )); [ $left -lt 30 ] && { echo "$rep ${m%%:*} skipped"; continue; }
    timeout $left python3 -u $root/tools/train/evaluate_temporal.py $plan --work /tmp/h_${rep}_${m%%:*} --demo $root/.devcarry/bin/upscale_demo \
      --jobs 11 --timeout 90 --score-on cuda --methods taau,ml-temporal --temporal-model $root/${m#*:} --render-scale $scale --crops 0 \
      --report $OUT/q/${rep}_${m%%:*}.md > $OUT/q/${rep}_${m%%:*}.log 2>&1
    echo "$rep ${m%%:*} rc $? ${SECONDS}s: $(grep -E '^\| (TAAU|temporal ML)' $OUT/q/${rep}_${m%%:*}.md | tr '\n' ' ')"
  done
done
cd $OUT && tar czf q.tgz q && rm -rf q
