//! The exact distribution of the number of turns T (DESIGN.md section 3).
//!
//! # Formula
//!
//! With `p_0` the start vector and P the turn chain's matrix, `p_n = p_(n-1) P`;
//! `P(T = n)` is the mass that reaches the finish at step n and `P(T > n)` the mass still on the
//! board. The stepping is done in integers ([`crate::exact::step`]), so every `P(T = n)` and
//! `P(T <= n) = 1 - P(T > n)` is an exact fraction. Quantiles are decided exactly: the q-quantile
//! is the smallest n with `P(T <= n) >= q`, i.e. `P(T > n) <= 1 - q`.
//!
//! The tail decays like `P(T > n) ~ C rho^n`, with rho the spectral radius of Q, the transient
//! part of P (Perron-Frobenius: rho is Q's largest eigenvalue, real and positive; see
//! J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, 1960, chapter 3). rho is computed one
//! strongly connected component at a time and proved between two bounds
//! (`crate::analysis::spectral`); the digits shown are those both bounds round to, and the
//! estimate only says how many turns a tail needs, never an exact answer.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::analysis::expectation::{exact_mean, exact_mean_on, expect_chain_with, Expectation};
use crate::analysis::moments::{exact_solve_seconds, SECONDS_LIMIT};
use crate::analysis::spectral::{spectral_bounds_of, spectral_estimate_of, Radius, TransientQ};
use crate::analysis::tail_law::{TailLaw, TailLawStart};
use crate::board::{Board, Square};
use crate::chain::{on_player_chain, Chain, ChainState, LinkedChain, Memory, RollLevel, Trap};
use crate::exact::certified::MergedRows;
use crate::exact::step::{IntegerChain, Stepper};
use crate::game::OnSquare;
use crate::num::decimal::to_f64;
use crate::num::interval::Interval;

/// The default tail: stop once P(T > n) < 10^-12.
pub fn default_tail() -> BigRational {
    BigRational::new(BigInt::one(), BigInt::from(10u64.pow(12)))
}

/// The quantile levels reported: median, 90 %, 99 % and 99.9 %.
pub fn quantile_levels() -> Vec<BigRational> {
    [(1, 2), (9, 10), (99, 100), (999, 1000)]
        .iter()
        .map(|&(n, d)| BigRational::new(BigInt::from(n), BigInt::from(d)))
        .collect()
}

/// When a game can go on forever, this many turns are computed unless `--turns` says otherwise
/// (the tail then tends to P(the game never ends) > 0, so it may never fall below the threshold).
pub const TRAP_DEFAULT_TURNS: usize = 100;

/// The largest amount of work (limb multiply-adds, estimated from the decay rate) a distribution
/// may take before it is refused with a message; under a minute on one core.
pub const WORK_LIMIT: f64 = 3e10;

/// Where to stop: [`DistributionOptions::default`] (until P(T > n) < 10^-12),
/// [`DistributionOptions::turns`] or [`DistributionOptions::tail`]; the fields can be set one
/// by one on a value.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DistributionOptions {
    /// Compute exactly this many turns (ignores `tail`).
    pub turns: Option<usize>,
    /// Otherwise stop at the first n with P(T > n) < tail (and n >= `min_turns`).
    pub tail: BigRational,
    /// Compute at least this many turns.
    pub min_turns: usize,
}

impl DistributionOptions {
    /// Exactly the first `n` turns.
    pub fn turns(n: usize) -> DistributionOptions {
        DistributionOptions {
            turns: Some(n),
            ..DistributionOptions::default()
        }
    }

    /// Until the first n with P(T > n) < `tail`.
    pub fn tail(tail: BigRational) -> DistributionOptions {
        DistributionOptions {
            tail,
            ..DistributionOptions::default()
        }
    }
}

impl Default for DistributionOptions {
    fn default() -> DistributionOptions {
        DistributionOptions {
            turns: None,
            tail: default_tail(),
            min_turns: 0,
        }
    }
}

/// One term of the distribution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Term {
    /// The number of turns.
    pub n: usize,
    /// P(T = n), exact.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub p: BigRational,
    /// P(T > n), exact.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub survives: BigRational,
}

impl Term {
    /// P(T <= n) = 1 - P(T > n), exact.
    pub fn cdf(&self) -> BigRational {
        // 1 - a/b = (b - a)/b is reduced when a/b is.
        BigRational::new_raw(
            self.survives.denom() - self.survives.numer(),
            self.survives.denom().clone(),
        )
    }
}

/// A quantile: the smallest n with P(T <= n) >= level.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Quantile {
    /// The level q.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub level: BigRational,
    /// The quantile, or `None` when it lies beyond the turns computed.
    pub turns: Option<usize>,
}

/// The mean of T as far as the distribution can tell.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Mean {
    /// The tail is zero: `sum n P(T = n)` over the terms is E\[T\] exactly.
    Exact(#[serde(serialize_with = "crate::num::json::exact")] BigRational),
    /// The terms' sum plus a geometric estimate of the tail's part, `P(T > N) (N + 1/(1 - rho))`.
    About(f64),
    /// The game can go on forever: the mean is infinite.
    Infinite,
}

