"""Races of seats that meet and a player who chooses, against values derived without the package:
the committed outputs of tests/independent/decline.py and shared_race.py (pure Python, their own
reading of the rules) and small boards worked by hand."""

from fractions import Fraction
from pathlib import Path

import pytest

import ladders

ROOT = Path(__file__).resolve().parents[2]

# Two squares and a coin, any roll past the finish finishing: a 2 finishes at once, a 1 goes to
# square 1, from where any roll finishes.
COIN = 'size = 2\n[rules]\ndie = 2\novershoot = "allow"\n'


def fixture(path):
    """The "key value ..." lines of an independent program's output."""
    lines = {}
    for line in (ROOT / path).read_text().splitlines()[1:]:
        key, *values = line.split()
        lines.setdefault(key, []).append(values)
    return lines


def test_knock_off_on_two_squares_worked_by_hand():
    # W(x, y): the mover's chance to win, on x, the other on y. From (0, 1): a 2 wins, a 1
    # lands on the other and sends it to 0, who then moves from (0, 1):
    # W(0, 1) = 1/2 + 1/2 (1 - W(0, 1)), so W(0, 1) = 2/3. From (0, 0): a 2 wins, a 1 gives
    # the other (0, 1): W(0, 0) = 1/2 + 1/2 (1 - 2/3) = 2/3. Without knock-off seat 1 wins
    # when T1 <= T2: 1/2 + 1/2 * 1/2 = 3/4.
    coin = ladders.Game.from_toml(COIN, "coin")
    first, second = ladders.race([coin, coin], digits=12, knock_off=True)
    assert (first.lo, first.hi) == (Fraction(2, 3), Fraction(2, 3))
    assert (second.lo, second.hi) == (Fraction(1, 3), Fraction(1, 3))
    apart, _ = ladders.race([coin, coin], digits=12)
    assert apart.lo <= Fraction(3, 4) <= apart.hi


def test_two_seats_sharing_a_board_that_changes():
    # tests/independent/shared_race.py: the joint chain of both seats, the table's used-up
    # jumps and eaten apples, solved exactly in Fractions.
    want = fixture("tests/fixtures/sim/shared-two.txt")
    board = ladders.Game.load(ROOT / "tests/fixtures/sim/shared-two.toml")
    seats = ladders.race([board, board], digits=10, shared=True)
    for seat, key in zip(seats, ["win1", "win2"]):
        exact = Fraction(want[key][0][0])
        assert seat.lo <= exact <= seat.hi
        assert seat.hi - seat.lo <= Fraction(1, 10**10)


def test_seats_that_meet_are_refused_clearly():
    coin = ladders.Game.from_toml(COIN, "coin")
    with pytest.raises(ValueError, match="knock_off and shared"):
        ladders.race([coin, coin], knock_off=True, shared=True)
    shared = ladders.Game.load(ROOT / "tests/fixtures/sim/shared-two.toml")
    with pytest.raises(ValueError, match="shared by every seat"):
        ladders.race([shared, shared])
    with pytest.raises(ValueError, match="shared by every seat"):
        ladders.race([shared, coin], shared=True)


def test_the_hand_worked_decline_board_against_its_brute_force():
    # tests/independent/decline.py tries every take/decline policy, square by square.
    want = fixture("tests/fixtures/decline/hand.txt")
    game = ladders.Game.load(ROOT / "tests/fixtures/decline/hand.toml")
    best = game.optimize()
    assert best.value == Fraction(want["optimum"][0][0]) == Fraction(93, 16)
    assert best.proved and best.within is None
    # The runs of the policy cover the declinable squares with the brute force's choices.
    chosen = {
        int(square): choice
        for first, last, choice in best.policy
        for square, _ in want["policy"]
        if first <= int(square) <= last
    }
    assert chosen == {int(square): c for square, c in want["policy"]}
    others = dict(best.others)
    assert others["always take"] == Fraction(want["always_take"][0][0])
    assert others["always decline"] == Fraction(want["always_decline"][0][0])
    pmf = game.optimal_pmf(8)
    assert pmf == [Fraction(want[f"p{n}"][0][0]) for n in range(1, 9)]
    assert best.to_dict()["value"]["numerator"] == "93"


def test_codeforces_1245e_sample_3():
    # The problem's expected output (to its printed digits): 15.9047592939.
    game = ladders.Game.load(ROOT / "tests/fixtures/decline/1245e-sample3.toml")
    value = game.optimize().value
    assert abs(value - Fraction("15.9047592939")) < Fraction(1, 10**10)


def test_the_best_chance_within_one_turn_on_two_squares():
    # A coin on 3 squares with the ladder 1 -> 3, which the player may decline: in one turn a 1
    # lands on the ladder, which finishes when taken; a 2 lands on square 2. The best chance
    # within one turn is 1/2, taking the ladder.
    text = 'size = 3\nladders = [[1, 3]]\n[rules]\ndie = 2\ndecline = "ladders"\n'
    best = ladders.Game.from_toml(text, "t").optimize(within=1)
    assert best.value == Fraction(1, 2) and best.within == 1
    assert (1, 1, "take") in best.policy


def test_a_board_without_a_choice_is_not_optimized():
    with pytest.raises(ValueError, match="no choice rule"):
        ladders.Game.builtin("tiny").optimize()
