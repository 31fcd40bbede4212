//! The certified-decimal distribution (`ladders distribution` without `--exact` or `--json`)
//! against the exact one rounded: equal digit for digit, every field as the reports show it, on
//! every built-in board, on random boards, on boards built to put terms on rounding boundaries
//! and quantile levels, and on one where the float tier must give up.
//! The second method is the exact integer stepping of the same chain, rounded by
//! `num::decimal::fixed` (which its own tests check against hand-worked fractions).

use ladders::analysis::{DistributionOptions, Mean};
use ladders::analysis::{ShownDistribution, ShownTerm};
use ladders::board::{builtin, builtin_names, Board};
use ladders::internals::board_distribution;
use ladders::internals::distribution;
use ladders::internals::Chain;
use ladders::internals::{board_shown_distribution, certified_distribution};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use proptest::prelude::*;

use crate::common::random_board;

fn options(turns: Option<usize>) -> DistributionOptions {
    let mut options = DistributionOptions::default();
    options.turns = turns;
    options
}

/// Asserts that `got` shows as `want` does: every field equal but the two floats the certified
/// distribution need not take from the exact tails, `p_f64` past the rows the chart draws
/// (within a relative 2^-20 there) and an approximate mean (the same three decimals, as the
/// report prints it).
fn assert_shows_the_same<S: std::fmt::Debug + PartialEq>(
    mut got: ShownDistribution<S>,
    want: &ShownDistribution<S>,
    what: &str,
) {
    let chart = want.quantiles.last().and_then(|q| q.turns);
    let chart = chart.unwrap_or(want.turns()).clamp(1, want.turns().max(1));
    for (i, (g, w)) in got.terms.iter_mut().zip(&want.terms).enumerate() {
        if i >= chart && g.p_f64 != w.p_f64 {
            let close = (g.p_f64 - w.p_f64).abs() <= w.p_f64 * 2f64.powi(-20);
            assert!(close, "{what}: P(T = {}) {} {}", i + 1, g.p_f64, w.p_f64);
            g.p_f64 = w.p_f64;
        }
    }
    if let (Mean::About(g), Mean::About(w)) = (&mut got.mean, &want.mean) {
        assert_eq!(format!("{g:.3}"), format!("{w:.3}"), "{what}");
        *g = *w;
    }
    assert_eq!(&got, want, "{what}");
}

/// Asserts that the certified decimals equal the exact distribution rounded.
fn same(board: &Board, turns: Option<usize>, digits: usize) {
    let chain = Chain::for_board(board);
    let exact = distribution(&chain, &options(turns)).unwrap();
    let want = ShownDistribution::from_exact(exact, digits, false);
    let got = certified_distribution(&chain, &options(turns), digits).unwrap();
    assert_shows_the_same(got, &want, &format!("{} at {digits} digits", board.name()));
}

/// True when some `P(T = n)` or `P(T > n)` times 10^digits is an integer plus exactly 1/2: a
/// term on a rounding boundary, which the certified bounds cannot decide alone.
fn has_a_rounding_tie(board: &Board, turns: usize, digits: u32) -> bool {
    let chain = Chain::for_board(board);
    let d = distribution(&chain, &options(Some(turns))).unwrap();
    let ten = BigInt::from(10).pow(digits);
    d.terms.iter().any(|t| {
        [&t.p, &t.survives].iter().any(|x| {
            let twice = *x * BigRational::from_integer(&ten * 2);
            twice.is_integer() && twice.to_integer().is_odd()
        })
    })
}

#[test]
fn certified_decimals_equal_the_exact_ones_on_every_builtin_board() {
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        for digits in [0, 3, 12, 19] {
            same(&board, None, digits);
        }
        same(&board, Some(150), 12);
    }
}

#[test]
fn terms_on_rounding_boundaries_are_decided_exactly() {
    // A 2-sided die: every probability is a dyadic fraction, so many terms are exactly
    // halfway between two decimals at a few digits (checked, so that the test exercises the
    // exact fallback), e.g. P(T = 2) = 1/4 = 0.25 rounds to 0.2 at one digit (ties to even).
    let boards = [
        "size = 4\n[rules]\ndie = 2\novershoot = \"allow\"\n",
        "size = 6\nsnakes = [[5, 1]]\n[rules]\ndie = 2\n",
        "size = 9\nsnakes = [[7, 2]]\nladders = [[3, 6]]\n[rules]\ndie = 4\n",
    ];
    for text in boards {
        let board = Board::from_toml_str(text, "boundary").unwrap();
        let mut ties = 0;
        for digits in 0..6u32 {
            ties += usize::from(has_a_rounding_tie(&board, 40, digits));
            same(&board, Some(40), digits as usize);
            same(&board, None, digits as usize);
        }
        assert!(ties > 0, "{text}: no term on a rounding boundary");
    }
}