/// The decay of the tail.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Decay {
    /// The spectral radius of Q (floating point, within `[low, high]`).
    pub rho: f64,
    /// A proved lower bound of rho.
    pub low: f64,
    /// A proved upper bound of rho.
    pub high: f64,
    /// The first n from which the computed ratio P(T > n) / P(T > n - 1) stays within 1 % of
    /// rho, if it does within the turns computed.
    pub settles_after: Option<usize>,
}

impl Decay {
    /// A sentence a person understands for the tail's decay.
    ///
    /// rho = 0.9306 settled after 60 turns reads "beyond about 60 turns, each extra turn multiplies
    /// the chance the game is still going by 0.931" (the tests below).
    pub fn sentence(&self) -> String {
        let rho = self.rho_text(3);
        match self.settles_after {
            Some(n) => format!(
                "beyond about {n} turns, each extra turn multiplies the chance the game is still going by {rho}"
            ),
            // No settled ratio: on a periodic chain P(T > n + 1) / P(T > n) oscillates, and with a
            // multiple root it tends to rho only slowly; the n-th root of P(T > n) tends to rho
            // whenever the game always ends.
            None => format!(
                "the chance the game is still going after n turns shrinks like {rho}^n in the long run (its n-th root tends to {rho}; the ratio of consecutive turns need not settle)"
            ),
        }
    }

    /// rho to the digits (at most `digits`, at least 3) that both its proved bounds round to, or
    /// the estimate marked `about` when they differ at 3 digits.
    ///
    /// Bounds 0.972291 and 0.972294 give "0.97229"; bounds 0.4 and 0.6 give "about 0.500" (the
    /// tests below).
    pub fn rho_text(&self, digits: usize) -> String {
        let proved = match (
            BigRational::from_float(self.low),
            BigRational::from_float(self.high),
        ) {
            (Some(low), Some(high)) => Interval::new(low, high)
                .agreed(digits)
                .map(|(_, text)| text),
            _ => None,
        };
        proved.unwrap_or_else(|| format!("about {:.3}", self.rho))
    }
}

/// Why the stepping stopped.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stop {
    /// `--turns N` was reached.
    Turns,
    /// P(T > N) fell below the tail threshold.
    Tail,
    /// The game can go on forever and `TRAP_DEFAULT_TURNS` turns were computed.
    TrapLimit,
}

/// The exact distribution of T over the turns computed, and what it says.
#[derive(Clone, Debug, serde::Serialize)]
#[non_exhaustive]
pub struct Distribution<S = Square> {
    /// P(T = n) and P(T > n) for n = 1..=N.
    pub terms: Vec<Term>,
    /// True when the game starts on the finish (T = 0).
    pub starts_finished: bool,
    /// Why the stepping stopped.
    pub stop: Stop,
    /// The threshold used for the tail (when `stop` is [`Stop::Tail`]).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub tail_threshold: BigRational,
    /// Median, 90 %, 99 %, 99.9 %.
    pub quantiles: Vec<Quantile>,
    /// The most likely n, when it is certain from the terms computed (its probability exceeds
    /// the whole tail).
    pub mode: Option<usize>,
    /// The mean.
    pub mean: Mean,
    /// The tail's decay rate, when Q is small enough for a dense eigenvalue solve or the power
    /// method converges.
    pub decay: Option<Decay>,
    /// `P(T > n) = C rho^n` within a proved error from some n0 on, when the law of the
    /// position settles (`crate::analysis::tail_law`).
    pub tail_law: Option<TailLaw>,
    /// A state the game can be stuck in forever, if any.
    pub trap: Option<Trap<S>>,
}

impl<S> Distribution<S> {
    /// The same distribution with the trap's states mapped by `f`.
    pub fn map_states<T>(self, f: impl Fn(S) -> T) -> Distribution<T> {
        Distribution {
            terms: self.terms,
            starts_finished: self.starts_finished,
            stop: self.stop,
            tail_threshold: self.tail_threshold,
            quantiles: self.quantiles,
            mode: self.mode,
            mean: self.mean,
            decay: self.decay,
            tail_law: self.tail_law,
            trap: self.trap.map(|t| t.map(f)),
        }
    }

    /// N, the last n computed.
    pub fn turns(&self) -> usize {
        self.terms.len()
    }

    /// P(T > N), exact.
    pub fn tail(&self) -> BigRational {
        match self.terms.last() {
            Some(t) => t.survives.clone(),
            None if self.starts_finished => BigRational::zero(),
            None => BigRational::one(),
        }
    }

    /// P(T <= n), exact, if n is within the turns computed.
    pub fn within(&self, n: usize) -> Option<BigRational> {
        if n == 0 {
            return Some(if self.starts_finished {
                BigRational::one()
            } else {
                BigRational::zero()
            });
        }
        self.terms.get(n - 1).map(Term::cdf)
    }

    /// The first n with P(T = n) > 0 among the terms computed.
    pub fn first_possible(&self) -> Option<usize> {
        if self.starts_finished {
            return Some(0);
        }
        self.terms.iter().find(|t| !t.p.is_zero()).map(|t| t.n)
    }
}

