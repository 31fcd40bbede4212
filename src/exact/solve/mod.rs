//! Exact solutions of `(I - Q) x = b` over the transient states of a chain.
//!
//! # Formula
//!
//! For an absorbing chain with transient part Q, `N = (I - Q)^-1` is the fundamental matrix and
//! `x = N b` is the expected total reward to absorption when each turn from state i earns `b_i`
//! (Kemeny and Snell, *Finite Markov Chains*, 1960, chapter III). With `b = 1`, x is the expected
//! number of turns.
//!
//! # The entry point
//!
//! [`solve`] takes a [`System`] (rational or integer sparse rows `A`, right-hand sides `b_k`,
//! and optionally a [`Chained`] second solve `A y = C x_k`) and, per solution, what is
//! [`Wanted`] (every component or a few), and returns the wanted components as reduced
//! fractions. `(I - Q) x = b` from a chain is
//! `System::rational(&identity_minus(&transient_matrix(chain)), rhs)`.
//! It is the one public way in for exact values. Inside the crate there is one more:
//! `solve_int_verified` returns every component over one common denominator ([`OverCommon`]),
//! or declines (see below), which `analysis::fundamental` asks for because it knows its answers
//! are small and has another system to fall back on.
//!
//! # Routes
//!
//! [`solve`] chooses the route, here and only here: a rational system is scaled row by row to
//! integers (the least common multiple of each row's denominators), an integer one is taken as
//! it is, and then:
//!
//! - **p-adic lifting** (`solve_by_lifting`, `lift.rs`, `vector.rs`) when the entries are machine
//!   words: a few wanted components by transposed lifting (one factorisation modulo one prime,
//!   then cheap triangular solves), many components of one solution as a whole vector. It is the
//!   fastest route on game boards, whose rows are small.
//! - **multi-modular elimination** (`eliminate.rs`) otherwise, or when the lifting cannot
//!   decide: elimination modulo many word-size primes on one fill pattern (`factor.rs`), Chinese
//!   remaindering, exact once the product of the primes passes the Hadamard bound (`bounds.rs`).
//! - **verified lifting** (`solve_int_verified`, `verified.rs`, on request only): the same
//!   lifting, stopped at the first candidate that satisfies every equation exactly, for callers
//!   whose answers are far smaller than the bound (the stateful boards). It is not chosen by
//!   [`solve`] because it needs the caller's knowledge that the answers are small, and returns
//!   them over one common denominator.
//! - **the rational reference** (`SparseLu`, `solve_dense`, `reference.rs`, crate-internal)
//!   only when several primes in a row divide a pivot: it decides and reports a [`Singular`]
//!   system; the unit tests (`reference_tests.rs`, `exact::order`'s `order_tests.rs`) compare
//!   the fast routes against it.
//!
//! Residue arithmetic lives in `modular.rs`; the lifting routes' sparse integer rows in
//! `csr.rs` and their rational reconstruction in `reconstruct.rs`; float solves of the same
//! systems in `float.rs` (BiCGSTAB and the direct solve on the same pattern) and `sweep.rs`
//! (backward sweeps with the backward moves' squares as a small dense system).

use std::collections::{BTreeMap, BTreeSet};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::Chain;
use crate::exact::order;

mod bounds;
mod csr;
mod eliminate;
mod factor;
mod float;
mod lift;
mod lifting;
mod modular;
mod reconstruct;
mod reference;
#[cfg(test)]
mod reference_tests;
mod sweep;
#[cfg(test)]
mod tests;
mod vector;
mod verified;
pub use verified::OverCommon;

use crate::num::modular::{primes, residue, residue_i64, symmetric, Garner, Mont};
use bounds::*;
use eliminate::*;
pub(crate) use factor::Pattern;
use factor::*;
pub(crate) use float::{solve_float, solve_float_at};
use lifting::solve_by_lifting;
pub(crate) use modular::FloatRows;
use modular::*;
pub(crate) use reference::{solve_dense, SparseLu};

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

