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
//! - **Counts** (`P = A / D`, the common denominator `D < 2^40` ([`COUNT_BITS`]), as on every
//!   board with one die, and on efi, whose six rolls again: `D = 5 6^14`, 39 bits): with
//!   `V = 127 - bits(D)` the sums `sum_i v_i a_ij` are exact in `u128`. Every one is at most
//!   `D sum_i v_i`, and `sum_i v_i <= 2^V`: it is `2^V` at n = 0, and after a step it is at
//!   most the upper bound of `P(T > n)`, which is at most the one before (`P(T > n - 1)`'s,
//!   less a lower bound of `P(T = n)`) and which renormalising shifts only while it stays
//!   below `2^V`. So every partial sum and every product `v_i a_ij` is below
//!   `D 2^V < 2^127`. A product is a `u128` times a 64-bit count, two machine multiplies (the
//!   high word of `v_i` times `a_ij` is needed only to 64 bits, as the product fits). One
//!   division by D per state ends the step, a [`mul_down`] by `floor(2^127 / D)`, rounded
//!   down by at most [`DIVIDE_LOSS`] units: `delta_j` = that, once per state, and 0 for a
//!   zero sum, which divides exactly. (An exact floor, by a remainder and four comparisons,
//!   would take 4 units off `delta_j`, 2 bits of the width, but cost 12 % of the stepping's
//!   time on a board with a six-sided die.)
//! - **Fixed point** (any D): `floor(p 2^127)` per transition and `V = 124`; the product
//!   `floor(v c / 2^127)`, computed without its lowest partial product, is at most 3 units below
//!   `v c / 2^127`, which is less than 1 unit below `v p`: `delta_j` = [`PRODUCT_LOSS`] per
//!   transition into j from a state whose value is not 0.
//!
//! Renormalising after each step shifts `v`, `r` and the bounds left by the same k bits, so the
//! enclosure keeps its width relative to `P(T > n)` (`v` and `r` as the next step reads them,
//! which saves a pass over the states).
//!
//! # Through the links
//!
//! A chain built with links ([`crate::chain::Link`], one player under unlimited roll-again)
//! is stepped through them when that saves transitions: the links first, summing
//! `y = v + y W` in place of v, then the rows (each linked state's ending rolls only) on
//! either route, read from y. `stepper/linked.rs` has the proof that the bounds still hold and the
//! value bits it takes.
//!
//! # Why the counts route steps by source
//!
//! Stepping by destination gives the same integers and, with each column's terms in the order
//! of the sources, the same floats (`sum_i x_i a_ij` shifted by k once is the sum of the
//! shifted terms; scaling by `2^k` commutes with rounding in the normal range; a skipped
//! state's terms are +0). It was measured on efi (2,530 transitions, 245 turns) against this
//! loop's 11.9 M instructions and 1.18 ms of `certified_distribution` (best of 1,000 in
//! process): a sum per column in registers, 11.5 M and 1.39 ms; the products `x_i a` and
//! `e_i p^` once per distinct (source, count) pair (931 of the 2,530) then the columns,
//! 10.1 M and 1.32 ms; the columns four side by side (sorted by length, padded with a zero
//! pair), 8.9 M and 1.25 ms. That last gave every output byte for byte and took 150 M
//! instructions to 103 M on `benches/boards/gen-1000.toml` (20.6 ms to 19.3 ms for the
//! process) and 3.1 M to 2.3 M on milton-bradley, but left the process on efi where it was.
//! This loop runs near the machine's issue width (about 19 instructions, 1 ns, per
//! transition on the AMD EPYC measured): packing j and the count in one word, a load fewer
//! and two ALU operations more, took 1.26 ms.
//!
//! # How tight
//!
//! The bounds are proved above; how far apart they end up is a matter of measure. A loss of
//! `delta` units at turn m flows on as the law does, and by turn n it adds at most
//! `delta sum_i P_i(T > n - m)` units of turn m's scale to the total error (`P_i` the game from
//! state i), that is `delta sum_i P_i(T > n - m) 2^(e_n - e_m)` units of turn n's, where
//! renormalising keeps `2^(e_n - e_m)` below about `2 P(T > m) / P(T > n)`. Once the law of the
//! position has settled, `P_i(T > n - m) P(T > m) / P(T > n)` is about `c_i / C` (`c_i` and C
//! the constants of the tails from state i and from the start), so every turn adds about
//! `2 delta sum_i c_i / C` units, and the total error grows linearly in n, against a surviving
//! mass of `2^(V - 1)` units or more.
//!
//! Measured on efi (D of 39 bits, V = 88, delta = 5 per state): the width of `P(T > n)` is
//! under 2^19 units up to turn 300 (relative 2^-69.5 there), and each state's enclosure, as
//! the tail law reads it at turn m = 244 ([`CertifiedStepper::position`]), is under 2^15
//! units, 2^-69.7 of the state's own probability at worst (every state is settled from turn
//! 175 on). The fixed-point route on the same chain left about 20 times as many units, but of
//! 2^-124 each: 2^-102 relative. The tail law needs much less than either: its printed error
//! on efi (9e-23 for n >= 260, against `P(T > 260)` of about 5e-11) is set by the float
//! vector it divides by, and comes out the same.
//!
//! # No underflow
//!
//! The factor g covers relative rounding errors only, which holds while every `f64` involved is
//! normal. So every `p^_ij` is at least [`UPPER_FLOOR`] = 2^-400 (a probability below it, or
//! one whose nearest `f64` is subnormal or 0, gets 2^-400, still an upper bound), and every
//! nonzero `r_i` is at least [`ERROR_FLOOR`] = 2^-600 when it is used: a state whose sum is
//! not 0 has its loss, at least 1 unit, in its bound; a zero sum's nonzero bound is raised to
//! the floor (raising an upper bound keeps it one; it changes no `ceil(r_i)`, which is 1
//! either way); and renormalising only multiplies by `2^k >= 1`. A product `r_i p^_ij` is then
//! 0 exactly or at least 2^-1000, above the smallest normal `f64` (2^-1022), and sums of such
//! terms do not underflow either.

