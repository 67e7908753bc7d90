# Settings shared by the r26 device commands: r24's (r20's data recipe as r21 used it), with r26's
# own work directory. Sourced by r26_pipeline.sh from its copy of the repository (/tmp/r26/root).
source tools/train/logs/r24/r24_common.sh
export WORK_DIR=/tmp/r26/work
