//! The closed form of the law of the game length T: its probability generating function
//! `F(z) = sum_n P(T = n) z^n` as a ratio of integer polynomials, and the minimal linear
//! recurrence of `P(T = n)`.
//!
//! # Formula
//!
//! Let D be the common denominator of the turn chain's probabilities, M = D Q the integer
//! matrix of its transient part and r the integer vector `D` times the probability of finishing
//! in one turn. Then `P(T = n) = e M^(n-1) r / D^n` for n >= 1 (e the start), so the integers
//! `s_k = D^(k+1) P(T = k + 1)` satisfy a linear recurrence with integer coefficients of order
//! at most the number of transient states (`modular` finds the minimal one and proves it).
//! With `G(x) = sum_k s_k x^k = P(x) / C(x)`, C the connection polynomial and `P = C G mod x^L`,
//!
//! `F(z) = (z / D) G(z / D) = z D^(L-1) P(z / D) / (D^L C(z / D))`,
//!
//! both sides integer polynomials; dividing by the content of both gives `N / D(z)` in lowest
//! terms (P and C are coprime because C is minimal, and `D(0) = D^L != 0`).
//!
//! The recurrence is `D(z) F(z) = N(z)` read coefficient by coefficient: with `D(z) = sum_i d_i
//! z^i`, `sum_i d_i P(T = n - i) = 0` for every `n > deg N` (and n >= deg D).
//!
//! The terms come from the integer stepper of [`crate::exact::step`], generic over the chain's
//! state type.

mod modular;
mod roots;
pub(crate) mod tail;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::analysis::moments::Moments;
use crate::chain::{Chain, ChainState};
use crate::exact::step::IntegerChain;

/// The recurrence `sum_i coefficients[i] P(T = n - i) = 0` for `n >= from`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Recurrence {
    /// The integer coefficients, the first positive, with no common factor (the denominator
    /// of the generating function).
    #[serde(serialize_with = "crate::num::json::integers")]
    pub coefficients: Vec<BigInt>,
    /// The first n where the recurrence holds.
    pub from: usize,
    /// `P(T = n)` for `n < from`: with the recurrence they give every term.
    #[serde(serialize_with = "crate::num::json::exact_list")]
    pub initial: Vec<BigRational>,
}

impl Recurrence {
    /// The order: how many earlier terms each term depends on.
    pub fn order(&self) -> usize {
        self.coefficients.len() - 1
    }
}

/// The probability generating function of T, exactly.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Pgf {
    /// N's coefficients, from z^0 up (no trailing zeros; `[]` for N = 0).
    #[serde(serialize_with = "crate::num::json::integers")]
    pub numerator: Vec<BigInt>,
    /// D's coefficients, from z^0 up, `D(0) > 0`, no trailing zeros.
    #[serde(serialize_with = "crate::num::json::integers")]
    pub denominator: Vec<BigInt>,
    /// The minimal recurrence of `P(T = n)`.
    pub recurrence: Recurrence,
    /// The exact terms computed to find and prove it.
    pub terms_used: usize,
    /// The word primes the modular search took.
    pub primes_used: usize,
}

/// A syntax for polynomials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// `3*z**2` (Python, SymPy).
    Sympy,
    /// `3*z^2` (Maple, Mathematica, and the text report).
    Caret,
}

