//! Tests of the merged rows (`rows.rs`): the counts route against the fraction route, on every
//! built-in board, on random boards and on chains whose merged finish shortens the
//! denominator; what the tiers and the spectral Q derive from the counts against what they
//! derive from the fractions, bit for bit; and the fallback for large denominators.

use num_bigint::BigInt;
use proptest::prelude::*;

use super::*;
use crate::analysis::spectral::TransientQ;
use crate::board::{builtin, builtin_names, Board};
use crate::chain::{Turn, TurnModel, TurnRewards};
use crate::exact::certified::{CertifiedChain, FloatChain};
use crate::num::decimal::to_f64;
use crate::test_util::random_board;

/// The chain `distribution` steps for `board` (the lumped chain on a stateful board).
fn chain_of(board: &Board) -> Option<Chain<crate::game::PlayerState>> {
    board
        .is_stateful()
        .then(|| crate::analysis::stateful::law_chain(board))
}

/// Checks the counts route against the fraction route on `chain`, when its rows have a small
/// denominator, and returns whether they do. Second method: the fractions as the chain holds
/// them, merged in big rationals, and everything derived from them as before the counts route.
fn counts_agree_with_fractions<S: ChainState>(name: &str, chain: &Chain<S>) -> bool {
    let fractions = MergedRows::fractions(chain);
    let Probabilities::Fractions(exact) = &fractions.probabilities else {
        panic!("{name}: the fraction route holds fractions");
    };
    // The least common denominator of the merged fractions, as the u128 tier finds it.
    let lcm = exact.iter().try_fold(BigInt::from(1), |d, p| {
        let d = num_integer::Integer::lcm(&d, p.denom());
        (d < BigInt::from(1u64 << COUNT_BITS)).then_some(d)
    });
    let Some(counts) = MergedRows::counts(chain) else {
        assert_eq!(lcm, None, "{name}: a small denominator not read as counts");
        assert!(matches!(
            MergedRows::new(chain).probabilities,
            Probabilities::Fractions(_)
        ));
        return false;
    };
    let Probabilities::Counts { d, counts: a } = &counts.probabilities else {
        panic!("{name}: the counts route holds counts");
    };
    assert_eq!(lcm, Some(BigInt::from(*d)), "{name}: D");
    assert_eq!(
        (
            counts.transient,
            counts.start,
            &counts.row_start,
            &counts.col
        ),
        (
            fractions.transient,
            fractions.start,
            &fractions.row_start,
            &fractions.col
        ),
        "{name}"
    );
    assert_eq!(a.len(), exact.len(), "{name}");
    for (&a, p) in a.iter().zip(exact) {
        assert_eq!(BigRational::new(a.into(), (*d).into()), *p, "{name}");
        assert_eq!(
            nearest_f64(a, *d).to_bits(),
            to_f64(p).to_bits(),
            "{name}: {p}"
        );
    }
    // Debug prints every f64 so that it reads back to the same bits: equal text, equal bits.
    let same = |what: &str, x: String, y: String| assert_eq!(x, y, "{name}: {what}");
    same(
        "the u128 tier",
        format!("{:?}", CertifiedChain::from_rows(&counts)),
        format!("{:?}", CertifiedChain::from_rows(&fractions)),
    );
    same(
        "the float tier",
        format!("{:?}", FloatChain::from_rows(&counts)),
        format!("{:?}", FloatChain::from_rows(&fractions)),
    );
    same(
        "Q",
        format!("{:?}", TransientQ::from_rows(chain, &counts)),
        format!("{:?}", TransientQ::of_fractions(chain)),
    );
    same(
        "Q read alone",
        format!("{:?}", TransientQ::new(chain)),
        format!("{:?}", TransientQ::of_fractions(chain)),
    );
    true
}

#[test]
fn the_counts_give_what_the_fractions_give_on_every_builtin_board() {
    let mut counted = Vec::new();
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        let small = match chain_of(&board) {
            Some(chain) => counts_agree_with_fractions(name, &chain),
            None => counts_agree_with_fractions(name, &Chain::for_board(&board)),
        };
        if small {
            counted.push(name);
        }
    }
    // efi's D = 5 6^14 (six rolls again, up to 14 sixes in a turn) is 39 bits; one die on
    // Milton Bradley gives 6.
    for name in ["efi", "milton-bradley"] {
        assert!(counted.contains(&name), "{name} not read as counts");
    }
}

