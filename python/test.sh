#!/usr/bin/env bash
# Builds the Python package into a fresh venv and runs its tests: what .ci/run calls.
# Usage: bash python/test.sh [VENV_DIR]   (default: target/python-venv, made anew each run)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(realpath -m "${1:-target/python-venv}")"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin pytest numpy
# --no-build-isolation: the maturin just installed builds it (no second download).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation ./python
# Run from elsewhere so that `import ladders` is the installed package.
cd python/tests
"$venv/bin/python" -m pytest -q -p no:cacheprovider .
