//! The certified stepping: a lower bound of the law kept in `u128` fixed point, and a proved
//! bound on how far below the true law it can be.
//!
//! # Why the bounds hold
//!
//! The law of the transient states is kept as one vector `v` of `u128`, a lower bound of
//! `P(X_n = s) 2^(V + e)`, where e is a shared exponent and V the value bits (below). Every
//! transition probability is nonnegative, and every rounding in a step rounds down, so the true
//! scaled law `x` satisfies `x >= v` componentwise; write `err = x - v >= 0`. One step computes
//! `v' = v P` rounded down, with a loss of at most `delta_j` units at each destination j (below),
//! so `err' = err P + loss` with `0 <= loss_j <= delta_j` (the finish is one more destination;
//! `delta_j = 0` where no rounding happened: a zero sum, a product not computed because the
//! value is 0, so a game that cannot last has its bounds reach 0).
//!
//! An upper bound `r` of `err` is stepped alongside in `f64`, one multiply-add per transition
//! like the value's: `r'_j = g (sum_i r_i p^_ij + delta_j)`, with `p^_ij >= p_ij` (the nearest
//! `f64` times `1 + 2^-50`) and `g = 1 + (3 m + 8) 2^-50`, m the most terms of one sum (or the
//! number of transient states, for the total): each of the at most 3 m + 4 roundings to nearest
//! in such a sum (a product, adding `delta`, adding to the sum) loses at most a factor
//! `1 - 2^-53`, and g makes up for all of them; scaling by `2^k` is exact. (A scalar bound on
//! the total error would not do: the error that flows to the finish cannot be told from the
//! error that stays, so it would stop shrinking with the surviving mass and the relative width
//! would double every few turns.) Then:
//!
//! - `x_j` lies in `[v_j, v_j + ceil(r_j)]` (what the tail law needs,
//!   [`CertifiedStepper::position`]);
//! - `P(T > n) 2^(V + e)` lies in `[sum v_j, sum v_j + ceil(g sum r_j)]` (j transient), and
//!   `P(T = n)` in `[v_f, v_f + ceil(r_f)]` (f the finish); both are also bounded through
//!   `P(T > n - 1) = P(T > n) + P(T = n)`, and the tighter bound of each pair is kept.
//!
//! # Two representations of the transitions
//!
//! - **Counts** (`P = A / D`, the common denominator `D < 2^20`, as on every board with one die
//!   and no roll-again): the sums `sum_i v_i a_ij` are exact in `u128` when `V = 127 - bits(D)`
//!   (then `D 2^V <= 2^127`), and one division by D per state ends the step, rounded down by at
//!   most [`DIVIDE_LOSS`] units: `delta_j` = that, once per state. A product is a 64-bit count
//!   times a `u128`, two machine multiplies.
//! - **Fixed point** (any D): `floor(p 2^127)` per transition and `V = 124`; the product
//!   `floor(v c / 2^127)`, computed without its lowest partial product, is at most 3 units below
//!   `v c / 2^127`, which is less than 1 unit below `v p`: `delta_j` = [`PRODUCT_LOSS`] per
//!   transition into j.
//!
//! Renormalising after each step shifts `v`, `r` and the bounds left by the same k bits, so the
//! enclosure keeps its width relative to `P(T > n)`.
//!
//! # No underflow
//!
//! The factor g covers relative rounding errors only, which holds while every `f64` involved is
//! normal. So every `p^_ij` is at least [`UPPER_FLOOR`] = 2^-400 (a probability below it, or
//! one whose nearest `f64` is subnormal or 0, gets 2^-400, still an upper bound), and every
//! nonzero `r_i` is raised to at least [`ERROR_FLOOR`] = 2^-600 before it is used (raising an
//! upper bound keeps it one; it changes no `ceil(r_i)`, which is 1 either way). A product
//! `r_i p^_ij` is then 0 exactly or at least 2^-1000, above the smallest normal `f64` (2^-1022),
//! and sums of such terms do not underflow either.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::Bounds;
use crate::chain::{Chain, ChainState};
use crate::exact::decimal::to_f64;
use crate::race::fixed::round_outward;

/// The largest common denominator (in bits) stepped as integer counts.
const COUNT_BITS: u64 = 20;
/// Value bits in fixed point: [`mul_down`] needs `v <= 2^125`.
const FIXED_VALUE_BITS: u32 = 124;
/// Bits of the fixed-point transition probabilities.
const COEF_BITS: u32 = 127;
/// Units a fixed-point product can lose: 3 in [`mul_down`], under 1 from the coefficient.
const PRODUCT_LOSS: f64 = 4.0;
/// Units the division of a count sum by D can lose: under 1 from the reciprocal, 3 in
/// [`mul_down`], and the floor.
const DIVIDE_LOSS: f64 = 5.0;
/// The least `p^_ij` (see "No underflow" in the module documentation).
const UPPER_FLOOR: f64 = power_of_two(-400);
/// The least nonzero error bound used in a step (see "No underflow").
const ERROR_FLOOR: f64 = power_of_two(-600);

