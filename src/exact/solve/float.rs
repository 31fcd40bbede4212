//! Float solvers of the same systems: BiCGSTAB (Krylov) with a backward-error test, and the direct
//! solve on the exact route's elimination pattern when the iteration does not converge.

use super::sweep::Sweep;
use super::*;

/// Solves `A x = b` in floating point for the speed path (`expect --float`: no exact claim),
/// with an optional chained solve `A y = C x_k` (C as sparse rows, k the right-hand side that
/// feeds it; y comes last). Returns `None` when a pivot vanishes.
///
/// First tries an iterative solve (BiCGSTAB preconditioned by a backward
/// Gauss-Seidel sweep, which on a board numbered in square order, most moves going forward, is
/// nearly an exact triangular solve). Its answer is kept only when the residual passes a
/// backward-error test; otherwise the system is solved by elimination on the same pattern as
/// [`super::solve`].
///
/// # Panics
///
/// When a right-hand side or a column index does not fit the size of A.
pub fn solve_float(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: Option<(&FloatRows, usize)>,
) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    let iterative = || -> Option<Vec<Vec<f64>>> {
        let csr = Csr::new(a)?;
        let mut out = rhs
            .iter()
            .map(|b| krylov(&csr, b))
            .collect::<Option<Vec<_>>>()?;
        if let Some((c, k)) = chained {
            let y = chained_rhs(c, &out[k]);
            out.push(krylov(&csr, &y)?);
        }
        Some(out)
    };
    iterative().or_else(|| solve_float_direct(a, rhs, chained))
}

/// The values at one index `at` of the solutions of [`solve_float`], with the whole first
/// solution x_k that feeds the chained solve: `(x_k, [x_0[at], ..., x_{m-1}[at], y[at]])`.
///
/// First by backward sweeps and a small dense system (`sweep.rs`) when the backward moves land
/// on few squares: every solution whole, two sweeps each. Otherwise two iterative solves instead
/// of one per right-hand side: `w = A^-T e_at` once, then `x_j[at] = w . b_j` (and
/// `y[at] = w . C x_k`), the adjoint identity `e_at^T A^-1 b = (A^-T e_at)^T b`. For the
/// absorbing-chain systems here A is an M-matrix, so w and the right-hand sides are nonnegative
/// and the dot products lose nothing to cancellation. Falls back to [`solve_float`] when an
/// iterative solve fails its residual test. Returns `None` when a pivot vanishes.
///
/// # Panics
///
/// When a right-hand side, `k` or `at` does not fit the size of A.
pub fn solve_float_at(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: (&FloatRows, usize),
    at: usize,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = a.len();
    assert!(at < n, "index out of range");
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    let (c, k) = chained;
    let csr = Csr::new(a);
    let swept = csr.as_ref().and_then(|csr| {
        let sweep = Sweep::new(csr)?;
        let bs: Vec<&[f64]> = rhs.iter().map(Vec::as_slice).collect();
        let mut all = sweep.solve(&bs)?;
        let fed = chained_rhs(c, &all[k]);
        let y = sweep.solve(&[&fed])?.pop()?;
        let mut values: Vec<f64> = all.iter().map(|x| x[at]).collect();
        values.push(y[at]);
        Some((all.swap_remove(k), values))
    });
    if swept.is_some() {
        return swept;
    }
    let iterative = || -> Option<(Vec<f64>, Vec<f64>)> {
        let csr = csr.as_ref()?;
        let x = krylov(csr, &rhs[k])?;
        // A^T with rows and columns reversed (i -> n - 1 - i), so that its forward moves are
        // again above the diagonal and the backward sweep is the right preconditioner.
        let mut t: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for (i, row) in a.iter().enumerate() {
            for &(j, v) in row {
                t[n - 1 - j].push((n - 1 - i, v));
            }
        }
        let mut e = vec![0.0; n];
        e[n - 1 - at] = 1.0;
        let w_rev = krylov(&Csr::new(&t)?, &e)?;
        let w: Vec<f64> = w_rev.into_iter().rev().collect();
        let y = chained_rhs(c, &x);
        let mut values: Vec<f64> = rhs.iter().map(|b| dot(&w, b)).collect();
        values[k] = x[at];
        values.push(dot(&w, &y));
        Some((x, values))
    };
    iterative().or_else(|| {
        let mut all = solve_float(a, rhs, Some(chained))?;
        let values = all.iter().map(|x| x[at]).collect();
        Some((all.swap_remove(k), values))
    })
}

