//! The float solve by backward sweeps (`expect --float`): on a board numbered in square order
//! most moves go forward, so `A = U + L` with U upper triangular (the diagonal and the forward
//! moves) and L (the backward moves: snakes, bounces) nonzero in only k columns, the squares
//! the backward moves land on (the tails T). By the Woodbury identity, `A x = b` is
//!
//! 1. `U z = b` (one backward sweep, decreasing square order);
//! 2. `S x_T = z_T` with `S = I + (U^-1 L)_T`, a dense k x k system (the tails' values);
//! 3. `U x = b - L x_T` (a second sweep).
//!
//! Building S costs one sweep per tail (each only below the highest square that reaches the
//! tail) and a dense factorisation, once for every right-hand side; then a right-hand side
//! costs two sweeps. On the generated 10,000-square board (198 tails) that is a few million
//! multiplications where the preconditioned BiCGSTAB of `float.rs` needed about 35 iterations
//! per solve. Each answer is residual-checked (and refined once) like the iterative one.

use super::float::{accepts, residual, Csr};

/// Work allowed for building S, in multiples of the matrix's entries: above it the iterative
/// solve is cheaper (about 70 iterations of two products and two sweeps each).
const BUDGET_PER_ENTRY: usize = 400;

/// A factored [`Csr`] ready for the three steps of the module doc.
pub(super) struct Sweep<'a> {
    csr: &'a Csr,
    /// The tails: columns with an entry below the diagonal, ascending.
    tails: Vec<usize>,
    /// Per tail: its column of L, (row, value).
    lower: Vec<Vec<(usize, f64)>>,
    /// S = P^-1 L U (row-major, k x k): unit lower and upper triangles in place.
    lu: Vec<f64>,
    /// Row i of the factors is row `perm[i]` of S.
    perm: Vec<usize>,
}

impl<'a> Sweep<'a> {
    /// `None` when building S would cost more than the iterative solve, or S is singular.
    pub(super) fn new(csr: &'a Csr) -> Option<Sweep<'a>> {
        let n = csr.diag.len();
        let mut by_column: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for (i, &d) in csr.diag.iter().enumerate() {
            for e in csr.start[i]..d {
                by_column[csr.cols[e] as usize].push((i, csr.vals[e]));
            }
        }
        let tails: Vec<usize> = (0..n).filter(|&j| !by_column[j].is_empty()).collect();
        let k = tails.len();
        let entries = csr.vals.len().max(1);
        if k.saturating_mul(entries) + k.saturating_pow(3) / 3 > BUDGET_PER_ENTRY * entries {
            return None;
        }
        let lower: Vec<Vec<(usize, f64)>> = tails
            .iter()
            .map(|&t| std::mem::take(&mut by_column[t]))
            .collect();
        let mut s = schur(csr, &tails, &lower);
        let perm = factor(&mut s, k)?;
        Some(Sweep {
            csr,
            tails,
            lower,
            lu: s,
            perm,
        })
    }

    /// `A^-1 b` by the three steps of the module doc.
    fn apply(&self, b: &[f64]) -> Vec<f64> {
        let n = b.len();
        let mut z = b.to_vec();
        if n == 0 {
            return z;
        }
        upper_solve(self.csr, &mut z, n - 1);
        let z_t: Vec<f64> = self.tails.iter().map(|&t| z[t]).collect();
        let x_t = lu_solve(&self.lu, &self.perm, &z_t);
        z.copy_from_slice(b);
        for (column, &xt) in self.lower.iter().zip(&x_t) {
            for &(i, v) in column {
                z[i] -= v * xt;
            }
        }
        upper_solve(self.csr, &mut z, n - 1);
        z
    }

    /// Solves `A x = b`, refined once when the first answer fails the backward-error test of
    /// [`accepts`]; `None` when the refined one fails too.
    pub(super) fn solve(&self, b: &[f64]) -> Option<Vec<f64>> {
        let mut x = self.apply(b);
        let r = residual(self.csr, &x, b);
        if accepts(self.csr, &r, &x, b) {
            return Some(x);
        }
        for (xi, d) in x.iter_mut().zip(self.apply(&r)) {
            *xi += d;
        }
        let r = residual(self.csr, &x, b);
        accepts(self.csr, &r, &x, b).then_some(x)
    }
}

/// Tails swept together: independent columns interleaved, so the sweep's multiply-adds do not
/// wait on each other.
const LANES: usize = 8;

/// `S = I + (U^-1 L)_T` (row-major): column c is `U^-1` of tail c's column of L, read at the
/// tails. Tails are swept [`LANES`] at a time, in order of the highest row of their column
/// (the sweep starts there: rows above it are zero).
fn schur(csr: &Csr, tails: &[usize], lower: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let (n, k) = (csr.diag.len(), tails.len());
    let top_of = |c: usize| {
        lower[c]
            .iter()
            .map(|e| e.0)
            .max()
            .expect("a tail has an entry")
    };
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&c| top_of(c));
    let inverse: Vec<f64> = csr.diag.iter().map(|&d| 1.0 / csr.vals[d]).collect();
    let mut s = vec![0.0; k * k];
    let mut block = vec![0.0; n * LANES];
    for batch in order.chunks(LANES) {
        let top = batch
            .iter()
            .map(|&c| top_of(c))
            .max()
            .expect("a nonempty batch");
        for (w, &c) in batch.iter().enumerate() {
            for &(i, v) in &lower[c] {
                block[i * LANES + w] += v;
            }
        }
        for i in (0..=top).rev() {
            let mut acc = [0.0; LANES];
            acc.copy_from_slice(&block[i * LANES..(i + 1) * LANES]);
            for e in csr.diag[i] + 1..csr.start[i + 1] {
                let (v, at) = (csr.vals[e], csr.cols[e] as usize * LANES);
                for (a, g) in acc.iter_mut().zip(&block[at..at + LANES]) {
                    *a -= v * g;
                }
            }
            for (g, a) in block[i * LANES..(i + 1) * LANES].iter_mut().zip(acc) {
                *g = a * inverse[i];
            }
        }
        for (w, &c) in batch.iter().enumerate() {
            for (r, &t) in tails.iter().enumerate() {
                s[r * k + c] = block[t * LANES + w];
            }
        }
        // Rows above `top` stay zero for the next batch.
        block[..(top + 1) * LANES].fill(0.0);
    }
    for r in 0..k {
        s[r * k + r] += 1.0;
    }
    s
}

