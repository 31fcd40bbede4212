#!/usr/bin/env bash
# Rewrites tests/fixtures/independent/*.txt with roll_chain.py (pure Python, standard library).
# Each file's first line is the argument list; the rest are "name numerator/denominator" lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/fixtures/independent
gen() {
  local name=$1; shift
  { echo "args $*"; python3 tests/independent/roll_chain.py "$@"; } > "$out/$name.txt"
}
gen tiny boards/tiny.toml
gen milton-bradley boards/milton-bradley.toml
gen milton-bradley-48 boards/milton-bradley-48.toml
gen milton-bradley-bounce boards/milton-bradley.toml --overshoot bounce
gen milton-bradley-allow-start1 boards/milton-bradley.toml --overshoot allow --start 1
gen milton-bradley-unlimited boards/milton-bradley.toml --roll-again unlimited
gen milton-bradley-d4 boards/milton-bradley.toml --die 4
gen efi boards/efi.toml
gen efi-reversed boards/efi.toml --reverse
gen efi-forfeit3 boards/efi.toml --roll-again 3
gen efi-stay boards/efi.toml --overshoot stay
gen tiny-forfeit2 boards/tiny.toml --roll-again 2
# Optimal play (issue 14): float value iteration by optimal_play.py, "square value" lines.
opt() {
  local name=$1; shift
  { echo "args $*"; python3 tests/independent/optimal_play.py "$@"; } > "$out/optimal-$name.txt"
}
opt course boards/course.toml
opt milton-bradley-coin boards/milton-bradley.toml --coin
opt milton-bradley-pick2 boards/milton-bradley.toml --pick 2
opt milton-bradley-choose-face boards/milton-bradley.toml --choose-face
opt milton-bradley-48-choose-die boards/milton-bradley-48.toml --choose-die 4,6,8
# Every rule of docs/model.md (issues 11 and 12): rules_chain.py on the small boards of
# tests/fixtures/independent-boards/, into tests/fixtures/independent-rules/ (read by
# tests/it/known_values_rules.rs). The hand-worked tiny boards first: `--selftest` fails loudly.
python3 tests/independent/rules_chain.py --selftest
mkdir -p tests/fixtures/independent-rules
for board in tests/fixtures/independent-boards/*.toml; do
  name=$(basename "$board" .toml)
  { echo "args $board"; python3 tests/independent/rules_chain.py "$board" --turns 6; } \
    > "tests/fixtures/independent-rules/$name.txt"
done
# Issue 39's turn rules on full-size boards (the fast routes' kind: one fair die, no draw).
for board in tests/fixtures/turn-rules/*.toml; do
  name=$(basename "$board" .toml)
  { echo "args $board"; python3 tests/independent/rules_chain.py "$board" --turns 6; } \
    > "tests/fixtures/independent-rules/$name.txt"
done
# Two players sharing a stateful board (issue 12 item 3): shared_race.py's exact win
# probabilities, rounds and scores, read by tests/it/cli_simulate_stateful.rs (a z-test of the
# simulator at 10^6 games).
python3 tests/independent/shared_race.py tests/fixtures/sim/shared-two.toml \
  > tests/fixtures/sim/shared-two.txt
# Closed forms (issue 18): closed_form.py's N / D (Cramer's rule over rules_chain.py's turn
# kernel, by interpolation) and E[T^k] for k = 1..4, read by tests/it/known_closed_forms.rs.
# tiles-once-points is left out: its 188 turn states take the interpolation many minutes.
mkdir -p tests/fixtures/independent-closed-forms
# Issue 39's turn rules (enter, roll_again_on, jump_takes_turn) go to their own folder, read by
# their own test, so that issue 18's set stays as counted.
mkdir -p tests/fixtures/independent-closed-forms-turn-rules
for board in tests/fixtures/independent-boards/*.toml; do
  name=$(basename "$board" .toml)
  [ "$name" = tiles-once-points ] && continue
  dir=tests/fixtures/independent-closed-forms
  grep -qE '^(enter|roll_again_on|jump_takes_turn) =' "$board" && dir=$dir-turn-rules
  { echo "args $board"; python3 tests/independent/closed_form.py "$board" --moments 4; } \
    > "$dir/$name.txt"
done
# The shared race (issue 12 item 3): shared_race.py's wins, rounds and each seat's expected
# score on the small boards whose joint chain it solves in minutes, into
# tests/fixtures/independent-shared/ (read by tests/it/shared_race.rs).
mkdir -p tests/fixtures/independent-shared
for name in everything extra-points-bounce loaded-bounce-forfeit once-chain-forfeit once-chance-nochain \
  points-chance-unlimited two-dice-unlimited; do
  board=tests/fixtures/independent-boards/$name.toml
  { echo "args $board"; python3 tests/independent/shared_race.py "$board"; } \
    > tests/fixtures/independent-shared/$name.txt
done
# The likeliest game (issue 13): likeliest.py's branch and bound over rules_chain.py's turn
# kernel, read by tests/it/likeliest.rs. "args" is the board and the turn bounds.
out=tests/fixtures/independent-likeliest
likely() {
  local name=$1 board=$2; shift 2
  local bounds=()
  for n in "$@"; do bounds+=(--within "$n"); done
  { echo "args $board $*"; python3 tests/independent/likeliest.py "$board" "${bounds[@]}"; } \
    > "$out/$name.txt"
}
likely tiny boards/tiny.toml 1 10
likely shortcut tests/fixtures/likeliest/shortcut.toml 2 3 50
likely milton-bradley boards/milton-bradley.toml 10 200
likely efi boards/efi.toml 3
for board in tests/fixtures/independent-boards/*.toml; do
  likely "$(basename "$board" .toml)" "$board" 3 100
done
# Reach (issue 39 item 3): rules_chain.py --reach on every small board and efi, read by
# tests/it/known_values_rules.rs (efi takes about a minute).
mkdir -p tests/fixtures/independent-reach
for board in tests/fixtures/independent-boards/*.toml boards/efi.toml; do
  name=$(basename "$board" .toml)
  { echo "args $board"; python3 tests/independent/rules_chain.py "$board" --reach; } \
    > "tests/fixtures/independent-reach/$name.txt"
done
# The choice rule decline (issue 39): decline.py's brute force over every by-square policy on
# small boards, and the Codeforces 1245E editorial's recursion on the problem's samples, read by
# tests/it/decline.rs. The hand-worked board first: `--selftest` fails loudly.
python3 tests/independent/decline.py --selftest
for name in hand chance-bounce snakes-allow; do
  board=tests/fixtures/decline/$name.toml
  { echo "args $board"; python3 tests/independent/decline.py "$board"; } > "tests/fixtures/decline/$name.txt"
done
for n in 1 2 3; do
  board=tests/fixtures/decline/1245e-sample$n.toml
  { echo "args $board"; python3 tests/independent/decline.py --codeforces "$board"; } \
    > "tests/fixtures/decline/1245e-sample$n.txt"
done