/// `2^k` for a normal power (`-1022 <= k <= 1023`), from its bits.
const fn power_of_two(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// `p^ >= p` as an `f64`, at least [`UPPER_FLOOR`]: the nearest `f64` (within a relative
/// 2^-52 when p is at least 2^-400, a normal number) times `1 + 2^-50`, which that product's own
/// rounding cannot bring back below p.
fn upper_bound(p: &BigRational) -> f64 {
    (to_f64(p) * (1.0 + 2f64.powi(-50))).max(UPPER_FLOOR)
}

/// An error bound as a step uses it: 0, or at least [`ERROR_FLOOR`].
#[inline(always)]
fn no_underflow(e: f64) -> f64 {
    if e > 0.0 && e < ERROR_FLOOR {
        ERROR_FLOOR
    } else {
        e
    }
}

/// `floor(v c / 2^127)` less at most 3, for `v < 2^127` and `c <= 2^127`: every partial
/// product but the lowest (`v0 c0 < 2^128`, under 2 units), each shifted down.
#[inline(always)]
fn mul_down(v: u128, c: u128) -> u128 {
    let (v1, v0) = (v >> 64, v & u128::from(u64::MAX));
    let (c1, c0) = (c >> 64, c & u128::from(u64::MAX));
    // v1 c1 < 2^126, and v1 c0 + v0 c1 < 2^127 + 2^127: nothing overflows.
    ((v1 * c1) << 1) + ((v1 * c0 + v0 * c1) >> 63)
}

/// One transition as the counts route steps it: all it reads, side by side.
#[derive(Clone, Copy, Debug)]
struct CountEntry {
    /// The destination j.
    j: u32,
    /// The count `a_ij = D p_ij` (below `2^COUNT_BITS`).
    a: u32,
    /// `p^_ij >= p_ij` as `f64`.
    upper: f64,
}

/// One transition as the fixed-point route steps it.
#[derive(Clone, Copy, Debug)]
struct FixedEntry {
    /// `floor(p_ij 2^127)`.
    coef: u128,
    /// `p^_ij >= p_ij` as `f64`.
    upper: f64,
    /// The destination j.
    j: u32,
}

/// `floor(n 2^127 / d)` for `n <= d`, `d > 0` (the fixed-point probability of `n / d`) by long
/// division in two 64-bit digits: `n 2^63 = q1 d + r1`, then `r1 2^64 = q0 d + r0`.
fn floor_scaled(n: u64, d: u64) -> u128 {
    let (a, d) = (u128::from(n) << 63, u128::from(d));
    let (q1, r1) = (a / d, a % d);
    (q1 << 64) + (r1 << 64) / d
}

/// How the transitions are stored (see the module documentation), in the order of the rows.
#[derive(Clone, Debug)]
enum Weights {
    /// The integer counts, and `floor(2^127 / D)`.
    Counts {
        entries: Vec<CountEntry>,
        reciprocal: u128,
    },
    /// The fixed-point probabilities.
    Fixed(Vec<FixedEntry>),
}

/// A chain's transitions ready for certified stepping, in compressed rows; every final state is
/// merged into one column (index `transient`): only the total `P(T = n)` is stepped.
#[derive(Clone, Debug)]
pub struct CertifiedChain {
    transient: usize,
    start: usize,
    row_start: Vec<usize>,
    weights: Weights,
    /// The value bits V.
    value_bits: u32,
    /// The factor g of the error vector's stepping.
    grow: f64,
}

/// The common denominator of `probabilities` when it is below `2^COUNT_BITS`.
fn small_denominator(probabilities: &[BigRational]) -> Option<u64> {
    probabilities.iter().try_fold(1u64, |d, p| {
        let lcm = d.lcm(&p.denom().to_u64()?);
        (lcm < 1 << COUNT_BITS).then_some(lcm)
    })
}

/// A chain's transient rows in compressed form, every final state merged into one column
/// (index `transient`), as both tiers read them.
#[derive(Clone, Debug)]
pub struct MergedRows {
    /// The number of transient states t.
    pub transient: usize,
    /// The start state.
    pub start: usize,
    /// Where each row's entries begin (t + 1 offsets).
    pub row_start: Vec<usize>,
    /// Each entry's destination (t for the finish).
    pub col: Vec<u32>,
    /// Each entry's probability.
    pub probabilities: Vec<BigRational>,
}

impl MergedRows {
    /// The rows of `chain`.
    pub fn new<S: ChainState>(chain: &Chain<S>) -> MergedRows {
        let t = chain.transient_count();
        let mut row_start = vec![0];
        let mut col: Vec<u32> = Vec::new();
        let mut probabilities: Vec<BigRational> = Vec::new();
        for row in chain.rows().iter().take(t) {
            let start = col.len();
            for (j, p) in row {
                let j = u32::try_from((*j).min(t)).expect("fewer than 2^32 states");
                // The final states' entries merge into one.
                match col[start..].iter().position(|&c| c == j && j as usize == t) {
                    Some(k) => probabilities[start + k] = &probabilities[start + k] + p,
                    None => {
                        col.push(j);
                        probabilities.push(p.clone());
                    }
                }
            }
            row_start.push(col.len());
        }
        MergedRows {
            transient: t,
            start: chain.start(),
            row_start,
            col,
            probabilities,
        }
    }

    /// The most entries in one column (the finish included): the most terms of one sum.
    pub fn widest_column(&self) -> usize {
        let mut indegree = vec![0usize; self.transient + 1];
        self.col.iter().for_each(|&j| indegree[j as usize] += 1);
        indegree.iter().copied().max().unwrap_or(0)
    }
}

impl CertifiedChain {
    /// Prepares `chain`'s transitions.
    pub fn new<S: ChainState>(chain: &Chain<S>) -> CertifiedChain {
        CertifiedChain::from_rows(&MergedRows::new(chain))
    }

    /// Prepares the transitions of `rows` (shared with the float tier).
    pub fn from_rows(rows: &MergedRows) -> CertifiedChain {
        let widest = rows.widest_column() as f64;
        let MergedRows {
            transient: t,
            start,
            row_start,
            col,
            probabilities,
        } = rows;
        let (t, start) = (*t, *start);
        let entries = col.iter().zip(probabilities);
        let (weights, value_bits) = match small_denominator(probabilities) {
            Some(d) => {
                let count = |p: &BigRational| {
                    let a = p.numer() * (BigInt::from(d) / p.denom());
                    a.to_u32().expect("a count is at most D")
                };
                let weights = Weights::Counts {
                    entries: entries
                        .map(|(&j, p)| CountEntry {
                            j,
                            a: count(p),
                            upper: upper_bound(p),
                        })
                        .collect(),
                    reciprocal: (1u128 << 127) / u128::from(d),
                };
                // V = 127 - bits(D), so that D 2^V <= 2^127.
                (weights, 126 - d.ilog2())
            }
            None => {
                let coef = |p: &BigRational| match (p.numer().to_u64(), p.denom().to_u64()) {
                    (Some(n), Some(d)) => floor_scaled(n, d),
                    _ => {
                        let (lo, _) = round_outward(p, COEF_BITS);
                        lo.to_u128().expect("a probability is <= 1")
                    }
                };
                let entries = entries.map(|(&j, p)| FixedEntry {
                    coef: coef(p),
                    upper: upper_bound(p),
                    j,
                });
                (Weights::Fixed(entries.collect()), FIXED_VALUE_BITS)
            }
        };
        CertifiedChain {
            transient: t,
            start,
            row_start: row_start.clone(),
            weights,
            value_bits,
            grow: 1.0 + (3.0 * widest.max(t as f64) + 8.0) * 2f64.powi(-50),
        }
    }

    /// The number of transitions.
    pub fn transitions(&self) -> usize {
        self.row_start.last().copied().unwrap_or(0)
    }

    /// A stepper at n = 0 (all mass on the start state, which must be transient).
    pub fn stepper(&self) -> CertifiedStepper<'_> {
        let t = self.transient;
        let mut v = vec![0; t];
        if self.start < t {
            v[self.start] = 1u128 << self.value_bits;
        }
        let survives = v.iter().sum();
        CertifiedStepper {
            chain: self,
            turn: 0,
            exponent: 0,
            v,
            error: vec![0.0; t],
            next: vec![(0, 0.0); t + 1],
            survives: (survives, survives),
            ends: (0, 0),
            shift_before: self.value_bits,
        }
    }
}

