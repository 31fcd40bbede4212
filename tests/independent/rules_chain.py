"""Independent derivation of exact answers on boards with every rule of docs/model.md.

Written from the rules text (docs/model.md, docs/board-format.md, issues 11 and 12), not from
the Rust code. It covers what roll_chain.py does not: loaded dice (`die = [w1, ..., wF]`), several
dice (`dice = k`, the sum of k throws; a top throw is every die on its top face F), chance squares
(`[[chance]]`), random tiles (`[tiles]`), one-use jumps (`once`), point squares (`points`), lost
turns (`lose_turn`) and extra turns (`extra_turn`), together with the start square, the three
overshoot rules, `chain` true or false and `roll_again` none, unlimited or K.

The model is a roll-level Markov chain. A state is either
  ("turn", square, used, eaten, owed)        a turn is about to begin, or
  ("roll", square, k, began, used, eaten, owed)  one more roll in the same turn,
  ("end", eaten)                             the game is over (one final state per eaten set),
with `used` the one-use jumps used up, `eaten` the point squares eaten, `owed` whether the next
turn is lost, `k` the top throws in a row so far in the turn (kept only for roll_again = K) and
`began` the square the turn began on (kept only for roll_again = K, where a forfeit returns there).
A "turn" state with owed set is a skipped turn: it counts as a turn, with no roll.

One roll from square s (the rules, as read here):
  * the K-th top throw in a row forfeits: no move, back to `began`, the turn ends, nothing
    triggers (what was used, eaten or owed stays);
  * t = s + r; past N: stay (no move and nothing triggers), bounce (2N - t) or allow (N);
  * a random tile is drawn on t if the board has tiles and t is plain (1 <= t < N, no jump or
    chance square starts there; a one-use jump's square is plain once used up): snake tile w.p. p when t > f (to t - f), ladder tile w.p. q (to
    min(t + f, N)); where the tile sends the token is final for the move;
  * otherwise jumps (a one-use jump only while unused, and it is then used up) and chance draws
    (at most one per move) apply; chain = true follows them while they apply, chain = false
    takes at most one of them (a chance square reached by a jump does nothing);
  * on the square where the move ended (not after a stay or a forfeit): points not yet eaten are
    scored and eaten, a lost-turn square makes `owed` true, an extra-turn square grants one
    more roll;
  * reaching N ends the game; otherwise one more roll follows if the throw was a top throw (with
    roll_again not none) or the square gave an extra turn (one more roll either way), else the
    turn ends.

Issue 39's turn rules, as read here from DESIGN.md section 1 ("Four more rules"):
  * enter = [sums]: from square 0 a throw whose sum is not listed leaves the token on 0 and
    nothing triggers (as a stay); the turn logic is unchanged (a top throw still rolls again);
  * roll_again_on = "double": the throws that roll again (and count toward a forfeit) are those
    with every die on the same face, found by enumerating the dice one by one;
  * jump_takes_turn: a move (or a draw, with chain = true) that would take a live jump stops on
    its square and ends the turn; the next turn is a jump turn ("turn" state whose owed field is
    "jump"): no roll, the jump is followed and counted then; with chain = true a live jump where
    it ends is the turn after.

Quantities: expected turns, rolls, snakes, ladders, squares climbed and slid (rewards on the
transitions), Var T (second moment with the turn reward on "turn" states), the expected final
score (points as a reward when eaten) and its law (absorption into the final states), and
P(T = n) for n = 1..--turns (from the turn-to-turn kernel, obtained by absorbing the in-turn
states). All exact with fractions.Fraction and Gaussian elimination.

Usage: python3 rules_chain.py BOARD.toml [--turns N]   prints "name n/d" lines, plus
"score_law VALUE n/d" and "p_turns N n/d" lines; with --shortest N instead, "shortest n p/q":
the fewest turns n <= N a game can take and P(T = n); with --reach, "reach j p/q": the probability
that some roll ever leaves the token on square j (where its move ended, or where it stayed). python3
rules_chain.py --selftest checks the hand-worked tiny boards listed in HAND below.
"""
import argparse
import sys
import tomllib
from fractions import Fraction


