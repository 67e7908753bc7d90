# Helpers for the shell-script tests (sourced, not run): the Python they use and a clean render.

# Sets $py to the Python with the modules named (numpy, torch, PIL, ...) or exits 77, the skip
# code the tests' SKIP_RETURN_CODE expects, naming what is missing.
require_python() {
  py=/usr/bin/python3
  [ -x "$py" ] || py=python3
  local imports
  imports=$(IFS=,; echo "$*")
  if ! "$py" -c "import $imports" 2>/dev/null; then
    echo "Python modules $* are not all installed (tools/install_deps.sh installs them): skipped"
    exit 77
  fi
}

# Runs upscale_demo with the arguments given, prints its log, and fails on an error exit, a
# validation-layer message or a loader warning.
render_clean() {
  local log
  if ! log=$("$@" 2>&1); then
    echo "$log"
    exit 1
  fi
  echo "$log"
  if grep -q -e "\[vulkan" -e "warning" <<<"$log"; then echo "FAIL: a validation message or a loader warning"; exit 1; fi
}
