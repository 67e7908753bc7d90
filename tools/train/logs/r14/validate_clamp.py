#!/usr/bin/python3
# Run r14's validation of the ratio-feature clamp (tools/train/README.md): scores TAAU and the
# shipped weights with and without the clamp on a directory of rendered validation sequences.
# The split: device_train.sh's validation plan (VAL_PROCEDURAL_SEEDS 5, street/poles/objects seed
# 20, 384x216, 24 frames, 16 samples) with "render_scale" set to 1.0 (1x) or 0.8 (1.25x) for every
# sequence, rendered on lavapipe with render_temporal.py render PLAN --out DIR (at 1.25x the
# 1x references were linked in, as they do not depend on the ratio).
#   validate_clamp.py DIR      (logs: x1.log, x1.25.log)
import sys, glob, os, time, math, pickle
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import numpy as np, torch, train_temporal, validate_temporal as V
torch.set_num_threads(2)
root = sys.argv[1]
dirs = sorted(d for d in glob.glob(root + '/*') if os.path.isdir(d + '/input'))
seqs = train_temporal.load_sequences(dirs, 'cpu')
net, _ = train_temporal.load_net(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'assets', 'upscaler_temporal.npz')); net.eval()
print('clamp from npz:', net.ratio_feature_max)
res = {'taau': {s.name: V.score_taau(s, d, 8, 'cpu') for s, d in zip(seqs, dirs)}}
for name, cap in [('unclamped', math.inf), ('clamped', net.ratio_feature_max)]:
    net.ratio_feature_max = cap
    with torch.no_grad():
        res[name] = {s.name: V.score(net, s, 8, 'cpu') for s in seqs}
pickle.dump(res, open(root.rstrip('/') + '_res.pkl', 'wb'))
for name, r in res.items():
    print(f'{name:10s} psnr {np.mean([v[0] for v in r.values()]):.3f} flicker {np.mean([v[1] for v in r.values()]):.3f}')
wins = sum(res['clamped'][s.name][0] > res['unclamped'][s.name][0] for s in seqs)
print(f'clamped better on {wins}/{len(seqs)}; clamped beats TAAU on {sum(res["clamped"][s.name][0] > res["taau"][s.name][0] for s in seqs)}')
