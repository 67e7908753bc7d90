#!/usr/bin/env bash
# The temporal upscaler's training pipeline end to end at a tiny size, on this machine's Vulkan
# device: scenes (make_scenes.py), a plan with slow windows at three upscale ratios and two display
# sizes (render_temporal.py --render-scales, --displays), rendering with the engine, a few training steps with truncated back-propagation
# from the shipped weights (train_temporal.py --detach-every; batches of one ratio, crops of whole
# render pixels), the export's ratio-feature metadata, and validation per ratio and display size with the TAAU baseline
# (validate_temporal.py); then the held-out evaluation at another ratio and another output size
# (a subset of its plan, in worker processes), and a new network's column merged into a report
# (merge_temporal_report.py). Also: a plan that would render held-out content (street seed 8, which heldout_temporal.json
# uses) must be refused, naming the scene.
# Usage: temporal_training_test.sh UPSCALE_DEMO PROJECT_SOURCE_DIR WORK_DIR
set -euo pipefail
demo=$1 root=$2 work=$3
source "$(dirname "$0")/../support/script_test.sh"
require_python torch PIL numpy
train=$root/tools/train
# The metrics, in numpy and in torch (the GPU scoring's path) alike.
"$py" "$train/metrics.py" > /dev/null
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$py" "$train/make_scenes.py" --out scenes --kinds street --seeds 1 --texture-size 64 > /dev/null
"$py" "$train/make_scenes.py" --out held --kinds street --seeds 8 --texture-size 64 > /dev/null
if "$py" "$train/render_temporal.py" plan --scenes held --out refused.json --kinds street --seeds 8 --procedural-seeds "" 2> refused.txt; then
  echo "FAIL: a plan rendering the held-out street_s8 was accepted"; exit 1
fi
grep -q "street_s8.glb" refused.txt || { echo "FAIL: the refusal does not name the scene:"; cat refused.txt; exit 1; }
"$py" "$train/render_temporal.py" plan --scenes scenes --out plan.json --kinds street --seeds 1 --procedural-seeds 1 --paths orbit \
  --displays 96x48,192x96 --frames 10 --supersample 2 --windows 1 --slow-windows 1 --static-windows 1 --render-scales 0.5,0.6666667,0.3333333
grep -q '"fps": 120' plan.json || { echo "FAIL: the plan has no slow window"; exit 1; }
# One sequence per ratio and display size, a slow window first among them, plus one still window
# (a camera-path file of its own that holds one pose of its path, and the procedural scene's path
# at 1000 frames per second).
only=$("$py" - <<'PY'
import json
seqs = json.load(open("plan.json"))["sequences"]
pick = {}
for s in sorted((s for s in seqs if "_static" not in s["name"]), key=lambda s: "_slow" not in s["name"]):
    pick.setdefault((s["render_scale"], tuple(s["display"])), s["name"])
assert len(pick) == 6, f"the plan does not pair every ratio with every display size: {sorted(pick)}"
still = [s for s in seqs if "_static" in s["name"]]
assert {s.get("scene_seed") for s in still} == {None, 1}, [s["name"] for s in still]
for s in still:
    if "camera_path" in s:
        keys = json.load(open(s["camera_path"]))["keyframes"]
        pose = [{f: v for f, v in k.items() if f != "time"} for k in keys]
        assert len(keys) == 2 and keys[1]["time"] > keys[0]["time"] and pose[0] == pose[1], keys
        assert keys[0]["position"] in [k["position"] for k in json.load(open("scenes/street_s1_walk.json"))["keyframes"]] \
            or keys[0]["position"] in [k["position"] for k in json.load(open("scenes/street_s1_facades.json"))["keyframes"]], keys[0]
    else:
        assert s["fps"] == 1000, s
print(",".join(list(pick.values()) + [still[0]["name"]]))
PY
)
# A scale that does not divide a display size exactly (0.8 of 96x48) renders at the nearest size
# below that it divides (95x45: render 76x36, exactly 1.25x), named by its ratio.
"$py" "$train/render_temporal.py" plan --scenes scenes --out plan_x125.json --kinds street --seeds 1 --procedural-seeds 1 --paths orbit \
  --displays 96x48,192x96 --frames 10 --windows 1 --render-scales 0.8,1.0 2> /dev/null
