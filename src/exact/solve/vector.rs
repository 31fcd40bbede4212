//! p-adic lifting of whole solution vectors, for solutions that want many components (every
//! square's expected turns: `ladders expect --per-square`).
//!
//! # Method
//!
//! [`super::lift`] lifts a few linear functionals of a solution on the transposed system: one
//! lifting per wanted component. When one solution of `A x = b` wants many components, this
//! module lifts x itself instead: A (not `A^T`) is factored once modulo a prime p just below
//! 2^62, in a fill-reducing order ([`crate::exact::order`]), and Dixon's iteration (the same
//! `Block::step`) gives one digit vector `z_i` per step, with
//! `A (z_0 + z_1 p + ... + z_{k-1} p^{k-1}) = b - p^k r_k`, so component j of the sum is
//! `x_j mod p^k`. Some components are rebuilt from their digits (below); the others follow from
//! those by the rows of `A x = b` themselves (`substitute`).
//!
//! # Why the result is exact
//!
//! By Cramer's rule every component is `x_j = N_j / det(A)` with `N_j` the determinant of A
//! with column j replaced by b; Hadamard's inequality bounds `|N_j| <= B_N` and
//! `|det A| <= B_D` (`log2_bounds`, per right-hand side). The reduced fraction `n / d` of `x_j`
//! has `|n| <= B_N` and `0 < d <= B_D`. With `p^k > 2 B_N B_D` two fractions within these bounds
//! that are congruent modulo `p^k` are equal (`|n d' - n' d| < 2 B_N B_D < p^k`), so the fraction
//! within the bounds congruent to the lifted value is unique, and it is `x_j`.
//!
//! The first component rebuilt is found by rational reconstruction (the half-extended Euclidean
//! algorithm), which gives its denominator L. Every denominator divides `det A`, and on these
//! systems they mostly divide one another, so each further component is tried first as
//! `N = L s mod p^k` (symmetric residue): when `|N| <= B_N` and `L <= B_D`, `N / L` is within the
//! bounds and congruent to the lifted value, hence the value by the uniqueness above (a
//! multiplication and one division instead of a Euclidean run). Only when that fails does the
//! reconstruction run, and L becomes `lcm(L, d)` (still a divisor of `det A`, so within `B_D`).
//! This is what `Lifter::lift` does for the functionals.
//!
//! Which components are rebuilt from digits: on a board in square order most rows only refer to
//! later squares, so from the last unknown to the first, row i gives x_i from unknowns already
//! known, except where a row refers back (snakes, bounces at the finish). The unknowns referred
//! back to (`seeds`: 198 of 9,600 at 10,000 squares) are rebuilt from their digits, and every
//! other one follows exactly from its row (`substitute`), a few additions and a division by a
//! word each. When there are no fewer seeds than wanted components, the wanted components are
//! rebuilt from their digits instead.
//!
//! # Memory
//!
//! Each step's digits of the components rebuilt from digits are kept until the end:
//! steps x components x 8 bytes. The steps grow with the size of the numbers (about 2.6 bits per
//! unknown for the expected turns, so k is about 420 at 10,000 squares, 9,600 unknowns): for
//! every component that would be 420 x 9,600 x 8 = 32 MB; for the 198 seeds there it is 0.7 MB.
//! Beyond [`MAX_DIGIT_BYTES`] the caller falls back to the multi-modular elimination. The exact
//! values themselves take what the output takes: 9,600 fractions of about 25,000 bits each way
//! (60 MB), and the integers of the substitution as much again while it runs.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::csr::Csr;
use super::lift::{two_cores, Block, Lifter};
use super::reconstruct::{from_reduced_digits, reconstruct_into, with_denominator};
use super::{is_identity, order, Pattern};
use crate::num::gcd;

/// The most memory the stored digits of one solution may take (512 MiB: every component of
/// about 40,000 unknowns, the seeds of far more).
pub(super) const MAX_DIGIT_BYTES: usize = 1 << 29;

/// Row sums of `|A|` and entries of b must stay below this for machine-word residuals (see
/// `Block::step`).
const LIMIT: u64 = 1 << 60;

/// One solution to lift as a vector.
pub(super) struct VectorSolution<'a> {
    /// The right-hand side b of `A x = b`.
    pub b: &'a [i64],
    /// The wanted components of x (indices into x, in the order wanted; repeats allowed).
    pub components: &'a [usize],
    /// log2 of a bound on the numerators `|det(A) x_j|`.
    pub num_bits: f64,
    /// log2 of a bound on `|det A|`.
    pub den_bits: f64,
}

