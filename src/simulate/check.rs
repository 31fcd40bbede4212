//! A sample of games against the exact answers: is it what these rules produce?
//!
//! # Tests
//!
//! - **Mean.** `z = (x̄ - μ) / (σ / √n)` with the exact mean μ and standard deviation σ of the
//!   number of turns (from [`expect`](crate::analysis::expectation::expect)); by the central limit
//!   theorem z is close to a standard normal for a correct sample. A mean written with few
//!   decimals is an interval ([`MeanInterval`]); its point nearest μ is used.
//! - **Law.** Pearson's chi-square of the observed turn counts against `n P(T = t)`, with the exact
//!   `P(T = t)` from [`Stepper`](crate::exact::step::Stepper); neighbouring values are merged into bins until each expects at
//!   least [`MIN_EXPECTED`] games (W. G. Cochran, *The χ² test of goodness of fit*, Ann. Math.
//!   Statist. 23 (1952)); its p-value is the upper regularized incomplete gamma function
//!   `Q(k/2, χ²/2)` with `k = bins - 1`. A game length whose exact probability is 0 fails at once.
//! - **Rolls** (for `check`, where each game's rolls are known): z of the mean rolls against the
//!   exact expected rolls, with the sample's standard deviation.
//!
//! A test fails when `|z| > Z_LIMIT` (two-sided p about 1.2e-7) or the chi-square p-value is below
//! [`P_LIMIT`] (1e-7). With at most three tests, a correct sample fails with probability below
//! 3.5e-7 (Bonferroni): less than once in a million runs (`docs/simulation-and-checks.md`).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use statrs::function::erf::erfc;
use statrs::function::gamma::gamma_ur;

use super::sample::MeanInterval;
use super::stateful::Scores;
use super::Histogram;
use crate::analysis::distribution::{stepping_work, turns_for_tail, TooMuchWork, WORK_LIMIT};
use crate::analysis::expectation::expect_with;
use crate::analysis::expectation::{expect_chain_with, Expectation, Expectations};
use crate::analysis::score::{score, Score};
use crate::analysis::spectral::spectral_radius;
use crate::board::{Board, Rules, Square};
use crate::chain::{on_player_chain, Chain, ChainState, Memory, Trap};
use crate::exact::step::IntegerChain;
use crate::num::decimal::to_f64;

pub use super::variants::{fitting_variants, LayoutFit, NotTried, VariantFit};

/// A z beyond this fails (two-sided p = erfc(5.3 / √2) ≈ 1.16e-7).
pub const Z_LIMIT: f64 = 5.3;
/// A chi-square p-value below this fails.
pub const P_LIMIT: f64 = 1e-7;
/// Bins of the chi-square test are merged until each expects at least this many games.
pub const MIN_EXPECTED: f64 = 5.0;
/// Turns stepped at most when computing the exact law (a bound on the work for boards whose
/// games are extremely long).
pub const MAX_LAW_TURNS: usize = 200_000;

/// Why there is no exact law to check against.
#[derive(Clone, Debug, thiserror::Error)]
pub enum LawError {
    /// The finish can be unreachable: the expected number of turns is infinite.
    #[error("the finish can be unreachable")]
    Trap(Trap<Square>),
    /// The law's tail needs too many exact turns.
    #[error(transparent)]
    TooMuchWork(TooMuchWork),
    /// The law of the final score would take too long or too much memory.
    #[error(transparent)]
    Score(#[from] crate::analysis::stateful_fits::StatefulTooBig),
}

/// The exact law of the number of turns on one board, in the form the tests need.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ExactLaw {
    /// The board's rules.
    pub rules: Rules,
    /// The chain's transitions in integers (kept to decide whether two laws are the same).
    integer: IntegerChain,
    /// The chain's number of transient states.
    transient: usize,
    /// The exact law of the final score, on a board with point squares.
    pub score: Option<ScoreLaw>,
    /// The exact expectations.
    pub expectations: Box<Expectations>,
    /// E\[T\] as a float.
    pub mean: f64,
    /// The standard deviation of T as a float.
    pub sd: f64,
    /// `pmf[t] = P(T = t)` for `t < pmf.len()` (as floats: statistics, not exact output).
    pub pmf: Vec<f64>,
    /// `impossible[t]`: `P(T = t)` is exactly 0.
    pub impossible: Vec<bool>,
    /// `P(T >= pmf.len())`.
    pub tail: f64,
}

