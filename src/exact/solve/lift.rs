//! p-adic lifting (Dixon's method) for the values of a few linear functionals of the solution.
//!
//! # Method
//!
//! To solve `M z = f` over the integers, factor M once modulo one prime p and lift: with
//! `r_0 = f`, each step solves `M z_i = r_i (mod p)` for a digit vector `z_i` with entries in
//! `0..p`, and sets `r_{i+1} = (r_i - M z_i) / p` (an exact division). Then
//! `M (z_0 + z_1 p + ... + z_{k-1} p^{k-1}) = f - p^k r_k`, so the sum is `z mod p^k`: one
//! factorisation and k cheap triangular solves instead of one factorisation per prime. The
//! residuals stay as small as the rows of M (`|r_{i+1}| <= |r_i| / p + ||M||_1`), so they are
//! machine integers. (J. D. Dixon, *Exact solution of linear equations using p-adic expansions*,
//! Numer. Math. 40, 1982.)
//!
//! Only linear functionals `g . z` are wanted here (the start square's answers), so each digit
//! vector is reduced at once to the numbers `g . z_i`, and `g . z mod p^k` is
//! `sum_i (g . z_i) p^i`. A wanted value is a fraction `N / D` with `|N| <= B_N` and
//! `0 < D <= B_D` (Hadamard and Cramer bounds, see `log2_bounds`); once `p^k > 2 B_N B_D` it is
//! the unique such fraction congruent to the lifted value, and the half-extended Euclidean
//! algorithm finds it (rational reconstruction: P. S. Wang, *A p-adic algorithm for univariate
//! partial fractions*, SYMSAC 1981; von zur Gathen and Gerhard, *Modern Computer Algebra*,
//! section 5.10; `reconstruct.rs`). The bound is the proof, as in the multi-modular solver.
//! The matrix is a [`Csr`] (`csr.rs`).
//!
//! M here is block lower triangular, `[[A, 0], [-C, A]]`, for a solution chained to another
//! (`A y = C x`, as for a second moment), so one factorisation of A serves both blocks.

use num_bigint::BigInt;
use num_rational::BigRational;

use super::csr::Csr;
use super::reconstruct::{from_digits, reconstruct_into, with_denominator};
use super::{Folded, Numeric, Pattern};
use crate::num::limbs::inverse_mod_word;
use crate::num::modular::{primes, residue_i64, Mont};

/// A value to lift: `g . z` for the first block's solution (or the chained block's), with the
/// log2 bounds on the numerator and denominator of the exact fraction.
pub(super) struct Functional<'a> {
    /// The coefficients g (one per unknown of the block).
    pub g: &'a [i64],
    /// Whether g applies to the chained block's solution.
    pub chained: bool,
    /// log2 of a bound on |numerator|.
    pub num_bits: f64,
    /// log2 of a bound on the denominator.
    pub den_bits: f64,
}

impl Functional<'_> {
    /// Whether two functionals are the same (and so have the same value).
    fn same(&self, other: &Functional<'_>) -> bool {
        self.chained == other.chained
            && self.num_bits == other.num_bits
            && self.den_bits == other.den_bits
            && self.g == other.g
    }
}

/// Below this many unknowns the chained block is lifted on the same thread (the hand-off per
/// step would cost more than the step).
const PIPELINE_MIN: usize = 500;

/// Whether a second core is there to share the work.
pub(super) fn two_cores() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// `g . z` in 128 bits (the caller keeps `sum |g|` below 2^64 and z below 2^62).
fn dot(g: &[i64], z: &[u64]) -> i128 {
    g.iter()
        .zip(z)
        .filter(|(g, _)| **g != 0)
        .map(|(&g, &zj)| i128::from(g) * i128::from(zj as i64))
        .sum()
}

/// What every lifting step shares: A modulo p (factored once, for every right-hand side and
/// functional lifted), A over the integers, and p^-1 modulo 2^64 for the exact divisions.
pub(super) struct Lifter<'a> {
    m: Mont,
    lu: Folded,
    pattern: &'a Pattern,
    a: Csr,
    p_inv: u64,
}

/// One block's lifting state: its residual, the exact right-hand side of a fed step, and its
/// digit vector.
pub(super) struct Block {
    r: Vec<i64>,
    rhs: Vec<i128>,
    y: Vec<u64>,
}

impl Block {
    pub(super) fn new(r: Vec<i64>) -> Block {
        let n = r.len();
        Block {
            r,
            rhs: Vec::with_capacity(n),
            y: vec![0; n],
        }
    }

