//! Decimal text from exact rationals, correctly rounded (to nearest, ties to even), and the
//! square root of a rational to a given number of decimals, also correctly rounded.

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// `r` with `digits` digits after the decimal point, rounded to nearest (ties to even).
///
/// # Examples
///
/// ```
/// use ladders::report::fixed;
/// use num_rational::BigRational;
/// let third = BigRational::new(1.into(), 3.into());
/// assert_eq!(fixed(&third, 4), "0.3333");
/// assert_eq!(fixed(&BigRational::new(2.into(), 3.into()), 2), "0.67");
/// assert_eq!(fixed(&BigRational::new((-5).into(), 2.into()), 0), "-2");
/// ```
pub fn fixed(r: &BigRational, digits: usize) -> String {
    let scaled = round_scaled(r, digits);
    format_scaled(&scaled, digits)
}

/// A probability `p` in \[0, 1\] as decimal text that never hides how far it is from 0 or 1: as
/// [`fixed`] unless that would print a nonzero `p` as zero or a `p` below 1 as one; then
/// [`scientific`] (`3.308e-9`), or `1 - ` and the scientific distance from 1 (`1 - 2.4e-5`).
/// Exactly 0 and 1 print as [`fixed`] does.
///
/// # Examples
///
/// ```
/// use ladders::report::probability;
/// use num_rational::BigRational;
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// assert_eq!(probability(&q(1, 4), 2), "0.25");
/// assert_eq!(probability(&q(1, 302_330_880), 6), "3.308e-9");
/// assert_eq!(probability(&q(999, 1000), 2), "1 - 1.000e-3");
/// assert_eq!(probability(&q(1, 1), 2), "1.00");
/// ```
pub fn probability(p: &BigRational, digits: usize) -> String {
    let scaled = round_scaled(p, digits);
    match unlike_fixed(p, &scaled, digits) {
        Some(text) => text,
        None => format_scaled(&scaled, digits),
    }
}

/// `p` as [`fixed`] writes it, at the end of `text`, then, when [`probability`] writes it
/// otherwise, that text too: a report's CSV cell and table cell from one rounding. Returns where
/// the first ends (the end of `text` when the two are the same).
pub(crate) fn push_probability_cells(text: &mut Vec<u8>, p: &BigRational, digits: usize) -> usize {
    let scaled = round_scaled(p, digits);
    match scaled.to_u128() {
        Some(small) => push_fixed_scaled_u128(text, small, digits),
        None => text.extend_from_slice(format_scaled(&scaled, digits).as_bytes()),
    }
    let plain = text.len();
    if let Some(other) = unlike_fixed(p, &scaled, digits) {
        text.extend_from_slice(other.as_bytes());
    }
    plain
}

/// What [`probability`] writes for `p` when it is not the plain decimal (`scaled`, `p` rounded
/// to `digits` decimals, times 10^digits): a nonzero `p` that rounds to 0, or one below 1 that
/// rounds to 1.
fn unlike_fixed(p: &BigRational, scaled: &BigInt, digits: usize) -> Option<String> {
    let one = || BigRational::from_integer(1.into());
    if scaled.is_zero() && !p.is_zero() {
        Some(scientific(p, 4))
    } else if *scaled == times_pow10(&BigInt::from(1), digits) && *p < one() {
        Some(format!("1 - {}", scientific(&(one() - p), 4)))
    } else {
        None
    }
}

/// A positive `r` in scientific notation with `significant` significant digits (at least 1),
/// correctly rounded from the exact value: `3.308e-9`.
///
/// # Examples
///
/// ```
/// use ladders::internals::scientific;
/// use num_rational::BigRational;
/// assert_eq!(scientific(&BigRational::new(1.into(), 3.into()), 3), "3.33e-1");
/// assert_eq!(scientific(&BigRational::new(9999.into(), 1.into()), 2), "1.0e4");
/// ```
pub fn scientific(r: &BigRational, significant: usize) -> String {
    let significant = significant.max(1);
    let mut e = decade(r);
    // The mantissa's digits: round(r / 10^(e - significant + 1)), which may round up to
    // 10^significant (then one more in the exponent). In integers: no fraction is reduced.
    let shift = significant as i64 - 1 - e;
    let (numer, denom) = (r.numer().abs(), r.denom().abs());
    let mut m = match shift >= 0 {
        true => round_quotient(&times_pow10(&numer, shift as usize), &denom),
        false => round_quotient(&numer, &times_pow10(&denom, shift.unsigned_abs() as usize)),
    };
    if m == times_pow10(&BigInt::from(1), significant) {
        m = times_pow10(&BigInt::from(1), significant - 1);
        e += 1;
    }
    format!("{}e{e}", format_scaled(&m, significant - 1))
}