/// The chain in integers, when stepping it until `P(T >= t)` is below `tail_below` (at most
/// [`MAX_LAW_TURNS`] turns) is within `work_limit` ([`WORK_LIMIT`] for the board's own law):
/// estimated from the decay rate before any
/// exact solve or step.
fn law_fits<S: ChainState>(
    chain: &Chain<S>,
    tail_below: f64,
    work_limit: f64,
) -> Result<IntegerChain, LawError> {
    let ic = IntegerChain::new(chain);
    let rho = spectral_radius(chain);
    let tail = BigRational::from_float(tail_below).unwrap_or_else(BigRational::zero);
    if let Some(need) = turns_for_tail(chain, rho, &tail) {
        let need = need.min(MAX_LAW_TURNS as f64);
        let work = stepping_work(&ic, need);
        if work > work_limit {
            return Err(LawError::TooMuchWork(TooMuchWork {
                turns: need,
                states: chain.transient_count(),
                rho: rho.unwrap_or(0.0),
                work,
            }));
        }
    }
    Ok(ic)
}

impl ExactLaw {
    /// The exact law on `board`, with `P(T = t)` listed until `P(T >= t)` is below `tail_below`
    /// (or `MAX_LAW_TURNS` turns).
    ///
    /// # Errors
    ///
    /// The finish can be unreachable (`LawError::Trap`, with the trap that shows it), or the
    /// turns the tail needs would take the exact stepping too long (`LawError::TooMuchWork`:
    /// a board won with probability 2^-51 a game needs about 2^51 turns).
    pub fn new(board: &Board, tail_below: f64) -> Result<ExactLaw, LawError> {
        let mut law = ExactLaw::of_turns(board, tail_below, WORK_LIMIT)?;
        law.score = score(board)?.map(ScoreLaw::new);
        Ok(law)
    }

    /// [`ExactLaw::new`] without the law of the score, its stepping refused past `work_limit`:
    /// the law of T alone, as the rule variants' checks need it (the score's law costs far more
    /// than the mean on some boards: seed-003 with unlimited roll-again, 17 s against 1 s).
    ///
    /// # Errors
    ///
    /// As [`ExactLaw::new`].
    pub fn of_turns(board: &Board, tail_below: f64, work_limit: f64) -> Result<ExactLaw, LawError> {
        let rules = *board.rules();
        let e = || expect_with(board, false);
        on_player_chain!(board, Memory::Full, |_, chain| {
            ExactLaw::of_states(rules, chain, e, tail_below, work_limit)
        })
    }

    /// [`ExactLaw::new`] for any chain over squares (a player who follows a policy), on a board
    /// with these rules.
    ///
    /// # Errors
    ///
    /// As [`ExactLaw::new`].
    pub fn of_chain(
        rules: Rules,
        chain: Chain<Square>,
        tail_below: f64,
    ) -> Result<ExactLaw, LawError> {
        ExactLaw::of_chain_within(rules, chain, tail_below, WORK_LIMIT)
    }

    /// [`ExactLaw::of_chain`] with its stepping refused past `work_limit`.
    ///
    /// # Errors
    ///
    /// As [`ExactLaw::new`].
    pub fn of_chain_within(
        rules: Rules,
        chain: Chain<Square>,
        tail_below: f64,
        work_limit: f64,
    ) -> Result<ExactLaw, LawError> {
        let e = || expect_chain_with(&chain, false);
        ExactLaw::of_states(rules, &chain, e, tail_below, work_limit)
    }

