"""Independent float value iteration for a player who chooses (issue 14), used as expected values
in tests/it/optimize.rs (agreement to 1e-12).

Written separately from the Rust code, straight from the rules text of docs/model.md ("One roll",
"Choices"), for boards without chance squares or tiles and with roll_again = "none":
  V(N) = 0,  V(s) = 1 + E[ min over the choice of E[V(next)] ],
iterated (Gauss-Seidel, squares from the top down) until no value changes in double precision.
Usage: python3 optimal_play.py BOARD.toml [--coin | --choose-die 4,6 | --pick K | --choose-face]
Prints one line per square where a turn can begin: "square value" (repr of a float).
"""
import argparse
import itertools
import tomllib


def load(path):
    with open(path, "rb") as f:
        d = tomllib.load(f)
    r = d.get("rules", {})
    jumps = {f: t for f, t in d.get("snakes", []) + d.get("ladders", [])}
    die = r.get("die", 6)
    return {
        "n": d["size"], "start": r.get("start", 0), "overshoot": r.get("overshoot", "stay"),
        "die": die if isinstance(die, int) else len(die), "chain": r.get("chain", True),
        "jumps": jumps, "choose_die": r.get("choose_die"), "coin": r.get("coin", False),
        "pick": r.get("pick"), "choose_face": r.get("choose_face", False),
    }


def land(b, t):
    """Jumps where a move lands (with chain = false, at most one)."""
    if b["chain"]:
        while t in b["jumps"]:
            t = b["jumps"][t]
        return t
    return b["jumps"].get(t, t)


def move(b, p, r):
    n, t = b["n"], p + r
    if t > n:
        if b["overshoot"] == "stay":
            return p
        t = n if b["overshoot"] == "allow" else 2 * n - t
    return land(b, t)


def coin(b, t, heads):
    if heads:
        return land(b, t + 1)
    return t if t <= 1 else land(b, t - 1)


def solve(b):
    n = b["n"]
    squares = sorted(set(range(0, n)) - set(b["jumps"]) | {b["start"]})
    v = {s: 0.0 for s in squares}
    v[n] = 0.0

    def val(s):
        return v.get(s, 0.0) if s != n else 0.0

    def turn(s):
        if b["choose_die"]:
            return min(sum(val(move(b, s, r)) for r in range(1, f + 1)) / f for f in b["choose_die"])
        if b["choose_face"]:
            return min(val(move(b, s, r)) for r in range(1, b["die"] + 1))
        if b["coin"]:
            total = 0.0
            for r in range(1, b["die"] + 1):
                t = move(b, s, r)
                if t == n:
                    continue
                total += min(val(t), (val(coin(b, t, True)) + val(coin(b, t, False))) / 2)
            return total / b["die"]
        k, f = b["pick"], b["die"]
        return sum(min(val(move(b, s, r)) for r in set(roll)) for roll in itertools.product(range(1, f + 1), repeat=k)) / f ** k

    for _ in range(1_000_000):
        changed = False
        for s in reversed(squares):
            new = 1.0 + turn(s)
            if new != v[s]:
                changed = True
            v[s] = new
        if not changed:
            break
    return v


def main():
    p = argparse.ArgumentParser()
    p.add_argument("board")
    p.add_argument("--coin", action="store_true")
    p.add_argument("--choose-die")
    p.add_argument("--pick", type=int)
    p.add_argument("--choose-face", action="store_true")
    a = p.parse_args()
    b = load(a.board)
    if a.coin:
        b["coin"] = True
    if a.choose_die:
        b["choose_die"] = [int(x) for x in a.choose_die.split(",")]
    if a.pick:
        b["pick"] = a.pick
    if a.choose_face:
        b["choose_face"] = True
    v = solve(b)
    for s in sorted(v):
        if s != b["n"] and (s == b["start"] or s not in b["jumps"]):
            print(s, repr(v[s]))


if __name__ == "__main__":
    main()
