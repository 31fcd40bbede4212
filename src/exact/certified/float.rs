//! The float tier of the certified stepping: the law stepped in plain `f64` with one proved
//! bound on the relative error of every entry, so a step costs one multiply-add per
//! transition. It decides most printed terms (the late, small ones nearly always); the
//! terms it leaves undecided go to the `u128` tier ([`super::CertifiedStepper`]), and what
//! that leaves to the exact integer stepping (`analysis/shown.rs` drives the three).
//!
//! # Why the bound holds
//!
//! Every transition probability and every law entry is nonnegative, so nothing cancels and an
//! error relative to each term stays relative in the sum. Each probability is stored as
//! `q~ = q (1 + a)` with `|a| <= u'` (u' = 2^-53 when its numerator and denominator are below
//! 2^53, as one correctly rounded division, as for a count over a small common denominator;
//! else 2^-52, `num::decimal::to_f64` being faithful).
//! A step computes `x'_j = sum_i x_i q~_ij` by recursive summation, one term per transition into
//! j; with u = 2^-53 and no underflow, each of the k terms carries a factor `1 + theta` with
//! `|theta| <= gamma_k = k u / (1 - k u)` (Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., section 3.1). So if every computed entry is `x~_i = x_i (1 + eta_i)`
//! with `|eta_i| <= e_n`, every new one is `x~'_j = x'_j (1 + eta'_j)` with
//! `1 + e_(n+1) = (1 + e_n)(1 + u')(1 + gamma_k)`, k the most entries in one column (the
//! finish's column, which gives `P(T = n)`, included). This is one scalar for the whole vector,
//! kept as a proved upper bound: every `f64` operation computing it rounds to nearest, within a
//! factor `1 +- 2^-53`, and a final factor `1 + 2^-50` makes up for up to seven of them.
//! `P(T > n) = sum_j x_j` is one more recursive sum, of t terms (t the transient states):
//! relative error `(1 + e_n)(1 + gamma_t) - 1`. A state with `x_j = 0` stays exactly 0 (all its
//! terms are 0), so a game that cannot last has its bounds reach 0 exactly.
//!
//! The value lies in `[x~ / (1 + e), x~ / (1 - e)]`, inside `[x~ (1 - e), x~ (1 + 2 e)]` for
//! `e <= 1/2` (the tier gives up above [`MAX_ERROR`]), rounded outward to integers in [`enclose`].
//!
//! # No underflow
//!
//! Higham's bound holds while no product or sum is subnormal. Every nonzero `q~` is at least
//! [`LEAST_PROBABILITY`] = 2^-100 (else [`FloatChain::new`] declines the chain), the vector is
//! renormalised after each step by an exact power of two (its sum back in `[1/2, 1)`, the shift
//! kept as an integer exponent), and every nonzero entry is checked to be at least
//! [`LEAST_VALUE`] = 2^-900: a product is then 0 or at least 2^-1000, above the smallest normal
//! `f64` (2^-1022), and so is every sum of such products. When the check fails the step says so
//! and the tier gives up; the `u128` tier, which has no such limit, does the job.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::rows::{nearest_f64, MergedRows, Probabilities};
use super::Bounds;
#[cfg(test)]
use crate::chain::{Chain, ChainState};
use crate::num::decimal::to_f64;

/// The unit roundoff of `f64`, 2^-53.
const UNIT: f64 = power_of_two(-53);
/// `1 + 2^-50`: makes up for up to seven roundings to nearest of a positive result.
pub(super) const UP: f64 = 1.0 + power_of_two(-50);
/// `1 - 2^-50`: the same, downward.
pub(super) const DOWN: f64 = 1.0 - power_of_two(-50);
/// The least nonzero stored probability (see "No underflow").
const LEAST_PROBABILITY: f64 = power_of_two(-100);
/// The least nonzero entry a step may read (see "No underflow").
const LEAST_VALUE: f64 = power_of_two(-900);
/// The largest relative error bound the tier goes on with (bounds this wide decide nothing).
pub(crate) const MAX_ERROR: f64 = power_of_two(-20);
/// The widest relative enclosure [`FloatChain::stepper_at`] starts from (the `u128` tier's are
/// about 2^-80 wide).
const START_WIDTH: f64 = power_of_two(-40);
/// Bits of the integer bounds' values: an enclosed value `v` is about `2^VALUE_BITS`.
const VALUE_BITS: u32 = 120;