use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;

mod linked;

use super::rows::{nearest_f64, MergedRows, Probabilities, COUNT_BITS};
use super::Bounds;
use crate::chain::{Chain, ChainState};
use crate::num::decimal::to_f64;
use crate::num::dyadic::round_outward;

/// Value bits in fixed point: [`mul_down`] needs `v <= 2^125`.
const FIXED_VALUE_BITS: u32 = 124;
/// Bits of the fixed-point transition probabilities.
const COEF_BITS: u32 = 127;
/// Units a fixed-point product can lose: 3 in [`mul_down`], under 1 from the coefficient.
const PRODUCT_LOSS: f64 = 4.0;
/// Units the division of a count sum by D can lose: under 1 from the reciprocal (less than 1
/// below `2^127 / D`, times a sum below 2^127), 3 in [`mul_down`], and the floor.
const DIVIDE_LOSS: f64 = 5.0;
/// The least `p^_ij` (see "No underflow" in the module documentation).
const UPPER_FLOOR: f64 = power_of_two(-400);
/// The least nonzero error bound a step stores (see "No underflow").
const ERROR_FLOOR: f64 = power_of_two(-600);

/// `2^k` for a normal power (`-1022 <= k <= 1023`), from its bits.
const fn power_of_two(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// `p^ >= p` as an `f64`, at least [`UPPER_FLOOR`]: the nearest `f64` (within a relative
/// 2^-52 when p is at least 2^-400, a normal number) times `1 + 2^-50`, which that product's own
/// rounding cannot bring back below p.
fn upper_bound(p: &BigRational) -> f64 {
    upper_of_nearest(to_f64(p))
}

/// [`upper_bound`] from the nearest `f64` of the probability.
fn upper_of_nearest(nearest: f64) -> f64 {
    (nearest * (1.0 + 2f64.powi(-50))).max(UPPER_FLOOR)
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
/// product but the lowest (`v0 c0 < 2^128`, under 2 units), each shifted down. (Written as
/// twice `v1 c1 + floor(mid / 2^64)` plus bit 63 of mid, LLVM saves a multiply, but the two
/// double-word shifts it needs then took longer on the AMD EPYC measured.)
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
    /// The count `a_ij = D p_ij` (at most D, below `2^COUNT_BITS`).
    a: u64,
    /// `p^_ij >= p_ij` as `f64`.
    upper: f64,
    /// The destination j.
    j: u32,
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
    /// The links followed before the rows are spread (`stepper/linked.rs`); then the rows of the
    /// linked states hold only their ending rolls.
    links: Option<linked::LinkSteps>,
    transient: usize,
    start: usize,
    /// The number of entries in each transient state's row.
    row_len: Vec<u32>,
    weights: Weights,
    /// The value bits V.
    value_bits: u32,
    /// The factor g of the error vector's stepping.
    grow: f64,
}

/// The factor g of the error vector's stepping: `1 + (3 m + 8) 2^-50`, m the most terms of one
/// sum (`widest`, the most entries in one column, or the t transient states, for the total).
fn grow(widest: usize, t: usize) -> f64 {
    1.0 + (3.0 * (widest as f64).max(t as f64) + 8.0) * 2f64.powi(-50)
}

/// One entry's probability as the weights are built from it: a fraction of words, or a big
/// fraction.
#[derive(Clone, Copy)]
enum Share<'a> {
    Words(u64, u64),
    Big(&'a BigRational),
}

impl<'a> From<&'a BigRational> for Share<'a> {
    fn from(p: &'a BigRational) -> Share<'a> {
        match (p.numer().to_u64(), p.denom().to_u64()) {
            (Some(n), Some(d)) => Share::Words(n, d),
            _ => Share::Big(p),
        }
    }
}

/// Entry k of `rows` as a [`Share`].
fn share(rows: &MergedRows, k: usize) -> Share<'_> {
    match &rows.probabilities {
        Probabilities::Counts { d, counts } => Share::Words(counts[k], *d),
        Probabilities::Fractions(p) => Share::from(&p[k]),
    }
}

