# r29, first device command (carry [".devcarry"] with the held-out directory and this checkout's
# binaries in .devcarry/big.txz): r29_pipeline.sh as a background job, followed for $1 seconds
# (../start_job.sh); then r29_wait.sh, issued AT ONCE and again as needed (the machine is taken
# back 30 s after a command ends).
bash tools/train/logs/start_job.sh r29 "${1:-570}"
