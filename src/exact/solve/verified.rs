//! p-adic lifting that stops as soon as the answer is found, proved by substituting it back:
//! for systems whose solutions are far smaller than Hadamard's bound (the stateful boards: 9,732
//! unknowns whose bound is 25,600 bits each way, with answers of about 800 bits).
//!
//! # Method
//!
//! Dixon's iteration (`lift.rs`: A factored once modulo a word-size prime p, one triangular
//! solve per digit) gives `x mod p^k` for every component of `A x = b`. The bound-based stop of
//! `vector.rs` waits until `p^k > 2 B_N B_D`, with `B_N`, `B_D` Hadamard's bounds on the
//! numerators and `det A`. Here, after k = 8 digits and then every quarter more, every component
//! is rebuilt by rational reconstruction with numerator and denominator below
//! `sqrt(p^k / 2)` (the first one by the half-extended Euclidean algorithm, which gives a
//! denominator L that the others try first, from only the low digits their numerators need),
//! and the candidate is checked in the integers: with `N_j = L x_j`, every row must satisfy
//! `sum_j a_ij N_j = L b_i`. A candidate that passes solves
//! `A x = b`, and A is nonsingular (its factorisation modulo p has no zero pivot, so
//! `det A != 0 mod p`), so it is the solution: the check is the proof, whatever k was.
//!
//! The digits needed are about twice the bits of the answer over the bits of p, instead of the
//! bound's `(B_N + B_D) / log2 p`; when the answer is as large as the bound the checks fail until
//! `p^k` passes the bound, where the reconstruction is proved by the bound as in `vector.rs`, so
//! the route is never more than a few checks slower than the bounded one. (J. D. Dixon, *Exact
//! solution of linear equations using p-adic expansions*, Numer. Math. 40, 1982; stopping early
//! on a verified candidate: Z. Chen and A. Storjohann, *A BLAS based C library for exact linear
//! algebra on integer matrices*, ISSAC 2005.)

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use num_integer::Integer;

use super::csr::Csr;
use super::lift::{Block, Lifter};
use super::reconstruct::{from_reduced_digits, reconstruct};
use super::vector::MAX_DIGIT_BYTES;
use super::{is_identity, order, Pattern};

/// Row sums of `|A|` and `|C|` and entries of b must stay below this for machine-word residuals
/// (see `Block::step`).
const LIMIT: u64 = 1 << 60;

/// The first check, in digits.
const FIRST_CHECK: usize = 8;

/// The solutions of [`solve_verified`].
pub(super) struct Verified {
    /// `x_k` with `A x_k = b_k`, one per right-hand side.
    pub solutions: Vec<OverCommon>,
    /// `y` with `A y = C x_k`, when a chained solve was asked for.
    pub chained: Option<OverCommon>,
}

/// An exact solution vector as integers over one common denominator (not reduced: reducing
/// every component would cost a gcd each, and most callers want a few).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverCommon {
    /// The numerators.
    pub numer: Vec<BigInt>,
    /// The common denominator, positive.
    pub denom: BigInt,
}

impl OverCommon {
    /// Component i, reduced.
    pub fn get(&self, i: usize) -> BigRational {
        BigRational::new(self.numer[i].clone(), self.denom.clone())
    }

    /// Every component, reduced (the tests' view).
    #[cfg(test)]
    pub fn rationals(&self) -> Vec<BigRational> {
        (0..self.numer.len()).map(|i| self.get(i)).collect()
    }
}

/// One lifted block: its residual and digits, its Hadamard bound, and its solution once proved.
struct Lifted {
    block: Block,
    digits: Vec<u64>,
    bound_bits: f64,
    solution: Option<OverCommon>,
}

