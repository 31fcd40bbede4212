//! The one definition of the rules (DESIGN.md section 1): what one roll does ([`roll`]) and how
//! rolls make a turn ([`turn_step`]). The chain builder and the simulator both stand on these two
//! functions; nothing else in the crate does square arithmetic.
//!
//! One roll with face r from square s:
//! 1. t = s + r;
//! 2. past the finish N: `stay` (no move), `bounce` (t = 2N - t) or `allow` (t = N);
//! 3. on a snake's head or a ladder's foot, take it; with `chain = true` keep going while the
//!    token lands on another jump, with `chain = false` take at most one;
//! 4. reaching N ends the game at once.
//!
//! A turn: with `roll_again = none` one roll; otherwise rolling the top face (the die's largest)
//! grants another roll after the move is made, unless the token finished. With `roll_again = K` the
//! K-th top face in a row forfeits the turn: that roll is not moved and the token goes back to the
//! square where the turn began.

use crate::board::{Board, Overshoot, RollAgain, Square};

/// What one roll did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RollOutcome {
    /// Where the token is after the roll and its jumps.
    pub to: Square,
    /// Snakes taken in this roll (more than one only when jumps chain).
    pub snakes: u32,
    /// Ladders taken in this roll.
    pub ladders: u32,
    /// Squares climbed by ladders in this roll.
    pub climbed: u32,
    /// Squares slid down by snakes in this roll.
    pub slid: u32,
}

/// One roll of `face` from `from` (DESIGN.md section 1, steps 1 to 3).
///
/// `from` must be a square the token can stand on (0 only when the board starts off it) and not
/// the finish; `face` is in `1..=die`.
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::rules::roll;
/// let efi = builtin("efi").unwrap().unwrap();
/// // 97 + 6 = 103 bounces back to 2 * 100 - 103 = 97; 74 + 6 = 80, the ladder 80 -> 99.
/// assert_eq!(roll(&efi, 97, 6).to, 97);
/// assert_eq!(roll(&efi, 74, 6).to, 99);
/// ```
pub fn roll(board: &Board, from: Square, face: u32) -> RollOutcome {
    let n = board.size();
    let mut t = from + face;
    if t > n {
        t = match board.rules().overshoot {
            Overshoot::Stay => {
                return RollOutcome {
                    to: from,
                    ..RollOutcome::default()
                }
            }
            Overshoot::Bounce => (2 * n).saturating_sub(t),
            Overshoot::Allow => n,
        };
    }
    let mut out = RollOutcome {
        to: t,
        ..RollOutcome::default()
    };
    // Validation guarantees no cycle of jumps when chain = true, so this ends.
    while let Some(next) = board.jump_from(out.to) {
        if next > out.to {
            out.ladders += 1;
            out.climbed += next - out.to;
        } else {
            out.snakes += 1;
            out.slid += out.to - next;
        }
        out.to = next;
        if !board.rules().chain {
            break;
        }
    }
    out
}

/// What one roll inside a turn did, and whether the turn goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnStep {
    /// The roll's effect; for a forfeited roll, `to` is the square the turn began on and the
    /// counts are zero.
    pub outcome: RollOutcome,
    /// True when the player rolls again in this turn.
    pub again: bool,
    /// True when this roll was the K-th top face in a row and forfeited the turn.
    pub forfeited: bool,
}

