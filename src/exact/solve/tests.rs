//! Unit tests of the exact solvers: every route against the reference rational solvers and
//! against values derived by hand.

use super::float::solve_float_direct;
use super::*;
use crate::test_util::q;

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
fn the_float_solves_match_the_hand_solutions() {
    // The cycle above as I - Q: x_i - x_{i+1}/2 = b_i. For b = 1: every x_i = 2. For
    // b = e_0: x2 = x0/2, x1 = x2/2 = x0/4, x0 - x0/8 = 1, so x0 = 8/7 and x1 = 2/7. The
    // chained solve A y = x (C = I, fed by b = 1) is y = 2 A^-1 1 = 4 everywhere.
    let a: Vec<Vec<(usize, f64)>> = vec![
        vec![(0, 1.0), (1, -0.5)],
        vec![(1, 1.0), (2, -0.5)],
        vec![(2, 1.0), (0, -0.5)],
    ];
    let identity: Vec<Vec<(usize, f64)>> = (0..3).map(|i| vec![(i, 1.0)]).collect();
    let rhs = vec![vec![1.0; 3], vec![1.0, 0.0, 0.0]];
    let close = |x: f64, y: f64| (x - y).abs() < 1e-14;
    let (x, at) = solve_float_at(&a, &rhs, (&identity, 0), 1).unwrap();
    assert!(x.iter().all(|&v| close(v, 2.0)), "{x:?}");
    assert!(
        close(at[0], 2.0) && close(at[1], 2.0 / 7.0) && close(at[2], 4.0),
        "{at:?}"
    );
    let all = solve_float(&a, &rhs, Some((&identity, 0))).unwrap();
    assert!(
        close(all[1][0], 8.0 / 7.0) && close(all[2][2], 4.0),
        "{all:?}"
    );
    let direct = solve_float_direct(&a, &rhs, Some((&identity, 0))).unwrap();
    assert!(close(direct[1][1], 2.0 / 7.0), "{direct:?}");
    // A zero diagonal: no iterative solve, and elimination meets a zero pivot.
    let swap = vec![vec![(1, 1.0)], vec![(0, 1.0)]];
    let two: Vec<Vec<(usize, f64)>> = (0..2).map(|i| vec![(i, 1.0)]).collect();
    assert!(solve_float_at(&swap, &[vec![1.0; 2]], (&two, 0), 0).is_none());
}

#[test]
fn reports_a_singular_system() {
    // A state that only returns to itself never finishes.
    let m: SparseRows = vec![vec![(0, q(1, 1))]];
    assert_eq!(SparseLu::factor(&m).unwrap_err(), Singular { state: 0 });
    assert!(solve_dense(&m, &[q(1, 1)]).is_err());
}

/// `(I - Q) x_k = b_k`, every component, through [`solve`].
fn absorbing(q: &SparseRows, rhs: &[Vec<BigRational>]) -> Result<Vec<Vec<BigRational>>, Singular> {
    solve(
        System::rational(&identity_minus(q), rhs),
        &vec![Wanted::All; rhs.len()],
    )
}

#[test]
fn solve_gives_the_hand_solution_of_both_kinds_of_system_and_the_chained_one() {
    // Worked by hand: A = [[2, -1], [0, 3]], b = (1, 1): x1 = 1/3, 2 x0 - 1/3 = 1, x0 = 2/3.
    // Chained with C = I: A y = x, y1 = 1/9, 2 y0 - 1/9 = 2/3, y0 = 7/18.
    let int_a: Vec<Vec<(usize, i64)>> = vec![vec![(0, 2), (1, -1)], vec![(1, 3)]];
    let int_c: Vec<Vec<(usize, i64)>> = vec![vec![(0, 1)], vec![(1, 1)]];
    let rat = |m: &[Vec<(usize, i64)>]| -> SparseRows {
        m.iter()
            .map(|r| r.iter().map(|&(j, v)| (j, q(v, 1))).collect())
            .collect()
    };
    let (a, c) = (rat(&int_a), rat(&int_c));
    let expected = vec![vec![q(2, 3), q(1, 3)], vec![q(7, 18), q(1, 9)]];
    let rhs = [vec![q(1, 1); 2]];
    let chained = Chained {
        c: &c,
        rhs: 0,
        wanted: Wanted::All,
    };
    let system = System::Rational {
        a: &a,
        rhs: &rhs,
        chained: Some(chained),
    };
    assert_eq!(solve(system, &[Wanted::All]).unwrap(), expected);
    let int_rhs = [vec![1i64; 2]];
    let system = System::Integer {
        a: &int_a,
        rhs: &int_rhs,
        chained: Some((&int_c, 0, Wanted::Some(&[1, 0]))),
    };
    assert_eq!(
        solve(system, &[Wanted::Some(&[1])]).unwrap(),
        vec![vec![q(1, 3)], vec![q(1, 9), q(7, 18)]]
    );
}

