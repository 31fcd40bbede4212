//! The distribution of T as it is shown: every number a correctly rounded decimal (or, with
//! `--exact`, a fraction), computed without fractions when only decimals are asked for.
//!
//! # How the decimals are decided
//!
//! [`certified_distribution_for`] steps the law in tiers, each only where the one before cannot
//! decide (`shown/tiers.rs` runs them):
//!
//! 1. the `u128` tier (`exact::certified`): bounds 2^-80 or less apart relative to the value,
//!    from turn 0 to the turn m at which the law of the position settles, watched as it goes
//!    (the proved tail law is finished from its position there, `analysis/tail_law.rs`);
//! 2. after m, the tail law's two geometric bounds (`exact::certified::geometric`: two
//!    multiplications a turn, no stepping), or, when there is no law to look for (a game that
//!    may not end) or those bounds give out, the float tier (`exact::certified::float`: plain
//!    `f64` with one proved relative error bound for the whole vector), from the `u128` tier's
//!    position at m, or from the start;
//! 3. the `u128` tier again, from where it stopped, for the terms the others leave undecided;
//! 4. the exact integer stepping ([`crate::exact::step`]), as far as the last term still
//!    undecided.
//!
//! A printed decimal, a quantile, the mode, the stop at the tail threshold, the chart's `f64`s,
//! the decay's settling turn and the approximate mean are each decided from the bounds when
//! they agree on it (`shown/floats.rs` for the last two). The result is the same, as the reports
//! show it, as rounding the exact fractions ([`ShownDistribution::from_exact`]): the tests hold
//! it to that on every built-in board, on random boards, on boards built to put terms on
//! rounding boundaries, and on one where the float tier gives up.

use std::cell::OnceCell;
use std::cmp::Ordering;
use std::io::Write;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::distribution::{
    distribution, mode_of, plan_on_rows, quantiles_of, stepping_work, Decay, Distribution,
    DistributionOptions, Known, Mean, Plan, Quantile, Stop, TooMuchWork, WORK_LIMIT,
};
use super::expectation::exact_mean_on;
use super::spectral::Radius;
use super::tail_law::{TailLaw, TailLawStart};
use crate::board::{Board, Square};
use crate::chain::{on_player_chain, Chain, ChainState, Memory, RollLevel, Trap};
use crate::exact::certified::{Bounds, CertifiedChain, FloatChain, MergedRows};
use crate::exact::step::IntegerChain;
use crate::game::OnSquare;
use crate::num::decimal::{probability, push_probability_cells, to_f64};

mod floats;
mod tiers;
use tiers::{float_first, law_first, too_wide, Stepped};
#[cfg(test)]
use tiers::{step_on, GiveUp};
mod rows;
use rows::Rows;
pub use rows::ShownTerm;

/// The distribution of T as a report shows it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ShownDistribution<S = Square> {
    /// The rows, n = 1..=N.
    pub terms: Vec<ShownTerm>,
    /// The digits of the decimals.
    pub digits: usize,
    /// True when the game starts on the finish (T = 0).
    pub starts_finished: bool,
    /// Why the stepping stopped.
    pub stop: Stop,
    /// The tail threshold.
    pub tail_threshold: BigRational,
    /// P(T > N) as the table shows a probability.
    pub tail: String,
    /// Median, 90 %, 99 %, 99.9 %.
    pub quantiles: Vec<Quantile>,
    /// The most likely n when certain, with P(T = n) as the table shows it when n >= 1.
    pub mode: Option<(usize, Option<String>)>,
    /// Every term computed is 0.
    pub all_zero: bool,
    /// The mean. [`Mean::About`] is the exact distribution's float when every tail's nearest
    /// `f64` is known; else a float proved so close to it that the three decimals the report
    /// prints are the same (`analysis/shown/floats.rs`).
    pub mean: Mean,
    /// The tail's decay rate.
    pub decay: Option<Decay>,
    /// The proved tail law, when there is one.
    pub tail_law: Option<TailLaw>,
    /// A state the game can be stuck in forever, if any.
    pub trap: Option<Trap<S>>,
}

