//! Every moment of the number of turns T, exactly: `E[T^k]`, the central moments, the skewness
//! and the excess kurtosis.
//!
//! # Formula
//!
//! With `F_i(z) = E[z^T]` from transient state i, one turn gives `F = z (Q F + r)`. Taking k
//! derivatives at z = 1 (`f_k = F^(k)(1)`, the factorial moments `E[T (T-1) ... (T-k+1)]`):
//!
//! `(I - Q) f_1 = 1`, and `(I - Q) f_k = k Q f_(k-1)` for k >= 2,
//!
//! one exact solve with the same matrix per moment ([`crate::exact::solve::solve`]).
//! The raw moments follow with the Stirling numbers of the second kind,
//! `E[T^k] = sum_j S(k, j) f_j`, the central ones with the binomial theorem,
//! `E[(T - mu)^k] = sum_j binomial(k, j) E[T^j] (-mu)^(k-j)`. The skewness `mu_3 / sigma^3` is
//! irrational in general: it is kept as its square with its sign (`mu_3^2 / mu_2^3`); the excess
//! kurtosis `mu_4 / mu_2^2 - 3` is a fraction. The same factorial moments are the derivatives at
//! 1 of the generating function ([`crate::analysis::pgf::Pgf::factorial_moments`]), a second,
//! independent route.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::analysis::fundamental::scaled_rows;
use crate::analysis::pgf::pgf;
use crate::chain::{Chain, ChainState};
use crate::exact::solve::{identity_minus, solve, transient_matrix, Singular, System, Wanted};
use crate::num::gcd::{self, reduced};

/// The moments of T up to some order, exactly. Serialized as `expect --moments K --json`'s
/// `moments` (docs/json-output.md): `order`, the lists from k = 1, and the skewness (its
/// decimal and its exact square) and excess kurtosis, `null` when undefined.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Moments {
    /// `E[T (T-1) ... (T-k+1)]` for k = 0..=K.
    pub factorial: Vec<BigRational>,
    /// `E[T^k]` for k = 0..=K.
    pub raw: Vec<BigRational>,
    /// `E[(T - E[T])^k]` for k = 0..=K.
    pub central: Vec<BigRational>,
    /// How they were found.
    pub route: Route,
}

impl serde::Serialize for Moments {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Form<'a> {
            #[serde(serialize_with = "crate::num::json::exact_list")]
            central: &'a [BigRational],
            #[serde(serialize_with = "crate::num::json::exact_option")]
            excess_kurtosis: Option<BigRational>,
            #[serde(serialize_with = "crate::num::json::exact_list")]
            factorial: &'a [BigRational],
            order: usize,
            #[serde(serialize_with = "crate::num::json::exact_list")]
            raw: &'a [BigRational],
            skewness: Option<String>,
            #[serde(serialize_with = "crate::num::json::exact_option")]
            skewness_squared: Option<BigRational>,
        }
        Form {
            central: &self.central[1..],
            excess_kurtosis: self.excess_kurtosis(),
            factorial: &self.factorial[1..],
            order: self.order(),
            raw: &self.raw[1..],
            skewness: self.skewness_decimal(crate::num::json::decimal_digits()),
            skewness_squared: self.skewness_squared().map(|(_, squared)| squared),
        }
        .serialize(serializer)
    }
}

/// How the moments were found (both routes are exact; see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Route {
    /// The derivatives at 1 of the generating function, the orders 1 to `solved` also by the
    /// solves with `I - Q` and equal.
    Pgf {
        /// The orders cross-checked by the solves.
        solved: usize,
    },
    /// The solves with `I - Q` alone.
    Solves,
}

impl Moments {
    /// The moments from the factorial moments `f_0 = 1, f_1, ..., f_K` (any denominators; one
    /// common base is taken: the lcm of them all).
    pub fn from_factorial(factorial: Vec<BigRational>) -> Moments {
        let base = factorial
            .iter()
            .fold(BigInt::one(), |l, f| gcd::lcm(l, f.denom()));
        let numerators = factorial
            .iter()
            .enumerate()
            .map(|(i, f)| f.numer() * (base.pow(i as u32 + 1) / f.denom()))
            .collect();
        Moments::from_factorial_over(numerators, &base)
    }

