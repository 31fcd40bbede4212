#!/usr/bin/env bash
# Side by side, in one run: seed 000's Java simulator (10,000,000 games on the Efi board, built
# from the seed text by shared/bench/kabutz-java.sh) and `ladders simulate efi --games 10M`.
# Prints both wall times, the ratio, and ladders' rolls per second. Run from the repository:
#   bash benches/vs-java.sh            (builds ladders in release mode first)
# Machines here are shared: the load average is printed too; compare ratios from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
java_script=${KABUTZ_JAVA:-../shared/bench/kabutz-java.sh}
[ -f "$java_script" ] || java_script=/work/shared/bench/kabutz-java.sh
cargo build --release --quiet
bin=target/release/ladders
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
java_out=$(bash "$java_script" Game 2>&1)
java_s=$(printf '%s\n' "$java_out" | sed -n 's/^wall: \([0-9.]*\) s.*/\1/p')
printf '%s\n' "$java_out" | sed 's/^/  java: /'
start=$(date +%s.%N)
ours=$("$bin" simulate efi --games 10M --seed 1)
end=$(date +%s.%N)
printf '%s\n' "$ours" | grep -E '^(Games|Turns|Throughput)' | sed 's/^/  ladders: /'
python3 - "$java_s" "$start" "$end" <<'PY'
import sys
java, start, end = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
ours = end - start
print(f"java Game: {java:.2f} s   ladders simulate efi --games 10M: {ours:.2f} s   ratio {java / ours:.1f}x")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