impl<S> ShownDistribution<S> {
    /// N, the last n computed.
    pub fn turns(&self) -> usize {
        self.terms.len()
    }

    /// The same distribution with the trap's states mapped by `f`.
    pub fn map_states<T>(self, f: impl Fn(S) -> T) -> ShownDistribution<T> {
        ShownDistribution {
            terms: self.terms,
            digits: self.digits,
            starts_finished: self.starts_finished,
            stop: self.stop,
            tail_threshold: self.tail_threshold,
            tail: self.tail,
            quantiles: self.quantiles,
            mode: self.mode,
            all_zero: self.all_zero,
            mean: self.mean,
            decay: self.decay,
            tail_law: self.tail_law,
            trap: self.trap.map(|t| t.map(f)),
        }
    }

    /// The exact distribution rounded to `digits` decimals, or its fractions in the rows with
    /// `fractions`.
    pub fn from_exact(dist: Distribution<S>, digits: usize, fractions: bool) -> Self {
        let mut rows = Rows::with_capacity(dist.terms.len(), 0);
        for t in &dist.terms {
            let cells = |column: usize, text: &mut Vec<u8>| {
                let cdf;
                let r = match column {
                    0 => &t.p,
                    1 => {
                        cdf = t.cdf();
                        &cdf
                    }
                    _ => &t.survives,
                };
                Some(match fractions {
                    true => {
                        write!(text, "{r}").expect("a Vec takes any text");
                        text.len()
                    }
                    false => push_probability_cells(text, r, digits),
                })
            };
            let pushed = rows.push(t.n, to_f64(&t.p), cells);
            assert!(pushed, "exact cells");
        }
        let terms = rows.done();
        let tail = dist.tail();
        let all_zero = dist.terms.iter().all(|t| t.p.is_zero());
        let mode = dist.mode.map(|m| {
            let p = dist.terms.get(m.wrapping_sub(1));
            (m, p.map(|t| probability(&t.p, digits)))
        });
        ShownDistribution {
            terms,
            digits,
            starts_finished: dist.starts_finished,
            stop: dist.stop,
            tail_threshold: dist.tail_threshold,
            tail: probability(&tail, digits),
            all_zero,
            quantiles: dist.quantiles,
            mode,
            mean: dist.mean,
            decay: dist.decay,
            tail_law: dist.tail_law,
            trap: dist.trap,
        }
    }
}

/// A probability known within certified bounds, or exactly: a term of the tiers, read through
/// [`Value::get`]. The bounds are the variant's own fields, not a [`Bounds`] (whose padding the
/// tag cannot use), and the rare exact value is boxed: a term takes 48 bytes, not 64.
#[derive(Clone, Debug)]
enum Value {
    Bounds { lo: u128, hi: u128, shift: u32 },
    Exact(Box<BigRational>),
}

/// A [`Value`] as it is read.
#[derive(Clone, Copy, Debug)]
enum ValueRef<'a> {
    Bounds(Bounds),
    Exact(&'a BigRational),
}

impl Value {
    fn bounds(b: Bounds) -> Value {
        let Bounds { lo, hi, shift } = b;
        Value::Bounds { lo, hi, shift }
    }

    fn exact(r: BigRational) -> Value {
        Value::Exact(Box::new(r))
    }

    fn get(&self) -> ValueRef<'_> {
        match *self {
            Value::Bounds { lo, hi, shift } => ValueRef::Bounds(Bounds { lo, hi, shift }),
            Value::Exact(ref r) => ValueRef::Exact(r),
        }
    }

    /// The value (or 1 minus it, with `complement`) as a CSV cell (a plain decimal) and, when
    /// it differs, as the table shows a probability, written at the end of `text`; returns
    /// where the CSV cell ends, or `None` (and `text` as it was) when undecided.
    fn push_cells(&self, digits: usize, complement: bool, text: &mut Vec<u8>) -> Option<usize> {
        match (self.get(), complement) {
            (ValueRef::Bounds(b), _) => b.push_cells(digits, complement, text),
            (ValueRef::Exact(r), false) => Some(push_probability_cells(text, r, digits)),
            (ValueRef::Exact(r), true) => {
                // r is in lowest terms, and so is (d - n) / d.
                let r = BigRational::new_raw(r.denom() - r.numer(), r.denom().clone());
                Some(push_probability_cells(text, &r, digits))
            }
        }
    }

    fn to_f64(&self) -> Option<f64> {
        match self.get() {
            ValueRef::Bounds(b) => b.to_f64(),
            ValueRef::Exact(r) => Some(to_f64(r)),
        }
    }

    /// An `f64` inside the bounds (the nearest when exact).
    fn inside(&self) -> f64 {
        match self.get() {
            ValueRef::Bounds(b) => floats::inside(&b),
            ValueRef::Exact(r) => to_f64(r),
        }
    }
}