    /// The moments from the factorial moments given as `f_i = u_i / d^(i+1)` (`u_0 = d`, d > 0):
    /// every sum is then over one power of d, in integers, and each result is reduced once.
    ///
    /// With `R_j = sum_i S(j, i) u_i d^(j-i)`, `E[T^j] = R_j / d^(j+1)`; with `mu = R_1 / d^2`,
    /// `E[(T - mu)^n] = sum_j binomial(n, j) R_j (-R_1)^(n-j) d^j / d^(2n+1)`.
    pub fn from_factorial_over(u: Vec<BigInt>, d: &BigInt) -> Moments {
        assert!(d.is_positive(), "the base must be positive");
        let k = u.len() - 1;
        let d_pow = powers(d, 2 * k + 2);
        let raw_num: Vec<BigInt> = (0..=k)
            .map(|j| {
                let s = stirling2_row(j);
                (0..=j).fold(BigInt::zero(), |acc, i| {
                    if s[i].is_zero() {
                        acc
                    } else {
                        acc + &s[i] * &u[i] * &d_pow[j - i]
                    }
                })
            })
            .collect();
        let minus_mu = powers(
            &-raw_num.get(1).cloned().unwrap_or_else(BigInt::zero),
            k + 1,
        );
        let central = (0..=k)
            .map(|n| {
                let mut binom = BigInt::one();
                let mut acc = BigInt::zero();
                for j in 0..=n {
                    if j > 0 {
                        binom = binom * BigInt::from(n + 1 - j) / BigInt::from(j);
                    }
                    acc += &binom * &raw_num[j] * &minus_mu[n - j] * &d_pow[j];
                }
                reduced(acc, &d_pow[2 * n + 1])
            })
            .collect();
        let raw = (0..=k)
            .map(|j| reduced(raw_num[j].clone(), &d_pow[j + 1]))
            .collect();
        let factorial = u
            .into_iter()
            .enumerate()
            .map(|(i, x)| reduced(x, &d_pow[i + 1]))
            .collect();
        Moments {
            factorial,
            raw,
            central,
            route: Route::Solves,
        }
    }

    /// The highest order held.
    pub fn order(&self) -> usize {
        self.raw.len() - 1
    }

    /// The variance (needs order >= 2).
    pub fn variance(&self) -> Option<&BigRational> {
        self.central.get(2)
    }

    /// The skewness `sign sqrt(mu_3^2 / mu_2^3)` correctly rounded to `digits` decimals, when
    /// defined.
    pub fn skewness_decimal(&self, digits: usize) -> Option<String> {
        self.skewness_squared().map(|(sign, squared)| {
            let magnitude = crate::num::decimal::sqrt_fixed(&squared, digits);
            match sign < 0 {
                true => format!("-{magnitude}"),
                false => magnitude,
            }
        })
    }

    /// The skewness as (its sign, its square `mu_3^2 / mu_2^3`), when order >= 3 and the
    /// variance is positive.
    pub fn skewness_squared(&self) -> Option<(i8, BigRational)> {
        let (v, m3) = (self.central.get(2)?, self.central.get(3)?);
        if !v.is_positive() {
            return None;
        }
        let sign = if m3.is_positive() {
            1
        } else if m3.is_negative() {
            -1
        } else {
            0
        };
        Some((sign, m3 * m3 / pow(v, 3)))
    }

    /// The excess kurtosis `mu_4 / mu_2^2 - 3`, when order >= 4 and the variance is positive.
    pub fn excess_kurtosis(&self) -> Option<BigRational> {
        let (v, m4) = (self.central.get(2)?, self.central.get(4)?);
        if !v.is_positive() {
            return None;
        }
        Some(m4 / (v * v) - BigRational::from_integer(BigInt::from(3)))
    }
}

fn pow(x: &BigRational, n: usize) -> BigRational {
    (0..n).fold(BigRational::one(), |acc, _| acc * x)
}