#[test]
fn quantile_levels_and_mode_ties_hit_exactly_are_decided_exactly() {
    // boards/tiny.toml: P(T > 3) = 4/8 is exactly the median's level 1/2, and P(T = 2) =
    // P(T = 3) = 1/4 tie for the mode (hand-derived in src/analysis/distribution.rs).
    let tiny = builtin("tiny").unwrap();
    let got = certified_distribution(&Chain::for_board(&tiny), &options(None), 12).unwrap();
    assert_eq!(got.quantiles[0].turns, Some(3));
    assert_eq!(got.mode, Some((2, Some("0.250000000000".to_string()))));
    same(&tiny, None, 12);
}

#[test]
fn stateful_boards_get_the_same_decimals() {
    // A lost turn and a one-use ladder: the stateful chain (src/analysis/stateful.rs).
    let text = "size = 12\nlose_turn = [4]\nladders = [[3, 9]]\nonce = [3]\nsnakes = [[10, 2]]\n[rules]\ndie = 3\n";
    let board = Board::from_toml_str(text, "stateful").unwrap();
    assert!(board.is_stateful());
    for digits in [2, 12] {
        let exact = board_distribution(&board, &options(None)).unwrap();
        let want = ShownDistribution::from_exact(exact, digits, false);
        let got = board_shown_distribution(&board, &options(None), digits, true).unwrap();
        assert_shows_the_same(got, &want, "stateful");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn certified_decimals_equal_the_exact_ones_on_random_boards(
        text in random_board(),
        digits in 0usize..14,
        turns in prop::option::of(1usize..80),
    ) {
        let board = Board::from_toml_str(&text, "random");
        prop_assume!(board.is_ok());
        let board = board.unwrap();
        let chain = Chain::for_board(&board);
        let exact = distribution(&chain, &options(turns));
        prop_assume!(exact.is_ok());
        let want = ShownDistribution::from_exact(exact.unwrap(), digits, false);
        let got = certified_distribution(&chain, &options(turns), digits).unwrap();
        assert_shows_the_same(got, &want, &text);
    }
}

#[test]
fn a_board_where_the_float_tier_gives_up_gets_the_same_decimals() {
    // A loaded two-faced die (the 2 has weight 1 in 1,000,001) on 200 squares: square 1 + 2n
    // after n turns has probability 10^-6n, below 2^-900 of the surviving mass from n = 46,
    // where the float tier stops (src/exact/certified/float/tests.rs) and the u128 tier
    // steps from the start.
    let board =
        Board::from_toml_str("size = 200\n[rules]\ndie = [1000000, 1]\n", "loaded").unwrap();
    for digits in [3, 12] {
        same(&board, Some(120), digits);
    }
}

#[test]
fn the_approximate_mean_and_the_late_chart_floats_are_close_to_the_exact_ones() {
    // The two floats the float tier may leave inexact, on a board whose mean is approximate
    // (the chain alone, no exact solve): efi over 300 turns (its 99.9 % quantile is near 100).
    let board = builtin("efi").unwrap();
    same(&board, Some(300), 12);
}

#[test]
fn a_row_shows_its_cells_however_they_are_stored() {
    // Written by hand: a table cell that is its CSV cell is stored once; one that differs after
    // it. Rows equal when their text is, and their debug form shows the text.
    let shared = ShownTerm::new(3, ["0.5", "0.25", "0.75"], ["0.5", "0.25", "0.75"], 0.5);
    assert_eq!(shared.table(), ["0.5", "0.25", "0.75"]);
    assert_eq!(shared.csv(), ["0.5", "0.25", "0.75"]);
    let sci = ShownTerm::new(4, ["3.3e-9", "1 - 2e-5", ""], ["0.0", "1.0", ""], 3.3e-9);
    assert_eq!(sci.table(), ["3.3e-9", "1 - 2e-5", ""]);
    assert_eq!(sci.csv(), ["0.0", "1.0", ""]);
    assert_ne!(shared, sci);
    assert_eq!(sci.clone(), sci);
    let debug = format!("{sci:?}");
    assert!(
        debug.contains(r#"table: ["3.3e-9", "1 - 2e-5", ""]"#),
        "{debug}"
    );
}