    /// The law from any chain (the stateful chain of a board that changes during a game) and its
    /// expectations (with the trap as a square), solved only once the stepping is known to fit
    /// (`roll_again = 3` on 10,000 squares: refused at once, not after the mean's 30 s solve).
    fn of_states<S: ChainState>(
        rules: Rules,
        chain: &Chain<S>,
        expectation: impl FnOnce() -> Expectation,
        tail_below: f64,
        work_limit: f64,
    ) -> Result<ExactLaw, LawError> {
        // A trap is reported as one whatever the stepping would cost.
        let fitted = chain
            .trap()
            .is_none()
            .then(|| law_fits(chain, tail_below, work_limit));
        let fitted = fitted.transpose()?;
        let expectations = match expectation() {
            Expectation::Finite(e) => e,
            Expectation::Infinite(trap) => return Err(LawError::Trap(trap)),
        };
        let mean = to_f64(&expectations.turns);
        let sd = to_f64(&expectations.variance).max(0.0).sqrt();
        let ic = fitted.map_or_else(|| law_fits(chain, tail_below, work_limit), Ok)?;
        let mut s = ic.stepper();
        let start_final = chain.start() >= chain.transient_count();
        let mut pmf = vec![if start_final { 1.0 } else { 0.0 }];
        let mut impossible = vec![!start_final];
        let mut tail = ratio(&s.survival_count(), s.scale());
        while tail >= tail_below && pmf.len() < MAX_LAW_TURNS {
            s.step();
            let ends: BigInt = s.absorbed().iter().sum();
            impossible.push(ends.is_zero());
            pmf.push(ratio(&ends, s.scale()));
            tail = ratio(&s.survival_count(), s.scale());
        }
        drop(s);
        Ok(ExactLaw {
            rules,
            transient: chain.transient_count(),
            integer: ic,
            score: None,
            expectations,
            mean,
            sd,
            pmf,
            impossible,
            tail,
        })
    }

    /// True when this law and `other` are exactly the same law of T.
    ///
    /// # Formula
    ///
    /// `P(T = n) = a Q^(n-1) r` is a linear recurrence of order at most m (the number of transient
    /// states, by Cayley-Hamilton), so the difference of two such sequences satisfies one of order
    /// at most `m1 + m2`, and is zero everywhere once it is zero on `m1 + m2` consecutive terms.
    /// Equal means and variances are checked first (cheap, exact); then the first `m1 + m2` terms
    /// are compared exactly in integers.
    pub fn same_law(&self, other: &ExactLaw) -> bool {
        self.same_law_within(other, f64::INFINITY) == Some(true)
    }

    /// [`ExactLaw::same_law`], undecided (`None`) when the exact stepping of the `m1 + m2` terms
    /// would take more than `work_limit` (`stepping_work`; seed-003 with unlimited roll-again,
    /// stay and bounce: 14,000 terms over 7,000 states with 111-bit denominators, hours).
    pub fn same_law_within(&self, other: &ExactLaw, work_limit: f64) -> Option<bool> {
        let (a, b) = (&self.expectations, &other.expectations);
        if a.turns != b.turns || a.variance != b.variance {
            return Some(false);
        }
        let m = self.transient + other.transient;
        let work = stepping_work(&self.integer, m as f64) + stepping_work(&other.integer, m as f64);
        if work > work_limit {
            return None;
        }
        let (mut sa, mut sb) = (self.integer.stepper(), other.integer.stepper());
        for _ in 0..=m {
            let ea: BigInt = sa.absorbed().iter().sum();
            let eb: BigInt = sb.absorbed().iter().sum();
            if ea * sb.scale() != eb * sa.scale() {
                return Some(false);
            }
            sa.step();
            sb.step();
        }
        Some(true)
    }
}

