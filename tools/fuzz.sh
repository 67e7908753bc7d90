#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan; fuzz/) into build-fuzz/ and runs each on its
# committed corpus for a fixed time. Fails on any crash, sanitizer report, leak, timeout or
# out-of-memory; the input that caused it is kept under <build>/artifacts/<target>/ (reproduce:
# <build>/fuzz/fuzz_<target> <that file>). docs/RELIABILITY.md describes the targets.
#
#   tools/fuzz.sh [--time SECONDS] [--jobs N] [TARGET...]   (default: 60 s each, every target,
#                                                            nproc targets at a time)
# Environment: FUZZ_BUILD_DIR (default build-fuzz; tools/sanitize.sh's build-asan has the targets
# too), FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=60
jobs=$(nproc)
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
# Every target with a corpus (fuzz/corpus/<name>/); fuzz/CMakeLists.txt defines fuzz_<name>.
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$root"/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi

start=$(date +%s)
# A build directory that already has the targets (tools/sanitize.sh's ASan build) is used as it is;
# otherwise one with only the fuzz targets and what they link.
if ! grep -qs '^VKML_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
    -DVKML_FUZZ=ON -DVKML_BUILD_TESTS=OFF -DVKML_BUILD_BENCH=OFF -DVKML_BUILD_DEMOS=OFF >/dev/null
fi
cmake --build "$build" --target $(printf 'fuzz_%s ' "${targets[@]}") --parallel "$(nproc)"
built=$(date +%s)
echo "[fuzz] built ${#targets[@]} targets in $((built - start)) s; running each for $seconds s, $jobs at a time"

# One run: the growing corpus in <build>/corpus/<target> (new inputs land there, never in the
# repository), the committed seeds read alongside, the target's dictionary when it has one.
run_one() {
  local t=$1 log=$build/logs/$1.log
  local dict=$root/fuzz/dict/$t.dict
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs"
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1
              -artifact_prefix="$build/artifacts/$t/")
  [ -f "$dict" ] && args+=(-dict="$dict")
  local rc=0
  # shellcheck disable=SC2086
  "$build/fuzz/fuzz_$t" "${args[@]}" ${FUZZ_ARGS:-} "$build/corpus/$t" "$root/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$build/logs/$t.rc"
}

mkdir -p "$build/logs"
rm -f "$build"/logs/*.rc
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_one "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  [ "$(cat "$build/logs/$t.rc" 2>/dev/null || echo 1)" = 0 ] || failed+=("$t")
done

printf '%-16s %12s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
  log=$build/logs/$t.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corpus=$(find "$build/corpus/$t" -type f | wc -l)
  result=ok
  [[ " ${failed[*]} " == *" $t "* ]] && result="FAILED (log: $log)"
  printf '%-16s %12s %10s %8s  %s\n' "$t" "${runs:-?}" "${rate:-?}" "$corpus" "$result"
done
echo "[fuzz] total $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  for t in "${failed[@]}"; do
    echo "=== fuzz_$t: end of log"
    tail -40 "$build/logs/$t.log"
    ls "$build/artifacts/$t"
  done
  exit 1
fi