    /// One step: with `feed = (C, d)`, the right-hand side is `r + C d` (the chained block),
    /// else r. Solves `A d' = rhs (mod p)`, sets `r = (rhs - A d') / p` and returns d'.
    ///
    /// Sizes: `|r| < 2^61` between steps (`|r'| <= |rhs| / p + ||A||_1`, with the caller's row
    /// sums below 2^60 and p > 2^61), so a residual is an i64 and its residue is `r` or `r + p`;
    /// a fed right-hand side is below 2^123 in absolute value.
    pub(super) fn step(&mut self, l: &Lifter<'_>, feed: Option<(&Csr, &[u64])>) -> &[u64] {
        let m = &l.m;
        let p = m.p as i64;
        match feed {
            None => {
                for (yi, &ri) in self.y.iter_mut().zip(&self.r) {
                    *yi = (if ri < 0 { ri + p } else { ri }) as u64;
                }
            }
            Some((c, d)) => {
                self.rhs.clear();
                for (i, (yi, &ri)) in self.y.iter_mut().zip(&self.r).enumerate() {
                    let t = i128::from(ri) + c.row_dot(i, d);
                    self.rhs.push(t);
                    *yi = m.reduce_i128(t);
                }
            }
        }
        // The digits are solved for in ordinary (not Montgomery) form: see `Folded`.
        l.lu.solve(m, l.pattern, &mut self.y);
        let fed = feed.is_some();
        for (i, ri) in self.r.iter_mut().enumerate() {
            let rhs = if fed { self.rhs[i] } else { i128::from(*ri) };
            let t = rhs - l.a.row_dot(i, &self.y);
            debug_assert_eq!(
                t.rem_euclid(i128::from(p)),
                0,
                "the residual is divisible by p"
            );
            // The quotient t / p is exact and fits an i64, so it is t p^-1 modulo 2^64.
            *ri = (t as u64).wrapping_mul(l.p_inv) as i64;
        }
        &self.y
    }
}