#[test]
fn the_modular_solver_matches_the_hand_solutions() {
    // The same two systems as above, worked by hand: (4, 2) and (2, 2, 2).
    let m: SparseRows = vec![vec![(0, q(1, 2)), (1, q(1, 2))], vec![(1, q(1, 2))]];
    let ones = vec![q(1, 1); 2];
    assert_eq!(
        absorbing(&m, &[ones]).unwrap(),
        vec![vec![q(4, 1), q(2, 1)]]
    );
    let m: SparseRows = vec![vec![(1, q(1, 2))], vec![(2, q(1, 2))], vec![(0, q(1, 2))]];
    assert_eq!(
        absorbing(&m, &[vec![q(1, 1); 3]]).unwrap(),
        vec![vec![q(2, 1); 3]]
    );
}

#[test]
fn the_modular_solver_reports_a_singular_system() {
    let m: SparseRows = vec![vec![(0, q(1, 1))]];
    assert_eq!(
        absorbing(&m, &[vec![q(1, 1)]]).unwrap_err(),
        Singular { state: 0 }
    );
}

#[test]
fn the_column_bounds_hold_on_a_hand_solved_system() {
    // A = [[2, -1], [0, 3]], b = (1, 1): det A = 6, x = (2/3, 1/3), det(A) x = (4, 2).
    // Columns (2, 0) and (-1, 3): |det A| <= 2 sqrt(10), |det(A) x_j| <= sqrt(2) 2 sqrt(10).
    // Chained with C = I: y = A^-1 x = (7/18, 1/9), det(A)^2 y = (14, 4); the block's
    // columns give det(A)^2 <= sqrt(5) sqrt(11) 2 sqrt(10) (and <= (2 sqrt(10))^2).
    let rows = vec![vec![(0, 2), (1, -1)], vec![(1, 3)]];
    let a = csr::Csr::from_rows(2, &rows);
    let c = csr::Csr::from_rows(2, &[vec![(0, 1)], vec![(1, 1)]]);
    let got = log2_column_bounds(&a, &[vec![1, 1]], Some((&c, 0))).expect("small entries");
    let det = (2.0 * 10f64.sqrt()).log2();
    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    assert!(close(got[0].0, det) && close(got[0].1, det + 0.5));
    let second = (5f64.sqrt() * 11f64.sqrt()).log2();
    assert!(close(got[1].0, (2.0 * det).min(det + second)));
    assert!(close(got[1].1, 0.5 + second + det));
    // And they bound the real numbers.
    assert!(got[0].0.exp2() >= 6.0 && got[0].1.exp2() >= 4.0);
    assert!(got[1].0.exp2() >= 36.0 && got[1].1.exp2() >= 14.0);
    // A zero column: no column bound.
    let zero = csr::Csr::from_rows(2, &[vec![(0, 1)], vec![(0, 1)]]);
    assert!(log2_column_bounds(&zero, &[vec![1, 1]], None).is_none());
}

#[test]
fn the_lifting_route_matches_the_hand_solutions() {
    // 2 (I - Q) with Q = [[1/2, 1/2], [0, 1/2]] and b = 2: t = (4, 2) as above. Chained with
    // C = 2 I: 2 (I - Q) u = 2 t gives u1 = 2 / (1/2) = 4 and u0 / 2 - u1 / 2 = 4, u0 = 12.
    let csr = |rows: &[&[(usize, i64)]]| {
        let rows: Vec<Vec<(usize, i64)>> = rows.iter().map(|r| r.to_vec()).collect();
        csr::Csr::from_rows(rows.len(), &rows)
    };
    let a = csr(&[&[(0, 1), (1, -1)], &[(1, 1)]]);
    let c = csr(&[&[(0, 2)], &[(1, 2)]]);
    let b = vec![vec![2, 2]];
    for s in 0..2 {
        let comps = vec![vec![s], vec![s]];
        let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
        let (t, u) = if s == 0 { (4, 12) } else { (2, 4) };
        assert_eq!(got, vec![vec![q(t, 1)], vec![q(u, 1)]], "component {s}");
    }
    // Entries too large for machine-word residuals: lifting declines.
    let huge = csr(&[&[(0, 1 << 61)], &[(1, 1)]]);
    assert!(solve_by_lifting(&huge, &b, None, None, &[vec![0]]).is_none());
}