/// The distribution would take too long to compute exactly.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the exact distribution would need about {turns:.0} turns over {states} states (the tail \
     decays by {rho:.6} a turn): too slow"
)]
pub struct TooMuchWork {
    /// Estimated turns.
    pub turns: f64,
    /// Transient states.
    pub states: usize,
    /// The decay rate.
    pub rho: f64,
    /// The estimated work, in limb multiply-adds (the limit is `WORK_LIMIT`).
    pub work: f64,
}

/// Above this a float decay rate is not trusted to say how slowly the tail decays: 1 - rho is
/// then near the rounding error of rho (on a board won with probability 2^-51 a game, rho
/// rounds to exactly 1), and the turns needed come from the exact moments instead.
pub const RHO_TRUSTED_BELOW: f64 = 1.0 - crate::prec::RHO_MARGIN;

/// The turns n after which `P(T > n)` falls below `tail`: `ln(tail) / ln(rho)` from the decay
/// rate; when rho is too near 1 to trust ([`RHO_TRUSTED_BELOW`]), the certified lower bound
/// `E[T] / 2` of Paley-Zygmund (`P(T > E/2) >= E^2 / (4 E[T^2])`, exact moments) when that bound
/// is above `tail` and the moments' solve is estimated within [`SECONDS_LIMIT`]. `None` when the game cannot end or has no transient state.
pub fn turns_for_tail<S: ChainState>(
    chain: &Chain<S>,
    rho: Option<f64>,
    tail: &BigRational,
) -> Option<f64> {
    let rho = rho.filter(|&r| r > 0.0)?;
    let from_rho = ln_rational(tail) / rho.min(RHO_TRUSTED_BELOW).ln();
    // The exact moments only when their solve is estimated short (on a chain of long rows, as
    // chance squares past the roll-level form give, it can take hours).
    if rho < RHO_TRUSTED_BELOW || exact_solve_seconds(chain) > SECONDS_LIMIT {
        return Some(from_rho);
    }
    let Expectation::Finite(e) = expect_chain_with(chain, false) else {
        return None;
    };
    let second = &e.variance + &e.turns * &e.turns;
    let four = BigRational::from_integer(BigInt::from(4));
    let certified = (!second.is_zero() && &e.turns * &e.turns / (second * four) >= *tail)
        .then(|| to_f64(&e.turns) / 2.0);
    Some(certified.map_or(from_rho, |c| c.max(from_rho)))
}

/// The exact stepping's work for `turns` turns, in limb multiply-adds: numbers of about
/// `n * bits(D) / 2` bits after the common factors cancel, each multiplied by a coefficient of
/// `bits(D) / 64` limbs (one limb on most boards; hundreds of bits on boards whose top throws
/// roll again for many squares in a row, where D is the die's faces to the run's length).
pub fn stepping_work(ic: &IntegerChain, turns: f64) -> f64 {
    let bits = ic.denominator().bits() as f64;
    let coefficient_limbs = (bits / 64.0).ceil().max(1.0);
    ic.transitions() as f64 * turns * turns * (bits / 2.0 / 64.0 + 1.0) / 2.0 * coefficient_limbs
}

/// `ln(x)` of a positive fraction, without underflow (`1e-1000` is not 0); `-inf` for 0.
pub fn ln_rational(x: &BigRational) -> f64 {
    let ln_big = |v: &BigInt| {
        let shift = v.bits().saturating_sub(60);
        to_f64(&BigRational::from_integer(v >> shift)).ln() + shift as f64 * std::f64::consts::LN_2
    };
    if x.numer().is_zero() {
        return f64::NEG_INFINITY;
    }
    ln_big(x.numer()) - ln_big(x.denom())
}

/// Computes the exact distribution of T from a single-board chain.
///
/// # Errors
///
/// [`TooMuchWork`] when the turns asked for, or the turns the tail needs to fall below the
/// threshold (estimated from rho), on so large a chain, would take the exact stepping more than
/// about a minute (`WORK_LIMIT`).
///
/// # Examples
///
/// ```
/// use ladders::internals::distribution;
/// use ladders::analysis::DistributionOptions;
/// use ladders::board::builtin;
/// use ladders::internals::Chain;
/// use num_rational::BigRational;
/// // boards/tiny.toml: P(T = n) = (n - 1) / 2^n.
/// let tiny = builtin("tiny").unwrap();
/// let options = DistributionOptions::turns(3);
/// let d = distribution(&Chain::for_board(&tiny), &options).unwrap();
/// assert_eq!(d.terms[2].p, BigRational::new(2.into(), 8.into()));
/// ```
pub fn distribution<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
) -> Result<Distribution<S>, TooMuchWork> {
    let ic = IntegerChain::new(chain);
    let plan = plan(chain, options, |turns| stepping_work(&ic, turns))?;
    let mut stepper = ic.stepper();
    let next = || next_term(&mut stepper);
    Ok(stepped(options, plan, next, |plan, tails| {
        let (tail_law, settled) = plan.tail_law(chain);
        let rho = plan.radius(chain, settled.as_deref());
        (tail_law, decay_of(rho, tails))
    }))
}

