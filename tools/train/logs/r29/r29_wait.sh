# r29: follows the background job for at most $1 seconds (../follow_job.sh).
bash tools/train/logs/follow_job.sh r29 "${1:-570}"
