"""Writes the six coin strategies for Milton Bradley (examples/policies/coin-s*.csv) from the
board file, without ladders: python3 examples/policies/coin_strategies.py

The paper that introduced the coin (Ciarcia and Insko, arXiv 2603.06695) compares six
hand-made strategies; their exact definitions were not at hand, so these are six natural ones,
each a rule on the square where the roll put the token (see docs/optimal-play.md).
"""
import pathlib
import tomllib

HERE = pathlib.Path(__file__).parent
board = tomllib.loads((HERE / "../../boards/milton-bradley.toml").read_text())
N = board["size"]
JUMP = {a: b for a, b in board["snakes"] + board["ladders"]}
FEET = {a for a, _ in board["ladders"]}
HEADS = {a for a, _ in board["snakes"]}


def land(t):
    """Where a token that lands on t ends (jumps chain)."""
    seen = set()
    while t in JUMP and t not in seen:
        seen.add(t)
        t = JUMP[t]
    return t


def sides(s):
    """The squares heads and tails land on from s (tails on 1 stays)."""
    return s + 1, (s - 1 if s > 1 else s)


def ladder_heads(s):
    return sides(s)[0] in FEET


def ladder_either(s):
    return any(t in FEET for t in sides(s))


def chute_near(s):
    return any(t in HEADS for t in sides(s))


def plain_turns():
    """Expected remaining turns of the game without the coin (overshoot stay), by Gauss-Seidel
    sweeps in floats: E(s) = 1 + sum_f E(land(s + f)) / 6, E(N) = 0, a roll past N stays."""
    e = [0.0] * (N + 1)
    for _ in range(5000):
        for s in range(N - 1, -1, -1):
            e[s] = 1 + sum(e[land(s + f)] if s + f <= N else e[s] for f in range(1, 7)) / 6
    return e


E0 = plain_turns()


def lookahead(s):
    h, t = sides(s)
    return (E0[land(h)] + E0[land(t)]) / 2 < E0[s]


STRATEGIES = [
    ("coin-s1-heads-ladder", "flip when heads lands on a ladder's foot", ladder_heads),
    ("coin-s2-safe-ladder", "flip when heads lands on a ladder's foot and tails on no chute",
     lambda s: ladder_heads(s) and not chute_near(s)),
    ("coin-s3-either-ladder", "flip when heads or tails lands on a ladder's foot and neither on a chute",
     lambda s: ladder_either(s) and not chute_near(s)),
    ("coin-s4-no-chute", "flip unless heads or tails lands on a chute's head",
     lambda s: not chute_near(s)),
    ("coin-s5-endgame", "strategy 2, and flip on 96 to 99 near the finish",
     lambda s: (ladder_heads(s) and not chute_near(s)) or 96 <= s <= 99),
    ("coin-s6-lookahead", "flip when the flip lowers the expected remaining turns of the game without the coin",
     lookahead),
]

for name, rule, flips in STRATEGIES:
    lines = [
        f"# {rule} (Milton Bradley; examples/policies/coin_strategies.py wrote this file)",
        "square,choice",
        "*,keep",
    ]
    lines += [f"{s},flip" for s in range(1, N) if s not in JUMP and flips(s)]
    (HERE / f"{name}.csv").write_text("\n".join(lines) + "\n")