// ---------------------------------------------------------------------------------------------
// The fast exact solver: sparse elimination modulo word-size primes, CRT, exact by a bound.
// ---------------------------------------------------------------------------------------------

/// A second solve fed by the first: `A y = C x`, where x solves `A x = b` for one of the
/// right-hand sides (as for a second moment: `(I - Q) u = t`).
#[derive(Clone, Copy, Debug)]
pub struct Chained<'a> {
    /// The matrix C (square, the size of A).
    pub c: &'a SparseRows,
    /// Which right-hand side's solution x feeds it.
    pub rhs: usize,
    /// Which components of y to return.
    pub wanted: Wanted<'a>,
}

/// A sparse square system `A x_k = b_k` (k = 0, 1, ...) for [`solve`], optionally with a
/// chained second solve `A y = C x_k`.
#[derive(Clone, Copy, Debug)]
pub enum System<'a> {
    /// Rational entries: A as sparse rows (repeated columns summed), the right-hand sides.
    Rational {
        /// A.
        a: &'a SparseRows,
        /// The right-hand sides b_k, each as long as A.
        rhs: &'a [Vec<BigRational>],
        /// The chained solve, if any (its solution comes last).
        chained: Option<Chained<'a>>,
    },
    /// Integer entries: A as sparse rows of `i64` (repeated columns summed), the right-hand
    /// sides; no scaling and no rational arithmetic before the final divisions.
    Integer {
        /// A.
        a: &'a [Vec<(usize, i64)>],
        /// The right-hand sides b_k, each as long as A.
        rhs: &'a [Vec<i64>],
        /// The chained solve, if any (its solution comes last).
        chained: Option<ChainedInt<'a>>,
    },
}

impl<'a> System<'a> {
    /// `A x_k = b_k` with rational entries, no chained solve.
    pub fn rational(a: &'a SparseRows, rhs: &'a [Vec<BigRational>]) -> Self {
        System::Rational {
            a,
            rhs,
            chained: None,
        }
    }

    /// `A x_k = b_k` with integer entries, no chained solve.
    pub fn integer(a: &'a [Vec<(usize, i64)>], rhs: &'a [Vec<i64>]) -> Self {
        System::Integer {
            a,
            rhs,
            chained: None,
        }
    }
}

/// Solves `system` exactly: for each right-hand side b_k the components `wanted[k]` of `x_k`,
/// then (with a chained solve) the wanted components of y, all as reduced fractions. The route
/// is chosen here (see the module doc): p-adic lifting when the scaled entries are machine
/// words and few components (or whole vectors) are wanted, else multi-modular elimination, and
/// the rational reference when the primes cannot decide.
///
/// # Errors
///
/// `Singular` when A is singular.
///
/// # Panics
///
/// When a right-hand side or a column index does not fit the size of A, or `wanted` does not
/// have one entry per right-hand side.
pub fn solve(system: System<'_>, wanted: &[Wanted<'_>]) -> Result<Vec<Vec<BigRational>>, Singular> {
    match system {
        System::Rational { a, rhs, chained } => solve_rational(a, rhs, wanted, chained),
        System::Integer { a, rhs, chained } => solve_integer(a, rhs, wanted, chained),
    }
}

/// Which components of a solution to rebuild (each costs a Chinese remainder step per prime and
/// one final division).
#[derive(Clone, Copy, Debug)]
pub enum Wanted<'a> {
    /// Every component.
    All,
    /// These components, in this order.
    Some(&'a [usize]),
}

