#!/usr/bin/env bash
# Leak check of a failing path: runs the command under valgrind (memcheck) and fails when any
# heap block is definitely, indirectly or possibly lost. The command may fail (that is the path
# under test); only leaks fail this check. Reachable blocks (the Vulkan loader's and Mesa's
# caches) are not leaks. glibc's dynamic loader trips memcheck's strncmp check on Debian 12,
# so errors other than leaks are not counted.
# Exit 77 (ctest SKIP_RETURN_CODE) when valgrind is not installed (Debian: valgrind).
set -u
if ! command -v valgrind >/dev/null; then
  echo "valgrind not found: skipping (install valgrind)"
  exit 77
fi
out=$(valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible "$@" 2>&1)
rc=$?
echo "$out"
echo "exit status: $rc"
fail() { echo "FAIL: $1"; exit 1; }
[ "$rc" -lt 100 ] || fail "the command crashed (status $rc)"
for kind in "definitely lost" "indirectly lost" "possibly lost"; do
  if grep -q "$kind: [1-9]" <<<"$out"; then fail "$kind blocks (above)"; fi
done
grep -qE "definitely lost: 0 bytes|All heap blocks were freed" <<<"$out" || fail "no leak summary from valgrind"
echo "PASS: no leak"
