//! The stepping of a chain held as links only ([`IntegerChain::of_links`]) against the law worked by hand on a small board and against
//! the whole turns' stepping ([`IntegerChain`] on [`Chain::for_board`]) on every built-in board
//! with a links form and on gen-1000-again.

use super::super::IntegerChain;
use crate::board::{Board, RollAgain, RuleOverrides};
use crate::chain::{Chain, LinkedChain};
use crate::test_util::{board, q};

#[test]
fn a_small_board_by_hand() {
    // size 6, die 3, bounce, unlimited (worked in `chain/linked/tests.rs`): the first turn
    // finishes with 1/9 (a 3 to square 3, then its turn finishes with 1/3) and leaves 1/3 on
    // 1, 1/3 on 2, 1/9 on 4, 1/9 on 5. A turn from 1 finishes with 1/6 (a 3 to 4, whose turn
    // finishes with 1/2), from 2 with 1/6 (a 3 to 5, whose turn finishes with 1/2), from 4
    // and from 5 with 1/2: P(T = 2) = 1/18 + 1/18 + 1/18 + 1/18 = 2/9.
    let b =
        board("size = 6\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n");
    let law = IntegerChain::of_links(&LinkedChain::for_board(&b).unwrap()).unwrap();
    let mut s = law.stepper();
    s.step();
    assert_eq!((s.p_ends_now(), s.p_survives()), (q(1, 9), q(8, 9)));
    s.step();
    assert_eq!((s.p_ends_now(), s.p_survives()), (q(2, 9), q(2, 3)));
    assert_eq!(s.turn(), 2);
}

/// Steps `b`'s law `turns` turns on both forms and compares every term.
fn assert_same_law(b: &Board, turns: usize) {
    let law = IntegerChain::of_links(&LinkedChain::for_board(b).unwrap()).unwrap();
    let ic = IntegerChain::new(&Chain::for_board(b));
    let (mut links, mut whole) = (law.stepper(), ic.stepper());
    for n in 1..=turns {
        links.step();
        whole.step();
        assert_eq!(
            links.p_ends_now(),
            whole.p_ends_now(),
            "{} turn {n}",
            b.name()
        );
        assert_eq!(
            links.p_survives(),
            whole.p_survives(),
            "{} turn {n}",
            b.name()
        );
    }
}

#[test]
fn the_links_form_steps_the_whole_turns_law() {
    let unlimited = RuleOverrides {
        roll_again: Some(RollAgain::Unlimited),
        ..RuleOverrides::default()
    };
    let mut checked = 0;
    for name in crate::board::builtin_names() {
        let Ok(b) = crate::board::builtin(name).unwrap().with_rules(&unlimited) else {
            continue;
        };
        if LinkedChain::for_board(&b).is_some() {
            assert_same_law(&b, 60);
            checked += 1;
        }
    }
    // Efi, the two Milton Bradley boards, course and tiny (random tiles has no links form).
    assert!(checked >= 4, "{checked} boards");
    let path = format!(
        "{}/benches/boards/gen-1000-again.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let b = Board::from_toml_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    assert_same_law(&b, 8);
}
