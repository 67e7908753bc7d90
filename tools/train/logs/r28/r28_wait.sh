# r28: follows the background job for at most $1 seconds (../follow_job.sh).
bash tools/train/logs/follow_job.sh r28 "${1:-570}"