/// Integer rows as a [`csr::Csr`].
fn csr_of(rows: &[Vec<(usize, i64)>]) -> csr::Csr {
    csr::Csr::from_rows(rows.len(), rows)
}

/// The multi-modular elimination on the same integer system, for comparison.
fn by_elimination(
    a: &csr::Csr,
    b: &[Vec<i64>],
    c: Option<&csr::Csr>,
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
) -> Vec<Vec<BigRational>> {
    let b_int: Vec<Vec<Int>> = b
        .iter()
        .map(|b| b.iter().map(|&v| Int::Small(v)).collect())
        .collect();
    let c_int = c.map(csr::Csr::to_int_rows).unwrap_or_default();
    let rows = a.to_int_rows();
    let sys = IntegerSystem {
        rows: &rows,
        b_int: &b_int,
        c_int: &c_int,
        chained_rhs,
        components,
    };
    solve_by_elimination(sys, || panic!("the primes decide these systems")).expect("nonsingular")
}

#[test]
fn the_vector_route_matches_a_hand_solution() {
    // A 5-cycle: x_i - x_{i+1}/2 = b_i (indices mod 5), as A = 2 (I - Q) with b = 2 e_0.
    // By hand: x_4 = x_0/2, x_3 = x_0/4, x_2 = x_0/8, x_1 = x_0/16 and x_0 = 1 + x_1/2 =
    // 1 + x_0/32, so x_0 = 32/31 and x = (32, 2, 4, 8, 16)/31. Chained (C = 2 I, fed by x):
    // y = (I - Q)^-1 x and (I - Q)^-1 = (32/31) sum_{k<5} 2^-k Q'^k (Q' the shift), so
    // y_0 = (32/31) (x_0 + x_1/2 + x_2/4 + x_3/8 + x_4/16) = (32/31) (36/31) = 1152/961.
    let rows: Vec<Vec<(usize, i64)>> = (0..5).map(|i| vec![(i, 2), ((i + 1) % 5, -1)]).collect();
    let a = csr_of(&rows);
    let c = csr_of(&(0..5).map(|i| vec![(i, 2)]).collect::<Vec<_>>());
    let b = vec![vec![2, 0, 0, 0, 0]];
    let x: Vec<BigRational> = [32, 2, 4, 8, 16].iter().map(|&v| q(v, 31)).collect();
    // The vector route alone, components in any order and repeated.
    let comps = [4, 0, 2, 2, 1, 3];
    let got = vector::solve_vectors(
        &a,
        &[vector::VectorSolution {
            b: &b[0],
            components: &comps,
            num_bits: 20.0,
            den_bits: 20.0,
        }],
    )
    .expect("the vector route applies");
    let want: Vec<BigRational> = comps.iter().map(|&j| x[j].clone()).collect();
    assert_eq!(parts(&got), parts(&[want]));
    // Through the dispatch: every component (more than MAX_LIFTED_COMPONENTS) as a vector,
    // the chained value at 0 on the transposed system.
    let comps = vec![(0..5).collect::<Vec<usize>>(), vec![0]];
    let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
    assert_eq!(parts(&got), parts(&[x, vec![q(1152, 961)]]));
    assert_eq!(
        parts(&got),
        parts(&by_elimination(&a, &b, Some(&c), Some(0), &comps))
    );
}

/// Numerators and denominators as stored: `BigRational`'s `==` compares values, so this is
/// what shows a fraction left unreduced.
fn parts(x: &[Vec<BigRational>]) -> Vec<Vec<(BigInt, BigInt)>> {
    x.iter()
        .map(|v| {
            v.iter()
                .map(|q| (q.numer().clone(), q.denom().clone()))
                .collect()
        })
        .collect()
}

/// A random nonsingular sparse integer system (diagonally dominant rows, entries of both
/// signs) of n unknowns; with `split`, rows from `split` on only use columns from `split` on,
/// so those components have denominators dividing a smaller determinant than the others.
fn random_system(
    next: &mut impl FnMut() -> u64,
    n: usize,
    split: Option<usize>,
) -> Vec<Vec<(usize, i64)>> {
    (0..n)
        .map(|i| {
            let lo = split.filter(|&k| i >= k).unwrap_or(0);
            let mut row = Vec::new();
            let mut sum = 0;
            for _ in 0..(next() % 4) {
                let j = lo + (next() as usize) % (n - lo);
                if j != i {
                    let v = (next() % 7) as i64 - 3;
                    sum += v.abs();
                    row.push((j, v));
                }
            }
            row.push((i, sum + 1 + (next() % 3) as i64));
            row
        })
        .collect()
}

