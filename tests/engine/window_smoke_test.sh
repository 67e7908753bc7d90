#!/usr/bin/env bash
# Window smoke test: under a virtual X server the windowed demo opens, presents, resizes
# itself (--resize-test), keeps presenting and exits cleanly with no validation message; then
# --cycle-modes presses the demo's keys on a schedule (modes, denoiser, split view, zoom,
# overlay), each a frame-graph rebuild with frames in flight; then --simulate-device-loss: the
# device reports VK_ERROR_DEVICE_LOST at frame 5 and the demo recreates the device, surface,
# swapchain and every resource and keeps presenting in the same modes.
# Exit 77 (ctest SKIP_RETURN_CODE) when xvfb-run is not installed (Debian: xvfb xauth).
set -u
demo="$1"
if ! command -v xvfb-run >/dev/null; then
  echo "xvfb-run not found: skipping (install xvfb and xauth)"
  exit 77
fi
out=$(timeout 240 xvfb-run -a "$demo" --frames 10 --resize-test --width 160 --height 120 --validation 2>&1)
rc=$?
echo "$out"
fail() { echo "FAIL: $1"; exit 1; }
[ "$rc" -eq 0 ] || fail "exit status $rc"
grep -q "resized to 120x90" <<<"$out" || fail "the window was not resized to 120x90"
grep -q "presented 10 frame(s)" <<<"$out" || fail "did not present 10 frames"
grep -q "final size 120x90" <<<"$out" || fail "did not keep presenting at the new size"
if grep -q "\[vulkan" <<<"$out"; then fail "validation messages were printed"; fi

out=$(timeout 240 xvfb-run -a "$demo" --frames 78 --cycle-modes --width 160 --height 120 --validation 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "--cycle-modes: exit status $rc"
expect() { grep -qF -- "$1" <<<"$out" || fail "--cycle-modes: no line with '$1'"; }
expect "mode bilinear, denoise off, split off, zoom off, overlay on (render 80x60)"
expect "mode bicubic, denoise atrous, split off"
expect "mode bicubic, denoise atrous, split bicubic | bicubic, zoom on"
expect "split bicubic | bilinear, zoom on, overlay off"
expect "mode bilinear, denoise atrous, split bilinear | bilinear, zoom on, overlay on"
expect "split view compares output filters: it needs an upscaling mode (2-6), not native"
expect "mode native, denoise atrous, split off, zoom on, overlay on (render 160x120)"
grep -qE "mode ml, denoise atrous|ML upscaler not available" <<<"$out" || fail "--cycle-modes: key 4 did nothing"
grep -qE "mode taau, denoise [a-z]+, split" <<<"$out" || fail "--cycle-modes: key 5 did not switch to TAAU"
grep -qE "mode ml-temporal, denoise [a-z]+, split|temporal ML upscaler not available" <<<"$out" || fail "--cycle-modes: key 6 did nothing"
expect "presented 78 frame(s)"
for pass in denoise_atrous4 view_copy view upscale_bicubic upscale_taau; do
  grep -qE "^  $pass +median" <<<"$out" || fail "--cycle-modes: no GPU time for pass $pass"
done
if grep -q "\[vulkan" <<<"$out"; then fail "--cycle-modes: validation messages were printed"; fi

out=$(timeout 240 xvfb-run -a "$demo" --frames 12 --simulate-device-loss 5 --mode bicubic --denoise atrous --width 160 --height 120 --validation 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "--simulate-device-loss: exit status $rc"
expect() { grep -qF -- "$1" <<<"$out" || fail "--simulate-device-loss: no line with '$1'"; }
expect "device lost at frame 5 (simulated): GPU device lost: vkWaitForFences failed with VK_ERROR_DEVICE_LOST"
expect "recovered: recreated the device, the swapchain and every resource in"
[ "$(grep -c "mode bicubic, denoise atrous, split off, zoom off, overlay on (render 80x60)" <<<"$out")" -eq 2 ] ||
  fail "--simulate-device-loss: the modes were not restored after the loss"
expect "presented 12 frame(s)"
if grep -q "\[vulkan" <<<"$out"; then fail "--simulate-device-loss: validation messages were printed"; fi
echo "PASS"
