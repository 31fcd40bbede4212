//! The links ([`super`]) against the whole turns: every link is an identity between rows of
//! the chain, exactly, and the links never close a cycle, on every chain built with its rolls
//! kept across turns, which equals the chain built turn by turn from scratch (built-in boards
//! and random boards under unlimited roll-again).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::board::{builtin, builtin_names, Board, RollAgain};
use crate::chain::run::tests::{loaded, random_board};
use crate::chain::{Chain, ChainState};
use crate::game::{Capabilities, SingleBoard};
use crate::test_util::{board, unlimited};

/// Checks every link of `chain`: `row(i) = ends / denom + (goes_on / denom) row(next)` as
/// exact fractions, each end listed once in order, and no cycle among the links; returns the
/// number of linked states.
pub(in crate::chain) fn assert_links_hold<S: ChainState>(chain: &Chain<S>) -> usize {
    let t = chain.transient_count();
    let mut linked = 0;
    for i in 0..t {
        let Some(link) = chain.link(i) else { continue };
        linked += 1;
        assert!(link.next < t && link.next != i, "state {i}");
        assert!(link.ends.windows(2).all(|w| w[0].0 < w[1].0), "state {i}");
        let d = BigRational::from_integer(link.denom.into());
        let mut row = vec![BigRational::zero(); chain.states().len()];
        for &(j, c) in &link.ends {
            row[j] += BigRational::from_integer(c.into()) / &d;
        }
        let w = BigRational::from_integer(link.goes_on.into()) / &d;
        for (j, p) in chain.row(link.next) {
            row[*j] += &w * p;
        }
        let expected: Vec<(usize, BigRational)> = row
            .into_iter()
            .enumerate()
            .filter(|(_, p)| !p.is_zero())
            .collect();
        assert_eq!(chain.row(i), &expected[..], "state {i}");
    }
    // Following links from any state ends within t steps.
    for i in 0..t {
        let (mut at, mut steps) = (i, 0);
        while let Some(link) = chain.link(at) {
            at = link.next;
            steps += 1;
            assert!(steps <= t, "a cycle of links through state {i}");
        }
    }
    linked
}

#[test]
fn efi_links_most_of_its_turns_and_each_link_is_exact() {
    let efi = Chain::for_board(&builtin("efi").unwrap());
    let linked = assert_links_hold(&efi);
    // 82 transient states; the squares whose top throw bounces back into a cycle (95 to 99)
    // and the squares whose six lands on a final square or a non-state are summed whole.
    assert_eq!(efi.transient_count(), 82);
    assert!(linked >= 60, "{linked} linked");
    // Worked by hand: square 1's six lands on 7, its other faces on 2, 3, 4, 5, 6 (efi has no
    // jump from those), each 1/6.
    let one = efi.index_of(&1).unwrap();
    let link = efi.link(one).unwrap();
    assert_eq!(efi.states()[link.next], 7);
    assert_eq!((link.goes_on, link.denom), (1, 6));
    let ends: Vec<u32> = link.ends.iter().map(|&(j, _)| efi.states()[j]).collect();
    assert_eq!(ends, [2, 3, 4, 5, 6]);
}

#[test]
fn a_board_without_unlimited_roll_again_has_no_links() {
    let mb = Chain::for_board(&builtin("milton-bradley").unwrap());
    assert!((0..mb.transient_count()).all(|i| mb.link(i).is_none()));
}

#[test]
fn a_cycle_of_top_throws_leaves_one_square_of_it_unlinked() {
    // Bounce on a 12-square board with a three-sided die: from 10 a three goes to 13, back to
    // 11; from 11 to 14, back to 10: the run 10, 11 closes a cycle.
    let b =
        board("size = 12\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n");
    let chain = Chain::for_board(&b);
    assert_links_hold(&chain);
    let linked = |s: u32| chain.link(chain.index_of(&s).unwrap()).is_some();
    assert!(
        !(linked(10) && linked(11)),
        "both squares of the cycle linked"
    );
}

/// `b`'s chain by [`Chain::for_board`] (its in-turn rolls kept across turns under unlimited
/// roll-again) equals the chain whose turns are each summed from scratch, and its links hold;
/// returns the number of transient states.
fn same_chain(b: &Board) -> usize {
    let kept = Chain::for_board(b);
    let whole = Chain::build(&SingleBoard::new(b));
    assert_eq!(kept.states(), whole.states(), "{}", b.name());
    assert_eq!(kept.start(), whole.start(), "{}", b.name());
    assert_eq!(kept.rows(), whole.rows(), "{}", b.name());
    for i in 0..kept.transient_count() {
        let r = kept.rewards(i);
        assert_eq!(r, whole.rewards(i), "{}", b.name());
        // Lowest terms with a positive denominator, as the whole turns give them (`==` on
        // values would not see a fraction left unreduced).
        let rewards = [
            &r.rolls, &r.snakes, &r.ladders, &r.climbed, &r.slid, &r.points,
        ];
        for p in kept.row(i).iter().map(|(_, p)| p).chain(rewards) {
            assert!(p.denom() > &BigInt::zero(), "{}: {p}", b.name());
            assert!(p.numer().gcd(p.denom()).is_one(), "{}: {p}", b.name());
        }
    }
    assert_eq!(kept.rows.endless(), whole.rows.endless(), "{}", b.name());
    assert_links_hold(&kept);
    kept.transient_count()
}

#[test]
fn every_built_in_board_under_unlimited_roll_again_gives_the_same_chain() {
    let mut checked = 0;
    for name in builtin_names() {
        let b = builtin(name).unwrap();
        if !Capabilities::of(&b).stateless {
            continue;
        }
        if let Some(b) = unlimited(&b) {
            assert!(same_chain(&b) > 0, "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} boards");
}

#[test]
fn cycles_branches_and_endless_turns_give_the_same_chain() {
    // A bounce cycle at the finish (efi's), a chance square whose draw goes on two ways, an
    // extra-turn square, and a die whose only way on is a cycle of top throws (endless turns).
    for text in [
        "size = 30\nsnakes = [[17, 4]]\nladders = [[3, 22]]\n[rules]\ndie = 6\n\
         overshoot = \"bounce\"\nroll_again = \"unlimited\"\n",
        "size = 12\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n",
        "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n",
        "size = 8\n[rules]\ndie = [0, 1]\nroll_again = \"unlimited\"\n",
    ] {
        same_chain(&board(text));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_boards_under_unlimited_roll_again_give_the_same_chain(
        size in 4u32..80,
        die in 2u32..7,
        overshoot in 0usize..3,
        jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..14),
    ) {
        let overshoot = ["stay", "bounce", "allow"][overshoot];
        if let Some(b) = random_board(size, &die.to_string(), RollAgain::Unlimited, overshoot, &jumps) {
            prop_assert!(same_chain(&b) > 0);
        }
    }

    /// Loaded dice (weights up to 10^6, some 0): numbers past a word part-way along the runs,
    /// where a square keeps no link.
    #[test]
    fn random_boards_with_heavy_dice_give_the_same_chain(
        size in 4u32..40,
        weights in proptest::collection::vec(0u64..=1_000_000, 2..7),
        overshoot in 0usize..3,
        jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..8),
    ) {
        let overshoot = ["stay", "bounce", "allow"][overshoot];
        let die = loaded(&weights);
        if let Some(b) = die.and_then(|die| random_board(size, &die, RollAgain::Unlimited, overshoot, &jumps)) {
            prop_assert!(same_chain(&b) > 0);
        }
    }

}