def load_text(text):
    d = tomllib.loads(text)
    rules = d.get("rules", {})
    die = rules.get("die", 6)
    weights = list(die) if isinstance(die, list) else [1] * int(die)
    again = rules.get("roll_again", "none")
    tiles = d.get("tiles")
    return {
        "n": int(d["size"]),
        "start": int(rules.get("start", 0)),
        "overshoot": rules.get("overshoot", "stay"),
        "weights": weights,
        "dice": int(rules.get("dice", 1)),
        "again": again if isinstance(again, str) else int(again),
        "chain": bool(rules.get("chain", True)),
        "jumps": {int(f): int(t) for f, t in d.get("snakes", []) + d.get("ladders", [])},
        "chance": {int(c["at"]): [(int(s), int(w)) for s, w in c["to"]] for c in d.get("chance", [])},
        "tiles": None
        if tiles is None
        else (int(tiles["length"]), Fraction(str(tiles.get("snake", 0))), Fraction(str(tiles.get("ladder", 0)))),
        "once": set(d.get("once", [])),
        "points": {int(s): int(p) for s, p in d.get("points", [])},
        "lose": set(d.get("lose_turn", [])),
        "extra": set(d.get("extra_turn", [])),
        # The three turn rules of DESIGN.md section 1 "Four more rules" (issue 39).
        "enter": None if "enter" not in rules else set(int(x) for x in rules["enter"]),
        "double": rules.get("roll_again_on", "top") == "double",
        "jump_turn": bool(rules.get("jump_takes_turn", False)),
    }


def throws(b):
    """The law of one throw: list of (sum, probability, top), top = every die on face F, or with
    `roll_again_on = "double"` every die on the same face (the throws that roll again)."""
    w = b["weights"]
    total, faces = sum(w), len(w)
    # Keyed by (sum, the face all dice so far show, or 0 once two differ).
    law = {(0, None): Fraction(1)}
    for _ in range(b["dice"]):
        nxt = {}
        for (s, same), p in law.items():
            for face in range(1, faces + 1):
                if w[face - 1] == 0:
                    continue
                key = (s + face, face if same in (None, face) else 0)
                nxt[key] = nxt.get(key, 0) + p * Fraction(w[face - 1], total)
        law = nxt
    out = {}
    for (s, same), p in law.items():
        top = same != 0 if b["double"] else same == faces
        out[(s, top)] = out.get((s, top), 0) + p
    return [(s, p, top) for (s, top), p in sorted(out.items())]


# A move's counts: [snakes, ladders, climbed, slid].
def jump_counts(frm, to):
    return [0, 1, to - frm, 0] if to > frm else [1, 0, 0, frm - to]


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def resolve(b, t, used):
    """Where a move that lands on t ends: list of (probability, square, used, counts)."""
    n = b["n"]
    # A used-up one-use jump's square is plain ("from then on its square is plain", issue 12).
    live_jump = t in b["jumps"] and not (t in b["once"] and t in used)
    plain = not live_jump and t not in b["chance"]
    if b["tiles"] is not None and 1 <= t < n and plain:
        f, p, q = b["tiles"]
        out = []
        rest = Fraction(1)
        if t > f and p > 0:
            out.append((p, t - f, used, [1, 0, 0, f]))
            rest -= p
        if q > 0:
            up = min(t + f, n)
            out.append((q, up, used, [0, 1, up - t, 0]))
            rest -= q
        if rest > 0:
            out.append((rest, t, used, [0, 0, 0, 0]))
        return out
    return follow(b, t, used, drawn=False, moved=False)


