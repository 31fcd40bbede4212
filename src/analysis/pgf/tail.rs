//! The decay rate of the tail, `P(T > n) ~ C rho^n`, certified: rho = 1/z0 with z0 the root of
//! D(z) nearest 0, enclosed between two fractions.
//!
//! # Method
//!
//! The radius of convergence of F is 1/rho, rho the spectral radius of Q (every transient state
//! is reachable from the start and, when the game always ends, reaches the finish), and by
//! Pringsheim's theorem it is a pole of F, so a root of D(z) (N/D is in lowest terms); no root
//! of D is nearer 0.
//!
//! - **Upper bound** (Collatz-Wielandt): if some x > 0 has `Q x <= r x` componentwise, then
//!   rho <= r. The x is found in floating point (`(I - Q/r) x = 1` has a positive solution
//!   `x = sum (Q/r)^k 1` when r > rho, and then `Q x = r x - r`, a margin of r per row), then
//!   the inequality is checked in exact rationals.
//! - **Lower bound**: if D changes sign between `1/r` and `1/l`, D has a real root z* there;
//!   every root has `|z| >= 1/rho`, so `1/rho <= z* <= 1/l`, i.e. rho >= l. The sign of D at a
//!   fraction is decided in integers.
//!
//! l and r are the floating-point rho times `1 -/+ 10^-11` (wider if needed), so about ten
//! digits are certified; the report prints the digits on which both ends agree.

use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{FromPrimitive, One, Signed, Zero};

use crate::analysis::distribution::spectral_radius;
use crate::chain::{Chain, ChainState};
use crate::exact::solve::{solve_float, transient_matrix};

use super::Pgf;

/// rho enclosed: `low <= rho <= high`, both proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecayRate {
    /// A proved lower bound.
    pub low: BigRational,
    /// A proved upper bound.
    pub high: BigRational,
    /// The constant C of `P(T > n) ~ C rho^n`, enclosed (low, high), when the enclosure of
    /// z0 keeps the denominator of its formula away from 0.
    pub constant: Option<(BigRational, BigRational)>,
}

/// An interval of rationals `(low, high)`.
type Interval = (BigRational, BigRational);

/// The range of the polynomial p over `[lo, hi]` (0 <= lo <= hi), enclosed: its value at the
/// midpoint plus or minus the half-width times a bound of |p'| on `[0, hi]`.
fn enclose(p: &[BigInt], lo: &BigRational, hi: &BigRational) -> Interval {
    let two = BigRational::from_integer(BigInt::from(2));
    let mid = (lo + hi) / &two;
    let half = (hi - lo) / two;
    let value = eval(p, &mid);
    let slope_poly: Vec<BigInt> = p
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c.abs() * BigInt::from(i))
        .collect();
    let slope = eval(&slope_poly, hi);
    let r = half * slope;
    (&value - &r, value + r)
}

fn mul(a: &Interval, b: &Interval) -> Interval {
    let c = [&a.0 * &b.0, &a.0 * &b.1, &a.1 * &b.0, &a.1 * &b.1];
    let lo = c.iter().min().expect("four").clone();
    let hi = c.iter().max().expect("four").clone();
    (lo, hi)
}

/// `a / b`, or `None` when b may be 0.
fn div(a: &Interval, b: &Interval) -> Option<Interval> {
    if b.0.is_positive() || b.1.is_negative() {
        Some(mul(a, &(b.1.recip(), b.0.recip())))
    } else {
        None
    }
}

