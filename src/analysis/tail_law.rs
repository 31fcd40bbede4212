//! The tail's law with a proved error: `|P(T > n) - C rho^n| <= eps` for every `n >= n0`, with
//! C and rho the decimals printed, for chains whose law of position settles.
//!
//! # Proof
//!
//! Let `p_m` be the exact law of the position after m turns (a row vector over the transient
//! states), Q the transient part of the chain, 1 the all-ones column; then
//! `P(T > m + k) = p_m Q^k 1`. Q is nonnegative, so for row vectors `u, w >= 0`:
//!
//! - if `u Q <= r u` and `p_m <= alpha u + s` (componentwise, `s >= 0`), then
//!   `p_m Q^k <= alpha r^k u + s Q^k` and, as Q's rows sum to at most 1,
//!   `P(T > m + k) <= a r^k + (s 1)` with `a = alpha (u 1)`;
//! - if `w Q >= l w` and `p_m >= beta w`, then `P(T > m + k) >= b l^k` with `b = beta (w 1)`.
//!
//! u is the law after m turns, as floats of the certified stepping's lower bounds, m the first
//! turn at which its ratios to the turn before agree to 1e-13 (the power method from the start:
//! it settles on the left Perron vector when the chain is not periodic; `Settling`); r and l
//! are its Collatz-Wielandt ratios `(u Q)_j / u_j`, evaluated exactly (u as the dyadic
//! fractions the floats are, Q exact), so nothing depends on how the floats were rounded, and
//! the statement holds whatever u >= 0 is, provided `(u Q)_j = 0` wherever `u_j = 0`. w is u
//! without the states whose share has fallen below `2^-60` (upstream states that empty faster
//! than the rest); s is `p_m`'s upper bound on those states and on the states where u is 0
//! (alpha is taken over the others). `p_m` is
//! enclosed componentwise by the certified stepping of `exact::certified`
//! (outward-rounded 128-bit block floating point): alpha and s use the upper bounds, beta the
//! lower ones.
//!
//! The printed `C' rho'^n` is an exact number too: with `A = max(a, C' rho'^m)`,
//! `B = min(b, C' rho'^m)`, `R = max(r, rho')` and `L = min(l, rho')`, both it and
//! `P(T > m + k)` lie in `[B L^k, A R^k + (s 1)]`, so their difference is at most
//! `A R^k - B L^k + (s 1) <= (A - B) R^k + B k R^(k-1) (R - L) + (s 1)` (the mean value
//! theorem). The first two terms shrink as k grows once `k >= R / (1 - R)`, so the bound at
//! `k0 = n0 - m` holds for every `n >= n0`. It is computed from exact rationals with every
//! power and product of nonnegative numbers rounded outward to 96 bits (up in the upper bounds,
//! down in the lower), which keeps the integers short, and printed rounded up.
//!
//! When the law does not settle (a periodic chain, where `P(T > n) / rho^n` oscillates, or a
//! root of multiplicity 2 as on `tiny`, where `P(T > n) = (n + 1) 2^-n`) no such statement is
//! true and none is made: [`tail_law`] returns `None`.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::decay::{dyadic_integers, Extreme};
use crate::analysis::spectral::TransientQ;
use crate::chain::{Chain, ChainState};
use crate::exact::certified::{Bounds, CertifiedChain};
use crate::num::decimal::{decade, format_scaled, over_power_of_ten, round_scaled, to_f64};
use crate::num::dyadic;
use crate::num::gcd::reduced;
use crate::num::scaled::Scaled;

mod settling;

pub(crate) use settling::Settling;