/// `C x` for sparse rows C.
pub(super) fn chained_rhs(c: &FloatRows, x: &[f64]) -> Vec<f64> {
    c.iter()
        .map(|row| row.iter().map(|(j, v)| v * x[*j]).sum())
        .collect()
}

/// The most iterations [`krylov`] makes for one right-hand side before giving up.
pub(super) const KRYLOV_MAX_ITERATIONS: usize = 500;

/// A float matrix in compressed rows, split for the preconditioner.
pub(super) struct Csr {
    /// Row i's entries are `start[i]..start[i + 1]`, columns ascending after the diagonal's
    /// position `diag[i]` (entries at or after it are on or above the diagonal).
    pub(super) start: Vec<usize>,
    pub(super) cols: Vec<u32>,
    pub(super) vals: Vec<f64>,
    /// The position of the (summed) diagonal entry of each row.
    pub(super) diag: Vec<usize>,
    /// max_i sum_j |a_ij|.
    pub(super) norm: f64,
}

impl Csr {
    /// `None` when a diagonal entry is zero.
    pub(super) fn new(a: &FloatRows) -> Option<Csr> {
        let n = a.len();
        let entries = a.iter().map(|r| r.len() + 1).sum();
        let mut start = Vec::with_capacity(n + 1);
        let mut cols = Vec::with_capacity(entries);
        let mut vals = Vec::with_capacity(entries);
        let mut diag = Vec::with_capacity(n);
        let mut norm = 0.0f64;
        let mut row: Vec<(usize, f64)> = Vec::new();
        for (i, r) in a.iter().enumerate() {
            start.push(cols.len());
            row.clear();
            row.extend(r.iter().copied());
            row.push((i, 0.0));
            row.sort_unstable_by_key(|e| e.0);
            let mut abs = 0.0;
            let mut k = 0;
            while k < row.len() {
                let j = row[k].0;
                assert!(j < n, "column index out of range");
                let mut v = 0.0;
                while k < row.len() && row[k].0 == j {
                    v += row[k].1;
                    k += 1;
                }
                if j == i {
                    if v == 0.0 {
                        return None;
                    }
                    diag.push(cols.len());
                }
                abs += f64::abs(v);
                cols.push(j as u32);
                vals.push(v);
            }
            norm = norm.max(abs);
        }
        start.push(cols.len());
        Some(Csr {
            start,
            cols,
            vals,
            diag,
            norm,
        })
    }

    /// `out = A x`.
    pub(super) fn mul(&self, x: &[f64], out: &mut [f64]) {
        for (o, w) in out.iter_mut().zip(self.start.windows(2)) {
            let (cols, vals) = (&self.cols[w[0]..w[1]], &self.vals[w[0]..w[1]]);
            *o = cols.iter().zip(vals).map(|(&j, v)| v * x[j as usize]).sum();
        }
    }

    /// Solves `M z = r` for M the upper triangle of A with its diagonal: one backward
    /// Gauss-Seidel sweep from zero, which on a board in square order (moves mostly forward)
    /// is most of A.
    pub(super) fn precondition(&self, r: &[f64], z: &mut [f64]) {
        for i in (0..r.len()).rev() {
            let d = self.diag[i];
            let mut s = r[i];
            for e in d + 1..self.start[i + 1] {
                s -= self.vals[e] * z[self.cols[e] as usize];
            }
            z[i] = s / self.vals[d];
        }
    }
}

/// `b - A x`, computed in floats.
pub(super) fn residual(a: &Csr, x: &[f64], b: &[f64]) -> Vec<f64> {
    let mut r = vec![0.0; b.len()];
    a.mul(x, &mut r);
    for (ri, bi) in r.iter_mut().zip(b) {
        *ri = bi - *ri;
    }
    r
}

