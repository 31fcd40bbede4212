"""Runs `ladders expect --json` and the reference tools on the same boards; prints one table.

Called by benches/peers.sh. `ladders` is timed as a whole process, start-up included: from
posix_spawn to waitpid, with its output read from a pipe, after one untimed warm-up run; the median
of at least --reps runs (more when a run is short: about one second of runs, at most 201). The same
is measured for `/bin/true` just before, and printed in the "floor" column: what any process costs
on this machine at that moment (nothing is subtracted from the ladders figure). The binary timed
is a copy of --ladders in a temporary folder, as `cargo install` makes one: a freshly linked file
sits in the page cache in the 4 KiB pieces the linker wrote, and each of its code page faults maps
less of it (about 14 more faults, 0.2 M more kernel instructions per run of `expect
milton-bradley`) than the copy a user runs. Each reference tool is timed by its bare solve call,
as ../shared/bench/peers.py reports it.
A reference tool that takes longer than --peer-timeout seconds on a board is shown as "timeout", and
dense tools (FLINT's fmpq_mat, SymPy, numpy) are skipped above --dense-max squares.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_BOARDS = ["boards/milton-bradley.toml", "boards/efi.toml",
                  "benches/boards/gen-1000.toml", "benches/boards/gen-1000-again.toml",
                  "benches/boards/gen-10000.toml", "benches/boards/gen-10000-again.toml"]


def spawn(argv):
    """Runs argv with stdout to a pipe; returns (seconds from spawn to exit, stdout bytes)."""
    read_end, write_end = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_CLOSE, read_end)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 1 << 16):
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - t0
    os.close(read_end)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed (exit status {os.waitstatus_to_exitcode(status)})")
    return elapsed, b"".join(chunks)


def timed(argv, reps):
    """Median wall time of argv (one untimed warm-up run first) and its last output."""
    first, out = spawn(argv)
    n = max(reps, min(201, int(1.0 / max(first, 1e-6))))
    times = []
    for _ in range(n):
        t, out = spawn(argv)
        times.append(t)
    return statistics.median(times), out


def run_ladders(exe, board, reps):
    floor, _ = timed(["/bin/true"], reps)
    t, out = timed([exe, "expect", board, "--json", "--digits", "6"], reps)
    v = json.loads(out)["expected_turns"]
    return t, f"{v['numerator']}/{v['denominator']}", floor


DENSE = {"flint", "sympy", "numpy"}


def board_size(board):
    import tomllib
    with open(board, "rb") as f:
        return int(tomllib.load(f)["size"])


def run_peer(peers, board, tool, reps, timeout, dense_max):
    if tool in DENSE and board_size(board) > dense_max:
        return None  # a dense n x n matrix of that size would not fit in memory
    try:
        out = subprocess.run([peers, board, "--tools", tool, "--reps", str(reps), "--json"],
                             check=True, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return "timeout"
    except subprocess.CalledProcessError as e:
        print(f"  ({tool} failed on {board}: {e.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
        return None
    row = json.loads(out)[0]
    return row["core_s"], row["value"], row["exact"]


def fmt_time(s):
    if s is None:
        return "-"
    return f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="*")
    ap.add_argument("--peers", required=True)
    ap.add_argument("--ladders", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tools", default="flint,storm-exact,numpy")
    ap.add_argument("--peer-timeout", type=float, default=300)
    ap.add_argument("--dense-max", type=int, default=2000,
                    help="skip dense tools (flint, sympy, numpy) on boards larger than this")
    a = ap.parse_args()
    boards = a.boards or [os.path.join(a.root, b) for b in DEFAULT_BOARDS]
    installed = tempfile.mkdtemp(prefix="ladders-peers-")
    exe = shutil.copy2(a.ladders, os.path.join(installed, "ladders"))
    try:
        table(a, boards, exe)
    finally:
        shutil.rmtree(installed)


def table(a, boards, exe):
    """Prints the table for `boards`, timing the ladders binary `exe`."""
    tools = a.tools.split(",")
    head = f"{'board':24} {'floor':>8} {'ladders':>10}"
    for t in tools:
        head += f" {t:>12} {'ratio':>7} {'agree':>5}"
    print(head)
    print("-" * len(head))
    for board in boards:
        t_l, v_l, floor = run_ladders(exe, board, a.reps)
        line = f"{os.path.basename(board):24} {fmt_time(floor):>8} {fmt_time(t_l):>10}"
        for tool in tools:
            r = run_peer(a.peers, board, tool, a.reps, a.peer_timeout, a.dense_max)
            if r is None:
                line += f" {'skipped':>12} {'-':>7} {'-':>5}"
                continue
            if r == "timeout":
                # Did not finish --reps solves (and its set-up) within --peer-timeout seconds.
                line += f" {'timeout':>12} {'-':>7} {'-':>5}"
                continue
            t, v, exact = r
            if exact:
                agree = "yes" if v == v_l else "NO"
            else:
                n, d = map(int, v_l.split("/"))
                agree = "yes" if abs(float(v) - n / d) <= 1e-9 * abs(n / d) else "NO"
            line += f" {fmt_time(t):>12} {t / t_l:>6.1f}x {agree:>5}"
        print(line, flush=True)
    print("\nladders: whole process (spawn to exit, median; an installed copy of the binary); floor: /bin/true timed the same way "
          "just before, for context (not subtracted); ratio = reference tool's bare solve time / "
          "ladders' whole-process time (above 1: ladders is faster); agree: the exact fractions "
          "are equal (floats: within 1e-9 relative)")


if __name__ == "__main__":
    main()