"$py" - <<'PY'
import json
seqs = json.load(open("plan_x125.json"))["sequences"]
sizes = {(s["render_scale"], tuple(s["display"])) for s in seqs}
assert sizes == {(0.8, (95, 45)), (0.8, (190, 95)), (1.0, (96, 48)), (1.0, (192, 96))}, sizes
assert all(("_x1.25_" in s["name"]) == (s["render_scale"] == 0.8) for s in seqs), [s["name"] for s in seqs]
PY
# A plan that cannot fit the disk is refused before anything renders (/bin/false would fail), with
# the sizes: 20000 frames at 16384x16384 need about 80 TB.
"$py" - <<'PY'
import json
p = json.load(open("plan.json"))
p["display"], p["frames"] = [16384, 16384], 20000
p["sequences"] = p["sequences"][:1]
p["sequences"][0].pop("display", None)
json.dump(p, open("huge_plan.json", "w"))
PY
if "$py" "$train/render_temporal.py" render huge_plan.json --out huge --demo /bin/false 2> huge.txt; then
  echo "FAIL: a plan larger than the disk was rendered"; exit 1
fi
grep -q "need up to [0-9.]* GB in huge and it has [0-9.]* GB free" huge.txt || { echo "FAIL: the refusal does not give the sizes:"; cat huge.txt; exit 1; }
"$py" "$train/render_temporal.py" render plan.json --out data --demo "$demo" --only "$only"
# The reference is kept as training reads it, 8-bit sRGB in one reference_u8.npy per sequence (the
# float means are deleted: they filled a GPU machine's disk), and agrees with the PNG frames; a
# second render of the plan finds every sequence complete and runs nothing (/bin/false would fail).
"$py" - <<'PY'
import glob
import numpy as np
from PIL import Image
refs = glob.glob("data/*/reference")
assert len(refs) == 7, refs
for ref in refs:
    assert not glob.glob(f"{ref}/output_*.npy"), f"{ref}: float frames left"
    kept = np.load(f"{ref}/reference_u8.npy")
    png = np.stack([np.array(Image.open(p))[..., :3].transpose(2, 0, 1) for p in sorted(glob.glob(f"{ref}/frame_*.png"))])
    assert kept.dtype == np.uint8 and kept.shape == png.shape, (ref, kept.dtype, kept.shape, png.shape)
    assert np.abs(kept.astype(int) - png).max() <= 1, (ref, np.abs(kept.astype(int) - png).max())
PY
"$py" "$train/render_temporal.py" render plan.json --out data --demo /bin/false --only "$only"
"$py" "$train/train_temporal.py" --data data --steps 6 --batch 2 --crop 48 --frames 10 --detach-every 4 --unshuffle 2 \
  --first-kernel 3 --init "$root/assets/upscaler_temporal.npz" --log-every 1 --out trained.npz
# The shipped network's weights under the blend resolve (the metadata's cap left out), for the
# switch to the accumulating resolve below and as a teacher of the other resolve; prints the
# shipped network's cap (inf: the blend resolve).
shipped_cap=$("$py" - "$train" "$root/assets/upscaler_temporal.npz" <<'PY'
import math, sys
sys.path.insert(0, sys.argv[1])
import train_temporal
net, meta = train_temporal.load_net(sys.argv[2])
print(f"{net.history_weight_cap:g}")
net.history_weight_cap = math.inf
train_temporal.save_npz(net, "blend.npz", dict(meta, history_weight_cap=None))
PY
)
# Distillation: a smaller student learns from the shipped network's output on the student's own
# features and history (train_temporal.py --teacher), on the teacher's resolve; the teacher's
# output, given the same network, must be the student's own.
cap_args=()
[ "$shipped_cap" = inf ] || cap_args=(--history-weight-cap "$shipped_cap")
"$py" "$train/train_temporal.py" --data data --steps 2 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 2 \
  --first-kernel 1 --teacher "$root/assets/upscaler_temporal.npz" --distill-weight 0.5 "${cap_args[@]}" --log-every 1 --save-every 1 \
  --loss mse --out student.npz > student.log
# --loss mse: every term measured by the squared error (what PSNR scores), named in the progress
# output and kept in the weights' metadata; a distance it does not know is refused by name.
grep -q "mse loss)" student.log || { echo "FAIL: the progress output does not name the mse loss:"; cat student.log; exit 1; }
"$py" -c "import json, numpy as np, sys; m = json.loads(bytes(np.load(sys.argv[1])['meta']).decode()); sys.exit(m['loss'] != 'mse')" student.npz ||
  { echo "FAIL: student.npz's metadata does not record the mse loss"; exit 1; }
