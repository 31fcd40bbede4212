//! One roll (DESIGN.md section 1, docs/model.md): what a throw with sum r does from a square
//! ([`roll`], [`roll_with`]) and the coin of the choice rule ([`nudge`]). The turn machine
//! ([`super::turn`]), and through it the chain, the simulator and the witnesses, stand on these
//! functions; nothing else in the crate does square arithmetic.
//!
//! One roll of a throw with sum r from square s:
//! 0. from square 0 under `enter`, a sum the rule does not list leaves the token there;
//! 1. t = s + r;
//! 2. past the finish N: `stay` (no move, nothing triggers), `bounce` (t = 2N - t) or `allow`
//!    (t = N);
//! 3. a random tile (seed 002) is drawn on t when the board has tiles and t is plain: a snake
//!    tile moves the token `length` back, a ladder tile `length` forward (at most to N), and that
//!    ends the move;
//! 4. otherwise, on a snake's head or a ladder's foot, take it; with `chain = true` keep going
//!    while the token lands on another jump, with `chain = false` take at most one; a chance
//!    square draws a destination (at most one draw per move; with `chain = false` the draw is the
//!    move's one jump, and with `chain = true` jumps at the drawn square apply);
//! 5. reaching N ends the game at once.
//!
//! With the choice rule `decline` (docs/model.md, "Choices") the player may refuse a jump of the
//! declinable kind that the move (or, with `chain = true`, a jump) puts the token on: the token
//! stays there and the move ends. [`roll_deciding`] plays a roll with the player's answers,
//! [`roll_to_offer`] stops each way a roll can go at its first such jump, and [`take_offer`]
//! follows a jump taken there to the next one or to the move's end.

use crate::board::{Board, Chance, ChoiceRule, Overshoot, Square};

/// What one roll did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RollOutcome {
    /// Where the token is after the roll, its jumps and draws.
    pub to: Square,
    /// Snakes taken in this roll (fixed snakes and snake tiles; more than one only when jumps
    /// chain).
    pub snakes: u32,
    /// Ladders taken in this roll (fixed ladders and ladder tiles).
    pub ladders: u32,
    /// Squares climbed by ladders in this roll.
    pub climbed: u32,
    /// Squares slid down by snakes in this roll.
    pub slid: u32,
    /// The one-use jumps used up by the end of this roll (bit i: the i-th of
    /// [`Board::once_squares`]); always 0 on boards without them.
    pub used: u64,
    /// 1 + the index in [`Board::point_squares`] of the point square eaten by this roll (0:
    /// none).
    pub eats: u8,
    /// The move ended on a lost-turn square: the player's next turn is skipped.
    pub lose_turn: bool,
    /// The move ended on an extra-turn square: one more roll in this turn.
    pub extra_roll: bool,
    /// The move stopped on a jump the player may decline, before the choice ([`roll_to_offer`],
    /// [`take_offer`]; false everywhere else).
    pub offered: bool,
    /// `jump_takes_turn`: the move stopped on the start of a jump it would take; the turn ends,
    /// and the player's next turn follows the jump (`jump_turn`). The counts are those of
    /// every jump the following turns will take (the jumps are sure to be taken, so a game's
    /// totals are the same as counted turn by turn).
    pub pending: bool,
}

/// The player's answer when a move reaches a jump they may decline (`decline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// Take the jump.
    Take,
    /// Stay on its square: the move ends.
    Decline,
    /// Stop there, marked [`RollOutcome::offered`], for the caller to decide.
    Ask,
}

/// What a player has used up or eaten so far in the game (bit masks over
/// [`Board::once_squares`] and [`Board::point_squares`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Progress {
    /// One-use jumps used up.
    pub used: u64,
    /// Point squares eaten.
    pub eaten: u64,
}

/// The exact law of one roll's result: outcomes with integer weights out of a total. A roll
/// decided by the throw alone (no chance square, no tile drawn) has one outcome of weight 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollLaw {
    total: u64,
    one: [(u64, RollOutcome); 1],
    many: Vec<(u64, RollOutcome)>,
}

impl RollLaw {
    fn sure(outcome: RollOutcome) -> RollLaw {
        RollLaw {
            total: 1,
            one: [(1, outcome)],
            many: Vec::new(),
        }
    }