/// `|P(T > n) - c rho^n| <= within` for every `n >= from`, proved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct TailLaw {
    /// The constant C, exactly the decimal `c_text`.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub c: BigRational,
    /// C as printed.
    pub c_text: String,
    /// The rate rho, exactly the decimal `rho_text`.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub rho: BigRational,
    /// rho as printed.
    pub rho_text: String,
    /// The proved bound on the error, rounded up to one significant digit (0: exact).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub within: BigRational,
    /// The bound as printed (`4e-15`, or `0`).
    pub within_text: String,
    /// n0: the bound holds for every n from here.
    pub from: usize,
    /// m: the turn the two geometric bounds start from.
    pub start: usize,
    /// `(a, r, s)`: `P(T > m + k) <= a r^k + s` for every k >= 0 (s bounds the mass of the
    /// states too small to enter the geometric part, about 2^-120 of `P(T > m)` or less).
    #[serde(skip)]
    pub upper: (BigRational, BigRational, BigRational),
    /// `(b, l)`: `P(T > m + k) >= b l^k` for every k >= 0.
    #[serde(skip)]
    pub lower: (BigRational, BigRational),
}

impl TailLaw {
    /// The sentence `distribution` prints.
    pub fn sentence(&self) -> String {
        let within = if self.within.is_zero() {
            "exactly".to_string()
        } else {
            format!("to within {}", self.within_text)
        };
        format!(
            "P(T > n) = {} x {}^n {within} for every n >= {} (proved)",
            self.c_text, self.rho_text, self.from
        )
    }
}

/// The float power method's test for a settled law: the Collatz-Wielandt ratios of consecutive
/// positions agree to this (relative).
const SETTLED: f64 = crate::prec::POWER_SETTLED;
/// The most work (transitions stepped, Q's nonzeros times turns) spent looking for the turn at
/// which the law settles.
const SETTLING_WORK: usize = 30_000_000;
/// The most turns spent looking for it, however small the chain.
const SETTLING_TURNS: usize = 100_000;
/// States whose share of the iterate is below `2^-TINY_BITS` of the largest are left out of
/// the lower bound's vector.
const TINY_BITS: i32 = 60;
/// The bits kept when r, l, a and b are rounded outward.
const BITS: u64 = 96;

/// The smallest lower bound `L^k` on the tail judged worth a statement: `2^-FLOOR_BITS`.
const FLOOR_BITS: f64 = 4096.0;

/// The proved tail law of `chain`'s number of turns, or `None` when the game may not end, when
/// the law of the position does not settle within the work allowed, or when the proved error
/// would not be below a millionth of `P(T > n0)`. (The tests' entry: `distribution` finishes
/// the law from its own stepping.)
#[cfg(test)]
pub fn tail_law<S: ChainState>(chain: &Chain<S>) -> Option<TailLaw> {
    TailLawStart::new(chain)?.finish_by_stepping(chain).0
}

/// What the tail law needs of the chain before any stepping: Q as integers over a common
/// denominator. A certified stepping watched by [`TailLawStart::settling`] finds the turn m at
/// which the law of the position has settled, and hands its position there to
/// [`TailLawStart::finish`]: `distribution`'s own stepping does this as it goes, so the law
/// costs no stepping of its own.
pub(crate) struct TailLawStart {
    /// Q as integers over D (transient columns only; its floats serve the spectral radius,
    /// [`crate::analysis::distribution`]'s `Plan::radius`).
    q: TransientQ,
}

impl TailLawStart {
    /// `None` when the game may not end or starts finished. (The tests' entry.)
    #[cfg(test)]
    pub(crate) fn new<S: ChainState>(chain: &Chain<S>) -> Option<TailLawStart> {
        if !chain.always_ends() {
            return None;
        }
        TailLawStart::of(chain, TransientQ::new(chain)).ok()
    }

    /// [`TailLawStart::new`] from Q already read, for a chain the caller knows always ends (it
    /// has no [`Chain::trap`]); `Err(q)` when the game starts finished.
    pub(crate) fn of<S: ChainState>(
        chain: &Chain<S>,
        q: TransientQ,
    ) -> Result<TailLawStart, TransientQ> {
        match chain.start() >= chain.transient_count() {
            true => Err(q),
            false => Ok(TailLawStart { q }),
        }
    }