#[test]
fn the_vector_route_equals_the_multi_modular_elimination_on_random_systems() {
    // Sizes below and above order::SMALL (so the fill-reducing permutation is exercised),
    // right-hand sides of both signs, components in shuffled order (so that the first one
    // rebuilt may have a small denominator, and later ones need the reconstruction and a
    // new common denominator), and a chained solve at two components on the transposed
    // system alongside.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut rebuilt = 0;
    for case in 0..60 {
        let n = if case % 6 == 5 {
            150 + case
        } else {
            5 + case % 30
        };
        let split = (case % 2 == 1).then(|| n / 2 + case % 3);
        let rows = random_system(&mut next, n, split);
        let a = csr_of(&rows);
        let c = csr_of(&random_system(&mut next, n, None));
        let b: Vec<Vec<i64>> = (0..2)
            .map(|_| (0..n).map(|_| (next() % 11) as i64 - 5).collect())
            .collect();
        let mut all: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            all.swap(i, (next() as usize) % (i + 1));
        }
        // The first solution wants every component (rebuilt from the seeds by substitution),
        // the second a few more than MAX_LIFTED_COMPONENTS (fewer than the seeds: each
        // rebuilt from its own digits).
        let some: Vec<usize> = all.iter().take(5 + case % 4).copied().collect();
        let comps = vec![all, some, vec![n - 1, 0]];
        let got = solve_by_lifting(&a, &b, Some(&c), Some(1), &comps).expect("lifting applies");
        assert_eq!(
            parts(&got),
            parts(&by_elimination(&a, &b, Some(&c), Some(1), &comps)),
            "case {case}, n = {n}"
        );
        rebuilt += n;
    }
    assert!(rebuilt > 1000);
}

#[test]
fn the_vector_route_equals_the_multi_modular_elimination_on_1000_squares() {
    // The turn chain of a generated 1,000-square board (960 states, with fill and a
    // non-identity order), rows scaled by 6 to integers: every square's expected turns as a
    // vector, the start's second moment chained, against the elimination modulo many primes.
    use crate::generate::{generate, GenerateOptions};
    let g = generate(&GenerateOptions::plain(1000, 20, 20, 3)).unwrap();
    let chain = Chain::for_board(&g.board);
    let a_q = identity_minus(&transient_matrix(&chain));
    let n = a_q.len();
    let six = BigRational::from_integer(6.into());
    let rows: Vec<Vec<(usize, i64)>> = a_q
        .iter()
        .map(|r| {
            r.iter()
                .map(|(j, v)| {
                    let x = v * &six;
                    assert!(x.is_integer(), "turn-chain probabilities are sixths");
                    (*j, i64::try_from(x.to_integer()).unwrap())
                })
                .collect()
        })
        .collect();
    let a = csr_of(&rows);
    let c = csr_of(&(0..n).map(|i| vec![(i, 6)]).collect::<Vec<_>>());
    let b = vec![vec![6i64; n]];
    let s = chain.start();
    let comps = vec![(0..n).rev().collect::<Vec<usize>>(), vec![s]];
    let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
    assert_eq!(
        parts(&got),
        parts(&by_elimination(&a, &b, Some(&c), Some(0), &comps))
    );
}

#[test]
fn the_modular_solver_handles_negative_and_huge_values() {
    // A = [[3, -1], [2^200, 5]], b = (1, -2^201 / 7): solved by hand with Cramer's rule,
    // det = 15 + 2^200, x0 = (5 - 2^201/7) / det, x1 = (3 (-2^201/7) - 2^200) / det.
    let big = BigRational::from_integer(BigInt::from(1) << 200usize);
    let b1 = -(&big * q(2, 7));
    let a: SparseRows = vec![
        vec![(0, q(3, 1)), (1, q(-1, 1))],
        vec![(0, big.clone()), (1, q(5, 1))],
    ];
    let det = q(15, 1) + &big;
    let x0 = (q(5, 1) + &b1) / &det;
    let x1 = (q(3, 1) * &b1 - &big) / &det;
    let got = solve(System::rational(&a, &[vec![q(1, 1), b1]]), &[Wanted::All]).unwrap();
    assert_eq!(got, vec![vec![x0, x1]]);
}
