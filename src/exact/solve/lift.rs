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

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{primes, residue_i64, Mont, Numeric, Pattern};

/// A sparse integer matrix in compressed rows.
pub(super) struct Csr {
    starts: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<i64>,
}

impl Csr {
    /// From rows of `(column, value)`.
    pub(super) fn new(rows: &[Vec<(u32, i64)>]) -> Csr {
        let mut starts = Vec::with_capacity(rows.len() + 1);
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        starts.push(0);
        for r in rows {
            for &(j, v) in r {
                cols.push(j);
                vals.push(v);
            }
            starts.push(cols.len());
        }
        Csr { starts, cols, vals }
    }

    /// The transpose of rows of `(column, value)` on `n` columns, rows sorted by column.
    pub(super) fn transpose_rows(rows: &[Vec<(u32, i64)>], n: usize) -> Vec<Vec<(u32, i64)>> {
        let mut t: Vec<Vec<(u32, i64)>> = vec![Vec::new(); n];
        for (i, r) in rows.iter().enumerate() {
            for &(j, v) in r {
                t[j as usize].push((i as u32, v));
            }
        }
        t
    }

    /// The largest row sum of absolute values (an upper bound; saturating).
    pub(super) fn max_row_norm1(rows: &[Vec<(u32, i64)>]) -> u64 {
        rows.iter()
            .map(|r| {
                r.iter()
                    .fold(0u64, |acc, (_, v)| acc.saturating_add(v.unsigned_abs()))
            })
            .max()
            .unwrap_or(0)
    }

    /// `sum_j m_ij d_j` for row i (digits are below p < 2^62, so they fit an i64 and each
    /// product is one signed 64 x 64 -> 128-bit multiplication).
    #[inline]
    fn row_dot(&self, i: usize, d: &[u64]) -> i128 {
        let mut acc: i128 = 0;
        for k in self.starts[i]..self.starts[i + 1] {
            acc += i128::from(self.vals[k]) * i128::from(d[self.cols[k] as usize] as i64);
        }
        acc
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

/// Below this many unknowns the chained block is lifted on the same thread (the hand-off per
/// step would cost more than the step).
const PIPELINE_MIN: usize = 500;

fn two_cores() -> bool {
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
/// functional lifted), A over the integers, and p^-1 modulo 2^128 for the exact divisions.
pub(super) struct Lifter<'a> {
    m: Mont,
    lu: Numeric<u64>,
    pattern: &'a Pattern,
    a: Csr,
    p_inv: u128,
}

/// One block's lifting state: its residual and digit vector.
struct Block {
    r: Vec<i128>,
    y: Vec<u64>,
    d: Vec<u64>,
}

impl Block {
    fn new(r: Vec<i128>) -> Block {
        let n = r.len();
        Block {
            r,
            y: vec![0; n],
            d: vec![0; n],
        }
    }

    /// One step: with `feed = (C, d)`, the right-hand side is `r + C d` (the chained block),
    /// else r. Solves `A d' = rhs (mod p)`, sets `r = (rhs - A d') / p` and returns d'.
    fn step(&mut self, l: &Lifter<'_>, feed: Option<(&Csr, &[u64])>) -> &[u64] {
        let p = l.m.p;
        let p_i = i128::from(p);
        if let Some((c, d)) = feed {
            for (i, ri) in self.r.iter_mut().enumerate() {
                *ri += c.row_dot(i, d);
            }
        }
        for (yi, &ri) in self.y.iter_mut().zip(&self.r) {
            let res = if (0..p_i).contains(&ri) {
                ri as u64
            } else if ri < 0 && ri > -p_i {
                (ri + p_i) as u64
            } else {
                ri.rem_euclid(p_i) as u64
            };
            *yi = l.m.enter(res);
        }
        l.lu.solve_mod(&l.m, l.pattern, &mut self.y);
        for (di, &yi) in self.d.iter_mut().zip(&self.y) {
            *di = l.m.leave(yi);
        }
        for (i, ri) in self.r.iter_mut().enumerate() {
            let t = *ri - l.a.row_dot(i, &self.d);
            debug_assert_eq!(t.rem_euclid(p_i), 0, "the residual is divisible by p");
            *ri = (t as u128).wrapping_mul(l.p_inv) as i128;
        }
        &self.d
    }
}

/// The inverse of an odd p modulo 2^128 (Newton's iteration doubles the correct bits each step).
fn inverse_mod_2_128(p: u64) -> u128 {
    let p = u128::from(p);
    let mut x: u128 = p; // correct to 3 bits: p * p = 1 (mod 8)
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(p.wrapping_mul(x)));
    }
    x
}