/// C of `P(T > n) ~ C rho^n` for z0 in `z` (z0 > 1, a simple root of D).
///
/// # Formula
///
/// `sum_n P(T > n) z^n = (1 - F(z)) / (1 - z)`, and near z0, `1 - F = (D - N) / D` behaves like
/// `-N(z0) / (D'(z0) (z - z0))`, so the coefficients behave like `C z0^-n` with
/// `C = N(z0) / (z0 (1 - z0) D'(z0))`. (Check: a geometric(1/2) wait, F = z / (2 - z), has
/// z0 = 2, D' = -1, N(z0) = 2, so C = 2 / (2 (-1) (-1)) = 1, and indeed P(T > n) = 2^-n.)
fn tail_constant(pgf: &Pgf, z: &Interval) -> Option<Interval> {
    let derivative: Vec<BigInt> = pgf
        .denominator
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigInt::from(i))
        .collect();
    let n = enclose(&pgf.numerator, &z.0, &z.1);
    let dd = enclose(&derivative, &z.0, &z.1);
    // z (1 - z) is decreasing for z > 1/2.
    let one = BigRational::one();
    let zz = (&z.1 * (&one - &z.1), &z.0 * (&one - &z.0));
    div(&n, &mul(&zz, &dd))
}

/// `p(p_z / q_z) q_z^deg` as an integer (Horner on the homogenised form: no fractions, no gcd).
fn homogeneous(p: &[BigInt], z: &BigRational) -> BigInt {
    let (num, den) = (z.numer(), z.denom());
    let Some((last, rest)) = p.split_last() else {
        return BigInt::zero();
    };
    let mut h = last.clone();
    let mut den_pow = BigInt::one();
    for c in rest.iter().rev() {
        den_pow *= den;
        h = h * num + c * &den_pow;
    }
    h
}

/// `p(z)` exactly, for a fraction z.
fn eval(p: &[BigInt], z: &BigRational) -> BigRational {
    let deg = p.len().saturating_sub(1) as u32;
    BigRational::new(homogeneous(p, z), z.denom().pow(deg))
}

/// The sign of `D(z)` at a positive fraction z, exactly.
pub fn sign_at(d: &[BigInt], z: &BigRational) -> Sign {
    homogeneous(d, z).sign()
}

/// True when a positive x with `Q x <= r x` exists (found in floats, checked exactly), which
/// proves rho <= r.
fn bounds_from_above<S: ChainState>(chain: &Chain<S>, r: f64) -> bool {
    let q = transient_matrix(chain);
    let n = q.len();
    let qf: Vec<Vec<(usize, f64)>> = q
        .iter()
        .map(|row| {
            row.iter()
                .map(|(j, v)| (*j, crate::exact::decimal::to_f64(v)))
                .collect()
        })
        .collect();
    let a: Vec<Vec<(usize, f64)>> = qf
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut out: Vec<(usize, f64)> = row.iter().map(|(j, v)| (*j, -v / r)).collect();
            out.push((i, 1.0));
            out
        })
        .collect();
    let Some(x) = solve_float(&a, &[vec![1.0; n]], None).map(|mut v| v.remove(0)) else {
        return false;
    };
    if x.iter().any(|&v| !(v.is_finite() && v > 0.0)) {
        return false;
    }
    let Some(r) = BigRational::from_f64(r) else {
        return false;
    };
    let xr: Vec<BigRational> = x.iter().filter_map(|&v| BigRational::from_f64(v)).collect();
    q.iter().enumerate().all(|(i, row)| {
        let qx = row
            .iter()
            .fold(BigRational::zero(), |acc, (j, v)| acc + v * &xr[*j]);
        qx <= &r * &xr[i]
    })
}