/// `x^0, x^1, ..., x^(count-1)`.
fn powers(x: &BigInt, count: usize) -> Vec<BigInt> {
    let mut out = Vec::with_capacity(count);
    let mut p = BigInt::one();
    for _ in 0..count {
        let next = &p * x;
        out.push(std::mem::replace(&mut p, next));
    }
    out
}

/// `S(n, j)` for j = 0..=n: the Stirling numbers of the second kind
/// (`S(n, j) = j S(n-1, j) + S(n-1, j-1)`).
fn stirling2_row(n: usize) -> Vec<BigInt> {
    let mut row = vec![BigInt::one()];
    for m in 1..=n {
        let mut next = vec![BigInt::zero(); m + 1];
        for j in 1..=m {
            let stay = row
                .get(j)
                .map_or_else(BigInt::zero, |s| s * BigInt::from(j));
            next[j] = stay + &row[j - 1];
        }
        row = next;
    }
    row
}

/// The factorial moments `f_0 = 1, ..., f_K` of T from the start of `chain`, by exact solves
/// with the matrix `I - Q`: the K systems at once as one block system in integers
/// (`block_system`), or, when its entries do not fit machine words, one rational solve after
/// the other.
///
/// # Errors
///
/// [`Singular`] when some reachable state cannot finish (the moments are infinite).
pub fn factorial_moments<S>(chain: &Chain<S>, k: usize) -> Result<Vec<BigRational>, Singular>
where
    S: ChainState,
{
    let n = chain.transient_count();
    let mut out = vec![BigRational::one()];
    if chain.start() >= n || k == 0 {
        out.resize(k + 1, BigRational::zero());
        return Ok(out);
    }
    match block_system(chain, k) {
        Some(f) => Ok(f),
        None => one_by_one(chain, k),
    }
}

/// The K solves one after the other in rational arithmetic (each right-hand side from the
/// previous solution), for chains whose scaled entries do not fit machine words.
fn one_by_one<S: ChainState>(chain: &Chain<S>, k: usize) -> Result<Vec<BigRational>, Singular> {
    let n = chain.transient_count();
    let mut out = vec![BigRational::one()];
    let q = transient_matrix(chain);
    let mut rhs = vec![BigRational::one(); n];
    for j in 1..=k {
        let f = solve(
            System::rational(&identity_minus(&q), std::slice::from_ref(&rhs)),
            &[Wanted::All],
        )?
        .remove(0);
        out.push(f[chain.start()].clone());
        let next = BigRational::from_integer(BigInt::from(j + 1));
        rhs = q
            .iter()
            .map(|row| {
                row.iter()
                    .fold(BigRational::zero(), |acc, (c, v)| acc + v * &f[*c])
                    * &next
            })
            .collect();
    }
    Ok(out)
}

/// The K systems `(I - Q) f_1 = 1`, `(I - Q) f_j = j Q f_(j-1)` as one block lower bidiagonal
/// system of K n unknowns, each row scaled by the lcm `d_i` of its row's denominators:
/// block j's row i is `d_i (I - Q) f_j - j d_i Q f_(j-1) = [j = 1] d_i`. Only the start's K
/// components are rebuilt ([`solve`] of an integer [`System`]: p-adic lifting of a few components, exact by
/// Hadamard's bound). `None` when the route does not apply (a trap, entries beyond machine
/// words, a singular system: the one-by-one solves then report it).
fn block_system<S: ChainState>(chain: &Chain<S>, k: usize) -> Option<Vec<BigRational>> {
    let n = chain.transient_count();
    if chain.trap().is_some() {
        return None;
    }
    // rows[i] = [(i, d_i), (c, -d_i q_ic) for each transient c] (repeats are summed).
    let (rows, rhs) = scaled_rows(chain, &[])?;
    let mut block: Vec<Vec<(usize, i64)>> = Vec::with_capacity(n * k);
    let mut b = vec![0i64; n * k];
    b[..n].copy_from_slice(&rhs[0]);
    for j in 0..k {
        let order = i64::try_from(j + 1).ok()?;
        for row in &rows {
            let mut r: Vec<(usize, i64)> = row.iter().map(|&(c, v)| (j * n + c, v)).collect();
            if j > 0 {
                for &(c, v) in &row[1..] {
                    r.push(((j - 1) * n + c, v.checked_mul(order)?));
                }
            }
            block.push(r);
        }
    }
    let wanted: Vec<usize> = (0..k).map(|j| j * n + chain.start()).collect();
    let x = solve(System::integer(&block, &[b]), &[Wanted::Some(&wanted)]).ok()?;
    let mut out = vec![BigRational::one()];
    out.extend(x.into_iter().flatten());
    Some(out)
}

