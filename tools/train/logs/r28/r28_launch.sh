# r28, first device command (carry [".devcarry"] with the held-out directory, this checkout's
# binaries in .devcarry/bin and 7aac3e1's frame_bench in .devcarry/bin_old): the head-in-resolve
# A/B first (bench/results/2026-11-29_head_in_resolve/ab.sh; the GPU is idle before the job), then
# r28_pipeline.sh as a background job, followed for $1 seconds (../start_job.sh); then
# r28_wait.sh, issued AT ONCE and again as needed (the machine is taken back 30 s after a command
# ends).
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
timeout 200 bash bench/results/2026-11-29_head_in_resolve/ab.sh > $OUT/ab.txt 2>&1
echo "ab: rc $?"; cat $OUT/ab.txt
bash tools/train/logs/start_job.sh r28 "${1:-330}"
