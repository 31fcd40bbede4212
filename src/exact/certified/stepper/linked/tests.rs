//! Tests of the stepping through links (`linked.rs`): the bounds against the exact integer
//! stepping (`exact::step`) on efi, every built-in board under unlimited roll-again and random
//! boards, and the route's choice and value bits worked by hand.

use proptest::prelude::*;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::super::tests::contains_the_exact_law;
use super::super::{CertifiedChain, MergedRows, Weights, Words};
use super::{follow, link_steps, merge_finish, merged_len};
use crate::board::{builtin, builtin_names};
use crate::chain::{Chain, Link};
use crate::exact::step::IntegerChain;
use crate::test_util::{random_board, unlimited, unlimited_chain};

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
fn the_final_states_merge_into_the_finish_and_the_count_ahead_agrees() {
    // Worked by hand, t = 5: columns 5 and past are final states, merged into one entry in
    // column 5 with their numerators added; the count made before the rows are written
    // (`merged_len`) is the length the merge leaves.
    type Row = &'static [(usize, u64)];
    type Merged = &'static [(u32, u64)];
    let cases: [(Row, Merged); 4] = [
        (&[(1, 2), (3, 1), (5, 1), (7, 2)], &[(1, 2), (3, 1), (5, 3)]),
        (&[(1, 1), (2, 1)], &[(1, 1), (2, 1)]),
        (&[(6, 1), (9, 4)], &[(5, 5)]),
        (&[(0, 3), (8, 1)], &[(0, 3), (5, 1)]),
    ];
    for (ends, merged) in cases {
        let mut row: Vec<(u32, u64)> = ends.iter().map(|&(j, c)| (j.min(5) as u32, c)).collect();
        merge_finish(&mut row, 5);
        assert_eq!(row, merged, "{ends:?}");
        assert_eq!(merged_len(ends, 5), merged.len(), "{ends:?}");
    }
}

#[test]
fn a_board_without_links_keeps_its_whole_turns() {
    let mb = Chain::for_board(&builtin("milton-bradley").unwrap());
    let cc = CertifiedChain::new(&mb);
    assert!(cc.links.is_none());
    assert_eq!(cc.transitions(), MergedRows::new(&mb).col.len());
}

#[test]
fn the_sums_through_the_links_are_enclosed_exactly() {
    // Second method: exact fractions. States 0 -> 1 -> 2 with weights 1/3 and 1/6 (neither a
    // dyadic fraction: every product rounds), a renormalisation of 2 bits pending, and values
    // with no error: Y = x + Y W, that is Y0 = 4 x0, Y1 = 4 x1 + Y0 / 3, Y2 = 4 x2 + Y1 / 6,
    // must lie in [y, y + ceil(error)] at each state.
    let link = |next, goes_on, denom| Link {
        next,
        goes_on,
        ends: Vec::new(),
        denom,
    };
    let (l0, l1) = (link(1, 1, 3), link(2, 1, 6));
    let (links, h) = link_steps(&[Some(&l0), Some(&l1), None], 3).unwrap();
    // H_0 = 1 + (1 + 1/6) / 3 = 25/18 < 2: one bit.
    assert_eq!(h, 1);
    assert_eq!(links.sinks, [2]);
    let x = [(1u128 << 100) + 1, 5, 7];
    let mut v = Words::zeros(4);
    for (i, &xi) in x.iter().enumerate() {
        v.set(i, xi, 0.0);
    }
    follow(&links, &mut v, 3, 1.0 + 2f64.powi(-40), 2);
    let big = |n: u128| BigRational::from_integer(BigInt::from(n));
    let y0 = big(4 * x[0]);
    let y1 = big(4 * x[1]) + &y0 / big(3);
    let y2 = big(4 * x[2]) + &y1 / big(6);
    for (i, exact) in [y0, y1, y2].iter().enumerate() {
        let (lo, error) = v.get(i);
        let hi = big(lo) + BigRational::from_float(error.ceil()).unwrap();
        assert!(
            big(lo) <= *exact && *exact <= hi,
            "state {i}: {lo} + {error} against {exact}"
        );
    }
    // Each product lost something: the sums' lower bounds are below the exact ones.
    assert!(big(v.get(2).0) < y2_floor(x));
}

/// `floor(Y2)` for the test above, in integers: Y2 = 4 x2 + (4 x1 + 4 x0 / 3) / 6.
fn y2_floor(x: [u128; 3]) -> BigRational {
    let y = 4 * x[2] * 18 + 4 * x[1] * 3 + 4 * x[0];
    BigRational::from_integer(BigInt::from(y / 18))
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
        let chain = unlimited_chain(&text, &weights, loaded);
        prop_assume!(chain.is_some());
        let chain = chain.unwrap();
        let cc = CertifiedChain::new(&chain);
        contains_the_exact_law(&cc, &IntegerChain::new(&chain), 60, 10);
    }
}