/// The exact solutions of `A x_k = b_k` for integer rows `a` (`(column, value)`, repeats
/// summed), and with `chained = (C, k)` also of `A y = C x_k`, by lifting stopped at the first
/// candidates that solve their systems (see the module docs).
///
/// `None` when the entries are too large for machine-word residuals (row sums of `|A|`, `|C|`
/// or some `|b_i|` reaching 2^60), when A is singular modulo three primes in a row, or when the
/// digits would take more than [`MAX_DIGIT_BYTES`]; the caller then takes another route.
pub(super) fn solve_verified(
    a: &[Vec<(usize, i64)>],
    rhs: &[Vec<i64>],
    chained: Option<super::IntChain<'_>>,
) -> Option<Verified> {
    let n = a.len();
    let a = Csr::from_rows(n, a);
    let c = chained.map(|(c, k)| (Csr::from_rows(n, c), k));
    let too_large = |b: &[i64]| b.iter().any(|v| v.unsigned_abs() >= LIMIT);
    if n == 0
        || a.max_row_norm1() >= LIMIT
        || c.as_ref().is_some_and(|(c, _)| c.max_row_norm1() >= LIMIT)
        || rhs.iter().any(|b| too_large(b))
    {
        let empty = || OverCommon {
            numer: Vec::new(),
            denom: BigInt::one(),
        };
        return (n == 0).then(|| Verified {
            solutions: vec![empty(); rhs.len()],
            chained: chained.map(|_| empty()),
        });
    }
    let perm = (n >= order::SMALL)
        .then(|| order::elimination_order(&a.column_lists()))
        .filter(|perm| !is_identity(perm));
    let inv = perm.as_ref().map(|perm| order::inverse(perm));
    let permuted = |m: &Csr| match (&perm, &inv) {
        (Some(perm), Some(inv)) => m.permute(perm, inv),
        _ => m.clone(),
    };
    let (pa, pc) = (permuted(&a), c.as_ref().map(|(c, k)| (permuted(c), *k)));
    let pattern = Pattern::from_rows(n, |i| pa.row_cols(i).iter().copied());
    let lifter = Lifter::new(pa.clone(), &pattern)?;
    let prhs: Vec<Vec<i64>> = rhs
        .iter()
        .map(|b| match &perm {
            Some(perm) => perm.iter().map(|&old| b[old as usize]).collect(),
            None => b.clone(),
        })
        .collect();
    let mut blocks: Vec<Lifted> = prhs
        .iter()
        .zip(rhs)
        .map(|(pb, b)| Lifted::new(pb.clone(), hadamard_bits(&a, None, b)))
        .collect();
    if let Some((c, k)) = &c {
        blocks.push(Lifted::new(
            vec![0; n],
            hadamard_bits(&a, Some(c), &rhs[*k]),
        ));
    }
    let system = Permuted {
        a: &pa,
        c: pc.as_ref().map(|(c, k)| (c, *k)),
        rhs: &prhs,
    };
    let max_steps = MAX_DIGIT_BYTES / (8 * n * blocks.len());
    let mut check_at = FIRST_CHECK;
    let stage = crate::progress::Stage::begin("lifting until it checks", None);
    for k in 1..=max_steps {
        stage.advance(k as u64);
        lift_one_digit(&mut blocks, &lifter, system.c, n, k);
        let due = k >= check_at;
        if due {
            check_at = (k + k / 4).max(k + 1);
        }
        for i in 0..blocks.len() {
            // Past the bound the reconstruction is unique: a failure means A is singular.
            if !system.try_solution(&mut blocks, i, k, lifter.prime(), due) {
                return None;
            }
        }
        if blocks.iter().all(|b| b.solution.is_some()) {
            let mut solutions: Vec<OverCommon> = blocks
                .into_iter()
                .map(|b| unpermute(perm.as_deref(), b.solution.expect("every block solved")))
                .collect();
            let chained = c.map(|_| solutions.pop().expect("the chained block is last"));
            return Some(Verified { solutions, chained });
        }
    }
    None
}

/// The system in the elimination order: A, C with the block that feeds it, the right-hand
/// sides.
#[derive(Clone, Copy)]
struct Permuted<'a> {
    a: &'a Csr,
    c: Option<(&'a Csr, usize)>,
    rhs: &'a [Vec<i64>],
}