/// Two two-faced dice of weights a and b on a 30-square board: denominator `(a + b)^2`.
fn two_dice_board(a: u64, b: u64) -> Board {
    let text = format!(
        "size = 30\nsnakes = [[27, 5], [19, 2]]\nladders = [[4, 14]]\n\
         [rules]\ndie = [{a}, {b}]\ndice = 2\n"
    );
    Board::from_toml_str(&text, "two-dice").unwrap()
}

#[test]
fn a_large_denominator_falls_back_to_the_fractions() {
    // `(2^20 - 1)^2`, the largest square below 2^40: counts. `2^40` (the first past the
    // bound, a word): fractions. A die weighted 1,000,000 to 1 rolling again up to 64 times:
    // `1,000,001^64`, past a word: fractions. Each checked against the fraction route.
    let below = Chain::for_board(&two_dice_board((1 << 19) - 1, 1 << 19));
    assert!(counts_agree_with_fractions("below", &below));
    let at = Chain::for_board(&two_dice_board((1 << 19) - 1, (1 << 19) + 1));
    assert!(!counts_agree_with_fractions("at", &at));
    let tiny_odds = Board::from_toml_str(
        "size = 30\n[rules]\ndie = [1000000, 1]\nroll_again = 64\n",
        "tiny-odds",
    )
    .unwrap();
    assert!(!counts_agree_with_fractions(
        "tiny odds",
        &Chain::for_board(&tiny_odds)
    ));
    // The tiers and Q on the fallback are those of the fractions (they are the same code).
    for chain in [&at, &Chain::for_board(&tiny_odds)] {
        let rows = MergedRows::new(chain);
        assert!(matches!(rows.probabilities, Probabilities::Fractions(_)));
        let fractions = MergedRows::fractions(chain);
        assert_eq!(
            format!("{:?}", CertifiedChain::from_rows(&rows)),
            format!("{:?}", CertifiedChain::from_rows(&fractions))
        );
        assert_eq!(
            format!("{:?}", TransientQ::new(chain)),
            format!("{:?}", TransientQ::of_fractions(chain))
        );
    }
}

/// A chain with two final states (2 and 3) from two transient ones: `rows[i]` lists
/// `(j, (n, d))` for the probability `n / d` of moving from i to j.
struct TwoFinishes {
    rows: [Vec<(usize, (u64, u64))>; 2],
}

impl TurnModel for TwoFinishes {
    type State = usize;
    fn start(&self) -> usize {
        0
    }
    fn is_final(&self, s: &usize) -> bool {
        *s >= 2
    }
    fn turn(&self, s: &usize) -> Turn<usize> {
        let next = self.rows[*s]
            .iter()
            .map(|&(j, (n, d))| (j, BigRational::new(n.into(), d.into())))
            .collect();
        Turn {
            next,
            rewards: TurnRewards::default(),
            endless: false,
        }
    }
}

#[test]
fn merging_the_finishes_can_shorten_the_denominator() {
    // By hand: the raw denominators are 3, 6, 2 (lcm 6) and, in the second chain, 3 and 2^41
    // (lcm 3 2^41, past the bound); merged, every row's finish is a third or two: D = 3.
    let sixths = TwoFinishes {
        rows: [
            vec![(1, (1, 3)), (2, (1, 6)), (3, (1, 2))],
            vec![(0, (1, 3)), (2, (1, 3)), (3, (1, 3))],
        ],
    };
    let huge = 1u64 << 41;
    let halves = TwoFinishes {
        rows: [
            vec![(1, (1, 3)), (2, (1, huge)), (3, (2 * huge - 3, 3 * huge))],
            vec![(0, (1, 3)), (2, (2, 3))],
        ],
    };
    for (name, model) in [("sixths", sixths), ("halves", halves)] {
        let chain = Chain::build(&model);
        assert!(counts_agree_with_fractions(name, &chain));
        let rows = MergedRows::new(&chain);
        let Probabilities::Counts { d, counts } = &rows.probabilities else {
            panic!("{name}: counts");
        };
        assert_eq!((*d, &rows.col), (3, &vec![1, 2, 0, 2]), "{name}");
        assert_eq!(counts.iter().sum::<u64>(), 6, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_counts_give_what_the_fractions_give_on_random_boards(text in random_board()) {
        let board = Board::from_toml_str(&text, "random");
        prop_assume!(board.is_ok());
        let board = board.unwrap();
        match chain_of(&board) {
            Some(chain) => counts_agree_with_fractions("random", &chain),
            None => counts_agree_with_fractions("random", &Chain::for_board(&board)),
        };
    }
}
