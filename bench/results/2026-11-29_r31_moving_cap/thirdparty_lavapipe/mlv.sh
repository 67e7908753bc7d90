#!/bin/bash
# mlv.sh TAG DEMO PLAN REFDIR [model]: ml-temporal alone on the plan's sequences (refs shared)
tag=$1 demo=$2 plan=$3 ref=$4 model=${5:-/work/main/assets/upscaler_temporal.onnx}; shift 4
seqs=$(cat /tmp/tune/seqs.txt); [ "$plan" != /tmp/tune/plan.json ] && seqs=$(cd $(dirname $plan) && python3 -c "import json;print(','.join(s['name'] for s in json.load(open('$(basename $plan)'))['sequences']))")
w=/tmp/mlv/$tag; mkdir -p $w
for s in ${seqs//,/ }; do mkdir -p $w/$s; ln -sfn $ref/$s/reference $w/$s/reference; done
cd $(dirname $plan) && VKML_MODEL_DIR=/work/main/assets /usr/bin/python3 -u /work/main/tools/train/evaluate_temporal.py $(basename $plan) --work $w --demo $demo --jobs 2 --methods ml-temporal --temporal-model $model --sequences $seqs --crops 0 --report $w/report.md > $w/log 2>&1
echo "== $tag: $(sed -n '/^| temporal ML/p' $w/report.md | head -1)"
