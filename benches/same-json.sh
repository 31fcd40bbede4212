#!/bin/bash
# Compares the `--json` output of every command of two binaries byte for byte (moving the JSON
# onto the results' serde form must not change a byte): every board `ladders boards` lists and
# the small bench boards, with the option sets below. Outputs and exit codes go to $OUT
# (default /tmp/same-json); the base's are kept between runs (delete them to redo).
#
# usage: bash benches/same-json.sh BASE_BINARY NEW_BINARY   (NEW_BINARY `-`: the base's outputs only)
set -u
base=$1 new=$2
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/same-json}
mkdir -p "$out"
sample="$out/sample.txt"
printf '%s\n' 30 25 41 19 33 27 22 36 30 28 >"$sample"
boards="$("$base" boards | awk '{print $1}') $here/boards/gen-1000.toml $here/boards/mb-once4-apples4.toml"
cmds=(
  "analyze" "analyze --digits 4"
  "expect" "expect --per-square --digits 5" "expect --moments 4" "expect --float"
  "expect --die 4..8"
  "distribution" "distribution --turns 40 --digits 6"
  "shortest" "shortest --likeliest" "shortest --likeliest --within 30"
  "pgf"
  "race" "race --players 3 --digits 8" "race --distribution --digits 6" "race --players 2..3 --digits 6"
  "race --reverse-seat 2 --digits 6" "race --knock-off --digits 6" "race --from 0,5 --digits 6"
  "simulate -n 20k --seed 7 --threads 1" "simulate -n 20k --seed 7 --players 3"
  "simulate -n 20k --seed 7 --knock-off"
  "check -n 20k --seed 7" "check -n 20k --seed 7 --players 2" "check -n 5k --seed 7 --knock-off"
  "verify -f $sample" "verify --mean 30.1 -n 1000 --sd 20"
  "optimize" "optimize --within 20"
  "squares" "sensitivity" "draw"
)
# The timing block of simulate and check differs from run to run: its lines are dropped (the
# rest is compared byte for byte).
drop_timing() {
  awk '/^ *"timing": \{$/ { skip = 1; next } skip && /^ *\},?$/ { skip = 0; next } !skip'
}
fail=0 n=0
for b in $boards; do
  for c in "${cmds[@]}"; do
    tag=$(echo "$(basename "$b") $c" | tr ' /.' '___')
    if [ ! -f "$out/base-$tag" ]; then
      # shellcheck disable=SC2086 # the options are words
      timeout 60 "$base" $c "$b" --json 2>&1 | drop_timing >"$out/base-$tag"
      echo "rc=${PIPESTATUS[0]}" >>"$out/base-$tag"
    fi
    [ "$new" = - ] && continue
    # shellcheck disable=SC2086
    timeout 60 "$new" $c "$b" --json 2>&1 | drop_timing >"$out/new-$tag"
    echo "rc=${PIPESTATUS[0]}" >>"$out/new-$tag"
    n=$((n + 1))
    if ! cmp -s "$out/base-$tag" "$out/new-$tag"; then
      echo "differs: $b $c"
      fail=$((fail + 1))
    fi
  done
done
echo "$n outputs compared, $fail differ"
[ "$fail" -eq 0 ]
