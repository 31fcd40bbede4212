"""Independent derivation of the likeliest game (issue 13), exactly, from rules_chain.py's turn
kernel (its own reading of the rules, not the Rust code), by a different search.

A game is the sequence of turn heads from the start until the game ends (every final state is one
"end"); its probability is the product of its turns' kernel probabilities. Printed:
  fewest_turns D P      the fewest turns D, and the highest probability P of a D-turn game
  likeliest_within N T P   among games of at most N turns: the highest probability P and the
                        fewest turns T a game with that probability takes ("none" if no game
                        ends within N turns)
The Rust code walks layers (Viterbi); this is a depth-first branch and bound: a prefix is cut
when its probability is no better than the best game found, since each turn multiplies by at
most 1; on equal probabilities the game with fewer turns wins.

Usage: python3 likeliest.py BOARD.toml --within N [--within M ...]
"""
import argparse
import sys
from fractions import Fraction

from rules_chain import build, load_text, turn_kernel


def kernel_of(b):
    order, trans, _ = build(b)
    heads, targets, kernel_rows = turn_kernel(order, trans)
    kernel = dict(zip(heads, kernel_rows))
    rows = {h: sorted(((q, t) for t, q in zip(targets, row) if q != 0), key=lambda x: -x[0])
            for h, row in kernel.items()}
    return order[0], rows


def fewest(start, rows):
    """Fewest turns by breadth-first search, then every game of that length, exhaustively."""
    layer, d = {start}, 0
    while True:
        d += 1
        if d > len(rows) + 1:
            return None
        if any(t == "end" for h in layer for _, t in rows[h]):
            break
        layer = {t for h in layer for _, t in rows[h]}
    best = Fraction(0)

    def walk(h, p, k):
        nonlocal best
        for q, t in rows[h]:
            if t == "end":
                if k == d:
                    best = max(best, p * q)
            elif k < d:
                walk(t, p * q, k + 1)

    walk(start, Fraction(1), 1)
    return d, best


def within(start, rows, n, seed):
    """The best game of at most n turns, starting from the fewest-turn game `seed` (d, p)."""
    best = [seed[1], seed[0]] if seed[0] <= n else [Fraction(0), None]

    def walk(h, p, k):
        for q, t in rows[h]:
            v = p * q
            if t == "end":
                if v > best[0] or (v == best[0] and best[1] is not None and k < best[1]):
                    best[0], best[1] = v, k
            elif k < n and v > best[0]:
                walk(t, v, k + 1)

    walk(start, Fraction(1), 1)
    return best[1], best[0]


def frac(x):
    return f"{x.numerator}/{x.denominator}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("--within", type=int, action="append", default=[])
    a = ap.parse_args()
    with open(a.board, encoding="utf-8") as f:
        start, rows = kernel_of(load_text(f.read()))
    sys.setrecursionlimit(100000)
    d, p_fewest = fewest(start, rows)
    print(f"fewest_turns {d} {frac(p_fewest)}")
    for n in a.within:
        t, p = within(start, rows, n, (d, p_fewest))
        print(f"likeliest_within {n} none" if t is None else f"likeliest_within {n} {t} {frac(p)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
