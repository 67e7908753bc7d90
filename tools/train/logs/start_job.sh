# Starts the background device job NAME (tools/train/logs/NAME/NAME_pipeline.sh) so that it outlives
# the device command, then follows it for LIMIT seconds (follow_job.sh). The repository is copied
# to /tmp/NAME/root first: a later command's sync of the working tree must not change the scripts
# under the running job. The validation layer and binaries may travel xz-compressed in
# .devcarry/big.txz (the device tool carries at most 64 MiB).
# A job outlives its command only while the machine stays lent: r29's machine was taken back
# between its first command and the follow command issued at once after it, and the job was lost
# with 9 of its 14 minutes spent (what follow_job.sh had packed, the checkpoints of --save-every,
# came back). Where the session's device time cannot absorb that, run the pipeline in the
# foreground inside one command instead (logs/r29/r29_quality.sh: a smaller data set and a
# SECONDS_BUDGET that fits the command's limit).
#   bash tools/train/logs/start_job.sh NAME [LIMIT]
name=${1:?start_job.sh NAME [LIMIT]} limit=${2:-570}
[ -e /tmp/$name ] && { echo "/tmp/$name exists: this machine ran $name already; use follow_job.sh $name"; exit 3; }
mkdir -p /tmp/$name/root /tmp/$name/out
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
cp -r tools assets bench .devcarry /tmp/$name/root/
setsid nohup bash /tmp/$name/root/tools/train/logs/$name/${name}_pipeline.sh > /tmp/$name/pipeline.log 2>&1 < /dev/null &
bash tools/train/logs/follow_job.sh $name "$limit"
