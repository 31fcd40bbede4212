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
//! - **Upper bound**: the spectral radius's proved upper bound (`analysis/spectral.rs`: the
//!   Collatz-Wielandt bound of each strongly connected component, evaluated exactly) is at
//!   most r.
//! - **Lower bound**: if D changes sign between `1/r` and `1/l`, D has a real root z* there;
//!   every root has `|z| >= 1/rho`, so `1/rho <= z* <= 1/l`, i.e. rho >= l. The sign of D at a
//!   fraction is decided in integers.
//!
//! l and r are the floating-point rho times `1 -/+ 10^-11` (wider if needed), so about ten
//! digits are certified at first. When z0 is a root of multiplicity m of one squarefree factor
//! f of D and no other root is there, the enclosure of z0 is then halved on f's sign change
//! until it and the enclosure of C are `2^-60` of their size wide (or 4,096 halvings), so rho
//! and C are proved to about 18 digits; the report prints the digits on which both ends
//! agree.

use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{FromPrimitive, One, Signed, Zero};

use crate::analysis::spectral::spectral_bounds;
use crate::chain::{Chain, ChainState};
use crate::num::dyadic;
use crate::num::interval::Interval;

use super::{roots, Pgf};

/// rho enclosed: `low <= rho <= high`, both proved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct DecayRate {
    /// A proved lower bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub low: BigRational,
    /// A proved upper bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub high: BigRational,
    /// The multiplicity m of z0 as a root of D, when proved (`P(T > n) ~ C binomial(n + m - 1,
    /// m - 1) rho^n`): z0 is then the only root of D in `[1/high, 1/low]`.
    pub multiplicity: Option<usize>,
    /// The constant C of `P(T > n) ~ C binomial(n + m - 1, m - 1) rho^n`, enclosed (low,
    /// high), when the multiplicity is proved and the enclosure of z0 keeps the denominator of
    /// its formula away from 0.
    #[serde(serialize_with = "crate::num::json::exact_interval_option")]
    pub constant: Option<(BigRational, BigRational)>,
}

/// The significant bits kept when an enclosure is rounded outward (the values of long
/// polynomials at fractions have megabit numerators; their exact gcds cost seconds).
const ENCLOSURE_BITS: u64 = 192;

/// `[floor, ceil]` of `n / d` (d > 0) at about [`ENCLOSURE_BITS`] significant bits, as dyadic
/// fractions: an enclosure of `n / d` with short numbers.
fn ratio_outward(n: &BigInt, d: &BigInt) -> Interval {
    Interval::new(
        dyadic::bound(n, d, ENCLOSURE_BITS, false),
        dyadic::bound(n, d, ENCLOSURE_BITS, true),
    )
}

/// An interval rounded outward to [`ENCLOSURE_BITS`] significant bits at each end.
fn outward(Interval { lo, hi, .. }: Interval) -> Interval {
    Interval::new(
        dyadic::bound(lo.numer(), lo.denom(), ENCLOSURE_BITS, false),
        dyadic::bound(hi.numer(), hi.denom(), ENCLOSURE_BITS, true),
    )
}

/// `p(z)` enclosed, rounded outward, without forming (and reducing) the exact fraction.
fn eval_outward(p: &[BigInt], z: &BigRational) -> Interval {
    let deg = p.len().saturating_sub(1) as u32;
    ratio_outward(&homogeneous(p, z), &z.denom().pow(deg))
}

/// The range of the polynomial p over `[lo, hi]` (0 <= lo <= hi), enclosed: its value at the
/// midpoint plus or minus the half-width times a bound of |p'| on `[0, hi]`, rounded outward.
fn enclose(p: &[BigInt], lo: &BigRational, hi: &BigRational) -> Interval {
    let two = BigRational::from_integer(BigInt::from(2));
    let mid = (lo + hi) / &two;
    let half = (hi - lo) / two;
    let value = eval_outward(p, &mid);
    let slope_poly: Vec<BigInt> = p
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c.abs() * BigInt::from(i))
        .collect();
    let slope = eval_outward(&slope_poly, hi).hi;
    let r = half * slope;
    outward(Interval::new(&value.lo - &r, value.hi + r))
}

/// `a b`, rounded outward.
fn mul(a: &Interval, b: &Interval) -> Interval {
    outward(a.mul(b))
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
    let n = enclose(&pgf.numerator, &z.lo, &z.hi);
    let slope = enclose(&roots::derivative(&root.factor), &z.lo, &z.hi);
    let step = mul(&z.neg(), &slope);
    let power = (1..root.multiplicity).fold(step.clone(), |acc, _| mul(&acc, &step));
    let z_less_one = z.sub(&Interval::exact(one));
    let below = mul(&mul(&z_less_one, &enclose(&g, &z.lo, &z.hi)), &power);
    // `n l / below`, or `None` when below may be 0.
    Some(mul(
        &n.scale(&BigRational::from_integer(l)),
        &below.recip()?,
    ))
}

