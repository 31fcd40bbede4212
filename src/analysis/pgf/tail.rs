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

use crate::analysis::spectral::spectral_radius;
use crate::chain::{Chain, ChainState};
use crate::exact::solve::{solve_float, transient_matrix};

use super::{roots, Pgf};

/// rho enclosed: `low <= rho <= high`, both proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecayRate {
    /// A proved lower bound.
    pub low: BigRational,
    /// A proved upper bound.
    pub high: BigRational,
    /// The multiplicity m of z0 as a root of D, when proved (`P(T > n) ~ C binomial(n + m - 1,
    /// m - 1) rho^n`): z0 is then the only root of D in `[1/high, 1/low]`.
    pub multiplicity: Option<usize>,
    /// The constant C of `P(T > n) ~ C binomial(n + m - 1, m - 1) rho^n`, enclosed (low,
    /// high), when the multiplicity is proved and the enclosure of z0 keeps the denominator of
    /// its formula away from 0.
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

/// C of `P(T > n) ~ C binomial(n + m - 1, m - 1) rho^n` for z0 in `z` (z0 > 1), z0 a root of
/// D of multiplicity m, a simple root of `f` (so `D = f^m g / l`).
///
/// # Formula
///
/// `S(z) = sum_n P(T > n) z^n = (1 - F(z)) / (1 - z) = A(z) / D(z)` with `A = (D - N) / (1 - z)`,
/// so `A(z0) = N(z0) / (z0 - 1)`. Near z0, `D(z) ~ (f'(z0) (z - z0))^m g(z0) / l` and
/// `z - z0 = -z0 (1 - z/z0)`, so `S ~ c (1 - z/z0)^-m` with
/// `c = l N(z0) / ((z0 - 1) g(z0) (-z0 f'(z0))^m)`, whose coefficients are
/// `c binomial(n + m - 1, m - 1) z0^-n`. (Checks: a geometric(1/2) wait, F = z / (2 - z), has
/// z0 = 2, m = 1, f = D = 2 - z, g = l = 1, N(z0) = 2: c = 2 / (1 (-2 (-1))) = 1, and indeed
/// P(T > n) = 2^-n. The sum of two, `tiny`, F = z^2 / (2 - z)^2, has f = z - 2, m = 2,
/// g = l = 1, N(2) = 4: c = 4 / (1 (-2)^2) = 1, and indeed P(T > n) = (n + 1) 2^-n.)
fn tail_constant(pgf: &Pgf, z: &Interval, root: &Root) -> Option<Interval> {
    let one = BigRational::one();
    let (g, l) = roots::cofactor(&pgf.denominator, &root.factor, root.multiplicity);
    let n = enclose(&pgf.numerator, &z.0, &z.1);
    let slope = enclose(&roots::derivative(&root.factor), &z.0, &z.1);
    let minus_z = (-&z.1, -&z.0);
    let step = mul(&minus_z, &slope);
    let power = (1..root.multiplicity).fold(step.clone(), |acc, _| mul(&acc, &step));
    let below = mul(
        &mul(&(&z.0 - &one, &z.1 - &one), &enclose(&g, &z.0, &z.1)),
        &power,
    );
    let l = BigRational::from_integer(l);
    div(&(&n.0 * &l, &n.1 * &l), &below)
}

/// The root z0 of D nearest 0: its squarefree factor and multiplicity.
struct Root {
    factor: Vec<BigInt>,
    multiplicity: usize,
}

/// The sign of p at z: `None` when p(z) = 0.
fn strict_sign(p: &[BigInt], z: &BigRational) -> Option<bool> {
    match sign_at(p, z) {
        Sign::Plus => Some(true),
        Sign::Minus => Some(false),
        Sign::NoSign => None,
    }
}