def follow(b, t, used, drawn, moved):
    """Jumps and at most one chance draw from t; `moved` = a jump or draw already happened.
    With jump_takes_turn a live jump the move would take is not taken: the move stops on its
    square and the square's entry is "pending" (the caller reads it as a jump owed)."""
    live = t in b["jumps"] and not (t in b["once"] and t in used)
    if live and b["jump_turn"] and not (moved and not b["chain"]):
        return [(Fraction(1), t, used, "pending")]
    if live:
        if moved and not b["chain"]:
            return [(Fraction(1), t, used, [0, 0, 0, 0])]
        u = b["jumps"][t]
        used2 = used | {t} if t in b["once"] else used
        c = jump_counts(t, u)
        if not b["chain"]:
            return [(Fraction(1), u, used2, c)]
        return [(p, s, us, add(c, cc)) for p, s, us, cc in follow(b, u, used2, drawn, True)]
    if t in b["chance"] and not drawn and not (moved and not b["chain"]):
        dests = b["chance"][t]
        total = sum(w for _, w in dests)
        out = []
        for s, w in dests:
            if w == 0:
                continue
            pw = Fraction(w, total)
            if not b["chain"]:
                out.append((pw, s, used, [0, 0, 0, 0]))
            else:
                out += [(pw * p, s2, us, cc) for p, s2, us, cc in follow(b, s, used, True, True)]
        return out
    return [(Fraction(1), t, used, [0, 0, 0, 0])]


def roll_outcomes(b, sq, k, began, used, eaten, owed):
    """Transitions of one roll: list of (next state, probability, rewards). Rewards are
    [rolls, snakes, ladders, climbed, slid, score]."""
    return [(nxt, p, rew) for nxt, p, rew, _ in roll_landings(b, sq, k, began, used, eaten, owed)]


def roll_landings(b, sq, k, began, used, eaten, owed):
    """roll_outcomes with, for each transition, the square the token stands on after the roll
    (where its move ended; the square it stayed on after a stay or a refused entry; the jump's
    square when the move stopped there under jump_takes_turn), or None for a forfeit."""
    n, again = b["n"], b["again"]
    limited = isinstance(again, int)
    out = []
    for r, pr, top in throws(b):
        top = top and again != "none"
        if top and limited and k + 1 >= again:
            out.append((("turn", began, used, eaten, owed), pr, [1, 0, 0, 0, 0, 0], None))
            continue
        k2 = k + 1 if (top and limited) else 0
        t = sq + r
        if sq == 0 and b["enter"] is not None and r not in b["enter"]:
            moves = None  # not an entering throw: the token stays on 0, the roll is used
        elif t > n and b["overshoot"] == "stay":
            moves = None
        else:
            if t > n:
                t = n if b["overshoot"] == "allow" else 2 * n - t
            moves = resolve(b, t, used)
        if moves is None:
            ends = [(Fraction(1), sq, used, [0, 0, 0, 0], eaten, owed, False, 0)]
        else:
            ends = []
            for p, s, us, c in moves:
                if c == "pending":
                    # Stopped on a jump: the turn ends now; the jump is the next turn.
                    assert not owed, "a turn ending owing a lost turn with a jump pending"
                    out.append((("turn", s, us, eaten, "jump"), pr * p, [1, 0, 0, 0, 0, 0], s))
                    continue
                score, eat, ow = 0, eaten, owed
                if s in b["points"] and s not in eaten:
                    score, eat = b["points"][s], eaten | {s}
                if s in b["lose"]:
                    ow = True
                ends.append((p, s, us, c, eat, ow, s in b["extra"], score))
        for p, s, us, c, eat, ow, extra, score in ends:
            rew = [1] + c + [score]
            if s == n:
                nxt = ("end", eat)
            elif top or extra:
                nxt = ("roll", s, k2, began if limited else None, us, eat, ow)
            else:
                nxt = ("turn", s, us, eat, ow)
            out.append((nxt, pr * p, rew, s))
    return out


def jump_turn(b, sq, used, eaten):
    """The turn of a pending jump on sq (jump_takes_turn): no roll; the jump is followed, its
    counts are this turn's; with chain = true a live jump where it ends is the next turn."""
    u = b["jumps"][sq]
    used2 = used | {sq} if sq in b["once"] else used
    rew = [0] + jump_counts(sq, u) + [0]
    if u == b["n"]:
        return (("end", eaten), Fraction(1), rew)
    again = b["chain"] and u in b["jumps"] and not (u in b["once"] and u in used2)
    assert u not in b["points"] and u not in b["lose"] and u not in b["extra"]
    return (("turn", u, used2, eaten, "jump" if again else False), Fraction(1), rew)


def transitions(b, state):
    return [(nxt, p, rew) for nxt, p, rew, _ in landing_transitions(b, state)]