"$py" - "$train" <<'PY' || { echo "FAIL: --loss mse does not measure the squared error"; exit 1; }
import sys, torch
sys.path.insert(0, sys.argv[1])
import train_temporal
a, b = torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.1, 0.5, 0.4])
assert abs(float(train_temporal.DISTANCES["mse"](a, b)) - (0.01 + 0.36) / 3) < 1e-7
assert abs(float(train_temporal.DISTANCES["charbonnier"](a, b)) - (0.1 + 1e-3 + 0.6) / 3) < 1e-4
PY
if "$py" "$train/train_temporal.py" --data data --steps 1 --loss l3 --out never.npz > bad_loss.txt 2>&1 ||
   ! grep -q "argument --loss: invalid choice: 'l3'" bad_loss.txt; then
  echo "FAIL: --loss l3 was not refused by name:"; cat bad_loss.txt; exit 1
fi
# --save-every: a whole network in --out after every N steps (a run cut off can be continued), and
# no partial file left behind; a negative interval is refused by name.
grep -q "checkpoint of step 1 in student.npz" student.log || { echo "FAIL: no checkpoint in:"; cat student.log; exit 1; }
! ls ./*.partial.npz 2>/dev/null || { echo "FAIL: a partial checkpoint was left behind"; exit 1; }
if "$py" "$train/train_temporal.py" --data data --steps 1 --save-every -2 --out never.npz > bad_save.txt 2>&1 ||
   ! grep -q "save-every must be >= 0, got -2" bad_save.txt; then
  echo "FAIL: --save-every -2 was not refused by name:"; cat bad_save.txt; exit 1
fi
# --moving-history-weight: the accumulating resolve's moving pixels keep at most that much history
# weight (temporal.features), named in the progress output and kept in the weights' metadata; a
# network on the blend resolve, a weight above its cap or a non-positive one is refused by name.
"$py" "$train/train_temporal.py" --data data --steps 1 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 2 \
  --first-kernel 1 --history-weight-cap 4 --moving-history-weight 0.5 --log-every 1 --out moving.npz > moving.log
grep -q "accumulating resolve, history weight cap 4, moving pixels 0.5" moving.log ||
  { echo "FAIL: the progress output does not name the moving pixels' cap:"; cat moving.log; exit 1; }
"$py" -c "import json, numpy as np, sys; m = json.loads(bytes(np.load(sys.argv[1])['meta']).decode()); sys.exit(m['moving_history_weight'] != 0.5)" moving.npz ||
  { echo "FAIL: moving.npz's metadata does not record the moving pixels' cap"; exit 1; }
for bad in "--moving-history-weight 0.5:needs the accumulating resolve" \
           "--history-weight-cap 4 --moving-history-weight 5:no larger than the history weight cap 4, got 5" \
           "--history-weight-cap 4 --moving-history-weight -1:--moving-history-weight must be a positive number, got -1"; do
  if "$py" "$train/train_temporal.py" --data data --steps 1 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 2 \
    --first-kernel 1 ${bad%%:*} --out never.npz > bad_moving.txt 2>&1 || ! grep -q -- "${bad#*:}" bad_moving.txt; then
    echo "FAIL: train_temporal.py ${bad%%:*} was not refused by name:"; cat bad_moving.txt; exit 1
  fi
done
# A teacher on the other resolve would misread the student's history: refused by name.
if "$py" "$train/train_temporal.py" --data data --steps 1 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 2 \
  --first-kernel 1 --teacher blend.npz --history-weight-cap 4 --out bad_teacher.npz > bad_teacher.txt 2>&1; then
  echo "FAIL: a teacher on the blend resolve was accepted for an accumulating student"; exit 1
fi
grep -q "uses the blend resolve, the network trains the accumulating resolve (history weight cap 4)" bad_teacher.txt ||
  { echo "FAIL: the refusal does not name both resolves:"; cat bad_teacher.txt; exit 1; }
grep -q "distilling from .*upscaler_temporal.npz (weight 0.5)" student.log || { echo "FAIL: no distillation in:"; cat student.log; exit 1; }
"$py" - "$train" <<'PY'
import json, sys
import numpy as np
import torch
sys.path.insert(0, sys.argv[1])
import temporal, train_temporal
meta = json.loads(bytes(np.load("student.npz")["meta"]).decode())
assert meta["teacher"] == "upscaler_temporal.npz" and meta["distill_weight"] == 0.5 and meta["width"] == 16, meta
net = train_temporal.load_net("student.npz")[0]
torch.manual_seed(1)
c, d, m = torch.rand(1, 3, 12, 20), torch.rand(1, 1, 12, 20), torch.randn(1, 2, 12, 20)
up = temporal.TemporalUpscaler(net, (24, 40), teacher=net)
with torch.no_grad():
    for t in range(3):
        out = up.step(c, d, m, torch.tensor([temporal.halton_jitter(t, 8)]), reset=(t == 0))
        assert torch.allclose(out, up.teacher_output, atol=1e-6), float((out - up.teacher_output).abs().max())
PY
# Pruning (prune_temporal.py): the shipped network narrowed to 16 channels per layer starts closer
# to it than a fresh network of that width; the channels that carry nothing to the next layer are
# the ones a pruning drops, and then the output does not change; bad widths and an --out that would
# overwrite the weights are refused by name; training continues from the pruned network.
"$py" "$train/prune_temporal.py" --weights "$root/assets/upscaler_temporal.npz" --width 16 --out pruned.npz data/* > prune.log
"$py" - "$train" "$root/assets/upscaler_temporal.npz" <<'PY'
import glob, sys
import torch
sys.path.insert(0, sys.argv[1])
import prune_temporal, temporal, train_temporal
wide, wide_meta = train_temporal.load_net(sys.argv[2])
narrow, meta = train_temporal.load_net("pruned.npz")
assert meta["width"] == 16 and meta["pruned_from"] == "upscaler_temporal.npz", meta
assert meta["history_weight_cap"] == wide_meta["history_weight_cap"] and narrow.unshuffle == wide.unshuffle, meta
assert [tuple(c.weight.shape) for c in narrow.body if isinstance(c, torch.nn.Conv2d)] == [(16, 64, 3, 3), (16, 16, 3, 3), (16, 16, 3, 3), (32, 16, 1, 1)]
sequences = train_temporal.load_sequences(sorted(glob.glob("data/*")), "cpu")
torch.manual_seed(0)
fresh = temporal.TemporalNet(16, 3, wide.unshuffle, 3)
fresh.history_weight_cap, fresh.ratio_feature_max = wide.history_weight_cap, wide.ratio_feature_max
scores = {name: prune_temporal.run_sequences(net, sequences) for name, net in (("wide", wide), ("pruned", narrow), ("fresh", fresh))}
print("pruning PSNR (dB):", scores)
assert scores["pruned"] > scores["fresh"] + 0.2, scores
# A network whose hidden layers each have one dead channel (ReLU never lets it through) and one
# constant one: a pruning by two channels must drop exactly those (given moments that say so), and
# the constant's contribution, folded into the next bias, leaves the output as it was away from the
# zero-padded border.
torch.manual_seed(2)
net = temporal.TemporalNet(8, 3, 2, 3)
convs = [m for m in net.body if isinstance(m, torch.nn.Conv2d)]
dead, constant, level = [2, 0, 7], [6, 3, 4], [2.0, 1.5, 0.5]
moments = []
with torch.no_grad():
    for i in range(3):
        convs[i].bias[dead[i]] = -1e3
        convs[i].weight[constant[i]].zero_()
        convs[i].bias[constant[i]] = level[i]
        convs[i + 1].weight.mul_(4.0)  # the constant's outgoing weights are no smaller than the rest
        mean, rms = torch.full((8,), 0.5, dtype=torch.float64), torch.full((8,), 100.0, dtype=torch.float64)
        mean[dead[i]], rms[dead[i]] = 0.0, 0.0
        mean[constant[i]], rms[constant[i]] = level[i], level[i]
        moments.append((mean, rms))
thin = prune_temporal.prune(net, 6, moments)
thin_convs = [m for m in thin.body if isinstance(m, torch.nn.Conv2d)]
kept_in = list(range(64))
for i in range(4):
    kept = [c for c in range(8) if c not in (dead[i], constant[i])] if i < 3 else list(range(convs[3].out_channels))
    assert torch.equal(thin_convs[i].weight, convs[i].weight[kept][:, kept_in]), f"layer {i} did not keep exactly channels {kept} of {kept_in}"
    kept_in = kept
x = torch.rand(1, 64, 14, 16)
with torch.no_grad():
    diff = float((thin(x) - net(x))[..., 3:-3, 3:-3].abs().max())
    border = float((thin(x) - net(x)).abs().max())
assert diff < 1e-4 < border, (diff, border)
PY
for bad in "--width 32:--width must be 1..31" "--width 0:--width must be 1..31" "--out $root/assets/upscaler_temporal.npz:--out would overwrite --weights"; do
  if "$py" "$train/prune_temporal.py" --weights "$root/assets/upscaler_temporal.npz" --width 16 --out never.npz ${bad%%:*} data/* > bad_prune.txt 2>&1 ||
     ! grep -q -- "${bad#*:}" bad_prune.txt; then
    echo "FAIL: prune_temporal.py ${bad%%:*} was not refused by name:"; cat bad_prune.txt; exit 1
  fi
done
[ ! -e never.npz ] || { echo "FAIL: a refused pruning wrote its output"; exit 1; }
"$py" "$train/train_temporal.py" --data data --steps 1 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 3 \
  --first-kernel 3 --init pruned.npz --log-every 1 --out pruned_trained.npz > pruned_trained.log
# Growing (grow_temporal.py): the performance model one 3x3 layer deeper computes what it did (the
# new layer is the identity on the ReLU's non-negative output) and keeps its metadata; training
# continues from it at the new depth; an --out that would overwrite the weights is refused by name.
"$py" "$train/grow_temporal.py" --weights "$root/assets/upscaler_temporal_fast.npz" --out grown.npz > grow.log
"$py" - "$train" "$root/assets/upscaler_temporal_fast.npz" <<'PY'
import sys
import torch
sys.path.insert(0, sys.argv[1])
import temporal, train_temporal
source, source_meta = train_temporal.load_net(sys.argv[2])
grown, meta = train_temporal.load_net("grown.npz")
assert meta["depth"] == source_meta["depth"] + 1 and meta["grown_from"] == "upscaler_temporal_fast.npz" and meta["steps"] == 0, meta
assert (grown.history_taps, grown.history_weight_cap, grown.ratio_feature_max) == (source.history_taps, source.history_weight_cap, source.ratio_feature_max)
assert [tuple(c.weight.shape) for c in grown.body if isinstance(c, torch.nn.Conv2d)] == [(16, 64, 3, 3), (16, 16, 3, 3), (16, 16, 3, 3), (16, 16, 3, 3), (32, 16, 1, 1)]
torch.manual_seed(3)
x = torch.rand(1, 64, 11, 13) * 2.0 - 0.5
with torch.no_grad():
    gap = float((grown(x) - source(x)).abs().max())
assert gap < 1e-5, gap
PY
if "$py" "$train/grow_temporal.py" --weights "$root/assets/upscaler_temporal_fast.npz" --out "$root/assets/upscaler_temporal_fast.npz" > bad_grow.txt 2>&1 ||
   ! grep -q -- "--out would overwrite --weights" bad_grow.txt; then
  echo "FAIL: grow_temporal.py --out of its own weights was not refused by name:"; cat bad_grow.txt; exit 1
fi
"$py" "$train/train_temporal.py" --data data --steps 1 --batch 2 --crop 48 --frames 6 --unshuffle 2 --width 16 --depth 4 \
  --first-kernel 3 --init grown.npz --log-every 1 --out grown_trained.npz > grown_trained.log
# The accumulating resolve (train_temporal.py --history-weight-cap): switched to from a blend
# network, its cap goes with the weights into the ONNX metadata beside the ratio clamp; a cap that
# is not a positive number is refused by name. The same run switches to the 5-tap history fetch
# (--history-taps 5), which goes into the metadata as "vkml.history_taps" (the 9-tap default of
# trained.npz below stays out of it).
"$py" "$train/train_temporal.py" --data data --steps 2 --batch 2 --crop 48 --frames 6 --unshuffle 2 --first-kernel 3 \
  --init blend.npz --history-weight-cap 4 --history-taps 5 --log-every 1 --out accumulating.npz > accumulating.log
grep -q "accumulating resolve, history weight cap 4" accumulating.log || { echo "FAIL: no accumulating resolve in:"; cat accumulating.log; exit 1; }
if "$py" "$train/train_temporal.py" --data data --steps 1 --history-weight-cap 0 --out bad_cap.npz > bad_cap.txt 2>&1; then
  echo "FAIL: --history-weight-cap 0 was accepted"; exit 1
fi
grep -q "history-weight-cap must be a positive number, got 0" bad_cap.txt || { echo "FAIL: the refusal does not name the cap:"; cat bad_cap.txt; exit 1; }
# --init of another shape than the arguments': a named refusal, not a traceback.
if "$py" "$train/train_temporal.py" --data data --steps 1 --init "$root/assets/upscaler_temporal.npz" --out bad_shape.npz > bad_shape.txt 2>&1; then
  echo "FAIL: --init of another shape was accepted"; exit 1
fi
grep -q "is a network of shape .*'unshuffle': 2.*the arguments ask for .*'unshuffle': 4" bad_shape.txt || { echo "FAIL: the refusal does not give both shapes:"; cat bad_shape.txt; exit 1; }
"$py" "$train/export_temporal.py" --weights accumulating.npz --out accumulating.onnx --no-check
"$py" - "$train" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import export_temporal, train_temporal
net = train_temporal.load_net("accumulating.npz")[0]
assert net.history_weight_cap == 4.0 and net.history_taps == 5, (net.history_weight_cap, net.history_taps)
written = export_temporal.read_metadata("accumulating.onnx")
assert written.get("vkml.history_weight_cap") == "4" and written.get("vkml.history_taps") == "5" and "vkml.ratio_feature_max" in written, written
PY
# The largest render / display ratio trained at goes with the weights into the ONNX metadata that
# the effect clamps the ratio feature to (1.5x here: 2/3).
"$py" "$train/export_temporal.py" --weights trained.npz --out trained.onnx --no-check
"$py" - "$train" <<'PY'
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import export_temporal
meta = json.loads(bytes(np.load("trained.npz")["meta"]).decode())
assert abs(meta.get("ratio_feature_max", 0) - 2 / 3) < 1e-9, meta.get("ratio_feature_max")
written = export_temporal.read_metadata("trained.onnx")
want = {"vkml.ratio_feature_max": "0.666666667"}
if meta.get("history_weight_cap") is not None:  # continued from an accumulating network: its cap too
    want["vkml.history_weight_cap"] = f"{meta['history_weight_cap']:.9g}"
assert written == want, (written, want)
PY
"$py" "$train/validate_temporal.py" --data data --models trained.npz --warmup 4 --json validation.json | tee validation.txt
"$py" - <<'PY'
import json, math
v = json.load(open("validation.json"))
assert set(v) == {"TAAU (engine)", "trained.npz"}, v.keys()
for name, r in v.items():
    assert math.isfinite(r["psnr"]) and r["psnr"] > 10, (name, r["psnr"])
    assert math.isfinite(r["slow_psnr"]), (name, "no slow sequence scored")
    assert set(r["ratios"]) == {"1.5x", "2x", "3x"}, (name, r["ratios"])
    assert set(r["displays"]) == {"96x48", "192x96"}, (name, r["displays"])
    assert set(r["motions"]) == {"moving", "slow", "still"} and math.isfinite(r["motions"]["still"]["flicker"]), (name, r["motions"])
PY
grep -q "^| model | moving (.*) | slow (.*) | still (1 seq.) |" validation.txt || { echo "FAIL: no still-camera column"; exit 1; }
# The held-out evaluation at another ratio than its plan's, with a chosen network: the frames go to
# directories of their own beside the shared reference, and the report names the ratio.
"$py" - <<'PY'
import json
p = json.load(open("plan.json"))
p["sequences"] = [s for s in p["sequences"] if s["name"].startswith("street_s1_walk_t0_x2")][:1]
for s in p["sequences"]:
    del s["render_scale"], s["display"]
    s["name"] = "street_s1_walk_t0_x2"
p["display"] = [96, 48]
p["frames"] = 6
json.dump(p, open("eval_plan.json", "w"))
PY
eval_args=(eval_plan.json --work eval --warmup 2 --crops 0 --demo "$demo")
if "$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods bicubic,bogus --report eval/none.md 2> bogus.txt; then
  echo "FAIL: an unknown method was accepted"; exit 1
fi
grep -q "unknown bogus" bogus.txt || { echo "FAIL: the refusal does not name the method:"; cat bogus.txt; exit 1; }
"$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods bicubic,taau,ml-temporal --render-scale 0.3333333 \
  --temporal-model "$root/assets/upscaler_temporal.onnx" --report eval/report.md
grep -q "^# Quality of the upscalers at 3x" eval/report.md || { echo "FAIL: the report does not name the ratio"; exit 1; }
for d in reference bicubic@0.333333 taau@0.333333 ml-temporal+upscaler_temporal@0.333333; do
  [ -f "eval/street_s1_walk_t0_x2/$d/frame_00005.png" ] || { echo "FAIL: no eval/street_s1_walk_t0_x2/$d frames"; exit 1; }
done
# The scores are kept beside the frames: a second report of the same frames reads them (the demo is
# not run: /bin/false would fail it), and frames rendered again are scored again.
taau_scores=eval/street_s1_walk_t0_x2/taau@0.333333/score.json
[ -f "$taau_scores" ] || { echo "FAIL: no $taau_scores"; exit 1; }
"$py" - "$taau_scores" <<'PY'
import json, sys
kept = json.load(open(sys.argv[1]))
kept["scores"]["psnr"] = 77.77
json.dump(kept, open(sys.argv[1], "w"))
PY
rerun=(eval_plan.json --work eval --warmup 2 --crops 0 --methods taau --render-scale 0.3333333 --score-on cpu)
"$py" "$train/evaluate_temporal.py" "${rerun[@]}" --demo /bin/false --report eval/rerun.md
grep -q "^| TAAU | 77.77 " eval/rerun.md || { echo "FAIL: the kept scores were not read:"; grep "^| TAAU" eval/rerun.md; exit 1; }
touch eval/street_s1_walk_t0_x2/taau@0.333333/frame_00005.png
"$py" "$train/evaluate_temporal.py" "${rerun[@]}" --demo /bin/false --report eval/rerun.md
grep "^| TAAU " eval/rerun.md | grep -vq " 77.77 " || { echo "FAIL: frames newer than their scores were not scored again"; exit 1; }
if "$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods bicubic --sequences street_s1_walk_t0_x2,nowhere --report eval/none.md 2> subset.txt; then
  echo "FAIL: an unknown sequence was accepted"; exit 1
fi
grep -q "nowhere not in eval_plan.json" subset.txt || { echo "FAIL: the refusal does not name the sequence:"; cat subset.txt; exit 1; }
# A failing render in a worker process ends the evaluation with the command's error (it once left
# the pool waiting for the dead worker).
if timeout 120 "$py" "$train/evaluate_temporal.py" eval_plan.json --work eval_fail --warmup 2 --crops 0 --demo /bin/false \
    --methods bicubic --jobs 2 --report eval/none.md 2> fail.txt; then
  echo "FAIL: a failing upscale_demo was not reported"; exit 1
fi
grep -q "command failed: /bin/false" fail.txt || { echo "FAIL: the failure does not name the command:"; cat fail.txt; exit 1; }
# At another output size: everything, the reference too, renders again beside the plan's frames
# (in a worker process: --jobs).
"$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods bicubic,taau --display 64x32 --report eval/report_64.md \
  --sequences street_s1_walk_t0_x2 --jobs 2
grep -q "^# Quality of the upscalers at 64x32 output" eval/report_64.md || { echo "FAIL: the report does not name the size"; exit 1; }
# The report names the Vulkan device the frames were rendered on, as upscale_demo printed it.
device=$(sed -n 's/^rendered .* on \(.*\) into .*/\1/p' < <("$demo" --headless --width 16 --height 16 --frames 1 --mode bicubic --out eval/probe))
grep -qF "(\`$(basename "$demo")\` on $device, 1 sequence(s) at once)" eval/report_64.md || {
  echo "FAIL: the report does not name the device ($device):"; tail -n 2 eval/report_64.md; exit 1; }
