//! The fast exact solver against the reference: on random boards (and generated boards) the
//! exact solve (p-adic lifting) of the roll-level system gives exactly the fractions of the turn
//! chain solved by rational Gaussian elimination (`SparseLu`, `solve_dense`); on random sparse
//! systems `solve` equals `solve_dense`.

use crate::analysis::expectation::{expect_with, Expectation};
use crate::board::{Board, RollAgain, Rules};
use crate::chain::Chain;
use crate::exact::solve::{
    identity_minus, solve, solve_dense, transient_matrix, Chained, SparseLu, SparseRows, System,
    Wanted,
};
use crate::generate::{generate, GenerateOptions};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::test_util::random_board;

/// The expectations by the reference route: the turn chain (compound moves) and rational
/// elimination. Returns (turns, variance, rolls, snakes, ladders, climbed, slid, per square).
type Reference = (Vec<BigRational>, Vec<(u32, BigRational)>);

fn reference(board: &Board) -> Option<Reference> {
    let chain = Chain::for_board(board);
    if !chain.always_ends() {
        return None;
    }
    let n = chain.transient_count();
    let s = chain.start();
    if s >= n {
        return None;
    }
    let lu = SparseLu::factor(&transient_matrix(&chain)).expect("nonsingular");
    let t = lu.solve(&vec![BigRational::one(); n]);
    let u = lu.solve(&t);
    let two = BigRational::from_integer(BigInt::from(2));
    let var = &u[s] * &two - &t[s] - &t[s] * &t[s];
    let mut values = vec![t[s].clone(), var];
    let rewards: [fn(&crate::chain::TurnRewards) -> &BigRational; 5] = [
        |r| &r.rolls,
        |r| &r.snakes,
        |r| &r.ladders,
        |r| &r.climbed,
        |r| &r.slid,
    ];
    for f in rewards {
        let b: Vec<BigRational> = (0..n).map(|i| f(chain.rewards(i)).clone()).collect();
        values.push(lu.solve(&b)[s].clone());
    }
    let per_square = chain.states()[..n].iter().copied().zip(t).collect();
    Some((values, per_square))
}

/// The fast route, twice: the start's values alone (p-adic lifting on the transposed system)
/// and with every square (the expected turns lifted as a whole vector on A, the start's other
/// values on the transposed system); both must give the same fractions. (The vector route is
/// compared with the multi-modular elimination in the unit tests of `exact::solve`.)
fn fast(board: &Board) -> Option<Reference> {
    let values = |e: &crate::analysis::expectation::Expectations| {
        vec![
            e.turns.clone(),
            e.variance.clone(),
            e.rolls.clone(),
            e.snakes.clone(),
            e.ladders.clone(),
            e.climbed.clone(),
            e.slid.clone(),
        ]
    };
    let Expectation::Finite(all) = expect_with(board, true) else {
        return None;
    };
    let Expectation::Finite(start) = expect_with(board, false) else {
        panic!("the start-only route calls a finite game infinite");
    };
    assert_eq!(values(&start), values(&all), "the two fast routes differ");
    Some((values(&all), all.per_square))
}

