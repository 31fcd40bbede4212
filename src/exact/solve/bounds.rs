//! Hadamard bounds: how many bits the numerators and the common denominator of an exact solution
//! can take, from the row and column norms of the integer system, so that the multi-modular route
//! knows how many primes are enough.

use super::*;

/// An integer entry as the bounds see it: machine words and big integers alike.
pub(super) trait Magnitude {
    /// `x^2`, when it fits 128 bits.
    fn square(&self) -> Option<u128>;
    /// An upper bound on log2 |x| (minus infinity for 0).
    fn log2_upper(&self) -> f64;
}

impl Magnitude for Int {
    fn square(&self) -> Option<u128> {
        match self {
            Int::Small(x) => x.square(),
            Int::Big(_) => None,
        }
    }

    fn log2_upper(&self) -> f64 {
        match self {
            Int::Small(x) => x.log2_upper(),
            Int::Big(v) => v.bits() as f64,
        }
    }
}

impl Magnitude for i64 {
    fn square(&self) -> Option<u128> {
        Some(u128::from(self.unsigned_abs()).pow(2))
    }

    fn log2_upper(&self) -> f64 {
        let a = self.unsigned_abs();
        if a == 0 {
            f64::NEG_INFINITY
        } else if a < (1 << 52) {
            (a as f64).log2()
        } else {
            f64::from(64 - a.leading_zeros())
        }
    }
}

/// The exact sum of squares of a row, when it fits 128 bits.
pub(super) fn sum_of_squares<'a, T: Magnitude + 'a>(
    entries: impl Iterator<Item = &'a T>,
) -> Option<u128> {
    entries
        .map(T::square)
        .try_fold(0u128, |acc, sq| acc.checked_add(sq?))
}

/// log2 of `sqrt(sq)` for an exact sum of squares (the conversion to f64 rounds to nearest:
/// relative error 2^-53, far inside the margins of the bounds).
pub(super) fn log2_sqrt(sq: u128) -> f64 {
    if sq == 0 {
        f64::NEG_INFINITY
    } else {
        0.5 * (sq as f64).log2()
    }
}

/// Upper bound of log2 of the Euclidean norm of a row of integers.
pub(super) fn log2_norm<'a, T: Magnitude + 'a>(
    entries: impl Iterator<Item = &'a T> + Clone,
) -> f64 {
    // Machine-word entries (the usual case): the exact sum of squares in 128 bits.
    if let Some(sq) = sum_of_squares(entries.clone()) {
        return log2_sqrt(sq);
    }
    let logs: Vec<f64> = entries
        .map(T::log2_upper)
        .filter(|l| l.is_finite())
        .collect();
    let Some(top) = logs.iter().copied().reduce(f64::max) else {
        return f64::NEG_INFINITY;
    };
    let sum: f64 = logs.iter().map(|l| (2.0 * (l - top)).exp2()).sum();
    top + 0.5 * sum.log2()
}

/// log2 of `sqrt(2^(2 l) + 2^(2 m))`, for norms given by their logs.
pub(super) fn log2_hypot(l: f64, m: f64) -> f64 {
    if !m.is_finite() {
        return l;
    }
    if !l.is_finite() {
        return m;
    }
    let top = l.max(m);
    top + 0.5 * ((2.0 * (l - top)).exp2() + (2.0 * (m - top)).exp2()).log2()
}

/// For each solution (the chained one last), log2 bounds `(den, num)` on the denominator and
/// the numerator of its exact components: with `A` the row-scaled integer matrix,
/// `|det A| <= prod_i ||a_i||` (Hadamard) and, by Cramer's rule, every `det(A) x_j` is the
/// determinant of A with column j replaced by b, so
/// `|det(A) x_j| <= prod_i sqrt(||a_i||^2 + b_i^2)`. A chained solve is bounded the same way on
/// the block matrix `[[A, 0], [-C, A]]` (determinant `det(A)^2`).
///
/// `row(i)` gives the entries of row i of A, `rhs` the right-hand sides, and `chained` (the
/// entries of row i of A and C together, the right-hand side that feeds C).
pub(super) fn log2_bounds<'a, T, I, J>(
    n: usize,
    row: impl Fn(usize) -> I,
    rhs: &'a [Vec<T>],
    chained: Option<(impl Fn(usize) -> J, usize)>,
) -> Vec<(f64, f64)>
where
    T: Magnitude + 'a,
    I: Iterator<Item = &'a T> + Clone,
    J: Iterator<Item = &'a T> + Clone,
{
    let squares: Vec<Option<u128>> = (0..n).map(|i| sum_of_squares(row(i))).collect();
    let row_logs: Vec<f64> = (0..n)
        .map(|i| squares[i].map_or_else(|| log2_norm(row(i)), log2_sqrt))
        .collect();
    let with_rhs = |b: &[T]| -> f64 {
        (0..n)
            .map(|i| match squares[i].zip(b[i].square()) {
                Some((a, b)) if a.checked_add(b).is_some() => log2_sqrt(a + b),
                _ => log2_hypot(row_logs[i], b[i].log2_upper()),
            })
            .sum()
    };
    let det: f64 = row_logs.iter().sum();
    let mut bounds: Vec<(f64, f64)> = rhs.iter().map(|b| (det, with_rhs(b))).collect();
    if let Some((both, k)) = chained {
        let second: f64 = (0..n).map(|i| log2_norm(both(i))).sum();
        bounds.push(((2.0 * det).min(det + second), with_rhs(&rhs[k]) + second));
    }
    bounds
}