/// An upper estimate of the steps a solution needs (for the memory check before anything is
/// factored): every prime the lifting tries is above 2^61.
fn steps_estimate(n: usize, num_bits: f64, den_bits: f64) -> usize {
    let bits = (num_bits + den_bits) * (1.0 + crate::prec::BOUND_ROUNDING) + n as f64 * 2e-3 + 10.0;
    (bits / 61.0).ceil().max(1.0) as usize
}

/// Whether [`solve_vectors`] would take these solutions: entries small enough for machine-word
/// residuals, and stored digits within [`MAX_DIGIT_BYTES`] for each.
pub(super) fn suits(a: &Csr, solutions: &[VectorSolution<'_>]) -> bool {
    let n = a.len();
    let seeds = seeds(a).len();
    a.max_row_norm1() < LIMIT
        && solutions.iter().all(|s| {
            let (rebuilt, _) = rebuilt_from_digits(seeds, s.components);
            s.b.iter().all(|v| v.unsigned_abs() < LIMIT)
                && steps_estimate(n, s.num_bits, s.den_bits)
                    .checked_mul(rebuilt)
                    .and_then(|x| x.checked_mul(8))
                    .is_some_and(|bytes| bytes <= MAX_DIGIT_BYTES)
        })
}

/// How many components are rebuilt from their digits, and whether the others follow by
/// [`substitute`]: the seeds when they are fewer than the distinct wanted components, else the
/// wanted components themselves.
fn rebuilt_from_digits(seeds: usize, components: &[usize]) -> (usize, bool) {
    let mut wanted = components.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    if seeds < wanted.len() {
        (seeds, true)
    } else {
        (components.len(), false)
    }
}

/// The wanted components of each solution of `A x = b`, exactly, by lifting x as a vector (see
/// the module documentation). `None` when the solutions do not suit ([`suits`]) or when A is
/// singular modulo three primes in a row or a reconstruction fails its bounds (which would mean
/// A is singular); the caller then eliminates modulo many primes.
pub(super) fn solve_vectors(
    a: &Csr,
    solutions: &[VectorSolution<'_>],
) -> Option<Vec<Vec<BigRational>>> {
    if !suits(a, solutions) {
        return None;
    }
    let n = a.len();
    // A fill-reducing order, rows and columns alike: `(P A P^T) (P x) = P b`, and component j of
    // x is component `inv[j]` of `P x`.
    let perm = (n >= order::SMALL)
        .then(|| order::elimination_order(&a.column_lists()))
        .filter(|perm| !is_identity(perm));
    let (pa, inv) = match &perm {
        None => (a.clone(), None),
        Some(perm) => {
            let inv = order::inverse(perm);
            (a.permute(perm, &inv), Some(inv))
        }
    };
    let pattern = Pattern::from_rows(n, |i| pa.row_cols(i).iter().copied());
    let lifter = Lifter::new(pa, &pattern)?;
    let seeds = seeds(a);
    solutions
        .iter()
        .map(|s| {
            // Shown after a second, around the lifting's own bar: rebuilding the fractions from
            // the lifted digits (a gcd per component) takes seconds on 10,000 squares.
            let _stage = crate::progress::Stage::begin("an exact solution vector", None);
            let b: Vec<i64> = match &perm {
                None => s.b.to_vec(),
                Some(perm) => perm.iter().map(|&old| s.b[old as usize]).collect(),
            };
            // Lift the seeds and substitute, when there are fewer seeds than components wanted.
            let (_, by_rows) = rebuilt_from_digits(seeds.len(), s.components);
            let targets = if by_rows { &seeds[..] } else { s.components };
            let at: Vec<usize> = targets
                .iter()
                .map(|&j| inv.as_ref().map_or(j, |inv| inv[j] as usize))
                .collect();
            let xs = lift_components(&lifter, b, &at, s.num_bits, s.den_bits)?;
            if by_rows {
                Some(substitute(a, s.b, &seeds, xs, s.components))
            } else {
                Some(xs)
            }
        })
        .collect()
}

/// The unknowns that [`substitute`] cannot find from their own rows, in increasing order: those
/// that some later row refers to (`a_ij != 0` with `j < i`), and those with a zero diagonal.
/// On a board in square order these are the squares that snakes (and bounces at the finish)
/// lead back to: a few hundred of 9,600 unknowns at 10,000 squares.
fn seeds(a: &Csr) -> Vec<usize> {
    let n = a.len();
    let mut seed = vec![false; n];
    for i in 0..n {
        let cols = a.row_cols(i);
        for &j in cols {
            if (j as usize) < i {
                seed[j as usize] = true;
            }
        }
        if cols.binary_search(&(i as u32)).is_err() {
            seed[i] = true;
        }
    }
    (0..n).filter(|&j| seed[j]).collect()
}

/// Every wanted component of x from the exact values of the seeds ([`seeds`]) by the rows of
/// `A x = b` themselves, from the last unknown to the first: row i gives
/// `x_i = (b_i - sum_{j != i} a_ij x_j) / a_ii`, and every `x_j` it refers to is a seed or
/// found already (`j > i`). Exact arithmetic throughout, so the values are exact whenever the
/// seeds are (they come from the lifting, proved by the bound).
///
/// In integers: with L a common multiple of the denominators found so far, `N_j = L x_j` and
/// `N_i = (L b_i - sum a_ij N_j) / a_ii`; when `a_ii` does not divide the sum, L and every `N`
/// are multiplied by the small factor `a_ii / gcd(sum, a_ii)`. Each unknown costs a few additions
/// and one division by a word instead of a conversion of its digits and a big multiplication
/// and division modulo `p^k`; each wanted one is then reduced ([`SplitDenominator`]).
fn substitute(
    a: &Csr,
    b: &[i64],
    seeds: &[usize],
    seed_values: Vec<BigRational>,
    components: &[usize],
) -> Vec<BigRational> {
    let n = a.len();
    // L: the lcm of the seeds' denominators (mostly equal ones: a divisibility test first).
    let mut l = seed_values
        .iter()
        .fold(BigInt::one(), |l, x| gcd::lcm(l, x.denom()));
    let mut big: Vec<BigInt> = vec![BigInt::zero(); n];
    let mut known = vec![false; n];
    for (&j, x) in seeds.iter().zip(&seed_values) {
        big[j] = x.numer() * (&l / x.denom());
        known[j] = true;
    }
    let mut found: Vec<Option<BigRational>> = vec![None; n];
    for (&j, x) in seeds.iter().zip(seed_values) {
        found[j] = Some(x);
    }
    for i in (0..n).rev() {
        if known[i] {
            continue;
        }
        let (cols, vals) = a.row(i);
        let mut sum = &l * b[i];
        let mut diag = 0;
        for (&j, &v) in cols.iter().zip(vals) {
            let j = j as usize;
            if j == i {
                diag = v;
            } else {
                debug_assert!(known[j], "row {i} refers to {j}, neither a seed nor found");
                sum -= &big[j] * v;
            }
        }
        let rem = i64::try_from(&sum % diag).expect("a remainder below a word");
        if rem != 0 {
            let f = diag.unsigned_abs() / rem.unsigned_abs().gcd(&diag.unsigned_abs());
            l *= f;
            for (x, _) in big.iter_mut().zip(&known).filter(|(_, k)| **k) {
                *x *= f;
            }
            sum *= f;
        }
        big[i] = sum / diag;
        known[i] = true;
    }
    let split = SplitDenominator::new(&l);
    // A chunk of wanted components, reduced (see `SplitDenominator`).
    let reduce = |chunk: &[usize]| -> Vec<BigRational> {
        let coprime = split.coprime_to_all(
            chunk
                .iter()
                .filter(|&&j| found[j].is_none())
                .map(|&j| &big[j]),
        );
        chunk
            .iter()
            .map(|&j| match &found[j] {
                Some(x) => x.clone(),
                None => {
                    let g = split.gcd(&big[j], coprime);
                    if g.is_one() {
                        BigRational::new_raw(big[j].clone(), l.clone())
                    } else {
                        BigRational::new_raw(&big[j] / &g, &l / &g)
                    }
                }
            })
            .collect()
    };
    let reduce_all =
        |part: &[usize]| -> Vec<BigRational> { part.chunks(GCD_CHUNK).flat_map(reduce).collect() };
    // The reductions are independent: two cores from PARALLEL_MIN components up.
    if !worth_two_cores(components.len(), l.bits()) {
        return reduce_all(components);
    }
    let mid = components.len() / 2;
    let (left, right) = components.split_at(mid);
    std::thread::scope(|scope| {
        let reduce_all = &reduce_all;
        let right = scope.spawn(move || reduce_all(right));
        let mut xs = reduce_all(left);
        xs.extend(
            right
                .join()
                .expect("the second core's reductions do not panic"),
        );
        xs
    })
}

/// Components reduced together by [`SplitDenominator::coprime_to_all`].
const GCD_CHUNK: usize = 32;

/// A common denominator `L = S R` split into its part S made of small primes (which the rows'
/// diagonals bring in: powers of the die's faces) and the rest R, coprime to S, so that
/// `gcd(N, L) = gcd(N, S) gcd(N, R)`. On a board most numerators share only small primes with
/// L, and that is tested for many at once: if `gcd(prod N_j mod R, R) = 1`, no prime of R divides
/// any `N_j`, so every `gcd(N_j, R)` is 1 (a multiplication and a division per numerator instead
/// of a Euclidean run on 25,000 bits; `gcd(N, S)` is short, S being small).
struct SplitDenominator {
    small: BigInt,
    rest: BigInt,
}

impl SplitDenominator {
    fn new(l: &BigInt) -> SplitDenominator {
        let mut rest = l.clone();
        let mut small = BigInt::one();
        for q in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31] {
            loop {
                let (quot, r) = rest.div_rem(&BigInt::from(q));
                if !r.is_zero() {
                    break;
                }
                rest = quot;
                small *= q;
            }
        }
        SplitDenominator { small, rest }
    }

    /// Whether every numerator is coprime to the rest R.
    fn coprime_to_all<'a>(&self, numerators: impl Iterator<Item = &'a BigInt>) -> bool {
        if self.rest.is_one() {
            return true;
        }
        let mut product = BigInt::one();
        for n in numerators {
            product = (product * n).mod_floor(&self.rest);
        }
        gcd::gcd(&product, &self.rest).is_one()
    }

    /// `gcd(n, L)`, given whether n is known to be coprime to R.
    fn gcd(&self, n: &BigInt, coprime_to_rest: bool) -> BigInt {
        let small = if self.small.is_one() {
            BigInt::one()
        } else {
            gcd::gcd(&n.mod_floor(&self.small), &self.small)
        };
        if coprime_to_rest {
            small
        } else {
            small * gcd::gcd(n, &self.rest)
        }
    }
}

