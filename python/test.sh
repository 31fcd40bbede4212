#!/usr/bin/env bash
# Builds the Python package into a fresh venv and runs its tests: what .ci/run calls.
# Usage: bash python/test.sh [VENV_DIR]   (default: target/python-venv, made anew each run)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import sys; assert sys.version_info >= (3, 9), "Python 3.9 or newer is needed"'
venv="$(realpath -m "${1:-target/python-venv}")"
rm -rf "$venv"
python3 -m venv "$venv"
export PATH="$venv/bin:$PATH"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin pytest numpy
# --no-build-isolation: the maturin just installed builds it (no second download).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation ./python
# Run from elsewhere so that `import ladders` is the installed package.
cd python/tests
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider . || status=$?
# pytest: 0 all passed, 1 a test failed, 2 interrupted, 3 internal error, 4 usage error,
# 5 no tests collected (a failure here too: the tests went missing).
case $status in
    0) ;;
    5) echo "python/test.sh: pytest collected no tests" >&2; exit 1 ;;
    *) echo "python/test.sh: pytest exited with $status" >&2; exit 1 ;;
esac