    fn drawn(total: u64, many: Vec<(u64, RollOutcome)>) -> RollLaw {
        if let [(w, o)] = many.as_slice() {
            if *w == total {
                return RollLaw::sure(*o);
            }
        }
        RollLaw {
            total,
            one: [(0, RollOutcome::default())],
            many,
        }
    }

    /// Every outcome with its weight (positive), out of [`RollLaw::total`].
    pub fn branches(&self) -> &[(u64, RollOutcome)] {
        if self.many.is_empty() {
            &self.one
        } else {
            &self.many
        }
    }

    /// The sum of the weights.
    pub fn total(&self) -> u64 {
        self.total
    }

    fn branches_mut(&mut self) -> &mut [(u64, RollOutcome)] {
        if self.many.is_empty() {
            &mut self.one
        } else {
            &mut self.many
        }
    }

    /// The one outcome, when the roll is not random beyond its throw.
    pub fn sure_outcome(&self) -> Option<RollOutcome> {
        self.many.is_empty().then_some(self.one[0].1)
    }
}

/// One roll of a throw with sum `sum` from `from` (steps 1 to 4 above).
///
/// `from` must be a square the token can stand on and not the finish; `sum` is a sum of the
/// board's dice.
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::internals::roll;
/// let efi = builtin("efi").unwrap();
/// // 97 + 6 = 103 bounces back to 2 * 100 - 103 = 97; 74 + 6 = 80, the ladder 80 -> 99.
/// assert_eq!(roll(&efi, 97, 6).sure_outcome().unwrap().to, 97);
/// assert_eq!(roll(&efi, 74, 6).sure_outcome().unwrap().to, 99);
/// ```
pub fn roll(board: &Board, from: Square, sum: u32) -> RollLaw {
    roll_with(board, Progress::default(), from, sum)
}

/// [`roll`] for a player with `progress`: the one-use jumps used up are plain squares now, and
/// the point squares eaten score nothing. Each outcome says what is used up after the roll, and
/// the effects of the square its move ends on (`landing`).
pub fn roll_with(board: &Board, progress: Progress, from: Square, sum: u32) -> RollLaw {
    let mut law = roll_used(board, progress.used, from, sum);
    if board.is_stateful() {
        let lost = from + sum > board.size() && board.rules().overshoot == Overshoot::Stay;
        if !lost && !stays_off(board, from, sum) {
            for (_, o) in law.branches_mut() {
                landing(board, progress.eaten, o);
            }
        }
    }
    law
}

/// Steps 1 to 5 of a roll for a player who used up the one-use jumps in `used`.
fn roll_used(board: &Board, used: u64, from: Square, sum: u32) -> RollLaw {
    roll_answered(board, used, from, sum, &mut |_| Answer::Take)
}

/// One roll of a throw with sum `sum` from `from` by a player of the `decline` rule who takes
/// a declinable jump the move reaches on square t exactly when `take(t)` (a board without the
/// rule offers none: this is [`roll`]).
///
/// # Examples
///
/// ```
/// use ladders::board::Board;
/// use ladders::internals::roll_deciding;
/// let text = "size = 10\nladders = [[3, 8]]\n[rules]\ndecline = \"ladders\"\n";
/// let board = Board::from_toml_str(text, "t").unwrap();
/// assert_eq!(roll_deciding(&board, 0, 3, |_| true).sure_outcome().unwrap().to, 8);
/// assert_eq!(roll_deciding(&board, 0, 3, |_| false).sure_outcome().unwrap().to, 3);
/// ```
pub fn roll_deciding(
    board: &Board,
    from: Square,
    sum: u32,
    take: impl Fn(Square) -> bool,
) -> RollLaw {
    let mut answer = |t| {
        if take(t) {
            Answer::Take
        } else {
            Answer::Decline
        }
    };
    roll_answered(board, 0, from, sum, &mut answer)
}

/// Each way a roll of sum `sum` from `from` can go, up to the first declinable jump it reaches
/// (`decline`): an outcome marked [`RollOutcome::offered`] stands on that jump's square, not
/// yet taken; the others are where the roll ends.
pub fn roll_to_offer(board: &Board, from: Square, sum: u32) -> RollLaw {
    roll_answered(board, 0, from, sum, &mut |_| Answer::Ask)
}

