#!/usr/bin/env bash
# Window smoke test: under a virtual X server the windowed demo opens, presents, resizes
# itself (--resize-test), keeps presenting and exits cleanly with no validation message.
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
echo "PASS"
