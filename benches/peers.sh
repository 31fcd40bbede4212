#!/usr/bin/env bash
# Side-by-side benchmark: `ladders expect` (timed as a whole process) against the reference tools
# of ../shared/bench (FLINT, Storm exact, numpy, ...: timed by their bare solve call) on the same
# board files, with a table of times, ratios and whether the exact fractions agree.
#
#   benches/peers.sh [--reps N] [--tools flint,storm-exact,numpy] [--peer-timeout S] [--dense-max N] [BOARD.toml ...]
#
# Default boards: milton-bradley, efi and the generated boards in benches/boards/ (1,000 and
# 10,000 squares, with and without roll-again). Needs a release build (cargo build --release)
# and the reference tools (their setup.sh installs them into a venv outside the repository).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
peers=${LADDERS_PEERS:-$here/../shared/bench/peers.sh}
[ -x "$peers" ] || peers=/work/shared/bench/peers.sh
exec python3 "$here/benches/peers_table.py" --peers "$peers" --ladders "$here/target/release/ladders" \
  --root "$here" "$@"
