# r26 (prepared by the twenty-seventh session, not run yet), first device command: starts
# r26_pipeline.sh as a background job and follows it for $1 seconds (../start_job.sh); later
# commands follow it with r26_wait.sh, issued AT ONCE (the machine is taken back 30 s after a
# command ends: r23's first attempt lost its job so). Carry [".devcarry"], made here by
#   PYTHON=/usr/bin/python3 tools/train/make_heldout_dir.sh /tmp/heldout BEVY_DIR   (fetch_heldout.md)
#   cmake --build build --target upscale_demo frame_bench && tools/train/logs/pack_job_carry.sh /tmp/heldout
# A LIMIT ($1) of at most 570 keeps each command inside the device tool's 600 s.
bash tools/train/logs/start_job.sh r26 "${1:-570}"
