"""Independent exact derivation of the choice rule `decline` (issue 39), used as expected values
in tests/it/decline.rs (compared with ==).

Written separately from the Rust code, from the rules text of docs/model.md ("One roll",
"Choices") and DESIGN.md section 1 ("Four more rules"): a move that lands on the square of a
jump of the declinable kind (`ladders`, `snakes` or `jumps`) offers it; declined, the token stays
there and the move ends; taken, the jump is followed and, with `chain = true`, a declinable jump
at its end is offered in turn. A token standing on a jump's square triggers nothing; chance
squares cannot be declined. One die, `roll_again = "none"`.

Two methods, neither of them policy iteration:

* `solve` (any small board): brute force over every by-square policy (take or decline on each
  declinable square). Each policy's expected turns from every square solve (I - Q) E = 1 exactly
  (Fractions, Gaussian elimination; a square that cannot finish under the policy is infinite).
  The optimum V*(s) is the least value over the policies, square by square (a stochastic
  shortest path problem has one policy optimal everywhere, which the program checks). The
  optimal policy is read from V*: take the jump on x exactly when what taking leads to is worth
  no more than V*(x) (on a tie, take). Under it: E[T], Var T, P(T = n) for n = 1..8, the
  shortest game and its probability; and each by-square policy's expected turns ("each" lines,
  None when it may never finish).
* `codeforces` (Codeforces 1245E's boards: ladders only, start 1, stay, chain = false): the
  backward recursion of the problem's editorial, E(i) = (6 + sum of F(i + r) over the r that do
  not pass the goal) / (their number), F(j) = min(E(j), E(top of j)).

Usage: python3 decline.py BOARD.toml            (prints "name value" lines)
       python3 decline.py --codeforces BOARD.toml
       python3 decline.py --selftest           (the hand-worked board of docs/model.md)
"""
import itertools
import sys
import tomllib
from fractions import Fraction as F


def load(path):
    with open(path, "rb") as f:
        d = tomllib.load(f)
    r = d.get("rules", {})
    assert r.get("dice", 1) == 1 and r.get("roll_again", "none") == "none"
    die = r.get("die", 6)
    weights = [1] * die if isinstance(die, int) else list(die)
    jumps = {a: b for a, b in d.get("snakes", []) + d.get("ladders", [])}
    kind = r["decline"]
    declinable = sorted(
        a for a, b in jumps.items()
        if kind == "jumps" or (kind == "ladders") == (b > a)
    )
    chance = {c["at"]: c["to"] for c in d.get("chance", [])}
    return {
        "n": d["size"], "start": r.get("start", 0), "overshoot": r.get("overshoot", "stay"),
        "weights": weights, "chain": r.get("chain", True), "jumps": jumps,
        "declinable": declinable, "chance": chance,
    }


def settle(b, t, take, may_draw=True):
    """Where a move that reaches t ends, as {square: probability}."""
    n = b["n"]
    if t == n:
        return {n: F(1)}
    if may_draw and t in b["chance"]:
        draws = b["chance"][t]
        total = sum(w for _, w in draws)
        out = {}
        for to, w in draws:
            ends = settle(b, to, take, False) if b["chain"] else {to: F(1)}
            for e, p in ends.items():
                out[e] = out.get(e, 0) + F(w, total) * p
        return out
    if t in b["jumps"]:
        if t in b["declinable"] and not take[t]:
            return {t: F(1)}
        to = b["jumps"][t]
        return settle(b, to, take, False) if b["chain"] else {to: F(1)}
    return {t: F(1)}


def turn(b, s, take):
    """The law of the square a turn from s ends on."""
    n, w = b["n"], b["weights"]
    out = {}
    for r, wr in enumerate(w, start=1):
        if wr == 0:
            continue
        t = s + r
        if t > n:
            if b["overshoot"] == "stay":
                ends = {s: F(1)}
            else:
                ends = settle(b, n if b["overshoot"] == "allow" else 2 * n - t, take)
        else:
            ends = settle(b, t, take)
        for e, p in ends.items():
            out[e] = out.get(e, 0) + F(wr, sum(w)) * p
    return out


def values(b, take):
    """Expected turns from every square 0..N-1 under the policy (None: infinite)."""
    n = b["n"]
    rows = {s: turn(b, s, take) for s in range(n)}
    # Squares that can finish.
    finish = {n}
    grew = True
    while grew:
        grew = False
        for s, row in rows.items():
            if s not in finish and any(t in finish for t in row):
                finish.add(s)
                grew = True
    live = [s for s in range(n) if s in finish]
    # A square that can finish but may reach one that cannot is infinite too.
    ok = set()
    for s in live:
        seen, stack, bad = {s}, [s], False
        while stack:
            u = stack.pop()
            for t in rows[u]:
                if t == n or t in seen:
                    continue
                if t not in finish:
                    bad = True
                seen.add(t)
                stack.append(t)
        if not bad:
            ok.add(s)
    x = solve_transient(rows, n, sorted(ok), lambda s: F(1))
    return {s: x.get(s) for s in range(n)}, rows


def solve_transient(rows, n, ids, rhs):
    """x on the squares `ids` with (I - Q) x = rhs, Q the rows among them (n the finish)."""
    index = {s: i for i, s in enumerate(ids)}
    m = len(ids)
    a = [[F(0)] * (m + 1) for _ in range(m)]
    for s in ids:
        i = index[s]
        a[i][i] += 1
        a[i][m] = rhs(s)
        for t, p in rows[s].items():
            if t != n:
                a[i][index[t]] -= p
    x = gauss(a)
    return {s: x[index[s]] for s in ids}