/// Solves `U z = r` in place for the rows `0..=top` (decreasing order), U the upper triangle
/// of A with its diagonal; entries of `r` above `top` must be zero.
fn upper_solve(csr: &Csr, r: &mut [f64], top: usize) {
    for i in (0..=top).rev() {
        let d = csr.diag[i];
        let mut s = r[i];
        for e in d + 1..csr.start[i + 1] {
            s -= csr.vals[e] * r[csr.cols[e] as usize];
        }
        r[i] = s / csr.vals[d];
    }
}

/// Gaussian elimination with partial pivoting of the k x k row-major `s`, in place; returns the
/// row permutation, `None` on a zero pivot.
fn factor(s: &mut [f64], k: usize) -> Option<Vec<usize>> {
    let mut perm: Vec<usize> = (0..k).collect();
    for c in 0..k {
        let p = (c..k).max_by(|&x, &y| s[x * k + c].abs().total_cmp(&s[y * k + c].abs()))?;
        if s[p * k + c] == 0.0 || !s[p * k + c].is_finite() {
            return None;
        }
        if p != c {
            for j in 0..k {
                s.swap(p * k + j, c * k + j);
            }
            perm.swap(p, c);
        }
        let pivot = s[c * k + c];
        let (done, rest) = s.split_at_mut((c + 1) * k);
        let pivot_row = &done[c * k..];
        for row in rest.chunks_exact_mut(k) {
            let m = row[c] / pivot;
            row[c] = m;
            if m != 0.0 {
                for j in c + 1..k {
                    row[j] -= m * pivot_row[j];
                }
            }
        }
    }
    Some(perm)
}

/// Solves `S x = b` from the factors of [`factor`].
fn lu_solve(lu: &[f64], perm: &[usize], b: &[f64]) -> Vec<f64> {
    let k = perm.len();
    let mut x: Vec<f64> = perm.iter().map(|&p| b[p]).collect();
    for i in 0..k {
        let row = &lu[i * k..i * k + i];
        x[i] -= row.iter().zip(&x[..i]).map(|(a, b)| a * b).sum::<f64>();
    }
    for i in (0..k).rev() {
        let row = &lu[i * k..(i + 1) * k];
        let s: f64 = row[i + 1..]
            .iter()
            .zip(&x[i + 1..])
            .map(|(a, b)| a * b)
            .sum();
        x[i] = (x[i] - s) / row[i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_solves_a_cycle_by_hand() {
        // x_i - x_{i+1}/2 = b_i on three states, the last going back to the first (one tail,
        // column 0). b = e_0: x2 = x0/2, x1 = x0/4, x0 - x0/8 = 1, so x = (8/7, 2/7, 4/7).
        let a: Vec<Vec<(usize, f64)>> = vec![
            vec![(0, 1.0), (1, -0.5)],
            vec![(1, 1.0), (2, -0.5)],
            vec![(2, 1.0), (0, -0.5)],
        ];
        let csr = Csr::new(&a).unwrap();
        let sweep = Sweep::new(&csr).unwrap();
        assert_eq!(sweep.tails, vec![0]);
        let x = sweep.solve(&[1.0, 0.0, 0.0]).unwrap();
        let want = [8.0 / 7.0, 2.0 / 7.0, 4.0 / 7.0];
        for (v, w) in x.iter().zip(want) {
            assert!((v - w).abs() < 1e-15, "{x:?}");
        }
    }

    #[test]
    fn the_dense_factors_solve_a_system_that_needs_a_row_swap() {
        // [[0, 1], [2, 3]] x = (1, 8): x = (2.5, 1) by hand; the first pivot is zero unless
        // the rows are swapped.
        let mut s = vec![0.0, 1.0, 2.0, 3.0];
        let perm = factor(&mut s, 2).unwrap();
        assert_eq!(perm, vec![1, 0]);
        assert_eq!(lu_solve(&s, &perm, &[1.0, 8.0]), vec![2.5, 1.0]);
        let mut singular = vec![1.0, 2.0, 2.0, 4.0];
        assert!(factor(&mut singular, 2).is_none());
    }
}