/// The terms stepped until the stop rule says so (`next` steps one turn and gives its term),
/// their quantiles, mode and mean; `tail` gives the proved tail law and the decay from the
/// plan and the terms' float tails.
fn stepped<S>(
    options: &DistributionOptions,
    plan: Plan<S>,
    mut next: impl FnMut() -> Term,
    tail: impl FnOnce(&Plan<S>, &[f64]) -> (Option<TailLaw>, Option<Decay>),
) -> Distribution<S> {
    let mut terms: Vec<Term> = Vec::new();
    let stage =
        crate::progress::Stage::begin("stepping the distribution", options.turns.map(|n| n as u64));
    let stop = loop {
        stage.advance(terms.len() as u64);
        let last = terms
            .last()
            .map(|t| t.survives < options.tail || t.survives.is_zero());
        if let Some(stop) = stop_rule(options, &plan, terms.len(), last) {
            break stop;
        }
        terms.push(next());
    };
    drop(stage);
    let survives: Vec<&BigRational> = terms.iter().map(|t| &t.survives).collect();
    let quantiles = quantiles_of(&survives, plan.starts_finished).expect("exact values decide");
    let p: Vec<&BigRational> = terms.iter().map(|t| &t.p).collect();
    let mode = mode_of(&p, survives.last(), &plan).expect("exact values decide");
    let tails: Vec<f64> = survives.iter().map(|s| to_f64(s)).collect();
    let (tail_law, decay) = tail(&plan, &tails);
    let mut dist = Distribution {
        terms,
        starts_finished: plan.starts_finished,
        stop,
        tail_threshold: options.tail.clone(),
        quantiles,
        mode,
        mean: Mean::Infinite,
        decay,
        tail_law,
        trap: plan.trap,
    };
    dist.mean = mean(&dist, &tails);
    dist
}

/// The distribution of T on any board, on its one-player chain (on a board that changes during
/// a game, the chain without the eaten apples: the same law of T on fewer states), the trap
/// projected to its square. The mean is always exact: when the terms computed leave a tail, it
/// is E\[T\] from the exact expectation solve rather than an estimate of the tail's part.
///
/// # Errors
///
/// See [`distribution`].
pub fn board_distribution(
    board: &Board,
    options: &DistributionOptions,
) -> Result<Distribution<Square>, TooMuchWork> {
    if let Some(dist) = super::distribution::linked_distribution(board, options) {
        // Past the whole turns' limit, on the links form; the mean from the roll-level form.
        let mut dist = dist?;
        exact_mean(board, &mut dist.mean);
        return Ok(dist);
    }
    let mut dist = on_player_chain!(board, Memory::Turns, |_, chain| {
        let mut dist = distribution(chain, options)?;
        if !RollLevel::applies(board) {
            // Solved on the chain the law was stepped on, not on one built again.
            exact_mean_on(board, Some(chain), &mut dist.mean);
        }
        dist.map_states(|s| s.square())
    });
    if RollLevel::applies(board) {
        // Solved on the roll-level form, once the chain the law was stepped on is gone.
        exact_mean(board, &mut dist.mean);
    }
    Ok(dist)
}

/// The law of T on `board`'s turn chain held as links ([`LinkedChain`]), to the turns
/// `options` asks for: the route past the whole turns' memory limit
/// ([`crate::chain::check_fits`]) on a board under unlimited roll-again. `None` when that
/// route does not apply: the whole turns fit, no number of turns is asked for (the turns a
/// tail needs come from the decay rate, which this route does not prove), the board has no
/// links form, or its game may not end. The terms are exact (the stepping of
/// [`IntegerChain::of_links`]); no decay rate or tail law is given.
///
/// # Errors
///
/// [`TooMuchWork`] when the turns asked for would take the stepping more than about 10 s
/// (`LINKED_WORK_LIMIT`; [`linked_fits`] says so before).
pub fn linked_distribution(
    board: &Board,
    options: &DistributionOptions,
) -> Option<Result<Distribution<Square>, TooMuchWork>> {
    let (chain, law, turns) = linked_route(board, options)?;
    Some(linked_law(&chain, &law, options, turns))
}

/// Whether [`linked_distribution`] applies and its stepping is within `LINKED_WORK_LIMIT`.
pub fn linked_fits(board: &Board, options: &DistributionOptions) -> bool {
    linked_route(board, options)
        .is_some_and(|(_, law, turns)| linked_work(&law, turns as f64) <= LINKED_WORK_LIMIT)
}

/// The links route's budget in [`WORK_LIMIT`]'s units: two thirds of it, so that the route
/// past the whole turns' limit answers within about 10 s of CPU (gen-10000-again: 47 turns
/// at the full limit took 15 s) and refuses beyond.
const LINKED_WORK_LIMIT: f64 = WORK_LIMIT * 2.0 / 3.0;

/// The links form, its stepping and the turns asked for, when [`linked_distribution`]'s
/// route applies.
fn linked_route(
    board: &Board,
    options: &DistributionOptions,
) -> Option<(LinkedChain<Square>, IntegerChain, usize)> {
    let turns = options.turns?;
    if crate::chain::check_fits(board).is_ok() {
        return None;
    }
    let chain = LinkedChain::for_board(board).filter(LinkedChain::always_ends)?;
    let law = IntegerChain::of_links(&chain)?;
    Some((chain, law, turns))
}