def landing_transitions(b, state):
    """transitions with, for each, the square a roll left the token on (roll_landings), or None
    for a turn without a roll (a lost turn, a jump turn) and a forfeit."""
    if state[0] == "turn":
        _, sq, used, eaten, owed = state
        if owed == "jump":
            return [jump_turn(b, sq, used, eaten) + (None,)]
        if owed:
            return [(("turn", sq, used, eaten, False), Fraction(1), [0] * 6, None)]
        began = sq if isinstance(b["again"], int) else None
        return roll_landings(b, sq, 0, began, used, eaten, owed)
    _, sq, k, began, used, eaten, owed = state
    return roll_landings(b, sq, k, began, used, eaten, owed)


def reach(b):
    """For each square j that some roll can leave the token on, the probability that one ever
    does (at any roll of any turn), by one solve per square: h = a_j + P_j h over the transient
    states, a_j(s) the chance that the roll from s leaves the token on j, P_j the transitions
    that do not. The finish is reached with probability 1 (the games here always end)."""
    order, _, _ = build(b)
    pos = {s: i for i, s in enumerate(order)}
    raw = {s: landing_transitions(b, s) for s in order}
    squares = sorted({j for s in order for *_, j in raw[s] if j is not None and j != b["n"]})
    out = []
    for j in squares:
        rows, rhs = [], []
        for s in order:
            row, a = {pos[s]: Fraction(1)}, Fraction(0)
            for nxt, p, _, landed in raw[s]:
                if landed == j:
                    a += p
                elif nxt in pos:
                    row[pos[nxt]] = row.get(pos[nxt], 0) - p
            rows.append(row)
            rhs.append(a)
        out.append((j, solve(rows, [rhs])[0][0]))
    return out


def build(b):
    start = ("turn", b["start"], frozenset(), frozenset(), False)
    order, idx, todo, trans = [start], {start: 0}, [start], {}
    finals = []
    while todo:
        s = todo.pop()
        merged = {}
        for nxt, p, rew in transitions(b, s):
            if nxt[0] == "end":
                if nxt not in finals:
                    finals.append(nxt)
            elif nxt not in idx:
                idx[nxt] = len(order)
                order.append(nxt)
                todo.append(nxt)
            old = merged.get(nxt)
            if old is None:
                merged[nxt] = [p, [p * x for x in rew]]
            else:
                old[0] += p
                old[1] = [a + p * x for a, x in zip(old[1], rew)]
        trans[s] = merged
    return order, trans, finals


def solve(rows, rhs):
    """Solves A X = B for dense-as-dict rows A (list of {col: value}) and columns B, exactly."""
    m = len(rows)
    rows = [dict(r) for r in rows]
    B = [list(c) for c in rhs]
    for v in range(m):
        piv_row = next(u for u in range(v, m) if rows[u].get(v, 0) != 0)
        if piv_row != v:
            rows[v], rows[piv_row] = rows[piv_row], rows[v]
            for col in B:
                col[v], col[piv_row] = col[piv_row], col[v]
        inv = 1 / rows[v][v]
        rows[v] = {c: a * inv for c, a in rows[v].items() if a != 0}
        for col in B:
            col[v] *= inv
        for u in range(v + 1, m):
            a = rows[u].pop(v, 0)
            if a == 0:
                continue
            for c, x in rows[v].items():
                if c != v:
                    rows[u][c] = rows[u].get(c, 0) - a * x
            for col in B:
                col[u] -= a * col[v]
    X = [[Fraction(0)] * m for _ in B]
    for v in reversed(range(m)):
        for ci, col in enumerate(B):
            X[ci][v] = col[v] - sum(x * X[ci][c] for c, x in rows[v].items() if c > v)
    return X


def i_minus_p(states, pos, trans):
    rows = []
    for s in states:
        row = {pos[s]: Fraction(1)}
        for t, (p, _) in trans[s].items():
            if t in pos:
                row[pos[t]] = row.get(pos[t], 0) - p
        rows.append(row)
    return rows


