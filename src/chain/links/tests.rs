//! The links ([`super`]) against the whole turns: every link is an identity between rows of
//! the chain, exactly, and the links never close a cycle. The turn-summing tests
//! (`rest/tests.rs`) run [`assert_links_hold`] on every chain they build.

use num_rational::BigRational;
use num_traits::Zero;

use crate::board::builtin;
use crate::chain::{Chain, ChainState};
use crate::test_util::board;

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
