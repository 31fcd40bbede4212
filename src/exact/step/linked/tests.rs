//! Tests of the integer stepping through the links (`linked.rs`): one step of a three-state
//! chain worked by hand, and the same counts, scales and P(T = n) as the whole turns' stepping
//! (the second method) for 300 turns on every built-in board under unlimited roll-again and
//! on random boards with fair and loaded dice.

use proptest::prelude::*;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::super::IntegerChain;
use crate::board::{builtin, builtin_names};
use crate::chain::{Chain, Link};
use crate::test_util::{matrix, random_board, unlimited, unlimited_chain};

/// Steps `chain` `turns` turns through its links and by its whole turns, and checks every
/// turn's counts, scale and P(T = n) agree. Returns whether the links were taken.
fn same_as_the_whole_turns<S>(chain: &Chain<S>, turns: usize) -> bool
where
    S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
{
    let (ic, whole) = (IntegerChain::new(chain), IntegerChain::whole_turns(chain));
    assert!(whole.linked.is_none());
    let (mut a, mut b) = (ic.stepper(), whole.stepper());
    for n in 1..=turns {
        a.step();
        b.step();
        assert_eq!(a.p_ends_now(), b.p_ends_now(), "P(T = {n})");
        assert_eq!(a.scale(), b.scale(), "the scale at n = {n}");
        assert_eq!(a.absorbed(), b.absorbed(), "n = {n}");
        assert_eq!(a.transient_mass(), b.transient_mass(), "n = {n}");
    }
    ic.linked.is_some()
}

#[test]
fn one_step_of_a_three_state_chain_worked_by_hand() {
    // Q: 0 -> 2 1/2, 0 -> 0 1/4, 0 -> 1 1/12, finish 1/6; 1 -> 0 1/2, 1 -> 1 1/6, finish 1/3;
    // 2 -> 1 1/3, finish 2/3. D = 12. Links (d = 2): T(0) = e2 / 2 + T(1) / 2 and
    // T(1) = e0 / 2 + T(2) / 2; 2 is unlinked.
    let chain = matrix(vec![
        vec![(2, (1, 2)), (0, (1, 4)), (1, (1, 12))],
        vec![(0, (1, 2)), (1, (1, 6))],
        vec![(1, (1, 3))],
    ]);
    let at = |s: usize| chain.states().iter().position(|&x| x == s).unwrap();
    let link = |next, end| Link {
        next: at(next),
        goes_on: 1,
        ends: vec![(at(end), 1)],
        denom: 2,
    };
    let (l0, l1) = (link(1, 2), link(2, 0));
    let mut links = vec![None; 3];
    links[at(0)] = Some(&l0);
    links[at(1)] = Some(&l1);
    let ic = IntegerChain::with_links(&chain, &links);
    assert_eq!(*ic.denominator(), BigInt::from(12));
    let l = ic
        .linked
        .as_ref()
        .expect("4 entries and 2 links against 9 transitions");
    // Depths 0, 1, 2: A = 2, d^A = 4.
    assert_eq!(l.d_pow, [4]);
    let mut s = ic.stepper();
    s.step();
    // Y = d^A w = (4, 0, 0); link 0 -> 1: Y_0 / 2 = 2, Y_1 += 2; link 1 -> 2: Y_1 / 2 = 1,
    // Y_2 += 1. Kept: Y_0 / d, Y_1 / d, Y_2 = 2, 1, 1.
    let y: Vec<u64> = (0..3)
        .map(|x| s.scratch.y[at(x) * s.scratch.y_stride])
        .collect();
    assert_eq!(y, vec![2, 1, 1]);
    // P = Y E with D c = 12 for the ending rolls, D p = 4 (to 1) and 8 (finish) for state 2:
    // P_0 = 1 * 12, P_1 = 1 * 4, P_2 = 2 * 12, P_finish = 1 * 8; U = P / 4 = (3, 1, 6, 2),
    // which is 12 times row 0: no common factor, scale 12.
    assert_eq!(*s.scale(), BigInt::from(12));
    let mass = s.transient_mass();
    let got: Vec<BigInt> = (0..3).map(|x| mass[at(x)].clone()).collect();
    assert_eq!(got, [3, 1, 6].map(BigInt::from));
    assert_eq!(s.absorbed(), vec![BigInt::from(2)]);
    assert_eq!(s.p_ends_now(), BigRational::new(1.into(), 6.into()));
    // And on, against the whole turns.
    let whole = IntegerChain::whole_turns(&chain);
    let (mut a, mut b) = (ic.stepper(), whole.stepper());
    for _ in 0..40 {
        a.step();
        b.step();
        assert_eq!((a.scale(), a.absorbed()), (b.scale(), b.absorbed()));
        assert_eq!(a.transient_mass(), b.transient_mass());
    }
}

#[test]
fn efi_steps_through_its_links_with_a_fraction_of_the_products() {
    let efi = Chain::for_board(&builtin("efi").unwrap());
    let ic = IntegerChain::new(&efi);
    let l = ic.linked.as_ref().expect("efi takes the links");
    assert_eq!(ic.transitions(), 2530);
    assert_eq!(l.steps.len(), 78);
    assert!(4 * (l.ends.coef.len() + l.steps.len()) < ic.transitions());
}

#[test]
fn every_built_in_board_under_unlimited_roll_again_steps_the_same_through_its_links() {
    let mut linked = 0;
    for name in builtin_names() {
        let b = builtin(name).unwrap();
        let Some(b) = unlimited(&b) else { continue };
        let chain = Chain::for_board(&b);
        linked += usize::from(same_as_the_whole_turns(&chain, 300));
    }
    // milton-bradley, milton-bradley-48 and efi at least.
    assert!(linked >= 3, "{linked} boards took the links");
}

#[test]
fn a_loaded_die_steps_the_same_through_its_links() {
    // Weights 3, 5, 7, 11 (d = 26) on 30 squares with a bounce.
    let b = crate::test_util::board(
        "size = 30\nsnakes = [[17, 4]]\nladders = [[3, 22]]\n[rules]\ndie = [3, 5, 7, 11]\n\
         overshoot = \"bounce\"\nroll_again = \"unlimited\"\n",
    );
    assert!(same_as_the_whole_turns(&Chain::for_board(&b), 300));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Fair dice and loaded dice (small weights, so the links' numbers fit words and the
    /// route is taken; large ones, which fall back to the whole turns), every board under
    /// unlimited roll-again.
    #[test]
    fn random_boards_under_unlimited_roll_again_step_the_same_through_their_links(
        text in random_board(),
        weights in proptest::collection::vec(1u64..=40, 2..6),
        heavy: bool,
        loaded: bool,
    ) {
        let weights: Vec<u64> = match heavy {
            true => weights.iter().map(|w| w * 24_999).collect(),
            false => weights,
        };
        let chain = unlimited_chain(&text, &weights, loaded);
        prop_assume!(chain.is_some());
        let chain = chain.unwrap();
        same_as_the_whole_turns(&chain, 300);
    }
}
