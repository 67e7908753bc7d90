# The history fetch and the depth test's gather issued before the colour sums (gatherCurrent with
# the staged samples finds the nearest surface first): the temporal rows of frame_bench with
# per-step timestamps, 65fdbd4's binaries (.devcarry/bin_old) against this checkout's
# (.devcarry/bin), alternating, three rounds. Carry [".devcarry"].
source .devcarry/env.sh
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
for round in 1 2 3; do
  for b in bin_old bin; do
    echo "== round $round, $b"
    for f in ml-temporal taau; do .devcarry/$b/frame_bench --frames 200 --warmup 20 --filter $f --effect-steps | grep -E "upscale_"; done
  done
done
