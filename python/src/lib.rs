//! The Python module `ladders`: a thin shell over the library's façade ([`ladders::Game`]).
//! Every answer comes from the façade; this file converts arguments and results (exact numbers
//! to `fractions.Fraction`, turn counts to a numpy array) and errors to Python exceptions, and
//! runs the library's work on a second thread with the GIL released, looking for signals (Ctrl-C)
//! meanwhile: a signal stops the work through the façade's progress listener. No analysis is
//! done here.

use ladders::analysis::{DistributionOptions, Expectation};
use ladders::board::{DieChoice, Located, Overshoot, RollAgain, RuleOverrides, BUILTIN_BOARDS};
use ladders::progress::Listener;
use ladders::report::variant_sentences;
use ladders::report::{expect_json as to_json, ExpectOptions};
use ladders::simulate::Histogram;
use ladders::Verdict as CoreVerdict;
use ladders::{Error, Game as CoreGame, Meeting, Optimized, RaceSettings};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

create_exception!(
    ladders,
    BoardError,
    PyValueError,
    "The board is not valid, or cannot be read: the message lists every problem (as the command \
     line prints it); `.line` is the first problem's line in the board file (None when the \
     problem has no line), `.problems` every problem as (line, message)."
);
create_exception!(
    ladders,
    TooLarge,
    PyValueError,
    "The question would take more than the library's limits allow, refused before the work \
     started: `.what` would grow too large, `.estimate` and `.limit` in `.unit` (\"bytes\", \
     \"seconds\" or \"word operations\")."
);

/// The most turns a game of a sample given to `verify` may have (its table of counts is kept
/// whole: 10^7 turns is 80 MB).
const MAX_SAMPLE_TURNS: u64 = 10_000_000;

/// The Python exception for a library error.
fn py_err(py: Python<'_>, e: Error) -> PyErr {
    let message = e.to_string();
    let err = match &e {
        Error::Board(b) => {
            let err = BoardError::new_err(message);
            let problems: Vec<(Option<usize>, String)> = b
                .problems
                .iter()
                .map(|p| (p.line, p.message.clone()))
                .collect();
            let value = err.value(py);
            let set = value
                .setattr("line", b.problems.first().and_then(|p| p.line))
                .and_then(|()| value.setattr("problems", problems));
            return set.err().unwrap_or(err);
        }
        Error::NotFound { .. } => {
            let err = BoardError::new_err(message);
            let set = err.value(py).setattr("line", None::<usize>);
            return set.err().unwrap_or(err);
        }
        Error::TooLarge(t) => {
            let err = TooLarge::new_err(message);
            let value = err.value(py);
            let set = value
                .setattr("what", t.what)
                .and_then(|()| value.setattr("estimate", t.estimate))
                .and_then(|()| value.setattr("limit", t.limit))
                .and_then(|()| value.setattr("unit", t.unit.to_string()));
            return set.err().unwrap_or(err);
        }
        _ => PyValueError::new_err(message),
    };
    err
}

/// How often the waiting thread looks for a signal (Ctrl-C) while the library works.
const SIGNAL_EVERY: Duration = Duration::from_millis(100);

/// Stops the library's work once set: the façade asks it at each report of progress.
#[derive(Default)]
struct Interrupt(AtomicBool);

impl Listener for Interrupt {
    fn begin(&self, _id: u64, _what: &str, _total: Option<u64>) {}
    fn advance(&self, _id: u64, _done: u64) {}
    fn end(&self, _id: u64) {}
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs `work` on a second thread with the GIL released, its error as a Python exception.
/// `work` is given a listener to attach to the games it asks ([`CoreGame::with_progress`]).
/// Meanwhile this thread takes the GIL back every [`SIGNAL_EVERY`] to run Python's signal
/// handlers: when one raises (Ctrl-C: `KeyboardInterrupt`), the listener stops the work at its
/// next report of progress and that exception is raised.
fn without_gil<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<dyn Listener>) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let interrupt = Arc::new(Interrupt::default());
    let listener: Arc<dyn Listener> = interrupt.clone();
    let mut raised: Option<PyErr> = None;
    let answer = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let worker = scope.spawn(move || {
                // The receiver waits until the work ends: the send cannot fail.
                let _ = tx.send(work(&listener));
            });
            loop {
                match rx.recv_timeout(SIGNAL_EVERY) {
                    Ok(answer) => return answer,
                    Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            raised = Some(e);
                            interrupt.0.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    // The work panicked (a bug): its panic goes on here.
                    Err(RecvTimeoutError::Disconnected) => match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the worker sends before it ends"),
                    },
                }
            }
        })
    });
    match raised {
        Some(e) => Err(e),
        None => answer.map_err(|e| py_err(py, e)),
    }
}

