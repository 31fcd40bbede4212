//! The exact side of the decay certificates (`spectral.rs`'s bounds on rho, which
//! `pgf/tail.rs`'s decay rate takes for its upper end, and `tail_law.rs`'s geometric bounds):
//! Collatz-Wielandt ratios `(x Q)_j / x_j` for a float vector x, which the floats only choose.
//! x is read as the integers it is ([`dyadic_integers`]), Q as integers over its common
//! denominator D (`spectral::TransientQ`), so each ratio is a fraction of integers; the extreme
//! ratios are found by cross multiplication ([`Extreme`]) with no fraction reduced until the
//! chosen one is.

use num_bigint::BigInt;
use num_rational::BigRational;

use crate::num::limbs::float_parts;

/// The floats of `x` (finite, nonnegative) as integers X and an exponent e with
/// `x_j = X_j 2^e` exactly, e the least exponent of a nonzero float's parts (0 when every one
/// is 0); `None` when a float is negative, infinite or NaN.
pub(crate) fn dyadic_integers(x: &[f64]) -> Option<(Vec<BigInt>, i64)> {
    let parts: Vec<(u64, i16)> = x.iter().map(|&v| float_parts(v)).collect::<Option<_>>()?;
    let e = parts
        .iter()
        .filter(|(m, _)| *m != 0)
        .map(|&(_, k)| i64::from(k))
        .min()
        .unwrap_or(0);
    let ints = parts
        .iter()
        .map(|&(m, k)| match m {
            0 => BigInt::from(0),
            _ => BigInt::from(m) << (i64::from(k) - e) as usize,
        })
        .collect();
    Some((ints, e))
}

/// The largest (or smallest) of nonnegative fractions `n / d` (`d > 0`) offered one by one,
/// compared by cross multiplication and kept unreduced.
#[derive(Debug)]
pub(crate) struct Extreme {
    larger: bool,
    best: Option<(BigInt, BigInt)>,
}

impl Extreme {
    /// The largest of the fractions offered.
    pub(crate) fn largest() -> Extreme {
        Extreme {
            larger: true,
            best: None,
        }
    }

    /// The smallest of the fractions offered.
    pub(crate) fn smallest() -> Extreme {
        Extreme {
            larger: false,
            best: None,
        }
    }

    /// Offers `n / d`: kept when it is strictly beyond the best so far (the first of equal
    /// fractions stays).
    pub(crate) fn offer(&mut self, n: &BigInt, d: &BigInt) {
        let beyond = match &self.best {
            None => true,
            Some((bn, bd)) => match self.larger {
                true => n * bd > bn * d,
                false => n * bd < bn * d,
            },
        };
        if beyond {
            self.best = Some((n.clone(), d.clone()));
        }
    }

    /// The extreme fraction in lowest terms, its denominator multiplied by `scale` (the
    /// common factor of every denominator offered, left out of the comparisons); `None` when
    /// none was offered.
    pub(crate) fn over(self, scale: &BigInt) -> Option<BigRational> {
        self.best.map(|(n, d)| BigRational::new(n, d * scale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `X_j 2^e` as a fraction.
    fn value(x: &BigInt, e: i64) -> BigRational {
        match e < 0 {
            true => BigRational::new(x.clone(), BigInt::from(1) << (-e) as usize),
            false => BigRational::from_integer(x << e as usize),
        }
    }

    #[test]
    fn floats_are_read_as_the_integers_they_are() {
        // By hand: 0.75 = (3 2^51) 2^-53 and 2 = 2^52 2^-51 (a float's 53-bit mantissa and its
        // exponent); the least exponent is -53, so X = (3 2^51, 2^54, 0).
        let (x, e) = dyadic_integers(&[0.75, 2.0, 0.0]).unwrap();
        let pow = |k: usize| BigInt::from(1) << k;
        assert_eq!(x, [BigInt::from(3) * pow(51), pow(54), BigInt::from(0)]);
        assert_eq!(e, -53);
        assert_eq!(dyadic_integers(&[0.0]).unwrap().1, 0);
        assert!(dyadic_integers(&[1.0, -1.0]).is_none());
        assert!(dyadic_integers(&[f64::NAN]).is_none());
        // Each X_j 2^e is the float itself (second method: num-rational's exact conversion),
        // from the smallest subnormal to the largest float.
        let floats = [f64::from_bits(1), 1e-300, 0.1, 1.0, 3.5, 1e300, f64::MAX];
        let (x, e) = dyadic_integers(&floats).unwrap();
        for (x, f) in x.iter().zip(floats) {
            assert_eq!(value(x, e), BigRational::from_float(f).unwrap(), "{f}");
        }
    }

    #[test]
    fn the_extremes_are_the_largest_and_smallest_fractions() {
        // 1/3, 2/6 (equal), 3/4, 1/5 over a scale 2: largest 3/8, smallest 1/10.
        let offers = [(1, 3), (2, 6), (3, 4), (1, 5)];
        let (mut hi, mut lo) = (Extreme::largest(), Extreme::smallest());
        for (n, d) in offers {
            let (n, d) = (BigInt::from(n), BigInt::from(d));
            hi.offer(&n, &d);
            lo.offer(&n, &d);
        }
        let two = BigInt::from(2);
        let frac = |n: i32, d: i32| BigRational::new(n.into(), d.into());
        assert_eq!(hi.over(&two), Some(frac(3, 8)));
        assert_eq!(lo.over(&two), Some(frac(1, 10)));
        assert_eq!(Extreme::largest().over(&two), None);
    }
}