impl Value {
    /// The ends of the certified interval as fractions `(numerator, denominator)`, not reduced
    /// (no gcd: they are only compared, by cross multiplication), and whether they are the
    /// same number.
    fn ends(&self) -> ([(BigInt, BigInt); 2], bool) {
        match self.get() {
            ValueRef::Bounds(b) => {
                let over = |x: u128| (BigInt::from(x), BigInt::from(1) << b.shift);
                ([over(b.lo), over(b.hi)], b.lo == b.hi)
            }
            ValueRef::Exact(r) => {
                let end = || (r.numer().clone(), r.denom().clone());
                ([end(), end()], true)
            }
        }
    }
}

impl Known for Value {
    fn cmp_scaled(&self, other: &Self, r: &BigRational) -> Option<Ordering> {
        let ([a_lo, a_hi], a_one) = self.ends();
        let ([b_lo, b_hi], b_one) = other.ends();
        // x against r y, for fractions x and y with positive denominators (and r's).
        let cmp = |(xn, xd): &(BigInt, BigInt), (yn, yd): &(BigInt, BigInt)| {
            (xn * r.denom() * yd).cmp(&(r.numer() * yn * xd))
        };
        if cmp(&a_lo, &b_hi).is_gt() {
            Some(Ordering::Greater)
        } else if cmp(&a_hi, &b_lo).is_lt() {
            Some(Ordering::Less)
        } else if a_one && (b_one || r.is_zero()) {
            Some(cmp(&a_lo, &b_lo))
        } else {
            None
        }
    }

    fn cmp_rational(&self, r: &BigRational) -> Option<Ordering> {
        match self.get() {
            ValueRef::Bounds(b) => b.cmp_rational(r),
            ValueRef::Exact(x) => Some(x.cmp(r)),
        }
    }

    fn cmp_known(&self, other: &Self) -> Option<Ordering> {
        match (self.get(), other.get()) {
            (ValueRef::Bounds(a), ValueRef::Bounds(b)) => a.cmp_bounds(&b),
            (ValueRef::Exact(a), ValueRef::Exact(b)) => Some(a.cmp(b)),
            (ValueRef::Bounds(a), ValueRef::Exact(b)) => a.cmp_rational(b),
            (ValueRef::Exact(a), ValueRef::Bounds(b)) => b.cmp_rational(a).map(Ordering::reverse),
        }
    }
}

/// The distribution of T on any board, as decimals to `digits` places: certified stepping on
/// its one-player chain (on a board that changes during a game, the chain without the eaten
/// apples), the states projected to their squares; the mean is exact, as in
/// [`super::distribution::board_distribution`], when it can be solved for. With `chart`, the rows
/// the chart draws carry their nearest `f64` (see [`ShownTerm::p_f64`]).
///
/// # Errors
///
/// See [`certified_distribution`].
pub fn board_shown_distribution(
    board: &Board,
    options: &DistributionOptions,
    digits: usize,
    chart: bool,
) -> Result<ShownDistribution<Square>, TooMuchWork> {
    let mean = ExactMean {
        board,
        solved: OnceCell::new(),
    };
    if let Some(dist) = super::distribution::linked_distribution(board, options) {
        // Past the whole turns' limit: the exact terms on the links form, rounded.
        let mut dist = dist?;
        super::expectation::exact_mean(board, &mut dist.mean);
        return Ok(ShownDistribution::from_exact(dist, digits, false));
    }
    let on_roll_level = RollLevel::applies(board);
    let shown = on_player_chain!(board, Memory::Turns, |_, chain| {
        // Solved on the chain the law is stepped on, not on one built again; or on the
        // roll-level form.
        let exact = || mean.get((!on_roll_level).then_some(chain));
        let shown = shown_with(chain, &exact, options, digits, chart)?;
        let shown = match on_roll_level {
            true => shown,
            false => with_exact_mean(shown, &exact),
        };
        shown.map_states(|s| s.square())
    });
    // On the roll-level form once the turn chain the law was stepped on is gone.
    Ok(match on_roll_level {
        true => with_exact_mean(shown, &|| mean.get(None::<&Chain<Square>>)),
        false => shown,
    })
}