for d in reference_64x32 bicubic_64x32 taau_64x32; do
  [ -f "eval/street_s1_walk_t0_x2/$d/frame_00005.png" ] || { echo "FAIL: no eval/street_s1_walk_t0_x2/$d frames"; exit 1; }
done
# A new network's column put into a full report (merge_temporal_report.py): the partial report of
# TAAU and temporal ML with another model at the same settings gives its column; the methods both
# score must agree to the last digit, and the content paragraphs word for word.
"$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods taau,ml-temporal --render-scale 0.3333333 \
  --temporal-model accumulating.onnx --report eval/partial.md
cp eval/report.md eval/merged.md
"$py" "$train/merge_temporal_report.py" eval/merged.md eval/partial.md
"$py" - <<'PY'
def row(path, label):
    return next(l for l in open(path) if l.startswith(f"| {label} |")).split("|")[2:-1]
def seq(path):
    return next(l for l in open(path) if l.startswith("| street_s1_walk_t0_x2 |")).split("|")[2:-1]
full, part, merged = "eval/report.md", "eval/partial.md", "eval/merged.md"
assert row(merged, "temporal ML")[0] == row(part, "temporal ML")[0] and row(merged, "temporal ML")[2:] == row(part, "temporal ML")[2:]
assert row(merged, "bicubic") == row(full, "bicubic") and row(merged, "TAAU") == row(full, "TAAU")
versus = float(row(part, "temporal ML")[0]) - float(row(full, "bicubic")[0])
assert row(merged, "temporal ML")[1].strip() == f"{versus:+.2f}", row(merged, "temporal ML")
assert seq(merged)[:2] == seq(full)[:2] and seq(merged)[2] == seq(part)[1], (seq(merged), seq(full), seq(part))
ml, taau = float(row(merged, "temporal ML")[0]), float(row(merged, "TAAU")[0])
assert any(l.startswith(f"- Temporal ML >= TAAU + 1.5 dB: {ml - taau:+.2f} dB") for l in open(merged)), "targets not recomputed"
assert sum(l.startswith("The temporal ML column (summary, sequences and cuts) is `eval/partial.md`") for l in open(merged)) == 1
PY
"$py" "$train/merge_temporal_report.py" eval/merged.md eval/partial.md  # again: one provenance line, not two
[ "$(grep -c "^The temporal ML column" eval/merged.md)" = 1 ] || { echo "FAIL: a second merge added a second provenance line"; exit 1; }
# With --crops-from, the crops of a report of every panel rendered with the new network replace
# the full report's (the same sequences and panels, or a refusal).
crop_args=("${eval_args[@]}" --methods bicubic,taau,ml-temporal --render-scale 0.3333333 --crops 1)
"$py" "$train/evaluate_temporal.py" "${crop_args[@]}" --temporal-model "$root/assets/upscaler_temporal.onnx" --report eval/crops_full.md
"$py" "$train/evaluate_temporal.py" "${crop_args[@]}" --temporal-model accumulating.onnx --report eval/crops_new.md
"$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods taau,ml-temporal --render-scale 0.3333333 --crops 1 \
  --temporal-model accumulating.onnx --report eval/crops_other_panels.md