    /// Q, as [`TransientQ::new`] read it.
    pub(crate) fn q(&self) -> &TransientQ {
        &self.q
    }

    /// A watch for the turn at which the law settles, within the work allowed on this chain.
    pub(crate) fn settling(&self) -> Settling {
        let nonzeros = self.q.nonzeros().max(1);
        Settling::new((SETTLING_WORK / nonzeros).min(SETTLING_TURNS))
    }

    /// The law from the settled vector `u` of turn m ([`Settling::watch`]) and the certified
    /// enclosure of the position then (`CertifiedStepper::position` at turn m).
    pub(crate) fn finish(&self, m: usize, u: &[f64], position: &[Bounds]) -> Option<TailLaw> {
        let bounds = geometric_bounds(&self.q, u, position)?;
        best_statement(m, &bounds)
    }

    /// The law, stepping `chain` (the chain this start came from) until its law settles, and
    /// the settled vector u of that turn ([`Settling::watch`]; `None` when it does not settle).
    pub(crate) fn finish_by_stepping<S: ChainState>(
        &self,
        chain: &Chain<S>,
    ) -> (Option<TailLaw>, Option<Vec<f64>>) {
        let certified = CertifiedChain::new(chain);
        let mut stepper = certified.stepper();
        let mut settling = self.settling();
        while !settling.gave_up(stepper.turn()) {
            stepper.step();
            if let Some(u) = settling.watch(&stepper) {
                let law = self.finish(stepper.turn(), &u, &stepper.position());
                return (law, Some(u));
            }
        }
        (None, None)
    }
}

/// The proved `(a, r)`, `slack` and `(b, l)` with `b l^k <= P(T > m + k) <= a r^k + slack`.
#[derive(Debug, PartialEq)]
struct GeometricBounds {
    a: BigRational,
    r: BigRational,
    slack: BigRational,
    b: BigRational,
    l: BigRational,
}

/// The bounds of the module documentation from the float vector u and the law p enclosed by
/// the certified stepping (`lo / 2^shift <= p_j <= hi / 2^shift`).
///
/// Everything is done in integers: with D a common denominator of Q (`Q = A / D`, from
/// [`TransientQ`]) and
/// `u = U / 2^E`, `(u Q)_j / u_j = (U A)_j / (D U_j)`; ratios are compared by cross
/// multiplication, so no fraction is reduced until the four results are.
fn geometric_bounds(q: &TransientQ, u: &[f64], p: &[Bounds]) -> Option<GeometricBounds> {
    let d = &q.d;
    // u = U / 2^E with E >= 0.
    let (mut big_u, e) = dyadic_integers(u)?;
    if e > 0 {
        big_u.iter_mut().for_each(|x| *x <<= e as usize);
    }
    let e = (-e).max(0) as usize;
    let big = u.iter().cloned().fold(0.0, f64::max);
    let floor = big * 2f64.powi(-TINY_BITS);
    let big_w: Vec<BigInt> = u
        .iter()
        .zip(&big_u)
        .map(|(&f, x)| if f > floor { x.clone() } else { BigInt::zero() })
        .collect();
    let uq = integer_row_times(q, &big_u);
    // W A = U A less the rows of the states left out of w (few): the same integers.
    let mut wq = uq.clone();
    for (i, (x, w)) in big_u.iter().zip(&big_w).enumerate() {
        if w.is_zero() && !x.is_zero() {
            for k in q.entries(i) {
                wq[q.col(k)] -= q.times(x, k);
            }
        }
    }
    let shift = p.first().map_or(0, |b| b.shift) as usize;
    let (mut r, mut alpha) = (Extreme::largest(), Extreme::largest());
    let (mut l, mut beta) = (Extreme::smallest(), Extreme::smallest());
    let mut slack = BigInt::zero();
    for j in 0..u.len() {
        if big_u[j].is_zero() {
            // u_j = 0 needs (u Q)_j = 0; p's mass there (which the stepping may not tell from
            // 0) joins s.
            if !uq[j].is_zero() {
                return None;
            }
            slack += BigInt::from(p[j].hi);
            continue;
        }
        // Upper: u Q <= r u, and p <= alpha u + s with s the upper bounds on the states left
        // out of w (their mass never grows: Q's rows sum to at most 1, so s Q^k 1 <= s 1).
        r.offer(&uq[j], &big_u[j]);
        if big_w[j].is_zero() {
            slack += BigInt::from(p[j].hi);
            continue;
        }
        let hi = BigInt::from(p[j].hi) << e;
        alpha.offer(&hi, &(&big_u[j] << shift));
        // Lower: w Q >= l w and p >= beta w, over the states where w_j > 0.
        l.offer(&wq[j], &big_w[j]);
        let lo = BigInt::from(p[j].lo) << e;
        beta.offer(&lo, &(&big_w[j] << shift));
    }
    // r and l over D ((u Q)_j / u_j = (U A)_j / (D U_j)), alpha and beta over 1.
    let one = BigInt::one();
    let (r, alpha, l, beta) = (r.over(d)?, alpha.over(&one)?, l.over(d)?, beta.over(&one)?);
    let total = |v: &[BigInt]| BigRational::new(v.iter().sum::<BigInt>(), BigInt::one() << e);
    Some(GeometricBounds {
        a: round(&(alpha * total(&big_u)), true),
        r: round(&r, true),
        slack: round(&BigRational::new(slack, BigInt::one() << shift), true),
        b: round(&(beta * total(&big_w)), false),
        l: round(&l, false),
    })
}

