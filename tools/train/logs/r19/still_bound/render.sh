# The held-out still sequence room_s7_inside_static (heldout_static.json) rendered on this
# development machine's lavapipe: the 16-sample reference, TAAU with its jittered inputs, and the
# shipped temporal ML (c2). Run in a folder holding the held-out scenes and heldout_paths/
# (tools/train/README.md); writes DIR/ref, DIR/taau, DIR/ml.
set -euo pipefail
demo=$1 dir=$2
common="--headless --scene gen/room_s7.glb --camera-path heldout_paths/static_room_s7_inside.json --time 0 --frames 32 --fps 30 --width 480 --height 272"
$demo $common --mode native --supersample 16 --channels output --out $dir/ref > /dev/null
$demo $common --mode taau --render-scale 0.5 --channels color,depth,motion,output --out $dir/taau > /dev/null
$demo $common --mode ml-temporal --render-scale 0.5 --channels output --out $dir/ml > /dev/null