/// The exact mean of a board, solved at most once, and only when asked for (when the shown
/// mean would not be exact or infinite).
struct ExactMean<'a> {
    board: &'a Board,
    solved: OnceCell<Option<Mean>>,
}

impl ExactMean<'_> {
    /// The exact mean, solved on `chain` as [`exact_mean_on`] says; `None` when it is not
    /// solved for.
    fn get<S: ChainState>(&self, chain: Option<&Chain<S>>) -> Option<Mean> {
        self.solved
            .get_or_init(|| {
                let mut mean = Mean::About(f64::NAN);
                exact_mean_on(self.board, chain, &mut mean);
                matches!(mean, Mean::Exact(_)).then_some(mean)
            })
            .clone()
    }
}

/// [`certified_distribution_for`] with the chart when `chart`, and `exact` for the mean.
fn shown_with<S: ChainState>(
    chain: &Chain<S>,
    exact: &dyn Fn() -> Option<Mean>,
    options: &DistributionOptions,
    digits: usize,
    chart: bool,
) -> Result<ShownDistribution<S>, TooMuchWork> {
    let shows = Shows {
        chart,
        exact_mean: exact,
    };
    certified_distribution_for(chain, options, digits, &shows)
}

/// `shown` with its approximate mean replaced by the exact one, when that is solved for.
fn with_exact_mean<S>(
    mut shown: ShownDistribution<S>,
    exact: &dyn Fn() -> Option<Mean>,
) -> ShownDistribution<S> {
    if let (Mean::About(_), Some(mean)) = (&shown.mean, exact()) {
        shown.mean = mean;
    }
    shown
}

/// What a caller shows besides the table's decimals: the floats that must then be the exact
/// distribution's.
pub struct Shows<'a> {
    /// The chart: the nearest `f64` of each row it draws.
    pub chart: bool,
    /// The exact mean, when the caller would show it instead of the approximate one.
    pub exact_mean: &'a dyn Fn() -> Option<Mean>,
}

/// The distribution of T rounded to `digits` decimals, for a caller that shows the chart and
/// the approximate mean: `certified_distribution_for` with both.
///
/// # Errors
///
/// See `certified_distribution_for`.
pub fn certified_distribution<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    digits: usize,
) -> Result<ShownDistribution<S>, TooMuchWork> {
    let shows = Shows {
        chart: true,
        exact_mean: &|| None,
    };
    certified_distribution_for(chain, options, digits, &shows)
}

/// The distribution of T rounded to `digits` decimals, equal to
/// `ShownDistribution::from_exact(distribution(chain, options), digits, false)` as the reports
/// show it: every decimal, quantile, the mode, the decay and the tail law the same, and the two
/// floats as close as `shows` asks ([`ShownTerm::p_f64`], [`ShownDistribution::mean`]). See
/// the module documentation for how.
///
/// # Errors
///
/// [`TooMuchWork`] when the turns needed, on so large a chain, would take more than about a
/// minute (the certified stepping's work: one 128-bit product pair per transition per turn).
pub fn certified_distribution_for<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    digits: usize,
    shows: &Shows,
) -> Result<ShownDistribution<S>, TooMuchWork> {
    match shown_by_tiers(chain, options, digits, shows)? {
        Some(shown) => Ok(shown),
        // Stepped once the tiers' terms and chains are freed.
        None => exact_shown(chain, options, digits),
    }
}

