# r27, first device command (carry [".devcarry"], with the held-out directory and the binaries of
# this checkout: r26_launch.sh gives the commands): starts r27_pipeline.sh as a background job and
# follows it for $1 seconds (../start_job.sh); then r27_wait.sh, issued AT ONCE and again as
# needed (the machine is taken back 30 s after a command ends: r26 lost its job so). Needs
# logs/r26b/out/upscaler_temporal_p3.npz (committed).
bash tools/train/logs/start_job.sh r27 "${1:-570}"