/// The exact law of the final score, in the form the score test needs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ScoreLaw {
    /// The exact law ([`crate::analysis::score::score`]).
    pub exact: Score,
    /// E\[score\] as a float.
    pub mean: f64,
    /// The standard deviation of the score as a float.
    pub sd: f64,
}

impl ScoreLaw {
    /// The float figures of `exact`: `Var = E[S^2] - E[S]^2`, exactly, then rounded.
    pub fn new(exact: Score) -> ScoreLaw {
        let second: BigRational = exact
            .law
            .iter()
            .map(|(v, p)| p * BigRational::from_integer(BigInt::from(*v) * BigInt::from(*v)))
            .sum();
        let variance = second - &exact.expected * &exact.expected;
        ScoreLaw {
            mean: to_f64(&exact.expected),
            sd: to_f64(&variance).max(0.0).sqrt(),
            exact,
        }
    }
}

/// `num / den` as a float, for integers of any size (both are shifted to about 100 bits first).
fn ratio(num: &BigInt, den: &BigInt) -> f64 {
    let shift = den.bits().saturating_sub(100);
    let n = (num >> shift).to_f64().unwrap_or(f64::INFINITY);
    let d = (den >> shift).to_f64().unwrap_or(f64::INFINITY);
    n / d
}

/// What a sample says about the games.
#[derive(Clone, Copy, Debug)]
pub enum Observed<'a> {
    /// Every game's turn count (capped games were stopped after more than every listed count).
    Counts {
        /// Turn counts of the finished games.
        turns: &'a Histogram,
        /// Games stopped at a cap.
        capped: u64,
    },
    /// Only the mean number of turns over `games` games.
    Summary {
        /// The mean as written.
        mean: &'a MeanInterval,
        /// The number of games.
        games: u64,
    },
}

impl Observed<'_> {
    /// How far the exact law must be listed to test this sample: until `P(T >= t)` is a tenth of
    /// a game (for a mean alone, not at all).
    pub fn tail_below(&self) -> f64 {
        match self {
            Observed::Counts { .. } => 0.1 / self.games().max(1) as f64,
            Observed::Summary { .. } => 1.0,
        }
    }

    /// The number of games.
    pub fn games(&self) -> u64 {
        match self {
            Observed::Counts { turns, capped } => turns.n() + capped,
            Observed::Summary { games, .. } => *games,
        }
    }
}

/// A z test of a mean (serialized with `z` null when infinite: a sample off a law without
/// spread).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct ZTest {
    /// The sample mean used (for an interval: its point nearest the exact mean).
    pub observed: f64,
    /// The exact mean.
    pub expected: f64,
    /// The standard error `σ / √n`.
    pub standard_error: f64,
    /// `(observed - expected) / standard_error`.
    #[serde(serialize_with = "finite_or_null")]
    pub z: f64,
    /// Two-sided p-value `erfc(|z| / √2)`.
    pub p_value: f64,
    /// `|z| <= Z_LIMIT`; for a law without spread, the sample mean equals the law's one value.
    pub pass: bool,
    /// The law has no spread (`sd = 0`: a game of fixed length, a seat that always or never
    /// wins), so the sample is judged exactly instead: it passes when its mean is the law's one
    /// value (z = 0, p = 1) and fails otherwise (z infinite, p = 0: reports print words, never
    /// the infinite z).
    pub exact: bool,
}

/// `value` when finite, else `null`.
fn finite_or_null<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&value.is_finite().then_some(*value), serializer)
}

impl ZTest {
    fn new(observed: f64, expected: f64, sd: f64, n: u64) -> ZTest {
        ZTest::with_limit(observed, expected, sd, n, Z_LIMIT)
    }