/// [`log2_bounds`] by Hadamard's inequality on columns instead of rows, for machine-word entries
/// (`None` when a sum of squares overflows 128 bits or a column of A is zero).
///
/// With `a^j` the columns of A: `|det A| <= prod_j ||a^j||`, and with column j replaced by b,
/// `|det(A) x_j| <= ||b|| prod_{k != j} ||a^k|| <= ||b|| prod_k ||a^k||` (a nonzero integer
/// column has norm at least 1). The block matrix `[[A, 0], [-C, A]]` has the columns
/// `[a^j; -c^j]` and `[0; a^j]`, so its determinant `det(A)^2` is at most
/// `prod_j ||[a^j; c^j]|| prod_j ||a^j||`, and the chained solution's numerators at most `||b||`
/// times that. On the roll-level systems the columns often give the smaller numerator bound:
/// a row's bound grows with every entry of b, a column's only with `||b||` once.
pub(super) fn log2_column_bounds(
    a: &csr::Csr,
    rhs: &[Vec<i64>],
    chained: Option<(&csr::Csr, usize)>,
) -> Option<Vec<(f64, f64)>> {
    let n = a.len();
    let column_squares = |m: &csr::Csr| -> Option<Vec<u128>> {
        let mut sq = vec![0u128; n];
        for i in 0..n {
            let (cols, vals) = m.row(i);
            for (&j, v) in cols.iter().zip(vals) {
                let s = &mut sq[j as usize];
                *s = s.checked_add(v.square()?)?;
            }
        }
        Some(sq)
    };
    let sq_a = column_squares(a)?;
    if sq_a.contains(&0) {
        return None;
    }
    let det: f64 = sq_a.iter().map(|&s| log2_sqrt(s)).sum();
    let norm = |b: &[i64]| sum_of_squares(b.iter()).map(log2_sqrt);
    let mut bounds = Vec::with_capacity(rhs.len() + 1);
    for b in rhs {
        bounds.push((det, det + norm(b)?));
    }
    if let Some((c, k)) = chained {
        let sq_c = column_squares(c)?;
        let second = sq_a
            .iter()
            .zip(&sq_c)
            .map(|(x, y)| x.checked_add(*y).map(log2_sqrt))
            .sum::<Option<f64>>()?;
        bounds.push(((2.0 * det).min(det + second), norm(&rhs[k])? + second + det));
    }
    Some(bounds)
}

/// `bits`, a sum of `terms` bounds each computed in floating point over `rows` rows, raised by
/// the one margin every use of the Hadamard bounds takes for float rounding (a relative 1e-9,
/// one bit per thousand rows of each bound, and eight bits), plus `extra` bits the use needs
/// (the sign of a symmetric residue, the factor 2 of rational reconstruction).
pub(super) fn with_margin(bits: f64, terms: usize, rows: usize, extra: f64) -> f64 {
    bits * (1.0 + crate::prec::BOUND_ROUNDING) + (terms * rows) as f64 * 1e-3 + (8.0 + extra)
}

/// For each solution (the chained one last), the bit count of a modulus that provably
/// determines it and `det A` (see [`log2_bounds`]).
pub(super) fn bits_needed(
    rows: &[Vec<(u32, Int)>],
    rhs: &[Vec<Int>],
    chained: Option<(&[IntRow], usize)>,
) -> Vec<f64> {
    pub(super) fn values(r: &[(u32, Int)]) -> impl Iterator<Item = &Int> + Clone {
        r.iter().map(|(_, v)| v)
    }
    let bounds = log2_bounds(
        rows.len(),
        |i| values(&rows[i]),
        rhs,
        chained.map(|(c, k)| (move |i: usize| values(&rows[i]).chain(values(&c[i])), k)),
    );
    // Float rounding in the sums is far below the margin; one more bit for the sign of the
    // symmetric residue.
    bounds
        .into_iter()
        .map(|(den, num)| with_margin(den.max(num), 1, rows.len(), 1.0))
        .collect()
}
