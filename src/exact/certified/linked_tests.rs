//! Tests of the stepping through links (`linked.rs`): the bounds against the exact integer
//! stepping (`exact::step`) on efi, every built-in board under unlimited roll-again and random
//! boards, and the route's choice and value bits worked by hand.

use proptest::prelude::*;

use super::super::tests::contains_the_exact_law;
use super::super::{CertifiedChain, MergedRows, Weights};
use crate::board::{builtin, builtin_names, Board, RollAgain, RuleOverrides};
use crate::chain::Chain;
use crate::exact::step::IntegerChain;
use crate::test_util::random_board;

fn unlimited(b: &Board) -> Option<Board> {
    b.with_rules(&RuleOverrides {
        roll_again: Some(RollAgain::Unlimited),
        ..RuleOverrides::default()
    })
    .ok()
}

#[test]
fn efi_steps_through_its_links_with_a_fraction_of_the_transitions() {
    let efi = Chain::for_board(&builtin("efi").unwrap());
    let rows = MergedRows::new(&efi);
    let (linked, whole) = (CertifiedChain::new(&efi), CertifiedChain::from_rows(&rows));
    let links = linked.links.as_ref().expect("efi takes the links");
    assert!(whole.links.is_none());
    assert_eq!(whole.transitions(), 2530);
    assert!(4 * (linked.transitions() + links.steps.len()) < whole.transitions());
    // D = 5 6^14 (floor(log2 D) = 38) on both; H <= 6/5 on the links, so one bit less:
    // V = 126 - 38 - 1.
    assert_eq!((linked.value_bits, whole.value_bits), (87, 88));
    let Weights::Counts { reciprocal, .. } = linked.weights else {
        panic!("efi's counts")
    };
    assert_eq!(reciprocal, (1u128 << 127) / (5 * 6u128.pow(14)));
}

#[test]
fn both_routes_enclose_efis_exact_law_past_the_tail_laws_turn() {
    // Second method: the exact integer stepping, 300 turns (the tail law reads turn ~244).
    let efi = Chain::for_board(&builtin("efi").unwrap());
    let ic = IntegerChain::new(&efi);
    let whole = CertifiedChain::from_rows(&MergedRows::new(&efi));
    contains_the_exact_law(&whole, &ic, 300, 25);
    contains_the_exact_law(&CertifiedChain::new(&efi), &ic, 300, 25);
}

#[test]
fn every_built_in_board_under_unlimited_roll_again_is_enclosed_through_its_links() {
    let mut linked = 0;
    for name in builtin_names() {
        let b = builtin(name).unwrap();
        let Some(b) = unlimited(&b).filter(|b| !b.is_stateful()) else {
            continue;
        };
        let chain = Chain::for_board(&b);
        let cc = CertifiedChain::new(&chain);
        linked += usize::from(cc.links.is_some());
        contains_the_exact_law(&cc, &IntegerChain::new(&chain), 120, 20);
    }
    // milton-bradley, milton-bradley-48 and efi (about 400 entries against 2,500 to 2,900);
    // random-tiles' chance squares branch (one link), tiny has none.
    assert!(linked >= 3, "{linked} boards took the links");
}

#[test]
fn a_board_without_links_keeps_its_whole_turns() {
    let mb = Chain::for_board(&builtin("milton-bradley").unwrap());
    let cc = CertifiedChain::new(&mb);
    assert!(cc.links.is_none());
    assert_eq!(cc.transitions(), MergedRows::new(&mb).col.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_boards_under_unlimited_roll_again_are_enclosed(text in random_board()) {
        let b = Board::from_toml_str(&text, "random").unwrap();
        if let Some(b) = unlimited(&b) {
            let chain = Chain::for_board(&b);
            if chain.start() < chain.transient_count() {
                let cc = CertifiedChain::new(&chain);
                contains_the_exact_law(&cc, &IntegerChain::new(&chain), 60, 10);
            }
        }
    }
}
