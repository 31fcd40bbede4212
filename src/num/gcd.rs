//! Lehmer's acceleration of the Euclidean algorithm for big integers: the greatest common
//! divisor, and the half-extended algorithm behind rational reconstruction.
//!
//! The quotients of the first Euclidean steps on two big numbers depend only on their leading
//! bits, so they can be found with machine words and applied to the big numbers at once as a
//! 2 x 2 matrix of cofactors (D. H. Lehmer, *Euclid's algorithm for large numbers*, Amer. Math.
//! Monthly 45, 1938; Knuth, *The Art of Computer Programming* 2, section 4.5.2, algorithm L).
//! One such step replaces about 18 single steps, each a division of big numbers, by one pass over
//! the limbs of both numbers. `num-bigint`'s own gcd is the binary algorithm, a shift and a
//! subtraction per bit, several times slower on numbers of a few hundred bits, which is what
//! every exact expectation reduces.
//!
//! The numbers are kept here as little-endian vectors of 64-bit limbs, updated by the cofactor
//! matrix in one pass with 128-bit carries; `num-bigint` does the rare division steps.

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A natural number as little-endian 64-bit limbs, without high zero limbs.
type Limbs = Vec<u64>;

fn to_limbs(x: &BigUint) -> Limbs {
    x.iter_u64_digits().collect()
}

fn from_limbs(l: &[u64]) -> BigUint {
    BigUint::new(
        l.iter()
            .flat_map(|&d| [d as u32, (d >> 32) as u32])
            .collect(),
    )
}

fn trim(l: &mut Limbs) {
    while l.last() == Some(&0) {
        l.pop();
    }
}

fn bits(l: &[u64]) -> u64 {
    l.last().map_or(0, |&top| {
        64 * l.len() as u64 - u64::from(top.leading_zeros())
    })
}

fn compare(a: &[u64], b: &[u64]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// The 62 bits of `l` from bit `shift` up.
fn bits_from(l: &[u64], shift: u64) -> u64 {
    let (word, offset) = ((shift / 64) as usize, shift % 64);
    let lo = l.get(word).copied().unwrap_or(0);
    let hi = l.get(word + 1).copied().unwrap_or(0);
    let both = (u128::from(hi) << 64) | u128::from(lo);
    ((both >> offset) as u64) & ((1 << 62) - 1)
}

/// Lehmer's step on the leading 62 bits `x > y` of two numbers `u > v` (taken at the same
/// shift): the cofactor matrix `[[a, b], [c, d]]` of the Euclidean quotients they already decide,
/// mapping `(u, v)` to a later pair of consecutive remainders `(a u + b v, c u + d v)`; `None`
/// when not even the first quotient is decided (then one division step is the way on).
///
/// x, y < 2^62 and the cofactors stay below 2^62 in absolute value (they are bounded by the
/// leading digits they come from), so every sum below fits an i64. The matrix has determinant
/// `(-1)^k` after k quotients, and its rows alternate in sign: `a, d >= 0 >= b, c` or the reverse.
fn cofactors(x: u64, y: u64) -> Option<[i64; 4]> {
    let (mut x, mut y) = (x as i64, y as i64);
    let (mut a, mut b, mut c, mut d): (i64, i64, i64, i64) = (1, 0, 0, 1);
    while y + c != 0 && y + d != 0 {
        let q = (x + a) / (y + c);
        if q != (x + b) / (y + d) {
            break;
        }
        (a, c) = (c, a - q * c);
        (b, d) = (d, b - q * d);
        (x, y) = (y, x - q * y);
    }
    (b != 0).then_some([a, b, c, d])
}

/// The cofactor step for `u >= v > 0`, from their leading 62 bits.
fn step_for(u: &[u64], v: &[u64]) -> Option<[i64; 4]> {
    let shift = bits(u).saturating_sub(62);
    cofactors(bits_from(u, shift), bits_from(v, shift))
}

/// `a x + b y` for naturals a, b (the magnitudes of the cofactor sequence add up).
fn unsigned_combination(a: u64, x: &[u64], b: u64, y: &[u64]) -> Limbs {
    let n = x.len().max(y.len());
    let mut out = Vec::with_capacity(n + 1);
    let mut carry: u128 = 0;
    for i in 0..n {
        let xi = u128::from(x.get(i).copied().unwrap_or(0));
        let yi = u128::from(y.get(i).copied().unwrap_or(0));
        // Below 2^126 + 2^126 + 2^64: no overflow.
        let t = u128::from(a) * xi + u128::from(b) * yi + carry;
        out.push(t as u64);
        carry = t >> 64;
    }
    if carry > 0 {
        out.push(carry as u64);
    }
    trim(&mut out);
    out
}

/// The greatest common divisor of `a` and `b` (non-negative; `gcd(0, 0) = 0`), by Lehmer steps
/// while the numbers are big and machine words at the end.
pub fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut u, mut v) = (to_limbs(a.magnitude()), to_limbs(b.magnitude()));
    if compare(&u, &v) == Ordering::Less {
        std::mem::swap(&mut u, &mut v);
    }
    // u >= v >= 0 throughout.
    while !v.is_empty() {
        if u.len() == 1 {
            return BigInt::from(u[0].gcd(&v[0]));
        }
        match step_for(&u, &v) {
            Some(matrix) => apply_in_place(&mut u, &mut v, matrix),
            None => {
                let r = to_limbs(&(from_limbs(&u) % from_limbs(&v)));
                u = std::mem::replace(&mut v, r);
            }
        }
    }
    BigInt::from(from_limbs(&u))
}