/// Orders up to this many are solved when cheap ([`factorial_moments`]), to cross-check the
/// generating function's derivatives or alone: higher orders make the block system K times
/// larger and its numbers K times longer.
pub const SOLVED_ORDERS: usize = 4;

/// What either route may take, in estimated seconds, before it is skipped (or the command
/// refused).
pub const SECONDS_LIMIT: f64 = 10.0;

pub use crate::analysis::pgf::pgf_seconds;

/// The estimated seconds of [`factorial_moments`] to order k on `chain` (n transient states):
/// `(n k)^2 k w / 1.3e8`, fitted on `benches/boards/gen-10000.toml` (9,600 states: 0.9, 6.6 and
/// 44 s at k = 1, 2, 4; seed-003 at k = 4: 0.1 s), with w the chain's [`solve_weight`] (1 on a
/// plain die's chain).
pub fn solve_seconds<S: ChainState>(chain: &Chain<S>, k: usize) -> f64 {
    let size = (chain.transient_count() * k) as f64;
    size * size * k as f64 * solve_weight(chain) / 1.3e8
}

/// The estimated seconds of one exact solve of `chain` (n transient states, t transitions
/// among them, each row's common denominator of b_i bits), for the route the solve takes:
///
/// - rows that fit machine words once scaled to integers (every `b_i` below [`WORD_BITS`]):
///   p-adic lifting, `n^2 w / 6.5e7`, w its [`solve_weight`]. Measured (user CPU of `ladders
///   expect`, at load average 4 to 6) on `benches/boards/gen-10000.toml` with its rules changed:
///   a d6 1.65 s (estimate 1.4), a loaded die (`--die 1,1,1,1,1,3`) 1.75 s (1.9), `--roll-again
///   3` 29 s (34), and `tests/hostile/boards/chance_10000.toml` (ten chance squares) 1.65 s
///   (1.4). (That board took 6.0 s while its roll-level system kept the chance squares'
///   denominator 30 in every row; the turn chain's solve, which this estimates, took 1.1 s: its
///   fill and rows are a d6's within 5%.)
/// - longer rows (chance squares whose weights' common denominator passes 2^62, so the board
///   has no roll-level form): multi-modular elimination, one prime per 62 bits of Hadamard's
///   bound (about `n b` bits, b the mean `b_i`), each prime reducing every entry's `b / 64`
///   words and eliminating: `n b (0.0144 t b + 985 n)` instructions at 1.04e10 a second, fitted
///   by callgrind on boards of 100 to 250 squares with three such chance squares on a loaded
///   die (`tests/hostile/boards/chance_2pow77_*.toml`'s layout: 2.1, 6.6, 18.0 and 41.6 G
///   instructions, the fit within 10 %); 300 squares took 9.2 s of CPU (estimate 8.0), 400
///   squares 33 s (26), where the lifting's formula said 1,071 s and 4,482 s.
pub fn exact_solve_seconds<S: ChainState>(chain: &Chain<S>) -> f64 {
    let n = chain.transient_count() as f64;
    let bits = row_lcm_bits(chain);
    if bits.iter().all(|&b| b < WORD_BITS) {
        return n * n * solve_weight(chain) / 6.5e7;
    }
    let b = mean_bits(&bits);
    let t = transitions(chain) as f64;
    n * b * (0.0144 * t * b + 985.0 * n) / 1.04e10
}

