# r31, second device command (carry [".devcarry"]), on the machine of the first while it is still
# held: the data rendered there is found complete and reused, and a, b and c continue from the
# first command's networks, still in /tmp/r31/out.
export JOB=r31b INIT_DIR=/tmp/r31/out SECONDS_BUDGET=${SECONDS_BUDGET:-540}
source tools/train/logs/r31/r31_train.sh