    /// The z test of a mean of `n` observations from a law whose standard deviation is `sd`,
    /// failing beyond `limit`. A law without spread (`sd = 0`) is judged exactly
    /// ([`ZTest::exact`]): every observation must be its one value, so the mean must be too (up
    /// to the rounding of a mean of equal floats).
    pub(crate) fn with_limit(observed: f64, expected: f64, sd: f64, n: u64, limit: f64) -> ZTest {
        let se = sd / (n as f64).sqrt();
        let diff = observed - expected;
        if sd == 0.0 {
            let pass = diff.abs() <= crate::prec::ZERO_SPREAD * expected.abs().max(1.0);
            return ZTest {
                observed,
                expected,
                standard_error: 0.0,
                z: if pass {
                    0.0
                } else {
                    f64::INFINITY.copysign(diff)
                },
                p_value: if pass { 1.0 } else { 0.0 },
                pass,
                exact: true,
            };
        }
        let z = if diff == 0.0 { 0.0 } else { diff / se };
        let p = erfc(z.abs() / std::f64::consts::SQRT_2);
        ZTest {
            observed,
            expected,
            standard_error: se,
            z,
            p_value: p,
            pass: z.abs() <= limit,
            exact: false,
        }
    }

    /// What a test judged exactly says in place of its z and p: `None` for a z test.
    pub fn exact_verdict(&self) -> Option<&'static str> {
        self.exact.then_some(if self.pass {
            "the law has no spread and the sample keeps to its one value"
        } else {
            "the law has no spread and the sample leaves its one value: impossible"
        })
    }
}

/// Pearson's chi-square goodness of fit of the turn counts.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ChiSquare {
    /// The statistic.
    pub statistic: f64,
    /// Bins after merging.
    pub bins: usize,
    /// Degrees of freedom (`bins - 1`).
    pub df: usize,
    /// `Q(df/2, statistic/2)`.
    pub p_value: f64,
    /// Game lengths seen that the exact law gives probability 0, with their counts.
    pub impossible: Vec<(u64, u64)>,
    /// `p_value >= P_LIMIT` and no impossible length seen.
    pub pass: bool,
}

/// The tests of one sample against one law.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Comparison {
    /// The mean number of turns.
    pub mean: ZTest,
    /// The law of the number of turns (needs the counts, and at least two bins).
    pub chi_square: Option<ChiSquare>,
    /// The mean number of rolls (needs every game's rolls, and a spread among them).
    pub rolls: Option<ZTest>,
    /// Every game took the same number of rolls, not the exact mean: that number. The rolls'
    /// standard deviation comes from the sample, so there is none to test with: not tested.
    pub rolls_without_spread: Option<f64>,
    /// The mean final score (on a board with point squares, when every game's score is known).
    pub score: Option<ZTest>,
    /// The variance of the number of turns, from the standard deviation a user reported
    /// (`spread::variance_test`).
    pub variance: Option<ZTest>,
    /// Every test passed (never with fewer than `MIN_GAMES` games).
    pub pass: bool,
    /// Fewer than `MIN_GAMES` games: no verdict (and no hint) is given.
    pub too_few: bool,
}

/// The fewest games on which a comparison gives a verdict. The tests' thresholds (|z| <= 5.3,
/// p >= 1e-7) rest on the normal approximation of the sample mean far out in its tail, which a
/// handful of games from these skewed laws does not support; and with n games the mean test
/// only notices a mean off by more than 5.3 sd / sqrt(n) (over half a standard deviation below
/// 100 games), which is no power against the usual rule mistakes.
pub const MIN_GAMES: u64 = 100;

impl Comparison {
    /// Adds the test of the sample's variance (`spread::variance_test`).
    pub fn with_variance(mut self, variance: ZTest) -> Comparison {
        self.pass &= variance.pass;
        self.variance = Some(variance);
        self
    }

    /// Adds the test of the mean final score of the same games against the exact expected
    /// score (z with the exact standard deviation); nothing on a board without point squares.
    pub fn with_score(mut self, law: &ExactLaw, scores: Option<&Scores>) -> Comparison {
        if let (Some(exact), Some(seen)) = (&law.score, scores) {
            if let Some(mean) = seen.mean() {
                let z = ZTest::new(mean, exact.mean, exact.sd, seen.n());
                self.pass &= z.pass;
                self.score = Some(z);
            }
        }
        self
    }
}

