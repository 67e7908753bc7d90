# Where the second form's time goes: this checkout's frame_bench (.devcarry/bin) against a build
# whose resolve skips the head's multiply-adds (.devcarry/bin_abl: the parameters are the biases
# plus two hidden values, wrong images, the same loads and stores) and 7aac3e1's (bin_old), two
# rounds. Carry [".devcarry"].
source .devcarry/env.sh
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
for round in 1 2; do
  for b in bin_old bin bin_abl; do
    echo "== round $round, $b"
    .devcarry/$b/frame_bench --frames 200 --warmup 20 --filter ml-temporal --effect-steps | grep -E "upscale_"
  done
done