/// `game`, its work stopped when `listener` says so.
fn stoppable(game: &CoreGame, listener: &Arc<dyn Listener>) -> CoreGame {
    game.clone().with_progress(listener.clone())
}

/// A board and its rules, validated: load one with `Game.builtin`, `Game.from_toml` or
/// `Game.load`, then ask it questions. Every exact answer is a `fractions.Fraction`.
#[pyclass(frozen, module = "ladders")]
struct Game {
    inner: CoreGame,
}

#[pymethods]
impl Game {
    /// A built-in board by name (`ladders.builtin_names()` lists them).
    #[staticmethod]
    fn builtin(py: Python<'_>, name: &str) -> PyResult<Game> {
        let inner = CoreGame::builtin(name).map_err(|e| py_err(py, e))?;
        Ok(Game { inner })
    }

    /// A board from the text of a board file (TOML); `origin` names it in messages.
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<text>"))]
    fn from_toml(py: Python<'_>, text: &str, origin: &str) -> PyResult<Game> {
        let inner = CoreGame::from_toml(text, origin).map_err(|e| py_err(py, e))?;
        Ok(Game { inner })
    }

    /// A board file (TOML) by path.
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Game> {
        let inner = CoreGame::from_file(path).map_err(|e| py_err(py, e))?;
        Ok(Game { inner })
    }

    /// The same board under other rules, the command line's rule options as keywords:
    /// `reverse` (bool), `start` (int), `overshoot` ("stay", "bounce" or "allow"), `die` (faces
    /// as an int, or face weights as a list), `dice` (int), `roll_again` ("none", "unlimited" or
    /// a most rolls per turn), `chain` (bool), and the choice rules `choose_die` (list of faces),
    /// `coin`, `pick` (int), `choose_face`.
    #[pyo3(signature = (**overrides))]
    fn with_rules(&self, py: Python<'_>, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        let mut o = RuleOverrides::default();
        let mut reverse = false;
        if let Some(dict) = overrides {
            for (key, value) in dict.iter() {
                let key: String = key.extract()?;
                read_override(&mut o, &mut reverse, &key, &value)?;
            }
        }
        let game = match reverse {
            true => self.inner.reversed(),
            false => Ok(self.inner.clone()),
        };
        let inner = game
            .and_then(|g| g.with_rules(&o))
            .map_err(|e| py_err(py, e))?;
        Ok(Game { inner })
    }

    /// The same board with every snake and ladder swapped end for end.
    fn reversed(&self, py: Python<'_>) -> PyResult<Game> {
        let inner = self.inner.reversed().map_err(|e| py_err(py, e))?;
        Ok(Game { inner })
    }

