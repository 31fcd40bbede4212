//! Exact solutions of `(I - Q) x = b` over the transient states of a chain.
//!
//! # Formula
//!
//! For an absorbing chain with transient part Q, `N = (I - Q)^-1` is the fundamental matrix and
//! `x = N b` is the expected total reward to absorption when each turn from state i earns `b_i`
//! (Kemeny and Snell, *Finite Markov Chains*, 1960, chapter III). With `b = 1`, x is the expected
//! number of turns.
//!
//! [`SparseLu`] eliminates the variables from the last state to the first. States are numbered in
//! square order and moves mostly go forward, so when a variable is eliminated its row only refers
//! to squares below it that snakes (or bounces) lead back to, and fill stays small. `I - Q` is a
//! nonsingular M-matrix when every state can reach the finish, so every pivot is positive and no
//! pivoting is needed. [`solve_dense`] is plain Gaussian elimination, kept as the reference the
//! tests compare against.

use std::collections::{BTreeMap, BTreeSet};

use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::Chain;

/// A sparse square matrix as rows of `(column, value)`.
pub type SparseRows = Vec<Vec<(usize, BigRational)>>;

/// The system is singular: some state cannot reach absorption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the system is singular at state {state}: the finish cannot be reached from it")]
pub struct Singular {
    /// The transient state whose pivot vanished.
    pub state: usize,
}

/// Q, the transient-to-transient part of a chain's transition matrix, as sparse rows.
pub fn transient_matrix<S>(chain: &Chain<S>) -> SparseRows
where
    S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
{
    let t = chain.transient_count();
    chain
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .filter(|(j, _)| *j < t)
                .map(|(j, p)| (*j, p.clone()))
                .collect()
        })
        .collect()
}

/// An LU factorisation of `I - Q`, reusable for any number of right-hand sides.
#[derive(Clone, Debug)]
pub struct SparseLu {
    /// 1 / pivot of each variable.
    inv_pivot: Vec<BigRational>,
    /// For each eliminated variable v: the rows u < v it was subtracted from, with the factor.
    updates: Vec<Vec<(usize, BigRational)>>,
    /// Row v after elimination and normalisation: entries in columns below v.
    lower: Vec<Vec<(usize, BigRational)>>,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn solves_the_tiny_board_by_hand() {
        // Tiny board: from 0, 1/2 to 0 and 1/2 to 3; from 3, 1/2 stays and 1/2 finishes.
        // Expected turns: t3 = 1 + t3/2 => 2; t0 = 1 + t0/2 + t3/2 => 4.
        let m: SparseRows = vec![vec![(0, q(1, 2)), (1, q(1, 2))], vec![(1, q(1, 2))]];
        let ones = vec![q(1, 1); 2];
        let lu = SparseLu::factor(&m).unwrap();
        assert_eq!(lu.solve(&ones), vec![q(4, 1), q(2, 1)]);
        assert_eq!(solve_dense(&m, &ones).unwrap(), vec![q(4, 1), q(2, 1)]);
    }

    #[test]
    fn handles_back_edges_that_create_fill() {
        // Three states with a long back edge 2 -> 0: x0 = 1 + x1/2, x1 = 1 + x2/2, x2 = 1 + x0/2.
        // By hand: x0 = 1 + (1 + (1 + x0/2)/2)/2 = 7/4 + x0/8 => x0 = 2, and by symmetry all 2.
        let m: SparseRows = vec![vec![(1, q(1, 2))], vec![(2, q(1, 2))], vec![(0, q(1, 2))]];
        let ones = vec![q(1, 1); 3];
        assert_eq!(SparseLu::factor(&m).unwrap().solve(&ones), vec![q(2, 1); 3]);
    }

    #[test]
    fn reports_a_singular_system() {
        // A state that only returns to itself never finishes.
        let m: SparseRows = vec![vec![(0, q(1, 1))]];
        assert_eq!(SparseLu::factor(&m).unwrap_err(), Singular { state: 0 });
        assert!(solve_dense(&m, &[q(1, 1)]).is_err());
    }
}