/// `v / 2^k` (`v > 0`) as [`scientific`] writes it, in integers without a division (see
/// [`scientific_parts`]; the tests' entry).
#[cfg(test)]
pub(crate) fn scientific_dyadic(v: &BigInt, k: u64, significant: usize) -> String {
    match scientific_parts(v, k, significant) {
        Some((m, e)) => format_scientific(&m, e, significant),
        None => scientific(
            &BigRational::new_raw(v.clone(), BigInt::one() << k as usize),
            significant,
        ),
    }
}

/// The digits m and exponent e of `v / 2^k` (`v > 0`) in [`scientific`] notation,
/// `m 10^(e - significant + 1)`, for a number below `10^significant` (`None` above): with
/// `p = significant - 1 - e`, m is `round(v 5^p / 2^(k - p))`, a product and a shift, and e
/// is right when that quotient's integer part has `significant` digits. For the certified
/// bounds of a probability (`exact::certified`), whose denominators are powers of 2.
pub(crate) fn scientific_parts(v: &BigInt, k: u64, significant: usize) -> Option<(BigInt, i64)> {
    let significant = significant.max(1);
    let low = times_pow10(&BigInt::one(), significant - 1);
    let high = times_pow10(&BigInt::one(), significant);
    // A guess from the bit length (as `decade`'s), then exact steps.
    let bits = v.bits() as f64 - k as f64;
    let mut e = (bits * std::f64::consts::LOG10_2).floor() as i64;
    loop {
        let p = u32::try_from(significant as i64 - 1 - e).ok()?;
        let n = match 5u64.checked_pow(p) {
            Some(five) => v * five,
            None => v * BigInt::from(5u32).pow(p),
        };
        let s = k as i64 - i64::from(p);
        let (t, half, sticky) = match s <= 0 {
            true => (n << s.unsigned_abs() as usize, false, false),
            false => {
                let s = s as u64;
                let below = n.trailing_zeros().unwrap_or(0);
                (&n >> s as usize, n.bit(s - 1), below < s - 1)
            }
        };
        if t < low {
            e -= 1;
            continue;
        }
        if t >= high {
            e += 1;
            continue;
        }
        // To nearest, ties to even (as `round_quotient`).
        let m = match half && (sticky || t.is_odd()) {
            true => t + 1u32,
            false => t,
        };
        return Some(match m == high {
            true => (low, e + 1),
            false => (m, e),
        });
    }
}

/// The scientific text of the digits m and exponent e ([`scientific_parts`]): `3.308e-9`.
pub(crate) fn format_scientific(m: &BigInt, e: i64, significant: usize) -> String {
    let digits = significant.max(1) - 1;
    let mut text = match m.to_u128() {
        Some(small) => fixed_scaled_u128(small, digits),
        None => format_scaled(m, digits),
    };
    text.push('e');
    text.push_str(&e.to_string());
    text
}

/// `m / 10^k` in lowest terms, reduced by `m`'s factors 2 and 5 alone (the fraction
/// `BigRational::new` gives, without a general gcd).
pub(crate) fn over_power_of_ten(m: BigInt, k: usize) -> BigRational {
    if m.is_zero() {
        return BigRational::zero();
    }
    let twos = m.trailing_zeros().map_or(0, |z| z.min(k as u64)) as usize;
    let mut m = m >> twos;
    let five = BigInt::from(5u32);
    let mut fives = 0;
    while fives < k {
        let (q, r) = m.div_rem(&five);
        if !r.is_zero() {
            break;
        }
        (m, fives) = (q, fives + 1);
    }
    let d = BigInt::from(5u32).pow((k - fives) as u32) << (k - twos);
    BigRational::new_raw(m, d)
}