/// [`certified_distribution_for`] from the tiers; `None` when it is the exact distribution
/// rounded instead: neither tier can tell the tail threshold, the game is bounded (its mean is
/// the exact sum) or more than 19 digits are asked for (they need the fractions).
fn shown_by_tiers<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    digits: usize,
    shows: &Shows,
) -> Result<Option<ShownDistribution<S>>, TooMuchWork> {
    let rows = MergedRows::new(chain);
    let cc = CertifiedChain::for_chain(chain, &rows);
    let transitions = cc.transitions();
    // A 128-bit product pair costs about as much as 8 limb multiply-adds of the exact stepping.
    let mut plan = plan_on_rows(chain, &rows, options, |turns| {
        8.0 * transitions as f64 * turns
    })?;
    let first = first_tiers(&cc, &rows, options, &plan, digits);
    // Read by no tier from here on: its memory goes to the rows' text.
    drop(rows);
    let Some((stepped, mut refine, tail_law, settled)) = first else {
        return Ok(None);
    };
    let Stepped { mut p, mut s, stop } = stepped;
    let (p, s) = (&mut p, &mut s);
    let tail_is_zero = matches!(s.last().map(Value::get), Some(ValueRef::Bounds(b)) if b.is_zero());
    if tail_is_zero || digits > 19 {
        return Ok(None);
    }
    let ic = OnceCell::new();
    let ic = || ic.get_or_init(|| IntegerChain::new(chain));
    let states = chain.transient_count();
    let rho = plan.radius(chain, settled.as_deref());
    // Q and the settled law are done with as well.
    drop(settled);
    plan.drop_q();
    loop {
        match decide(p, s, digits, (&plan, rho), shows) {
            Ok(decided) => {
                return Ok(Some(ShownDistribution {
                    terms: decided.terms,
                    digits,
                    starts_finished: plan.starts_finished,
                    stop,
                    tail_threshold: options.tail.clone(),
                    tail: decided.tail,
                    quantiles: decided.quantiles,
                    mode: decided.mode,
                    all_zero: decided.all_zero,
                    mean: decided.mean,
                    decay: decided.decay,
                    tail_law,
                    trap: plan.trap,
                }))
            }
            // The float tier's terms go to the u128 tier, the u128 tier's to the exact one.
            Err(undecided) => {
                if !refine.refine(p, s, &undecided) {
                    resolve(ic(), p, s, &undecided, rho, states)?;
                }
            }
        }
    }
}

/// The first stepping of the terms (`shown/tiers.rs`): with a tail law to look for, from its
/// watch (the float tier from the start instead when those terms come out too wide), else from
/// the float tier; `None` when neither can tell the tail threshold. The float tier's chain is
/// built from `rows` only when a tier steps with it (efi's tail law finishes without), and
/// freed on return.
fn first_tiers<'a, S>(
    cc: &'a CertifiedChain,
    rows: &MergedRows,
    options: &DistributionOptions,
    plan: &Plan<S>,
    digits: usize,
) -> Option<tiers::First<'a>> {
    let fc = OnceCell::new();
    let fc = || fc.get_or_init(|| FloatChain::from_rows(rows)).as_ref();
    let grid = 10f64.powi(-(digits.min(400) as i32));
    match &plan.tail_law_start {
        Some(start) => law_first(start, cc, fc, options, plan, grid).map(|first| {
            let wide = too_wide(&first.0.p) || too_wide(&first.0.s);
            match wide.then(|| float_first(cc, fc, options, plan, grid)) {
                Some(Some((stepped, refine, _, _))) => (stepped, refine, first.2, first.3),
                _ => first,
            }
        }),
        None => float_first(cc, fc, options, plan, grid),
    }
}

/// Everything [`decide`] decides.
struct Decided {
    terms: Vec<ShownTerm>,
    tail: String,
    quantiles: Vec<Quantile>,
    mode: Option<(usize, Option<String>)>,
    all_zero: bool,
    mean: Mean,
    decay: Option<Decay>,
}