/// The least common multiple of `l` and a positive `d` (found by one division when d divides
/// l, the usual case for the denominators of one system).
pub fn lcm(l: BigInt, d: &BigInt) -> BigInt {
    if (&l % d).is_zero() {
        return l;
    }
    let g = gcd(&l, d);
    l / g * d
}

/// `sum_i p_i v_i` over the pairs whose `p_i` is not zero, reduced once at the end: the terms
/// are added over the least common multiple of their denominators (one division when a
/// denominator divides it, the usual case for the components of one solution) and the sum is
/// reduced by one Lehmer gcd. `BigRational`'s own `+` and `*` reduce every partial result by
/// the binary gcd, which on the thousands of digits of a large board's visits took minutes.
pub(crate) fn dot<'a>(
    pairs: impl IntoIterator<Item = (&'a BigRational, &'a BigRational)>,
) -> BigRational {
    sum_of_fractions(
        pairs
            .into_iter()
            .filter(|(p, _)| !p.is_zero())
            .map(|(p, v)| (p.numer() * v.numer(), p.denom() * v.denom())),
    )
}

/// `sum_i v_i`, as [`dot`] adds: over the least common multiple of the denominators, reduced
/// once at the end. One value is returned as it is (already in lowest terms): `BigRational`'s
/// `0 + v` reduces it again by the binary gcd, 8 of the 12.7 s of `squares` on a 10,000-square
/// board whose visits have tens of thousands of digits.
pub(crate) fn sum(mut values: Vec<BigRational>) -> BigRational {
    if values.len() == 1 {
        return values.pop().expect("one value");
    }
    sum_of_fractions(
        values
            .into_iter()
            .filter(|v| !v.is_zero())
            .map(|v| v.into_raw()),
    )
}

/// The sum of the fractions `n / d` (d > 0) in lowest terms, for [`dot`] and [`sum`].
fn sum_of_fractions(terms: impl Iterator<Item = (BigInt, BigInt)>) -> BigRational {
    let (mut numer, mut denom) = (BigInt::zero(), BigInt::one());
    for (n, d) in terms {
        if d != denom {
            let l = lcm(denom.clone(), &d);
            numer *= &l / &denom;
            denom = l;
        }
        numer += n * (&denom / &d);
    }
    reduced(numer, &denom)
}

