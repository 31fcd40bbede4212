"""Issue 16's side-by-side table in one run: `ladders` against the reference tools on the same boards.

Called by benches/side-by-side.sh (with the reference tools' Python, see ../shared/bench/setup.sh).
Each row is one job; `ladders` is timed as a whole process (start-up included, median of --reps
runs after one warm-up), each peer by its bare call as the issue measures it:

- `expect BOARD` against FLINT's exact rational solve (`fmpq_mat.solve`, ../shared/bench/peers.py,
  which builds the chain roll by roll, independently of ladders); the fractions must agree;
- `expect BOARD --float` against SciPy's sparse direct solve (`spsolve`), values to 1e-9;
- `distribution BOARD --turns 500` against FLINT's integer stepping: a row vector times the
  integer transition counts (`fmpz_mat`), 500 times, the loop alone;
- `simulate efi --games 10M` against seed 000's Java simulator (`Game`, 10,000,000 games on the
  Efi board, ../shared/bench/kabutz-java.sh), both whole processes, once each.

The ratio is the peer's time over ours (above 1: ladders is faster). The load average is printed
before and after: compare ratios from one run, not absolute times.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction


def spawn(argv):
    """Seconds from start to exit of argv, and its stdout."""
    t0 = time.perf_counter()
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout
    return time.perf_counter() - t0, out


def timed(argv, reps):
    """Median wall time of argv over `reps` runs after one untimed warm-up, and its output."""
    _, out = spawn(argv)
    times = []
    for _ in range(reps):
        t, out = spawn(argv)
        times.append(t)
    return statistics.median(times), out


def flint_stepping(peers, path, turns, reps):
    """The issue's FLINT figure: v <- v M with M the integer roll counts, `turns` times."""
    import flint
    states, rows, _, s0, _ = peers.build(peers.load(path))
    m = len(states)
    M = flint.fmpz_mat(m, m)
    for k, row in enumerate(rows):
        for j, c in row.items():
            M[k, j] = c
    times = []
    for _ in range(reps):
        v = flint.fmpz_mat(1, m)
        v[0, s0] = 1
        t0 = time.perf_counter()
        for _ in range(turns):
            v = v * M
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def peer_solve(peers, tool, path, reps):
    """Median core time of a peers.py tool, and its value."""
    b = peers.load(path)
    core, val = [], None
    for _ in range(reps):
        val, c, _ = peers.TOOLS[tool](b)
        core.append(c)
    return statistics.median(core), val


def exact_value(out):
    """E[T] from `ladders expect --json` as a Fraction."""
    import json
    t = json.loads(out)["expected_turns"]
    return Fraction(int(t["numerator"]), int(t["denominator"])) if isinstance(t, dict) else float(t)


def java_vs_simulate(exe, java_script):
    """Seed 000's Java `Game` and `ladders simulate efi --games 10M`, once each (wall s)."""
    out = subprocess.run(["bash", java_script, "Game"], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    java = next(float(line.split()[1]) for line in out.splitlines() if line.startswith("wall:"))
    ours, _ = spawn([exe, "simulate", "efi", "--games", "10M", "--seed", "1"])
    return ours, java


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ladders", default=os.path.join(root, "target/release/ladders"))
    ap.add_argument("--bench", default=os.environ.get("LADDERS_BENCH_DIR", "/work/shared/bench"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--skip", default="", help="comma-separated: expect,float,distribution,simulate")
    a = ap.parse_args()
    sys.path.insert(0, a.bench)
    import peers
    skip = set(filter(None, a.skip.split(",")))
    board = lambda p: os.path.join(root, p)
    mb, efi = board("boards/milton-bradley.toml"), board("boards/efi.toml")
    g1k, g10k = board("benches/boards/gen-1000.toml"), board("benches/boards/gen-10000.toml")
    rows = []

    def row(job, ours, peer, theirs, note=""):
        rows.append((job, ours, peer, theirs, note))
        print(f"  done: {job}", file=sys.stderr, flush=True)

    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores", flush=True)
    if "expect" not in skip:
        for path in (mb, efi, g1k):
            ours, out = timed([a.ladders, "expect", path, "--json"], a.reps)
            theirs, val = peer_solve(peers, "flint", path, a.reps)
            agree = "fractions agree" if exact_value(out) == val else "FRACTIONS DIFFER"
            row(f"expect {os.path.basename(path)}", ours, "FLINT fmpq_mat.solve", theirs, agree)
    if "float" not in skip:
        ours, out = timed([a.ladders, "expect", g10k, "--json", "--float"], a.reps)
        theirs, val = peer_solve(peers, "scipy", g10k, a.reps)
        close = abs(exact_value(out) - val) <= 1e-9 * abs(val)
        row("expect gen-10000 --float", ours, "SciPy spsolve", theirs,
            "values agree to 1e-9" if close else "VALUES DIFFER")
    if "distribution" not in skip:
        for path in (mb, efi, g1k):
            ours, _ = timed([a.ladders, "distribution", path, "--turns", "500"], a.reps)
            theirs = flint_stepping(peers, path, 500, a.reps)
            row(f"distribution {os.path.basename(path)} --turns 500", ours,
                "FLINT fmpz_mat stepping", theirs)
    if "simulate" not in skip:
        ours, theirs = java_vs_simulate(a.ladders, os.path.join(a.bench, "kabutz-java.sh"))
        row("simulate efi --games 10M", ours, "seed 000 Java Game", theirs, "one run each")
    print()
    print(f"| job | ladders (whole process) | peer | peer (bare call) | ratio | |")
    print("|---|---|---|---|---|---|")
    for job, ours, peer, theirs, note in rows:
        print(f"| `{job}` | {fmt(ours)} | {peer} | {fmt(theirs)} | {theirs / ours:.1f}x | {note} |")
    floor, _ = timed([a.ladders, "--version"], a.reps)
    print(f"\nprocess floor (`ladders --version`, whole process): {fmt(floor)}")
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}")


def fmt(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


if __name__ == "__main__":
    main()
