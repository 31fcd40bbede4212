"""Errors: a bad board is a BoardError (a ValueError) with its line and the command line's
message; work over the limits is refused with TooLarge and its estimate."""

import time

import pytest

import ladders


def test_a_board_error_has_its_line_and_every_problem():
    text = 'size = 10\nsnakes = [[5, 5]]\nladders = [[2, 40]]\n[rules]\ndie = 6\n'
    with pytest.raises(ladders.BoardError) as caught:
        ladders.Game.from_toml(text, "bad.toml")
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.line == 2
    assert [line for line, _ in e.problems] == [2, 3]
    # The message the command line prints: origin:line: problem, one a line.
    assert str(e).startswith("bad.toml:2: snake 5 -> 5 goes nowhere")
    assert "bad.toml:3:" in str(e)


def test_a_syntax_error_has_its_line():
    with pytest.raises(ladders.BoardError) as caught:
        ladders.Game.from_toml("size = 10\n[rules]\ndie = 7x\n")
    assert caught.value.line == 3


def test_unknown_names_and_missing_files(tmp_path):
    with pytest.raises(ladders.BoardError, match="did you mean milton-bradley") as caught:
        ladders.Game.builtin("milton")
    assert caught.value.line is None
    with pytest.raises(ladders.BoardError, match="cannot"):
        ladders.Game.load(tmp_path / "missing.toml")
    path = tmp_path / "coin.toml"
    path.write_text("size = 2\n[rules]\ndie = 2\novershoot = 'allow'\n")
    assert ladders.Game.load(path).expected_turns() == ladders.Game.load(str(path)).expected_turns()


def test_work_over_the_limits_is_refused_at_once_with_its_estimate():
    big = ladders.Game.from_toml("size = 10000\n[rules]\ndie = 6\n")
    start = time.monotonic()
    with pytest.raises(ladders.TooLarge) as caught:
        big.pmf(100_000)
    assert time.monotonic() - start < 1
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.estimate > e.limit > 0
    assert e.unit == "word operations" and e.what == "exact distribution"


def test_bad_arguments():
    tiny = ladders.Game.builtin("tiny")
    with pytest.raises(ValueError):
        tiny.simulate(games=0, seed=1)
    with pytest.raises(ValueError):
        tiny.verify([3, -1])
    with pytest.raises(ValueError):
        ladders.race([tiny], digits=0)
    with pytest.raises(ValueError):
        ladders.race([], digits=5)