/// The row vector `U A` in integers (A: [`TransientQ`]'s rows).
fn integer_row_times(a: &TransientQ, u: &[BigInt]) -> Vec<BigInt> {
    let mut v = vec![BigInt::zero(); u.len()];
    for (i, x) in u.iter().enumerate().take(a.rows()) {
        if !x.is_zero() {
            for k in a.entries(i) {
                v[a.col(k)] += a.times(x, k);
            }
        }
    }
    v
}

/// `x >= 0` rounded up (or down) to a dyadic fraction with about [`BITS`] significant bits.
fn round(x: &BigRational, up: bool) -> BigRational {
    dyadic::bound(x.numer(), x.denom(), BITS, up)
}

/// `x^n` for `x >= 0`, rounded up (or down) to about [`BITS`] significant bits after every
/// product ([`Scaled::pow_rounded`]): an upper (or lower) bound of the exact power with short
/// numbers.
fn pow_rounded(x: &Scaled, n: usize, up: bool) -> Scaled {
    x.round(BITS, up).pow_rounded(n, BITS, up)
}

/// `x y` for `x, y >= 0`, rounded up to about [`BITS`] significant bits.
fn times_up(x: &Scaled, y: &Scaled) -> Scaled {
    x.times(y).round(BITS, true)
}

/// `x / y` for `x >= 0` and `y > 0`, in lowest terms (one Lehmer gcd).
fn quotient(x: &Scaled, y: &Scaled) -> BigRational {
    let ((xn, xd), (yn, yd)) = (x.lowest_terms(), y.lowest_terms());
    reduced(xn * yd, &(xd * yn))
}

/// `x` rounded to `decimals` digits after the point (as `decimal::rounded`), as a fraction in
/// lowest terms, the same number as [`Scaled`], and its text (without trailing zeros: the text
/// is exactly the fraction).
fn decimal(x: &BigRational, decimals: usize) -> (BigRational, Scaled, String) {
    let n = round_scaled(x, decimals);
    // `fixed` of the rounded number: rounding n / 10^decimals again gives n.
    let text = format_scaled(&n, decimals);
    let scaled = Scaled::integer(n.clone()).times(&Scaled::pow10(-(decimals as i64)));
    let y = over_power_of_ten(n, decimals);
    let text = match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    };
    (y, scaled, text)
}

