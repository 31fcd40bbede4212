//! The fill-reducing elimination order (`exact::order`): on the real boards' roll-level systems
//! it is a permutation, never has more fill than square order (and less on the generated
//! 1,000-square board), and solving the permuted system gives exactly the fractions of the
//! unpermuted one; on random M-matrices the permuted solve equals the dense reference.

use crate::board::{builtin, Board};
use crate::chain::RollLevel;
use crate::exact::order::{
    elimination_order, entries_after_fill, inverse, markowitz, permute_entries,
};
use crate::exact::solve::{solve, solve_dense, SparseRows, System, Wanted};
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;
use std::path::Path;

/// The roll-level system of a board, `A = D (I - S - R)` with the expected-turns right-hand
/// side `D - (weight of the rolls that go on)`, built from `RollLevel` as
/// `roll_level_system` in src/analysis/expectation.rs builds it.
fn roll_level(board: &Board) -> (Vec<Vec<(usize, i64)>>, Vec<i64>) {
    let rl = RollLevel::new(board).expect("roll-level rules");
    let d = rl.denominator() as i64;
    let mut a = Vec::new();
    let mut b = Vec::new();
    for (i, moves) in rl.moves().iter().enumerate() {
        let mut row = vec![(i, d)];
        let mut again = 0;
        for m in moves {
            if let Some(j) = m.to {
                row.push((j, -(m.weight as i64)));
            }
            if m.again {
                again += m.weight as i64;
            }
        }
        a.push(row);
        b.push(d - again);
    }
    (a, b)
}

fn pattern(a: &[Vec<(usize, i64)>]) -> Vec<Vec<u32>> {
    a.iter()
        .map(|r| {
            let mut c: Vec<u32> = r.iter().map(|(j, _)| *j as u32).collect();
            c.sort_unstable();
            c.dedup();
            c
        })
        .collect()
}

fn is_permutation(perm: &[u32]) -> bool {
    let mut sorted = perm.to_vec();
    sorted.sort_unstable();
    sorted.iter().enumerate().all(|(i, &p)| p as usize == i)
}

/// Solves `a x = b` exactly after permuting it by `perm` (new -> old), and returns x in the
/// original numbering.
fn solve_permuted(a: &[Vec<(usize, i64)>], b: &[i64], perm: &[u32]) -> Vec<BigRational> {
    let rows: Vec<Vec<(u32, i64)>> = a
        .iter()
        .map(|r| r.iter().map(|&(j, v)| (j as u32, v)).collect())
        .collect();
    let pa: Vec<Vec<(usize, i64)>> = permute_entries(&rows, perm)
        .into_iter()
        .map(|r| r.into_iter().map(|(j, v)| (j as usize, v)).collect())
        .collect();
    let pb: Vec<i64> = perm.iter().map(|&old| b[old as usize]).collect();
    let y = solve(System::integer(&pa, &[pb]), &[Wanted::All])
        .expect("nonsingular")
        .remove(0);
    let inv = inverse(perm);
    (0..a.len())
        .map(|old| y[inv[old] as usize].clone())
        .collect()
}

fn boards() -> Vec<(String, Board)> {
    let mut out: Vec<(String, Board)> = ["milton-bradley", "efi", "tiny"]
        .iter()
        .map(|n| (n.to_string(), builtin(n).unwrap()))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in [
        "boards/milton-bradley-48.toml",
        "benches/boards/gen-1000.toml",
    ] {
        out.push((path.into(), Board::load(&root.join(path)).unwrap()));
    }
    out
}

#[test]
fn the_order_never_adds_fill_on_the_boards() {
    for (name, board) in boards() {
        let (a, _) = roll_level(&board);
        let rows = pattern(&a);
        let n = rows.len();
        let perm = elimination_order(&rows);
        assert!(is_permutation(&perm), "{name}");
        let square = entries_after_fill(&rows, &(0..n as u32).collect::<Vec<_>>());
        let ordered = entries_after_fill(&rows, &perm);
        assert!(ordered <= square, "{name}: {ordered} > {square}");
        if name.ends_with("gen-1000.toml") {
            // Measured (docs/solver.md): 13,981 entries in square order, 11,675 ordered.
            assert!(ordered < square * 9 / 10, "{name}: {ordered} vs {square}");
        }
    }
}

#[test]
fn the_permuted_roll_level_system_has_the_same_solution() {
    // The built-in boards are below `SMALL`, so take the Markowitz order itself: a real
    // permutation of a real system.
    for name in ["milton-bradley", "efi"] {
        let board = builtin(name).unwrap();
        let (a, b) = roll_level(&board);
        let (perm, _) = markowitz(&pattern(&a));
        assert_ne!(perm, (0..a.len() as u32).collect::<Vec<_>>(), "{name}");
        let plain = solve(
            System::integer(&a, std::slice::from_ref(&b)),
            &[Wanted::All],
        )
        .unwrap()
        .remove(0);
        let permuted = solve_permuted(&a, &b, &perm);
        assert_eq!(plain, permuted, "{name}");
    }
}

/// A random nonsingular M-matrix: off-diagonal entries in -3..=-1 on a random pattern, each
/// diagonal entry 1 more than the sum of its row's off-diagonal magnitudes (strictly diagonally
/// dominant), and an integer right-hand side.
fn m_matrix() -> impl Strategy<Value = (Vec<Vec<(usize, i64)>>, Vec<i64>)> {
    (1usize..25).prop_flat_map(|n| {
        (
            prop::collection::vec(prop::collection::vec((0..n, 1i64..4), 0..5), n),
            prop::collection::vec(-5i64..6, n),
        )
            .prop_map(move |(off, b)| {
                let a = off
                    .into_iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut cols: Vec<(usize, i64)> =
                            r.into_iter().filter(|&(j, _)| j != i).collect();
                        cols.sort_unstable();
                        cols.dedup_by_key(|(j, _)| *j);
                        let diag = 1 + cols.iter().map(|(_, v)| v).sum::<i64>();
                        let mut row = vec![(i, diag)];
                        row.extend(cols.into_iter().map(|(j, v)| (j, -v)));
                        row
                    })
                    .collect();
                (a, b)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_permuted_m_matrix_solves_to_the_reference(
        (a, b) in m_matrix(),
        shuffle in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let n = a.len();
        let perm = if shuffle {
            // Any symmetric permutation keeps the pivots positive, not only a good one.
            let mut p: Vec<u32> = (0..n as u32).collect();
            let mut s = seed | 1;
            for i in (1..n).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                p.swap(i, (s % (i as u64 + 1)) as usize);
            }
            p
        } else {
            markowitz(&pattern(&a)).0
        };
        // The reference: dense rational elimination on (I - Q) x = b with Q = I - A.
        let q: SparseRows = a
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.iter()
                    .map(|&(j, v)| {
                        let delta = i64::from(i == j);
                        (j, BigRational::from_integer(BigInt::from(delta - v)))
                    })
                    .collect()
            })
            .collect();
        let rhs: Vec<BigRational> = b.iter().map(|&v| BigRational::from_integer(v.into())).collect();
        let reference = solve_dense(&q, &rhs).expect("an M-matrix is nonsingular");
        prop_assert_eq!(solve_permuted(&a, &b, &perm), reference);
    }
}
