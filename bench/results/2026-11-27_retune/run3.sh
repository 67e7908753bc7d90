# What the single-frame upscaler's tail pays for its bilinear x2 residual: the shipped build
# ("base") against two deliberately wrong builds of the same commit, timing only: "nearest"
# reads the residual nearest-upsampled (1 load per element instead of 4), "none" adds no
# residual. Alternating, three rounds.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
for r in 1 2 3; do for v in base nearest none; do
  timeout 60 $T/ml_bench_$v --group network --filter 'upscaler_x2 1920x1080 fp16-arith$|upscaler_x2 960x540 fp16-arith$' --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
done; done > $OUT/ab.txt 2>&1
sort -k3,4 -s $OUT/ab.txt | cut -c1-100
