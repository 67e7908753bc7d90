# Starts the background device job NAME (tools/train/logs/NAME/NAME_pipeline.sh) so that it outlives
# the device command, then follows it for LIMIT seconds (follow_job.sh). The repository is copied
# to /tmp/NAME/root first: a later command's sync of the working tree must not change the scripts
# under the running job. The validation layer and binaries may travel xz-compressed in
# .devcarry/big.txz (the device tool carries at most 64 MiB).
#   bash tools/train/logs/start_job.sh NAME [LIMIT]
name=${1:?start_job.sh NAME [LIMIT]} limit=${2:-570}
[ -e /tmp/$name ] && { echo "/tmp/$name exists: this machine ran $name already; use follow_job.sh $name"; exit 3; }
mkdir -p /tmp/$name/root /tmp/$name/out
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
cp -r tools assets bench .devcarry /tmp/$name/root/
setsid nohup bash /tmp/$name/root/tools/train/logs/$name/${name}_pipeline.sh > /tmp/$name/pipeline.log 2>&1 < /dev/null &
bash tools/train/logs/follow_job.sh $name "$limit"