/// The bits below which a row's common denominator keeps the integer rows of an exact solve in
/// machine words (so the solve lifts p-adically).
pub const WORD_BITS: f64 = 62.0;

/// How much more an exact solve of `chain` costs than one of a plain die's chain of as many
/// states: `(t / 6n) (b / log2 6)^2`, t the transitions among the n transient states and b the
/// mean log2 of each row's common denominator (log2 6 for a d6). More transitions a state fill
/// the factors; longer denominators make both the lifting's steps and each step's numbers
/// longer.
pub fn solve_weight<S: ChainState>(chain: &Chain<S>) -> f64 {
    let n = chain.transient_count();
    if n == 0 {
        return 1.0;
    }
    let bits = row_bits(chain) / 6f64.log2();
    transitions(chain) as f64 / (6.0 * n as f64) * bits * bits
}

/// The transitions among the transient states of `chain`.
fn transitions<S: ChainState>(chain: &Chain<S>) -> usize {
    let n = chain.transient_count();
    chain.rows()[..n].iter().map(Vec::len).sum()
}

/// The mean log2 of the common denominator of each transient state's row (log2 6 for a d6),
/// at least 1 (0 on a chain without transient states).
pub fn row_bits<S: ChainState>(chain: &Chain<S>) -> f64 {
    mean_bits(&row_lcm_bits(chain))
}

/// The mean of `bits`, at least 1 (0 when there are none).
fn mean_bits(bits: &[f64]) -> f64 {
    match bits.len() {
        0 => 0.0,
        n => (bits.iter().sum::<f64>() / n as f64).max(1.0),
    }
}

/// The log2 of the common denominator of each transient state's row.
fn row_lcm_bits<S: ChainState>(chain: &Chain<S>) -> Vec<f64> {
    let n = chain.transient_count();
    chain.rows()[..n]
        .iter()
        .map(|row| {
            let lcm = row.iter().fold(BigInt::one(), |l, (_, p)| {
                num_integer::Integer::lcm(&l, p.denom())
            });
            // log2 of the lcm: exact enough from f64 below 2^1000, its bit length above.
            match lcm.bits() {
                b if b < 1000 => lcm.to_f64().map_or(b as f64, f64::log2),
                b => b as f64,
            }
        })
        .collect()
}

/// Why `checked_moments` gave no moments.
#[derive(Debug, thiserror::Error)]
pub enum MomentsError {
    /// Some reachable state cannot finish: the moments are infinite.
    #[error(transparent)]
    Singular(#[from] Singular),
    /// Neither route would finish in about `SECONDS_LIMIT`.
    #[error(
        "moments to order {asked}: too long on this board ({states} transient states, estimated \
         before starting): the generating function would take about {pgf_seconds:.0} s and the \
         solves about {solve_seconds:.0} s"
    )]
    TooMuchWork {
        /// The order asked for.
        asked: usize,
        /// The transient states.
        states: usize,
        /// The estimated seconds of the generating function.
        pgf_seconds: f64,
        /// The estimated seconds of the solves.
        solve_seconds: f64,
        /// The highest order the solves reach within the limit (0: none).
        solved: usize,
    },
    /// The two routes disagree: a bug.
    #[error(
        "internal check failed: the moments from the solver differ from the derivatives of the \
         generating function at 1 (please report this board)"
    )]
    Disagree,
}

/// The moments of T up to order K, by the cheaper exact route, cross-checked by the other where
/// that is cheap too: the derivatives at 1 of the generating function
/// ([`crate::analysis::pgf::Pgf::moments`]) when [`pgf_seconds`] is within [`SECONDS_LIMIT`],
/// the orders up to [`SOLVED_ORDERS`] whose solves are within it too ([`factorial_moments`])
/// checked against them with `==`; otherwise the solves alone when they are within it
/// (K <= [`SOLVED_ORDERS`]), else a refusal with both estimates.
///
/// # Errors
///
/// See [`MomentsError`].
pub fn checked_moments<S: ChainState>(chain: &Chain<S>, k: usize) -> Result<Moments, MomentsError> {
    let (solved, by_pgf) = plan(chain, k)?;
    if !by_pgf {
        return Ok(moments(chain, k)?);
    }
    let mut m = pgf(chain).moments(k);
    let f = factorial_moments(chain, solved)?;
    if f[..] != m.factorial[..=solved] {
        return Err(MomentsError::Disagree);
    }
    m.route = Route::Pgf { solved };
    Ok(m)
}