/// Whether some factor of D changes sign across `[z.0, z.1]` (a root of D there), and, when
/// exactly one does and every factor is monotone there (its derivative's enclosure excludes
/// 0, so each has at most one root in it), that root with its multiplicity: the only root of D
/// in the interval.
fn locate(factors: &[Vec<BigInt>], z: &Interval) -> Option<(bool, Option<Root>)> {
    let mut changing = Vec::new();
    let mut monotone = true;
    for (i, f) in factors.iter().enumerate() {
        if f.len() < 2 {
            continue;
        }
        if strict_sign(f, &z.0)? != strict_sign(f, &z.1)? {
            changing.push(i);
        }
        let slope = enclose(&roots::derivative(f), &z.0, &z.1);
        monotone &= slope.0.is_positive() || slope.1.is_negative();
    }
    let root = match changing[..] {
        [i] if monotone => Some(Root {
            factor: factors[i].clone(),
            multiplicity: i + 1,
        }),
        _ => None,
    };
    Some((!changing.is_empty(), root))
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
/// polynomial (rho = 0) or when the floating-point estimate is too poor to certify. When z0 is
/// a rational root (its squarefree factor is linear) the two fractions are both exactly rho.
pub fn decay_rate<S: ChainState>(chain: &Chain<S>, pgf: &Pgf) -> Option<DecayRate> {
    if pgf.denominator.len() < 2 || !chain.always_ends() {
        return None;
    }
    let rho = spectral_radius(chain)?;
    if !(rho > 0.0 && rho < 1.0) {
        return None;
    }
    // Without the decomposition (too large to decompose exactly), D itself: a sign change
    // still proves rho >= low, and a monotone D there a simple root.
    let factors = roots::squarefree_decomposition(&pgf.denominator)
        .unwrap_or_else(|| vec![pgf.denominator.clone()]);
    for gap in [1e-11, 1e-9, 1e-7, 1e-5] {
        let (l, r) = (rho * (1.0 - gap), (rho * (1.0 + gap)).min(1.0));
        let (Some(lq), Some(rq)) = (BigRational::from_f64(l), BigRational::from_f64(r)) else {
            return None;
        };
        if !lq.is_positive() {
            return None;
        }
        let z = (rq.recip(), lq.recip());
        let Some((true, root)) = locate(&factors, &z) else {
            continue;
        };
        if !bounds_from_above(chain, r) {
            continue;
        }
        let Some(root) = root else {
            return Some(DecayRate {
                low: lq,
                high: rq,
                multiplicity: None,
                constant: None,
            });
        };
        // A linear factor c0 + c1 z: z0 = -c0 / c1 exactly.
        let z = match &root.factor[..] {
            [c0, c1] => {
                let z0 = BigRational::new(-c0, c1.clone());
                (z0.clone(), z0)
            }
            _ => z,
        };
        return Some(DecayRate {
            low: z.1.recip(),
            high: z.0.recip(),
            multiplicity: Some(root.multiplicity),
            constant: tail_constant(pgf, &z, &root),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::pgf::pgf;
    use crate::board::builtin;

    #[test]
    fn the_double_root_of_tiny_is_found_exactly_with_its_multiplicity() {
        // tiny: F(z) = z^2 / (2 - z)^2 by hand (two waits for heads), so z0 = 2 is a double
        // root of D, rho = 1/2, and P(T > n) = sum_(k > n) (k - 1) 2^-k = (n + 1) 2^-n
        // = C binomial(n + 1, 1) rho^n with C = 1, exactly (check: n = 1, P(T > 1) = 1; n = 2,
        // 1 - 1/4 = 3/4).
        let b = builtin("tiny").unwrap();
        let chain = Chain::for_board(&b);
        let d = decay_rate(&chain, &pgf(&chain)).expect("certified");
        let half = BigRational::new(BigInt::one(), BigInt::from(2));
        assert_eq!((d.low, d.high), (half.clone(), half));
        assert_eq!(d.multiplicity, Some(2));
        assert_eq!(d.constant, Some((BigRational::one(), BigRational::one())));
    }

    #[test]
    fn a_simple_irrational_root_is_enclosed_and_the_only_root_there() {
        // Milton Bradley's D is squarefree (the modular test), so m = 1; the factor changing
        // sign across the enclosure is D itself.
        let b = builtin("milton-bradley").unwrap();
        let chain = Chain::for_board(&b);
        let f = pgf(&chain);
        let d = decay_rate(&chain, &f).expect("certified");
        assert_eq!(d.multiplicity, Some(1));
        assert!(d.low < d.high);
        assert_eq!(
            roots::squarefree_decomposition(&f.denominator),
            Some(vec![f.denominator.clone()])
        );
    }

    #[test]
    fn the_rate_brackets_the_ratio_of_late_terms_on_milton_bradley() {
        // Independent: P(T > n + 1) / P(T > n) tends to rho; by n = 400 it agrees to about
        // 1e-9 of rho (the next eigenvalue is much smaller), so the certified interval must
        // overlap [ratio - 1e-8, ratio + 1e-8], and it must be narrow.
        let b = builtin("milton-bradley").unwrap();
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
