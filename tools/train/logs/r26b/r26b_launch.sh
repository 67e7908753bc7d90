# r26b, first device command (carry [".devcarry"]; r26_launch.sh's notes apply): starts
# r26b_pipeline.sh and follows it for $1 seconds; then r26b_wait.sh, issued AT ONCE.
bash tools/train/logs/start_job.sh r26b "${1:-570}"