    /// The board's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.board().name().to_string()
    }

    /// The number of squares (the finish's square).
    #[getter]
    fn size(&self) -> u64 {
        u64::from(self.inner.board().size())
    }

    /// The exact expected number of turns, E[T] (`math.inf` when the game can go on for ever).
    fn expected_turns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.expectation(py, |e| &e.turns)
    }

    /// The exact variance of the number of turns, Var[T] (`math.inf` when the game can go on
    /// for ever).
    fn variance<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.expectation(py, |e| &e.variance)
    }

    /// [P(T = 1), ..., P(T = n)], exact.
    fn pmf(&self, py: Python<'_>, n: usize) -> PyResult<Vec<BigRational>> {
        Ok(self.law(py, n)?.0)
    }

    /// [P(T <= 1), ..., P(T <= n)], exact.
    fn cdf(&self, py: Python<'_>, n: usize) -> PyResult<Vec<BigRational>> {
        Ok(self.law(py, n)?.1)
    }

    /// The shortest game: `.turns`, `.probability` (P(T = turns)) and `.rolls` (one game that
    /// short, the faces rolled turn by turn); None when the finish cannot be reached.
    fn shortest(&self, py: Python<'_>) -> PyResult<Option<Shortest>> {
        let game = &self.inner;
        let extremes = without_gil(py, |l| stoppable(game, l).shortest())?;
        Ok(extremes.shortest.map(|s| Shortest {
            turns: s.turns,
            probability: s.probability,
            rolls: s.witness.into_iter().map(|t| t.rolls).collect(),
            fewest_rolls: s.rolls,
        }))
    }

    /// Plays `games` games roll by roll with the library's simulator (on all cores), seeded: the
    /// same seed gives the same games. The games' turn counts, in increasing order (the
    /// simulator tallies the games; it keeps no order among them), as a numpy array of int64,
    /// or a list when numpy is not installed. Games stopped at 10,000 turns (possible only on a
    /// board whose finish can become unreachable) are left out.
    #[pyo3(signature = (games, seed = 0))]
    fn simulate<'py>(&self, py: Python<'py>, games: u64, seed: u64) -> PyResult<Bound<'py, PyAny>> {
        let game = &self.inner;
        let played = without_gil(py, |l| stoppable(game, l).simulate(games, seed))?;
        let counts = played.turn_counts;
        if let Ok(np) = py.import("numpy") {
            let turns = np.call_method1("arange", (counts.len(),))?;
            return np.call_method1("repeat", (turns, counts));
        }
        let mut turns: Vec<u64> = Vec::with_capacity(played.games as usize);
        for (t, &c) in counts.iter().enumerate() {
            turns.extend(std::iter::repeat_n(t as u64, c as usize));
        }
        Ok(PyList::new(py, turns)?.into_any())
    }

    /// Judges a sample of turn counts (any iterable of ints, or a numpy array of them) against
    /// the exact law, as `ladders verify` does: `.passed`, `.z` (the mean's z score) and
    /// `.hints` (the usual rule variants the sample fits instead, when it fails).
    fn verify(&self, py: Python<'_>, turns: &Bound<'_, PyAny>) -> PyResult<Verdict> {
        let sample = Histogram::new(turn_counts(py, turns)?);
        let game = &self.inner;
        let verdict = without_gil(py, |l| stoppable(game, l).verify(&sample))?;
        let hints = match verdict.too_few {
            true => Vec::new(),
            false => variant_sentences(
                game.board(),
                verdict.passed,
                &verdict.search.fits,
                &verdict.search.not_tried,
            ),
        };
        Ok(Verdict {
            inner: verdict,
            hints,
        })
    }

    /// The moments of the number of turns T up to order `k`, exact: `.raw[j]` = E[T^j],
    /// `.factorial[j]` = E[T (T-1) ... (T-j+1)], `.central[j]` = E[(T - E[T])^j], for j = 0..k.
    /// Raises ValueError when the game can go on for ever (the moments are infinite).
    #[pyo3(signature = (k = 4))]
    fn moments(&self, py: Python<'_>, k: usize) -> PyResult<Moments> {
        let game = &self.inner;
        let m = without_gil(py, |l| stoppable(game, l).moments(k))?;
        Ok(Moments {
            raw: m.raw,
            factorial: m.factorial,
            central: m.central,
        })
    }

    /// The probability generating function of T, F(z) = sum P(T = n) z^n = N(z) / D(z), with
    /// integer polynomials N and D in lowest terms (`.numerator`, `.denominator`: coefficients
    /// from z^0 up), the minimal recurrence of P(T = n), and the tail's decay rate proved.
    /// Call it at a Fraction for F(z) exactly.
    fn pgf(&self, py: Python<'_>) -> PyResult<Pgf> {
        let game = &self.inner;
        let closed = without_gil(py, |l| stoppable(game, l).pgf())?;
        let (pgf, decay) = (closed.pgf, closed.decay);
        Ok(Pgf {
            numerator: pgf.numerator,
            denominator: pgf.denominator,
            recurrence: pgf.recurrence.coefficients,
            recurrence_from: pgf.recurrence.from,
            initial: pgf.recurrence.initial,
            decay: decay.as_ref().map(|d| (d.low.clone(), d.high.clone())),
            decay_constant: decay.and_then(|d| d.constant),
        })
    }

    /// The answers square by square (`.squares`, one per square a turn can begin on, then the
    /// finish): expected turns begun on it, the chance a move ever ends on it (None where not
    /// computed), the expected turns left from it; and per snake and ladder (`.jumps`, None
    /// where not computed) the expected uses and the chance it is taken at least once.
    /// Raises ValueError when the game can go on for ever (the visits are infinite).
    fn squares(&self, py: Python<'_>) -> PyResult<Squares> {
        let game = &self.inner;
        let answers = without_gil(py, |l| stoppable(game, l).squares())?;
        let squares = answers
            .squares
            .into_iter()
            .map(|a| SquareAnswer {
                square: a.square,
                visits: a.visits,
                reach: a.reach,
                remaining: a.remaining,
            })
            .collect();
        let jumps = answers.jumps.map(|jumps| {
            jumps
                .into_iter()
                .map(|j| JumpAnswer {
                    jump: (j.jump.from, j.jump.to),
                    uses: j.uses,
                    taken: j.taken,
                })
                .collect()
        });
        Ok(Squares { squares, jumps })
    }

    /// With a choice rule (`choose_die`, `coin`, `pick`, `choose_face`, `decline`): the best
    /// the player can do, exactly. Without `within`, the least expected turns (`.value`), a
    /// policy that reaches it (proved by the Bellman equation: `.proved`) and the expected
    /// turns of each policy that always makes the same choice (`.others`); with `within = n`,
    /// the best chance of finishing within n turns and the best first choice.
    #[pyo3(signature = (within = None))]
    fn optimize(&self, py: Python<'_>, within: Option<u32>) -> PyResult<Optimum> {
        let game = &self.inner;
        let inner = without_gil(py, |l| match within {
            None => stoppable(game, l).optimize(),
            Some(n) => stoppable(game, l).optimize_within(n),
        })?;
        Ok(Optimum { inner })
    }

    /// With a choice rule: [P(T = 1), ..., P(T = n)] when the player follows the optimal policy
    /// of `optimize()`, exact.
    fn optimal_pmf(&self, py: Python<'_>, n: usize) -> PyResult<Vec<BigRational>> {
        Ok(self.law_of(py, n, true)?.0)
    }

    /// What `ladders expect BOARD --json` prints, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let game = &self.inner;
        let expectation = without_gil(py, |l| stoppable(game, l).expect())?;
        let options = ExpectOptions::new(12);
        let json = serde_json::to_string(&to_json(game.board(), &expectation, options))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }

    fn __repr__(&self) -> String {
        format!("ladders.Game({:?})", self.inner.board().origin())
    }
}