/// Takes the declinable jump on `at` (`decline`) and follows the move on: with `chain = true`
/// to the next declinable jump (marked [`RollOutcome::offered`]) or to where the move ends,
/// with `chain = false` to the jump's end. What it took is counted in the outcome. No chance
/// square is drawn on the way: validation refuses `decline` with a jump that ends on one.
pub fn take_offer(board: &Board, at: Square) -> RollOutcome {
    let start = RollOutcome {
        to: at,
        ..RollOutcome::default()
    };
    let mut first = true;
    let mut answer = |_| {
        if std::mem::take(&mut first) {
            Answer::Take
        } else {
            Answer::Ask
        }
    };
    let (out, _) = follow(board, start, false, &mut answer);
    out
}

/// Steps 1 to 5 of a roll, a declinable jump answered by `answer`.
fn roll_answered(
    board: &Board,
    used: u64,
    from: Square,
    sum: u32,
    answer: &mut impl FnMut(Square) -> Answer,
) -> RollLaw {
    let n = board.size();
    if stays_off(board, from, sum) {
        return RollLaw::sure(RollOutcome {
            to: from,
            used,
            ..RollOutcome::default()
        });
    }
    let mut t = from + sum;
    if t > n {
        t = match board.rules().overshoot {
            Overshoot::Stay => {
                return RollLaw::sure(RollOutcome {
                    to: from,
                    used,
                    ..RollOutcome::default()
                })
            }
            // Validation keeps the largest throw at most N + 1, so t <= 2N.
            Overshoot::Bounce => 2 * n - t,
            Overshoot::Allow => n,
        };
    }
    land(board, used, t, answer)
}

/// True when a throw of `sum` leaves a token on square 0 there: `enter` does not list the sum
/// (the roll is used, nothing moves or triggers).
fn stays_off(board: &Board, from: Square, sum: u32) -> bool {
    from == 0 && !board.rules().enters(sum)
}

/// The coin of the `coin = true` choice rule (docs/model.md, "Choices"): from `at` (not the
/// finish), heads moves the token one square forward and tails one back (tails on square 1 or
/// 0 leaves it there); then, as at the end of a roll's move, a tile is drawn or jumps and a
/// chance square apply where the coin put it (steps 3 to 5), unless the coin left it where it
/// was.
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::internals::nudge;
/// let mb = builtin("milton-bradley").unwrap();
/// // Heads from 27 lands on 28, the ladder 28 -> 84; tails lands on 26.
/// assert_eq!(nudge(&mb, 27, true).sure_outcome().unwrap().to, 84);
/// assert_eq!(nudge(&mb, 27, false).sure_outcome().unwrap().to, 26);
/// ```
pub fn nudge(board: &Board, at: Square, heads: bool) -> RollLaw {
    match (heads, at) {
        (true, _) => land(board, 0, at + 1, &mut |_| Answer::Take),
        (false, 0 | 1) => RollLaw::sure(RollOutcome {
            to: at,
            ..RollOutcome::default()
        }),
        (false, _) => land(board, 0, at - 1, &mut |_| Answer::Take),
    }
}

/// Steps 3 to 5 for a move that lands on `t`, by a player who used up the one-use jumps in
/// `used`: a tile, or the jumps and a chance draw, a declinable jump answered by `answer`.
fn land(board: &Board, used: u64, t: Square, answer: &mut impl FnMut(Square) -> Answer) -> RollLaw {
    let n = board.size();
    let landed = RollOutcome {
        to: t,
        used,
        ..RollOutcome::default()
    };
    if let Some(tiles) = board.tiles() {
        if t != 0 && t < n && jump(board, used, t).is_none() && board.chance_at(t).is_none() {
            let draw = tiles.draw(t);
            let f = tiles.length;
            let mut many = Vec::with_capacity(3);
            if draw.snake > 0 {
                many.push((
                    draw.snake,
                    RollOutcome {
                        to: t - f,
                        snakes: 1,
                        slid: f,
                        ..landed
                    },
                ));
            }
            if draw.ladder > 0 {
                let to = (t + f).min(n);
                many.push((
                    draw.ladder,
                    RollOutcome {
                        to,
                        ladders: 1,
                        climbed: to - t,
                        ..landed
                    },
                ));
            }
            if draw.plain > 0 {
                many.push((draw.plain, landed));
            }
            return RollLaw::drawn(draw.total, many);
        }
    }
    match follow(board, landed, true, answer) {
        (out, None) => RollLaw::sure(out),
        (out, Some(chance)) => {
            let many = chance
                .to
                .iter()
                .map(|&(to, w)| {
                    let drawn = RollOutcome { to, ..out };
                    let settled = if board.rules().chain {
                        follow(board, drawn, false, answer).0
                    } else {
                        drawn
                    };
                    (w, settled)
                })
                .collect();
            RollLaw::drawn(chance.total, many)
        }
    }
}

