# Twenty-ninth session: both shipped temporal networks alone, ours (ml_bench, every precision and
# path, the fp16 rows channels-last as the effect runs them) against PyTorch/cuDNN and
# torch.compile max-autotune (fp16 channels-last) in the same command, at 960x540 and 1920x1080
# (the 1080p and 4K outputs). Carry [".devcarry"] with ml_bench in .devcarry/big.txz.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
ml_bench --group network --filter upscaler_temporal --runs 100 --warmup 10 --assets assets --json $OUT/ml_bench_temporal.json 2>&1 | grep -E "upscaler_temporal|ceiling"
timeout 420 python3 bench/peer_torch.py --filter upscaler_temporal --configs fp16-cl,fp16-cl+cudagraph,fp16-cl+max-autotune \
  --runs 100 --warmup 10 --json $OUT/peer_temporal.json 2>&1 | grep -vE "^\s*$|Warning|warn"
