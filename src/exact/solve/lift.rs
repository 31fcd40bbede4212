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
//! section 5.10). The bound is the proof, as in the multi-modular solver.
//!
//! M here is block lower triangular, `[[A, 0], [-C, A]]`, for a solution chained to another
//! (`A y = C x`, as for a second moment), so one factorisation of A serves both blocks.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{primes, residue_i64, Folded, Int, Mont, Numeric, Pattern};
use crate::exact::lehmer;
use crate::exact::limbs::inverse_mod_word;

/// A sparse integer matrix in compressed rows, each row's columns ascending.
#[derive(Clone)]
pub(super) struct Csr {
    start: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<i64>,
}

impl Csr {
    /// From integer rows of `(column, value)` in any order: repeated columns summed, zeros
    /// dropped.
    ///
    /// # Panics
    ///
    /// When a column is not below `n` or a sum overflows.
    pub(super) fn from_rows(n: usize, rows: &[Vec<(usize, i64)>]) -> Csr {
        let mut start = Vec::with_capacity(rows.len() + 1);
        let mut entries: Vec<(u32, i64)> = Vec::with_capacity(rows.iter().map(Vec::len).sum());
        start.push(0);
        for r in rows {
            let from = entries.len();
            for &(j, v) in r {
                assert!(j < n, "column {j} outside a {n} x {n} matrix");
                entries.push((j as u32, v));
            }
            entries[from..].sort_unstable_by_key(|e| e.0);
            // Repeats summed in place, zeros dropped.
            let (mut w, mut k) = (from, from);
            while k < entries.len() {
                let j = entries[k].0;
                let mut sum: i64 = 0;
                while k < entries.len() && entries[k].0 == j {
                    sum = sum.checked_add(entries[k].1).expect("an entry fits an i64");
                    k += 1;
                }
                if sum != 0 {
                    entries[w] = (j, sum);
                    w += 1;
                }
            }
            entries.truncate(w);
            start.push(entries.len());
        }
        let (cols, vals) = entries.into_iter().unzip();
        Csr { start, cols, vals }
    }

    /// From the rows of a row-scaled system, if every entry fits a machine word.
    pub(super) fn from_int_rows(rows: &[Vec<(u32, Int)>]) -> Option<Csr> {
        let mut start = Vec::with_capacity(rows.len() + 1);
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        start.push(0);
        for r in rows {
            for (j, v) in r {
                let Int::Small(v) = v else {
                    return None;
                };
                cols.push(*j);
                vals.push(*v);
            }
            start.push(cols.len());
        }
        Some(Csr { start, cols, vals })
    }

    /// As rows of `(column, value)` for the multi-modular elimination.
    pub(super) fn to_int_rows(&self) -> Vec<Vec<(u32, Int)>> {
        (0..self.len())
            .map(|i| {
                let (cols, vals) = self.row(i);
                cols.iter()
                    .zip(vals)
                    .map(|(&j, &v)| (j, Int::Small(v)))
                    .collect()
            })
            .collect()
    }

    /// The transpose (of a square matrix).
    pub(super) fn transpose(&self) -> Csr {
        let n = self.len();
        let mut start = vec![0usize; n + 1];
        for &j in &self.cols {
            start[j as usize + 1] += 1;
        }
        for j in 0..n {
            start[j + 1] += start[j];
        }
        let mut next = start.clone();
        let entries = self.cols.len();
        let (mut cols, mut vals) = (vec![0u32; entries], vec![0i64; entries]);
        // Row i becomes column i of the transpose: in increasing i, so columns ascend.
        for i in 0..n {
            let (rc, rv) = self.row(i);
            for (&j, &v) in rc.iter().zip(rv) {
                let k = &mut next[j as usize];
                cols[*k] = i as u32;
                vals[*k] = v;
                *k += 1;
            }
        }
        Csr { start, cols, vals }
    }

    /// Row i's columns and values.
    pub(super) fn row(&self, i: usize) -> (&[u32], &[i64]) {
        let (s, e) = (self.start[i], self.start[i + 1]);
        (&self.cols[s..e], &self.vals[s..e])
    }

    /// The number of rows.
    pub(super) fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Row i's columns.
    pub(super) fn row_cols(&self, i: usize) -> &[u32] {
        &self.cols[self.start[i]..self.start[i + 1]]
    }

    /// Each row's columns, as the ordering wants them.
    pub(super) fn column_lists(&self) -> Vec<Vec<u32>> {
        (0..self.len()).map(|i| self.row_cols(i).to_vec()).collect()
    }