impl Game {
    /// One field of the exact expectations, as a Fraction, or `math.inf`.
    fn expectation<'py>(
        &self,
        py: Python<'py>,
        field: impl Fn(&ladders::analysis::Expectations) -> &BigRational,
    ) -> PyResult<Bound<'py, PyAny>> {
        let game = &self.inner;
        match without_gil(py, |l| stoppable(game, l).expect())? {
            Expectation::Finite(e) => field(&e).into_pyobject(py),
            Expectation::Infinite(_) => Ok(f64::INFINITY.into_pyobject(py)?.into_any()),
        }
    }

    /// P(T = k) and P(T <= k) for k = 1..=n.
    fn law(&self, py: Python<'_>, n: usize) -> PyResult<(Vec<BigRational>, Vec<BigRational>)> {
        self.law_of(py, n, false)
    }

    /// [`Game::law`] of the plain game, or with `optimal` of the player who follows the optimal
    /// policy.
    fn law_of(
        &self,
        py: Python<'_>,
        n: usize,
        optimal: bool,
    ) -> PyResult<(Vec<BigRational>, Vec<BigRational>)> {
        let game = &self.inner;
        let options = DistributionOptions::turns(n);
        let law = without_gil(py, |l| match optimal {
            true => stoppable(game, l).optimal_distribution(&options),
            false => stoppable(game, l).distribution(&options),
        })?;
        let mut pmf = vec![BigRational::zero(); n];
        // Past the last term the game has ended: P(T <= k) is the last term's.
        let mut cdf = vec![None; n];
        for t in &law.terms {
            if (1..=n).contains(&t.n) {
                pmf[t.n - 1] = t.p.clone();
                cdf[t.n - 1] = Some(t.cdf());
            }
        }
        let mut last = match law.starts_finished {
            true => BigRational::one(),
            false => BigRational::zero(),
        };
        let cdf = cdf
            .into_iter()
            .map(|c| {
                if let Some(c) = c {
                    last = c;
                }
                last.clone()
            })
            .collect();
        Ok((pmf, cdf))
    }
}