impl<'a> Lifter<'a> {
    /// Factors `a` (rows on `pattern`, its elimination pattern) modulo a word-size prime; `None`
    /// when three primes in a row divide a pivot (the caller then decides by other means).
    pub(super) fn new(a: &[Vec<(u32, i64)>], pattern: &'a Pattern) -> Option<Lifter<'a>> {
        let positions = pattern.positions(a);
        for p in primes().take(3) {
            let m = Mont::new(p);
            let vals = pattern.values_mod(&m, a, &positions, |&x| residue_i64(x, p));
            if let Some(lu) = Numeric::factor(m, pattern, vals) {
                return Some(Lifter {
                    m,
                    lu,
                    pattern,
                    a: Csr::new(a),
                    p_inv: inverse_mod_2_128(p),
                });
            }
        }
        None
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
        let n = f.len();
        let p = self.m.p;
        let log2_p = (p as f64).log2();
        let digits_for = |fun: &Functional<'_>| -> usize {
            // p^k > 2 B_N B_D, with a margin for the float sums behind the bounds.
            let bits = (fun.num_bits + fun.den_bits) * (1.0 + 1e-9) + n as f64 * 2e-3 + 10.0;
            (bits / log2_p).ceil().max(1.0) as usize
        };
        let needs: Vec<usize> = functionals.iter().map(digits_for).collect();
        let steps = needs.iter().copied().max().unwrap_or(0);
        let mut first = Block::new(f.iter().map(|&v| i128::from(v)).collect());
        let (chained, plain): (Vec<usize>, Vec<usize>) =
            (0..functionals.len()).partition(|&k| functionals[k].chained);
        let record = |ks: &[usize], step: usize, z: &[u64], digits: &mut Vec<Vec<i128>>| {
            for (slot, &k) in digits.iter_mut().zip(ks) {
                if step < needs[k] {
                    slot.push(dot(functionals[k].g, z));
                }
            }
        };
        let mut plain_digits: Vec<Vec<i128>> = vec![Vec::new(); plain.len()];
        let mut chained_digits: Vec<Vec<i128>> = vec![Vec::new(); chained.len()];
        match c.filter(|_| !chained.is_empty()) {
            None => {
                for step in 0..steps {
                    let d = first.step(self, None);
                    record(&plain, step, d, &mut plain_digits);
                }
            }
            Some(cm) if n < PIPELINE_MIN || !two_cores() => {
                let mut second = Block::new(vec![0; n]);
                for step in 0..steps {
                    let d = first.step(self, None);
                    record(&plain, step, d, &mut plain_digits);
                    let d2 = second.step(self, Some((cm, d)));
                    record(&chained, step, d2, &mut chained_digits);
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
        // Every value's denominator divides det A (the chained one's det(A)^2), and they usually
        // divide one another: the lcm L of the denominators found so far is tried first (L^2 too for
        // the chained value), as `N = L s mod p^k` within the bounds (then `N / L` is the value, by
        // the same uniqueness argument as for the reconstruction; and when the value's denominator
        // divides L, which divides det A, `|N| <= |det(A) x|` is within the Cramer bound). The
        // Euclidean algorithm runs only when that fails.
        let mut common: Option<BigInt> = None;
        functionals
            .iter()
            .zip(digits)
            .map(|(fun, ds)| {
                let k = ds.len();
                // sum_i t_i p^i, by Horner from the top.
                let mut s = BigInt::zero();
                for &t in ds.iter().rev() {
                    s *= p;
                    s += t;
                }
                let modulus = BigInt::from(p).pow(k as u32);
                let s = s.mod_floor(&modulus);
                if let Some(l) = &common {
                    let square = fun.chained.then(|| l * l);
                    for d in square.iter().chain(std::iter::once(l)) {
                        if let Some(x) =
                            with_denominator(&s, &modulus, d, fun.num_bits, fun.den_bits)
                        {
                            return Some(x);
                        }
                    }
                }
                let x = reconstruct(&s, &modulus, p, fun.num_bits, fun.den_bits)?;
                common = Some(match common.take() {
                    Some(l) => l.lcm(x.denom()),
                    None => x.denom().clone(),
                });
                Some(x)
            })
            .collect()
    }
}

/// `N / d` with `N = d s (mod m)` taken in `(-m/2, m/2]`, if `|N| <= 2^num_bits` and
/// `d <= 2^den_bits`: then it is the value (two fractions within the bounds that are both
/// congruent to s are equal, because `m > 2^(num_bits + den_bits + 1)`).
fn with_denominator(
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
    Some(BigRational::new(n, d.clone()))
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
    let bound_n = BigInt::one() << (num_bits.max(0.0).ceil() as u64);
    let bound_d = BigInt::one() << (den_bits.max(0.0).ceil() as u64);
    let (mut r0, mut r1) = (m.clone(), s.clone());
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
    let mut lehmer = true;
    while r1 > bound_n {
        if lehmer && r1.bits() > 128 {
            if let Some([a, b, c, d]) = lehmer_cofactors(&r0, &r1) {
                // Several Euclidean steps at once; undone if they went past the bound, after
                // which single steps find the first remainder within it.
                let combine = |a: i64, x: &BigInt, b: i64, y: &BigInt| a * x + b * y;
                let r = combine(c, &r0, d, &r1);
                if r > bound_n {
                    r0 = combine(a, &r0, b, &r1);
                    r1 = r;
                    let t = combine(c, &t0, d, &t1);
                    t0 = combine(a, &t0, b, &t1);
                    t1 = t;
                    continue;
                }
                lehmer = false;
            }
        }
        let (q, r) = r0.div_rem(&r1);
        r0 = std::mem::replace(&mut r1, r);
        let t = &t0 - &q * &t1;
        t0 = std::mem::replace(&mut t1, t);
    }
    if t1.is_zero() || t1.abs() > bound_d {
        return None;
    }
    let (n, d) = if t1.sign() == Sign::Minus {
        (-r1, -t1)
    } else {
        (r1, t1)
    };
    // `s_j m + t_j s = r_j` and gcd(s_j, t_j) = 1, so a common factor of r_j and t_j divides
    // m = p^k: when p does not divide the denominator the fraction is already in lowest terms.
    let p_free = !(&d % p).is_zero();
    Some(if p_free {
        BigRational::new_raw(n, d)
    } else {
        BigRational::new(n, d)
    })
}

/// Lehmer's step (Knuth, *The Art of Computer Programming* 2, section 4.5.2, algorithm L): the
/// Euclidean quotients of `u > v > 0` that their leading 62 bits already decide, as the matrix
/// `[[a, b], [c, d]]` that maps `(u, v)` to a later pair of consecutive remainders
/// `(a u + b v, c u + d v)`; `None` when not even the first quotient is decided.
fn lehmer_cofactors(u: &BigInt, v: &BigInt) -> Option<[i64; 4]> {
    let shift = u.bits().saturating_sub(62);
    let lead = |x: &BigInt| -> i128 {
        let top: BigInt = x >> shift;
        i128::from(top.to_u64_digits().1.first().copied().unwrap_or(0))
    };
    let (mut x, mut y) = (lead(u), lead(v));
    let (mut a, mut b, mut c, mut d): (i128, i128, i128, i128) = (1, 0, 0, 1);
    while y + c != 0 && y + d != 0 {
        let q = (x + a) / (y + c);
        if q != (x + b) / (y + d) {
            break;
        }
        (a, c) = (c, a - q * c);
        (b, d) = (d, b - q * d);
        (x, y) = (y, x - q * y);
    }
    if b == 0 {
        return None;
    }
    let narrow = |z: i128| i64::try_from(z).ok();
    Some([narrow(a)?, narrow(b)?, narrow(c)?, narrow(d)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverse_of_p_modulo_2_128_is_right() {
        for p in [3u64, 5, 7, (1 << 62) - 57, (1 << 61) - 1] {
            assert_eq!(u128::from(p).wrapping_mul(inverse_mod_2_128(p)), 1);
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
