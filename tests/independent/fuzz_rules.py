"""Random small boards with every rule, rules_chain.py against the built `ladders` binary.

Not run by CI (it needs the binary): a differential check run by hand, whose findings become
fixtures or bug reports. Each board mixes loaded or several dice, chance squares, tiles,
one-use jumps, points, lost and extra turns with the start square, the overshoot rules,
roll-again and chains. For every board the binary accepts with a finite expectation it compares
`ladders expect --json` (expectations, variance, the expected score and its law) and
`ladders distribution --json --turns 5` (P(T = n)) with rules_chain.py, exactly. A panic of the
binary is reported as a finding, with the board.

Usage (from the repository root, after `cargo build --release`):
    python3 tests/independent/fuzz_rules.py SEED COUNT [--binary target/release/ladders]
Prints each disagreement or panic with its board, then a summary line; exit 1 if any.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_chain  # noqa: E402


def board_text(rng):
    """A random small board file using any of the rules."""
    n, faces = rng.randint(4, 11), rng.randint(2, 4)
    die = [rng.randint(0, 3) for _ in range(faces)] if rng.random() < 0.5 else faces
    if isinstance(die, list) and sum(die) == 0:
        die[0] = 1
    dice = 1 if rng.random() < 0.7 else 2
    overshoot = rng.choice(["stay", "allow"] + (["bounce"] if faces * dice <= n + 1 else []))
    again = rng.choice(['"none"', '"unlimited"', "2", "3"])
    jumps = {}
    for s in rng.sample(range(1, n), min(n - 1, rng.randint(0, 4))):
        t = rng.randint(0, n)
        if t != s:
            jumps[s] = t
    free = [s for s in range(1, n) if s not in jumps]
    chance = {s: [[rng.randint(0, n), rng.randint(1, 3)] for _ in range(rng.randint(1, 3))]
              for s in rng.sample(free, min(len(free), rng.randint(0, 2)))}
    plain = [s for s in free if s not in chance]
    lose = [s for s in plain if rng.random() < 0.15]
    lines = [
        f"size = {n}",
        f"snakes = {[[s, t] for s, t in jumps.items() if t < s]}",
        f"ladders = {[[s, t] for s, t in jumps.items() if t > s]}",
        f"once = {[s for s in jumps if rng.random() < 0.4]}",
        f"points = {[[s, rng.randint(-3, 9)] for s in plain if rng.random() < 0.2]}",
        f"lose_turn = {lose}",
        f"extra_turn = {[s for s in plain if s not in lose and rng.random() < 0.15]}",
    ]
    for s, to in chance.items():
        lines.append(f"[[chance]]\nat = {s}\nto = {to}")
    if rng.random() < 0.3:
        lines.append(f'[tiles]\nlength = {rng.randint(1, n - 1)}\n'
                     f'snake = "{rng.choice(["1/5", "1/3", "0", "1/2"])}"\n'
                     f'ladder = "{rng.choice(["1/4", "1/6", "0"])}"')
    start = 0 if rng.random() < 0.7 else rng.randint(1, n - 1)
    lines.append(f"[rules]\nstart = {start}\ndie = {die}\ndice = {dice}\novershoot = \"{overshoot}\"\n"
                 f"roll_again = {again}\nchain = {'true' if rng.random() < 0.6 else 'false'}")
    return "\n".join(lines) + "\n"


def exact(v):
    return Fraction(v["exact"]) if "exact" in v else Fraction(int(v["numerator"]), int(v["denominator"]))


def rust_answers(binary, path):
    """The binary's answers, None if it refuses the board or the game is infinite; raises on a panic."""
    p = subprocess.run([binary, "expect", path, "--json"], capture_output=True, text=True, timeout=120)
    if p.returncode == 101 or "panicked" in p.stderr:
        raise RuntimeError(p.stderr.strip().splitlines()[0:2])
    if p.returncode != 0:
        return None
    d = json.loads(p.stdout)
    if not d["finite"]:
        return None
    got = {k: exact(d["expected_" + k]) for k in ["turns", "rolls", "snakes", "ladders", "climbed", "slid"]}
    got["variance"] = exact(d["variance"])
    if d.get("score"):
        got["score"] = exact(d["score"]["expected"])
        got["score_law"] = [(x["score"], exact(x["p"])) for x in d["score"]["law"]]
    q = subprocess.run([binary, "distribution", path, "--json", "--turns", "5"],
                       capture_output=True, text=True, timeout=120)
    if q.returncode != 0:
        raise RuntimeError(q.stderr.strip().splitlines()[0:2])
    got["p_turns"] = [exact(t["p"]) for t in json.loads(q.stdout)["distribution"]]
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--binary", default="target/release/ladders")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    checked = refused = findings = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "board.toml")
        for i in range(a.count):
            text = board_text(rng)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                got = rust_answers(a.binary, path)
            except RuntimeError as e:
                findings += 1
                print(f"PANIC (seed {a.seed}, board {i}): {e}\n{text}")
                continue
            if got is None:
                refused += 1
                continue
            want = rules_chain.analyse(rules_chain.load_text(text), 5)
            bad = [k for k in got if got[k] != want[k]]
            if bad:
                findings += 1
                print(f"DISAGREE {bad} (seed {a.seed}, board {i}):\n{text}"
                      f"rust {[str(got[k]) for k in bad]}\npython {[str(want[k]) for k in bad]}\n")
            checked += 1
    print(f"seed {a.seed}: {checked} boards compared, {refused} refused or infinite, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