/// Reads one keyword of `with_rules` into the overrides.
fn read_override(
    o: &mut RuleOverrides,
    reverse: &mut bool,
    key: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let words = |v: &Bound<'_, PyAny>| -> PyResult<String> {
        match v.extract::<String>() {
            Ok(s) => Ok(s),
            Err(_) => Ok(v.str()?.to_string()),
        }
    };
    let bad = |e: String| PyValueError::new_err(format!("{key}: {e}"));
    match key {
        "reverse" => *reverse = value.extract()?,
        "start" => o.start = Some(value.extract()?),
        "overshoot" => {
            let name = words(value)?;
            o.overshoot = Some(Overshoot::from_name(&name).ok_or_else(|| {
                bad(format!(
                    "expected one of {}, found {name:?}",
                    Overshoot::NAMES.join(", ")
                ))
            })?);
        }
        "die" => {
            let text = match value.extract::<Vec<u64>>() {
                Ok(weights) => weights
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
                Err(_) => words(value)?,
            };
            o.die = Some(DieChoice::parse(&text).map_err(bad)?);
        }
        "dice" => o.dice = Some(value.extract()?),
        "roll_again" => o.roll_again = Some(RollAgain::parse(&words(value)?).map_err(bad)?),
        "chain" => o.chain = Some(value.extract()?),
        "choose_die" => o.choices.choose_die = Some(Located::unplaced(value.extract()?)),
        "coin" => o.choices.coin = flag(value)?,
        "pick" => o.choices.pick = Some(Located::unplaced(value.extract()?)),
        "choose_face" => o.choices.choose_face = flag(value)?,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "with_rules() got an unexpected keyword {key:?}; the rules are reverse, start, \
                 overshoot, die, dice, roll_again, chain, choose_die, coin, pick, choose_face"
            )))
        }
    }
    Ok(())
}

/// A choice rule's on/off switch: `False` leaves the board's own.
fn flag(value: &Bound<'_, PyAny>) -> PyResult<Option<Located<bool>>> {
    let on: bool = value.extract()?;
    Ok(on.then(|| Located::unplaced(true)))
}

/// The counts of a sample (`counts[t]` games of t turns), from a numpy array or any iterable of
/// non-negative ints.
fn turn_counts(py: Python<'_>, turns: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let bad = || {
        PyValueError::new_err(format!(
            "turn counts are whole numbers from 0 to {MAX_SAMPLE_TURNS}"
        ))
    };
    // A numpy array is binned by numpy (numpy is imported already when one is passed).
    if let Ok(np) = py.import("sys")?.getattr("modules")?.get_item("numpy") {
        if turns.is_instance(&np.getattr("ndarray")?)? {
            let flat = turns.call_method0("ravel")?;
            if flat.len()? == 0 {
                return Ok(Vec::new());
            }
            let kind: String = flat.getattr("dtype")?.getattr("kind")?.extract()?;
            if !matches!(kind.as_str(), "i" | "u") {
                return Err(bad());
            }
            let min: i128 = flat.call_method0("min")?.extract()?;
            let max: i128 = flat.call_method0("max")?.extract()?;
            if min < 0 || max > i128::from(MAX_SAMPLE_TURNS) {
                return Err(bad());
            }
            return np.call_method1("bincount", (flat,))?.extract();
        }
    }
    let mut counts: Vec<u64> = Vec::new();
    for t in turns.try_iter()? {
        let t: u64 = t?.extract().map_err(|_| bad())?;
        if t > MAX_SAMPLE_TURNS {
            return Err(bad());
        }
        let t = t as usize;
        if counts.len() <= t {
            counts.resize(t + 1, 0);
        }
        counts[t] += 1;
    }
    Ok(counts)
}