def gauss(a):
    m = len(a)
    for c in range(m):
        p = next(r for r in range(c, m) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        piv = a[c][c]
        a[c] = [v / piv for v in a[c]]
        for r in range(m):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [a[r][m] for r in range(m)]


def after_taking(b, x, best):
    """What the move is worth once the jump on x is taken, the later offers answered by `best`."""
    to = b["jumps"][x]
    if not b["chain"]:
        return F(0) if to == b["n"] else best["V"][to]
    return arrived(b, to, best)


def arrived(b, t, best):
    """With chain = true, what a move is worth when a jump put the token on t."""
    if t == b["n"]:
        return F(0)
    if t in b["declinable"]:
        return min(best["V"][t], arrived(b, b["jumps"][t], best))
    if t in b["jumps"]:
        # A jump that cannot be declined is followed (the rule refuses chance squares here).
        return arrived(b, b["jumps"][t], best)
    return best["V"][t]


def solve(b):
    n, dec = b["n"], b["declinable"]
    everything = []
    for bits in itertools.product([True, False], repeat=len(dec)):
        take = dict(zip(dec, bits))
        v, _ = values(b, take)
        everything.append((take, v))
    best_v = {}
    for s in range(n):
        finite = [v[s] for _, v in everything if v[s] is not None]
        best_v[s] = min(finite) if finite else None
    # One policy is optimal at every square.
    assert any(all(v[s] == best_v[s] for s in range(n)) for _, v in everything)
    best = {"V": best_v}
    policy = {x: after_taking(b, x, best) <= best_v[x] for x in dec}
    v, rows = values(b, policy)
    assert all(v[s] == best_v[s] for s in range(n)), "the tie rule's policy is optimal"
    return best_v, policy, v, rows, everything


def law(b, rows, turns):
    """P(T = n) for n = 1..turns from the start, through the turn kernel."""
    n = b["n"]
    p = {b["start"]: F(1)}
    out = []
    for _ in range(turns):
        q, done = {}, F(0)
        for s, ps in p.items():
            for t, pt in rows[s].items():
                if t == n:
                    done += ps * pt
                else:
                    q[t] = q.get(t, 0) + ps * pt
        out.append(done)
        p = q
    return out


def second_moment(b, rows, e):
    """E[T^2] from the start: (I - Q) u = E, E[T^2] = 2u - E."""
    n = b["n"]
    ids = sorted(s for s in range(n) if e[s] is not None)
    u = solve_transient(rows, n, ids, lambda s: e[s])
    s0 = b["start"]
    return 2 * u[s0] - e[s0]


def report(b):
    best_v, policy, v, rows, everything = solve(b)
    s0 = b["start"]
    et = v[s0]
    et2 = second_moment(b, rows, v)
    pmf = law(b, rows, 40)
    shortest = next(i for i, p in enumerate(pmf, start=1) if p > 0)
    print(f"optimum {et}")
    for x in b["declinable"]:
        print(f"policy {x} {'take' if policy[x] else 'decline'}")
    print(f"variance {et2 - et * et}")
    for i, p in enumerate(pmf[:8], start=1):
        print(f"p{i} {p}")
    print(f"shortest {shortest} {pmf[shortest - 1]}")
    take_all = next(v for t, v in everything if all(t.values()))
    decline_all = next(v for t, v in everything if not any(t.values()))
    print(f"always_take {take_all[s0]}")
    print(f"always_decline {decline_all[s0]}")
    for take, v in everything:
        words = " ".join(f"{x}:{'take' if take[x] else 'decline'}" for x in b["declinable"])
        print(f"each {v[s0]} {words}")
    for s in range(b["n"]):
        print(f"value {s} {best_v[s]}")


def codeforces(b):
    """The editorial's backward recursion on a 1245E board (squares 1..100, start 1)."""
    n = b["n"]
    assert (b["start"], b["overshoot"], b["chain"], n) == (1, "stay", False, 100)
    assert all(t > f for f, t in b["jumps"].items())
    e, f = {n: F(0)}, {n: F(0)}
    for i in range(n - 1, 0, -1):
        k = min(6, n - i)
        e[i] = (6 + sum(f[i + r] for r in range(1, k + 1))) / k
        top = b["jumps"].get(i)
        f[i] = e[i] if top is None else min(e[i], e[top])
    print(f"optimum {e[1]}")
    for x in sorted(b["jumps"]):
        print(f"policy {x} {'take' if e[b['jumps'][x]] <= e[x] else 'decline'}")
    # Climbing every ladder: the same recursion with F(j) = E(top of j).
    g = {n: F(0)}
    h = {n: F(0)}
    for i in range(n - 1, 0, -1):
        k = min(6, n - i)
        g[i] = (6 + sum(h[i + r] for r in range(1, k + 1))) / k
        top = b["jumps"].get(i)
        h[i] = g[i] if top is None else g[top]
    print(f"always_take {g[1]}")


HAND = "tests/fixtures/decline/hand.toml"


def selftest():
    """The hand-worked board (the working is in tests/it/decline.rs and the board's file)."""
    b = load(HAND)
    best_v, policy, v, rows, everything = solve(b)
    assert v[0] == F(93, 16), v[0]
    assert policy == {3: True, 5: False, 6: True, 8: True}, policy
    assert next(v for t, v in everything if all(t.values()))[0] == 6
    assert next(v for t, v in everything if not any(t.values()))[0] == F(967, 128)
    pmf = law(b, rows, 4)
    assert pmf == [0, 0, 0, F(1, 4)], pmf
    print("selftest ok")


if __name__ == "__main__":
    if sys.argv[1] == "--selftest":
        selftest()
    elif sys.argv[1] == "--codeforces":
        codeforces(load(sys.argv[2]))
    else:
        report(load(sys.argv[1]))