/// `sum_i c_i v^i` written out, highest power first (`0` for no terms).
pub fn polynomial(coefficients: &[BigInt], var: &str, syntax: Syntax) -> String {
    let power = |i: usize| match (i, syntax) {
        (0, _) => String::new(),
        (1, _) => var.to_string(),
        (_, Syntax::Sympy) => format!("{var}**{i}"),
        (_, Syntax::Caret) => format!("{var}^{i}"),
    };
    let mut out = String::new();
    for (i, c) in coefficients.iter().enumerate().rev() {
        if c.is_zero() {
            continue;
        }
        let sign = if c.is_negative() { "-" } else { "+" };
        if out.is_empty() {
            if c.is_negative() {
                out.push('-');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        let a = c.abs();
        match (a.is_one(), i) {
            (true, 0) => out.push('1'),
            (true, _) => out.push_str(&power(i)),
            (false, 0) => out.push_str(&a.to_string()),
            (false, _) => out.push_str(&format!("{a}*{}", power(i))),
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

impl Pgf {
    /// `F = (N)/(D)` written in `syntax`, with `assign` between (`=`, or `:=` for Maple) and
    /// `end` after (`;` for Maple, else nothing).
    pub fn definition(&self, syntax: Syntax, assign: &str, end: &str) -> String {
        format!(
            "F {assign} ({})/({}){end}",
            polynomial(&self.numerator, "z", syntax),
            polynomial(&self.denominator, "z", syntax)
        )
    }

    /// The degree of N (0 for N = 0).
    pub fn numerator_degree(&self) -> usize {
        self.numerator.len().saturating_sub(1)
    }

    /// The degree of D.
    pub fn denominator_degree(&self) -> usize {
        self.denominator.len() - 1
    }

    /// The first `count` coefficients of the power series of N / D: `P(T = 0), P(T = 1), ...`.
    pub fn series(&self, count: usize) -> Vec<BigRational> {
        let (u, pow) = series_over(&self.numerator, &self.denominator, count);
        u.into_iter()
            .enumerate()
            .map(|(k, x)| BigRational::new(x, pow[k + 1].clone()))
            .collect()
    }

    /// The Taylor coefficients of F at 1 in integers: `(u, d)` with `F^(j)(1) / j! = u_j / d^(j+1)` and
    /// `d = D(1) > 0` (not reduced), from the power series of `N(1 + h) / D(1 + h)` in h.
    pub fn taylor_at_one_over(&self, k: usize) -> (Vec<BigInt>, BigInt) {
        let mut n = shift_to_one(&self.numerator, k);
        let mut d = shift_to_one(&self.denominator, k);
        if d[0].is_negative() {
            for x in n.iter_mut().chain(d.iter_mut()) {
                *x = -&*x;
            }
        }
        let (u, _) = series_over(&n, &d, k + 1);
        (u, d.swap_remove(0))
    }

    /// The factorial moments `E[T (T - 1) ... (T - j + 1)] = F^(j)(1)` for j = 0..=k.
    pub fn factorial_moments(&self, k: usize) -> Vec<BigRational> {
        self.moments(k).factorial
    }

    /// Every moment of T up to order k from the derivatives of F at 1: the factorial moments
    /// `j! u_j / D(1)^(j+1)` ([`Pgf::taylor_at_one_over`]), then the raw and central ones
    /// ([`Moments::from_factorial_over`]), in integers until one reduction per figure.
    pub fn moments(&self, k: usize) -> Moments {
        let (mut u, d) = self.taylor_at_one_over(k);
        let mut fact = BigInt::one();
        for (j, x) in u.iter_mut().enumerate().skip(2) {
            fact *= BigInt::from(j);
            *x *= &fact;
        }
        Moments::from_factorial_over(u, &d)
    }
}

/// The power series of `num / den` to `count` terms in integers: `(u, pow)` with coefficient
/// `k = u_k / d0^(k+1)` (`d0 = den[0] != 0`) and `pow[i] = d0^i` for i <= count, from
/// `u_k = num_k d0^k - sum_(i>=1) den_i u_(k-i) d0^(i-1)`.
fn series_over(num: &[BigInt], den: &[BigInt], count: usize) -> (Vec<BigInt>, Vec<BigInt>) {
    let d0 = &den[0];
    let mut pow = vec![BigInt::one()];
    for i in 1..=count {
        pow.push(&pow[i - 1] * d0);
    }
    let mut u: Vec<BigInt> = Vec::with_capacity(count);
    for k in 0..count {
        let mut x = num.get(k).map_or_else(BigInt::zero, |n| n * &pow[k]);
        for i in 1..den.len().min(k + 1) {
            if !den[i].is_zero() {
                x -= &den[i] * &u[k - i] * &pow[i - 1];
            }
        }
        u.push(x);
    }
    (u, pow)
}

/// The coefficients of `p(1 + h)` in h up to `h^k`.
fn shift_to_one(p: &[BigInt], k: usize) -> Vec<BigInt> {
    // [h^j] p(1 + h) = sum_i p_i binomial(i, j).
    let mut out = vec![BigInt::zero(); k + 1];
    for (i, c) in p.iter().enumerate() {
        let mut binom = BigInt::one();
        for (j, o) in out.iter_mut().enumerate().take(i.min(k) + 1) {
            if j > 0 {
                binom = binom * BigInt::from(i + 1 - j) / BigInt::from(j);
            }
            *o += c * &binom;
        }
    }
    out
}

/// `s_k = D^(k+1) P(T = k + 1)` for k < count, exact integers from the stepper.
fn scaled_terms(ic: &IntegerChain, count: usize) -> Vec<BigInt> {
    let d = ic.denominator();
    let mut stepper = ic.stepper();
    let mut d_pow = BigInt::one();
    let stage = crate::progress::Stage::begin("stepping the series", Some(count as u64));
    (0..count)
        .map(|n| {
            stage.advance(n as u64);
            stepper.step();
            d_pow *= d;
            stepper.ends_count() * (&d_pow / stepper.scale())
        })
        .collect()
}

/// The estimated work of [`pgf`] on `chain` (about 4.5e9 a second): that of stepping its 2m
/// exact terms
/// ([`crate::analysis::distribution::stepping_work`]; m transient states), which dominates.
pub fn pgf_work<S: ChainState>(chain: &Chain<S>) -> f64 {
    let m = chain.transient_count();
    if chain.start() >= m {
        return 0.0;
    }
    crate::analysis::distribution::stepping_work(&IntegerChain::new(chain), 2.0 * m as f64)
}

/// The estimated seconds of [`pgf`] on `chain`: its work ([`pgf_work`]) at 4.5e9 a second
/// (measured: seed-003 1.2e9 in 0.23 s, the 1,000-square `benches/boards/gen-1000.toml` 1.1e10
/// in 2.7 s).
pub fn pgf_seconds<S: ChainState>(chain: &Chain<S>) -> f64 {
    pgf_work(chain) / 4.5e9
}

/// The estimated seconds past which [`pgf_within`] refuses: what is left of a minute for the
/// decay rate and the report.
pub const PGF_SECONDS_LIMIT: f64 = 30.0;

/// The generating function would take too long (estimated before starting).
#[derive(Debug, thiserror::Error)]
#[error(
    "the generating function would take about {seconds:.0} s on this board ({states} transient \
     states, estimated before starting; answered up to about {limit:.0} s)"
)]
pub struct PgfTooLong {
    /// The estimated seconds.
    pub seconds: f64,
    /// The transient states.
    pub states: usize,
    /// The limit in seconds.
    pub limit: f64,
}

/// [`pgf`], or [`PgfTooLong`] at once when its estimate ([`pgf_seconds`]) is over
/// `limit_seconds`.
pub fn pgf_within<S: ChainState>(chain: &Chain<S>, limit_seconds: f64) -> Result<Pgf, PgfTooLong> {
    let seconds = pgf_seconds(chain);
    if seconds > limit_seconds {
        return Err(PgfTooLong {
            seconds,
            states: chain.transient_count(),
            limit: limit_seconds,
        });
    }
    Ok(pgf(chain))
}

/// The generating function of the number of turns of `chain`, found and proved as in the
/// module documentation.
pub fn pgf<S>(chain: &Chain<S>) -> Pgf
where
    S: ChainState,
{
    let m = chain.transient_count();
    if chain.start() >= m {
        // The game is over before it starts: T = 0, F = 1.
        return Pgf {
            numerator: vec![BigInt::one()],
            denominator: vec![BigInt::one()],
            recurrence: Recurrence {
                coefficients: vec![BigInt::one()],
                from: 1,
                initial: vec![BigRational::one()],
            },
            terms_used: 0,
            primes_used: 0,
        };
    }
    let ic = IntegerChain::new(chain);
    let d = ic.denominator().clone();
    let s = scaled_terms(&ic, 2 * m);
    let found = modular::minimal_recurrence(&s, m, &d);
    let c = &found.connection;
    let l = c.len() - 1;
    let mut d_pow = vec![BigInt::one()];
    for i in 1..=l {
        d_pow.push(&d_pow[i - 1] * &d);
    }
    // P = C G mod x^L, then N_(j+1) = P_j D^(L-1-j) and D_i = c_i D^(L-i).
    let mut numerator = vec![BigInt::zero(); l + 1];
    for j in 0..l {
        let p_j = (0..=j)
            .filter(|&i| !c[i].is_zero())
            .fold(BigInt::zero(), |acc, i| acc + &c[i] * &s[j - i]);
        numerator[j + 1] = p_j * &d_pow[l - 1 - j];
    }
    let mut denominator: Vec<BigInt> = c
        .iter()
        .enumerate()
        .map(|(i, ci)| ci * &d_pow[l - i])
        .collect();
    let g = modular::content(numerator.iter().chain(&denominator));
    for x in numerator.iter_mut().chain(denominator.iter_mut()) {
        *x /= &g;
    }
    trim(&mut numerator);
    trim(&mut denominator);
    let coefficients = {
        let h = modular::content(&denominator);
        denominator.iter().map(|x| x / &h).collect::<Vec<_>>()
    };
    let deg_n = numerator.len().saturating_sub(1);
    let from = (coefficients.len() - 1).max(if numerator.is_empty() { 0 } else { deg_n + 1 });
    let initial = (0..from)
        .map(|n| match n {
            0 => BigRational::zero(),
            _ => BigRational::new(s[n - 1].clone(), d.pow(n as u32)),
        })
        .collect();
    debug_assert!(denominator[0].is_positive());
    Pgf {
        numerator,
        denominator,
        recurrence: Recurrence {
            coefficients,
            from,
            initial,
        },
        terms_used: s.len(),
        primes_used: found.primes,
    }
}

fn trim(p: &mut Vec<BigInt>) {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
}

#[cfg(test)]
mod tests;