/// The links route's work in the exact stepping's units ([`WORK_LIMIT`]): an entry's limb
/// product there costs about 18 of the whole turns' multiply-adds (the sums Y take `d^A`,
/// about 1,500 bits, in every state; measured on gen-10000-again: 20 turns 3.1 s, 38 turns
/// 9 s).
fn linked_work(law: &IntegerChain, turns: f64) -> f64 {
    18.0 * law.uncancelled_work(turns)
}

/// [`linked_distribution`] once the route is taken.
fn linked_law(
    chain: &LinkedChain<Square>,
    law: &IntegerChain,
    options: &DistributionOptions,
    turns: usize,
) -> Result<Distribution<Square>, TooMuchWork> {
    let work = linked_work(law, turns as f64);
    if work > LINKED_WORK_LIMIT {
        return Err(TooMuchWork {
            turns: turns as f64,
            states: chain.transient_count(),
            rho: f64::NAN,
            work,
        });
    }
    let plan: Plan<Square> = Plan {
        trap: None,
        q: None,
        tail_law_start: None,
        starts_finished: chain.start() >= chain.transient_count(),
        finish_bound: chain.one_turn_finish_bound(),
    };
    let mut stepper = law.stepper();
    let next = || next_term(&mut stepper);
    Ok(stepped(options, plan, next, |_, _| (None, None)))
}

/// The next turn's term of an exact stepping (on the whole turns or on the links alike).
fn next_term(stepper: &mut Stepper<'_>) -> Term {
    stepper.step();
    Term {
        n: stepper.turn(),
        p: stepper.p_ends_now(),
        survives: stepper.p_survives(),
    }
}

/// What a stepping needs to know before it starts (shared by the exact and the certified
/// steppings).
pub(crate) struct Plan<S> {
    /// A state the game can be stuck in forever.
    pub trap: Option<Trap<S>>,
    /// Q, read once, when the tail law's start does not hold it ([`Plan::q`]).
    q: Option<TransientQ>,
    /// What the proved tail law needs before a stepping finds the turn at which the law of the
    /// position settles ([`Plan::tail_law`]).
    pub tail_law_start: Option<TailLawStart>,
    /// The game starts on the finish.
    pub starts_finished: bool,
    /// The largest chance, over the transient states, of finishing within one turn.
    pub finish_bound: BigRational,
}

impl<S: ChainState> Plan<S> {
    /// Q, read once: the spectral radius is proved from it after the stepping
    /// ([`Plan::radius`]), when the law of the position at the tail law's turn can start its
    /// power method.
    fn q(&self) -> &TransientQ {
        match (&self.tail_law_start, &self.q) {
            (Some(start), _) => start.q(),
            (None, Some(q)) => q,
            (None, None) => unreachable!("Q is read before `drop_q`"),
        }
    }

    /// Frees Q and the tail law's start (which holds it) once the stepping and [`Plan::radius`]
    /// are done with them; neither that nor [`Plan::tail_law`] may be called after.
    pub(crate) fn drop_q(&mut self) {
        self.q = None;
        self.tail_law_start = None;
    }

    /// The spectral radius of Q with its proved bounds, the power method started from `settled`
    /// (the law of the position at the turn the tail law settled, when the stepping found one:
    /// near the Perron vector, it settles in a few iterations) or from the uniform vector.
    pub fn radius(&self, chain: &Chain<S>, settled: Option<&[f64]>) -> Option<Radius> {
        let stage = crate::progress::Stage::begin("the tail's decay rate", None);
        let rho = spectral_bounds_of(chain, self.q(), settled);
        drop(stage);
        rho
    }

    /// The proved tail law, by a certified stepping of its own (the certified distribution
    /// finds it as it steps, `analysis/shown.rs`), and the law of the position at its turn.
    pub fn tail_law(&self, chain: &Chain<S>) -> (Option<TailLaw>, Option<Vec<f64>>) {
        match &self.tail_law_start {
            Some(start) => start.finish_by_stepping(chain),
            None => (None, None),
        }
    }
}

/// The decay of the tail from rho and the (float) tails `P(T > n)` of the terms.
pub(crate) fn decay_of(rho: Option<Radius>, tails: &[f64]) -> Option<Decay> {
    rho.map(|r| Decay {
        rho: r.estimate,
        low: r.low,
        high: r.high,
        settles_after: settles_after(tails, r.estimate),
    })
}

/// The trap, Q, and the refusal when the turns needed would take `work(turns)` above
/// [`WORK_LIMIT`]. The turns needed come from rho's float estimate when none are asked for.
pub(crate) fn plan<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    work: impl Fn(f64) -> f64,
) -> Result<Plan<S>, TooMuchWork> {
    plan_with(chain, options, work, || TransientQ::new(chain))
}

