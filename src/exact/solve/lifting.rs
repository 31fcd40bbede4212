//! The p-adic lifting route of [`super::solve`]: which solutions are lifted as whole vectors
//! ([`super::vector`]) and which components through the transposed system ([`super::lift`]),
//! with the Hadamard bounds that say when a lifted value is exact. `None` hands the system back
//! to the multi-modular elimination.

use num_rational::BigRational;

use super::bounds::{log2_bounds, log2_column_bounds};
use super::csr::Csr;
use super::eliminate::is_identity;
use super::factor::Pattern;
use super::{lift, vector};
use crate::exact::order;

/// At most this many distinct wanted components go through the transposed lifting of
/// [`solve_by_lifting`] (one lifting each). A solution (not the chained one) that wants more is
/// lifted as a whole vector ([`vector`]); a chained solution that wants more goes through the
/// multi-modular elimination, which rebuilds any number at once.
const MAX_LIFTED_COMPONENTS: usize = 4;

/// [`super::solve`] by p-adic lifting (after the rows are scaled to integers).
///
/// For a wanted component s, `w = A^-T e_s` gives `x_s = w . b` for every right-hand side b at
/// once, and for the chained solve `y_s = e_s . A^-1 C x = v . b` with `A^T v = C^T w`. So one
/// lifting of the block system `[[A^T, 0], [-C^T, A^T]] [w; v] = [e_s; 0]`, one factorisation
/// modulo one prime, yields every wanted value at s (see [`lift`]). A solution of the first
/// block that wants more than [`MAX_LIFTED_COMPONENTS`] components is lifted as a vector on A
/// itself instead (see [`vector`]: every component of x at once, from one factorisation of A).
/// `None` when the system does not suit (too many components of the chained solution, entries
/// too large for machine-word residuals, too much memory for the digits of a vector) or the
/// lifting cannot decide; the caller then eliminates modulo many primes.
pub(super) fn solve_by_lifting(
    a: &Csr,
    b: &[Vec<i64>],
    c: Option<&Csr>,
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
) -> Option<Vec<Vec<BigRational>>> {
    let n = a.len();
    let first = b.len();
    let distinct_of = |c: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
        let mut d: Vec<usize> = c.collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    // The solutions lifted as vectors; the others' components go through the transposed system.
    let as_vector: Vec<bool> = components
        .iter()
        .enumerate()
        .map(|(k, c)| {
            k < first && distinct_of(&mut c.iter().copied()).len() > MAX_LIFTED_COMPONENTS
        })
        .collect();
    let distinct = distinct_of(
        &mut components
            .iter()
            .zip(&as_vector)
            .filter(|(_, v)| !**v)
            .flat_map(|(c, _)| c.iter().copied()),
    );
    if distinct.len() > MAX_LIFTED_COMPONENTS {
        return None;
    }
    fn values(m: &Csr, i: usize) -> std::slice::Iter<'_, i64> {
        m.row(i).1.iter()
    }
    let by_rows = log2_bounds(
        n,
        |i| values(a, i),
        b,
        chained_rhs
            .zip(c)
            .map(|(k, c)| (move |i: usize| values(a, i).chain(values(c, i)), k)),
    );
    // Each bound by rows or by columns, whichever is smaller (both bound the same numbers).
    let bounds: Vec<(f64, f64)> = match log2_column_bounds(a, b, c.zip(chained_rhs)) {
        Some(by_columns) => by_rows
            .iter()
            .zip(by_columns)
            .map(|(r, c)| (r.0.min(c.0), r.1.min(c.1)))
            .collect(),
        None => by_rows,
    };
    let solutions: Vec<vector::VectorSolution<'_>> = (0..first)
        .filter(|&k| as_vector[k])
        .map(|k| vector::VectorSolution {
            b: &b[k],
            components: &components[k],
            num_bits: bounds[k].1,
            den_bits: bounds[k].0,
        })
        .collect();
    if !solutions.is_empty() && !vector::suits(a, &solutions) {
        return None;
    }
    let mut lifted: Vec<Vec<Option<BigRational>>> =
        components.iter().map(|c| vec![None; c.len()]).collect();
    if !distinct.is_empty() {
        lift_transposed(
            a,
            b,
            c,
            chained_rhs,
            components,
            &as_vector,
            &distinct,
            &bounds,
            &mut lifted,
        )?;
    }
    if !solutions.is_empty() {
        let got = vector::solve_vectors(a, &solutions)?;
        for (k, xs) in (0..first).filter(|&k| as_vector[k]).zip(got) {
            lifted[k] = xs.into_iter().map(Some).collect();
        }
    }
    Some(
        lifted
            .into_iter()
            .map(|vs| {
                vs.into_iter()
                    .map(|v| v.expect("every component lifted"))
                    .collect()
            })
            .collect(),
    )
}

