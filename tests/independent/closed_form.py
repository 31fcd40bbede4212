"""Independent derivation of the closed form of the law of T on boards with every rule.

A second route to what `ladders pgf` and `ladders expect --moments` print, written from the
mathematics, not from the Rust code (which finds the recurrence by Berlekamp-Massey modulo
primes over the exact terms, and the moments by solves with the factorial-moment recursion).

The turn-to-turn kernel K (transient "turn" states to transient "turn" states) and the vector r
(the probability of finishing in the coming turn) come from rules_chain.py's roll-level chain,
by absorbing the in-turn states (its turn_kernel). Then

    F(z) = sum_n P(T = n) z^n = z e (I - z K)^(-1) r = N_full(z) / det(I - z K),

both polynomials of degree at most m (m the number of turn states; Cramer's rule). Here both are
found by evaluation and interpolation: at the m + 1 points z_k = k / (m + 1) (inside the unit
disk, where I - z K is invertible since K's spectral radius is below 1 when the game ends) the
determinant and F(z_k) come from exact Gaussian elimination (fractions.Fraction), and Lagrange
interpolation rebuilds det(I - z K) and N_full = F det. The fraction is then reduced by Euclid's
gcd over the rationals and scaled to integer coefficients with no common factor and D(0) > 0:
that normal form is unique, so it must equal the program's N and D coefficient by coefficient.

The raw moments E[T^k] come from a third route, the kernel directly: with M_k(s) = E[T^k] from
turn state s, T = 1 + T' after one turn, so M_k = sum_j binom(k, j) K M_j (the j = k term moved
to the left): (I - K) M_k = 1 + sum_(j<k) binom(k, j) K M_j, solved exactly.

Usage: python3 closed_form.py BOARD.toml [--moments K]   prints "pgf_numerator c0 c1 ..." and
"pgf_denominator c0 c1 ..." (integers, from z^0 up) and "raw_moment k n/d" lines.
"""
import argparse
import os
import sys
from fractions import Fraction
from math import comb, gcd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_chain  # noqa: E402  (the roll-level chain, read from the rules text)


def kernel(b):
    """(heads, K as a list of {col: p} rows over the turn states, r): the turn-to-turn law."""
    order, trans, _ = rules_chain.build(b)
    heads, targets, rows = rules_chain.turn_kernel(order, trans)
    end = targets.index("end")
    K = [{j: q for j, q in enumerate(row) if j != end and q != 0} for row in rows]
    r = [row[end] for row in rows]
    return heads, K, r


def eliminate(A, b):
    """(det A, the solution x of A x = b), exactly; A dense (list of lists), consumed."""
    m = len(A)
    det = Fraction(1)
    for v in range(m):
        piv = next((u for u in range(v, m) if A[u][v] != 0), None)
        if piv is None:
            return Fraction(0), None
        if piv != v:
            A[v], A[piv] = A[piv], A[v]
            b[v], b[piv] = b[piv], b[v]
            det = -det
        det *= A[v][v]
        inv = Fraction(1) / A[v][v]
        for u in range(v + 1, m):
            a = A[u][v]
            if a == 0:
                continue
            f = a * inv
            A[u] = [x - f * y for x, y in zip(A[u], A[v])]
            b[u] -= f * b[v]
    x = [Fraction(0)] * m
    for v in reversed(range(m)):
        x[v] = (b[v] - sum(A[v][c] * x[c] for c in range(v + 1, m))) / A[v][v]
    return det, x


def interpolate(points, values):
    """The coefficients (from z^0 up) of the polynomial through (points, values), Lagrange."""
    n = len(points)
    out = [Fraction(0)] * n
    for i, (zi, yi) in enumerate(zip(points, values)):
        basis, denom = [Fraction(1)], Fraction(1)
        for j, zj in enumerate(points):
            if j == i:
                continue
            basis = [Fraction(0)] + basis  # times z
            for k in range(len(basis) - 1):
                basis[k] -= zj * basis[k + 1]
            denom *= zi - zj
        for k, c in enumerate(basis):
            out[k] += yi * c / denom
    return out


def trim(p):
    while p and p[-1] == 0:
        p.pop()
    return p


def poly_mod(a, b):
    a = list(a)
    while len(a) >= len(b):
        f = a[-1] / b[-1]
        shift = len(a) - len(b)
        for i, c in enumerate(b):
            a[shift + i] -= f * c
        trim(a)
        if not a:
            break
    return a


def poly_div(a, b):
    """a / b for b dividing a exactly."""
    a, q = list(a), [Fraction(0)] * (len(a) - len(b) + 1)
    for shift in reversed(range(len(q))):
        f = a[shift + len(b) - 1] / b[-1]
        q[shift] = f
        for i, c in enumerate(b):
            a[shift + i] -= f * c
    assert not trim(a), "inexact division"
    return q


def poly_gcd(a, b):
    a, b = trim(list(a)), trim(list(b))
    while b:
        a, b = b, poly_mod(a, b)
    return [c / a[-1] for c in a]


def closed_form(b):
    """(N, D) integer coefficient lists of F = N / D in lowest terms, D(0) > 0, content 1."""
    heads, K, r = kernel(b)
    m = len(heads)
    points = [Fraction(k, m + 1) for k in range(m + 1)]
    dets, nums = [], []
    for z in points:
        A = [[(1 if i == j else 0) - z * row.get(j, 0) for j in range(m)] for i, row in enumerate(K)]
        det, x = eliminate(A, [z * v for v in r])
        assert det != 0, "I - zK is invertible inside the unit disk"
        dets.append(det)
        nums.append(x[0] * det)  # start is heads[0]
    D = trim(interpolate(points, dets))
    N = trim(interpolate(points, nums))
    g = poly_gcd(N, D)
    N, D = poly_div(N, g), poly_div(D, g)
    scale = 1
    for c in N + D:
        scale = scale * c.denominator // gcd(scale, c.denominator)
    Ni, Di = [int(c * scale) for c in N], [int(c * scale) for c in D]
    content = 0
    for c in Ni + Di:
        content = gcd(content, c)
    if Di[0] < 0:
        content = -content
    return [c // content for c in Ni], [c // content for c in Di]


def raw_moments(b, k):
    """E[T^j] for j = 1..k from the start, by (I - K) M_j = 1 + sum_(i<j) binom(j, i) K M_i."""
    heads, K, _ = kernel(b)
    m = len(heads)
    moments = [[Fraction(1)] * m]  # M_0 = 1
    for j in range(1, k + 1):
        rhs = [Fraction(1)] * m
        for i in range(1, j):
            km = [sum(p * moments[i][c] for c, p in row.items()) for row in K]
            rhs = [x + comb(j, i) * y for x, y in zip(rhs, km)]
        A = [[Fraction(1 if i == c else 0) - row.get(c, 0) for c in range(m)] for i, row in enumerate(K)]
        moments.append(eliminate(A, rhs)[1])
    return [M[0] for M in moments[1:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("--moments", type=int, default=4)
    a = ap.parse_args()
    with open(a.board, encoding="utf-8") as f:
        b = rules_chain.load_text(f.read())
    N, D = closed_form(b)
    print("pgf_numerator " + " ".join(map(str, N)))
    print("pgf_denominator " + " ".join(map(str, D)))
    for j, v in enumerate(raw_moments(b, a.moments), 1):
        print(f"raw_moment {j} {v.numerator}/{v.denominator}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