impl Permuted<'_> {
    /// After k digits, tries to rebuild block i's solution (when a check is `due`, or as soon
    /// as the digits pass its bound) and keeps it if it solves its system. False when the
    /// digits pass the bound and still give no solution (A is singular).
    fn try_solution(&self, blocks: &mut [Lifted], i: usize, k: usize, p: u64, due: bool) -> bool {
        let n = self.a.len();
        let p_bits = (p as f64).log2();
        let proved_by_bound = k as f64 * p_bits > blocks[i].bound_bits + 2.0;
        if blocks[i].solution.is_some() || !(due || proved_by_bound) {
            return true;
        }
        let (num_bits, den_bits) = if proved_by_bound {
            (blocks[i].bound_bits, blocks[i].bound_bits)
        } else {
            let half = (k as f64 * p_bits - 2.0) / 2.0;
            (half, half)
        };
        if !proved_by_bound && !probes_reconstruct(&blocks[i].digits, n, k, p, num_bits) {
            return true;
        }
        let is_chained = self.c.is_some() && i + 1 == blocks.len();
        let checked =
            candidate(&blocks[i].digits, n, k, p, num_bits, den_bits).filter(|x| {
                match (is_chained, self.c) {
                    (true, Some((c, from))) => match &blocks[from].solution {
                        Some(x_from) => solves(self.a, Product::Of(c, x_from), x),
                        None => false,
                    },
                    _ => solves(self.a, Product::Vector(&self.rhs[i]), x),
                }
            });
        match checked {
            Some(x) => blocks[i].solution = Some(x),
            None if proved_by_bound => return false,
            None => {}
        }
        true
    }
}

/// The k-th digit of every block still unsolved (and of the block that feeds the chained one,
/// which needs its digits).
fn lift_one_digit(
    blocks: &mut [Lifted],
    lifter: &Lifter,
    c: Option<(&Csr, usize)>,
    n: usize,
    k: usize,
) {
    for i in 0..blocks.len() {
        let feed = match c {
            Some((c, from)) if i + 1 == blocks.len() => {
                let last = &blocks[from].digits[(k - 1) * n..];
                Some((c, last.to_vec()))
            }
            _ => None,
        };
        let b = &mut blocks[i];
        if b.solution.is_none() || c.is_some_and(|(_, from)| from == i) {
            let z = b
                .block
                .step(lifter, feed.as_ref().map(|(c, d)| (*c, &d[..])));
            b.digits.extend_from_slice(z);
        }
    }
}

/// A solution of the permuted system back in the original order of the unknowns.
fn unpermute(perm: Option<&[u32]>, px: OverCommon) -> OverCommon {
    let Some(perm) = perm else {
        return px;
    };
    let mut numer = vec![BigInt::zero(); px.numer.len()];
    for (new, &old) in perm.iter().enumerate() {
        numer[old as usize] = px.numer[new].clone();
    }
    OverCommon {
        numer,
        denom: px.denom,
    }
}

impl Lifted {
    fn new(r: Vec<i64>, bound_bits: f64) -> Lifted {
        Lifted {
            block: Block::new(r),
            digits: Vec::new(),
            bound_bits,
            solution: None,
        }
    }
}

/// log2 of Hadamard's bound on `|det M|` times that on the numerators of Cramer's rule, plus
/// one for the sign, for `M = A` and right-hand side b, or with `c` for the chained system
/// `[[A, 0], [-C, A]] [x; y] = [b; 0]` (rows `||a_i||`, `sqrt(||a_i||^2 + b_i^2)` and, for the
/// second block, `sqrt(||c_i||^2 + ||a_i||^2)`): past `p^k` above this, rational reconstruction
/// within the bounds is unique.
fn hadamard_bits(a: &Csr, c: Option<&Csr>, b: &[i64]) -> f64 {
    let sq =
        |m: &Csr, i: usize| -> f64 { m.row(i).1.iter().map(|&v| (v as f64) * (v as f64)).sum() };
    let log = |x: f64| 0.5 * x.max(1.0).log2();
    (0..a.len())
        .map(|i| {
            let ai = sq(a, i);
            let bi = b[i] as f64;
            let first = log(ai) + log(ai + bi * bi);
            match c {
                None => first,
                Some(c) => first + 2.0 * log(ai + sq(c, i)),
            }
        })
        .sum::<f64>()
        * (1.0 + crate::prec::BOUND_ROUNDING)
        + 1.0
}

