# One held-out sequence rendered on this development machine's lavapipe at the held-out reports'
# settings (480x272 from 240x136): the 16-sample reference and TAAU with its jittered inputs.
# Run in a folder holding the held-out scenes and heldout_paths/ (tools/train/README.md), e.g.
#   render_seq.sh DEMO /tmp/closeup_slow --scene gen/room_s7.glb --camera-path heldout_paths/slow_room_s7_closeup.json --time 0 --frames 32
# (the scene, path, start time and frame count of heldout_static.json / heldout_temporal.json).
set -euo pipefail
demo=$1 dir=$2; shift 2
common="--headless $* --fps 30 --width 480 --height 272"
$demo $common --mode native --supersample 16 --channels output --out $dir/ref > /dev/null
$demo $common --mode taau --render-scale 0.5 --channels color,depth,motion,output --out $dir/taau > /dev/null
