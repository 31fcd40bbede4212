//! Arithmetic on words and little-endian `u64` limb slices for the exact routes: the inverse
//! modulo 2^64 (for Montgomery reduction, exact division and p-adic lifting), exact division and
//! remainders by odd words, shifts, and conversion to `BigInt`; a float's parts. Used by the
//! exact stepping and the solver (`exact::step`, `exact::solve`) and the decay certificates.

use num_bigint::{BigInt, BigUint, Sign};

/// `dst += src * c`, where `dst` has room for the carry.
#[inline]
pub(crate) fn mac(dst: &mut [u64], src: &[u64], c: u64) {
    let mut carry = 0u64;
    let (low, high) = dst.split_at_mut(src.len());
    for (d, &s) in low.iter_mut().zip(src) {
        let t = u128::from(s) * u128::from(c) + u128::from(*d) + u128::from(carry);
        *d = t as u64;
        carry = (t >> 64) as u64;
    }
    for d in high {
        if carry == 0 {
            break;
        }
        let (v, o) = d.overflowing_add(carry);
        *d = v;
        carry = u64::from(o);
    }
}

/// The inverse of odd `d` modulo 2^64 (Newton's iteration: each step doubles the correct bits,
/// from the 3 that `d * d = 1 mod 8` gives). The one copy: Montgomery arithmetic and p-adic
/// lifting use it too.
pub(crate) fn inverse_mod_word(d: u64) -> u64 {
    debug_assert!(d % 2 == 1);
    let mut inv = d;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(d.wrapping_mul(inv)));
    }
    inv
}

/// A value r in `0..=d` with `r = 0 or d` exactly when odd `d` divides `x`; more precisely
/// r = -x 2^(-64 len) (mod d), so for any odd f with f^j dividing d, f^j divides x iff it divides
/// r. Multiplications only, no division (Granlund and Montgomery's exact remainder, GMP's
/// `mpn_modexact_1_odd`).
#[inline]
pub(crate) fn modexact_odd(x: &[u64], d: u64, inv: u64) -> u64 {
    let mut c = 0u64;
    for &l in x {
        let (s, b) = l.overflowing_sub(c);
        let q = s.wrapping_mul(inv);
        c = ((u128::from(q) * u128::from(d)) >> 64) as u64 + u64::from(b);
    }
    c
}

/// `x /= d` in place for odd `d` that divides `x` exactly (Jebelean's exact division: one
/// multiplication by the inverse per limb, GMP's `mpn_divexact_1`).
#[inline]
pub(crate) fn divexact_odd(x: &mut [u64], d: u64, inv: u64) {
    let mut c = 0u64;
    for l in x.iter_mut() {
        let (s, b) = l.overflowing_sub(c);
        let q = s.wrapping_mul(inv);
        *l = q;
        c = ((u128::from(q) * u128::from(d)) >> 64) as u64 + u64::from(b);
    }
    debug_assert_eq!(c, 0, "not an exact division");
}

/// `x >>= bits` in place (bits < 64 * len).
pub(crate) fn shift_right(x: &mut [u64], bits: u32) {
    let words = (bits / 64) as usize;
    let b = bits % 64;
    let n = x.len();
    for i in 0..n {
        let lo = x.get(i + words).copied().unwrap_or(0);
        let hi = x.get(i + words + 1).copied().unwrap_or(0);
        x[i] = if b == 0 {
            lo
        } else {
            (lo >> b) | (hi << (64 - b))
        };
    }
}

/// The number of times odd `f` divides `r`, at most `cap` (`r = 0` counts as `cap`).
pub(crate) fn valuation_word(mut r: u64, f: u64, cap: u32) -> u32 {
    if r == 0 {
        return cap;
    }
    let mut k = 0;
    while k < cap && r % f == 0 {
        r /= f;
        k += 1;
    }
    k
}

/// The number of limbs up to the highest nonzero one.
pub(crate) fn significant(x: &[u64]) -> usize {
    x.iter().rposition(|&l| l != 0).map_or(0, |p| p + 1)
}

/// The nonnegative integer with these little-endian limbs.
pub(crate) fn to_big(x: &[u64]) -> BigInt {
    let digits: Vec<u32> = x
        .iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect();
    BigInt::from_biguint(Sign::Plus, BigUint::new(digits))
}

/// `x as f64` (round to nearest, ties to even), without the compiler's generic 128-bit
/// routine. Below 2^63 it is the machine's signed conversion. Above, the 63 bits of `x` from
/// its top bit down hold the 53 bits kept and the rounding bit; the bits below those decide
/// only whether the discarded part is 0, so one set bit at the bottom of the word standing for
/// any of them (a sticky bit) makes rounding the word round `x` the same way, and the power of
/// two that scales it back is exact.
#[inline]
pub(crate) fn u128_to_f64(x: u128) -> f64 {
    let zeros = x.leading_zeros();
    if zeros >= 65 {
        return x as i64 as f64;
    }
    let y = x << zeros;
    let word = (y >> 65) as u64 | u64::from(y & ((1 << 65) - 1) != 0);
    // 2^(65 - zeros), a normal float (the exponent is 1 to 65).
    let scale = f64::from_bits(u64::from(1023 + 65 - zeros) << 52);
    word as i64 as f64 * scale
}

/// A nonnegative finite float as `(m, e)` with `x = m 2^e` exactly ((0, 0) for 0); `None`
/// for a negative, infinite or NaN one.
pub(crate) fn float_parts(x: f64) -> Option<(u64, i16)> {
    let (mantissa, exponent, sign) = num_traits::Float::integer_decode(x);
    match x == 0.0 {
        true => Some((0, 0)),
        false => (x.is_finite() && sign > 0).then_some((mantissa, exponent)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u128_to_f64_rounds_as_the_language_does() {
        // Second method: `as f64`, which rounds to nearest, ties to even. Every power of two,
        // its neighbours, exact ties and the words just above and below them (53 kept bits
        // and a rounding bit at every position), and a seeded stream of words of every length.
        let mut xs = vec![0u128, 1, u128::MAX, u128::MAX - 1];
        for k in 0..128 {
            let p = 1u128 << k;
            xs.extend([p, p - 1, p.wrapping_add(1), p | (p >> 1)]);
        }
        for k in 0..=75 {
            for m in [(1u128 << 53) + 1, (1 << 53) - 1, 1 << 53, (1 << 54) - 1] {
                let tie = ((m << 1) | 1) << k;
                xs.extend([tie, tie - 1, tie + 1]);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for _ in 0..100_000 {
            let x = u128::from(next()) << 64 | u128::from(next());
            xs.push(x >> (next() % 128));
        }
        for x in xs {
            assert_eq!(u128_to_f64(x).to_bits(), (x as f64).to_bits(), "{x}");
        }
    }

    #[test]
    fn the_word_inverse_inverts_every_odd_word_tried() {
        for d in [
            1u64,
            3,
            5,
            0xffff_ffff_ffff_ffff,
            0x1234_5678_9abc_def1,
            (1 << 61) - 1,
        ] {
            assert_eq!(d.wrapping_mul(inverse_mod_word(d)), 1, "{d}");
        }
    }
}