/// `2^k` for a normal power (`-1022 <= k <= 1023`), from its bits.
pub(super) const fn power_of_two(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// `floor(log2 v)` for a positive normal `v`.
fn exponent_of(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// `gamma_k = k u / (1 - k u)`, rounded upward.
fn gamma(k: usize) -> f64 {
    let ku = k as f64 * UNIT;
    ku / (1.0 - ku) * UP
}

/// `(1 + a)(1 + b) - 1` for `a, b >= 0`, rounded upward.
fn compose(a: f64, b: f64) -> f64 {
    (a + b + a * b) * UP
}

/// `q~` for `q` and its bound u' (see the module documentation).
fn stored(q: &BigRational) -> (f64, f64) {
    const EXACT: u64 = 1 << 53;
    match (q.numer().to_u64(), q.denom().to_u64()) {
        (Some(n), Some(d)) if n <= EXACT && d <= EXACT => (n as f64 / d as f64, UNIT),
        _ => (to_f64(q), 2.0 * UNIT),
    }
}

/// One transition: the stored probability and its destination.
#[derive(Clone, Copy, Debug)]
struct Entry {
    q: f64,
    j: u32,
}

/// A chain's transitions as the float tier steps them (compressed rows, the final states
/// merged into one column, index `transient`).
#[derive(Clone, Debug)]
pub struct FloatChain {
    transient: usize,
    start: usize,
    row_start: Vec<usize>,
    entries: Vec<Entry>,
    /// `(1 + u')(1 + gamma_k) - 1`: one step's growth of the relative error.
    grow: f64,
    /// `gamma_t`: the sum over the transient states.
    sum_error: f64,
}

impl FloatChain {
    /// Prepares `chain`'s transitions, or `None` when a probability is below
    /// [`LEAST_PROBABILITY`] (the `u128` tier steps such a chain).
    #[cfg(test)]
    pub fn new<S: ChainState>(chain: &Chain<S>) -> Option<FloatChain> {
        FloatChain::from_rows(&MergedRows::new(chain))
    }

    /// Prepares the transitions of `rows` (shared with the `u128` tier), or `None` as
    /// [`FloatChain::new`].
    pub fn from_rows(rows: &MergedRows) -> Option<FloatChain> {
        let widest = rows.widest_column();
        let (entries, unit) = match &rows.probabilities {
            // a / D within 2^-53 (D < 2^53, one correctly rounded division): `stored`'s value.
            Probabilities::Counts { d, counts } => {
                let mut entries = Vec::with_capacity(rows.col.len());
                for (&j, &a) in rows.col.iter().zip(counts) {
                    let q = nearest_f64(a, *d);
                    if q < LEAST_PROBABILITY && a != 0 {
                        return None;
                    }
                    entries.push(Entry { q, j });
                }
                (entries, UNIT)
            }
            Probabilities::Fractions(probabilities) => {
                let mut unit = UNIT;
                let mut entries = Vec::with_capacity(rows.col.len());
                for (&j, p) in rows.col.iter().zip(probabilities) {
                    let (q, u) = stored(p);
                    if q < LEAST_PROBABILITY && !p.is_zero() {
                        return None;
                    }
                    unit = unit.max(u);
                    entries.push(Entry { q, j });
                }
                (entries, unit)
            }
        };
        Some(FloatChain {
            transient: rows.transient,
            start: rows.start,
            row_start: rows.row_start.clone(),
            entries,
            grow: compose(unit, gamma(widest)),
            sum_error: gamma(rows.transient),
        })
    }

    /// A stepper at n = `turn`, from the `u128` tier's enclosure of the position then (as
    /// [`super::CertifiedStepper::position`] gives it: one shift for all), or `None` when the
    /// tier cannot carry it (no state certainly above 0, an entry near underflow). Each entry
    /// is its lower bound `lo` as the nearest `f64` (within `u = 2^-53`, relative) times an
    /// exact power of two; the true value lies in `[lo, hi]`, so the stored one is within
    /// `u + (hi - lo) / lo` of it (relative): the largest is the starting error bound. A state
    /// whose bounds are wider than [`START_WIDTH`] (relative; a lower bound of 0 among them:
    /// states with a tiny share, which the `u128` tier holds to a few units) starts at 0
    /// instead, and its upper bound joins the slack: that mass, whatever it is, never grows
    /// (Q's rows sum to at most 1), so it adds at most the slack to every `P(T = n)` and
    /// `P(T > n)` from here on, and nothing to a lower bound.
    pub fn stepper_at(&self, turn: usize, position: &[Bounds]) -> Option<FloatStepper<'_>> {
        let t = self.transient;
        let shift = position.first().map_or(0, |b| b.shift);
        if position.len() != t || position.iter().any(|b| b.shift != shift) {
            return None;
        }
        // A state's relative width, rounded up; a state too wide (or 0 below) is slack.
        let width_of = |b: &Bounds| match b.lo {
            0 => f64::INFINITY,
            lo => (b.hi - lo) as f64 * UP / (lo as f64 * DOWN) * UP,
        };
        let (mut width, mut slack) = (0.0f64, 0u128);
        let mut x = Vec::with_capacity(t);
        for b in position {
            match width_of(b) {
                w if w <= START_WIDTH => {
                    width = width.max(w);
                    x.push(b.lo as f64);
                }
                _ => {
                    slack = slack.checked_add(b.hi)?;
                    x.push(0.0);
                }
            }
        }
        // Stored values are probabilities times 2^exponent, their sum in [1/2, 1) when that
        // keeps the exponent at 0 or above.
        let total: f64 = x.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let exponent = (i64::from(shift) - i64::from(exponent_of(total)) - 1).max(0);
        let k = exponent - i64::from(shift);
        if !(-1000..=0).contains(&k) {
            return None;
        }
        let scale = power_of_two(k as i32);
        x.iter_mut().for_each(|v| *v *= scale);
        if x.iter().any(|&v| v != 0.0 && v < LEAST_VALUE) {
            return None;
        }
        Some(FloatStepper {
            chain: self,
            turn,
            exponent: u32::try_from(exponent).ok()?,
            survives: x.iter().sum(),
            x,
            next: vec![0.0; t + 1],
            error: (UNIT + width) * UP,
            ends: (0.0, 0),
            slack: (slack, shift),
        })
    }

    /// A stepper at n = 0 (all mass on the start state, which must be transient).
    pub fn stepper(&self) -> FloatStepper<'_> {
        let t = self.transient;
        let mut x = vec![0.0; t];
        if self.start < t {
            x[self.start] = 1.0;
        }
        FloatStepper {
            chain: self,
            turn: 0,
            exponent: 0,
            x,
            next: vec![0.0; t + 1],
            error: 0.0,
            ends: (0.0, 0),
            survives: if self.start < t { 1.0 } else { 0.0 },
            slack: (0, 0),
        }
    }
}