full_crop=$(sed -n 's/^!\[.*\](\(.*\))$/\1/p' eval/crops_full.md) new_crop=$(sed -n 's/^!\[.*\](\(.*\))$/\1/p' eval/crops_new.md)
[ -n "$full_crop" ] && [ "$full_crop" != "$new_crop" ] && ! cmp -s "eval/$full_crop" "eval/$new_crop" ||
  { echo "FAIL: the two crop reports should have crops of their own that differ ($full_crop, $new_crop)"; exit 1; }
"$py" "$train/merge_temporal_report.py" eval/crops_full.md eval/partial.md --crops-from eval/crops_new.md
cmp "eval/$full_crop" "eval/$new_crop" || { echo "FAIL: --crops-from did not copy the crop"; exit 1; }
grep -q "^The temporal ML column .* The crops above are \`eval/crops_new.md\`'s" eval/crops_full.md ||
  { echo "FAIL: the provenance line does not name the crops' report:"; tail -n 2 eval/crops_full.md; exit 1; }
if "$py" "$train/merge_temporal_report.py" eval/crops_full.md eval/partial.md --crops-from eval/crops_other_panels.md \
  --out eval/none.md 2> other.txt; then
  echo "FAIL: crops of other panels were taken"; exit 1
fi
grep -q "show other panels" other.txt || { echo "FAIL: the refusal does not say the panels differ:"; cat other.txt; exit 1; }
# Another method's column (TAAU, scored alone) merged into a report with crops: the provenance
# line says that the crops' TAAU panel is the full report's, not this column's.
"$py" "$train/evaluate_temporal.py" "${eval_args[@]}" --methods taau --render-scale 0.3333333 --crops 0 --report eval/partial_taau.md
"$py" "$train/merge_temporal_report.py" eval/crops_full.md eval/partial_taau.md --method TAAU --out eval/taau_merged.md
grep -q "^The TAAU column .* their TAAU panel shows the TAAU that report rendered, not this column's.$" eval/taau_merged.md ||
  { echo "FAIL: the TAAU provenance line does not say what the crops show:"; tail -n 2 eval/taau_merged.md; exit 1; }
