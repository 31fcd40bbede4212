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

class Moments:
    """The moments of the number of turns T; index j of each list is order j (from 0)."""

    raw: List[Fraction]
    """E[T^j]."""
    factorial: List[Fraction]
    """E[T (T-1) ... (T-j+1)]."""
    central: List[Fraction]
    """E[(T - E[T])^j]."""

class Pgf:
    """F(z) = sum P(T = n) z^n = N(z) / D(z), exact."""

    numerator: List[int]
    """N's coefficients, from z^0 up."""
    denominator: List[int]
    """D's coefficients, from z^0 up (D(0) > 0)."""
    recurrence: List[int]
    """sum_i recurrence[i] P(T = n - i) = 0 for n >= recurrence_from."""
    recurrence_from: int
    initial: List[Fraction]
    """P(T = n) for n < recurrence_from."""
    decay: Optional[tuple[Fraction, Fraction]]
    """The tail's decay rate rho enclosed as (low, high), when proved."""
    decay_constant: Optional[tuple[Fraction, Fraction]]
    """C of P(T > n) ~ C rho^n enclosed as (low, high), when proved."""
    def __call__(self, z: Union[Fraction, int]) -> Fraction:
        """F(z) exactly; ZeroDivisionError at a pole."""

class SquareAnswer:
    """One square's answers."""

    square: int
    visits: Fraction
    """Expected turns begun on it (the start counted once)."""
    reach: Optional[Fraction]
    """The chance a move ever ends on it (None where not computed)."""
    remaining: Fraction
    """Expected turns left from it."""

class JumpAnswer:
    """One snake's or ladder's answers."""

    jump: tuple[int, int]
    """(from, to)."""
    uses: Fraction
    """Expected times it is taken in a game."""
    taken: Fraction
    """The chance it is taken at least once."""

class Squares:
    """The answers square by square (`Game.squares`)."""

    squares: List[SquareAnswer]
    """Per square a turn can begin on, then the finish, in square order."""
    jumps: Optional[List[JumpAnswer]]
    """Per snake, then per ladder; None where not computed."""

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
    def moments(self, k: int = 4) -> Moments:
        """E[T^j], factorial and central moments for j = 0..k; ValueError when infinite."""
    def pgf(self) -> Pgf:
        """The generating function of T, its recurrence and its tail's decay rate."""
    def squares(self) -> Squares:
        """Visits, reach and turns left per square; uses and chances per jump."""
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