/// How many components [`probes_reconstruct`] tries before a whole candidate is rebuilt.
const PROBES: usize = 8;

/// Whether a few components spread over the unknowns have fractions within `2^bits` each way:
/// a cheap test before the whole candidate (most early checks fail here).
fn probes_reconstruct(digits: &[u64], n: usize, k: usize, p: u64, bits: f64) -> bool {
    let modulus = BigInt::from(p).pow(k as u32);
    let mut own = vec![0u64; k];
    (0..PROBES.min(n)).all(|t| {
        let j = t * (n - 1) / (PROBES - 1).max(1);
        for (step, d) in own.iter_mut().enumerate() {
            *d = digits[step * n + j];
        }
        let s = from_reduced_digits(&own, p);
        reconstruct(&s, &modulus, p, bits, bits).is_some()
    })
}

/// Every component rebuilt from its k digits with numerators below `2^num_bits` and
/// denominators below `2^den_bits`, over their common denominator L (each tried first as
/// `L s mod p^k`, a multiplication; the half-extended Euclidean algorithm only when that is
/// out of bounds, and then L grows to the lcm), or `None` when one has no such fraction.
fn candidate(
    digits: &[u64],
    n: usize,
    k: usize,
    p: u64,
    num_bits: f64,
    den_bits: f64,
) -> Option<OverCommon> {
    let modulus = BigInt::from(p).pow(k as u32);
    let num_limit = num_bits.max(0.0).ceil() as u64;
    // `L s mod p^low` already gives a numerator within the limit (p^low > 2^(num_limit + 64)),
    // and costs a quarter of the whole k digits' conversion: whether it is right, only the
    // substitution decides (a wrong one, of chance about 2^-63, fails it and the lifting goes on).
    let low = ((num_limit + 65) as f64 / (p as f64).log2()).ceil() as usize;
    let low = low.min(k);
    let low_modulus = BigInt::from(p).pow(low as u32);
    let half = &low_modulus >> 1u32;
    let mut l = BigInt::one();
    // Each numerator with the L it is over (an index into `ls`).
    let mut ls: Vec<BigInt> = vec![BigInt::one()];
    let mut parts: Vec<(BigInt, usize)> = Vec::with_capacity(n);
    let mut own = vec![0u64; k];
    for j in 0..n {
        for (t, d) in own.iter_mut().enumerate() {
            *d = digits[t * n + j];
        }
        let mut num = (from_reduced_digits(&own[..low], p) * &l).mod_floor(&low_modulus);
        if num > half {
            num -= &low_modulus;
        }
        if num.bits() <= num_limit {
            parts.push((num, ls.len() - 1));
            continue;
        }
        let s = from_reduced_digits(&own, p);
        let x = reconstruct(&s, &modulus, p, num_bits, den_bits)?;
        let next = crate::num::gcd::lcm(l.clone(), x.denom());
        if next.bits() as f64 > den_bits.max(0.0).ceil() {
            return None;
        }
        parts.push((x.numer() * (&next / x.denom()), ls.len()));
        ls.push(next.clone());
        l = next;
    }
    let numer = parts
        .into_iter()
        .map(|(num, at)| {
            if at + 1 == ls.len() {
                num
            } else {
                num * (&l / &ls[at])
            }
        })
        .collect();
    Some(OverCommon { numer, denom: l })
}

/// The right-hand side a candidate must reproduce: an integer vector, or `C z` for an exact z.
enum Product<'a> {
    Vector(&'a [i64]),
    Of(&'a Csr, &'a OverCommon),
}

/// `sum_j m_ij v_j` over integers.
fn row_times(m: &Csr, i: usize, v: &[BigInt]) -> BigInt {
    let (cols, vals) = m.row(i);
    cols.iter()
        .zip(vals)
        .map(|(&j, &w)| &v[j as usize] * w)
        .sum()
}