/// One roll inside a turn: the player began the turn on `turn_start`, stands on `square`, and
/// has rolled `top_faces` top faces in a row so far in this turn; the die shows `face`.
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::rules::turn_step;
/// let efi = builtin("efi").unwrap().unwrap();
/// let step = turn_step(&efi, 1, 1, 0, 6);
/// assert_eq!(step.outcome.to, 7);
/// assert!(step.again); // a six rolls again on the Efi board
/// ```
pub fn turn_step(
    board: &Board,
    turn_start: Square,
    square: Square,
    top_faces: u32,
    face: u32,
) -> TurnStep {
    let rules = board.rules();
    let top = face == rules.die && rules.roll_again != RollAgain::None;
    if let RollAgain::Forfeit(k) = rules.roll_again {
        if top && top_faces + 1 >= k {
            return TurnStep {
                outcome: RollOutcome {
                    to: turn_start,
                    ..RollOutcome::default()
                },
                again: false,
                forfeited: true,
            };
        }
    }
    let outcome = roll(board, square, face);
    TurnStep {
        outcome,
        again: top && outcome.to != board.size(),
        forfeited: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, RuleOverrides};

    fn board(text: &str) -> Board {
        Board::from_toml_str(text, "test").expect("valid test board")
    }

    const SMALL: &str = r#"
        size = 10
        snakes = [[9, 2]]
        ladders = [[3, 7]]
    "#;

    #[test]
    fn stay_does_not_move_past_the_finish() {
        let b = board(SMALL);
        // 8 + 3 = 11 > 10: stay on 8.
        assert_eq!(roll(&b, 8, 3).to, 8);
        assert_eq!(roll(&b, 8, 2).to, 10);
    }

    #[test]
    fn allow_finishes_on_any_roll_past_the_finish() {
        let b = board(SMALL)
            .with_rules(&RuleOverrides {
                overshoot: Some(Overshoot::Allow),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(roll(&b, 8, 6).to, 10);
    }

    #[test]
    fn bounce_onto_a_snake_head_takes_the_snake() {
        let b = board(SMALL)
            .with_rules(&RuleOverrides {
                overshoot: Some(Overshoot::Bounce),
                ..RuleOverrides::default()
            })
            .unwrap();
        // 8 + 3 = 11 -> 2 * 10 - 11 = 9, the snake's head -> 2 (slid 7).
        let out = roll(&b, 8, 3);
        assert_eq!(out.to, 2);
        assert_eq!((out.snakes, out.slid), (1, 7));
    }

    #[test]
    fn ladders_count_their_climb() {
        let b = board(SMALL);
        let out = roll(&b, 0, 3);
        assert_eq!(
            out,
            RollOutcome {
                to: 7,
                snakes: 0,
                ladders: 1,
                climbed: 4,
                slid: 0
            }
        );
    }

    #[test]
    fn chained_jumps_follow_until_a_plain_square_and_unchained_stop_after_one() {
        // Ladder 2 -> 6 lands on the snake 6 -> 4, which lands on the ladder 4 -> 8.
        let text = r#"
            size = 12
            snakes = [[6, 4]]
            ladders = [[2, 6], [4, 8]]
            [rules]
            chain = true
        "#;
        let chained = board(text);
        let out = roll(&chained, 0, 2);
        assert_eq!(out.to, 8);
        assert_eq!((out.ladders, out.snakes), (2, 1));
        assert_eq!((out.climbed, out.slid), (4 + 4, 2));
        let single = chained
            .with_rules(&RuleOverrides {
                chain: Some(false),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(roll(&single, 0, 2).to, 6);
    }

    #[test]
    fn the_kth_top_face_in_a_row_forfeits_and_returns_to_the_turn_start() {
        let b = board(SMALL)
            .with_rules(&RuleOverrides {
                roll_again: Some(RollAgain::Forfeit(3)),
                ..RuleOverrides::default()
            })
            .unwrap();
        // Turn began on 0: six -> 6 (again), six -> 12 > 10 stay at 6 (again), third six forfeits.
        let s1 = turn_step(&b, 0, 0, 0, 6);
        assert_eq!((s1.outcome.to, s1.again, s1.forfeited), (6, true, false));
        let s2 = turn_step(&b, 0, 6, 1, 6);
        assert_eq!((s2.outcome.to, s2.again, s2.forfeited), (6, true, false));
        let s3 = turn_step(&b, 0, 6, 2, 6);
        assert_eq!((s3.outcome.to, s3.again, s3.forfeited), (0, false, true));
        // A non-top face after two sixes is an ordinary move.
        let s4 = turn_step(&b, 0, 6, 2, 1);
        assert_eq!((s4.outcome.to, s4.again), (7, false));
    }

    #[test]
    fn reaching_the_finish_on_a_top_face_ends_the_turn() {
        let b = board("size = 6\n[rules]\nroll_again = \"unlimited\"\n");
        let step = turn_step(&b, 0, 0, 0, 6);
        assert_eq!(step.outcome.to, 6);
        assert!(!step.again);
        // Without the finish, a six rolls again.
        assert!(turn_step(&b, 0, 0, 0, 1).outcome.to == 1);
        let b7 = board("size = 7\n[rules]\nroll_again = \"unlimited\"\n");
        assert!(turn_step(&b7, 0, 0, 0, 6).again);
    }

    #[test]
    fn no_roll_again_means_a_six_ends_the_turn() {
        let b = board(SMALL);
        assert!(!turn_step(&b, 0, 0, 0, 6).again);
    }
}