/// Follows the fixed jumps from `out.to` (all of them with `chain = true`, at most one with
/// `chain = false`), stopping at a chance square when `may_draw` (the draw is then the caller's)
/// and at a declinable jump that `answer` declines or asks about.
fn follow<'b>(
    board: &'b Board,
    mut out: RollOutcome,
    may_draw: bool,
    answer: &mut impl FnMut(Square) -> Answer,
) -> (RollOutcome, Option<&'b Chance>) {
    if let Some(c) = board.chained(out.to) {
        // The whole chain at once (no chance square or one-use jump on it).
        out.to = c.to;
        out.snakes += c.snakes;
        out.ladders += c.ladders;
        out.climbed = out.climbed.wrapping_add(c.climbed);
        out.slid = out.slid.wrapping_add(c.slid);
        return (out, None);
    }
    loop {
        if may_draw {
            if let Some(chance) = board.chance_at(out.to) {
                return (out, Some(chance));
            }
        }
        // Validation guarantees no cycle of jumps when chain = true, so this ends.
        let Some((next, bit)) = jump(board, out.used, out.to) else {
            return (out, None);
        };
        if board.rules().jump_takes_turn {
            return (deferred(board, out), None);
        }
        if declinable(board, out.to, next) {
            match answer(out.to) {
                Answer::Take => {}
                Answer::Decline => return (out, None),
                Answer::Ask => {
                    out.offered = true;
                    return (out, None);
                }
            }
        }
        take(&mut out, next, bit);
        if !board.rules().chain {
            return (out, None);
        }
    }
}

/// Takes the jump from `out.to` to `next` (one-use bit `bit`), counting it.
fn take(out: &mut RollOutcome, next: Square, bit: u64) {
    out.used |= bit;
    if next > out.to {
        out.ladders += 1;
        out.climbed += next - out.to;
    } else {
        out.snakes += 1;
        out.slid += out.to - next;
    }
    out.to = next;
}

/// `jump_takes_turn`: the move stops on the jump at `out.to`, marked [`RollOutcome::pending`],
/// with the counts of the jumps the next turns follow (all of them with `chain = true`, one with
/// `chain = false`).
fn deferred(board: &Board, out: RollOutcome) -> RollOutcome {
    let mut last = out;
    let mut turn = jump_turn(board, out);
    while let Some(t) = turn {
        last = t;
        turn = if t.pending { jump_turn(board, t) } else { None };
    }
    RollOutcome {
        snakes: last.snakes,
        ladders: last.ladders,
        climbed: last.climbed,
        slid: last.slid,
        pending: true,
        ..out
    }
}

/// A jump turn (`jump_takes_turn`): the token stands on the start of a jump it owes, at
/// `at.to` with `at.used` used up, and follows that one jump, with no roll; the counts are
/// added to `at`'s. `pending` is set when the jump ends on another jump it takes
/// (`chain = true`): that one is the next turn. `None` when no jump starts there (or it is used
/// up). Validation keeps a jump turn off chance squares (with `chain = true`) and off points,
/// lost-turn and extra-turn squares.
pub(super) fn jump_turn(board: &Board, at: RollOutcome) -> Option<RollOutcome> {
    let (next, bit) = jump(board, at.used, at.to)?;
    let mut out = RollOutcome {
        pending: false,
        ..at
    };
    take(&mut out, next, bit);
    out.pending = board.rules().chain && jump(board, out.used, out.to).is_some();
    Some(out)
}

/// Whether the jump from `from` to `to` is one the player may decline (`decline`).
fn declinable(board: &Board, from: Square, to: Square) -> bool {
    match board.choice() {
        Some(ChoiceRule::Decline(kind)) => kind.covers(from, to),
        _ => false,
    }
}

/// The jump from `t` for a player who used up `used`: its end and its one-use bit (0 for a jump
/// that stays).
fn jump(board: &Board, used: u64, t: Square) -> Option<(Square, u64)> {
    let next = board.jump_from(t)?;
    match board.once_bit(t) {
        0 => Some((next, 0)),
        bit if used & bit != 0 => None,
        bit => Some((next, bit)),
    }
}

