# Twenty-ninth session: the whole GoogleTest suite of this checkout on the GPU machine under the
# validation layer (bench/results/2026-11-28_conformance/run.sh), packed by tools/conformance_pack.sh
# build/demos/effect_sample/effect_sample with its bin/ and lib/ then xz-compressed into
# .devcarry/big.txz (the carry's 64 MiB). Carry [".devcarry"]. Cut at 350 s (the session's device
# time): what ran by then is summarised from its logs.
python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
export LIMIT=300
timeout 350 bash bench/results/2026-11-28_conformance/run.sh
rc=$?
if [ $rc = 124 ]; then
  echo "== cut at 350 s; summary of the logs so far"
  cd /tmp/logs && for f in *.log; do
    printf '%-40s %s %s\n' "${f%.log}" "$(grep -h '^\[  PASSED  \]' $f | head -1)" "$(grep -h '^\[  FAILED  \]' $f | wc -l) failed lines"
  done
  grep -h '\[validation\]' *.log | sort | uniq -c | head -20
  tar czf $OUT/conformance_logs_partial.tgz *.log
fi