/// Lifts `A x = b` (A the lifter's) and rebuilds the components `at` of x.
fn lift_components(
    lifter: &Lifter<'_>,
    b: Vec<i64>,
    at: &[usize],
    num_bits: f64,
    den_bits: f64,
) -> Option<Vec<BigRational>> {
    let n = b.len();
    let p = lifter.prime();
    let steps = lifter.digits_for(n, num_bits, den_bits);
    let w = at.len();
    // digits[t * w + i]: digit t of wanted component i.
    let mut digits: Vec<u64> = Vec::with_capacity(steps * w);
    let mut block = Block::new(b);
    let stage = crate::progress::Stage::begin("lifting a solution vector", Some(steps as u64));
    for step in 0..steps {
        let z = block.step(lifter, None);
        digits.extend(at.iter().map(|&j| z[j]));
        stage.advance(step as u64 + 1);
    }
    drop(stage);
    drop(block);
    let modulus = BigInt::from(p).pow(steps as u32);
    let powers = chunk_powers(p, steps);
    // Components `range`, with `common` the denominator to try first (see the module docs).
    let rebuild = |range: std::ops::Range<usize>,
                   mut common: Option<BigInt>|
     -> Option<(Vec<BigRational>, Option<BigInt>)> {
        let mut own: Vec<u64> = vec![0; steps];
        let xs = range
            .map(|i| {
                for (t, d) in own.iter_mut().enumerate() {
                    *d = digits[t * w + i];
                }
                let s = BigInt::from(digits_to_int(&own, p, &powers));
                if let Some(l) = &common {
                    if let Some(x) = with_denominator(&s, &modulus, l, num_bits, den_bits) {
                        return Some(x);
                    }
                }
                reconstruct_into(&s, &modulus, p, num_bits, den_bits, &mut common)
            })
            .collect::<Option<Vec<BigRational>>>()?;
        Some((xs, common))
    };
    // The first component gives the common denominator; the others are independent, so from
    // PARALLEL_MIN of them up the second half goes to a second core.
    let (mut xs, common) = rebuild(0..w.min(1), None)?;
    if !worth_two_cores(w, steps as u64 * 62) {
        xs.extend(rebuild(xs.len()..w, common)?.0);
        return Some(xs);
    }
    let mid = w.div_ceil(2);
    let (left, right) = std::thread::scope(|scope| {
        let common_right = common.clone();
        let rebuild = &rebuild;
        let right = scope.spawn(move || rebuild(mid..w, common_right));
        let left = rebuild(1..mid, common);
        (
            left,
            right
                .join()
                .expect("the second core's rebuild does not panic"),
        )
    });
    xs.extend(left?.0);
    xs.extend(right?.0);
    Some(xs)
}