/// `10^e` exactly.
#[cfg(test)]
pub(crate) fn pow10(e: i64) -> BigRational {
    let p = BigRational::from_integer(BigInt::from(10u32).pow(e.unsigned_abs() as u32));
    if e >= 0 {
        p
    } else {
        p.recip()
    }
}

/// The exponent e with `10^e <= r < 10^(e+1)`, for `r > 0`: a guess from the bit lengths,
/// then exact steps compared in integers (`10^e <= n / d` is `10^e d <= n`, or `d <= n 10^-e`).
pub(crate) fn decade(r: &BigRational) -> i64 {
    let (n, d) = (r.numer().abs(), r.denom().abs());
    let at_most = |e: i64| match e >= 0 {
        true => times_pow10(&d, e as usize) <= n,
        false => d <= times_pow10(&n, e.unsigned_abs() as usize),
    };
    let bits = n.bits() as f64 - d.bits() as f64;
    let mut e = (bits * std::f64::consts::LOG10_2).floor() as i64;
    while !at_most(e) {
        e -= 1;
    }
    while at_most(e + 1) {
        e += 1;
    }
    e
}

/// `r` rounded to `digits` digits after the point, to nearest with ties to even (the number
/// [`fixed`] prints), as a fraction (the tests' view of [`round_scaled`]).
#[cfg(test)]
pub fn rounded(r: &BigRational, digits: usize) -> BigRational {
    BigRational::new(
        round_scaled(r, digits),
        times_pow10(&BigInt::from(1u32), digits),
    )
}

/// round(r * 10^digits) to nearest, ties to even: the numerator of [`rounded`] over
/// 10^digits.
pub(crate) fn round_scaled(r: &BigRational, digits: usize) -> BigInt {
    round_quotient(&times_pow10(r.numer(), digits), r.denom())
}

/// `num / den` (`den > 0`) rounded to the nearest integer, ties to even.
fn round_quotient(num: &BigInt, den: &BigInt) -> BigInt {
    let (q, rem) = num.div_mod_floor(den);
    // rem in [0, den): compare 2 rem with den.
    match (rem << 1u32).cmp(den) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1u32,
        std::cmp::Ordering::Equal => {
            if q.is_even() {
                q
            } else {
                q + 1u32
            }
        }
    }
}

/// `x * 10^digits`, by a single-limb multiplication when 10^digits fits in a `u64` (the
/// usual case: this runs for every number a report prints).
fn times_pow10(x: &BigInt, digits: usize) -> BigInt {
    match u32::try_from(digits)
        .ok()
        .and_then(|d| 10u64.checked_pow(d))
    {
        Some(scale) => x * scale,
        None => x * BigInt::from(10u32).pow(digits as u32),
    }
}

/// Writes the integer `scaled` / 10^digits with a decimal point (as [`fixed`] writes the
/// number).
pub(crate) fn format_scaled(scaled: &BigInt, digits: usize) -> String {
    format_magnitude(
        scaled.sign() == Sign::Minus,
        &scaled.magnitude().to_string(),
        digits,
    )
}

/// The nonnegative integer `scaled` / 10^digits with a decimal point, as [`fixed`] writes it
/// (for numbers rounded without a fraction, e.g. from certified bounds).
pub fn fixed_scaled_u128(scaled: u128, digits: usize) -> String {
    let mut text = Vec::new();
    push_fixed_scaled_u128(&mut text, scaled, digits);
    String::from_utf8(text).expect("ASCII")
}

// The writers below put ASCII text at the end of a byte buffer, without the formatter: the
// cells of a report (`analysis::shown`) and its rows (`report::distribution`), where a `String`
// would check each piece for UTF-8 and the formatter costs more than the digits.

