"""Simulation and verification: the library's simulator through numpy and back, and `verify`
judging simulations written here in Python, one right and one with a rule bug."""

import random

import pytest

import ladders

SNAKES = {16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}
LADDERS = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100}
JUMPS = {**SNAKES, **LADDERS}


def python_game(rng, bounce):
    """One game on the Milton Bradley board as a blog post would write it: start off the board
    (0), one die, a roll past 100 is lost (or, with the bug, bounces back off 100)."""
    square, turns = 0, 0
    while square != 100:
        turns += 1
        target = square + rng.randint(1, 6)
        if target > 100:
            if not bounce:
                continue
            target = 200 - target
        square = JUMPS.get(target, target)
    return turns


def python_sample(games, seed, bounce=False):
    rng = random.Random(seed)
    return [python_game(rng, bounce) for _ in range(games)]


def test_a_correct_python_simulation_passes():
    mb = ladders.Game.builtin("milton-bradley")
    v = mb.verify(python_sample(5000, seed=11))
    assert v.passed and not v.too_few
    assert abs(v.z) < 5
    assert v.games == 5000


def test_a_simulation_with_a_rule_bug_fails_and_the_hint_names_the_rule():
    mb = ladders.Game.builtin("milton-bradley")
    v = mb.verify(python_sample(5000, seed=11, bounce=True))
    assert not v.passed
    assert v.z > 5
    assert any("overshoot = bounce" in h for h in v.hints), v.hints
    assert v.to_dict()["passed"] is False


def test_too_few_games_get_no_verdict():
    v = ladders.Game.builtin("milton-bradley").verify(python_sample(20, seed=1))
    assert v.too_few and not v.passed and v.hints == []


def test_the_same_seed_gives_the_same_games_and_numpy_round_trips(tmp_path):
    np = pytest.importorskip("numpy")
    mb = ladders.Game.builtin("milton-bradley")
    t = mb.simulate(games=20_000, seed=7)
    assert isinstance(t, np.ndarray) and t.dtype == np.int64 and t.shape == (20_000,)
    assert np.array_equal(t, mb.simulate(games=20_000, seed=7))
    assert not np.array_equal(t, mb.simulate(games=20_000, seed=8))
    assert t.min() == 7  # the shortest game takes 7 turns
    path = tmp_path / "turns.npy"
    np.save(path, t)
    back = np.load(path)
    v = mb.verify(back)
    assert v.passed
    # The same sample as any iterable of ints: the same verdict.
    assert mb.verify(int(x) for x in back.astype(np.int32)).z == v.z
    with pytest.raises(ValueError):
        mb.verify(back.astype(float))


def test_the_library_simulation_of_a_changed_rule_fails_against_the_board():
    mb = ladders.Game.builtin("milton-bradley")
    bounce = mb.with_rules(overshoot="bounce")
    v = mb.verify(bounce.simulate(games=20_000, seed=3))
    assert not v.passed
    assert bounce.verify(bounce.simulate(games=20_000, seed=3)).passed