/// Digits per leaf of [`digits_to_int`].
const CHUNK: usize = 16;

/// `p^(CHUNK 2^k)` for every k that [`digits_to_int`] needs on `steps` digits.
fn chunk_powers(p: u64, steps: usize) -> Vec<BigUint> {
    let mut powers = vec![BigUint::from(p).pow(CHUNK as u32)];
    while CHUNK << powers.len() < steps {
        let last = &powers[powers.len() - 1];
        powers.push(last * last);
    }
    powers
}

/// `sum_i d_i p^i` for digits in `0..p` (`powers` from [`chunk_powers`]): Horner's rule on
/// leaves of [`CHUNK`] digits ([`from_reduced_digits`], quadratic but on short numbers), joined
/// as `low + p^h high` with `h = CHUNK 2^k` by big multiplications, which num-bigint does by
/// Karatsuba and Toom-3 on long numbers: about a third of Horner's rule on 420 digits.
fn digits_to_int(digits: &[u64], p: u64, powers: &[BigUint]) -> BigUint {
    if digits.len() <= CHUNK {
        return from_reduced_digits(digits, p).into_parts().1;
    }
    // h = CHUNK 2^k with h < len <= 2 h.
    let mut k = 0;
    while CHUNK << (k + 1) < digits.len() {
        k += 1;
    }
    let (low, high) = digits.split_at(CHUNK << k);
    digits_to_int(low, p, powers) + digits_to_int(high, p, powers) * &powers[k]
}