/// The law after `turn()` turns in `f64`, every entry within a relative [`FloatStepper::error`]
/// of the true one.
#[derive(Clone, Debug)]
pub struct FloatStepper<'a> {
    chain: &'a FloatChain,
    turn: usize,
    /// Stored values are probabilities times `2^exponent`.
    exponent: u32,
    x: Vec<f64>,
    /// The next step's sums (the transient states, then the finish); zeros between steps.
    next: Vec<f64>,
    /// e_n.
    error: f64,
    /// P(T = n) times `2^exponent` as it was before the last renormalisation, and that exponent.
    ends: (f64, u32),
    /// The computed sum of `x`.
    survives: f64,
    /// `(units, shift)`: the mass the stepping left out, at most `units / 2^shift`
    /// ([`FloatChain::stepper_at`]), added to every upper bound.
    slack: (u128, u32),
}

impl FloatStepper<'_> {
    /// Plays one more turn; false when the tier gives up (an entry near underflow, the error
    /// bound past [`MAX_ERROR`], or a slack that is no longer small beside the terms), after
    /// which the stepper must not be used.
    pub fn step(&mut self) -> bool {
        let c = self.chain;
        let t = c.transient;
        spread(c, &self.x, &mut self.next);
        self.error = compose(self.error, c.grow);
        self.ends = (self.next[t], self.exponent);
        self.next[t] = 0.0;
        let sum = self.next[..t].iter().fold(0.0, |s, v| s + v);
        // Renormalise: the sum back in [1/2, 1), by an exact power of two.
        let k = match sum > 0.0 {
            true => (-exponent_of(sum) - 1).clamp(0, 1000),
            false => 0,
        };
        let scale = power_of_two(k);
        let mut tiny = false;
        for (x, next) in self.x.iter_mut().zip(&mut self.next[..t]) {
            *x = *next * scale;
            *next = 0.0;
            tiny |= *x < LEAST_VALUE && *x != 0.0;
        }
        self.survives = sum * scale;
        self.exponent += k as u32;
        self.turn += 1;
        !tiny && self.error <= MAX_ERROR && !self.slack_swamps()
    }

    /// Whether the slack is above 2^-30 of the lower bound of `P(T = n)` or of `P(T > n)`
    /// (a lower bound of 0 included): the slack does not shrink with the tail, so the tier
    /// gives up rather than hand on bounds that are not about `error` wide.
    fn slack_swamps(&self) -> bool {
        self.slack.0 != 0
            && [self.ends_now(), self.survives()]
                .iter()
                .any(|b| slack_units(self.slack, b.shift) > b.lo >> 30)
    }

    /// The number of turns played.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// e_n: every entry (and `P(T = n)`) is within this relative error of the true value.
    #[cfg(test)]
    pub fn error(&self) -> f64 {
        self.error
    }

    /// Bounds of P(T = n).
    pub fn ends_now(&self) -> Bounds {
        plus_slack(enclose(self.ends.0, self.ends.1, self.error), self.slack)
    }

    /// Bounds of P(T > n).
    pub fn survives(&self) -> Bounds {
        let e = compose(self.error, self.chain.sum_error);
        plus_slack(enclose(self.survives, self.exponent, e), self.slack)
    }

    /// Bounds of the probability of each transient state after `turn()` turns, all with the
    /// same shift (the tests compare them with the exact law).
    #[cfg(test)]
    pub fn position(&self) -> Vec<Bounds> {
        // No cap at 2^VALUE_BITS: the computed sum is below 1, the true one may be a little
        // above it.
        let shift = VALUE_BITS + self.exponent;
        let scale = power_of_two(VALUE_BITS as i32);
        self.x
            .iter()
            .map(|&x| {
                let (lo, hi) = outward(x * scale, self.error);
                plus_slack(Bounds { lo, hi, shift }, self.slack)
            })
            .collect()
    }
}

