//! The turns summed square by square ([`super`]) against the turns summed whole
//! ([`crate::chain::compound_move`]): the same chain on every built-in board and on random
//! boards under unlimited roll-again, and the words' sums against big rationals.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use super::{combine, combine_signed, Frac, Scale};
use crate::board::{builtin, builtin_names, Board, RollAgain};
use crate::chain::links::tests::assert_links_hold;
use crate::chain::run::tests::{loaded, random_board};
use crate::chain::Chain;
use crate::game::{Capabilities, SingleBoard};
use crate::test_util::{board, unlimited};

/// `b`'s chain by [`Chain::for_board`] (square by square under unlimited roll-again) equals
/// the chain whose turns are each summed whole; returns the number of transient states.
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

    /// Loaded dice (weights up to 10^6, some 0) make the words overflow part-way along the
    /// runs, so some squares are summed whole and the squares before them too.
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

    /// The later law's entries scaled by `g / d` with the table of gcds (g = 1, a small d)
    /// are what the general sum gives with no ending roll, and that sum the big rationals'.
    #[test]
    fn a_scaled_entry_is_the_sum_with_no_ending_roll(
        d in 1u64..70, g in 0u64..3, a in 0u64.., b in 1u64.., small in 0u32..3,
    ) {
        let shrink = |x: u64| if small > 0 { x % 10_000 } else { x };
        let x = BigRational::new(shrink(a).into(), shrink(b).max(1).into());
        let x = Frac::of(&x).unwrap();
        let ours = Scale::new(d.into(), g.into()).of(x);
        prop_assert_eq!(ours, combine(0, d.into(), g.into(), x));
        let exact = BigRational::new(BigInt::from(g), BigInt::from(d)) * x.big();
        prop_assert_eq!(ours.map(Frac::big), Frac::of(&exact).map(Frac::big));
    }

    #[test]
    fn a_sum_in_words_is_the_sum_of_big_rationals_in_lowest_terms(
        c in 0u64.., d in 1u64.., g in 0u64.., a in 0u64.., b in 1u64.., negative: bool,
        small in 0u32..3,
    ) {
        // Small numbers share factors; large ones overflow and must give up.
        let shrink = |x: u64| if small > 0 { x % 1000 } else { x };
        let (c, d, g, a, b) = (shrink(c), shrink(d).max(1), shrink(g), shrink(a), shrink(b).max(1));
        let x = BigRational::new(a.into(), b.into());
        let x = Frac::of(&x).unwrap();
        let big = |v: u64| BigInt::from(v);
        let exact = BigRational::new(big(c), big(d))
            + BigRational::new(big(g), big(d)) * x.big();
        if let Some(sum) = combine(c.into(), d.into(), g.into(), x) {
            prop_assert_eq!(sum.big(), exact.clone());
            prop_assert_eq!(Some(sum), Frac::of(&exact));
        } else {
            // Only when the sum's numerator passed 128 bits or its lowest terms 64.
            let n = big(c) * big(x.den) + big(g) * big(x.num);
            prop_assert!(Frac::of(&exact).is_none() || n > BigInt::from(u128::MAX));
        }
        let signed_c = if negative { -i128::from(c) } else { i128::from(c) };
        let xs = (!negative, x);
        let exact = BigRational::new(BigInt::from(signed_c), big(d))
            + BigRational::new(big(g), big(d)) * if negative { x.big() } else { -x.big() };
        if let Some((neg, sum)) = combine_signed(signed_c, d.into(), g.into(), xs) {
            let ours = if neg { -sum.big() } else { sum.big() };
            prop_assert_eq!(ours, exact);
            prop_assert!(sum.num != 0 || !neg);
        }
    }
}
