# Settings shared by the r25 device commands: r24's (r20's data recipe as r21 used it), with r25's
# own work directory. Sourced by r25_pipeline.sh from its copy of the repository (/tmp/r25/root).
source tools/train/logs/r24/r24_common.sh
export WORK_DIR=/tmp/r25/work