/// The smallest decimal of one significant digit at least `x > 0`, as a fraction and text.
fn one_digit_up(x: &Scaled) -> (BigRational, String) {
    let mut e = decade(&x.to_rational());
    let mut digit = x.div_ceil(&Scaled::pow10(e)).to_u32().unwrap_or(10);
    if digit >= 10 {
        digit = 1;
        e += 1;
    }
    (
        Scaled::integer(digit)
            .times(&Scaled::pow10(e))
            .to_rational(),
        format!("{digit}e{e}"),
    )
}

/// A start's bounds as exact numbers for [`statement`], and the midpoints it rounds to the
/// printed C and rho (the same whatever the number of digits).
struct Exact {
    a: Scaled,
    r: Scaled,
    slack: Scaled,
    b: Scaled,
    l: Scaled,
    /// `(r + l) / 2`.
    rho_mid: BigRational,
    /// `(a + b) / 2` (rounded up) over `rho_mid^m` (rounded up).
    c_mid: BigRational,
    /// The leading decimal exponents of `rho_mid` and `c_mid`, for [`places`].
    leads: (f64, f64),
}

impl Exact {
    /// The bounds, which are dyadic (rounded by [`round`]), of a start at turn m.
    fn of(m: usize, bounds: &GeometricBounds) -> Exact {
        let x = |r: &BigRational| Scaled::of(r).expect("a dyadic bound");
        let (a, r, b, l) = (x(&bounds.a), x(&bounds.r), x(&bounds.b), x(&bounds.l));
        let half = Scaled::dyadic(BigInt::one(), -1);
        let rho_mid = r.plus(&l).times(&half);
        // The printed C is chosen near (a + b) / 2 / rho^m; the bounds hold whatever it is.
        let c_num = a.plus(&b).times(&half).round(BITS, true);
        let c_mid = quotient(&c_num, &pow_rounded(&rho_mid, m, true));
        let rho_mid = rho_mid.to_rational();
        Exact {
            slack: x(&bounds.slack),
            leads: (lead(&rho_mid), lead(&c_mid)),
            rho_mid,
            c_mid,
            a,
            r,
            b,
            l,
        }
    }
}

/// The leading decimal exponent of `x > 0`, as [`places`] takes it (from the float).
fn lead(x: &BigRational) -> f64 {
    to_f64(x).log10().floor()
}

/// The number of decimals that give a number of leading exponent `lead` about `digits`
/// significant digits; `None` for a number outside the floats' range (a C below 10^-324 states
/// nothing, and its digits would take 10^(2^32) to write).
fn places(lead: f64, digits: usize) -> Option<usize> {
    lead.is_finite()
        .then(|| (digits as f64 - 1.0 - lead).max(0.0) as usize)
}

/// [`statement_within`] with no bar to meet (the tests' entry).
#[cfg(test)]
fn statement(m: usize, b: &GeometricBounds, x: &Exact, digits: usize) -> Option<TailLaw> {
    statement_within(m, b, x, digits, None)
}

/// What a statement needs to be chosen over the best one ([`best_statement`]): an n0 at most
/// `from` and an error at most `within` (the error as printed is at least the computed one).
struct Bar {
    from: usize,
    within: Option<Scaled>,
}