/// The least common denominator of `shares` when every one is a fraction of words and it is
/// below `2^COUNT_BITS`.
fn small_denominator<'a, T: Into<Share<'a>>>(shares: impl IntoIterator<Item = T>) -> Option<u64> {
    shares.into_iter().try_fold(1u64, |l, p| {
        let Share::Words(_, d) = p.into() else {
            return None;
        };
        // l < 2^40, but d may be any word: the lcm is checked, not wrapped.
        let l = match l % d {
            0 => l,
            _ => l.checked_mul(d / l.gcd(&d))?,
        };
        (l < 1 << COUNT_BITS).then_some(l)
    })
}

/// The weights and value bits of the transitions `entries` (destination, probability): as
/// counts over their common denominator when it is below `2^COUNT_BITS`, else in fixed point.
/// `p^` of a count is taken from the count's nearest `f64`, which is `to_f64(p)`'s ("The
/// nearest float" in `rows.rs`).
fn weights_of<'a>(entries: impl Iterator<Item = (u32, Share<'a>)> + Clone) -> (Weights, u32) {
    match small_denominator(entries.clone().map(|(_, p)| p)) {
        Some(l) => count_route(
            entries
                .map(|(j, p)| {
                    let Share::Words(n, d) = p else {
                        unreachable!("a common denominator of words")
                    };
                    // n <= d and d divides l: the count is at most l.
                    let a = n * (l / d);
                    let upper = upper_of_nearest(nearest_f64(a, l));
                    CountEntry { a, upper, j }
                })
                .collect(),
            l,
        ),
        None => {
            let entries = entries.map(|(j, p)| {
                let (coef, upper) = match p {
                    Share::Words(n, d) => (floor_scaled(n, d), upper_bound(&ratio(n, d))),
                    Share::Big(p) => (fixed_coef(p), upper_bound(p)),
                };
                FixedEntry { coef, upper, j }
            });
            (Weights::Fixed(entries.collect()), FIXED_VALUE_BITS)
        }
    }
}

/// `n / d` as a big fraction.
fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// The counts route's weights and value bits from its entries.
fn count_route(entries: Vec<CountEntry>, d: u64) -> (Weights, u32) {
    let reciprocal = (1u128 << 127) / u128::from(d);
    // V = 127 - bits(D), so that D 2^V < 2^127.
    (
        Weights::Counts {
            entries,
            reciprocal,
        },
        126 - d.ilog2(),
    )
}