/// Refuses, from the estimates alone, the moments to order K that [`checked_moments`] would
/// refuse ([`MomentsError::TooMuchWork`]), so that a caller with other exact work to do first
/// (`E[T]` and the other expectations) refuses before it, not after.
///
/// # Errors
///
/// [`MomentsError::TooMuchWork`], with the same figures as [`checked_moments`].
pub fn moments_fit<S: ChainState>(chain: &Chain<S>, k: usize) -> Result<(), MomentsError> {
    plan(chain, k).map(|_| ())
}

/// The route [`checked_moments`] takes: the orders the solves reach within [`SECONDS_LIMIT`],
/// and whether the generating function does (else the solves alone, when they reach order K).
fn plan<S: ChainState>(chain: &Chain<S>, k: usize) -> Result<(usize, bool), MomentsError> {
    let cheap = |j: usize| solve_seconds(chain, j) <= SECONDS_LIMIT;
    let solved = (0..=k.min(SOLVED_ORDERS))
        .rev()
        .find(|&j| cheap(j))
        .unwrap_or(0);
    let pgf_s = pgf_seconds(chain);
    if pgf_s <= SECONDS_LIMIT || solved == k {
        return Ok((solved, pgf_s <= SECONDS_LIMIT));
    }
    Err(MomentsError::TooMuchWork {
        asked: k,
        states: chain.transient_count(),
        pgf_seconds: pgf_s,
        solve_seconds: solve_seconds(chain, k),
        solved,
    })
}