/// Compares a sample with an exact law; `rolls` adds the rolls test (the rolls of the same
/// games).
pub fn compare(law: &ExactLaw, observed: Observed<'_>, rolls: Option<&Histogram>) -> Comparison {
    let n = observed.games();
    let mean = match observed {
        Observed::Counts { turns, .. } => ZTest::new(
            turns.mean().unwrap_or(f64::NAN),
            law.mean,
            law.sd,
            turns.n(),
        ),
        Observed::Summary { mean, games } => {
            ZTest::new(mean.nearest(law.mean), law.mean, law.sd, games)
        }
    };
    let chi_square = match observed {
        Observed::Counts { turns, capped } => chi_square(law, turns, capped),
        Observed::Summary { .. } => None,
    };
    // The rolls' sd comes from the sample (the exact law's variance of the rolls is not
    // computed): a sample without spread is not z-tested (it says nothing of the law's spread)
    // unless its mean is the exact one.
    let exact_rolls = to_f64(&law.expectations.rolls);
    let no_spread = rolls
        .and_then(|r| Some((r.mean()?, r.sd()?)))
        .filter(|&(mean, sd)| sd == 0.0 && mean != exact_rolls)
        .map(|(mean, _)| mean);
    let rolls = rolls.filter(|_| no_spread.is_none()).and_then(|r| {
        // With no spread and the exact mean, z = 0 (no division by the sample's 0).
        let sd = r.sd()?.max(f64::MIN_POSITIVE);
        Some(ZTest::new(r.mean()?, exact_rolls, sd, r.n()))
    });
    let too_few = n < MIN_GAMES;
    let pass = mean.pass
        && chi_square.as_ref().is_none_or(|c| c.pass)
        && rolls.as_ref().is_none_or(|r| r.pass)
        && !too_few;
    Comparison {
        mean,
        chi_square,
        rolls,
        rolls_without_spread: no_spread,
        score: None,
        variance: None,
        pass,
        too_few,
    }
}

/// Pearson's statistic over merged bins of (expected, observed) counts, its degrees of freedom
/// (`bins - 1`) and its p-value `Q(df/2, statistic/2)` (1 with a single bin).
pub(crate) fn pearson(bins: &[(f64, f64)]) -> (f64, usize, f64) {
    let statistic: f64 = bins
        .iter()
        .map(|&(e, o)| if e > 0.0 { (o - e) * (o - e) / e } else { 0.0 })
        .sum();
    let df = bins.len().saturating_sub(1);
    let p_value = if df == 0 {
        1.0
    } else {
        gamma_ur(df as f64 / 2.0, statistic / 2.0)
    };
    (statistic, df, p_value)
}