/// The transposed lifting of [`solve_by_lifting`] for the `distinct` components wanted by the
/// solutions not lifted as vectors (`as_vector[k]` false), written into `lifted`.
#[allow(clippy::too_many_arguments)]
fn lift_transposed(
    a: &Csr,
    b: &[Vec<i64>],
    c: Option<&Csr>,
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
    as_vector: &[bool],
    distinct: &[usize],
    bounds: &[(f64, f64)],
    lifted: &mut [Vec<Option<BigRational>>],
) -> Option<()> {
    const LIMIT: u64 = 1 << 60;
    let n = a.len();
    let at = a.transpose();
    let ct = c.map(Csr::transpose);
    if at.max_row_norm1() >= LIMIT || ct.as_ref().is_some_and(|c| c.max_row_norm1() >= LIMIT) {
        return None;
    }
    let g_norm = |g: &[i64]| {
        g.iter()
            .fold(0u64, |acc, v| acc.saturating_add(v.unsigned_abs()))
    };
    if b.iter().any(|g| g_norm(g) == u64::MAX) {
        return None;
    }
    // A fill-reducing order (`order`), applied to rows and columns alike: the system becomes
    // `(P A^T P^T) (P w) = P e_s`, and `g . w = (P g) . (P w)`. (Small systems keep square order
    // without building the column lists the ordering reads.)
    let perm = (n >= order::SMALL)
        .then(|| order::elimination_order(&at.column_lists()))
        .filter(|perm| !is_identity(perm));
    let (at, ct, b, inv) = match perm {
        None => (at, ct, b.to_vec(), None),
        Some(perm) => {
            let inv = order::inverse(&perm);
            (
                at.permute(&perm, &inv),
                ct.map(|c| c.permute(&perm, &inv)),
                b.iter()
                    .map(|g| perm.iter().map(|&old| g[old as usize]).collect())
                    .collect(),
                Some(inv),
            )
        }
    };
    let pattern = Pattern::from_rows(n, |i| at.row_cols(i).iter().copied());
    // One factorisation serves every wanted component.
    let lifter = lift::Lifter::new(at, &pattern)?;
    let first = b.len();
    for &s in distinct {
        let mut unit = vec![0i64; n];
        unit[inv.as_ref().map_or(s, |inv| inv[s] as usize)] = 1;
        // Which solutions want s: the first block's (g = b_k) and the chained one (g = b_feed).
        let mut who: Vec<usize> = Vec::new();
        let mut functionals: Vec<lift::Functional<'_>> = Vec::new();
        for (k, comps) in components.iter().enumerate() {
            if as_vector[k] || !comps.contains(&s) {
                continue;
            }
            let (g, chained) = if k < first {
                (&b[k][..], false)
            } else {
                (
                    &b[chained_rhs.expect("a chained solution has a feed")][..],
                    true,
                )
            };
            who.push(k);
            functionals.push(lift::Functional {
                g,
                chained,
                num_bits: bounds[k].1,
                den_bits: bounds[k].0,
            });
        }
        let got = lifter.lift(ct.as_ref(), &unit, &functionals)?;
        for (k, v) in who.into_iter().zip(got) {
            for (slot, &comp) in lifted[k].iter_mut().zip(&components[k]) {
                if comp == s {
                    *slot = Some(v.clone());
                }
            }
        }
    }
    Some(())
}