/// Whether `A x = rhs` holds exactly, in integers: with `x = N / L`, `A N = L b`; or with
/// `rhs = C z`, `z = Z / M`, `M A N = L C Z`.
fn solves(a: &Csr, rhs: Product<'_>, x: &OverCommon) -> bool {
    let (nx, l) = (&x.numer, &x.denom);
    match rhs {
        Product::Vector(b) => (0..a.len()).all(|i| row_times(a, i, nx) == l * b[i]),
        Product::Of(c, z) => {
            (0..a.len()).all(|i| &z.denom * row_times(a, i, nx) == l * row_times(c, i, &z.numer))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::q;

    #[test]
    fn a_small_system_is_solved_and_checked() {
        // 2x + y = 1, x + 3y = 2: x = 1/5, y = 3/5 (by hand).
        let a = vec![vec![(0, 2), (1, 1)], vec![(0, 1), (1, 3)]];
        assert_eq!(
            solve_verified(&a, &[vec![1, 2]], None).unwrap().solutions[0].rationals(),
            vec![q(1, 5), q(3, 5)]
        );
    }

    #[test]
    fn a_candidate_reads_only_the_low_digits_of_numerators_over_a_known_denominator() {
        // x = (1/3, 2/3, 5/3) mod p^8, digit t of component j at t n + j. The first component
        // gives L = 3 from all its digits; the others need only enough digits for 3 x_j within
        // the bound: digits above those are never read (their garbage here changes nothing).
        let (p, n, k) = ((1u64 << 61) - 1, 3, 8);
        let m = BigInt::from(p).pow(k as u32);
        let third = BigInt::from(3).modinv(&m).unwrap();
        let mut digits = vec![0u64; n * k];
        for (j, num) in [1i64, 2, 5].into_iter().enumerate() {
            let mut s = (&third * BigInt::from(num)).mod_floor(&m);
            for t in 0..k {
                let (q, d) = s.div_rem(&BigInt::from(p));
                digits[t * n + j] = u64::try_from(d).unwrap();
                s = q;
            }
        }
        for j in 1..n {
            digits[(k - 1) * n + j] ^= 12345;
        }
        let half = (k as f64 * (p as f64).log2() - 2.0) / 2.0;
        let x = candidate(&digits, n, k, p, half, half).unwrap();
        assert_eq!(x.rationals(), vec![q(1, 3), q(2, 3), q(5, 3)]);
    }

    #[test]
    fn a_singular_system_gives_none() {
        let a = vec![vec![(0, 1), (1, 1)], vec![(0, 2), (1, 2)]];
        assert!(solve_verified(&a, &[vec![1, 2]], None).is_none());
    }

    #[test]
    fn a_long_chain_with_a_large_answer_agrees_with_the_reference() {
        // x_i - x_{i+1} / 3 = 1 for i < n - 1, x_{n-1} = 1: an answer with denominators 3^k,
        // near the bound, so the early checks fail and a later one (or the bound) decides.
        let n = 300;
        let a: Vec<Vec<(usize, i64)>> = (0..n)
            .map(|i| {
                if i + 1 < n {
                    vec![(i, 3), (i + 1, -1)]
                } else {
                    vec![(i, 1)]
                }
            })
            .collect();
        let b: Vec<i64> = (0..n).map(|i| if i + 1 < n { 3 } else { 1 }).collect();
        let identity: Vec<Vec<(usize, i64)>> = (0..n).map(|i| vec![(i, 1)]).collect();
        let v = solve_verified(&a, &[b], Some((&identity, 0))).unwrap();
        let x = v.solutions[0].rationals();
        // By hand: x_{n-1} = 1, x_i = 1 + x_{i+1} / 3, so x_i = 3/2 - (1/2) 3^-(n-1-i).
        for (i, xi) in x.iter().enumerate() {
            let m = (n - 1 - i) as u32;
            let expected =
                q(3, 2) - BigRational::new(1.into(), BigInt::from(2) * BigInt::from(3).pow(m));
            assert_eq!(*xi, expected, "component {i}");
        }
        // The chained solution y = A^-1 x, by the rows: y_{n-1} = x_{n-1}, y_i = (x_i + y_{i+1}) / 3.
        let y = v.chained.unwrap().rationals();
        let mut next = x[n - 1].clone();
        assert_eq!(y[n - 1], next);
        for i in (0..n - 1).rev() {
            next = (&x[i] + &next) / q(3, 1);
            assert_eq!(y[i], next, "chained component {i}");
        }
    }
}