/// The bisections of z0's enclosure tried at most. The float estimate gives z0 to about 11
/// digits; the constant's enclosures bound |p'| by the sum of |coefficients|, so long
/// coefficients with much cancellation need z0 to many more bits than that.
const MAX_BISECTIONS: usize = 4096;

/// The relative width sought for rho and C: `2^-NARROW_BITS` (past the 17 significant digits
/// any `--digits` prints by default).
const NARROW_BITS: usize = 60;

/// True when `[lo, hi]` (not containing 0) is at most `2^-NARROW_BITS` of its magnitude wide.
fn narrow(Interval { lo, hi, .. }: &Interval) -> bool {
    let width = (hi - lo) * BigRational::from_integer(BigInt::one() << NARROW_BITS);
    width <= lo.abs().max(hi.abs())
}

/// z0's enclosure narrowed by bisection of the root's factor (32 halvings at a time, doubling,
/// up to [`MAX_BISECTIONS`]) until it and the enclosure of C ([`tail_constant`]) are
/// [`narrow`], with that C.
fn narrowed(pgf: &Pgf, z: Interval, root: &Root) -> (Interval, Option<Interval>) {
    // Two Newton steps from the middle give z0 to far more bits than needed at the cost of a
    // few evaluations; the bracket is kept only when f changes sign across it (a proof).
    if let Some(tight) = newton_bracket(&root.factor, &z) {
        let c = tail_constant(pgf, &tight, root);
        if c.as_ref().is_some_and(narrow) {
            return (tight, c);
        }
    }
    bisected(pgf, z, root)
}

/// The bits kept in a Newton iterate (a dyadic fraction), and the bracket's half-width
/// `2^-BRACKET_BITS` relative.
const NEWTON_BITS: usize = 160;
const BRACKET_BITS: usize = 100;

/// `x` rounded down to a multiple of `2^-bits`, in lowest terms.
fn dyadic(x: &BigRational, bits: usize) -> BigRational {
    let scaled = x * BigRational::from_integer(BigInt::one() << bits);
    dyadic::over_power_of_two(scaled.floor().to_integer(), bits as u64)
}

/// A bracket `[x - e, x + e]` inside z, `e = x 2^-BRACKET_BITS`, across which f changes sign,
/// x two Newton steps from z's middle; `None` when the steps leave z or f does not change sign
/// across it.
fn newton_bracket(f: &[BigInt], z: &Interval) -> Option<Interval> {
    let two = BigRational::from_integer(BigInt::from(2));
    let df = roots::derivative(f);
    let mut x = dyadic(&((&z.lo + &z.hi) / &two), NEWTON_BITS);
    for _ in 0..2 {
        let slope = eval(&df, &x);
        if slope.is_zero() {
            return None;
        }
        x = dyadic(&(&x - eval(f, &x) / slope), NEWTON_BITS);
    }
    let e = &x / BigRational::from_integer(BigInt::one() << BRACKET_BITS);
    let (lo, hi) = (&x - &e, &x + &e);
    let inside = z.lo <= lo && hi <= z.hi;
    (inside && strict_sign(f, &lo)? != strict_sign(f, &hi)?).then(|| Interval::new(lo, hi))
}

/// [`narrowed`] by bisection alone.
fn bisected(pgf: &Pgf, mut z: Interval, root: &Root) -> (Interval, Option<Interval>) {
    let mut steps = 32;
    let mut done = 0;
    loop {
        let c = tail_constant(pgf, &z, root);
        let enough = narrow(&z) && c.as_ref().is_some_and(narrow);
        if enough || done >= MAX_BISECTIONS {
            return (z, c);
        }
        let Some(next) = bisect(&root.factor, z.clone(), steps) else {
            return (z, c);
        };
        z = next;
        done += steps;
        steps *= 2;
    }
}

