# r25 (prepared by the twenty-sixth session, not run yet), first device command: starts
# r25_pipeline.sh as a background job and follows it for $1 seconds (../start_job.sh); later
# commands follow it with r25_wait.sh, issued AT ONCE (the machine is taken back 30 s after a
# command ends: r23's first attempt lost its job so). Carry [".devcarry"] with upscale_demo and
# heldout/ (as r23).
bash tools/train/logs/start_job.sh r25 "${1:-570}"