/// The shortest game of a board.
#[pyclass(frozen, get_all, module = "ladders")]
struct Shortest {
    /// The fewest turns from the start to the finish.
    turns: usize,
    /// P(T = turns), exact.
    probability: BigRational,
    /// One game that short: the faces rolled, turn by turn.
    rolls: Vec<Vec<u32>>,
    /// The fewest rolls from the start to the finish.
    fewest_rolls: usize,
}

#[pymethods]
impl Shortest {
    fn __repr__(&self) -> String {
        format!(
            "Shortest(turns={}, probability=Fraction({}, {}), rolls={:?})",
            self.turns,
            self.probability.numer(),
            self.probability.denom(),
            self.rolls
        )
    }
}

/// The moments of the number of turns T, exact; index j of each list is order j (from 0).
#[pyclass(frozen, get_all, module = "ladders")]
struct Moments {
    /// E[T^j].
    raw: Vec<BigRational>,
    /// E[T (T-1) ... (T-j+1)].
    factorial: Vec<BigRational>,
    /// E[(T - E[T])^j].
    central: Vec<BigRational>,
}

#[pymethods]
impl Moments {
    fn __repr__(&self) -> String {
        let mean = self.raw.get(1).map_or("-".to_string(), ToString::to_string);
        format!(
            "Moments(order={}, mean={mean})",
            self.raw.len().saturating_sub(1)
        )
    }
}

/// The probability generating function of T, F(z) = N(z) / D(z), exact.
#[pyclass(frozen, get_all, module = "ladders")]
struct Pgf {
    /// N's integer coefficients, from z^0 up.
    numerator: Vec<BigInt>,
    /// D's integer coefficients, from z^0 up (D(0) > 0).
    denominator: Vec<BigInt>,
    /// The minimal recurrence: sum_i recurrence[i] P(T = n - i) = 0 for n >= recurrence_from.
    recurrence: Vec<BigInt>,
    /// The first n where the recurrence holds.
    recurrence_from: usize,
    /// P(T = n) for n < recurrence_from (from n = 0).
    initial: Vec<BigRational>,
    /// The tail's decay rate rho (P(T > n) shrinks like rho^n), enclosed as (low, high), when
    /// proved.
    decay: Option<(BigRational, BigRational)>,
    /// The constant C of the tail law P(T > n) ~ C rho^n, enclosed as (low, high), when proved.
    decay_constant: Option<(BigRational, BigRational)>,
}

#[pymethods]
impl Pgf {
    /// F(z) = N(z) / D(z) exactly, at a Fraction or int z.
    fn __call__(&self, py: Python<'_>, z: &Bound<'_, PyAny>) -> PyResult<BigRational> {
        let z: BigRational = py
            .import("fractions")?
            .getattr("Fraction")?
            .call1((z,))?
            .extract()?;
        let at = |coefficients: &[BigInt]| {
            coefficients
                .iter()
                .rev()
                .fold(BigRational::zero(), |acc, c| {
                    acc * &z + BigRational::from_integer(c.clone())
                })
        };
        let d = at(&self.denominator);
        if d.is_zero() {
            return Err(PyZeroDivisionError::new_err("D(z) = 0: z is a pole of F"));
        }
        Ok(at(&self.numerator) / d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Pgf(numerator degree {}, denominator degree {})",
            self.numerator.len().saturating_sub(1),
            self.denominator.len().saturating_sub(1)
        )
    }
}

/// One square's answers (`Game.squares`).
#[pyclass(frozen, get_all, module = "ladders")]
#[derive(Clone)]
struct SquareAnswer {
    /// The square (0: off the board, before the first roll).
    square: u32,
    /// Expected turns begun on it (the start counted once).
    visits: BigRational,
    /// The chance a roll's move ever ends on it; None where not computed.
    reach: Option<BigRational>,
    /// Expected turns left from it.
    remaining: BigRational,
}