/// `steps` halvings of `[lo, hi]` keeping the sign change of f (strict at both ends); `None`
/// if f vanishes at a midpoint (then that midpoint is the root, which a rational root's exact
/// branch handles).
fn bisect(f: &[BigInt], z: Interval, steps: usize) -> Option<Interval> {
    let Interval { mut lo, mut hi, .. } = z;
    let two = BigRational::from_integer(BigInt::from(2));
    let lo_sign = strict_sign(f, &lo)?;
    for _ in 0..steps {
        let mid = (&lo + &hi) / &two;
        match strict_sign(f, &mid)? == lo_sign {
            true => lo = mid,
            false => hi = mid,
        }
    }
    Some(Interval::new(lo, hi))
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

/// Whether some factor of D changes sign across z (a root of D there), and, when
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
        if strict_sign(f, &z.lo)? != strict_sign(f, &z.hi)? {
            changing.push(i);
        }
        let slope = enclose(&roots::derivative(f), &z.lo, &z.hi);
        monotone &= slope.excludes_zero();
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

/// rho, proved between two fractions, or `None` when the game may not end, when F is a
/// polynomial (rho = 0) or when the floating-point estimate is too poor to certify. When z0 is
/// a rational root (its squarefree factor is linear) the two fractions are both exactly rho.
pub fn decay_rate<S: ChainState>(chain: &Chain<S>, pgf: &Pgf) -> Option<DecayRate> {
    if pgf.denominator.len() < 2 || !chain.always_ends() {
        return None;
    }
    // The spectral radius proved per component ([`spectral_bounds`]): its upper bound is the
    // upper end's proof.
    let radius = spectral_bounds(chain)?;
    let rho = radius.estimate;
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
        let z = Interval::new(rq.recip(), lq.recip());
        let Some((true, root)) = locate(&factors, &z) else {
            continue;
        };
        if radius.high > r {
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
        // A linear factor c0 + c1 z: z0 = -c0 / c1 exactly; else z0 narrowed by bisection.
        let (z, constant) = match &root.factor[..] {
            [c0, c1] => {
                let z0 = BigRational::new(-c0, c1.clone());
                let z = Interval::exact(z0);
                let c = tail_constant(pgf, &z, &root);
                (z, c)
            }
            _ => narrowed(pgf, z, &root),
        };
        return Some(DecayRate {
            low: z.hi.recip(),
            high: z.lo.recip(),
            multiplicity: Some(root.multiplicity),
            constant: constant.map(|c| (c.lo, c.hi)),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::pgf::pgf;
    use crate::board::{builtin, Board};
    use crate::num::decimal::to_f64;

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

    /// `P(T > n)` exactly against `C rho^n` from the enclosures: for large n the other roots'
    /// share is below `tol` of it, so the exact tail must lie in
    /// `[C_low rho_low^n (1 - tol), C_high rho_high^n (1 + tol)]`, and the enclosures must be
    /// narrow (a wrong C by more than `tol` fails).
    fn constant_agrees_with_the_exact_tail(b: &Board, n: usize, tol: f64) {
        // The chain of the game's law of T (one-use jumps and lost turns in the state).
        let chain = crate::analysis::stateful::law_chain(b);
        let d = decay_rate(&chain, &pgf(&chain)).expect("certified");
        assert_eq!(d.multiplicity, Some(1), "{}", b.name());
        let (c_low, c_high) = d.constant.expect("C enclosed");
        let rel = |lo: &BigRational, hi: &BigRational| to_f64(&((hi - lo) / hi));
        assert!(rel(&d.low, &d.high) < 1e-17, "{}", b.name());
        assert!(rel(&c_low, &c_high) < 1e-17, "{}", b.name());
        let ic = crate::exact::step::IntegerChain::new(&chain);
        let mut st = ic.stepper();
        for _ in 0..n {
            st.step();
        }
        let tail = st.p_survives();
        let tol = BigRational::from_f64(tol).unwrap();
        let one = BigRational::one();
        let low = c_low * num_traits::pow(d.low, n) * (&one - &tol);
        let high = c_high * num_traits::pow(d.high, n) * (&one + &tol);
        assert!(
            low <= tail && tail <= high,
            "{}: {}",
            b.name(),
            to_f64(&tail)
        );
    }

    #[test]
    fn the_constant_is_the_limit_of_the_exact_tail_over_rho_to_the_n() {
        // Milton Bradley: the next root of D is far smaller than rho ~ 0.96, so at n = 1,500
        // its share of P(T > n) is far below 1e-13 of it. The fixture's long-coefficient D
        // (degree 37, not squarefree modulo small primes) needed the bisection to give C at
        // all; rho ~ 0.54 there, and the law settles slowly (its proved tail law starts at
        // n = 1,750), so n = 1,500 and a looser 1e-10.
        constant_agrees_with_the_exact_tail(&builtin("milton-bradley").unwrap(), 1500, 1e-13);
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/independent-boards/tiles-once-points.toml"
        );
        let fixture = Board::load(std::path::Path::new(path)).unwrap();
        constant_agrees_with_the_exact_tail(&fixture, 1500, 1e-10);
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