/// [`solve`] for a rational system: solves `A x = b` exactly for several right-hand sides at
/// once, with A sparse and square.
///
/// `wanted[k]` says which components of the k-th solution to return (as reduced fractions).
/// With `chained`, one more solution comes last: the wanted components of y in `A y = C x`.
///
/// # Method
///
/// Each row of `[A | b]` is scaled by the least common multiple of its denominators, giving an
/// integer system with the same solution. The elimination pattern (fill) is computed once
/// (`Pattern`); then, for each word-size prime p, the system is eliminated modulo p (no
/// pivoting, variables from the last to the first), giving `det A mod p` as the product of the
/// pivots and `det(A) x mod p`. By Cramer's rule `det(A) x_j` is an integer, and Hadamard's
/// inequality bounds it and `det A` (see `bits_needed`), so once the product of the primes
/// exceeds twice the bound, the Chinese remainder theorem gives both exactly (symmetric
/// residues) and `x_j = (det(A) x_j) / det A` is exact. No rational arithmetic happens until the
/// final divisions. Primes that divide a pivot are skipped; if several in a row do, the exact
/// reference elimination decides (and reports a singular system).
///
/// References: K. O. Geddes, S. R. Czapor, G. Labahn, *Algorithms for Computer Algebra* (1992),
/// chapter 5 (multi-modular methods, Garner's algorithm, Hadamard's bound).
///
fn solve_rational(
    a: &SparseRows,
    rhs: &[Vec<BigRational>],
    wanted: &[Wanted<'_>],
    chained: Option<Chained<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let n = a.len();
    let components = wanted_components(n, rhs, wanted, chained.as_ref().map(|c| &c.wanted));
    if n == 0 {
        return Ok(vec![Vec::new(); components.len()]);
    }
    if let Some(ch) = &chained {
        assert_eq!(ch.c.len(), n, "C has the wrong size");
        assert!(ch.rhs < rhs.len(), "chained to a missing right-hand side");
    }
    // Scale each row of [A | b] to integers.
    let mut rows: Vec<Vec<(u32, Int)>> = Vec::with_capacity(n);
    let mut b_int: Vec<Vec<Int>> = vec![Vec::with_capacity(n); rhs.len()];
    let mut c_int: Vec<Vec<(u32, Int)>> = Vec::new();
    // Rows with each column once (duplicates summed), zeros dropped.
    let merge = |row: &[(usize, BigRational)]| -> Vec<(usize, BigRational)> {
        let mut m: BTreeMap<usize, BigRational> = BTreeMap::new();
        for (j, v) in row {
            assert!(*j < n, "column {j} outside a {n} x {n} matrix");
            *m.entry(*j).or_insert_with(BigRational::zero) += v;
        }
        m.into_iter().filter(|(_, v)| !v.is_zero()).collect()
    };
    let a: SparseRows = a.iter().map(|r| merge(r)).collect();
    let c_merged: Option<SparseRows> = chained
        .as_ref()
        .map(|ch| ch.c.iter().map(|r| merge(r)).collect());
    for (i, row) in a.iter().enumerate() {
        let mut l = BigInt::one();
        for (j, v) in row {
            assert!(*j < n, "column {j} outside a {n} x {n} matrix");
            if !v.denom().is_one() {
                l = l.lcm(v.denom());
            }
        }
        for b in rhs {
            if !b[i].denom().is_one() {
                l = l.lcm(b[i].denom());
            }
        }
        if let Some(c) = &c_merged {
            for (_, v) in &c[i] {
                if !v.denom().is_one() {
                    l = l.lcm(v.denom());
                }
            }
        }
        let scale = |v: &BigRational| Int::from_big(v.numer() * (&l / v.denom()));
        let mut r: Vec<(u32, Int)> = row
            .iter()
            .filter(|(_, v)| !v.is_zero())
            .map(|(j, v)| (*j as u32, scale(v)))
            .collect();
        r.sort_by_key(|(j, _)| *j);
        rows.push(r);
        for (bi, b) in b_int.iter_mut().zip(rhs) {
            bi.push(scale(&b[i]));
        }
        if let Some(c) = &c_merged {
            c_int.push(
                c[i].iter()
                    .filter(|(_, v)| !v.is_zero())
                    .map(|(j, v)| (*j as u32, scale(v)))
                    .collect(),
            );
        }
    }
    let sys = IntegerSystem {
        rows: &rows,
        b_int: &b_int,
        c_int: &c_int,
        chained_rhs: chained.as_ref().map(|ch| ch.rhs),
        components: &components,
    };
    solve_scaled(sys, || {
        reference_solve(&a, rhs, &components, chained.as_ref())
    })
}

/// The components wanted of each solution (the chained one last), once every right-hand side is
/// checked to have `n` entries and one [`Wanted`] each.
fn wanted_components<T>(
    n: usize,
    rhs: &[Vec<T>],
    wanted: &[Wanted<'_>],
    chained: Option<&Wanted<'_>>,
) -> Vec<Vec<usize>> {
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    assert_eq!(wanted.len(), rhs.len(), "one Wanted per right-hand side");
    wanted
        .iter()
        .chain(chained)
        .map(|w| match w {
            Wanted::All => (0..n).collect(),
            Wanted::Some(c) => c.to_vec(),
        })
        .collect()
}

/// A system scaled to integer rows, as the elimination and lifting routes take it.
#[derive(Clone, Copy)]
pub(super) struct IntegerSystem<'a> {
    /// The rows of A.
    rows: &'a [IntRow],
    /// The right-hand sides.
    b_int: &'a [Vec<Int>],
    /// C, empty without a chained solve.
    c_int: &'a [IntRow],
    /// The right-hand side whose solution feeds the chained solve.
    chained_rhs: Option<usize>,
    /// The wanted components of each solution (the chained one last).
    components: &'a [Vec<usize>],
}

/// The core of [`solve_rational`] on row-scaled integer rows ([`IntegerSystem`]): lifting when the
/// entries fit machine words, else multi-modular elimination; `fallback` decides the systems
/// the primes cannot.
fn solve_scaled(
    sys: IntegerSystem<'_>,
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // The lifting works on machine-word entries.
    let small = || -> Option<(csr::Csr, Vec<Vec<i64>>, Option<csr::Csr>)> {
        let b = sys
            .b_int
            .iter()
            .map(|b| {
                b.iter()
                    .map(|v| match v {
                        Int::Small(x) => Some(*x),
                        Int::Big(_) => None,
                    })
                    .collect::<Option<Vec<i64>>>()
            })
            .collect::<Option<_>>()?;
        let c = match sys.chained_rhs {
            Some(_) => Some(csr::Csr::from_int_rows(sys.c_int)?),
            None => None,
        };
        Some((csr::Csr::from_int_rows(sys.rows)?, b, c))
    };
    if let Some(x) = small()
        .and_then(|(a, b, c)| solve_by_lifting(&a, &b, c.as_ref(), sys.chained_rhs, sys.components))
    {
        return Ok(x);
    }
    solve_by_elimination(sys, fallback)
}

/// A chained solve for [`solve_int_verified`]: (C as integer rows, the k of the `x_k` it
/// multiplies).
pub(crate) type IntChain<'a> = (&'a [Vec<(usize, i64)>], usize);

