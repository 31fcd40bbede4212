"""Independent derivation: two players sharing one board that changes during a game.

Written from the rules text (docs/model.md, issue 12 item 3), not from the Rust code. One roll is
read exactly as rules_chain.py reads it (its `transitions`); what is new here is the sharing. The
seats take whole turns in seat order, seat 1 first; the first to reach N wins. Each seat has its
own square and its own owed turn; the one-use jumps used up and the point squares eaten are one
set for the whole table: a ladder broken by one seat is broken for the other, an apple eaten by
one is gone for the other, and its points go to the seat whose move ended on it.

Joint state: (mover, the mover's rules_chain state with the table's used and eaten sets, the
other seat's square, the other seat's owed flag). A transition of the mover's state to a "turn"
state ends the mover's turn: the other seat moves next, from its own square and owed flag with
the table's sets; a "roll" state is one more roll of the same turn; an "end" state is a win for
the mover. Exact answers (fractions.Fraction, Gaussian elimination from rules_chain.py): each
seat's win probability, the expected number of rounds (the turns seat 1 begins: every round
begins with seat 1 and the game ends in the round of the winning turn) and each seat's expected
final score.

Usage: python3 shared_race.py BOARD.toml   prints "name n/d" lines: win1, win2, rounds, score1,
score2.
"""
import sys
from fractions import Fraction

from rules_chain import frac, load_text, solve, transitions


def joint_transitions(b, state):
    """(next joint state or ("win", seat), probability, [round begun, points to seat 1, points to
    seat 2]) for one roll or skipped turn of the mover."""
    mover, mine, other_sq, other_owed = state
    began_turn = 1 if (mover == 0 and mine[0] == "turn") else 0
    out = []
    for nxt, p, rew in transitions(b, mine):
        score = rew[5]
        points = [score, 0] if mover == 0 else [0, score]
        r = [began_turn] + points
        if nxt[0] == "end":
            out.append((("win", mover), p, r))
        elif nxt[0] == "roll":
            out.append(((mover, nxt, other_sq, other_owed), p, r))
        else:
            _, sq, used, eaten, owed = nxt
            theirs = ("turn", other_sq, used, eaten, other_owed)
            out.append(((1 - mover, theirs, sq, owed), p, r))
    return out


def analyse(b):
    start_player = ("turn", b["start"], frozenset(), frozenset(), False)
    start = (0, start_player, b["start"], False)
    order, idx, todo, trans = [start], {start: 0}, [start], {}
    while todo:
        s = todo.pop()
        merged = {}
        for nxt, p, rew in joint_transitions(b, s):
            if nxt[0] != "win" and nxt not in idx:
                idx[nxt] = len(order)
                order.append(nxt)
                todo.append(nxt)
            old = merged.setdefault(nxt, [Fraction(0), [Fraction(0)] * 3])
            old[0] += p
            old[1] = [a + p * x for a, x in zip(old[1], rew)]
        trans[s] = merged
    rows, rhs = [], [[], [], [], [], []]
    for s in order:
        row = {idx[s]: Fraction(1)}
        win = [Fraction(0), Fraction(0)]
        rew = [Fraction(0)] * 3
        for t, (p, r) in trans[s].items():
            if t[0] == "win":
                win[t[1]] += p
            else:
                row[idx[t]] = row.get(idx[t], 0) - p
            rew = [a + x for a, x in zip(rew, r)]
        rows.append(row)
        rhs[0].append(win[0])
        rhs[1].append(rew[0])
        rhs[2].append(rew[1])
        rhs[3].append(rew[2])
        rhs[4].append(win[1])
    x = solve(rows, rhs)
    w1, rounds, s1, s2, w2 = (col[0] for col in x)
    assert w1 + w2 == 1, "the game ends with probability 1"
    return {"states": len(order), "win1": w1, "win2": w2, "rounds": rounds,
            "score1": s1, "score2": s2}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        b = load_text(f.read())
    res = analyse(b)
    print(f"states {res['states']}")
    for name in ["win1", "win2", "rounds", "score1", "score2"]:
        print(f"{name} {frac(res[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
