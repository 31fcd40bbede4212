//! The multi-modular route: sparse elimination modulo word-size primes in a fill-reducing order,
//! Chinese remaindering, and exact values once the product of the primes passes the bound
//! (or, with an early stop, once the reconstruction is stable).

use super::*;

/// The multi-modular elimination of [`solve_scaled`], in a fill-reducing order.
pub(super) fn solve_by_elimination(
    sys: IntegerSystem<'_>,
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // A fill-reducing order (`order`), applied to rows and columns alike: `P A P^T (P x) = P b`,
    // and `P C P^T` for the chained solve. Component j of x is component `inv[j]` of `P x`.
    let perm = order::elimination_order(&column_lists(sys.rows));
    if is_identity(&perm) {
        return solve_eliminating(sys, fallback);
    }
    let inv = order::inverse(&perm);
    let rows = order::permute_entries(sys.rows, &perm);
    let c_int = if sys.c_int.is_empty() {
        Vec::new()
    } else {
        order::permute_entries(sys.c_int, &perm)
    };
    let b_int: Vec<Vec<Int>> = sys
        .b_int
        .iter()
        .map(|b| perm.iter().map(|&old| b[old as usize].clone()).collect())
        .collect();
    let components: Vec<Vec<usize>> = sys
        .components
        .iter()
        .map(|c| c.iter().map(|&j| inv[j] as usize).collect())
        .collect();
    let sys = IntegerSystem {
        rows: &rows,
        b_int: &b_int,
        c_int: &c_int,
        chained_rhs: sys.chained_rhs,
        components: &components,
    };
    solve_eliminating(sys, fallback)
}

/// The multi-modular elimination of [`solve_scaled`], in the given order.
pub(super) fn solve_eliminating(
    sys: IntegerSystem<'_>,
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let IntegerSystem {
        rows,
        b_int,
        c_int,
        chained_rhs,
        components,
    } = sys;
    let n = rows.len();
    let pattern = Pattern::from_rows(n, |i| rows[i].iter().map(|(j, _)| *j));
    let positions = pattern.positions(|i| rows[i].iter().map(|(j, _)| *j));
    let needs = bits_needed(rows, b_int, chained_rhs.map(|k| (c_int, k)));
    let need = needs.iter().copied().fold(0.0, f64::max);
    // The modulus each solution was rebuilt with (it stops taking primes once determined).
    let mut moduli: Vec<Option<BigUint>> = vec![None; needs.len()];

    let mut det = BigUint::zero();
    let mut values: Vec<Vec<BigUint>> = components
        .iter()
        .map(|c| vec![BigUint::zero(); c.len()])
        .collect();
    let mut modulus = BigUint::one();
    let mut bits = 0.0;
    let mut failures = 0;
    let mut y: Vec<u64> = vec![0; n];
    let stage =
        crate::progress::Stage::begin("eliminating modulo primes", Some(need.ceil() as u64));
    for p in primes() {
        if bits > need {
            break;
        }
        stage.advance(bits as u64);
        let m = Mont::new(p);
        let residues = rows.iter().flatten().map(|(_, x)| x.residue(p));
        let vals = pattern.values_mod(&m, residues, &positions);
        let Some(lu) = Numeric::factor(m, &pattern, vals) else {
            failures += 1;
            if failures >= 3 {
                return fallback();
            }
            continue;
        };
        // inv_pivot holds 1 / pivot: det = prod pivot = 1 / prod inv_pivot.
        let det_m = m.inv(
            lu.inv_pivot[..n]
                .iter()
                .fold(m.enter(1), |d, &v| m.mul(d, v)),
        );
        let garner = Garner::new(m, &modulus);
        let step = |x: &mut BigUint, r: u64| garner.add(x, r);
        step(&mut det, m.leave(det_m));
        let mut feed = Vec::new();
        for (k, ((b, vals), comps)) in b_int.iter().zip(&mut values).zip(components).enumerate() {
            let feeds = chained_rhs == Some(k);
            let done = bits > needs[k];
            if done && moduli[k].is_none() {
                moduli[k] = Some(modulus.clone());
            }
            if done && !feeds {
                // This solution is already determined: only the chained one needs more primes.
                continue;
            }
            for (yi, bi) in y.iter_mut().zip(b) {
                *yi = m.enter(bi.residue(p));
            }
            lu.solve(m, &pattern, &mut y);
            if !done {
                for (x, &c) in vals.iter_mut().zip(comps) {
                    step(x, m.leave(m.mul(y[c], det_m)));
                }
            }
            if feeds {
                feed.clone_from(&y);
            }
        }
        if chained_rhs.is_some() {
            // y = C x (mod p), then A z = y; det(block) = det(A)^2.
            times_mod(&m, c_int, &feed, &mut y);
            lu.solve(m, &pattern, &mut y);
            let det2 = m.mul(det_m, det_m);
            let last = values.len() - 1;
            for (x, &c) in values[last].iter_mut().zip(&components[last]) {
                step(x, m.leave(m.mul(y[c], det2)));
            }
        }
        modulus *= p;
        bits += (p as f64).log2();
    }
    Ok(over_determinant(values, moduli, &modulus, det, b_int.len()))
}

/// `y = C x (mod p)` for the rows of C and x in Montgomery form.
fn times_mod(m: &Mont, c_int: &[IntRow], x: &[u64], y: &mut [u64]) {
    for (yi, row) in y.iter_mut().zip(c_int) {
        let mut acc = 0;
        for (j, v) in row {
            let term = m.mul(m.enter(v.residue(m.p)), x[*j as usize]);
            acc = m.sub(acc, m.p - term);
            if acc == m.p {
                acc = 0;
            }
        }
        *yi = acc;
    }
}

/// The solutions from their symmetric residues: each numerator over det A (the chained one,
/// after the first `first`, over det(A)^2), each residue taken modulo the modulus it was rebuilt
/// with (`moduli`, or else the whole `modulus`).
fn over_determinant(
    values: Vec<Vec<BigUint>>,
    moduli: Vec<Option<BigUint>>,
    modulus: &BigUint,
    det: BigUint,
    first: usize,
) -> Vec<Vec<BigRational>> {
    let det = symmetric(det, modulus);
    let det2 = &det * &det;
    values
        .into_iter()
        .zip(moduli)
        .enumerate()
        .map(|(k, (vals, m))| {
            let d = if k < first { &det } else { &det2 };
            let m = m.as_ref().unwrap_or(modulus);
            vals.into_iter()
                .map(|x| BigRational::new(symmetric(x, m), d.clone()))
                .collect()
        })
        .collect()
}

/// Whether a permutation leaves every index in place.
pub(super) fn is_identity(perm: &[u32]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| i as u32 == p)
}

/// The column indices of each row.
pub(super) fn column_lists<T>(rows: &[Vec<(u32, T)>]) -> Vec<Vec<u32>> {
    rows.iter()
        .map(|r| r.iter().map(|(j, _)| *j).collect())
        .collect()
}
