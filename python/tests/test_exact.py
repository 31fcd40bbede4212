"""Exact answers of the Python package against values derived without it: the committed outputs
of the independent programs in tests/independent/ (pure Python, their own reading of the
rules), Althoen, King and Schilling's fraction, and the tiny board solved by hand."""

from fractions import Fraction
from pathlib import Path

import pytest

import ladders

ROOT = Path(__file__).resolve().parents[2]

# Althoen, King and Schilling (1993), "How long is a game of Snakes and Ladders?", the
# Mathematical Gazette 77: the expected number of turns on the Milton Bradley board.
AKS = Fraction(
    225837582538403273407117496273279920181931269186581786048583,
    5757472998140039232950575874628786131130999406013041613400,
)

# The command line's rule options in the fixtures' `args` lines, as with_rules keywords.
OPTIONS = {
    "--overshoot": ("overshoot", str),
    "--start": ("start", int),
    "--die": ("die", int),
    "--roll-again": ("roll_again", str),
}


def fixture(path):
    """A fixture's board (its `args` line read as the command line would) and its values."""
    values, p_turns = {}, {}
    game = None
    for line in path.read_text().splitlines():
        key, _, rest = line.partition(" ")
        if key == "args":
            words = rest.split()
            game = ladders.Game.load(str(ROOT / words[0]))
            overrides, i = {}, 1
            while i < len(words):
                if words[i] == "--reverse":
                    overrides["reverse"] = True
                    i += 1
                    continue
                name, kind = OPTIONS[words[i]]
                overrides[name] = kind(words[i + 1])
                i += 2
            game = game.with_rules(**overrides)
        elif key == "p_turns":
            n, p = rest.split()
            p_turns[int(n)] = Fraction(p)
        elif key in ("turns", "variance"):
            values[key] = Fraction(rest)
    return game, values, p_turns


SQUARE_FIXTURES = sorted(
    p for p in (ROOT / "tests/fixtures/independent").glob("*.txt")
    if not p.name.startswith("optimal-")
)
RULES_FIXTURES = sorted((ROOT / "tests/fixtures/independent-rules").glob("*.txt"))


def test_milton_bradley_is_althoen_king_and_schilling():
    game = ladders.Game.builtin("milton-bradley")
    assert game.expected_turns() == AKS
    assert str(game.expected_turns()) == f"{AKS.numerator}/{AKS.denominator}"


@pytest.mark.parametrize("path", SQUARE_FIXTURES + RULES_FIXTURES, ids=lambda p: p.stem)
def test_expected_turns_and_variance_are_the_independent_ones(path):
    game, values, _ = fixture(path)
    assert isinstance(game.expected_turns(), Fraction)
    assert game.expected_turns() == values["turns"]
    assert game.variance() == values["variance"]


@pytest.mark.parametrize("path", RULES_FIXTURES, ids=lambda p: p.stem)
def test_the_law_of_turns_is_the_independent_one(path):
    game, _, p_turns = fixture(path)
    n = max(p_turns)
    assert game.pmf(n) == [p_turns[k] for k in range(1, n + 1)]
    running = Fraction(0)
    for k, c in enumerate(game.cdf(n), start=1):
        running += p_turns[k]
        assert c == running
    # The shortest game's probability is P(T = its turns).
    s = game.shortest()
    if s.turns <= n:
        assert s.probability == p_turns[s.turns]
        assert all(p_turns[k] == 0 for k in range(1, s.turns))


def test_tiny_is_solved_by_hand():
    # boards/tiny.toml: two waits for heads, P(T = n) = (n - 1) / 2^n, P(T <= n) = 1 - (n + 1) / 2^n.
    tiny = ladders.Game.builtin("tiny")
    assert tiny.expected_turns() == 4 and tiny.variance() == 4
    assert tiny.pmf(30) == [Fraction(n - 1, 2**n) for n in range(1, 31)]
    assert tiny.cdf(30) == [1 - Fraction(n + 1, 2**n) for n in range(1, 31)]
    s = tiny.shortest()
    assert (s.turns, s.probability, s.rolls) == (2, Fraction(1, 4), [[1], [1]])


def test_milton_bradley_shortest_game():
    # The likeliest-game fixture (tests/independent/likeliest.py): 7 turns at the fewest.
    s = ladders.Game.builtin("milton-bradley").shortest()
    assert s.turns == 7 and len(s.rolls) == 7
    assert s.probability == ladders.Game.builtin("milton-bradley").pmf(7)[6]


def test_race_of_two_tiny_seats():
    # Seat 1 wins at its n-th turn when seat 2 has not finished in n - 1 turns:
    # P = sum_n (n - 1)/2^n * n/2^(n-1) = 2 sum_n n(n - 1)/4^n = 2 * 2(1/16)/(3/4)^3 = 16/27.
    tiny = ladders.Game.builtin("tiny")
    first, second = ladders.race([tiny, tiny], digits=12)
    for seat, exact in [(first, Fraction(16, 27)), (second, Fraction(11, 27))]:
        assert isinstance(seat.lo, Fraction) and isinstance(seat.hi, Fraction)
        assert seat.lo <= exact <= seat.hi
        assert seat.hi - seat.lo <= Fraction(1, 10**12)


def test_with_rules_takes_every_rule_of_the_command_line():
    mb = ladders.Game.builtin("milton-bradley")
    bounce = mb.with_rules(overshoot="bounce", roll_again="unlimited", start=1, die=6, dice=1,
                           chain=False)
    assert bounce.expected_turns() != mb.expected_turns()
    assert mb.with_rules(die=[1, 1, 1, 1, 1, 1]).expected_turns() == AKS
    efi = ladders.Game.builtin("efi")
    assert efi.with_rules(reverse=True).expected_turns() == efi.reversed().expected_turns()
    # A choice rule needs a policy: the questions refuse it.
    with pytest.raises(ValueError, match="policy"):
        mb.with_rules(coin=True).expected_turns()
    for rule in [dict(choose_die=[4, 6]), dict(pick=2), dict(choose_face=True)]:
        with pytest.raises(ValueError, match="policy"):
            mb.with_rules(**rule).variance()
    with pytest.raises(TypeError, match="roll_again"):
        mb.with_rules(rollagain="none")
    with pytest.raises(ValueError, match="overshoot"):
        mb.with_rules(overshoot="sideways")


def test_to_dict_is_the_command_lines_json():
    d = ladders.Game.builtin("milton-bradley").to_dict()
    assert Fraction(int(d["expected_turns"]["numerator"]),
                    int(d["expected_turns"]["denominator"])) == AKS
    assert d["expected_turns"]["decimal"] == "39.225122308235"
    assert d["finite"] is True