/// rho, proved between two fractions, or `None` when the game may not end, when F is a
/// polynomial (rho = 0) or when the floating-point estimate is too poor to certify.
pub fn decay_rate<S: ChainState>(chain: &Chain<S>, pgf: &Pgf) -> Option<DecayRate> {
    if pgf.denominator.len() < 2 || !chain.always_ends() {
        return None;
    }
    let rho = spectral_radius(chain)?;
    if !(rho > 0.0 && rho < 1.0) {
        return None;
    }
    for gap in [1e-11, 1e-9, 1e-7, 1e-5] {
        let (l, r) = (rho * (1.0 - gap), (rho * (1.0 + gap)).min(1.0));
        let (Some(lq), Some(rq)) = (BigRational::from_f64(l), BigRational::from_f64(r)) else {
            return None;
        };
        if !lq.is_positive() {
            return None;
        }
        let (s_near, s_far) = (
            sign_at(&pgf.denominator, &rq.recip()),
            sign_at(&pgf.denominator, &lq.recip()),
        );
        let changes = matches!(
            (s_near, s_far),
            (Sign::Plus, Sign::Minus) | (Sign::Minus, Sign::Plus)
        );
        if changes && bounds_from_above(chain, r) {
            let z = (rq.recip(), lq.recip());
            let constant = tail_constant(pgf, &z);
            return Some(DecayRate {
                low: lq,
                high: rq,
                constant,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::pgf::pgf;
    use crate::board::builtin;

    #[test]
    fn a_double_root_is_not_certified_by_a_sign_change() {
        // tiny: F(z) = z^2 / (2 - z)^2 by hand, so z0 = 2 is a double root of D, which does not
        // change sign there: no interval is claimed (rather than a wrong one).
        let b = builtin("tiny").unwrap().unwrap();
        let chain = Chain::for_board(&b);
        assert_eq!(decay_rate(&chain, &pgf(&chain)), None);
    }

    #[test]
    fn the_rate_brackets_the_ratio_of_late_terms_on_milton_bradley() {
        // Independent: P(T > n + 1) / P(T > n) tends to rho; by n = 400 it agrees to about
        // 1e-9 of rho (the next eigenvalue is much smaller), so the certified interval must
        // overlap [ratio - 1e-8, ratio + 1e-8], and it must be narrow.
        let b = builtin("milton-bradley").unwrap().unwrap();
        let chain = Chain::for_board(&b);
        let f = pgf(&chain);
        let d = decay_rate(&chain, &f).expect("certified");
        let ic = crate::exact::step::IntegerChain::new(&chain);
        let mut st = ic.stepper();
        for _ in 0..400 {
            st.step();
        }
        let a = st.p_survives();
        st.step();
        let ratio = st.p_survives() / a;
        let eps = BigRational::new(BigInt::one(), BigInt::from(100_000_000));
        assert!(d.low <= &ratio + &eps && &ratio - &eps <= d.high);
        assert!(
            &d.high - &d.low < BigRational::new(BigInt::one(), BigInt::from(10_000_000_000u64))
        );
        // C: P(T > n) / rho^n tends to it; at n = 401 the two agree to about 1e-9 relative.
        let (c_lo, c_hi) = d.constant.clone().expect("enclosed");
        let rho = (&d.low + &d.high) / BigRational::from_integer(BigInt::from(2));
        let c_est = st.p_survives() / (0..401).fold(BigRational::one(), |acc, _| acc * &rho);
        let tol = BigRational::new(BigInt::one(), BigInt::from(1_000_000));
        assert!(
            &c_lo - &tol <= c_est && c_est <= &c_hi + &tol,
            "{c_lo} {c_hi}"
        );
        assert!(&c_hi - &c_lo < tol);
        // And D really changes sign across [1/high, 1/low].
        assert_ne!(
            sign_at(&f.denominator, &d.high.recip()),
            sign_at(&f.denominator, &d.low.recip())
        );
    }

    #[test]
    fn the_sign_of_d_is_exact() {
        // D(z) = z^2 - 4z + 4 = (z - 2)^2: positive at 1 and 3, zero at 2; z - 3/2 at 1 is < 0.
        let d: Vec<BigInt> = [4, -4, 1].iter().map(|&v| BigInt::from(v)).collect();
        assert_eq!(
            sign_at(&d, &BigRational::from_integer(1.into())),
            Sign::Plus
        );
        assert_eq!(
            sign_at(&d, &BigRational::from_integer(2.into())),
            Sign::NoSign
        );
        let e: Vec<BigInt> = [-3, 2].iter().map(|&v| BigInt::from(v)).collect();
        assert_eq!(
            sign_at(&e, &BigRational::from_integer(1.into())),
            Sign::Minus
        );
    }
}