/// The moments of T up to order K from the start of `chain`, by the solves alone.
///
/// # Errors
///
/// [`Singular`] when some reachable state cannot finish.
pub fn moments<S>(chain: &Chain<S>, k: usize) -> Result<Moments, Singular>
where
    S: ChainState,
{
    Ok(Moments::from_factorial(factorial_moments(chain, k)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::q;

    #[test]
    fn stirling_numbers_of_the_second_kind() {
        // S(4, j): 0, 1, 7, 6, 1 (partitions of a 4-set into j blocks).
        let want: Vec<BigInt> = [0, 1, 7, 6, 1].iter().map(|&v| BigInt::from(v)).collect();
        assert_eq!(stirling2_row(4), want);
    }

    #[test]
    fn the_moments_of_the_tiny_board_are_those_of_two_geometric_waits() {
        // By hand (boards/tiny.toml): T = G1 + G2 with G1, G2 independent geometric(1/2) on
        // 1, 2, ... A geometric(p)'s cumulants are 1/p, (1-p)/p^2, (1-p)(2-p)/p^3 and
        // (1-p)(p^2-6p+6)/p^4: 2, 2, 6, 26 at p = 1/2. Cumulants add, so T has 4, 4, 12, 52:
        // mu_2 = 4, mu_3 = k3 = 12, mu_4 = k4 + 3 k2^2 = 52 + 48 = 100, E[T^2] = 4 + 16 = 20.
        // From F(z) = g(z)^2, g = z / (2 - z), g(1) = 1, g'(1) = 2, g''(1) = 4:
        // F'(1) = 2 g g' = 4 and F''(1) = 2 g'^2 + 2 g g'' = 16 = E[T^2] - E[T].
        let b = builtin("tiny").unwrap();
        let chain = Chain::for_board(&b);
        let m = moments(&chain, 4).unwrap();
        assert_eq!(m.route, Route::Solves);
        // The same figures from the derivatives of F = z^2 / (2 - z)^2 at 1, in integers.
        let by_pgf = checked_moments(&chain, 4).unwrap();
        assert_eq!(by_pgf.route, Route::Pgf { solved: 4 });
        assert_eq!(
            (&by_pgf.factorial, &by_pgf.raw, &by_pgf.central),
            (&m.factorial, &m.raw, &m.central)
        );
        assert_eq!(m.factorial[1], q(4, 1));
        assert_eq!(m.factorial[2], q(16, 1));
        assert_eq!(m.raw[2], q(20, 1));
        assert_eq!(m.central[2], q(4, 1));
        assert_eq!(m.central[3], q(12, 1));
        assert_eq!(m.central[4], q(100, 1));
        assert_eq!(m.skewness_squared(), Some((1, q(144, 64))));
        assert_eq!(m.excess_kurtosis(), Some(q(100, 16) - q(3, 1)));
    }

    /// `E[T^n] = sum_j S(n, j) f_j` and `E[(T - mu)^n] = sum_j binomial(n, j) E[T^j] (-mu)^(n-j)`
    /// term by term in rational arithmetic: the textbook route, against the integer one.
    fn textbook(f: &[BigRational]) -> (Vec<BigRational>, Vec<BigRational>) {
        let raw: Vec<BigRational> = (0..f.len())
            .map(|n| {
                let s = stirling2_row(n);
                (0..=n).fold(BigRational::zero(), |acc, j| {
                    acc + BigRational::from_integer(s[j].clone()) * &f[j]
                })
            })
            .collect();
        let central = (0..f.len())
            .map(|n| {
                (0..=n).fold(BigRational::zero(), |acc, j| {
                    let binom = (0..j).fold(BigInt::one(), |b, i| b * (n - i) / (i + 1));
                    acc + BigRational::from_integer(binom) * &raw[j] * pow(&-raw[1].clone(), n - j)
                })
            })
            .collect();
        (raw, central)
    }

    #[test]
    fn the_integer_moments_are_the_textbook_ones_and_both_routes_agree_on_efi() {
        // Route 1: the derivatives of the generating function, raw and central moments over
        // powers of D(1) in integers. Route 2: the block system (K = 6) and the rational
        // one-by-one solves (K = 3). Route 3: the textbook sums of the raw and central moments
        // in rational arithmetic. A wrong Stirling number, binomial, power of the base or
        // block coupling breaks one of the equalities.
        let chain = Chain::for_board(&builtin("efi").unwrap());
        let m = crate::analysis::pgf::pgf(&chain).moments(6);
        assert_eq!(m.factorial, factorial_moments(&chain, 6).unwrap());
        assert_eq!(m.factorial[..4], one_by_one(&chain, 3).unwrap()[..]);
        let (raw, central) = textbook(&m.factorial);
        assert_eq!((&m.raw, &m.central), (&raw, &central));
        assert_eq!(m.central[1], BigRational::zero());
        assert!(m.central[2].is_positive() && m.central[6].is_positive());
    }

    #[test]
    fn the_moments_of_a_stateful_board_agree_by_both_routes() {
        // seed-003 (one-use ladders, apples) on the chain without the eaten apples: 462
        // transient states, the case that took minutes by one solve after the other.
        let chain = crate::analysis::stateful::law_chain(&builtin("seed-003").unwrap());
        let m = checked_moments(&chain, 8).unwrap();
        assert_eq!(m.route, Route::Pgf { solved: 4 });
        assert_eq!(m.factorial[..5], factorial_moments(&chain, 4).unwrap()[..]);
        let (raw, central) = textbook(&m.factorial);
        assert_eq!((&m.raw, &m.central), (&raw, &central));
    }

    #[test]
    fn the_estimates_grow_with_the_board_and_the_order() {
        let small = Chain::for_board(&builtin("tiny").unwrap());
        let big = Chain::for_board(&builtin("milton-bradley").unwrap());
        assert!(solve_seconds(&small, 4) < solve_seconds(&big, 4));
        assert!(solve_seconds(&big, 2) < solve_seconds(&big, 4));
        assert!(pgf_seconds(&small) < pgf_seconds(&big));
        assert!(pgf_seconds(&big) < SECONDS_LIMIT && solve_seconds(&big, 4) < SECONDS_LIMIT);
    }
}