/// The printed C and rho to `digits` significant digits, n0, and the proved error there.
/// Computed with [`Scaled`] numbers: the same exact values as fractions, without their gcds.
/// With a `bar`, `None` as soon as the statement is sure to miss it: before its error is
/// computed when its n0 is too late, before the floor and the printed error when the error is
/// too large.
fn statement_within(
    m: usize,
    b: &GeometricBounds,
    x: &Exact,
    digits: usize,
    bar: Option<&Bar>,
) -> Option<TailLaw> {
    // An upper rate r >= 1 proves no decay (a state that u barely holds can give it any ratio:
    // rho 10 and C 10^-41,876 at m = 41,876 on a 17-square board, whose 17 digits took 10^(2^32)
    // to write); it is ruled out before any digit is written.
    let one = Scaled::integer(1);
    if !x.l.is_positive() || !x.r.compare(&one).is_lt() {
        return None;
    }
    let (rho_mid, c_mid) = (&x.rho_mid, &x.c_mid);
    let (rho, rho_s, rho_text) = decimal(rho_mid, places(x.leads.0, digits)?);
    let (c, c_s, c_text) = decimal(c_mid, places(x.leads.1, digits)?);
    // C' rho'^m enclosed (powers rounded outward), so A >= it >= B still holds.
    let big_a = x.a.clone().larger(c_s.times(&pow_rounded(&rho_s, m, true)));
    let small_b =
        x.b.clone()
            .smaller(c_s.times(&pow_rounded(&rho_s, m, false)));
    let big_r = x.r.clone().larger(rho_s.clone());
    let small_l = x.l.clone().smaller(rho_s);
    if !(big_r.compare(&one).is_lt() && small_l.is_positive() && small_b.is_positive()) {
        return None;
    }
    // k0 >= R / (1 - R) and >= 1; n0 = m + k0 rounded up to a multiple of 10.
    let k_min = big_r.div_ceil(&one.minus(&big_r)).to_usize()?.max(1);
    let from = (m + k_min).div_ceil(10) * 10;
    if bar.is_some_and(|bar| from > bar.from) {
        return None;
    }
    let k = from - m;
    // Every term is nonnegative and rounded up, so eps bounds the exact error bound from above.
    let r_k1 = pow_rounded(&big_r, k - 1, true);
    let k_r_k1 = times_up(&Scaled::integer(k), &r_k1);
    let eps = times_up(&times_up(&big_a.minus(&small_b), &r_k1), &big_r)
        .plus(&times_up(
            &times_up(&small_b, &k_r_k1),
            &big_r.minus(&small_l),
        ))
        .plus(&x.slack);
    let too_large = |bar: &Bar| bar.within.as_ref().is_some_and(|w| eps.compare(w).is_gt());
    if bar.is_some_and(too_large) {
        return None;
    }
    // Informative: the error is below a millionth of the smallest P(T > n0) can be. A lower
    // bound L^k under 2^-FLOOR_BITS makes no useful statement and its exact power would take
    // that many bits (an early start with loose bounds gave k log2(1/L) near 10^15), so it is
    // judged from its logarithm first.
    if !eps.is_zero() {
        let floor_bits = k as f64 * -to_f64(&small_l.to_rational()).log2();
        if floor_bits.is_nan() || floor_bits > FLOOR_BITS {
            return None;
        }
        let floor = small_b.times(&pow_rounded(&small_l, k, false));
        if eps
            .times(&Scaled::integer(1_000_000))
            .compare(&floor)
            .is_gt()
        {
            return None;
        }
    }
    let (within, within_text) = if eps.is_zero() {
        (BigRational::zero(), "0".to_string())
    } else {
        one_digit_up(&eps)
    };
    Some(TailLaw {
        c,
        c_text,
        rho,
        rho_text,
        within,
        within_text,
        from,
        start: m,
        upper: (b.a.clone(), b.r.clone(), b.slack.clone()),
        lower: (b.b.clone(), b.l.clone()),
    })
}

/// The statement with the fewest digits (6 to 16) whose error is within twice the best.
fn best_statement(m: usize, b: &GeometricBounds) -> Option<TailLaw> {
    let x = Exact::of(m, b);
    let best = statement_within(m, b, &x, 17, None)?;
    let twice = &best.within * BigRational::from_integer(BigInt::from(2));
    // A statement that misses the bar stops early: it would not be chosen.
    let bar = Bar {
        from: best.from,
        within: Scaled::of(&twice),
    };
    (6..=16)
        .step_by(2)
        .filter_map(|d| statement_within(m, b, &x, d, Some(&bar)))
        .find(|s| s.within <= twice && s.from <= best.from)
        .or(Some(best))
}

#[cfg(test)]
mod tests;
