#!/usr/bin/env bash
# Issue 16's side-by-side table, in one run: `ladders` (whole process) against the reference tools
# of ../shared/bench (FLINT's exact solve and integer stepping, SciPy's sparse solve, seed 000's
# Java simulator) on the same boards, with ratios (peer time / ours) and the load average.
#
#   bash benches/side-by-side.sh [--reps N] [--skip expect,float,distribution,simulate]
#
# Builds ladders in release mode first; the reference tools come from ../shared/bench/setup.sh
# (a virtual environment outside the repository, LADDERS_BENCH_VENV). The Java row alone takes
# 10 to 20 s. Figures and how to read them: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${LADDERS_BENCH_DIR:-../shared/bench}
[ -d "$bench" ] || bench=/work/shared/bench
venv=${LADDERS_BENCH_VENV:-$HOME/.cache/ladders-bench/venv}
[ -x "$venv/bin/python" ] || bash "$bench/setup.sh"
cargo build --release --quiet
exec "$venv/bin/python" benches/side_by_side.py --bench "$bench" "$@"