/// The normwise backward-error test `|r|_inf <= eta (|A|_inf |x|_inf + |b|_inf)` with eta
/// [`crate::prec::BACKWARD_ERROR`] (Higham, *Accuracy and Stability of Numerical Algorithms*,
/// 2nd ed., theorem 7.1): as good as a backward-stable direct solve.
pub(super) fn accepts(a: &Csr, r: &[f64], x: &[f64], b: &[f64]) -> bool {
    inf_norm(r) <= crate::prec::BACKWARD_ERROR * (a.norm * inf_norm(x) + inf_norm(b))
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(super) fn inf_norm(a: &[f64]) -> f64 {
    a.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// Solves `A x = b` by BiCGSTAB (van der Vorst 1992, SIAM J. Sci. Stat. Comput. 13(2), 631-644;
/// algorithm as in Saad, *Iterative Methods for Sparse Linear Systems*, 2nd ed., algorithm 7.7)
/// right-preconditioned by one backward Gauss-Seidel sweep ([`Csr::precondition`]), restarted
/// from the current iterate when the recurrence stalls. The answer is accepted only when the
/// true residual `r = b - A x` passes the normwise backward-error test
/// `|r|_inf <= 1e-14 (|A|_inf |x|_inf + |b|_inf)` (Higham, *Accuracy and Stability of Numerical
/// Algorithms*, 2nd ed., theorem 7.1), as good as a backward-stable direct solve; `None`
/// otherwise (the caller then eliminates).
pub(super) fn krylov(a: &Csr, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let b_norm = inf_norm(b);
    let mut x = vec![0.0; n];
    if b_norm == 0.0 {
        return Some(x);
    }
    let mut r = b.to_vec();
    let (mut p, mut v, mut s, mut t) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut p_hat, mut s_hat) = (vec![0.0; n], vec![0.0; n]);
    let accept = |r: &[f64], x: &[f64]| accepts(a, r, x, b);
    let mut iterations = 0;
    while iterations < KRYLOV_MAX_ITERATIONS {
        // (Re)start from the true residual.
        a.mul(&x, &mut t);
        for ((ri, bi), ti) in r.iter_mut().zip(b).zip(&t) {
            *ri = bi - ti;
        }
        if accept(&r, &x) {
            return Some(x);
        }
        let r0 = r.clone();
        let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
        v.fill(0.0);
        p.fill(0.0);
        loop {
            iterations += 1;
            let rho_new = dot(&r0, &r);
            if rho_new == 0.0 || omega == 0.0 || !rho_new.is_finite() {
                break;
            }
            let beta = (rho_new / rho) * (alpha / omega);
            rho = rho_new;
            for ((pi, ri), vi) in p.iter_mut().zip(&r).zip(&v) {
                *pi = ri + beta * (*pi - omega * vi);
            }
            a.precondition(&p, &mut p_hat);
            a.mul(&p_hat, &mut v);
            let r0v = dot(&r0, &v);
            if r0v == 0.0 {
                break;
            }
            alpha = rho / r0v;
            for ((si, ri), vi) in s.iter_mut().zip(&r).zip(&v) {
                *si = ri - alpha * vi;
            }
            a.precondition(&s, &mut s_hat);
            a.mul(&s_hat, &mut t);
            let tt = dot(&t, &t);
            omega = if tt == 0.0 { 0.0 } else { dot(&t, &s) / tt };
            for ((xi, ph), sh) in x.iter_mut().zip(&p_hat).zip(&s_hat) {
                *xi += alpha * ph + omega * sh;
            }
            for ((ri, si), ti) in r.iter_mut().zip(&s).zip(&t) {
                *ri = si - omega * ti;
            }
            // Restart (and test the true residual) once the recurrence says it is small.
            if inf_norm(&r) <= crate::prec::KRYLOV_RESTART * (a.norm * inf_norm(&x) + b_norm)
                || iterations >= KRYLOV_MAX_ITERATIONS
            {
                break;
            }
        }
        if !x.iter().all(|v| v.is_finite()) {
            return None;
        }
    }
    a.mul(&x, &mut t);
    for ((ri, bi), ti) in r.iter_mut().zip(b).zip(&t) {
        *ri = bi - ti;
    }
    accept(&r, &x).then_some(x)
}

/// [`solve_float`] by elimination on the same pattern as [`super::solve`].
pub(super) fn solve_float_direct(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: Option<(&FloatRows, usize)>,
) -> Option<Vec<Vec<f64>>> {
    let pattern = Pattern::from_rows(a.len(), |i| a[i].iter().map(|(j, _)| *j as u32));
    let positions = pattern.positions(|i| a[i].iter().map(|(j, _)| *j as u32));
    let mut vals = vec![0.0; pattern.entries()];
    for ((_, x), &k) in a.iter().flatten().zip(&positions) {
        vals[k] += x;
    }
    let lu = Numeric::factor(Float, &pattern, vals)?;
    let mut out: Vec<Vec<f64>> = rhs
        .iter()
        .map(|b| {
            let mut y = b.clone();
            lu.solve(Float, &pattern, &mut y);
            y
        })
        .collect();
    if let Some((c, k)) = chained {
        let mut y = chained_rhs(c, &out[k]);
        lu.solve(Float, &pattern, &mut y);
        out.push(y);
    }
    Some(out)
}