/// [`plan`] on `chain`'s merged rows already read (the certified tiers'): Q comes from their
/// counts without reading the chain again.
pub(crate) fn plan_on_rows<S: ChainState>(
    chain: &Chain<S>,
    rows: &MergedRows,
    options: &DistributionOptions,
    work: impl Fn(f64) -> f64,
) -> Result<Plan<S>, TooMuchWork> {
    plan_with(chain, options, work, || TransientQ::from_rows(chain, rows))
}

/// [`plan`] with Q read by `read_q`.
fn plan_with<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    work: impl Fn(f64) -> f64,
    read_q: impl FnOnce() -> TransientQ,
) -> Result<Plan<S>, TooMuchWork> {
    // Shown after a second: on a large chain the decay rate's power iterations and the tail
    // law's start take seconds, with no unit of their own.
    let stage = crate::progress::Stage::begin("the tail's decay rate", None);
    let trap = chain.trap();
    let q = read_q();
    let starts_finished = chain.start() >= chain.transient_count();
    // Fail fast: estimate the turns needed (P(T > n) ~ rho^n, or the turns asked for) and the
    // work.
    let mut rho = None;
    let need = match options.turns {
        Some(n) => Some(n as f64),
        None if trap.is_none() => {
            rho = spectral_estimate_of(chain, &q);
            turns_for_tail(chain, rho, &options.tail).map(|n| n.max(options.min_turns as f64))
        }
        None => None,
    };
    if let Some(need) = need {
        if work(need) > WORK_LIMIT {
            let rho = rho.or_else(|| spectral_estimate_of(chain, &q));
            return Err(TooMuchWork {
                turns: need.round(),
                states: chain.transient_count(),
                rho: rho.unwrap_or(f64::NAN),
                work: work(need),
            });
        }
    }
    // No trap: the game always ends, as the tail law needs.
    let (tail_law_start, q) = match trap {
        None => match TailLawStart::of(chain, q) {
            Ok(start) => (Some(start), None),
            Err(q) => (None, Some(q)),
        },
        Some(_) => (None, Some(q)),
    };
    drop(stage);
    Ok(Plan {
        trap,
        q,
        tail_law_start,
        starts_finished,
        finish_bound: chain.one_turn_finish_bound(),
    })
}

/// Whether to stop before turn `n + 1`; `last_below` says whether the last term's
/// `P(T > n)` is below the tail threshold or zero (`None`: no term yet).
pub(crate) fn stop_rule<S>(
    options: &DistributionOptions,
    plan: &Plan<S>,
    n: usize,
    last_below: Option<bool>,
) -> Option<Stop> {
    if plan.starts_finished {
        return Some(Stop::Tail);
    }
    if let Some(limit) = options.turns {
        return (n >= limit).then_some(Stop::Turns);
    }
    if n < options.min_turns {
        return None;
    }
    match last_below? {
        true => Some(Stop::Tail),
        false if plan.trap.is_some() && n >= TRAP_DEFAULT_TURNS.max(options.min_turns) => {
            Some(Stop::TrapLimit)
        }
        false => None,
    }
}

/// A probability known exactly or within certified bounds: what the summary's decisions need.
pub(crate) trait Known {
    /// How the value compares with `r`, when known.
    fn cmp_rational(&self, r: &BigRational) -> Option<Ordering>;
    /// How the value compares with another, when known.
    fn cmp_known(&self, other: &Self) -> Option<Ordering>;
    /// How the value compares with `r` times another (`r >= 0`), when known.
    fn cmp_scaled(&self, other: &Self, r: &BigRational) -> Option<Ordering>;
}

/// Terms read in place, whether held (`&[Value]`) or pointed at (`&[&BigRational]`).
impl<K: Known> Known for &K {
    fn cmp_rational(&self, r: &BigRational) -> Option<Ordering> {
        (**self).cmp_rational(r)
    }
    fn cmp_known(&self, other: &Self) -> Option<Ordering> {
        (**self).cmp_known(*other)
    }
    fn cmp_scaled(&self, other: &Self, r: &BigRational) -> Option<Ordering> {
        (**self).cmp_scaled(*other, r)
    }
}

