#!/usr/bin/env bash
# The size-limit audit (docs/limits.md): every command on boards of 10,000 squares (the size
# limit), one rule each, under a 60 s CPU-time limit (`ulimit -t`), a 90 s wall-clock limit
# (`timeout`) and a 4 GiB address-space limit (`ulimit -v`, to keep a runaway case from taking
# the machine; the hostile corpus allows 1 GiB). Prints one line per case: the board, the
# command, CPU seconds, wall seconds, peak memory (MB), the exit code, the load average (1 min,
# before the case) and the first line of standard error. An exit of 124 is the wall-clock
# limit, 137 or 152 the CPU limit (SIGKILL or SIGXCPU), 134 an abort (memory).
#
# With --tty each case runs a second time under a terminal (`script -qfec`), and two more
# columns say when the first output appeared (a bar on standard error, or the answer) and the
# longest silence on the terminal, in seconds: a command that runs past a second should show a
# bar after about a second (LADDERS_PROGRESS_DELAY changes that second) and redraw it while it
# works.
#
# Usage: benches/limits-audit.sh [--tty] [--only REGEX]
#   REGEX is matched against "BOARD COMMAND" (`--only 'stateful|chance'`, `--only 'race'`).
#   LADDERS=path/to/ladders picks the binary (default: target/release/ladders; build it with
#   `cargo build --release` first). Run from the repository's root. It takes up to an hour;
#   run it in the background: `benches/limits-audit.sh --tty > audit.txt 2>&1 &`.
set -u
cd "$(dirname "$0")/.." || exit 2

tty=0
only=''
while [ $# -gt 0 ]; do
    case $1 in
    --tty) tty=1 ;;
    --only) only=$2; shift ;;
    *) echo "usage: $0 [--tty] [--only REGEX]" >&2; exit 2 ;;
    esac
    shift
done

bin=${LADDERS:-target/release/ladders}
[ -x "$bin" ] || { echo "no $bin: run cargo build --release first" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A small file of turn counts for `verify --file` (`turns,count` lines).
printf '1500,3\n1800,4\n2100,2\n2500,1\n' > "$tmp/turns.txt"

gen=benches/boards/gen-10000.toml
hostile=tests/hostile/boards
# label, then the board and its rule overrides. Likeliest offenders first.
boards=(
    "stateful|$hostile/stateful_10000.toml"
    "roll-again-3|$gen --roll-again 3"
    "chance|$hostile/chance_10000.toml"
    "dice-2|$gen --dice 2 --overshoot allow"
    "loaded|$gen --die 1,1,1,1,1,3"
    "bounce|$gen --overshoot bounce"
    "again-unlimited|benches/boards/gen-10000-again.toml"
    "choose-die|$gen --choose-die 4,6"
    "plain|$gen"
)
commands=(
    "race --players 2 --knock-off"
    "race --players 2"
    "distribution"
    "distribution --turns 5"
    "analyze"
    "squares"
    "sensitivity"
    "pgf"
    "shortest"
    "check -n 1000"
    "verify --file TURNS"
    "expect"
    "expect --float"
    "expect --moments 2"
    "simulate -n 1000"
    "draw"
    "optimize"
)

# The longest silence of the terminal's output read on standard input, and when the first
# byte came, in seconds since the start.
gaps='
import os, sys, time
t0 = last = time.monotonic()
first, gap = None, 0.0
while True:
    chunk = os.read(0, 65536)
    now = time.monotonic()
    if not chunk:
        break
    if first is None:
        first = now - t0
    gap, last = max(gap, now - last), now
gap = max(gap, time.monotonic() - last)
print("%s %.1f" % ("-" if first is None else "%.1f" % first, gap))
'

limits='ulimit -t 60; ulimit -v 4194304'

printf '%-16s %-32s %7s %7s %7s %4s %6s %6s %5s  %s\n' \
    board command cpu_s wall_s peak_MB exit first_s quiet_s load 'stderr (first line)'
for entry in "${boards[@]}"; do
    label=${entry%%|*}
    board=${entry#*|}
    for command in "${commands[@]}"; do
        [ -n "$only" ] && ! [[ "$label $command" =~ $only ]] && continue
        words=${command//TURNS/$tmp/turns.txt}
        # shellcheck disable=SC2086 # the command and the board are word lists
        set -- ${words%% *} $board ${words#* }
        [ "$words" = "${words%% *}" ] && set -- $words $board
        load=$(cut -d ' ' -f 1 /proc/loadavg)
        sh -c "$limits"'; exec /usr/bin/time -o "$0" -f "%U %e %M" timeout 90 "$@"' \
            "$tmp/time" "$bin" "$@" > /dev/null 2> "$tmp/err" < /dev/null
        code=$?
        read -r cpu wall kb < <(tail -n 1 "$tmp/time")
        signal=$(sed -n 's/^Command terminated by signal \([0-9]*\)$/\1/p' "$tmp/time")
        [ -n "$signal" ] && code=$((128 + signal))
        first=- quiet=-
        if [ $tty = 1 ]; then
            line=$(printf '%q ' "$bin" "$@")
            read -r first quiet < <(script -qfec "sh -c '$limits; exec timeout 90 $line'" \
                /dev/null < /dev/null 2> /dev/null | python3 -c "$gaps")
        fi
        err=$(grep -v '^Command \(exited\|terminated\)' "$tmp/err" | head -n 1 | cut -c 1-160)
        printf '%-16s %-32s %7s %7s %7s %4s %6s %6s %5s  %s\n' "$label" "$command" "$cpu" \
            "$wall" $((kb / 1024)) "$code" "$first" "$quiet" "$load" "$err"
    done
done