/// [`fixed_scaled_u128`] written at the end of `text`.
pub(crate) fn push_fixed_scaled_u128(text: &mut Vec<u8>, scaled: u128, digits: usize) {
    if let (Ok(small), true) = (u64::try_from(scaled), digits <= FIXED_U64_DIGITS) {
        return push_fixed_scaled_u64(text, small, digits);
    }
    // The digits into a buffer on the stack (a u128 has at most 39), then into `text`: what
    // `format_magnitude(false, &scaled.to_string(), digits)` writes.
    let mut buffer = [0u8; 39];
    let start = decimal_digits(scaled, &mut buffer);
    let magnitude = &buffer[start..];
    text.reserve(magnitude.len().max(digits + 1) + 1);
    match magnitude.len().checked_sub(digits) {
        _ if digits == 0 => text.extend_from_slice(magnitude),
        Some(point) if point > 0 => {
            text.extend_from_slice(&magnitude[..point]);
            text.push(b'.');
            text.extend_from_slice(&magnitude[point..]);
        }
        _ => {
            text.extend_from_slice(b"0.");
            let zeros = digits - magnitude.len();
            match ZEROS.get(..zeros) {
                Some(run) => text.extend_from_slice(run.as_bytes()),
                None => text.resize(text.len() + zeros, b'0'),
            }
            text.extend_from_slice(magnitude);
        }
    }
}

/// The most digits after the point [`push_fixed_scaled_u64`] writes.
const FIXED_U64_DIGITS: usize = 40;

/// [`push_fixed_scaled_u128`] of a machine word, with at most [`FIXED_U64_DIGITS`] digits
/// after the point (every cell of the certified decimals, which have 19 at most): the text
/// into one buffer on the stack, then into `text` at once.
fn push_fixed_scaled_u64(text: &mut Vec<u8>, x: u64, digits: usize) {
    // The integer part (at least "0"), the point, then the fraction padded with zeros on the
    // left: 20 digits of a u64, or 1 + FIXED_U64_DIGITS with the zeros, and the point.
    let mut buffer = [b'0'; FIXED_U64_DIGITS + 2];
    let end = buffer.len();
    let mut start = end - digits_u64(x, &mut buffer).max(digits + 1);
    if digits > 0 {
        // The digits from `start` on, one place to the left, with the point before the last
        // `digits`.
        let point = end - digits;
        buffer.copy_within(start..point, start - 1);
        buffer[point - 1] = b'.';
        start -= 1;
    }
    text.extend_from_slice(&buffer[start..]);
}

