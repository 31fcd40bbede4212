"""Exact answers about Snakes and Ladders boards (type stubs of the compiled module)."""

from fractions import Fraction
from os import PathLike
from typing import Any, Iterable, List, Optional, Sequence, Union

__version__: str

class BoardError(ValueError):
    """The board is not valid or cannot be read; the message lists every problem."""

    line: Optional[int]
    """The first problem's line in the board file (None when it has none)."""
    problems: List[tuple[Optional[int], str]]
    """Every problem as (line, message)."""

class TooLarge(ValueError):
    """The question would take more than the library's limits allow (refused before the work)."""

    what: str
    estimate: float
    limit: float
    unit: str
    """"bytes", "seconds" or "word operations"."""

class Shortest:
    """The shortest game of a board."""

    turns: int
    probability: Fraction
    """P(T = turns)."""
    rolls: List[List[int]]
    """One game that short: the faces rolled, turn by turn."""
    fewest_rolls: int

class Interval:
    """A closed interval [lo, hi] of Fractions known to hold the true value."""

    lo: Fraction
    hi: Fraction

class Verdict:
    """A sample judged against the exact law (`Game.verify`)."""

    passed: bool
    too_few: bool
    z: float
    p_value: float
    chi_square_p_value: Optional[float]
    mean: float
    expected_mean: float
    games: int
    hints: List[str]
    def to_dict(self) -> dict[str, Any]: ...
    def __bool__(self) -> bool: ...

class Optimum:
    """The best a player who chooses can do (`Game.optimize`)."""

    value: Fraction
    """The least expected turns (with `within`: the best chance of finishing within it)."""
    within: Optional[int]
    policy: List[tuple[int, int, str]]
    """The optimal policy as (first square, last square, choice) runs."""
    proved: bool
    """True when the Bellman equation was checked with == at every state."""
    others: List[tuple[str, Optional[Fraction]]]
    """Each policy that always makes the same choice and its expected turns (None: never ends)."""
    def to_dict(self) -> dict[str, Any]: ...

class Game:
    """A board and its rules, validated."""

    @staticmethod
    def builtin(name: str) -> Game: ...
    @staticmethod
    def from_toml(text: str, origin: str = "<text>") -> Game: ...
    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> Game: ...
    def with_rules(
        self,
        *,
        reverse: bool = ...,
        start: int = ...,
        overshoot: str = ...,
        die: Union[int, str, Sequence[int]] = ...,
        dice: int = ...,
        roll_again: Union[str, int] = ...,
        chain: bool = ...,
        choose_die: Sequence[int] = ...,
        coin: bool = ...,
        pick: int = ...,
        choose_face: bool = ...,
    ) -> Game: ...
    def reversed(self) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def size(self) -> int: ...
    def expected_turns(self) -> Union[Fraction, float]:
        """E[T] exactly; math.inf when the game can go on for ever."""
    def variance(self) -> Union[Fraction, float]:
        """Var[T] exactly; math.inf when the game can go on for ever."""
    def pmf(self, n: int) -> List[Fraction]:
        """[P(T = 1), ..., P(T = n)]."""
    def cdf(self, n: int) -> List[Fraction]:
        """[P(T <= 1), ..., P(T <= n)]."""
    def shortest(self) -> Optional[Shortest]: ...
    def simulate(self, games: int, seed: int = 0) -> Any:
        """The games' turn counts in increasing order: a numpy int64 array (a list without numpy)."""
    def verify(self, turns: Iterable[int]) -> Verdict: ...
    def optimize(self, within: Optional[int] = None) -> Optimum:
        """With a choice rule: the least expected turns and an optimal policy (or, with
        `within`, the best chance of finishing within that many turns)."""
    def optimal_pmf(self, n: int) -> List[Fraction]:
        """With a choice rule: [P(T = 1), ..., P(T = n)] under the optimal policy."""
    def to_dict(self) -> dict[str, Any]:
        """What `ladders expect BOARD --json` prints."""

def race(
    games: Sequence[Game], digits: int = 12, knock_off: bool = False, shared: bool = False
) -> List[Interval]:
    """Each seat's chance of finishing first, certified: hi - lo <= 10**-digits. The seats
    never meet, unless `knock_off` (landing on a seat sends it back to the start) or `shared`
    (one board that changes during a game, the same Game in every seat)."""

def builtin_names() -> List[str]: ...