/// One snake's or ladder's answers (`Game.squares`).
#[pyclass(frozen, get_all, module = "ladders")]
#[derive(Clone)]
struct JumpAnswer {
    /// (from, to): the square that triggers it and where it goes.
    jump: (u32, u32),
    /// Expected times it is taken in a game.
    uses: BigRational,
    /// The chance it is taken at least once.
    taken: BigRational,
}

/// The answers square by square (`Game.squares`).
#[pyclass(frozen, get_all, module = "ladders")]
struct Squares {
    /// Per square a turn can begin on, then the finish, in square order.
    squares: Vec<SquareAnswer>,
    /// Per snake, then per ladder (each in file order); None where not computed.
    jumps: Option<Vec<JumpAnswer>>,
}

/// A closed interval [lo, hi] of Fractions known to hold the true value.
#[pyclass(frozen, get_all, module = "ladders")]
struct Interval {
    /// The lower bound.
    lo: BigRational,
    /// The upper bound.
    hi: BigRational,
}

#[pymethods]
impl Interval {
    fn __repr__(&self) -> String {
        let f = |x: &BigRational| format!("Fraction({}, {})", x.numer(), x.denom());
        format!("Interval(lo={}, hi={})", f(&self.lo), f(&self.hi))
    }
}

/// The best a player who chooses can do (`Game.optimize`).
#[pyclass(frozen, module = "ladders")]
struct Optimum {
    inner: Optimized,
}

#[pymethods]
impl Optimum {
    /// The least expected turns from the start (with `within`: the best chance of finishing
    /// within that many turns), exact.
    #[getter]
    fn value(&self) -> BigRational {
        self.inner.value.clone()
    }

    /// The turns of `optimize(within=...)`, or None.
    #[getter]
    fn within(&self) -> Option<u32> {
        self.inner.within
    }

    /// The optimal policy (with `within`, the first turn's) as (first square, last square,
    /// choice) runs, the choice as a policy file writes it ("take", "decline", "flip", "d4",
    /// "6>5>4", ...).
    #[getter]
    fn policy(&self) -> Vec<(u32, u32, String)> {
        self.inner
            .policy
            .iter()
            .map(|r| (r.from, r.to, r.choice.clone()))
            .collect()
    }

    /// True when the Bellman equation was checked with == at every state.
    #[getter]
    fn proved(&self) -> bool {
        self.inner.proved
    }

    /// The policies that always make the same choice, as (name, expected turns) pairs (None
    /// when the policy can never finish); none with `within`.
    #[getter]
    fn others(&self) -> Vec<(String, Option<BigRational>)> {
        self.inner
            .others
            .iter()
            .map(|o| (o.name.clone(), o.expected_turns.clone()))
            .collect()
    }

    /// The answer as a dict (exact numbers as {numerator, denominator, decimal}).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json =
            serde_json::to_string(&self.inner).map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }

    fn __repr__(&self) -> String {
        let v = &self.inner.value;
        format!(
            "Optimum(value=Fraction({}, {}), proved={})",
            v.numer(),
            v.denom(),
            if self.inner.proved { "True" } else { "False" }
        )
    }
}

/// A sample judged against the exact law by `Game.verify`.
#[pyclass(frozen, module = "ladders")]
struct Verdict {
    inner: CoreVerdict,
    hints: Vec<String>,
}

#[pymethods]
impl Verdict {
    /// Every test passed (never with fewer than 100 games).
    #[getter]
    fn passed(&self) -> bool {
        self.inner.passed
    }

    /// Fewer than 100 games: no verdict is given.
    #[getter]
    fn too_few(&self) -> bool {
        self.inner.too_few
    }

    /// The z score of the sample's mean against the exact mean.
    #[getter]
    fn z(&self) -> f64 {
        self.inner.z
    }

    /// The mean test's two-sided p-value.
    #[getter]
    fn p_value(&self) -> f64 {
        self.inner.p_value
    }

