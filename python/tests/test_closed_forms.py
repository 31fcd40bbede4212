"""Moments, the generating function and the per-square answers of the Python package against
values derived without it: the committed outputs of tests/independent/closed_form.py (the
generating function N / D by Cramer's rule, E[T^k] for k = 1..4), the expected turns of
tests/independent/roll_chain.py, and the tiny board solved by hand."""

from fractions import Fraction
from pathlib import Path

import pytest

import ladders

ROOT = Path(__file__).resolve().parents[2]
CLOSED_FORMS = sorted((ROOT / "tests/fixtures/independent-closed-forms").glob("*.txt"))
SQUARE_FIXTURES = sorted(
    p for p in (ROOT / "tests/fixtures/independent").glob("*.txt")
    if not p.name.startswith("optimal-") and "--" not in p.read_text().splitlines()[0]
)


def closed_form(path):
    """A closed-form fixture: its board, N and D (integer coefficients from z^0 up), E[T^k]."""
    numerator, denominator, raw = None, None, {}
    game = None
    for line in path.read_text().splitlines():
        key, _, rest = line.partition(" ")
        if key == "args":
            assert len(rest.split()) == 1, "a board alone, no rule options"
            game = ladders.Game.load(str(ROOT / rest))
        elif key == "pgf_numerator":
            numerator = [int(c) for c in rest.split()]
        elif key == "pgf_denominator":
            denominator = [int(c) for c in rest.split()]
        elif key == "raw_moment":
            k, value = rest.split()
            raw[int(k)] = Fraction(value)
    return game, numerator, denominator, raw


def times(p, q):
    """The product of two polynomials given by their coefficients from z^0 up."""
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


@pytest.mark.parametrize("path", CLOSED_FORMS, ids=lambda p: p.stem)
def test_the_generating_function_and_moments_are_the_independent_ones(path):
    game, numerator, denominator, raw = closed_form(path)
    f = game.pgf()
    # The same rational function: N D' = N' D, whatever scale each side chose.
    assert times(f.numerator, denominator) == times(numerator, f.denominator)
    assert all(isinstance(c, int) for c in f.numerator + f.denominator)
    # F(1) = 1: the game ends.
    assert f(1) == 1
    m = game.moments(4)
    assert m.raw[0] == 1
    assert [m.raw[k] for k in range(1, 5)] == [raw[k] for k in range(1, 5)]
    # The factorial and central moments from the raw ones, by their definitions.
    assert m.factorial[2] == raw[2] - raw[1]
    assert m.central[2] == raw[2] - raw[1] ** 2
    assert m.central[2] == game.variance()


@pytest.mark.parametrize("path", SQUARE_FIXTURES, ids=lambda p: p.stem)
def test_the_visits_add_up_to_the_independent_expected_turns(path):
    lines = path.read_text().splitlines()
    game = ladders.Game.load(str(ROOT / lines[0].split()[1]))
    turns = next(Fraction(l.split()[1]) for l in lines if l.startswith("turns "))
    answers = game.squares()
    finish = answers.squares[-1]
    assert finish.square == game.size
    # Every turn begins on a square that is not the finish, and the start's expected turns
    # left are the game's.
    assert sum(a.visits for a in answers.squares[:-1]) == turns
    start = answers.squares[0]
    assert start.remaining == turns
    assert all(isinstance(a.visits, Fraction) for a in answers.squares)


def test_tiny_is_solved_by_hand():
    # boards/tiny.toml: from 0 heads climbs 1 -> 3 and tails slides 2 -> 0; from 3 heads finishes
    # and tails is lost. Turns begun on 0 and on 3 are each geometric(1/2): 2 expected each; 4
    # turns are left from 0, 2 from 3. F(z) = (z/2 / (1 - z/2))^2 = z^2 / (2 - z)^2.
    tiny = ladders.Game.builtin("tiny")
    answers = tiny.squares()
    rows = {a.square: (a.visits, a.remaining) for a in answers.squares}
    assert rows == {0: (2, 4), 3: (2, 2), 4: (0, 0)}
    # The snake is taken once in expectation (the tails before the first heads: 2 - 1), at least
    # once with chance 1/2 (the first throw); the ladder exactly once.
    jumps = {j.jump: (j.uses, j.taken) for j in answers.jumps}
    assert jumps == {(2, 0): (1, Fraction(1, 2)), (1, 3): (1, 1)}
    f = tiny.pgf()
    for z in [Fraction(1, 2), Fraction(1), Fraction(3, 2), 0]:
        assert f(z) == z**2 / (2 - z) ** 2
    with pytest.raises(ZeroDivisionError):
        f(2)
    # E[T] = 4, E[T^2] = Var + E[T]^2 = 4 + 16 = 20; E[T(T-1)] = F''(1) = 20 - 4 = 16.
    m = tiny.moments(2)
    assert (m.raw, m.factorial) == ([1, 4, 20], [1, 4, 16])
    assert m.central == [1, 0, 4]
    # The tail: P(T > n) = (n + 2) / 2^(n + 1) shrinks like (1/2)^n.
    low, high = f.decay
    assert low <= Fraction(1, 2) <= high


def test_an_endless_game_has_no_moments_or_visits():
    # Square 1's snake sends every roll from the start back to 0: the finish is never reached.
    endless = ladders.Game.from_toml("size = 3\nsnakes = [[1, 0], [2, 0]]\n[rules]\ndie = 2\n")
    with pytest.raises(ValueError, match="infinite"):
        endless.moments(2)
    with pytest.raises(ValueError, match="infinite"):
        endless.squares()