/// Writes the decimal digits of `x` at the end of `buffer` (two at a time, from a table);
/// returns how many.
#[inline]
fn digits_u64(mut x: u64, buffer: &mut [u8]) -> usize {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839404142434445464748495051525354555657585960\
        6162636465666768697071727374757677787980818283848586878889909192939495969798\
        99";
    let end = buffer.len();
    let mut at = end;
    while x >= 100 {
        let pair = (x % 100) as usize * 2;
        x /= 100;
        at -= 2;
        buffer[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if x >= 10 {
        let pair = x as usize * 2;
        at -= 2;
        buffer[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buffer[at] = b'0' + x as u8;
    }
    end - at
}

/// `10^digits`, when it fits a `u64` (from a table: `checked_pow` multiplies it out each
/// time, several times a cell).
pub(crate) fn pow10_u64(digits: usize) -> Option<u64> {
    const POWERS: [u64; 20] = powers_of(10);
    POWERS.get(digits).copied()
}

/// `[1, base, base^2, ..., base^(N - 1)]`, for tables made at compile time (the caller's N keeps
/// every power below 2^64).
pub(crate) const fn powers_of<const N: usize>(base: u64) -> [u64; N] {
    let mut powers = [1u64; N];
    let mut i = 1;
    while i < N {
        powers[i] = powers[i - 1] * base;
        i += 1;
    }
    powers
}

/// The nonnegative integer `x` at the end of `text`, right-aligned in `width` columns (as
/// `format!("{x:>width$}")` writes it): the spaces and the digits from one buffer on the
/// stack when the width is a short one.
pub(crate) fn push_integer(text: &mut Vec<u8>, x: u64, width: usize) {
    let mut buffer = [b' '; 24];
    let count = digits_u64(x, &mut buffer);
    push_spaces(text, width.saturating_sub(buffer.len()));
    let start = buffer.len() - count.max(width.min(buffer.len()));
    text.extend_from_slice(&buffer[start..]);
}

/// Writes the digits of `x` at the end of `field` (its other bytes left as they were, a
/// right-aligned number in a line of spaces); false, and nothing written, when they do not fit.
pub(crate) fn put_integer(field: &mut [u8], x: u64) -> bool {
    let fits = pow10_u64(field.len()).is_none_or(|limit| x < limit);
    if fits {
        digits_u64(x, field);
    }
    fits
}

/// `count` spaces at the end of `text` (a table's padding).
pub(crate) fn push_spaces(text: &mut Vec<u8>, count: usize) {
    const SPACES: &[u8; 32] = b"                                ";
    match SPACES.get(..count) {
        Some(run) => text.extend_from_slice(run),
        None => text.resize(text.len() + count, b' '),
    }
}

/// Zeros to copy after a decimal point (`--digits` above its length writes them one by one).
const ZEROS: &str = "0000000000000000000000000000000000000000";

/// Writes the decimal digits of `x` at the end of `buffer`; returns where they start.
fn decimal_digits(x: u128, buffer: &mut [u8; 39]) -> usize {
    let mut start = buffer.len();
    // Machine words of 19 digits (a u128 division is a library call: two at most).
    let mut word = |mut w: u64, pad: bool| {
        for written in 1.. {
            start -= 1;
            buffer[start] = b'0' + (w % 10) as u8;
            w /= 10;
            if w == 0 && (!pad || written == 19) {
                break;
            }
        }
    };
    const WORD: u128 = 10u128.pow(19);
    match u64::try_from(x) {
        Ok(small) => word(small, false),
        Err(_) => {
            let high = x / WORD;
            word((x % WORD) as u64, true);
            match u64::try_from(high) {
                Ok(h) => word(h, false),
                Err(_) => {
                    word((high % WORD) as u64, true);
                    word((high / WORD) as u64, false);
                }
            }
        }
    }
    start
}

/// Writes a decimal magnitude (digits only) divided by 10^digits, with its sign.
fn format_magnitude(negative: bool, magnitude: &str, digits: usize) -> String {
    let mut text = String::with_capacity(magnitude.len().max(digits + 1) + 2);
    if negative {
        text.push('-');
    }
    if digits == 0 {
        text.push_str(magnitude);
        return text;
    }
    match magnitude.len().checked_sub(digits) {
        Some(point) if point > 0 => {
            text.push_str(&magnitude[..point]);
            text.push('.');
            text.push_str(&magnitude[point..]);
        }
        _ => {
            text.push_str("0.");
            text.extend(std::iter::repeat_n('0', digits - magnitude.len()));
            text.push_str(magnitude);
        }
    }
    text
}

/// The square root of `r` (which must be non-negative) with `digits` digits after the point,
/// rounded to nearest.
///
/// # Examples
///
/// ```
/// use ladders::report::sqrt_fixed;
/// use num_rational::BigRational;
/// assert_eq!(sqrt_fixed(&BigRational::from_integer(2.into()), 5), "1.41421");
/// assert_eq!(sqrt_fixed(&BigRational::from_integer(4.into()), 3), "2.000");
/// ```
pub fn sqrt_fixed(r: &BigRational, digits: usize) -> String {
    assert!(!r.is_negative(), "square root of a negative number");
    // x = r * 10^(2 digits); s = floor(sqrt(floor(x))) = floor(sqrt(x)).
    let scale = BigInt::from(10u32).pow(2 * digits as u32);
    let num = r.numer() * &scale;
    let den = r.denom();
    let s = (&num / den).sqrt();
    // Round: s + 1/2 <= sqrt(x)  <=>  (2s + 1)^2 den <= 4 num (equality cannot hold for an
    // irrational root, and for a rational root ties go up, which never changes a printed digit
    // of an exact root because an exact root at that scale is an integer).
    let two_s_plus_one = &s * 2u32 + 1u32;
    let rounded = if &two_s_plus_one * &two_s_plus_one * den <= num * 4u32 {
        s + 1u32
    } else {
        s
    };
    format_scaled(&rounded, digits)
}

/// `r` as the nearest `f64` (for display, plotting and float cross-checks only).
pub fn to_f64(r: &BigRational) -> f64 {
    if r.is_zero() {
        return 0.0;
    }
    r.to_f64().unwrap_or_else(|| {
        // Out of f64 range: infinite with the right sign.
        if r.is_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    })
}

#[cfg(test)]
mod tests;