    /// The chi-square test's p-value of the law of turns (None with fewer than two bins).
    #[getter]
    fn chi_square_p_value(&self) -> Option<f64> {
        self.inner.chi_square_p_value
    }

    /// The sample's mean number of turns.
    #[getter]
    fn mean(&self) -> f64 {
        self.inner.mean
    }

    /// The exact mean, as a float.
    #[getter]
    fn expected_mean(&self) -> f64 {
        self.inner.expected_mean
    }

    /// The games in the sample.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games
    }

    /// What `ladders verify` says about the rule variants the sample fits, in sentences.
    #[getter]
    fn hints(&self) -> Vec<String> {
        self.hints.clone()
    }

    /// The verdict as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json =
            serde_json::to_string(&self.inner).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let dict = py.import("json")?.call_method1("loads", (json,))?;
        dict.set_item("hints", self.hints.clone())?;
        Ok(dict)
    }

    fn __bool__(&self) -> bool {
        self.inner.passed
    }

    fn __repr__(&self) -> String {
        format!(
            "Verdict(passed={}, z={}, games={})",
            if self.inner.passed { "True" } else { "False" },
            self.inner.z,
            self.inner.games
        )
    }
}

/// Each seat's chance of finishing first when `games` play in this order (the first moves
/// first): per seat an Interval whose `hi - lo` is at most 10**-digits. The seats never meet
/// unless `knock_off` (landing on a seat's square sends it back to the start) or `shared` (one
/// board that changes during a game, the same game for every seat).
#[pyfunction]
#[pyo3(signature = (games, digits = 12, knock_off = false, shared = false))]
fn race(
    py: Python<'_>,
    games: Vec<PyRef<'_, Game>>,
    digits: usize,
    knock_off: bool,
    shared: bool,
) -> PyResult<Vec<Interval>> {
    let meeting =
        match (knock_off, shared) {
            (false, false) => Meeting::Never,
            (true, false) => Meeting::KnockOff,
            (false, true) => Meeting::SharedBoard,
            (true, true) => return Err(PyValueError::new_err(
                "knock_off and shared: seats sharing a board that changes during a game do not \
                 knock each other off",
            )),
        };
    let mut seats: Vec<CoreGame> = games.iter().map(|g| g.inner.clone()).collect();
    let settings = RaceSettings::new(meeting).digits(digits);
    // A race is told to its first seat's listener.
    let odds = without_gil(py, |l| {
        if let Some(first) = seats.first_mut() {
            *first = stoppable(first, l);
        }
        CoreGame::race_with(&seats, &settings)
    })?;
    Ok(odds
        .seats
        .into_iter()
        .map(|s| Interval {
            lo: s.win.lo,
            hi: s.win.hi,
        })
        .collect())
}

/// The names of the built-in boards.
#[pyfunction]
fn builtin_names() -> Vec<&'static str> {
    BUILTIN_BOARDS.iter().map(|b| b.name).collect()
}

/// Exact answers about Snakes and Ladders boards: expected turns, the law of the game's length,
/// shortest games, win odds, simulations checked against the exact law.
#[pymodule(name = "ladders")]
fn ladders_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Game>()?;
    m.add_class::<Shortest>()?;
    m.add_class::<Interval>()?;
    m.add_class::<Verdict>()?;
    m.add_class::<Moments>()?;
    m.add_class::<Pgf>()?;
    m.add_class::<Squares>()?;
    m.add_class::<SquareAnswer>()?;
    m.add_class::<JumpAnswer>()?;
    m.add_class::<Optimum>()?;
    m.add_function(wrap_pyfunction!(race, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_names, m)?)?;
    m.add("BoardError", py.get_type::<BoardError>())?;
    m.add("TooLarge", py.get_type::<TooLarge>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let names = [
        "Game",
        "Shortest",
        "Interval",
        "Verdict",
        "Moments",
        "Pgf",
        "Squares",
        "SquareAnswer",
        "JumpAnswer",
        "Optimum",
        "race",
        "builtin_names",
        "BoardError",
        "TooLarge",
        "__version__",
    ];
    m.add("__all__", names.to_vec())?;
    Ok(())
}
