"""Independent derivation of the exact expectations used as expected values in tests/known_values.rs.

Written separately from the Rust code: a roll-level chain (state = square, top faces rolled so far
in this turn, square the turn began on), built straight from the rules text of DESIGN.md section 1,
solved with Python's Fraction by sparse Gaussian elimination. A reward of 1 on each turn's first
roll counts turns. Usage: python3 roll_chain.py BOARD.toml [--reverse] [--overshoot X] ...
Prints one line per quantity: name numerator/denominator.
"""
import argparse
import sys
import tomllib
from fractions import Fraction


def load(path, reverse, overrides):
    with open(path, "rb") as f:
        d = tomllib.load(f)
    rules = d.get("rules", {})
    snakes = [tuple(p) for p in d.get("snakes", [])]
    ladders = [tuple(p) for p in d.get("ladders", [])]
    if reverse:
        snakes, ladders = [(t, f) for f, t in ladders], [(t, f) for f, t in snakes]
    b = {
        "n": int(d["size"]),
        "start": int(rules.get("start", 0)),
        "overshoot": rules.get("overshoot", "stay"),
        "die": int(rules.get("die", 6)),
        "again": rules.get("roll_again", "none"),
        "chain": bool(rules.get("chain", True)),
        "jumps": {f: t for f, t in snakes + ladders},
    }
    for k, v in overrides.items():
        if v is not None:
            b[k] = v
    return b


def move(b, p, r):
    """One roll: returns (square, snakes, ladders, climbed, slid)."""
    n, t = b["n"], p + r
    if t > n:
        if b["overshoot"] == "stay":
            return p, 0, 0, 0, 0
        t = n if b["overshoot"] == "allow" else 2 * n - t
    s = l = c = sl = 0
    while t in b["jumps"]:
        u = b["jumps"][t]
        if u > t:
            l += 1
            c += u - t
        else:
            s += 1
            sl += t - u
        t = u
        if not b["chain"]:
            break
    return t, s, l, c, sl


def chain(b):
    """States (square, k, turn_start); k = top faces in a row so far this turn."""
    n, F, again = b["n"], b["die"], b["again"]
    start = (b["start"], 0, b["start"])
    idx, order, todo = {start: 0}, [start], [start]
    trans, rew = {}, {}
    while todo:
        s = todo.pop()
        p, k, ts = s
        out = {}
        # rewards: [turns, rolls, snakes, ladders, climbed, slid]
        r = [Fraction(1 if k == 0 else 0), Fraction(1), Fraction(0), Fraction(0), Fraction(0), Fraction(0)]
        for face in range(1, F + 1):
            top = face == F and again != "none"
            if top and isinstance(again, int) and k + 1 >= again:
                nxt = (ts, 0, ts)  # forfeit: back to where the turn began, turn over
            else:
                q, sn, la, cl, sl = move(b, p, face)
                r[2] += Fraction(sn, F)
                r[3] += Fraction(la, F)
                r[4] += Fraction(cl, F)
                r[5] += Fraction(sl, F)
                if q == n:
                    nxt = "finish"
                elif top and isinstance(again, int):
                    nxt = (q, k + 1, ts)
                elif top:
                    nxt = (q, 1, 0)  # unlimited: where the turn began no longer matters
                else:
                    nxt = (q, 0, q)
            if nxt != "finish" and nxt not in idx:
                idx[nxt] = len(order)
                order.append(nxt)
                todo.append(nxt)
            out[nxt] = out.get(nxt, 0) + Fraction(1, F)
        trans[s], rew[s] = out, r
    return order, trans, rew


def solve(order, trans, rhs_cols):
    """Sparse Gaussian elimination of (I - P) X = B over transient states (dict rows)."""
    m = len(order)
    pos = {s: i for i, s in enumerate(order)}
    rows = []
    for s in order:
        row = {pos[s]: Fraction(1)}
        for t, p in trans[s].items():
            if t != "finish":
                row[pos[t]] = row.get(pos[t], Fraction(0)) - p
        rows.append(row)
    B = [list(c) for c in rhs_cols]  # B[col][i]
    done = []
    for v in range(m):
        piv = rows[v][v]
        inv = 1 / piv
        rv = {c: a * inv for c, a in rows[v].items()}
        bv = [col[v] * inv for col in B]
        for col, val in zip(B, bv):
            col[v] = val
        rows[v] = rv
        for u in range(v + 1, m):
            a = rows[u].pop(v, None)
            if a is None or a == 0:
                continue
            for c, x in rv.items():
                if c != v:
                    rows[u][c] = rows[u].get(c, Fraction(0)) - a * x
            for col in B:
                col[u] -= a * col[v]
        done.append(v)
    X = [[Fraction(0)] * m for _ in B]
    for v in reversed(range(m)):
        for ci, col in enumerate(B):
            acc = col[v]
            for c, x in rows[v].items():
                if c > v:
                    acc -= x * X[ci][c]
            X[ci][v] = acc
    return X


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("--reverse", action="store_true")
    ap.add_argument("--overshoot")
    ap.add_argument("--start", type=int)
    ap.add_argument("--die", type=int)
    ap.add_argument("--roll-again")
    a = ap.parse_args()
    again = a.roll_again
    if again is not None and again not in ("none", "unlimited"):
        again = int(again)
    b = load(a.board, a.reverse, {"overshoot": a.overshoot, "start": a.start, "die": a.die, "again": again})
    order, trans, rew = chain(b)
    cols = [[rew[s][k] for s in order] for k in range(6)]
    X = solve(order, trans, cols)
    t = X[0]
    # Second moment of the turn count: m2 = r^2 + 2 r (P m1) + P m2 with r = turn reward.
    pm1 = [sum(p * t[order.index(u)] for u, p in trans[s].items() if u != "finish") for s in order]
    rhs2 = [rew[s][0] ** 2 + 2 * rew[s][0] * pm1[i] for i, s in enumerate(order)]
    m2 = solve(order, trans, [rhs2])[0]
    names = ["turns", "rolls", "snakes", "ladders", "climbed", "slid"]
    for k, name in enumerate(names):
        v = X[k][0]
        print(f"{name} {v.numerator}/{v.denominator}")
    var = m2[0] - t[0] ** 2
    print(f"variance {var.numerator}/{var.denominator}")


if __name__ == "__main__":
    sys.exit(main())