def analyse(b, turns=0):
    order, trans, finals = build(b)
    pos = {s: i for i, s in enumerate(order)}
    rows = i_minus_p(order, pos, trans)
    is_turn = [Fraction(1 if s[0] == "turn" else 0) for s in order]
    cols = [is_turn] + [[sum(v[1][j] for v in trans[s].values()) for s in order] for j in range(6)]
    cols += [[trans[s].get(f, [0])[0] for s in order] for f in finals]
    X = solve(rows, cols)
    t = X[0]
    pm1 = [sum(p * t[pos[u]] for u, (p, _) in trans[s].items() if u in pos) for s in order]
    m2 = solve(rows, [[is_turn[i] + 2 * is_turn[i] * pm1[i] for i in range(len(order))]])[0]
    res = {
        "turns": t[0],
        "variance": m2[0] - t[0] ** 2,
        "rolls": X[1][0],
        "snakes": X[2][0],
        "ladders": X[3][0],
        "climbed": X[4][0],
        "slid": X[5][0],
    }
    if b["points"]:
        res["score"] = X[6][0]
        law = {}
        for f, col in zip(finals, X[7:]):
            v = sum(b["points"][s] for s in f[1])
            law[v] = law.get(v, 0) + col[0]
        res["score_law"] = sorted((v, p) for v, p in law.items() if p != 0)
    if turns:
        res["p_turns"] = turn_law(order, trans, turns)
    return res


def turn_kernel(order, trans):
    """(heads, targets, rows): the turn kernel from absorbing the in-turn ("roll") states; heads
    are the "turn" states (the start first), targets the heads plus "end", rows[i][j] the
    probability that a turn begun in heads[i] ends in targets[j]."""
    mids = [s for s in order if s[0] == "roll"]
    heads = [s for s in order if s[0] == "turn"]
    mpos = {s: i for i, s in enumerate(mids)}
    targets = heads + ["end"]
    tpos = {s: i for i, s in enumerate(targets)}

    def target(s):
        return "end" if s[0] == "end" else s

    direct = {s: [Fraction(0)] * len(targets) for s in order}
    for s in order:
        for u, (p, _) in trans[s].items():
            if u[0] != "roll":
                direct[s][tpos[target(u)]] += p
    absorb = solve(i_minus_p(mids, mpos, trans), [[direct[m][j] for m in mids] for j in range(len(targets))])
    rows = []
    for h in heads:
        row = list(direct[h])
        for u, (p, _) in trans[h].items():
            if u[0] == "roll":
                for j in range(len(targets)):
                    row[j] += p * absorb[j][mpos[u]]
        rows.append(row)
    return heads, targets, rows


def turn_law(order, trans, turns):
    """P(T = n) for n = 1..turns, by stepping the turn kernel."""
    heads, targets, rows = turn_kernel(order, trans)
    kernel = dict(zip(heads, rows))
    dist = {order[0]: Fraction(1)}
    law = []
    for _ in range(turns):
        nxt, done = {}, Fraction(0)
        for h, p in dist.items():
            for j, q in enumerate(kernel[h]):
                if q == 0:
                    continue
                if targets[j] == "end":
                    done += p * q
                else:
                    nxt[targets[j]] = nxt.get(targets[j], 0) + p * q
        law.append(done)
        dist = nxt
    return law


def frac(x):
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