/// Certified bounds of the law after `turn()` turns.
#[derive(Clone, Debug)]
pub struct CertifiedStepper<'a> {
    chain: &'a CertifiedChain,
    turn: usize,
    /// The block exponent e: stored values are probabilities times 2^(V + e).
    exponent: u32,
    /// The lower bound of the scaled law of the transient states.
    v: Vec<u128>,
    /// An upper bound of each transient state's error `x_j - v_j`.
    error: Vec<f64>,
    /// The next step's sums and error bounds, side by side (the transient states, then the
    /// finish).
    next: Vec<(u128, f64)>,
    /// Bounds of P(T > n) at the current exponent.
    survives: (u128, u128),
    /// Bounds of P(T = n) over 2^shift_before.
    ends: (u128, u128),
    shift_before: u32,
}

/// `ceil(x)` for an error bound `x >= 0`, saturating (an infinite bound bounds nothing).
fn units(x: f64) -> u128 {
    match x.is_finite() {
        true => x.ceil() as u128,
        false => u128::MAX,
    }
}

impl CertifiedStepper<'_> {
    /// Plays one more turn.
    pub fn step(&mut self) {
        let c = self.chain;
        let t = c.transient;
        // `next` is all zeros here: the last step cleared it (or the stepper began so).
        match &c.weights {
            Weights::Counts { entries, .. } => {
                let rows = c.row_start.windows(2).zip(&self.v).zip(&self.error);
                for ((row, &x), &e) in rows {
                    let e = no_underflow(e);
                    if x != 0 || e != 0.0 {
                        for entry in &entries[row[0]..row[1]] {
                            let j = entry.j as usize;
                            let next = &mut self.next[j];
                            next.0 += x * u128::from(entry.a);
                            next.1 += e * entry.upper;
                        }
                    }
                }
            }
            Weights::Fixed(entries) => {
                let rows = c.row_start.windows(2).zip(&self.v).zip(&self.error);
                for ((row, &x), &e) in rows {
                    let e = no_underflow(e);
                    let entries = &entries[row[0]..row[1]];
                    if x != 0 {
                        for entry in entries {
                            let j = entry.j as usize;
                            let next = &mut self.next[j];
                            next.0 += mul_down(x, entry.coef);
                            next.1 += e * entry.upper + PRODUCT_LOSS;
                        }
                    } else if e != 0.0 {
                        // No product, so no loss: only the error flows on.
                        for entry in entries {
                            self.next[entry.j as usize].1 += e * entry.upper;
                        }
                    }
                }
            }
        }
        let (sum_lo, error_sum) = self.close_sums();
        let (end_lo, end_error) = self.next[t];
        let sum_hi = sum_lo.saturating_add(units(error_sum));
        let end_hi = end_lo.saturating_add(units(end_error));
        let (was_lo, was_hi) = self.survives;
        // P(T > n) = P(T > n - 1) - P(T = n), and P(T = n) likewise.
        let s_lo = sum_lo.max(was_lo.saturating_sub(end_hi));
        let s_hi = sum_hi.min(was_hi.saturating_sub(end_lo));
        let e_lo = end_lo.max(was_lo.saturating_sub(sum_hi));
        let e_hi = end_hi.min(was_hi.saturating_sub(sum_lo));
        self.ends = (e_lo, e_hi);
        self.shift_before = c.value_bits + self.exponent;
        // Renormalise: shift so that the surviving mass is again near 2^V.
        let k = match s_hi {
            0 => 0,
            _ => s_hi.leading_zeros().saturating_sub(128 - c.value_bits),
        };
        let scale = 2f64.powi(k as i32);
        let states = self.v.iter_mut().zip(&mut self.error);
        for ((v, error), next) in states.zip(&mut self.next[..t]) {
            (*v, *error) = (next.0 << k, next.1 * scale);
            *next = (0, 0.0);
        }
        self.next[t] = (0, 0.0);
        self.survives = (s_lo << k, s_hi << k);
        self.exponent += k;
        self.turn += 1;
    }

    /// Ends the step's sums in one pass: the division by D on the counts route (a zero sum
    /// divides exactly), then the factor g on every error bound; returns the sums over the
    /// transient states, of the values and (times g once more) of the error bounds.
    fn close_sums(&mut self) -> (u128, f64) {
        let c = self.chain;
        let g = c.grow;
        let divide = match &c.weights {
            Weights::Counts { reciprocal, .. } => Some(*reciprocal),
            Weights::Fixed(_) => None,
        };
        let close = |(x, e): &mut (u128, f64)| {
            if let (Some(r), true) = (divide, *x != 0) {
                *x = mul_down(*x, r);
                *e += DIVIDE_LOSS;
            }
            *e *= g;
        };
        let (states, finish) = self.next.split_at_mut(c.transient);
        let (mut sum_lo, mut error_sum) = (0u128, 0.0f64);
        for next in states {
            close(next);
            sum_lo += next.0;
            error_sum += next.1;
        }
        close(&mut finish[0]);
        (sum_lo, error_sum * g)
    }

    /// The number of turns played.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Bounds of P(T = n).
    pub fn ends_now(&self) -> Bounds {
        Bounds {
            lo: self.ends.0,
            hi: self.ends.1,
            shift: self.shift_before,
        }
    }

    /// Bounds of the probability of each transient state after `turn()` turns.
    pub fn position(&self) -> Vec<Bounds> {
        let shift = self.chain.value_bits + self.exponent;
        let cap = self.survives.1;
        self.v
            .iter()
            .zip(&self.error)
            .map(|(&lo, &e)| Bounds {
                lo,
                hi: lo.saturating_add(units(e)).min(cap),
                shift,
            })
            .collect()
    }

    /// The lower bounds of [`CertifiedStepper::position`] and their shift, without a copy.
    pub fn lower_bounds(&self) -> (&[u128], u32) {
        (&self.v, self.chain.value_bits + self.exponent)
    }

    /// Bounds of P(T > n).
    pub fn survives(&self) -> Bounds {
        Bounds {
            lo: self.survives.0,
            hi: self.survives.1,
            shift: self.chain.value_bits + self.exponent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::chain::Chain;
    use crate::exact::step::IntegerChain;

    /// A loaded two-faced die whose top face (weight 1 in 1,000,001) rolls again up to 63 times:
    /// the turn that forfeits after 64 tops has probability 1,000,001^-64, about 2^-1276, below
    /// the smallest `f64`.
    fn tiny_odds_board() -> Board {
        Board::from_toml_str(
            "size = 30\n[rules]\ndie = [1000000, 1]\nroll_again = 64\n",
            "tiny-odds",
        )
        .unwrap()
    }

    #[test]
    fn every_float_upper_bound_is_above_its_probability_even_below_the_float_range() {
        let chain = Chain::for_board(&tiny_odds_board());
        let mut smallest: Option<BigRational> = None;
        for (_, p) in chain.rows().iter().flatten() {
            let hat = upper_bound(p);
            assert!(hat >= UPPER_FLOOR && hat.is_normal());
            assert!(BigRational::from_float(hat).unwrap() >= *p, "{p}");
            if smallest.as_ref().is_none_or(|s| p < s) {
                smallest = Some(p.clone());
            }
        }
        // The board has a transition the nearest f64 would round to 0 (so `to_f64(p) * (1 +
        // 2^-50)` alone would have been below p).
        let smallest = smallest.unwrap();
        assert_eq!(to_f64(&smallest), 0.0, "{smallest}");
    }

    #[test]
    fn fixed_point_probabilities_by_long_division_agree_with_big_integers() {
        // Second method: `round_outward`'s floor in big integers. Ends of the range, a
        // power of two (exact), thirds and sixths, and the largest words.
        let cases = [
            (0u64, 1u64),
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 3),
            (5, 6),
            (1, 6u64.pow(20)),
            (u64::MAX, u64::MAX),
            (1, u64::MAX),
            (u64::MAX - 1, u64::MAX),
            (12_345_678_901, 98_765_432_109),
        ];
        for (n, d) in cases {
            let p = BigRational::new(n.into(), d.into());
            let (lo, _) = round_outward(&p, COEF_BITS);
            assert_eq!(floor_scaled(n, d), lo.to_u128().unwrap(), "{n}/{d}");
        }
    }

    #[test]
    fn a_nonzero_error_bound_is_never_tiny_and_zero_stays_zero() {
        assert_eq!(no_underflow(0.0), 0.0);
        assert_eq!(no_underflow(f64::MIN_POSITIVE), ERROR_FLOOR);
        assert_eq!(no_underflow(3.5), 3.5);
        assert_eq!(ERROR_FLOOR, 2f64.powi(-600));
        assert_eq!(UPPER_FLOOR, 2f64.powi(-400));
        // The least product of the two is a normal number.
        assert!((ERROR_FLOOR * UPPER_FLOOR).is_normal());
    }

    #[test]
    fn the_bounds_contain_the_exact_law_on_a_board_with_odds_below_the_float_range() {
        // Second method: the exact integer stepping.
        let chain = Chain::for_board(&tiny_odds_board());
        let (cc, ic) = (CertifiedChain::new(&chain), IntegerChain::new(&chain));
        let (mut c, mut e) = (cc.stepper(), ic.stepper());
        for _ in 0..40 {
            c.step();
            e.step();
            for (b, x) in [
                (c.survives(), e.p_survives()),
                (c.ends_now(), e.p_ends_now()),
            ] {
                assert!(b.contains(&x));
            }
        }
    }
}