/// `floor(p 2^127)`, the fixed-point probability.
fn fixed_coef(p: &BigRational) -> u128 {
    match (p.numer().to_u64(), p.denom().to_u64()) {
        (Some(n), Some(d)) => floor_scaled(n, d),
        _ => {
            let (lo, _) = round_outward(p, COEF_BITS);
            lo.to_u128().expect("a probability is <= 1")
        }
    }
}

impl CertifiedChain {
    /// Prepares `chain`'s transitions.
    pub fn new<S: ChainState>(chain: &Chain<S>) -> CertifiedChain {
        CertifiedChain::for_chain(chain, &MergedRows::new(chain))
    }

    /// Prepares `chain`'s transitions, `rows` its rows: through its links when it has them
    /// and they save transitions (`stepper/linked.rs`), else the rows as they are.
    pub fn for_chain<S: ChainState>(chain: &Chain<S>, rows: &MergedRows) -> CertifiedChain {
        let Some(linked) = linked::linked_rows(chain, rows) else {
            return CertifiedChain::from_rows(rows);
        };
        let t = rows.transient;
        CertifiedChain {
            links: Some(linked.links),
            transient: t,
            start: rows.start,
            row_len: linked.row_len,
            weights: linked.weights,
            value_bits: linked.value_bits,
            grow: grow(linked.widest, t),
        }
    }

    /// Prepares the transitions of `rows` (shared with the float tier).
    pub fn from_rows(rows: &MergedRows) -> CertifiedChain {
        let t = rows.transient;
        let entries = (0..rows.col.len()).map(|k| (rows.col[k], share(rows, k)));
        let (weights, value_bits) = weights_of(entries);
        CertifiedChain {
            links: None,
            transient: t,
            start: rows.start,
            row_len: rows
                .row_start
                .windows(2)
                .map(|w| u32::try_from(w[1] - w[0]).expect("fewer than 2^32 states"))
                .collect(),
            weights,
            value_bits,
            grow: grow(rows.widest_column(), t),
        }
    }

    /// The number of transitions.
    pub fn transitions(&self) -> usize {
        match &self.weights {
            Weights::Counts { entries, .. } => entries.len(),
            Weights::Fixed(entries) => entries.len(),
        }
    }

    /// A stepper at n = 0 (all mass on the start state, which must be transient).
    pub fn stepper(&self) -> CertifiedStepper<'_> {
        let t = self.transient;
        let mut v = Words::zeros(t + 1);
        let mut survives = 0;
        if self.start < t {
            survives = 1u128 << self.value_bits;
            v.set(self.start, survives, 0.0);
        }
        CertifiedStepper {
            chain: self,
            turn: 0,
            exponent: 0,
            pending: 0,
            next: Words::zeros(t + 1),
            v,
            survives: (survives, survives),
            ends: (0, 0),
            shift_before: self.value_bits,
        }
    }
}

/// A vector over the states in machine words: each `u128` value as its low and high words,
/// and an `f64` error bound, in three arrays of one power-of-two length, so that an index
/// masked by that length less 1 needs no bounds check (and no multiply: every element is 8
/// bytes).
#[derive(Clone, Debug)]
struct Words {
    lo: Vec<u64>,
    hi: Vec<u64>,
    error: Vec<f64>,
}

impl Words {
    /// Zeros, room for at least `n` states.
    fn zeros(n: usize) -> Words {
        let len = n.next_power_of_two();
        Words {
            lo: vec![0; len],
            hi: vec![0; len],
            error: vec![0.0; len],
        }
    }

    fn get(&self, i: usize) -> (u128, f64) {
        let x = u128::from(self.hi[i]) << 64 | u128::from(self.lo[i]);
        (x, self.error[i])
    }

    fn set(&mut self, i: usize, x: u128, e: f64) {
        (self.lo[i], self.hi[i], self.error[i]) = (x as u64, (x >> 64) as u64, e);
    }

    /// The three arrays as the inner loops add to them.
    fn sums(&mut self) -> Sums<'_> {
        let mask = self.lo.len() - 1;
        Sums {
            lo: &mut self.lo[..=mask],
            hi: &mut self.hi[..=mask],
            error: &mut self.error[..=mask],
            mask,
        }
    }
}

/// A step's sums as its inner loops add to them: every slice has length `mask + 1`.
struct Sums<'a> {
    lo: &'a mut [u64],
    hi: &'a mut [u64],
    error: &'a mut [f64],
    mask: usize,
}

