//! The links form ([`super::LinkedChain`]) against the whole turns of [`Chain::for_board`]
//! (the compound move, summed by another route): every turn composed from the links equals
//! the whole turn's row, exactly, on every built-in board without state under unlimited
//! roll-again and on the 1,000-square benchmark board; and by hand on a small board.

use num_rational::BigRational;
use num_traits::Zero;

use super::{LinkedChain, LinkedTurn};
use crate::board::{Board, RollAgain, RuleOverrides, Square};
use crate::chain::Chain;
use crate::game::Capabilities;
use crate::test_util::{board, q};

/// The whole turn of every transient state of `linked`, composed from its links
/// (`T(x) = c / d + (g / d) T(y)`) as maps from squares to probabilities.
fn composed(linked: &LinkedChain<Square>) -> Vec<Vec<(Square, BigRational)>> {
    let t = linked.transient_count();
    let mut rows: Vec<Option<Vec<BigRational>>> = vec![None; t];
    let n = linked.states().len();
    fn row_of(
        i: usize,
        linked: &LinkedChain<Square>,
        rows: &mut Vec<Option<Vec<BigRational>>>,
        n: usize,
    ) -> Vec<BigRational> {
        if let Some(row) = &rows[i] {
            return row.clone();
        }
        let mut row = vec![BigRational::zero(); n];
        match &linked.turns()[i] {
            LinkedTurn::Whole(entries) => {
                for (j, p) in entries {
                    row[*j] += p;
                }
            }
            LinkedTurn::Link(l) => {
                let d = BigRational::from_integer(l.denom.into());
                for &(j, c) in &l.ends {
                    row[j] += BigRational::from_integer(c.into()) / &d;
                }
                let w = BigRational::from_integer(l.goes_on.into()) / &d;
                for (j, p) in row_of(l.next, linked, rows, n).iter().enumerate() {
                    row[j] += &w * p;
                }
            }
        }
        rows[i] = Some(row.clone());
        row
    }
    (0..t)
        .map(|i| {
            row_of(i, linked, &mut rows, n)
                .into_iter()
                .enumerate()
                .filter(|(_, p)| !p.is_zero())
                .map(|(j, p)| (linked.states()[j], p))
                .collect()
        })
        .collect()
}

/// Checks that `b`'s links form composes to its whole turns; returns its linked states.
fn assert_composes_to_whole_turns(b: &Board) -> usize {
    let linked = LinkedChain::for_board(b).expect("a links form");
    let chain = Chain::for_board(b);
    let rows = composed(&linked);
    let mut checked = 0;
    for (i, s) in chain.states()[..chain.transient_count()].iter().enumerate() {
        let k = linked.states()[..linked.transient_count()]
            .binary_search(s)
            .expect("every turn-start state is a state of the links form");
        let whole: Vec<(Square, BigRational)> = chain
            .row(i)
            .iter()
            .map(|(j, p)| (chain.states()[*j], p.clone()))
            .collect();
        assert_eq!(rows[k], whole, "{}: square {s}", b.name());
        checked += 1;
    }
    assert_eq!(
        linked.states()[linked.start()],
        chain.states()[chain.start()]
    );
    assert_eq!(
        linked.one_turn_finish_bound(),
        chain.one_turn_finish_bound()
    );
    assert_eq!(linked.always_ends(), chain.always_ends());
    assert!(checked > 0);
    linked
        .turns()
        .iter()
        .filter(|t| matches!(t, LinkedTurn::Link(_)))
        .count()
}

#[test]
fn a_small_board_by_hand() {
    // size 6, die 3, bounce, unlimited (the cycle 4 -> 5 -> 4 of `chain/mod.rs`'s tests):
    // from 0: 1 -> 1, 2 -> 2 end (1/3 each); 3 -> 3 goes on (1/3). From 3: 1 -> 4, 2 -> 5
    // end, 3 -> 6 finishes. From 4: a 3 bounces to 5 and goes on; from 5 a 3 bounces to 4
    // and goes on: a cycle, one of whose squares is summed whole (worked in `chain/mod.rs`:
    // from 4 the turn ends on 5 or 6, 1/2 each).
    let b =
        board("size = 6\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n");
    let linked = LinkedChain::for_board(&b).unwrap();
    assert_eq!(linked.states(), &[0, 1, 2, 3, 4, 5, 6]);
    let LinkedTurn::Link(l) = &linked.turns()[0] else {
        panic!("square 0 is linked")
    };
    assert_eq!((l.next, l.goes_on, l.denom), (3, 1, 3));
    assert_eq!(l.ends, vec![(1, 1), (2, 1)]);
    let rows = composed(&linked);
    // From 4 (worked by hand in `chain/mod.rs`): 5 and 6, 1/2 each.
    assert_eq!(rows[4], vec![(5, q(1, 2)), (6, q(1, 2))]);
    // From 0: 1/3 to 1, 1/3 to 2, and 1/3 times the turn from 3, which ends on 4, 5 or 6
    // (1/3 each): 1/9 each.
    assert_eq!(
        rows[0],
        vec![
            (1, q(1, 3)),
            (2, q(1, 3)),
            (4, q(1, 9)),
            (5, q(1, 9)),
            (6, q(1, 9))
        ]
    );
    assert_composes_to_whole_turns(&b);
}

#[test]
fn the_links_compose_to_the_whole_turns_on_every_board_without_state() {
    let mut boards: Vec<Board> = crate::board::builtin_names()
        .map(|name| crate::board::builtin(name).unwrap())
        .collect();
    let path = format!(
        "{}/benches/boards/gen-1000-again.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    boards.push(Board::from_toml_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap());
    let unlimited = RuleOverrides {
        roll_again: Some(RollAgain::Unlimited),
        ..RuleOverrides::default()
    };
    let (mut checked, mut linked) = (0, 0);
    for b in boards.iter().filter(|b| Capabilities::of(b).stateless) {
        let Ok(b) = b.with_rules(&unlimited) else {
            continue;
        };
        if LinkedChain::for_board(&b).is_none() {
            // Random tiles: a top throw's move is a draw, which goes on to several squares.
            continue;
        }
        linked += assert_composes_to_whole_turns(&b);
        checked += 1;
    }
    assert!(checked >= 5, "{checked} boards");
    // Efi alone links about 60 of its 82 states.
    assert!(linked > 1000, "{linked} linked states");
}
