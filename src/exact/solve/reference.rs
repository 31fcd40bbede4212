//! The reference rational solvers: [`SparseLu`] (sparse LU of `I - Q` from the last state to the
//! first) and [`solve_dense`] (plain Gaussian elimination), which the tests compare the fast
//! routes against.

use super::*;

/// An LU factorisation of `I - Q`, reusable for any number of right-hand sides.
#[derive(Clone, Debug)]
pub struct SparseLu {
    /// 1 / pivot of each variable.
    pub(super) inv_pivot: Vec<BigRational>,
    /// For each eliminated variable v: the rows u < v it was subtracted from, with the factor.
    pub(super) updates: Vec<Vec<(usize, BigRational)>>,
    /// Row v after elimination and normalisation: entries in columns below v.
    pub(super) lower: Vec<Vec<(usize, BigRational)>>,
}

impl SparseLu {
    /// Factors `I - Q`.
    ///
    /// # Errors
    ///
    /// [`Singular`] when a pivot vanishes (some state cannot reach absorption).
    pub fn factor(q: &SparseRows) -> Result<SparseLu, Singular> {
        let n = q.len();
        let mut rows: Vec<BTreeMap<usize, BigRational>> = Vec::with_capacity(n);
        let mut col_rows: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for (i, row) in q.iter().enumerate() {
            let mut r = BTreeMap::new();
            r.insert(i, BigRational::one());
            for (j, p) in row {
                let e = r.entry(*j).or_insert_with(BigRational::zero);
                *e -= p;
            }
            r.retain(|_, v| !v.is_zero());
            for &j in r.keys() {
                col_rows[j].insert(i);
            }
            rows.push(r);
        }
        let mut inv_pivot = vec![BigRational::zero(); n];
        let mut updates = vec![Vec::new(); n];
        let mut lower = vec![Vec::new(); n];
        for v in (0..n).rev() {
            let row = std::mem::take(&mut rows[v]);
            let pivot = row.get(&v).cloned().unwrap_or_else(BigRational::zero);
            if pivot.is_zero() {
                return Err(Singular { state: v });
            }
            let inv = pivot.recip();
            let normalized: Vec<(usize, BigRational)> = row
                .into_iter()
                .filter(|(c, _)| *c != v)
                .map(|(c, a)| (c, a * &inv))
                .collect();
            let users: Vec<usize> = col_rows[v].range(..v).copied().collect();
            for u in users {
                let Some(a_uv) = rows[u].remove(&v) else {
                    continue;
                };
                for (c, val) in &normalized {
                    let e = rows[u].entry(*c).or_insert_with(|| {
                        col_rows[*c].insert(u);
                        BigRational::zero()
                    });
                    *e -= &a_uv * val;
                }
                updates[v].push((u, a_uv));
            }
            inv_pivot[v] = inv;
            lower[v] = normalized;
        }
        Ok(SparseLu {
            inv_pivot,
            updates,
            lower,
        })
    }

    /// Solves `(I - Q) x = b`.
    pub fn solve(&self, b: &[BigRational]) -> Vec<BigRational> {
        let n = self.inv_pivot.len();
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
        let mut y: Vec<BigRational> = b.to_vec();
        for v in (0..n).rev() {
            y[v] *= &self.inv_pivot[v];
            if y[v].is_zero() {
                continue;
            }
            let yv = y[v].clone();
            for (u, a_uv) in &self.updates[v] {
                y[*u] -= a_uv * &yv;
            }
        }
        let mut x: Vec<BigRational> = Vec::with_capacity(n);
        for (yv, lower) in y.iter_mut().zip(&self.lower) {
            let mut xv = std::mem::take(yv);
            for (c, l) in lower {
                xv -= l * &x[*c];
            }
            x.push(xv);
        }
        x
    }
}

/// Solves `(I - Q) x = b` by dense Gaussian elimination: slow, simple, and the reference the
/// faster solvers are tested against.
///
/// # Errors
///
/// [`Singular`] when `I - Q` is singular.
pub fn solve_dense(q: &SparseRows, b: &[BigRational]) -> Result<Vec<BigRational>, Singular> {
    let n = q.len();
    let mut a: Vec<Vec<BigRational>> = (0..n)
        .map(|i| {
            let mut row = vec![BigRational::zero(); n + 1];
            row[i] = BigRational::one();
            for (j, p) in &q[i] {
                row[*j] -= p;
            }
            row[n] = b[i].clone();
            row
        })
        .collect();
    for col in 0..n {
        let pivot_row = (col..n)
            .find(|&r| !a[r][col].is_zero())
            .ok_or(Singular { state: col })?;
        a.swap(col, pivot_row);
        let inv = a[col][col].recip();
        for entry in &mut a[col][col..] {
            *entry *= &inv;
        }
        let pivot = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let f = row[col].clone();
                for (entry, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                    *entry -= &f * p;
                }
            }
        }
    }
    Ok(a.into_iter().map(|mut row| row.swap_remove(n)).collect())
}
