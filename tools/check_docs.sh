#!/usr/bin/env bash
# The documentation is self-contained: no pointer to files outside the repository (../shared/...,
# absolute paths of a machine) and no issue numbers ("issue 5", "#13"). Checks the given files,
# default: docs/, README.md, the module notes and the public headers the docs point to.
#   tools/check_docs.sh [FILE...]     exit status 1 and every offending line when one is found
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ $# -eq 0 ]; then
    set -- docs/*.md README.md bench/RESULTS.md mlplugin/OVERVIEW.md tools/train/README.md \
        mlplugin/include/mlplugin/*.h engine/include/engine/*.h bridge/include/bridge/*.h
fi
pattern='\.\./shared/|(^|[^A-Za-z0-9_.])/work/|\b[Ii]ssues? #?[0-9]+([^0-9.x]|$)|(^|[ (])#[0-9]+\b'
if grep -nHE "$pattern" "$@"; then
    echo "check_docs: the lines above point outside the repository or to issue numbers" >&2
    exit 1
fi
echo "check_docs: $# files self-contained"