fn chi_square(law: &ExactLaw, turns: &Histogram, capped: u64) -> Option<ChiSquare> {
    let n = (turns.n() + capped) as f64;
    let obs = turns.counts();
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let mut impossible = Vec::new();
    let (mut e, mut o) = (0.0, 0.0);
    for (t, &p) in law.pmf.iter().enumerate() {
        let seen = obs.get(t).copied().unwrap_or(0);
        if law.impossible[t] {
            if seen > 0 {
                impossible.push((t as u64, seen));
            }
            continue;
        }
        e += n * p;
        o += seen as f64;
        if e >= MIN_EXPECTED {
            bins.push((e, o));
            (e, o) = (0.0, 0.0);
        }
    }
    e += n * law.tail;
    o += obs.iter().skip(law.pmf.len()).sum::<u64>() as f64 + capped as f64;
    if e >= MIN_EXPECTED || bins.is_empty() {
        bins.push((e, o));
    } else {
        let last = bins.last_mut().expect("a bin");
        last.0 += e;
        last.1 += o;
    }
    if bins.len() < 2 && impossible.is_empty() {
        return None;
    }
    let (statistic, df, p_value) = pearson(&bins);
    Some(ChiSquare {
        statistic,
        bins: bins.len(),
        df,
        p_value,
        pass: p_value >= P_LIMIT && impossible.is_empty(),
        impossible,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{builtin, Overshoot, RollAgain, RuleOverrides};

    #[test]
    fn a_law_without_spread_is_judged_exactly_never_with_an_infinite_z() {
        // A seat that never wins (p = 0, sd 0) seen winning 1 game in 100; one that always wins
        // seen always winning; a fixed length of 7 turns seen as 7 and as 7.5.
        let won = ZTest::with_limit(0.01, 0.0, 0.0, 100, 5.0);
        assert!(won.exact && !won.pass && won.p_value == 0.0);
        assert!(won.exact_verdict().unwrap().ends_with("impossible"));
        let always = ZTest::with_limit(1.0, 1.0, 0.0, 100, 5.0);
        assert!(always.exact && always.pass);
        assert_eq!((always.z, always.p_value), (0.0, 1.0));
        assert!(ZTest::new(7.0, 7.0, 0.0, 1000).pass);
        assert!(!ZTest::new(7.5, 7.0, 0.0, 1000).pass);
        // A law with spread is a z test, as before.
        let z = ZTest::new(4.2, 4.0, 2.0, 100);
        assert!(!z.exact && z.exact_verdict().is_none());
        assert!((z.z - 1.0).abs() < 1e-12, "{}", z.z);
    }

    #[test]
    fn the_tiny_board_law_is_the_hand_derived_one() {
        // boards/tiny.toml: P(T = n) = (n - 1) / 2^n (two geometric(1/2) waits), mean 4, sd 2.
        let b = builtin("tiny").unwrap();
        let law = ExactLaw::new(&b, 1e-9).unwrap();
        assert_eq!((law.mean, law.sd), (4.0, 2.0));
        assert!(law.impossible[0] && law.impossible[1] && !law.impossible[2]);
        for (n, &p) in law.pmf.iter().enumerate().skip(1) {
            assert_eq!(p, (n as f64 - 1.0) / 2f64.powi(n as i32), "n = {n}");
        }
        assert!(law.tail < 1e-9);
    }

    #[test]
    fn a_sample_drawn_from_the_law_itself_passes_and_a_shifted_one_fails() {
        // The expected counts themselves (rounded) fit; every game one turn longer does not.
        let b = builtin("tiny").unwrap();
        let law = ExactLaw::new(&b, 1e-9).unwrap();
        let n = 1_000_000.0;
        let counts: Vec<u64> = law.pmf.iter().map(|p| (p * n).round() as u64).collect();
        let judge = |counts: Vec<u64>| {
            let turns = Histogram::new(counts);
            compare(
                &law,
                Observed::Counts {
                    turns: &turns,
                    capped: 0,
                },
                None,
            )
        };
        let c = judge(counts.clone());
        assert!(c.pass, "{c:?}");
        assert!(c.mean.z.abs() < 0.1);
        let mut shifted = vec![0];
        shifted.extend(counts);
        let c = judge(shifted);
        assert!(!c.pass);
        // T = 1 is impossible on the tiny board (shifting puts no game there, but 2 -> 3 ...);
        // a sample with a one-turn game is rejected outright.
        let h = Histogram::new(vec![0, 1, 5, 5, 5]);
        let c = chi_square(&law, &h, 0).unwrap();
        assert_eq!(c.impossible, vec![(1, 1)]);
        assert!(!c.pass);
    }

    #[test]
    fn the_mean_interval_is_judged_at_its_nearest_point() {
        let b = builtin("tiny").unwrap();
        let law = ExactLaw::new(&b, 1e-6).unwrap();
        let judge = |mean: &str| {
            let mean = MeanInterval::parse(mean).unwrap();
            let games = 1_000_000;
            compare(&law, Observed::Summary { mean: &mean, games }, None)
        };
        // "4.1" over 10^6 games: [4.05, 4.15) is 0.05 / (2 / 1000) = 25 standard errors away.
        let c = judge("4.1");
        assert!(!c.pass);
        assert!((c.mean.z - 25.0).abs() < 1e-6);
        // "4" is [3.5, 4.5): contains 4, z = 0.
        let c = judge("4");
        assert!(c.pass && c.mean.z == 0.0);
    }

    #[test]
    fn laws_are_the_same_exactly_when_they_are() {
        // boards/tiny.toml, worked by hand: the only roll past the finish is a 2 from square 3.
        // `stay` keeps the token on 3, `bounce` sends it to 2 * 4 - 5 = 3: the same chain, the
        // same law. `allow` finishes on that roll: E[T] = 2 + 4/3... a different law.
        let b = builtin("tiny").unwrap();
        let law = ExactLaw::new(&b, 1e-6).unwrap();
        let with = |o: Overshoot| {
            let v = b
                .with_rules(&RuleOverrides {
                    overshoot: Some(o),
                    ..RuleOverrides::default()
                })
                .unwrap();
            ExactLaw::new(&v, 1e-6).unwrap()
        };
        assert!(law.same_law(&with(Overshoot::Bounce)));
        let allow = with(Overshoot::Allow);
        assert!(!law.same_law(&allow));
        // With allow, from 3 every roll finishes: T = G + 1 with G geometric(1/2), E[T] = 3.
        assert_eq!(allow.mean, 3.0);
    }

    #[test]
    fn the_variants_that_fit_are_named_and_twins_are_marked() {
        // A sample drawn exactly from tiny's `allow` law (E[T] = 3), checked against tiny (stay):
        // it fails, fits `overshoot = allow`, and stay/bounce are twins of the board's own law.
        let b = builtin("tiny").unwrap();
        let allow = b
            .with_rules(&RuleOverrides {
                overshoot: Some(Overshoot::Allow),
                ..RuleOverrides::default()
            })
            .unwrap();
        let allow_law = ExactLaw::new(&allow, 1e-9).unwrap();
        let counts: Vec<u64> = allow_law
            .pmf
            .iter()
            .map(|p| (p * 1e6).round() as u64)
            .collect();
        let h = Histogram::new(counts);
        let obs = Observed::Counts {
            turns: &h,
            capped: 0,
        };
        let law = ExactLaw::new(&b, 1e-7).unwrap();
        assert!(!compare(&law, obs, None).pass);
        let fits = fitting_variants(&b, &law, obs, None).fits;
        let names: Vec<String> = fits.iter().map(|f| f.changes.join(", ")).collect();
        // Worked by hand: with allow, square 1 behaves like the start (a 1 slides 2 -> 0, a 2
        // reaches 3 like the ladder), so start = 1 gives the same law: both fit, marked twins.
        assert_eq!(
            names,
            vec!["overshoot = allow", "overshoot = allow, start = 1"]
        );
        assert!(!fits[0].same_law_as_board);
        assert_eq!(
            (fits[0].same_law_as.clone(), fits[1].same_law_as.clone()),
            (vec![1], vec![0])
        );
        // Against bounce (a variant with the board's own law) the sample of the board's law fits
        // and is marked as indistinguishable.
        let own: Vec<u64> = law.pmf.iter().map(|p| (p * 1e6).round() as u64).collect();
        let h = Histogram::new(own);
        let fits = fitting_variants(
            &b,
            &law,
            Observed::Counts {
                turns: &h,
                capped: 0,
            },
            None,
        )
        .fits;
        let twin = fits
            .iter()
            .find(|f| {
                f.rules.overshoot == Overshoot::Bounce
                    && f.rules.start == 0
                    && f.rules.roll_again == RollAgain::None
            })
            .expect("bounce fits");
        assert!(twin.same_law_as_board);
    }
}
