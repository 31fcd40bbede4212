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
use num_traits::{One, Signed, Zero};

use crate::chain::{Chain, ChainState};
use crate::exact::solve::{identity_minus, solve, transient_matrix, Singular, System, Wanted};

/// The moments of T up to some order, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moments {
    /// `E[T (T-1) ... (T-k+1)]` for k = 0..=K.
    pub factorial: Vec<BigRational>,
    /// `E[T^k]` for k = 0..=K.
    pub raw: Vec<BigRational>,
    /// `E[(T - E[T])^k]` for k = 0..=K.
    pub central: Vec<BigRational>,
}

impl Moments {
    /// The moments from the factorial moments `f_0 = 1, f_1, ..., f_K`.
    pub fn from_factorial(factorial: Vec<BigRational>) -> Moments {
        let k = factorial.len() - 1;
        let raw: Vec<BigRational> = (0..=k)
            .map(|n| {
                stirling2_row(n)
                    .iter()
                    .zip(&factorial)
                    .fold(BigRational::zero(), |acc, (s, f)| {
                        acc + BigRational::from_integer(s.clone()) * f
                    })
            })
            .collect();
        let mu = raw.get(1).cloned().unwrap_or_else(BigRational::zero);
        let central = (0..=k)
            .map(|n| {
                let mut binom = BigInt::one();
                let mut acc = BigRational::zero();
                for (j, r) in raw.iter().enumerate().take(n + 1) {
                    if j > 0 {
                        binom = binom * BigInt::from(n + 1 - j) / BigInt::from(j);
                    }
                    let term = r * pow(&-mu.clone(), n - j);
                    acc += term * BigRational::from_integer(binom.clone());
                }
                acc
            })
            .collect();
        Moments {
            factorial,
            raw,
            central,
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

/// The factorial moments `f_0 = 1, ..., f_K` of T from the start of `chain`, by K exact solves.
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
    if chain.start() >= n {
        out.resize(k + 1, BigRational::zero());
        return Ok(out);
    }
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

/// The moments of T up to order K from the start of `chain`.
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
        let m = moments(&Chain::for_board(&b), 4).unwrap();
        assert_eq!(m.factorial[1], q(4, 1));
        assert_eq!(m.factorial[2], q(16, 1));
        assert_eq!(m.raw[2], q(20, 1));
        assert_eq!(m.central[2], q(4, 1));
        assert_eq!(m.central[3], q(12, 1));
        assert_eq!(m.central[4], q(100, 1));
        assert_eq!(m.skewness_squared(), Some((1, q(144, 64))));
        assert_eq!(m.excess_kurtosis(), Some(q(100, 16) - q(3, 1)));
    }
}