/// What the reports show, from the terms' bounds, or the terms that must be known better.
fn decide<S>(
    p: &[Value],
    s: &[Value],
    digits: usize,
    (plan, rho): (&Plan<S>, Option<Radius>),
    shows: &Shows,
) -> Result<Decided, Vec<usize>> {
    let (mut terms, tail) = shown(p, s, digits)?;
    let quantiles = quantiles_of(s, plan.starts_finished)?;
    let mode = mode_of(p, s.last(), plan)?;
    let mode = mode.map(|m| (m, (m >= 1).then(|| terms[m - 1].table()[0].to_string())));
    // The chart's rows need their nearest f64.
    let chart = match shows.chart {
        true => chart_turns(&quantiles, terms.len()),
        false => 0,
    };
    let undecided: Vec<usize> = (0..chart).filter(|&i| p[i].to_f64().is_none()).collect();
    if !undecided.is_empty() {
        return Err(undecided);
    }
    for (term, p) in terms.iter_mut().zip(p).take(chart) {
        term.p_f64 = p.to_f64().expect("decided");
    }
    // The tails as floats, read once for the decay and the mean.
    let tails = match (rho, &plan.trap) {
        (None, Some(_)) => Vec::new(),
        _ => floats::tails(s),
    };
    let decay = match rho {
        Some(r) => Some(Decay {
            rho: r.estimate,
            low: r.low,
            high: r.high,
            settles_after: floats::settles_after(&tails, r.estimate)?,
        }),
        None => None,
    };
    let mean = match plan.trap {
        Some(_) => Mean::Infinite,
        None => match floats::mean(&tails, decay) {
            Ok(mean) => mean,
            Err(undecided) => (shows.exact_mean)().ok_or(undecided)?,
        },
    };
    let zero = BigRational::from_integer(0.into());
    let all_zero = p
        .iter()
        .all(|p| p.cmp_rational(&zero) == Some(Ordering::Equal));
    Ok(Decided {
        terms,
        tail,
        quantiles,
        mode,
        all_zero,
        mean,
        decay,
    })
}

/// The rows the chart draws (`report::distribution::write_chart`): up to the 99.9 % quantile,
/// or all of them.
fn chart_turns(quantiles: &[Quantile], turns: usize) -> usize {
    let last = quantiles.last().and_then(|q| q.turns).unwrap_or(turns);
    last.clamp(1, turns.max(1)).min(turns)
}

/// The rows and the tail, or the terms that must be known better first. Each row's `p_f64` is
/// the nearest `f64` when the bounds decide it, else one inside them ([`decide`] settles it for
/// the chart's rows).
fn shown(p: &[Value], s: &[Value], digits: usize) -> Result<(Vec<ShownTerm>, String), Vec<usize>> {
    let mut undecided = Vec::new();
    // Every row's text in one buffer: a CSV cell is `digits + 2` bytes (a probability), and
    // about one row in two on a long table has two scientific table cells (`1 - 1.234e-10`).
    let mut rows = Rows::with_capacity(p.len(), p.len() * (3 * (digits + 2) + 24));
    // The cells of the rows after an undecided one are only checked, here.
    let mut scratch = Vec::new();
    for (i, (p, s)) in p.iter().zip(s).enumerate() {
        let cells = |column: usize, text: &mut Vec<u8>| match column {
            0 => p.push_cells(digits, false, text),
            1 => s.push_cells(digits, true, text),
            _ => s.push_cells(digits, false, text),
        };
        match undecided.is_empty() {
            true => {
                // The f64 is settled later (`decide`) when the bounds do not give the nearest.
                let p_f64 = p.to_f64().unwrap_or_else(|| p.inside());
                if !rows.push(i + 1, p_f64, cells) {
                    undecided.push(i);
                }
            }
            // A term undecided before: only which others are, no more text.
            false => {
                if (0..3).any(|column| cells(column, &mut scratch).is_none()) {
                    undecided.push(i);
                }
                scratch.clear();
            }
        }
    }
    if !undecided.is_empty() {
        return Err(undecided);
    }
    let terms = rows.done();
    let tail = match terms.last() {
        Some(t) => t.table()[2].to_string(),
        None => probability(&BigRational::from_integer(0.into()), digits),
    };
    Ok((terms, tail))
}