/// `b` with `units / 2^at` added to its upper bound (rounded up; saturating), then capped at 1.
fn plus_slack(b: Bounds, slack: (u128, u32)) -> Bounds {
    if slack.0 == 0 {
        return b;
    }
    let hi = b.hi.saturating_add(slack_units(slack, b.shift));
    let hi = match b.shift {
        0..128 => hi.min(1 << b.shift),
        _ => hi,
    };
    Bounds { hi, ..b }
}

/// `units / 2^at` in units of `2^-shift`, rounded up (saturating).
pub(super) fn slack_units((units, at): (u128, u32), shift: u32) -> u128 {
    if units == 0 {
        return 0;
    }
    match shift.checked_sub(at) {
        Some(up) if up < 128 && units.leading_zeros() >= up => units << up,
        Some(_) => u128::MAX,
        None => match at - shift {
            down @ 0..128 => (units >> down) + 1,
            _ => 1,
        },
    }
}

/// Adds `x_i q~_ij` to `next[j]` for every transition, row by row and in the order of each
/// row (so every sum is the same recursive sum, whatever the loop's shape). `next` is padded
/// with zeros to a power-of-two length on the first call, so that an index masked by that
/// length less 1 (every j is at most t, below it: the mask changes nothing) needs no bounds
/// check; the padding is never read. Two transitions at a time: the loop's own work is
/// shared by two.
fn spread(c: &FloatChain, x: &[f64], next: &mut Vec<f64>) {
    if !next.len().is_power_of_two() {
        next.resize(next.len().next_power_of_two(), 0.0);
    }
    let mask = next.len() - 1;
    let next = &mut next[..=mask];
    for (row, &x) in c.row_start.windows(2).zip(x) {
        if x != 0.0 {
            let mut add = |e: &Entry| next[e.j as usize & mask] += x * e.q;
            let mut pairs = c.entries[row[0]..row[1]].chunks_exact(2);
            for pair in &mut pairs {
                add(&pair[0]);
                add(&pair[1]);
            }
            pairs.remainder().iter().for_each(add);
        }
    }
}

/// `floor(w (1 - e))` and `ceil(w (1 + 2 e))` for `w >= 0` (exact conversions of integral
/// `f64`s, each product made one rounding safe by [`DOWN`] or [`UP`]).
fn outward(w: f64, e: f64) -> (u128, u128) {
    let lo = (w * (1.0 - e) * DOWN).floor();
    let hi = (w * (1.0 + 2.0 * e) * UP).ceil();
    (lo as u128, hi as u128)
}

/// Bounds of a probability stored as `v 2^-exponent` within a relative `e` (at most 1/2): the
/// value scaled to about `2^VALUE_BITS` by an exact power of two, then rounded outward.
fn enclose(v: f64, exponent: u32, e: f64) -> Bounds {
    if v == 0.0 {
        return Bounds {
            lo: 0,
            hi: 0,
            shift: VALUE_BITS + exponent,
        };
    }
    // v 2^extra in [1, 2): then w = v 2^(extra + VALUE_BITS) is below 2^121.
    let extra = (-exponent_of(v)).max(0) as u32;
    let shift = VALUE_BITS + extra + exponent;
    let w = v * power_of_two(extra as i32) * power_of_two(VALUE_BITS as i32);
    let (lo, hi) = outward(w, e);
    // A probability is at most 1.
    let hi = match shift {
        0..128 => hi.min(1 << shift),
        _ => hi,
    };
    Bounds { lo, hi, shift }
}

#[cfg(test)]
mod tests;