impl Known for BigRational {
    fn cmp_rational(&self, r: &BigRational) -> Option<Ordering> {
        Some(self.cmp(r))
    }
    fn cmp_known(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    fn cmp_scaled(&self, other: &Self, r: &BigRational) -> Option<Ordering> {
        Some(self.cmp(&(r * other)))
    }
}

/// The quantiles from the terms' `P(T > n)`: the q-quantile is the first n with
/// `P(T > n) <= 1 - q`. `Err` lists the terms whose value must be known better to decide.
pub(crate) fn quantiles_of<K: Known>(
    survives: &[K],
    starts_finished: bool,
) -> Result<Vec<Quantile>, Vec<usize>> {
    let mut undecided = Vec::new();
    let quantiles = quantile_levels()
        .into_iter()
        .map(|level| {
            let left = BigRational::one() - &level;
            let turns = if starts_finished {
                Some(0)
            } else {
                survives
                    .iter()
                    .enumerate()
                    .find_map(|(i, s)| match s.cmp_rational(&left) {
                        Some(Ordering::Greater) => None,
                        Some(_) => Some(i + 1),
                        None => {
                            undecided.push(i);
                            None
                        }
                    })
            };
            Quantile { level, turns }
        })
        .collect();
    if undecided.is_empty() {
        Ok(quantiles)
    } else {
        Err(undecided)
    }
}

/// The most likely n (ties to the smaller), when it is certain. `Err` lists the terms whose
/// value must be known better to decide.
pub(crate) fn mode_of<K: Known, S>(
    p: &[K],
    tail: Option<&K>,
    plan: &Plan<S>,
) -> Result<Option<usize>, Vec<usize>> {
    if plan.starts_finished {
        return Ok(Some(0));
    }
    let Some(mut best) = (!p.is_empty()).then_some(0) else {
        return Ok(None);
    };
    let mut undecided = Vec::new();
    for i in 1..p.len() {
        match p[best].cmp_known(&p[i]) {
            Some(Ordering::Less) => best = i,
            Some(_) => {}
            None => undecided.extend([best, i]),
        }
    }
    // Certain when no later n can beat it: for m > N, P(T = m) <= r P(T > m - 1) <= r P(T > N),
    // r the largest chance of finishing in one turn from any state. A later tie does not move
    // the mode, which is the smallest most likely n.
    let positive = p[best].cmp_rational(&BigRational::zero());
    let beats = tail.map_or(Some(Ordering::Greater), |t| {
        p[best].cmp_scaled(t, &plan.finish_bound)
    });
    match (positive, beats) {
        (Some(pos), Some(beats)) if undecided.is_empty() => {
            Ok((pos == Ordering::Greater && beats != Ordering::Less).then_some(best + 1))
        }
        (Some(_), Some(_)) => Err(undecided),
        _ => {
            undecided.extend([best, p.len() - 1]);
            Err(undecided)
        }
    }
}

/// The mean from the terms' float tails `P(T > n)` (`Mean::Exact` needs the exact terms: only
/// [`distribution`] gives it).
fn mean<S>(dist: &Distribution<S>, tails: &[f64]) -> Mean {
    if dist.trap.is_some() {
        return Mean::Infinite;
    }
    let tail = dist.tail();
    if tail.is_zero() {
        let sum = dist
            .terms
            .iter()
            .filter(|t| !t.p.is_zero())
            .fold(BigRational::zero(), |acc, t| {
                acc + &t.p * BigRational::from_integer(BigInt::from(t.n))
            });
        return Mean::Exact(sum);
    }
    mean_about(tails, dist.decay)
}

/// `E[T] = sum_(n >= 0) P(T > n)`: the terms' float tails, then the geometric tail.
pub(crate) fn mean_about(tails: &[f64], decay: Option<Decay>) -> Mean {
    let Some((&last, before)) = tails.split_last() else {
        return Mean::About(1.0);
    };
    let sum = before.iter().fold(1.0, |acc, x| acc + x); // P(T > 0) = 1, in order
    let rest = match decay {
        Some(d) if d.rho < 1.0 => last / (1.0 - d.rho),
        _ => last,
    };
    Mean::About(sum + rest)
}

fn settles_after(tails: &[f64], rho: f64) -> Option<usize> {
    let mut settled = None;
    for n in 1..tails.len() {
        let ok = tails[n - 1] > 0.0 && ((tails[n] / tails[n - 1]) / rho - 1.0).abs() < 0.01;
        match (ok, settled) {
            (true, None) => settled = Some(n + 1),
            (false, _) => settled = None,
            _ => {}
        }
    }
    settled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::expectation::{expect_chain, Expectation};
    use crate::board::builtin;
    use crate::test_util::{board, q};

    /// The links route ([`linked_law`]) gives the whole turns' terms, quantiles, mode and stop
    /// on boards both answer (efi to 300 turns, where its median and quantiles fall; the
    /// 1,000-square board whose sixes roll again to 6 turns), without a decay rate.
    #[test]
    fn the_links_route_gives_the_whole_turns_law() {
        let path = format!(
            "{}/benches/boards/gen-1000-again.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let gen = Board::from_toml_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
        for (b, turns) in [(builtin("efi").unwrap(), 300), (gen, 6)] {
            let options = DistributionOptions::turns(turns);
            let chain = LinkedChain::for_board(&b).unwrap();
            let law = IntegerChain::of_links(&chain).unwrap();
            let linked = linked_law(&chain, &law, &options, turns).unwrap();
            let whole = distribution(&Chain::for_board(&b), &options).unwrap();
            assert_eq!(linked.terms, whole.terms, "{}", b.name());
            assert_eq!(linked.quantiles, whole.quantiles, "{}", b.name());
            assert_eq!(linked.mode, whole.mode, "{}", b.name());
            assert_eq!(linked.stop, whole.stop, "{}", b.name());
            assert_eq!(linked.starts_finished, whole.starts_finished);
            assert!(linked.decay.is_none() && linked.tail_law.is_none());
        }
    }

    #[test]
    fn the_tiny_board_matches_the_hand_derivation() {
        // boards/tiny.toml: P(T = n) = (n - 1) / 2^n, P(T > n) = (n + 1) / 2^n.
        // Median: P(T <= 3) = 1 - 4/8 = 1/2 >= 1/2, P(T <= 2) = 1/4: median 3.
        // 90 %: P(T > n) <= 1/10 first at n = 7 (8/128 = 1/16; n = 6: 7/64 > 1/10).
        // Mode: P(T = 2) = P(T = 3) = 1/4 (ties go to the smaller n).
        // rho: Q = [[1/2, 1/2], [0, 1/2]], a double eigenvalue 1/2.
        let d = distribution(
            &Chain::for_board(&builtin("tiny").unwrap()),
            &DistributionOptions::default(),
        )
        .unwrap();
        for t in &d.terms {
            let n = t.n as i64;
            let two_n = BigInt::from(2).pow(t.n as u32);
            assert_eq!(t.p, BigRational::new((n - 1).into(), two_n.clone()));
            assert_eq!(t.survives, BigRational::new((n + 1).into(), two_n));
        }
        assert_eq!(d.stop, Stop::Tail);
        // The first n with (n + 1) / 2^n < 10^-12 is 46 (47 / 2^46 = 6.7e-13; 46 / 2^45 = 1.3e-12).
        assert_eq!(d.turns(), 46);
        let qs: Vec<Option<usize>> = d.quantiles.iter().map(|q| q.turns).collect();
        assert_eq!(qs, vec![Some(3), Some(7), Some(11), Some(14)]);
        assert_eq!(d.mode, Some(2));
        let rho = d.decay.unwrap().rho;
        assert!((rho - 0.5).abs() < 1e-6, "rho = {rho}");
        assert_eq!(d.within(3), Some(q(1, 2)));
    }

    #[test]
    fn probabilities_and_the_tail_sum_to_one_exactly() {
        for name in ["milton-bradley", "efi"] {
            let chain = Chain::for_board(&builtin(name).unwrap());
            let options = DistributionOptions {
                turns: Some(40),
                ..DistributionOptions::default()
            };
            let d = distribution(&chain, &options).unwrap();
            let total: BigRational = d.terms.iter().map(|t| t.p.clone()).sum();
            assert_eq!(total + d.tail(), BigRational::one(), "{name}");
            for t in &d.terms {
                assert_eq!(t.cdf() + &t.survives, BigRational::one());
            }
        }
    }

    #[test]
    fn the_mean_of_a_bounded_game_equals_the_exact_expected_turns() {
        // No snakes and overshoot allow: every turn moves forward, so T <= 30 and the tail is
        // exactly zero; sum n P(T = n) must equal the solver's E[T] exactly.
        let b = board(
            "size = 30\nladders = [[3, 12], [14, 22]]\n[rules]\novershoot = \"allow\"\nroll_again = \"unlimited\"\n",
        );
        let chain = Chain::for_board(&b);
        let options = DistributionOptions {
            turns: Some(31),
            ..DistributionOptions::default()
        };
        let d = distribution(&chain, &options).unwrap();
        assert!(d.tail().is_zero());
        let Expectation::Finite(e) = expect_chain(&chain) else {
            panic!("finite")
        };
        assert_eq!(d.mean, Mean::Exact(e.turns));
    }

    #[test]
    fn a_game_that_can_last_forever_stops_at_the_trap_limit() {
        // Worked by hand: size 6, die 2, snakes 4 -> 2 and 5 -> 2: 6 is never reached.
        let b = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        let d = distribution(&Chain::for_board(&b), &DistributionOptions::default()).unwrap();
        assert_eq!(d.stop, Stop::TrapLimit);
        assert_eq!(d.turns(), TRAP_DEFAULT_TURNS);
        assert_eq!(d.tail(), BigRational::one());
        assert_eq!(d.mean, Mean::Infinite);
        assert!(d.trap.is_some());
        assert_eq!(d.quantiles[0].turns, None);
        assert_eq!(d.mode, None);
    }

    #[test]
    fn milton_bradley_starts_at_seven_turns() {
        // Seed 001: the shortest game is 7 turns, so P(T = n) = 0 for n < 7 and > 0 at 7.
        let chain = Chain::for_board(&builtin("milton-bradley").unwrap());
        let d = distribution(
            &chain,
            &DistributionOptions {
                turns: Some(10),
                ..DistributionOptions::default()
            },
        )
        .unwrap();
        assert_eq!(d.first_possible(), Some(7));
        assert_eq!(d.stop, Stop::Turns);
    }

    #[test]
    fn a_settled_decay_is_told_per_extra_turn() {
        let d = Decay {
            rho: 0.9306,
            low: 0.93059,
            high: 0.93061,
            settles_after: Some(60),
        };
        assert_eq!(
            d.sentence(),
            "beyond about 60 turns, each extra turn multiplies the chance the game is still going by 0.931"
        );
    }

    #[test]
    fn rho_shows_the_digits_its_bounds_prove_or_about() {
        let d = Decay {
            rho: 0.97229,
            low: 0.972291,
            high: 0.972294,
            settles_after: None,
        };
        assert_eq!(d.rho_text(6), "0.97229");
        let wide = Decay {
            rho: 0.5,
            low: 0.4,
            high: 0.6,
            settles_after: None,
        };
        assert_eq!(wide.rho_text(6), "about 0.500");
    }
}