    /// `P M P^T` for the permutation `perm` (new position -> old index; `inv` its inverse).
    pub(super) fn permute(&self, perm: &[u32], inv: &[u32]) -> Csr {
        let mut start = Vec::with_capacity(self.start.len());
        let mut entries: Vec<(u32, i64)> = Vec::with_capacity(self.cols.len());
        start.push(0);
        for &old in perm {
            let from = entries.len();
            let (s, e) = (self.start[old as usize], self.start[old as usize + 1]);
            entries.extend(
                self.cols[s..e]
                    .iter()
                    .zip(&self.vals[s..e])
                    .map(|(&j, &v)| (inv[j as usize], v)),
            );
            entries[from..].sort_unstable_by_key(|e| e.0);
            start.push(entries.len());
        }
        let (cols, vals) = entries.into_iter().unzip();
        Csr { start, cols, vals }
    }

    /// The largest row sum of absolute values (saturating).
    pub(super) fn max_row_norm1(&self) -> u64 {
        (0..self.len())
            .map(|i| {
                self.vals[self.start[i]..self.start[i + 1]]
                    .iter()
                    .fold(0u64, |acc, v| acc.saturating_add(v.unsigned_abs()))
            })
            .max()
            .unwrap_or(0)
    }

    /// `sum_j m_ij d_j` for row i, exactly (digits are below p < 2^62, so each product is one
    /// signed 64 x 64 -> 128-bit multiplication, and the caller keeps row sums below 2^60).
    #[inline(always)]
    fn row_dot(&self, i: usize, d: &[u64]) -> i128 {
        let (s, e) = (self.start[i], self.start[i + 1]);
        self.cols[s..e]
            .iter()
            .zip(&self.vals[s..e])
            .map(|(&j, &v)| i128::from(v) * i128::from(d[j as usize] as i64))
            .sum()
    }
}

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

/// `sum_i t_i p^i mod p^k` for the k digits t (any size), in `0..p^k`: the digits are brought
/// into `0..p` with carries (the carry out of the top one is a multiple of p^k, dropped), then
/// converted by Horner's rule on 64-bit limbs (`p^k < 2^(64 k)`, so k limbs hold it).
fn from_digits(t: &[i128], p: u64) -> BigInt {
    let p_i = i128::from(p);
    let mut carry: i128 = 0;
    let digits: Vec<u64> = t
        .iter()
        .map(|&ti| {
            // |t_i| < 2^126 and the carry is below 2^65 in absolute value: no overflow.
            let v = ti + carry;
            let d = v.rem_euclid(p_i);
            carry = (v - d) / p_i;
            d as u64
        })
        .collect();
    from_reduced_digits(&digits, p)
}

/// `sum_i d_i p^i` for digits d already in `0..p`, by Horner's rule on 64-bit limbs.
pub(super) fn from_reduced_digits(digits: &[u64], p: u64) -> BigInt {
    let mut limbs: Vec<u64> = Vec::with_capacity(digits.len());
    for &d in digits.iter().rev() {
        let mut c = u128::from(d);
        for l in &mut limbs {
            let x = u128::from(*l) * u128::from(p) + c;
            *l = x as u64;
            c = x >> 64;
        }
        if c != 0 {
            limbs.push(c as u64);
        }
    }
    let halves: Vec<u32> = limbs
        .iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect();
    BigInt::from(BigUint::new(halves))
}

/// `N / d` with `N = d s (mod m)` taken in `(-m/2, m/2]`, if `|N| <= 2^num_bits` and
/// `d <= 2^den_bits`: then it is the value (two fractions within the bounds that are both
/// congruent to s are equal, because `m > 2^(num_bits + den_bits + 1)`).
pub(super) fn with_denominator(
    s: &BigInt,
    m: &BigInt,
    d: &BigInt,
    num_bits: f64,
    den_bits: f64,
) -> Option<BigRational> {
    if d.bits() as f64 > den_bits.max(0.0).ceil() {
        return None;
    }
    let mut n = (s * d).mod_floor(m);
    if &n + &n > *m {
        n -= m;
    }
    if n.bits() as f64 > num_bits.max(0.0).ceil() {
        return None;
    }
    // N / d in lowest terms (d > 0).
    let g = lehmer::gcd(&n, d);
    Some(if g.is_one() {
        BigRational::new_raw(n, d.clone())
    } else {
        BigRational::new_raw(n / &g, d / &g)
    })
}

/// [`reconstruct`], then the value's denominator folded into `common`, the lcm of the
/// denominators found so far (which later values try first, by [`with_denominator`]).
pub(super) fn reconstruct_into(
    s: &BigInt,
    m: &BigInt,
    p: u64,
    num_bits: f64,
    den_bits: f64,
    common: &mut Option<BigInt>,
) -> Option<BigRational> {
    let x = reconstruct(s, m, p, num_bits, den_bits)?;
    *common = Some(match common.take() {
        Some(l) => lehmer::lcm(l, x.denom()),
        None => x.denom().clone(),
    });
    Some(x)
}