/// The exact solutions of `A x_k = b_k` for integer rows `a` (`(column, value)`, repeats
/// summed), and with `chained = (C, k)` also of `A y = C x_k`, by p-adic lifting stopped at the
/// first candidates that satisfy every equation exactly (`verified.rs`): far faster than the
/// bounded routes when the answers are far below Hadamard's bound, as on the stateful boards.
/// Returns `(x_k for each k, y)`; `None` when the route does not apply (entries of 2^60 or
/// more, A singular modulo three primes, digits beyond 512 MiB): use [`solve`] then.
pub(crate) fn solve_int_verified(
    a: &[Vec<(usize, i64)>],
    rhs: &[Vec<i64>],
    chained: Option<IntChain<'_>>,
) -> Option<(Vec<OverCommon>, Option<OverCommon>)> {
    for b in rhs {
        assert_eq!(b.len(), a.len(), "right-hand side has the wrong length");
    }
    verified::solve_verified(a, rhs, chained).map(|v| (v.solutions, v.chained))
}

/// A chained solve for [`System::Integer`]: (C as integer rows, the right-hand side that feeds
/// it, the wanted components), as in [`Chained`].
pub type ChainedInt<'a> = (&'a [Vec<(usize, i64)>], usize, Wanted<'a>);

/// [`solve`] for an integer system (no scaling, no rational arithmetic before the final
/// divisions): `a` and `c` as sparse rows of `i64`, integer right-hand sides.
fn solve_integer(
    a: &[Vec<(usize, i64)>],
    rhs: &[Vec<i64>],
    wanted: &[Wanted<'_>],
    chained: Option<ChainedInt<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let n = a.len();
    let components = wanted_components(n, rhs, wanted, chained.as_ref().map(|c| &c.2));
    if n == 0 {
        return Ok(vec![Vec::new(); components.len()]);
    }
    // Rows with each column once (repeats summed), zeros dropped.
    let a_csr = csr::Csr::from_rows(n, a);
    let c_csr = chained.as_ref().map(|c| csr::Csr::from_rows(n, c.0));
    let chained_rhs = chained.as_ref().map(|c| c.1);
    if let Some(x) = solve_by_lifting(&a_csr, rhs, c_csr.as_ref(), chained_rhs, &components) {
        return Ok(x);
    }
    let rows = a_csr.to_int_rows();
    let b_int: Vec<Vec<Int>> = rhs
        .iter()
        .map(|b| b.iter().map(|&v| Int::Small(v)).collect())
        .collect();
    let c_int = c_csr.map(|c| c.to_int_rows()).unwrap_or_default();
    let rational = |m: &[Vec<(usize, i64)>]| -> SparseRows {
        m.iter()
            .map(|r| {
                r.iter()
                    .map(|(j, v)| (*j, BigRational::from_integer(BigInt::from(*v))))
                    .collect()
            })
            .collect()
    };
    let sys = IntegerSystem {
        rows: &rows,
        b_int: &b_int,
        c_int: &c_int,
        chained_rhs,
        components: &components,
    };
    solve_by_elimination(sys, || {
        let a = rational(a);
        let rhs: Vec<Vec<BigRational>> = rhs
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&v| BigRational::from_integer(BigInt::from(v)))
                    .collect()
            })
            .collect();
        let c = chained.as_ref().map(|c| rational(c.0));
        let ch = chained.as_ref().zip(c.as_ref()).map(|(ch, c)| Chained {
            c,
            rhs: ch.1,
            wanted: ch.2,
        });
        reference_solve(&a, &rhs, &components, ch.as_ref())
    })
}

