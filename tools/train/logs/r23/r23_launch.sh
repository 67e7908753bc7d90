# r23 (prepared by the twenty-fourth session, run by the twenty-fifth: out/), first device command: starts
# r23_pipeline.sh as a background job and follows it for $1 seconds (../start_job.sh); later
# commands follow it with r23_wait.sh. Carry [".devcarry"] with upscale_demo and heldout/ (as
# r20's eval_g2.sh).
bash tools/train/logs/start_job.sh r23 "${1:-570}"
