#!/usr/bin/env bash
# Soak: a long headless upscale_demo run cycling through resizes, the upscale modes
# (native/bilinear/bicubic/ml/taau), every denoiser (off/atrous/ml) and a model reload per cycle
# (optionally a device loss per cycle), sampling memory once per cycle. Fails (status 5) when
# resident or device memory grows faster than the limits (bytes per 1000 frames) or any
# validation message appears. Writes OUT/soak.json (every sample, the slopes, the verdict) and
# OUT/soak.log. docs/RELIABILITY.md has the figures and the commands.
#
#   tools/soak.sh                         # 100,000 frames at 32x24, a step every 25, no validation
#   tools/soak.sh --frames 5000 --ml-precision fp32 --max-rss-slope 524288   # soak.ci
#   tools/soak.sh --frames 320 --step 4 --validation --device-loss --ml-precision fp32 \
#                 --max-rss-slope none                                         # soak.ci_validation
# Options: --frames N, --size WxH, --step N, --validation, --device-loss, --ml-precision P,
# --max-rss-slope B|none, --max-device-slope B, --out DIR.
# Needs a build (tools/build.sh); BUILD_DIR as for tools/test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
demo=${DEMO:-${BUILD_DIR:-$root/build}/demos/upscale_demo/upscale_demo}
frames=100000 size=32x24 step=25 out=soak_out
extra=()
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames=$2; shift ;;
    --size) size=$2; shift ;;
    --step) step=$2; shift ;;
    --out) out=$2; shift ;;
    --validation) extra+=(--validation) ;;
    --device-loss) extra+=(--soak-device-loss) ;;
    --ml-precision) extra+=(--ml-precision "$2"); shift ;;
    --max-rss-slope) extra+=(--soak-max-rss-slope "$2"); shift ;;
    --max-device-slope) extra+=(--soak-max-device-slope "$2"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "soak.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "soak.sh: --size expects WxH, got '$size'" >&2; exit 2; }
[ -x "$demo" ] || { echo "soak.sh: no upscale_demo at $demo (build first: tools/build.sh)" >&2; exit 2; }
mkdir -p "$out"
echo "[soak] $frames frames at $size, a new configuration every $step frames ${extra[*]}"
start=$(date +%s)
set +e
"$demo" --headless --no-images --frames "$frames" --width "${BASH_REMATCH[1]}" --height "${BASH_REMATCH[2]}" \
  --soak "$step" --out "$out" "${extra[@]}" >"$out/soak.log" 2>&1
rc=$?
set -e
grep -E "^soak:|^device losses" "$out/soak.log" || tail -n 20 "$out/soak.log"
echo "[soak] exit status $rc after $(( $(date +%s) - start )) s; summary: $out/soak.json, log: $out/soak.log"
exit $rc