/// `numer / denom` in lowest terms (`denom` positive), reduced by one Lehmer gcd rather than
/// `BigRational::new`'s binary one.
pub(crate) fn reduced(numer: BigInt, denom: &BigInt) -> BigRational {
    let g = gcd(&numer, denom);
    BigRational::new_raw(numer / &g, denom / g)
}

/// `(u, v) <- (a u + b v, c u + d v)` in place, for a Lehmer matrix applied to two consecutive
/// remainders (both results are non-negative): one pass over the limbs for both results. Each
/// row of the matrix has one coefficient `>= 0` and one `<= 0` (the cofactors alternate in
/// sign), so each limb of a result is a difference of two unsigned 64 x 64-bit products (each
/// below 2^126) plus a carry, in a signed 128-bit sum (below 2^127 in absolute value).
fn apply_in_place(u: &mut Limbs, v: &mut Limbs, [a, b, c, d]: [i64; 4]) {
    debug_assert!(a.signum() * b.signum() <= 0 && c.signum() * d.signum() <= 0);
    v.resize(u.len(), 0);
    let row = |x: i64, y: i64| (x > 0 || y < 0, x.unsigned_abs(), y.unsigned_abs());
    let ((a_first, a, b), (c_first, c, d)) = (row(a, b), row(c, d));
    let (mut carry_u, mut carry_v) = (0i128, 0i128);
    for (x, y) in u.iter_mut().zip(v.iter_mut()) {
        let (ux, vy) = (u128::from(*x), u128::from(*y));
        let (p, q) = ((u128::from(a) * ux) as i128, (u128::from(b) * vy) as i128);
        let next_u = if a_first { p - q } else { q - p } + carry_u;
        let (p, q) = ((u128::from(c) * ux) as i128, (u128::from(d) * vy) as i128);
        let next_v = if c_first { p - q } else { q - p } + carry_v;
        *x = next_u as u64;
        *y = next_v as u64;
        carry_u = next_u >> 64;
        carry_v = next_v >> 64;
    }
    debug_assert!(carry_u == 0 && carry_v == 0, "remainders are non-negative");
    trim(u);
    trim(v);
}