/// Replaces the terms at `indices` by their exact values (one exact stepping, as far as the last
/// of them), or refuses when that stepping's work is above [`WORK_LIMIT`] (on a board whose
/// top throws roll again for hundreds of squares, D has a thousand bits and every product is
/// long: 50 turns on 2,000 squares with a 3-faced die would take hours).
fn resolve(
    ic: &IntegerChain,
    p: &mut [Value],
    s: &mut [Value],
    indices: &[usize],
    rho: Option<Radius>,
    states: usize,
) -> Result<(), TooMuchWork> {
    let last = indices.iter().copied().max().expect("some term");
    let work = stepping_work(ic, (last + 1) as f64);
    if work > WORK_LIMIT {
        return Err(TooMuchWork {
            turns: (last + 1) as f64,
            states,
            rho: rho.map_or(f64::NAN, |r| r.estimate),
            work,
        });
    }
    let mut stepper = ic.stepper();
    let stage = crate::progress::Stage::begin("exact undecided terms", Some(last as u64 + 1));
    for i in 0..=last {
        stage.advance(i as u64);
        stepper.step();
        if indices.contains(&i) {
            p[i] = Value::exact(stepper.p_ends_now());
            s[i] = Value::exact(stepper.p_survives());
        }
    }
    Ok(())
}

/// The exact distribution, rounded.
fn exact_shown<S: ChainState>(
    chain: &Chain<S>,
    options: &DistributionOptions,
    digits: usize,
) -> Result<ShownDistribution<S>, TooMuchWork> {
    Ok(ShownDistribution::from_exact(
        distribution(chain, options)?,
        digits,
        false,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::certified::interval_order;
    use crate::test_util::q;

    #[test]
    fn a_term_takes_48_bytes_and_reads_back_as_it_was_written() {
        // The reason for the variant's own fields and the box (a `Bounds` beside the tag takes
        // 64), and what `get` must undo.
        assert_eq!(std::mem::size_of::<Value>(), 48);
        let b = Bounds {
            lo: (1 << 100) + 3,
            hi: u128::MAX,
            shift: 4000,
        };
        assert!(matches!(Value::bounds(b).get(), ValueRef::Bounds(c) if c == b));
        let r = q(2, 7);
        assert!(matches!(Value::exact(r.clone()).get(), ValueRef::Exact(x) if *x == r));
    }

    #[test]
    fn a_value_compares_with_r_times_another_as_its_interval_of_fractions_does() {
        // Second method: the interval's ends as reduced fractions, r times the other's, compared
        // as fractions (as `cmp_scaled` was written before). Bounds of either width at several
        // shifts, exact values, r = 0, and ties on both ends.
        let b = |lo: u128, hi: u128, shift: u32| Value::Bounds { lo, hi, shift };
        let values = [
            b(3, 3, 2),
            b(6, 6, 3),
            b(5, 7, 3),
            b(1, 2, 1),
            b(0, 0, 4),
            b(0, 1, 60),
            b(1 << 100, (1 << 100) + 1, 101),
            Value::exact(q(3, 4)),
            Value::exact(q(1, 3)),
            Value::exact(q(0, 1)),
        ];
        let interval = |v: &Value| match v.get() {
            ValueRef::Bounds(b) => {
                let over = |x: u128| BigRational::new(x.into(), BigInt::from(1) << b.shift);
                (over(b.lo), over(b.hi))
            }
            ValueRef::Exact(r) => (r.clone(), r.clone()),
        };
        let mut decided = 0;
        for r in [q(0, 1), q(1, 1), q(1, 2), q(3, 2), q(1, 6), q(2, 3)] {
            for x in &values {
                for y in &values {
                    let ((a_lo, a_hi), (b_lo, b_hi)) = (interval(x), interval(y));
                    let (b_lo, b_hi) = (&r * b_lo, &r * b_hi);
                    let want = interval_order([&a_lo, &a_hi], [&b_lo, &b_hi]);
                    assert_eq!(x.cmp_scaled(y, &r), want, "{x:?} against {r} {y:?}");
                    decided += usize::from(want.is_some());
                }
            }
        }
        assert!(decided > 300, "{decided}");
    }
}