/// The effects of the square where a roll's move ends (after its jumps and draw), added to
/// `out`: points scored the first time in the game a move ends there (the square is eaten), a
/// lost next turn, one more roll. A roll that did not move (lost to `overshoot = "stay"`) and a
/// forfeit's return land nowhere.
fn landing(board: &Board, eaten: u64, out: &mut RollOutcome) {
    out.lose_turn = board.loses_turn(out.to);
    out.extra_roll = board.gives_extra_roll(out.to);
    if let Some((bit, _)) = board.points_at(out.to) {
        if eaten & bit == 0 {
            out.eats = bit.trailing_zeros() as u8 + 1;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::{Board, RuleOverrides};
    use crate::test_util::board;

    /// A small board for the roll's and the turn machine's tests.
    pub(in crate::game) const SMALL: &str = r#"
        size = 10
        snakes = [[9, 2]]
        ladders = [[3, 7]]
    "#;

    /// `enter = [6]`: from square 0 a 3 leaves the token there (nothing triggers), a 6 moves it
    /// like any roll; off square 0 every throw moves.
    #[test]
    fn a_throw_that_does_not_enter_leaves_the_token_on_square_0() {
        let b = board("size = 20\nladders = [[3, 9]]\n[rules]\nenter = [6]\n");
        assert_eq!(roll(&b, 0, 3).sure_outcome(), Some(RollOutcome::default()));
        assert_eq!(roll(&b, 0, 6).sure_outcome().unwrap().to, 6);
        let climbed = roll(&b, 1, 2).sure_outcome().unwrap();
        assert_eq!((climbed.to, climbed.ladders), (9, 1));
    }

    #[test]
    fn stay_does_not_move_past_the_finish() {
        let b = board(SMALL);
        // 8 + 3 = 11 > 10: stay on 8.
        assert_eq!(roll(&b, 8, 3).sure_outcome().unwrap().to, 8);
        assert_eq!(roll(&b, 8, 2).sure_outcome().unwrap().to, 10);
    }

    #[test]
    fn allow_finishes_on_any_roll_past_the_finish() {
        let b = board(SMALL)
            .with_rules(&RuleOverrides {
                overshoot: Some(Overshoot::Allow),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(roll(&b, 8, 6).sure_outcome().unwrap().to, 10);
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
        let out = roll(&b, 8, 3).sure_outcome().unwrap();
        assert_eq!(out.to, 2);
        assert_eq!((out.snakes, out.slid), (1, 7));
    }

    #[test]
    fn ladders_count_their_climb() {
        let b = board(SMALL);
        let out = roll(&b, 0, 3).sure_outcome().unwrap();
        assert_eq!(
            out,
            RollOutcome {
                to: 7,
                snakes: 0,
                ladders: 1,
                climbed: 4,
                slid: 0,
                ..RollOutcome::default()
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
        let out = roll(&chained, 0, 2).sure_outcome().unwrap();
        assert_eq!(out.to, 8);
        assert_eq!((out.ladders, out.snakes), (2, 1));
        assert_eq!((out.climbed, out.slid), (4 + 4, 2));
        let single = chained
            .with_rules(&RuleOverrides {
                chain: Some(false),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(roll(&single, 0, 2).sure_outcome().unwrap().to, 6);
    }

    fn outcomes(b: &Board, from: Square, sum: u32) -> Vec<(u64, Square)> {
        let law = roll(b, from, sum);
        let mut v: Vec<(u64, Square)> = law.branches().iter().map(|(w, o)| (*w, o.to)).collect();
        v.sort_unstable();
        v.push((law.total(), u32::MAX));
        v
    }

    #[test]
    fn a_chance_square_draws_once_per_move_and_jumps_apply_after_the_draw() {
        // 1 draws 2 (weight 1) or 3 (weight 3); 2 is a chance square too, plain in the same move;
        // 3 is a snake's head to 0.
        let text = r#"
            size = 10
            snakes = [[3, 0]]
            [[chance]]
            at = 1
            to = [[2, 1], [3, 3]]
            [[chance]]
            at = 2
            to = [[9, 1]]
        "#;
        let b = board(text);
        // From 0 a 1 lands on 1: 2 (stays: a second draw is plain) w.p. 1/4, or 3 then the snake
        // to 0 w.p. 3/4.
        assert_eq!(outcomes(&b, 0, 1), vec![(1, 2), (3, 0), (4, u32::MAX)]);
        let snake = roll(&b, 0, 1).branches()[1].1;
        assert_eq!((snake.snakes, snake.slid, snake.ladders), (1, 3, 0));
        // Landing on 2 directly draws there: always 9.
        assert_eq!(outcomes(&b, 0, 2), vec![(1, 9), (1, u32::MAX)]);
        // With chain = false the draw is the move's one jump: 3's snake does not apply.
        let single = b
            .with_rules(&RuleOverrides {
                chain: Some(false),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(outcomes(&single, 0, 1), vec![(1, 2), (3, 3), (4, u32::MAX)]);
    }

    #[test]
    fn a_chance_square_at_the_end_of_a_ladder_draws_only_when_jumps_chain() {
        let text = "size = 10\nladders = [[1, 4]]\n[[chance]]\nat = 4\nto = [[8, 1], [0, 1]]\n";
        let b = board(text);
        assert_eq!(outcomes(&b, 0, 1), vec![(1, 0), (1, 8), (2, u32::MAX)]);
        let single = b
            .with_rules(&RuleOverrides {
                chain: Some(false),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert_eq!(outcomes(&single, 0, 1), vec![(1, 4), (1, u32::MAX)]);
    }

    #[test]
    fn tiles_are_drawn_where_a_roll_lands_and_end_the_move() {
        // f = 3, p = 1/4, q = 1/2 on 10 squares, a fixed ladder 5 -> 9.
        let text = "size = 10\nladders = [[5, 9]]\n[tiles]\nlength = 3\nsnake = \"1/4\"\nladder = \"0.5\"\n";
        let b = board(text);
        // Square 2 (not above f): ladder 1/2 to 5 (final: the fixed ladder there does not apply),
        // plain 1/2.
        assert_eq!(outcomes(&b, 0, 2), vec![(2, 2), (2, 5), (4, u32::MAX)]);
        // Square 4: snake 1/4 to 1, ladder 1/2 to 7, plain 1/4.
        assert_eq!(
            outcomes(&b, 0, 4),
            vec![(1, 1), (1, 4), (2, 7), (4, u32::MAX)]
        );
        // Square 8: a ladder tile stops at the finish: climbs 2.
        let up = roll(&b, 2, 6)
            .branches()
            .iter()
            .find(|(_, o)| o.ladders == 1)
            .unwrap()
            .1;
        assert_eq!((up.to, up.climbed), (10, 2));
        // Square 5 has a fixed ladder: no tile, the ladder applies.
        assert_eq!(outcomes(&b, 0, 5), vec![(1, 9), (1, u32::MAX)]);
    }

    #[test]
    fn a_loaded_die_and_two_dice_make_weighted_throws() {
        let b = board("size = 20\n[rules]\ndie = [1, 0, 2]\ndice = 2\n");
        let d = b.dice();
        // Faces 1 (1/3), 3 (2/3): sums 2 (1/9), 4 (4/9), 6 (4/9); 6 = 3 + 3 is the top throw.
        let law: Vec<(u32, u64, bool)> = d
            .throws()
            .iter()
            .map(|t| (t.sum, t.weight, t.top))
            .collect();
        assert_eq!(law, vec![(2, 1, false), (4, 4, false), (6, 4, true)]);
        assert_eq!(d.total(), 9);
    }

    #[test]
    fn a_declinable_jump_stops_the_move_where_the_player_is_asked() {
        // Every jump declinable, jumps chain: the ladder 2 -> 6 ends on the snake 6 -> 4; the
        // chance square 9 draws 2 (a ladder's foot, offered) or 11 (plain).
        let text = r#"
            size = 12
            ladders = [[2, 6]]
            snakes = [[6, 4]]
            [[chance]]
            at = 9
            to = [[2, 1], [11, 1]]
            [rules]
            decline = "jumps"
        "#;
        let b = board(text);
        let at_two = roll_to_offer(&b, 0, 2).sure_outcome().unwrap();
        assert_eq!((at_two.to, at_two.offered, at_two.ladders), (2, true, 0));
        let up = take_offer(&b, 2);
        assert_eq!((up.to, up.offered, up.ladders, up.climbed), (6, true, 1, 4));
        let down = take_offer(&b, 6);
        assert_eq!(
            (down.to, down.offered, down.snakes, down.slid),
            (4, false, 1, 2)
        );
        assert_eq!(
            roll_deciding(&b, 0, 2, |t| t == 2)
                .sure_outcome()
                .unwrap()
                .to,
            6
        );
        assert_eq!(
            roll_deciding(&b, 0, 2, |_| true).sure_outcome().unwrap().to,
            4
        );
        assert_eq!(
            roll_deciding(&b, 0, 2, |_| false)
                .sure_outcome()
                .unwrap()
                .to,
            2
        );
        let drawn: Vec<(Square, bool)> = roll_to_offer(&b, 6, 3)
            .branches()
            .iter()
            .map(|(_, o)| (o.to, o.offered))
            .collect();
        assert_eq!(drawn, vec![(2, true), (11, false)]);
        // Only snakes declinable: the ladder is taken and the snake at its top offered.
        let snakes = board(&text.replace("\"jumps\"", "\"snakes\""));
        let o = roll_to_offer(&snakes, 0, 2).sure_outcome().unwrap();
        assert_eq!((o.to, o.offered, o.ladders), (6, true, 1));
        // Standing on a jump's square triggers nothing: from 2 a 1 lands on 3.
        let off = roll_to_offer(&b, 2, 1).sure_outcome().unwrap();
        assert_eq!((off.to, off.offered), (3, false));
        // Without the rule nothing is offered: roll_deciding is roll.
        let plain = board(SMALL);
        assert_eq!(roll_deciding(&plain, 0, 3, |_| false), roll(&plain, 0, 3));
    }

    /// `jump_takes_turn`: a move stops on a jump's start, counting the jumps the next turns
    /// take (the ladder 2 -> 6 ends on the ladder 6 -> 9: two jump turns with `chain = true`,
    /// one with `chain = false`); a jump turn follows one jump.
    #[test]
    fn a_jump_that_takes_a_turn_stops_the_move_and_is_followed_one_a_turn() {
        let text = "size = 12\nladders = [[2, 6], [6, 9]]\n[rules]\njump_takes_turn = true\n";
        let b = board(text);
        let stop = roll(&b, 0, 2).sure_outcome().unwrap();
        assert_eq!((stop.to, stop.pending), (2, true));
        assert_eq!((stop.ladders, stop.climbed), (2, 7));
        let first = jump_turn(&b, stop).unwrap();
        assert_eq!((first.to, first.pending), (6, true));
        let second = jump_turn(&b, first).unwrap();
        assert_eq!((second.to, second.pending), (9, false));
        assert_eq!(jump_turn(&b, second), None);
        // Standing on 6 (no jump pending), a 1 moves on: nothing triggers for standing there.
        assert_eq!(roll(&b, 6, 1).sure_outcome().unwrap().to, 7);
        let single = board(&text.replace("[rules]\n", "[rules]\nchain = false\n"));
        let stop = roll(&single, 0, 2).sure_outcome().unwrap();
        assert_eq!((stop.to, stop.pending, stop.ladders), (2, true, 1));
        let jumped = jump_turn(&single, stop).unwrap();
        assert_eq!((jumped.to, jumped.pending), (6, false));
    }

    #[test]
    fn the_coin_steps_one_square_and_lands_like_a_roll() {
        let b = board(SMALL);
        // Heads from 2 lands on the ladder's foot 3 -> 7; tails from 2 is 1, plain.
        let up = nudge(&b, 2, true).sure_outcome().unwrap();
        assert_eq!((up.to, up.ladders, up.climbed), (7, 1, 4));
        assert_eq!(nudge(&b, 2, false).sure_outcome().unwrap().to, 1);
        // Tails from 1 and from 0 stays; heads from 8 lands on the snake's head 9 -> 2.
        assert_eq!(nudge(&b, 1, false).sure_outcome().unwrap().to, 1);
        assert_eq!(nudge(&b, 0, false).sure_outcome().unwrap().to, 0);
        assert_eq!(nudge(&b, 8, true).sure_outcome().unwrap().to, 2);
        // Tails from 4 lands on the ladder's foot 3.
        assert_eq!(nudge(&b, 4, false).sure_outcome().unwrap().to, 7);
    }
}
