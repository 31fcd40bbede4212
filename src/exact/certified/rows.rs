//! A chain's transient rows as the certified tiers read them ([`super::CertifiedChain`],
//! [`super::FloatChain`]; the spectral bounds and the tail law derive their Q from the same
//! rows): compressed rows, every final state merged into one column, and every probability
//! read from the chain once, as an integer count over the rows' least common denominator D
//! when D is small, else as the fraction itself.
//!
//! # Counts
//!
//! When D is below `2^COUNT_BITS` (every board with one die; efi, whose six rolls again, has
//! `D = 5 6^14`, 39 bits) each entry is kept as its count `a = p D` (a `u64`, at most D) beside
//! its column: 12 bytes, against a fraction's two big integers and their heap blocks. Every
//! exact quantity the tiers need follows in machine words: the counts route's weights are the
//! counts themselves, the fixed-point route is never needed, and the lcm of any subset of the
//! entries' denominators is `D / gcd(D, their counts)` (the reduced denominator of `a / D` is
//! `D / gcd(a, D)`, and for divisors of D, `lcm(D / x, D / y) = D / gcd(x, y)`).
//!
//! # The nearest float
//!
//! [`nearest_f64`] is `a as f64 / D as f64`: both conversions are exact (below
//! 2^53) and IEEE division rounds the exact quotient `a / D = p` to nearest, so this is the
//! correctly rounded `p`. `crate::num::decimal::to_f64(p)` (num-rational's `to_f64`) divides
//! the reduced numerator and denominator as floats when both are at most 2^53 in magnitude,
//! which they are (they divide a and D): the correctly rounded quotient of the same rational, so
//! the same `f64`, bit for bit. (The tests compare the two on every built-in board.)
//!
//! # Reading the chain
//!
//! Two passes over each row: the lcm L of the raw entries' denominators, in a word (one
//! division for a denominator that divides it already), then each count `n (L / d)` (at most
//! L, as `n <= d`), the final columns' added into one. Merging can shorten a denominator (two
//! sixths make a third), so D is `L / gcd(L, every merged count)`, and the counts are divided by
//! that gcd: D is the lcm of the merged probabilities' reduced denominators, the very D the
//! fraction route finds. A denominator or an lcm past a word, or a D of `COUNT_BITS` bits or
//! more, sends the chain to the fraction route, which reads it as before.

use num_integer::Integer;
use num_rational::BigRational;

use num_traits::ToPrimitive;

use crate::chain::{Chain, ChainState};

/// The common denominators read as counts are below `2^COUNT_BITS`: then the `u128` tier's
/// `V = 127 - bits(D)` is at least 87 (see "How tight" in `stepper.rs`).
pub(super) const COUNT_BITS: u32 = 40;

/// How the entries' probabilities are kept, in the order of [`MergedRows::col`].
#[derive(Clone, Debug)]
pub enum Probabilities {
    /// Entry k's probability is `counts[k] / d`; d is the least common denominator of the
    /// entries, below `2^COUNT_BITS`.
    Counts {
        /// The least common denominator D.
        d: u64,
        /// Each entry's count `p D`.
        counts: Vec<u64>,
    },
    /// Each entry's probability as a fraction (a denominator of `COUNT_BITS` bits or more).
    Fractions(Vec<BigRational>),
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
    pub probabilities: Probabilities,
}

impl MergedRows {
    /// The rows of `chain`, as counts when their common denominator is small.
    pub fn new<S: ChainState>(chain: &Chain<S>) -> MergedRows {
        MergedRows::counts(chain).unwrap_or_else(|| MergedRows::fractions(chain))
    }

    /// The rows of `chain` as counts, or `None` when their least common denominator is not
    /// below `2^COUNT_BITS` (or a denominator on the way does not fit a word).
    pub fn counts<S: ChainState>(chain: &Chain<S>) -> Option<MergedRows> {
        let t = chain.transient_count();
        let rows = &chain.rows()[..t];
        // Each entry's numerator and denominator in words, or `None`.
        let words = |p: &BigRational| Some((p.numer().to_u64()?, p.denom().to_u64()?));
        // Runs of entries share a denominator: each run costs one test.
        let (mut l, mut seen) = (1u64, 1u64);
        for (_, p) in rows.iter().flatten() {
            let (_, d) = words(p)?;
            if d != seen && l % d != 0 {
                l = l.checked_mul(d / l.gcd(&d))?;
            }
            seen = d;
        }
        let len = rows.iter().map(Vec::len).sum();
        let mut row_start = Vec::with_capacity(t + 1);
        let (mut col, mut counts) = (Vec::with_capacity(len), Vec::<u64>::with_capacity(len));
        row_start.push(0);
        // L / d for the last denominator d (runs of entries share one).
        let (mut last, mut factor) = (0, 0);
        for row in rows {
            // The row's finish entry, once it has one.
            let mut finish: Option<usize> = None;
            for (to, p) in row {
                let (num, d) = words(p)?;
                if d != last {
                    (last, factor) = (d, l / d);
                }
                // A probability is at most 1, so n (L / d) <= L (checked all the same).
                let a = num.checked_mul(factor)?;
                let j = u32::try_from((*to).min(t)).ok()?;
                if j as usize == t {
                    if let Some(k) = finish {
                        counts[k] = counts[k].checked_add(a)?;
                        continue;
                    }
                    finish = Some(col.len());
                }
                col.push(j);
                counts.push(a);
            }
            row_start.push(col.len());
        }
        // D = L / gcd(L, every count); the gcd is usually 1 after a few entries.
        let mut g = l;
        for &a in &counts {
            if g == 1 {
                break;
            }
            if a % g != 0 {
                g = g.gcd(&a);
            }
        }
        let d = l / g;
        if d >= 1 << COUNT_BITS {
            return None;
        }
        if g > 1 {
            counts.iter_mut().for_each(|a| *a /= g);
        }
        Some(MergedRows {
            transient: t,
            start: chain.start(),
            row_start,
            col,
            probabilities: Probabilities::Counts { d, counts },
        })
    }

    /// The rows of `chain` as fractions, whatever their denominators (the route for large
    /// ones, and the tests' reference for the counts).
    pub fn fractions<S: ChainState>(chain: &Chain<S>) -> MergedRows {
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
            probabilities: Probabilities::Fractions(probabilities),
        }
    }

    /// The most entries in one column (the finish included): the most terms of one sum.
    pub fn widest_column(&self) -> usize {
        widest_column(self.col.iter().copied(), self.transient)
    }
}

/// The most entries in one column among `col` (columns 0 to t, the finish's t).
pub(super) fn widest_column(col: impl Iterator<Item = u32>, t: usize) -> usize {
    let mut indegree = vec![0usize; t + 1];
    col.for_each(|j| indegree[j as usize] += 1);
    indegree.iter().copied().max().unwrap_or(0)
}

/// A count over D as the nearest `f64` (see "The nearest float" in the module documentation:
/// for `a <= D < 2^53` it is the correctly rounded `a / D`).
#[inline]
pub fn nearest_f64(a: u64, d: u64) -> f64 {
    debug_assert!(a <= d && d < 1 << 53);
    a as f64 / d as f64
}

#[cfg(test)]
mod tests;