/// The exact reference elimination on `A`, for the rare systems the primes cannot settle
/// (singular ones, or ones that need a row exchange).
fn reference_solve(
    a: &SparseRows,
    rhs: &[Vec<BigRational>],
    components: &[Vec<usize>],
    chained: Option<&Chained<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // SparseLu factors I - Q: pass Q = I - A.
    let q = identity_minus(a);
    // Without pivoting first (the chains' case); a zero pivot may still need a row exchange.
    type Solver<'s> = Box<dyn Fn(&[BigRational]) -> Result<Vec<BigRational>, Singular> + 's>;
    let solve: Solver<'_> = match SparseLu::factor(&q) {
        Ok(lu) => Box::new(move |b: &[BigRational]| Ok(lu.solve(b))),
        Err(_) => Box::new(|b: &[BigRational]| solve_dense(&q, b)),
    };
    let mut xs: Vec<Vec<BigRational>> = rhs.iter().map(|b| solve(b)).collect::<Result<_, _>>()?;
    if let Some(ch) = chained {
        let x = &xs[ch.rhs];
        let y: Vec<BigRational> =
            ch.c.iter()
                .map(|row| {
                    row.iter()
                        .fold(BigRational::zero(), |acc, (j, v)| acc + v * &x[*j])
                })
                .collect();
        xs.push(solve(&y)?);
    }
    Ok(xs
        .iter()
        .zip(components)
        .map(|(x, comps)| comps.iter().map(|&c| x[c].clone()).collect())
        .collect())
}

/// `A = I - Q` as sparse rows.
pub fn identity_minus(q: &SparseRows) -> SparseRows {
    q.iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r: BTreeMap<usize, BigRational> = BTreeMap::new();
            r.insert(i, BigRational::one());
            for (j, v) in row {
                *r.entry(*j).or_insert_with(BigRational::zero) -= v;
            }
            r.into_iter().filter(|(_, v)| !v.is_zero()).collect()
        })
        .collect()
}