/// Two cores share the rebuilding or the reduction of `components` numbers of about `bits`
/// bits each from PARALLEL_MIN of them and this much work (components times bits) up: at 1,000
/// squares (960 numbers of 2,500 bits) they do, at 100 squares a second thread costs more than
/// it saves.
const PARALLEL_WORK: u64 = 1 << 21;

/// From this many components up, two cores may share them (see [`PARALLEL_WORK`]).
const PARALLEL_MIN: usize = 64;

fn worth_two_cores(components: usize, bits: u64) -> bool {
    components >= PARALLEL_MIN
        && (components as u64).saturating_mul(bits) >= PARALLEL_WORK
        && two_cores()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_denominator_gives_the_gcds() {
        // L = 2^10 3^7 (2^127 - 1)(2^89 - 1), the last two Mersenne primes: S = 2^10 3^7 and R
        // their product. Each gcd against num-integer's; the batch test is true exactly when no
        // numerator has a factor of R.
        let m127 = (BigInt::one() << 127u32) - 1;
        let m89 = (BigInt::one() << 89u32) - 1;
        let l = BigInt::from(1024 * 2187) * &m127 * &m89;
        let split = SplitDenominator::new(&l);
        assert_eq!(split.small, BigInt::from(1024 * 2187));
        assert_eq!(split.rest, &m127 * &m89);
        let numerators = [
            BigInt::from(8 * 3 * 5) * &m127,
            BigInt::from(7 * 11),
            BigInt::zero(),
            BigInt::zero() - (&m89 << 20u32),
            BigInt::from(3).pow(9) * 13,
        ];
        for n in &numerators {
            let coprime = Integer::gcd(n, &split.rest).is_one();
            assert_eq!(split.gcd(n, coprime), Integer::gcd(n, &l), "{n}");
        }
        assert!(split.coprime_to_all([&numerators[1], &numerators[4]].into_iter()));
        assert!(!split.coprime_to_all(numerators.iter().skip(3)));
        assert!(!split.coprime_to_all([&numerators[1], &numerators[0]].into_iter()));
    }

    #[test]
    fn digits_split_in_halves_give_horners_value() {
        // Against Horner's rule on the whole (from_reduced_digits, itself tested against big
        // integer arithmetic): lengths around the leaf size and its doublings, digits near p.
        let p: u64 = (1 << 62) - 57;
        let mut state = 12345u64;
        for len in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            2 * CHUNK,
            2 * CHUNK + 1,
            100,
            421,
        ] {
            let digits: Vec<u64> = (0..len)
                .map(|i| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if i % 5 == 0 {
                        p - 1
                    } else {
                        state % p
                    }
                })
                .collect();
            let powers = chunk_powers(p, len.max(1));
            assert_eq!(
                BigInt::from(digits_to_int(&digits, p, &powers)),
                from_reduced_digits(&digits, p),
                "{len} digits"
            );
        }
    }
}
