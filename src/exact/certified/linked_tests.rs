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

#[test]
fn a_loaded_die_takes_the_fixed_point_route_through_the_links() {
    // Weights 3, 5, 7, 11 on 30 squares with a bounce: the whole turns of the squares whose
    // top throws cycle at the finish have denominators past 2^40, the ending rolls 26.
    let b = crate::test_util::board(
        "size = 30\nsnakes = [[17, 4]]\nladders = [[3, 22]]\n[rules]\ndie = [3, 5, 7, 11]\n\
         overshoot = \"bounce\"\nroll_again = \"unlimited\"\n",
    );
    let chain = Chain::for_board(&b);
    let cc = CertifiedChain::new(&chain);
    assert!(cc.links.is_some());
    assert!(matches!(cc.weights, Weights::Fixed(_)));
    // V = 124 less the amplification bits: H <= 1 / (1 - 11/26) < 2.
    assert_eq!(cc.value_bits, 123);
    contains_the_exact_law(&cc, &IntegerChain::new(&chain), 150, 10);
}

/// `text` with its die replaced by the loaded die of `weights` when `loaded`.
fn with_die(text: &str, weights: &[u64], loaded: bool) -> String {
    let die = weights
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    text.lines()
        .map(|line| match line.starts_with("die = ") && loaded {
            true => format!("die = [{die}]\n"),
            false => format!("{line}\n"),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Fair dice (mostly the counts route) and loaded dice of weights up to 10^6 (denominators
    /// past 2^40: the fixed-point route), every board under unlimited roll-again.
    #[test]
    fn random_boards_under_unlimited_roll_again_are_enclosed(
        text in random_board(),
        weights in proptest::collection::vec(1u64..=1_000_000, 2..5),
        loaded: bool,
    ) {
        let b = Board::from_toml_str(&with_die(&text, &weights, loaded), "random");
        prop_assume!(b.is_ok());
        let b = unlimited(&b.unwrap());
        prop_assume!(b.is_some());
        let chain = Chain::for_board(&b.unwrap());
        prop_assume!(chain.start() < chain.transient_count());
        let cc = CertifiedChain::new(&chain);
        contains_the_exact_law(&cc, &IntegerChain::new(&chain), 60, 10);
    }
}