/// The half-extended Euclidean algorithm on `(m, s)`, `m > s >= 0`, stopped at the first
/// remainder `r_j <= bound`: returns `(r_j, t_j)` with `s_j m + t_j s = r_j` for some `s_j`
/// (the cofactor of m is not computed). This is rational reconstruction's core (Wang 1981; von
/// zur Gathen and Gerhard, *Modern Computer Algebra*, section 5.10).
///
/// The remainders fall and the cofactors `t_j` alternate in sign with growing magnitudes
/// (`|t_{j+1}| = |t_{j-1}| + q_j |t_j|`), so they are kept as magnitudes with the sign of
/// `t_j` being that of `(-1)^(j+1)`. Lehmer steps run while the remainders are above 128 bits and
/// are undone when they would pass the bound; single division steps finish.
pub(crate) fn half_extended(m: &BigUint, s: &BigUint, bound: &BigUint) -> (BigUint, BigInt) {
    let bound_l = to_limbs(bound);
    let (mut r0, mut r1) = (to_limbs(m), to_limbs(s));
    let (mut t0, mut t1): (Limbs, Limbs) = (Vec::new(), vec![1]);
    // The index j of (r1, t1) is odd when t1 > 0.
    let mut odd = true;
    let mut lehmer = true;
    while compare(&r1, &bound_l) == Ordering::Greater {
        if lehmer && bits(&r1) > 128 {
            if let Some([a, b, c, d]) = step_for(&r0, &r1) {
                // Applied to copies: undone if the remainder would pass the bound.
                let (mut next0, mut next1) = (r0.clone(), r1.clone());
                apply_in_place(&mut next0, &mut next1, [a, b, c, d]);
                if compare(&next1, &bound_l) == Ordering::Greater {
                    (r0, r1) = (next0, next1);
                    let t = unsigned_combination(c.unsigned_abs(), &t0, d.unsigned_abs(), &t1);
                    t0 = unsigned_combination(a.unsigned_abs(), &t0, b.unsigned_abs(), &t1);
                    t1 = t;
                    // k quotients: determinant (-1)^k.
                    let det = i128::from(a) * i128::from(d) - i128::from(b) * i128::from(c);
                    if det == -1 {
                        odd = !odd;
                    }
                    continue;
                }
                lehmer = false;
            }
        }
        let (q, r) = from_limbs(&r0).div_rem(&from_limbs(&r1));
        r0 = std::mem::replace(&mut r1, to_limbs(&r));
        let t = to_limbs(&(from_limbs(&t0) + q * from_limbs(&t1)));
        t0 = std::mem::replace(&mut t1, t);
        odd = !odd;
    }
    let sign = match (t1.is_empty(), odd) {
        (true, _) => Sign::NoSign,
        (false, true) => Sign::Plus,
        (false, false) => Sign::Minus,
    };
    (from_limbs(&r1), BigInt::from_biguint(sign, from_limbs(&t1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;
    use proptest::prelude::*;

    #[test]
    fn gcd_of_known_products() {
        // gcd(2^200 3^50 7, 2^150 3^80 11) = 2^150 3^50, by the factorisations.
        let two = BigInt::from(2);
        let three = BigInt::from(3);
        let a = two.pow(200) * three.pow(50) * 7;
        let b = two.pow(150) * three.pow(80) * 11;
        assert_eq!(gcd(&a, &b), two.pow(150) * three.pow(50));
        assert_eq!(gcd(&-a.clone(), &b), gcd(&a, &b));
        assert_eq!(gcd(&a, &BigInt::zero()), a);
        assert_eq!(gcd(&BigInt::zero(), &BigInt::zero()), BigInt::zero());
        assert_eq!(lcm(BigInt::from(12), &BigInt::from(18)), BigInt::from(36));
        assert_eq!(lcm(BigInt::from(36), &BigInt::from(6)), BigInt::from(36));
        // Consecutive Fibonacci numbers: coprime, and the longest Euclidean chains.
        let (mut f, mut g) = (BigInt::from(0), BigInt::from(1));
        for _ in 0..500 {
            (f, g) = (g.clone(), f + g);
        }
        assert_eq!(gcd(&f, &g), BigInt::from(1));
    }

    /// The half-extended Euclidean algorithm, one division at a time, on signed cofactors.
    fn half_extended_plainly(m: &BigInt, s: &BigInt, bound: &BigInt) -> (BigInt, BigInt) {
        let (mut r0, mut r1) = (m.clone(), s.clone());
        let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
        while &r1 > bound {
            let (q, r) = r0.div_rem(&r1);
            r0 = std::mem::replace(&mut r1, r);
            let t = &t0 - &q * &t1;
            t0 = std::mem::replace(&mut t1, t);
        }
        (r1, t1)
    }

    fn big(digits: &[u64]) -> BigInt {
        BigInt::from(from_limbs(digits))
    }

    #[test]
    fn dot_of_known_fractions() {
        // 1/6 * 2/3 + 0 * 5/7 + 1/2 * 3/10 = 1/9 + 3/20 = 20/180 + 27/180 = 47/180, and an empty
        // sum is 0 over 1.
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let (p, v) = ([q(1, 6), q(0, 1), q(1, 2)], [q(2, 3), q(5, 7), q(3, 10)]);
        let sum = dot(p.iter().zip(&v));
        assert_eq!(sum, q(47, 180));
        assert_eq!((sum.numer(), sum.denom()), (&47.into(), &180.into()));
        let none = dot(std::iter::empty());
        assert_eq!((none.numer(), none.denom()), (&0.into(), &1.into()));
        // Terms that cancel: reduced to 0 over 1, not 0 over the common denominator.
        let zero = dot([(&q(1, 3), &q(1, 2)), (&q(-1, 2), &q(1, 3))]);
        assert_eq!((zero.numer(), zero.denom()), (&0.into(), &1.into()));
    }

    proptest! {
        #[test]
        fn gcd_agrees_with_the_binary_algorithm(
            x in proptest::collection::vec(any::<u64>(), 0..8),
            y in proptest::collection::vec(any::<u64>(), 0..8),
            z in proptest::collection::vec(any::<u64>(), 0..4),
        ) {
            // A shared factor z makes the gcd nontrivial.
            let (x, y, z) = (big(&x), big(&y), big(&z) + 1u32);
            let a: BigInt = x * &z;
            let b: BigInt = -(y * &z);
            prop_assert_eq!(gcd(&a, &b), a.gcd(&b));
        }

        /// Products of limbs sharing factors, powers of two among them.
        #[test]
        fn gcd_agrees_with_num_integer_on_shared_factors(
            a in proptest::collection::vec(any::<u64>(), 0..4),
            b in proptest::collection::vec(any::<u64>(), 0..4),
            common in proptest::collection::vec(any::<u64>(), 0..3),
            twos in 0u32..130,
        ) {
            let product = |limbs: Vec<u64>| -> BigInt { limbs.into_iter().map(BigInt::from).product() };
            let common = product(common) << twos;
            let (a, b) = (product(a) * &common, product(b) * &common);
            prop_assert_eq!(gcd(&a, &b), a.gcd(&b));
            prop_assert_eq!(gcd(&a, &BigInt::zero()), a.clone());
            prop_assert_eq!(gcd(&a, &a), a.clone());
        }

        /// The sum over common denominators is `BigRational`'s own sum of products, in lowest
        /// terms (compared part by part, not only as values).
        #[test]
        fn dot_agrees_with_rational_arithmetic(
            terms in proptest::collection::vec(
                ((-50i64..50, 1i64..40), (any::<i64>(), 1i64..1_000_000)), 0..12),
            shared in 1i64..1_000_000,
        ) {
            let q = |(n, d): (i64, i64), k: i64| BigRational::new(n.into(), BigInt::from(d) * k);
            let p: Vec<BigRational> = terms.iter().map(|(p, _)| q(*p, 1)).collect();
            let v: Vec<BigRational> = terms.iter().map(|(_, v)| q(*v, shared)).collect();
            let sum = dot(p.iter().zip(&v));
            let plain: BigRational = p.iter().zip(&v).map(|(a, b)| a * b).sum();
            prop_assert_eq!((sum.numer(), sum.denom()), (plain.numer(), plain.denom()));
        }

        /// The sum over common denominators is `BigRational`'s own sum, in lowest terms.
        #[test]
        fn sum_agrees_with_rational_arithmetic(
            terms in proptest::collection::vec((any::<i64>(), 1i64..1_000_000), 0..12),
            shared in 1i64..1_000_000,
        ) {
            let v: Vec<BigRational> = terms
                .iter()
                .map(|(n, d)| BigRational::new((*n).into(), BigInt::from(*d) * shared))
                .collect();
            let plain: BigRational = v.iter().sum();
            let total = sum(v);
            prop_assert_eq!((total.numer(), total.denom()), (plain.numer(), plain.denom()));
        }

        #[test]
        fn the_half_extended_algorithm_agrees_with_single_steps(
            m in proptest::collection::vec(any::<u64>(), 1..12),
            s in proptest::collection::vec(any::<u64>(), 0..12),
            bound_bits in 0u64..700,
        ) {
            let (m, s) = (big(&m) + 1u32, big(&s));
            let s = s % &m;
            let bound = BigInt::one() << bound_bits;
            let (r, t) = half_extended(m.magnitude(), s.magnitude(), bound.magnitude());
            prop_assert_eq!((BigInt::from(r), t), half_extended_plainly(&m, &s, &bound));
        }
    }
}