impl Sums<'_> {
    /// [`Sums::add`] with a bounds check instead of the mask: the fixed-point loop, short of
    /// registers, had to reload the mask, and took 10 % longer.
    #[inline(always)]
    fn add_checked(&mut self, j: u32, x: u128, e: f64) {
        let j = j as usize;
        let (lo, carry) = self.lo[j].overflowing_add(x as u64);
        self.lo[j] = lo;
        self.hi[j] += (x >> 64) as u64 + u64::from(carry);
        self.error[j] += e;
    }

    /// Adds `x` (the sum stays below 2^128) and `e` to state j's sums.
    #[inline(always)]
    fn add(&mut self, j: u32, x: u128, e: f64) {
        // j is at most the finish's index, below the length: the mask changes nothing.
        let j = j as usize & self.mask;
        let (lo, carry) = self.lo[j].overflowing_add(x as u64);
        self.lo[j] = lo;
        self.hi[j] += (x >> 64) as u64 + u64::from(carry);
        self.error[j] += e;
    }
}

/// A transition as one route stores it.
trait Transition: Sized {
    /// Adds the share of a state whose value is x and error bound e, `row` its transitions,
    /// to the next step's sums.
    fn spread_row(x: u128, e: f64, row: &[Self], sums: &mut Sums);
}

impl Transition for CountEntry {
    /// `x a_ij` and `e p^_ij` for each transition. (Two at a time saved instructions but
    /// took longer: 10 % on a board with a six-sided die.)
    #[inline(always)]
    fn spread_row(x: u128, e: f64, row: &[CountEntry], sums: &mut Sums) {
        for entry in row {
            sums.add(entry.j, x * u128::from(entry.a), e * entry.upper);
        }
    }
}

impl Transition for FixedEntry {
    /// `floor(x c_ij / 2^127)` (less at most 3) and `e p^_ij` plus the product's loss, or,
    /// when x is 0, no product and no loss: only the error flows on.
    #[inline(always)]
    fn spread_row(x: u128, e: f64, row: &[FixedEntry], sums: &mut Sums) {
        if x != 0 {
            for entry in row {
                let error = e * entry.upper + PRODUCT_LOSS;
                sums.add_checked(entry.j, mul_down(x, entry.coef), error);
            }
        } else {
            for entry in row {
                sums.add(entry.j, 0, e * entry.upper);
            }
        }
    }
}

