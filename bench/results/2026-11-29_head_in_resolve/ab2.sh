# The head in the resolve, second form (one invocation per hidden pixel, the weights a uniform
# buffer): the temporal ML rows of frame_bench with per-step timestamps, 7aac3e1's binaries
# (.devcarry/bin_old) against this checkout's (.devcarry/bin), alternating, three rounds.
# Carry [".devcarry"].
source .devcarry/env.sh
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
for round in 1 2 3; do
  for b in bin_old bin; do
    echo "== round $round, $b"
    .devcarry/$b/frame_bench --frames 200 --warmup 20 --filter ml-temporal --effect-steps | grep -E "upscale_|^device"
  done
done