fn assert_same(board: &Board, text: &str) {
    let r = reference(board);
    let f = fast(board);
    match (r, f) {
        (Some(r), Some(f)) => assert!(r == f, "fast and reference solutions differ on\n{text}"),
        (None, None) => {}
        // The game starts on the finish: both say zero turns, nothing to compare.
        (None, Some((v, _))) => assert!(v.iter().all(Zero::is_zero), "{text}"),
        (Some(_), None) => panic!("the fast path calls a finite game infinite:\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_fast_solver_gives_the_reference_fractions_on_random_boards(text in random_board()) {
        let Ok(board) = Board::from_toml_str(&text, "random") else { return Ok(()); };
        assert_same(&board, &text);
    }

    #[test]
    fn solve_equals_dense_elimination_on_random_sparse_systems(
        n in 1usize..12,
        entries in prop::collection::vec((0usize..12, 0usize..12, -40i64..40, 1i64..30), 0..40),
        rhs in prop::collection::vec((-50i64..50, 1i64..20), 12),
        pick in 0usize..12,
    ) {
        // A = 3 I + random entries (possibly singular); b random; C = the random part.
        let mut a: SparseRows = (0..n).map(|i| vec![(i, BigRational::from_integer(3.into()))]).collect();
        let mut c: SparseRows = vec![Vec::new(); n];
        for (i, j, num, den) in entries {
            let (i, j) = (i % n, j % n);
            let v = BigRational::new(num.into(), den.into());
            a[i].push((j, v.clone()));
            c[i].push((j, v));
        }
        let b: Vec<BigRational> = rhs[..n].iter().map(|(p, q)| BigRational::new((*p).into(), (*q).into())).collect();
        // solve_dense takes Q with A = I - Q.
        let q: SparseRows = identity_minus(&a);
        let expected = solve_dense(&q, &b);
        let got = solve(System::Rational { a: &a, rhs: std::slice::from_ref(&b), chained: Some(Chained { c: &c, rhs: 0, wanted: Wanted::All }) }, &[Wanted::All]);
        match (expected, got) {
            (Ok(x), Ok(v)) => {
                prop_assert_eq!(&v[0], &x);
                // The chained solve: A y = C x.
                let cx: Vec<BigRational> = c.iter().map(|row| row.iter().fold(BigRational::zero(), |s, (j, v)| s + v * &x[*j])).collect();
                let y = solve_dense(&q, &cx).unwrap();
                prop_assert_eq!(&v[1], &y);
                // One component (the p-adic lifting route): the same fractions.
                let k = [pick % n];
                let one = solve(System::Rational { a: &a, rhs: std::slice::from_ref(&b), chained: Some(Chained { c: &c, rhs: 0, wanted: Wanted::Some(&k) }) }, &[Wanted::Some(&k)]).unwrap();
                prop_assert_eq!(&one[0][0], &x[k[0]]);
                prop_assert_eq!(&one[1][0], &y[k[0]]);
            }
            (Err(_), Err(_)) => {
                let k = [pick % n];
                prop_assert!(solve(System::rational(&a, std::slice::from_ref(&b)), &[Wanted::Some(&k)]).is_err());
            }
            (e, g) => prop_assert!(false, "dense {:?} vs exact {:?}", e.is_ok(), g.is_ok()),
        }
    }
}

#[test]
fn generated_boards_give_the_reference_fractions() {
    for (size, seed, roll_again) in [
        (30, 1, RollAgain::None),
        (60, 2, RollAgain::Unlimited),
        (45, 3, RollAgain::Forfeit(2)),
        (80, 4, RollAgain::Unlimited),
    ] {
        let g = generate(&GenerateOptions {
            size,
            snakes: (size / 10) as usize,
            ladders: (size / 12) as usize,
            seed,
            rules: Rules {
                roll_again,
                ..Rules::default()
            },
            ..GenerateOptions::plain(0, 0, 0, 0)
        })
        .unwrap();
        assert_same(&g.board, &g.text);
    }
}

#[test]
fn solve_of_i_minus_q_matches_the_reference_on_the_built_in_boards() {
    for name in ["milton-bradley", "efi", "tiny"] {
        let board = crate::board::builtin(name).unwrap();
        let chain = Chain::for_board(&board);
        let q = transient_matrix(&chain);
        let ones = vec![BigRational::one(); q.len()];
        let x = solve(
            System::rational(&identity_minus(&q), std::slice::from_ref(&ones)),
            &[Wanted::All],
        )
        .unwrap();
        assert_eq!(x[0], SparseLu::factor(&q).unwrap().solve(&ones), "{name}");
    }
}

#[test]
fn the_start_only_and_per_square_routes_agree_on_1000_squares() {
    // From 500 unknowns up the chained block of the lifting runs on a second thread; the
    // per-square route lifts every square's expected turns as one vector instead. Both must give
    // the same fractions.
    for roll_again in [RollAgain::None, RollAgain::Unlimited] {
        let g = generate(&GenerateOptions {
            size: 1000,
            snakes: 20,
            ladders: 20,
            seed: 3,
            rules: Rules {
                roll_again,
                ..Rules::default()
            },
            ..GenerateOptions::plain(0, 0, 0, 0)
        })
        .unwrap();
        fast(&g.board).expect("the generated board is finite");
    }
}