/// Certified bounds of the law after `turn()` turns.
#[derive(Clone, Debug)]
pub struct CertifiedStepper<'a> {
    chain: &'a CertifiedChain,
    turn: usize,
    /// The block exponent e: values are probabilities times 2^(V + e).
    exponent: u32,
    /// The lower bound of the scaled law of the transient states, and an upper bound of each
    /// one's error `x_j - v_j`, both still to be multiplied by `2^pending` (the last step's
    /// renormalisation, done as the next step reads them).
    v: Words,
    pending: u32,
    /// The next step's sums and error bounds (the transient states, then the finish): all
    /// zeros between steps.
    next: Words,
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
        if let Some(links) = &c.links {
            linked::follow(links, &mut self.v, t, c.grow, self.pending);
            self.pending = 0;
        }
        match (&c.weights, self.pending) {
            (Weights::Counts { entries, .. }, 0) => self.spread::<_, false>(entries),
            (Weights::Counts { entries, .. }, _) => self.spread::<_, true>(entries),
            (Weights::Fixed(entries), 0) => self.spread::<_, false>(entries),
            (Weights::Fixed(entries), _) => self.spread::<_, true>(entries),
        }
        let (sum_lo, error_sum) = self.close_sums();
        let (end_lo, end_error) = self.next.get(t);
        self.next.set(t, 0, 0.0);
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
        // Renormalise: shift so that the surviving mass is again near 2^V; the values and
        // their error bounds are shifted as the next step reads them.
        let k = match s_hi {
            0 => 0,
            _ => s_hi.leading_zeros().saturating_sub(128 - c.value_bits),
        };
        std::mem::swap(&mut self.v, &mut self.next);
        self.pending = k;
        self.survives = (s_lo << k, s_hi << k);
        self.exponent += k;
        self.turn += 1;
    }

    /// Reads each transient state's value and error bound (renormalised), and hands a state
    /// whose value or bound is not 0 to [`Transition::spread_row`] with its transitions and
    /// the next step's sums; leaves `v` all zeros. `SHIFTED`: whether there is a
    /// renormalisation to do (`pending` is not 0), a loop of its own as most turns have none.
    #[inline(always)]
    fn spread<T: Transition, const SHIFTED: bool>(&mut self, entries: &[T]) {
        let t = self.chain.transient;
        let (k, scale) = (self.pending, 2f64.powi(self.pending as i32));
        let mut sums = self.next.sums();
        let v = &mut self.v;
        let states = v.lo[..t]
            .iter_mut()
            .zip(&mut v.hi[..t])
            .zip(&mut v.error[..t]);
        let mut rest = entries;
        for (((lo, hi), error), &len) in states.zip(&self.chain.row_len) {
            let (entries, tail) = rest.split_at(len as usize);
            rest = tail;
            let (mut x, mut e) = (u128::from(*hi) << 64 | u128::from(*lo), *error);
            if SHIFTED {
                (x, e) = (x << k, e * scale);
            }
            // A nonzero e is at least ERROR_FLOOR: `close_sums` saw to it.
            if x != 0 || e != 0.0 {
                (*lo, *hi, *error) = (0, 0, 0.0);
                T::spread_row(x, e, entries, &mut sums);
            }
        }
    }

    /// Ends the step's sums in one pass: the division by D on the counts route (a zero sum
    /// divides exactly), then the factor g on every error bound; returns the sums over the
    /// transient states, of the values and (times g once more) of the error bounds.
    ///
    /// Every nonzero error bound it leaves is at least [`ERROR_FLOOR`], which renormalising
    /// (a factor 2^k) keeps: a state whose sum is not 0 had some loss counted (a division, or
    /// a product on the fixed-point route), at least 1 unit; the others are raised to it.
    fn close_sums(&mut self) -> (u128, f64) {
        let c = self.chain;
        let g = c.grow;
        let divide = match &c.weights {
            Weights::Counts { reciprocal, .. } => Some(*reciprocal),
            Weights::Fixed(_) => None,
        };
        let close = |lo: &mut u64, hi: &mut u64, e: &mut f64| -> u128 {
            let mut x = u128::from(*hi) << 64 | u128::from(*lo);
            if x == 0 {
                *e = no_underflow(*e * g);
                return 0;
            }
            if let Some(r) = divide {
                x = mul_down(x, r);
                (*lo, *hi) = (x as u64, (x >> 64) as u64);
                *e += DIVIDE_LOSS;
            }
            *e *= g;
            x
        };
        let t = c.transient;
        let n = &mut self.next;
        let (mut sum_lo, mut error_sum) = (0u128, 0.0f64);
        let states = n.lo[..t]
            .iter_mut()
            .zip(&mut n.hi[..t])
            .zip(&mut n.error[..t]);
        for ((lo, hi), e) in states {
            sum_lo += close(lo, hi, e);
            error_sum += *e;
        }
        close(&mut n.lo[t], &mut n.hi[t], &mut n.error[t]);
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
        let scale = 2f64.powi(self.pending as i32);
        (0..self.chain.transient)
            .map(|i| {
                let (x, e) = self.v.get(i);
                let lo = x << self.pending;
                Bounds {
                    lo,
                    hi: lo.saturating_add(units(e * scale)).min(cap),
                    shift,
                }
            })
            .collect()
    }

    /// The lower bounds of [`CertifiedStepper::position`] (integers over 2^shift), written
    /// over `out`, and their shift: what the tail law's watch reads every turn, without the
    /// error bounds.
    pub fn lower_bounds_into(&self, out: &mut Vec<u128>) -> u32 {
        let t = self.chain.transient;
        let words = self.v.lo[..t].iter().zip(&self.v.hi[..t]);
        let value = |(&lo, &hi): (&u64, &u64)| u128::from(hi) << 64 | u128::from(lo);
        out.clear();
        match self.pending {
            0 => out.extend(words.map(value)),
            k => out.extend(words.map(|w| value(w) << k)),
        }
        self.chain.value_bits + self.exponent
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
pub(super) mod tests;
