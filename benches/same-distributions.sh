#!/bin/bash
# Compares `ladders distribution` of two binaries byte for byte (a speed-up must not change a
# digit): every board `ladders boards` lists and the three bench boards, with the option sets
# below (or those given after the binaries). Outputs and exit codes go to $OUT (default
# /tmp/same-distributions); the base's are kept between runs.
#
# usage: bash benches/same-distributions.sh BASE_BINARY NEW_BINARY [OPTIONS ...]
# e.g.   bash benches/same-distributions.sh /tmp/base-ladders target/release/ladders "--turns 500"
set -u
base=$1 new=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/same-distributions}
mkdir -p "$out"
boards="$("$base" boards | awk '{print $1}') $here/boards/gen-1000.toml $here/boards/gen-1000-again.toml $here/boards/mb-once4-apples4.toml"
if [ $# -gt 0 ]; then
  opts=("$@")
else
  opts=("--turns 500" "--turns 37" "" "--digits 6" "--digits 15" "--digits 19" "--csv"
    "--tail 1e-6" "--chart" "--json" "--exact")
fi
fail=0 n=0
for b in $boards; do
  for o in "${opts[@]}"; do
    tag=$(echo "$(basename "$b") $o" | tr ' /.' '___')
    if [ ! -f "$out/base-$tag" ]; then
      # shellcheck disable=SC2086 # the options are words
      timeout 600 "$base" distribution "$b" $o >"$out/base-$tag" 2>&1
      echo "rc=$?" >>"$out/base-$tag"
    fi
    # shellcheck disable=SC2086
    timeout 600 "$new" distribution "$b" $o >"$out/new-$tag" 2>&1
    echo "rc=$?" >>"$out/new-$tag"
    n=$((n + 1))
    if ! cmp -s "$out/base-$tag" "$out/new-$tag"; then
      echo "differs: $b $o"
      fail=$((fail + 1))
    fi
  done
done
echo "compared $n, differing $fail"
[ "$fail" -eq 0 ]