/// The fraction `N / D` with `|N| <= 2^num_bits`, `0 < D <= 2^den_bits` and `N = D s (mod m)`,
/// `m` a power of the prime p,
/// by the half-extended Euclidean algorithm; `None` if there is none (the caller guarantees
/// `m > 2^(num_bits + den_bits + 1)`, which makes it unique when it exists).
pub(super) fn reconstruct(
    s: &BigInt,
    m: &BigInt,
    p: u64,
    num_bits: f64,
    den_bits: f64,
) -> Option<BigRational> {
    let bound_n = BigUint::one() << (num_bits.max(0.0).ceil() as u64);
    let bound_d = BigUint::one() << (den_bits.max(0.0).ceil() as u64);
    let (r, t) = lehmer::half_extended(m.magnitude(), s.magnitude(), &bound_n);
    if t.is_zero() || *t.magnitude() > bound_d {
        return None;
    }
    let (n, d) = if t.sign() == Sign::Minus {
        (-BigInt::from(r), -t)
    } else {
        (BigInt::from(r), t)
    };
    // `s_j m + t_j s = r_j` and gcd(s_j, t_j) = 1, so a common factor of r_j and t_j divides
    // m = p^k: when p does not divide the denominator the fraction is already in lowest terms.
    let p_free = !(&d % p).is_zero();
    if p_free {
        return Some(BigRational::new_raw(n, d));
    }
    let g = lehmer::gcd(&n, &d);
    Some(BigRational::new_raw(n / &g, d / &g))
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

    #[test]
    fn digits_of_any_size_and_sign_give_the_residue_modulo_p_to_the_k() {
        // Against Horner's rule on big integers and a floor modulo: digits near the 2^126
        // limit, negative ones, and a carry out of the top digit (which must be dropped).
        let p: u64 = (1 << 62) - 57;
        let big = (1i128 << 125) + 12345;
        let cases: [&[i128]; 5] = [
            &[0],
            &[5, 7, 11],
            &[-1, -1, -1, -1],
            &[big, -big, big, 3, -7],
            &[i128::from(p) - 1, i128::from(p) * 5, -(1i128 << 100), big],
        ];
        for t in cases {
            let mut s = BigInt::zero();
            for &ti in t.iter().rev() {
                s = s * p + ti;
            }
            let m = BigInt::from(p).pow(t.len() as u32);
            assert_eq!(from_digits(t, p), s.mod_floor(&m), "digits {t:?}");
        }
    }

    #[test]
    fn reconstruction_recovers_large_fractions_through_lehmer_steps() {
        // N = 3^190 (302 bits) and D = 7^100 + 2 (281 bits), coprime (D is odd and 7^100 + 2 is
        // 2 mod 3), modulo m = p^12 (744 bits > 302 + 281 + 1): the Euclidean algorithm runs
        // through Lehmer steps (remainders above 128 bits) and single steps near the bound.
        let p: u64 = (1 << 62) - 57;
        let m = BigInt::from(p).pow(12);
        let phi: BigInt = BigInt::from(p).pow(11) * (p - 1);
        let n: BigInt = BigInt::from(3).pow(190);
        let d: BigInt = BigInt::from(7).pow(100) + 2;
        let d_inv = d.modpow(&(phi - 1), &m);
        for sign in [BigInt::one(), -BigInt::one()] {
            let s = (&n * &sign * &d_inv).mod_floor(&m);
            let got = reconstruct(&s, &m, p, 302.0, 281.0).expect("within the bounds");
            assert_eq!(got, BigRational::new(&n * &sign, d.clone()));
        }
        // Bounds too small for the fraction: nothing within them.
        let s = (&n * &d_inv).mod_floor(&m);
        assert_eq!(reconstruct(&s, &m, p, 250.0, 250.0), None);
    }

    #[test]
    fn reconstruction_recovers_small_fractions() {
        // 22/7 modulo 10007^2: 7^-1 exists; N = 22, D = 7 are within 2^5 and 2^3.
        let m = BigInt::from(10007u64 * 10007);
        let inv7 = BigInt::from(7).modpow(&(BigInt::from(10007u64 * 10006) - 1), &m);
        let s = (BigInt::from(22) * inv7).mod_floor(&m);
        assert_eq!(
            reconstruct(&s, &m, 10007, 5.0, 3.0),
            Some(BigRational::new(22.into(), 7.into()))
        );
        // A negative numerator: -22/7.
        let s = (&m - &s).mod_floor(&m);
        assert_eq!(
            reconstruct(&s, &m, 10007, 5.0, 3.0),
            Some(BigRational::new((-22).into(), 7.into()))
        );
    }
}