impl<'a> Lifter<'a> {
    /// Factors `a` (on `pattern`, its elimination pattern) modulo a word-size prime; `None`
    /// when three primes in a row divide a pivot (the caller then decides by other means).
    pub(super) fn new(a: Csr, pattern: &'a Pattern) -> Option<Lifter<'a>> {
        let positions = pattern.positions(|i| a.row_cols(i).iter().copied());
        for p in primes().take(3) {
            let m = Mont::new(p);
            let residues = a.vals.iter().map(|&x| residue_i64(x, p));
            let vals = pattern.values_mod(&m, residues, &positions);
            if let Some(lu) = Numeric::factor(m, pattern, vals) {
                return Some(Lifter {
                    m,
                    lu: Folded::new(lu, &m, pattern),
                    pattern,
                    a,
                    p_inv: inverse_mod_word(p),
                });
            }
        }
        None
    }

    /// The prime p of the lifting.
    pub(super) fn prime(&self) -> u64 {
        self.m.p
    }

    /// The number of p-adic digits k that determine a fraction with `|N| <= 2^num_bits` and
    /// `0 < D <= 2^den_bits` (`p^k > 2 B_N B_D`, with a margin for the float sums behind the
    /// bounds), for a system of n unknowns.
    pub(super) fn digits_for(&self, n: usize, num_bits: f64, den_bits: f64) -> usize {
        // Two bounds summed; one bit for the factor 2, one for the sign.
        let bits = super::bounds::with_margin(num_bits + den_bits, 2, n, 2.0);
        (bits / (self.m.p as f64).log2()).ceil().max(1.0) as usize
    }

    /// Lifts the functionals of the solution of `[[A, 0], [-C, A]] [x; y] = [f; 0]`.
    ///
    /// `c` is C, `f` the first block's right-hand side; every row sum of absolute values of A and
    /// C must be below 2^60, each `|f_i|` below 2^60, and each functional's sum of `|g_j|` below
    /// 2^64 (the caller checks; the residuals and digit products then fit in 128 bits). Returns
    /// the exact value of each functional, or `None` when a reconstruction fails its bound (which
    /// would mean A is singular).
    pub(super) fn lift(
        &self,
        c: Option<&Csr>,
        f: &[i64],
        functionals: &[Functional<'_>],
    ) -> Option<Vec<BigRational>> {
        // Equal functionals (expected turns and rolls without roll-again) are lifted once.
        let mut distinct: Vec<&Functional<'_>> = Vec::new();
        let which: Vec<usize> = functionals
            .iter()
            .map(|fun| {
                distinct
                    .iter()
                    .position(|d| d.same(fun))
                    .unwrap_or_else(|| {
                        distinct.push(fun);
                        distinct.len() - 1
                    })
            })
            .collect();
        let values = self.lift_distinct(c, f, &distinct)?;
        Some(which.into_iter().map(|k| values[k].clone()).collect())
    }

    /// [`Lifter::lift`] for functionals that differ.
    fn lift_distinct(
        &self,
        c: Option<&Csr>,
        f: &[i64],
        functionals: &[&Functional<'_>],
    ) -> Option<Vec<BigRational>> {
        let n = f.len();
        let needs: Vec<usize> = functionals
            .iter()
            .map(|f| self.digits_for(n, f.num_bits, f.den_bits))
            .collect();
        let digits = self.functional_digits(c, f, functionals, &needs);
        let steps = needs.iter().copied().max().unwrap_or(0);
        reconstruct_functionals(self.m.p, steps, functionals, digits)
    }

    /// The p-adic digits of each functional, `needs[k]` of functional k: the first block lifts
    /// `A x = f`, the chained block `A y = C x` from its digits (on a second core when there is
    /// one and the system is large enough to pay for it).
    fn functional_digits(
        &self,
        c: Option<&Csr>,
        f: &[i64],
        functionals: &[&Functional<'_>],
        needs: &[usize],
    ) -> Vec<Vec<i128>> {
        let n = f.len();
        let steps = needs.iter().copied().max().unwrap_or(0);
        let mut first = Block::new(f.to_vec());
        let (chained, plain): (Vec<usize>, Vec<usize>) =
            (0..functionals.len()).partition(|&k| functionals[k].chained);
        let record = |ks: &[usize], step: usize, z: &[u64], digits: &mut Vec<Vec<i128>>| {
            for (slot, &k) in digits.iter_mut().zip(ks) {
                if step < needs[k] {
                    slot.push(dot(functionals[k].g, z));
                }
            }
        };
        let stage = crate::progress::Stage::begin("lifting the exact solution", Some(steps as u64));
        let mut plain_digits: Vec<Vec<i128>> = vec![Vec::with_capacity(steps); plain.len()];
        let mut chained_digits: Vec<Vec<i128>> = vec![Vec::with_capacity(steps); chained.len()];
        match c.filter(|_| !chained.is_empty()) {
            None => {
                for step in 0..steps {
                    let d = first.step(self, None);
                    record(&plain, step, d, &mut plain_digits);
                    stage.advance(step as u64 + 1);
                }
            }
            Some(cm) if n < PIPELINE_MIN || !two_cores() => {
                let mut second = Block::new(vec![0; n]);
                for step in 0..steps {
                    let d = first.step(self, None);
                    record(&plain, step, d, &mut plain_digits);
                    let d2 = second.step(self, Some((cm, d)));
                    record(&chained, step, d2, &mut chained_digits);
                    stage.advance(step as u64 + 1);
                }
            }
            Some(cm) => {
                // The chained block needs each digit vector of the first one and nothing else: it
                // runs one step behind on a second core.
                std::thread::scope(|scope| {
                    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u64>>(8);
                    let lifter = self;
                    let record = &record;
                    let chained = &chained;
                    let digits = &mut chained_digits;
                    scope.spawn(move || {
                        let mut second = Block::new(vec![0; n]);
                        for (step, d) in rx.iter().enumerate() {
                            let d2 = second.step(lifter, Some((cm, &d)));
                            record(chained, step, d2, digits);
                        }
                    });
                    for step in 0..steps {
                        let d = first.step(lifter, None);
                        record(&plain, step, d, &mut plain_digits);
                        stage.advance(step as u64 + 1);
                        if tx.send(d.to_vec()).is_err() {
                            break;
                        }
                    }
                });
            }
        }
        let mut digits: Vec<Vec<i128>> = vec![Vec::new(); functionals.len()];
        for (k, ds) in plain.iter().zip(plain_digits) {
            digits[*k] = ds;
        }
        for (k, ds) in chained.iter().zip(chained_digits) {
            digits[*k] = ds;
        }
        digits
    }
}

/// Each functional's value from its p-adic digits.
///
/// Every value's denominator divides det A (the chained one's det(A)^2), and they usually divide
/// one another: the lcm L of the denominators found so far is tried first (L^2 too for the
/// chained value), as `N = L s mod p^k` within the bounds (then `N / L` is the value, by the same
/// uniqueness argument as for the reconstruction; and when the value's denominator divides L,
/// which divides det A, `|N| <= |det(A) x|` is within the Cramer bound). The Euclidean algorithm
/// runs only when that fails.
fn reconstruct_functionals(
    p: u64,
    steps: usize,
    functionals: &[&Functional<'_>],
    digits: Vec<Vec<i128>>,
) -> Option<Vec<BigRational>> {
    let mut common: Option<BigInt> = None;
    let mut powers: Vec<Option<BigInt>> = vec![None; steps + 1];
    functionals
        .iter()
        .zip(digits)
        .map(|(fun, ds)| {
            let k = ds.len();
            let modulus = powers[k].get_or_insert_with(|| BigInt::from(p).pow(k as u32));
            let modulus = &*modulus;
            let s = from_digits(&ds, p);
            if let Some(l) = &common {
                let square = fun.chained.then(|| l * l);
                for d in square.iter().chain(std::iter::once(l)) {
                    if let Some(x) = with_denominator(&s, modulus, d, fun.num_bits, fun.den_bits) {
                        return Some(x);
                    }
                }
            }
            reconstruct_into(&s, modulus, p, fun.num_bits, fun.den_bits, &mut common)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverse_of_p_modulo_2_64_is_right() {
        for p in [3u64, 5, 7, (1 << 62) - 57, (1 << 61) - 1] {
            assert_eq!(p.wrapping_mul(inverse_mod_word(p)), 1);
        }
    }
}