# Hand-worked tiny boards (derivations in tests/independent/README.md): (board, quantity, value).
HAND = [
    ("size = 3\n[rules]\ndie = [1, 2]\novershoot = \"bounce\"\n", "turns", Fraction(11, 3)),
    ("size = 5\nsnakes = [[4, 1]]\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n", "turns", Fraction(81, 32)),
    ("size = 5\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n", "turns", Fraction(29, 16)),
    ("size = 4\n[[chance]]\nat = 1\nto = [[3, 1], [0, 1]]\n[rules]\ndie = 2\n", "turns", Fraction(10, 3)),
    ("size = 4\n[tiles]\nlength = 2\nsnake = \"1/2\"\nladder = \"1/4\"\n[rules]\ndie = 2\novershoot = \"allow\"\n",
     "turns", Fraction(297, 112)),
    ("size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\nstart = 1\n", "turns", Fraction(3)),
    ("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n", "turns", Fraction(2)),
    ("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n", "variance", Fraction(1)),
    ("size = 3\nsnakes = [[2, 0]]\nonce = [2]\n[rules]\ndie = 2\n", "turns", Fraction(15, 4)),
    ("size = 3\nsnakes = [[2, 0]]\nonce = [2]\n[rules]\ndie = 2\n", "snakes", Fraction(3, 4)),
    ("size = 2\nextra_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n", "turns", Fraction(1)),
    ("size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n", "score", Fraction(5, 2)),
    # Issue 39's turn rules (README "Hand-worked tiny boards").
    ("size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n", "turns", Fraction(3)),
    ("size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n", "variance", Fraction(2)),
    ("size = 4\nsnakes = [[3, 0]]\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n", "turns", Fraction(6)),
    ("size = 4\nsnakes = [[3, 0]]\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n", "snakes", Fraction(1)),
    ("size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [1]\nroll_again = \"unlimited\"\n", "turns",
     Fraction(5, 2)),
    ("size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [1]\nroll_again = \"unlimited\"\n", "rolls",
     Fraction(7, 2)),
    ("size = 5\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n"
     "roll_again_on = \"double\"\n", "turns", Fraction(3, 2)),
    ("size = 5\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n"
     "roll_again_on = \"double\"\n", "variance", Fraction(1, 4)),
    ("size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\novershoot = \"allow\"\njump_takes_turn = true\n", "turns",
     Fraction(11, 4)),
    ("size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\novershoot = \"allow\"\njump_takes_turn = true\n",
     "variance", Fraction(3, 16)),
    ("size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\novershoot = \"allow\"\njump_takes_turn = true\n", "rolls",
     Fraction(9, 4)),
    ("size = 6\nladders = [[1, 3], [3, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\njump_takes_turn = true\n",
     "turns", Fraction(31, 8)),
    ("size = 6\nladders = [[1, 3], [3, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\njump_takes_turn = true\n",
     "variance", Fraction(7, 64)),
    ("size = 6\nladders = [[1, 3], [3, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\nchain = false\n"
     "jump_takes_turn = true\n", "turns", Fraction(4)),
    ("size = 5\nladders = [[2, 4]]\n[rules]\ndie = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n"
     "jump_takes_turn = true\n", "turns", Fraction(25, 8)),
    ("size = 5\nladders = [[2, 4]]\n[rules]\ndie = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n"
     "jump_takes_turn = true\n", "rolls", Fraction(21, 8)),
    ("size = 5\nladders = [[1, 3]]\nlose_turn = [2]\n[rules]\ndie = 2\novershoot = \"allow\"\n"
     "jump_takes_turn = true\n", "turns", Fraction(31, 8)),
]


def selftest():
    bad = 0
    for text, name, want in HAND:
        got = analyse(load_text(text))[name]
        if got != want:
            bad += 1
            print(f"FAIL {name} {got} != {want} on:\n{text}")
    print(f"{len(HAND) - bad}/{len(HAND)} hand-worked values agree")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board", nargs="?")
    ap.add_argument("--turns", type=int, default=0)
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--shortest", type=int, default=0, help="print the first n <= N with P(T = n) > 0")
    ap.add_argument("--reach", action="store_true", help="print \"reach j p/q\" for every square j")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    with open(a.board, encoding="utf-8") as f:
        b = load_text(f.read())
    if a.reach:
        for j, p in reach(b):
            print(f"reach {j} {frac(p)}")
        return 0
    if a.shortest:
        order, trans, _ = build(b)
        law = turn_law(order, trans, a.shortest)
        n = next(i for i, p in enumerate(law, 1) if p > 0)
        print(f"shortest {n} {frac(law[n - 1])}")
        return 0
    res = analyse(b, a.turns)
    for name in ["turns", "variance", "rolls", "snakes", "ladders", "climbed", "slid", "score"]:
        if name in res:
            print(f"{name} {frac(res[name])}")
    for v, p in res.get("score_law", []):
        print(f"score_law {v} {frac(p)}")
    for n, p in enumerate(res.get("p_turns", []), 1):
        print(f"p_turns {n} {frac(p)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