# ... and with --crops-from, its line names the crops' report, and the temporal ML line of the
# earlier merge stops describing crops it no longer has.
"$py" "$train/merge_temporal_report.py" eval/crops_full.md eval/partial_taau.md --method TAAU --crops-from eval/crops_new.md --out eval/taau_crops.md
grep -q "^The TAAU column .* The crops above are \`eval/crops_new.md\`'s, every panel rendered again with this column's TAAU" eval/taau_crops.md ||
  { echo "FAIL: the TAAU line does not name the crops' report:"; tail -n 4 eval/taau_crops.md; exit 1; }
if grep -q "^The temporal ML column .*The crops above" eval/taau_crops.md; then
  echo "FAIL: the temporal ML line still describes the crops:"; tail -n 4 eval/taau_crops.md; exit 1
fi
sed 's/^| TAAU | \([0-9]*\)\.\([0-9]\)/| TAAU | \1.9\2/' eval/partial.md > eval/other_taau.md
if "$py" "$train/merge_temporal_report.py" eval/merged.md eval/other_taau.md --out eval/none.md 2> other.txt; then
  echo "FAIL: a partial report whose TAAU differs was merged"; exit 1
fi
grep -q "'TAAU' differs between the reports" other.txt || { echo "FAIL: the refusal does not name TAAU:"; cat other.txt; exit 1; }
sed 's/^\*\*Held-out content only\*\*: 1 sequences/**Held-out content only**: 2 sequences/' eval/partial.md > eval/other_plan.md
if "$py" "$train/merge_temporal_report.py" eval/merged.md eval/other_plan.md --out eval/none.md 2> other.txt; then
  echo "FAIL: a partial report of other content was merged"; exit 1
fi
grep -q "different content or settings" other.txt || { echo "FAIL: the refusal does not say the content differs:"; cat other.txt; exit 1; }
echo "temporal training pipeline: ok"
