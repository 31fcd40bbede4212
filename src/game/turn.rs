//! The turn machine (DESIGN.md sections 1 and 2): how throws make a turn, for every game whose
//! turns are made of rolls ([`RollGame`]). Inside a turn the game is in an in-turn state: where
//! the turn began (fixed for the whole turn, passed alongside), where the token is and the top
//! throws in a row so far ([`InTurn`]). [`begin`] opens a turn (a lost turn ends it at once,
//! with no roll); [`throw_into`] gives each outcome of one throw as a [`Step`]: `Continue` with
//! the next in-turn state, or `End` with the state the next turn begins in. Roll-again, forfeits,
//! extra rolls and lost turns live here and nowhere else: the compound move, the simulator and
//! the witnesses drive this machine, and the simulator's cached table and the roll-level form
//! read its parts ([`throw_effect`], [`next_streak`], [`rolls_again`]).
//!
//! A turn: with `roll_again = none` one roll; otherwise a top throw (every die on its top face)
//! grants another roll after the move is made, unless the token finished. With `roll_again = K`
//! the K-th top throw in a row forfeits the turn: that roll is not moved and the token goes back
//! to the square where the turn began. A move that ends on an extra-turn square grants one more
//! roll; one that ends on a lost-turn square makes the player skip the next turn. Under
//! `jump_takes_turn` a move that stops on a jump's start ends the turn at once (even after a
//! top throw), and the next turn, like a lost one, has no roll: [`begin`] ends it where the
//! game's [`RollGame::skip`] says (the jump followed).

use super::{Branches, RollGame, RollOutcome, SingleBoard};
use crate::board::dice::lcm;
use crate::board::{Board, RollAgain, Square, Throw};

/// Where a turn stands between two of its rolls (besides where it began): the game's state and
/// the top throws in a row so far (counted only under `roll_again = K`, where they matter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InTurn<S> {
    /// The game's state after the rolls so far.
    pub at: S,
    /// Top throws in a row so far in this turn.
    pub streak: u32,
}

/// What one outcome of a throw does to the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<S> {
    /// The turn goes on from this in-turn state.
    Continue(InTurn<S>),
    /// The turn is over; the next turn begins in this state (after [`RollGame::end_turn`],
    /// unless the game is over).
    End(S),
}

/// One outcome of a throw inside a turn, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thrown<S> {
    /// The outcome's weight, out of the total [`throw_into`] returns.
    pub weight: u64,
    /// Whether the turn goes on.
    pub step: Step<S>,
    /// What the roll did (all zero for a forfeit).
    pub outcome: RollOutcome,
    /// The throw was the K-th top throw in a row: the turn is forfeited, the roll not moved.
    pub forfeited: bool,
}

/// Opens a turn in the non-final `state`: `End` when the turn has no roll (a lost turn, or a
/// jump turn under `jump_takes_turn`; it counts as a turn), else `Continue` from `state` with no top throw yet.
pub fn begin<G: RollGame>(game: &G, state: G::State) -> Step<G::State> {
    match game.skip(&state) {
        Some(after) => Step::End(end_turn(game, after)),
        None => Step::Continue(InTurn {
            at: state,
            streak: 0,
        }),
    }
}

/// The state the next turn begins in, after a turn that ended in `state`: `state` itself when
/// the game is over, else [`RollGame::end_turn`] of it.
pub fn end_turn<G: RollGame>(game: &G, state: G::State) -> G::State {
    if game.is_final(&state) {
        state
    } else {
        game.end_turn(state)
    }
}

/// One throw inside a turn that began in `began` and stands at `now`: every outcome with its
/// weight, added after what `out` holds; returns the weights' total. `rolled` is scratch space
/// for the roll's branches; both buffers are kept by the caller so a throw allocates nothing.
pub fn throw_into<G: RollGame>(
    game: &G,
    began: &G::State,
    now: &InTurn<G::State>,
    throw: &Throw,
    rolled: &mut Branches<G::State>,
    out: &mut Vec<Thrown<G::State>>,
) -> u64 {
    let rule = game.roll_again(began);
    match throw_effect(rule, throw.top, now.streak) {
        ThrowEffect::Forfeit => {
            out.push(Thrown {
                weight: 1,
                step: Step::End(end_turn(game, game.forfeit(began, &now.at))),
                outcome: RollOutcome::default(),
                forfeited: true,
            });
            1
        }
        ThrowEffect::Move { again } => {
            let total = game.roll_into(&now.at, throw.sum, rolled);
            let streak = next_streak(rule, throw.top, now.streak);
            out.extend(rolled.drain(..).map(|(weight, next, outcome)| Thrown {
                weight,
                step: step_after(game, again, streak, next, &outcome),
                outcome,
                forfeited: false,
            }));
            total
        }
    }
}

/// One throw played, not enumerated (for a sampler): [`throw_into`]'s outcomes, of which
/// `pick` chooses one from the roll's branches and their weights' total (it is not called for
/// a forfeit, which has one outcome); returns that outcome's step and what its roll did
/// (`None` for a forfeit). `rolled` is scratch space for the roll's branches.
pub fn play_throw<G: RollGame>(
    game: &G,
    began: &G::State,
    now: &InTurn<G::State>,
    throw: &Throw,
    rolled: &mut Branches<G::State>,
    pick: impl FnOnce(&Branches<G::State>, u64) -> usize,
) -> (Step<G::State>, Option<RollOutcome>) {
    let rule = game.roll_again(began);
    match throw_effect(rule, throw.top, now.streak) {
        ThrowEffect::Forfeit => {
            let back = end_turn(game, game.forfeit(began, &now.at));
            (Step::End(back), None)
        }
        ThrowEffect::Move { again } => {
            let total = game.roll_into(&now.at, throw.sum, rolled);
            let i = pick(rolled, total);
            let (_, next, outcome) = rolled.swap_remove(i);
            let streak = next_streak(rule, throw.top, now.streak);
            (
                step_after(game, again, streak, next, &outcome),
                Some(outcome),
            )
        }
    }
}

/// The step after a moved roll that ended in `next` having done `outcome`: the turn goes on
/// (with `streak` top throws in a row) when the throw grants another roll (`again`) or the move
/// ended on an extra-turn square, unless the game is over; else it ends.
fn step_after<G: RollGame>(
    game: &G,
    again: bool,
    streak: u32,
    next: G::State,
    outcome: &RollOutcome,
) -> Step<G::State> {
    match rolls_again(again, outcome, game.is_final(&next)) {
        true => Step::Continue(InTurn { at: next, streak }),
        false => Step::End(end_turn(game, next)),
    }
}

/// What a throw does to the turn, before its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrowEffect {
    /// The K-th top throw in a row: the roll is not moved, the token goes back to where the turn
    /// began, and the turn ends.
    Forfeit,
    /// The roll is moved; when `again`, the player rolls again afterwards unless the move
    /// finished the game.
    Move {
        /// True for a top throw under a roll-again rule.
        again: bool,
    },
}

/// The turn logic: a throw (`top` when every die shows its top face) after `streak` top throws
/// in a row in this turn, under `roll_again`.
///
/// # Examples
///
/// ```
/// use ladders::board::RollAgain;
/// use ladders::internals::{throw_effect, ThrowEffect};
/// assert_eq!(throw_effect(RollAgain::Unlimited, true, 5), ThrowEffect::Move { again: true });
/// assert_eq!(throw_effect(RollAgain::Forfeit(3), true, 2), ThrowEffect::Forfeit);
/// assert_eq!(throw_effect(RollAgain::None, true, 0), ThrowEffect::Move { again: false });
/// ```
pub fn throw_effect(roll_again: RollAgain, top: bool, streak: u32) -> ThrowEffect {
    match roll_again {
        RollAgain::None => ThrowEffect::Move { again: false },
        RollAgain::Unlimited => ThrowEffect::Move { again: top },
        RollAgain::Forfeit(k) if top && streak + 1 >= k => ThrowEffect::Forfeit,
        RollAgain::Forfeit(_) => ThrowEffect::Move { again: top },
    }
}

/// The top throws in a row that the next roll of a turn counts, after a moved roll (`top`: every
/// die on its top face) that followed `streak` of them. Only `roll_again = K` counts them (a top
/// throw adds one, any other throw resets the count); an extra roll from an extra-turn square
/// leaves the count as this throw made it.
///
/// # Examples
///
/// ```
/// use ladders::board::RollAgain;
/// use ladders::internals::next_streak;
/// assert_eq!(next_streak(RollAgain::Forfeit(3), true, 1), 2);
/// assert_eq!(next_streak(RollAgain::Forfeit(3), false, 1), 0);
/// assert_eq!(next_streak(RollAgain::Unlimited, true, 4), 0);
/// ```
pub fn next_streak(roll_again: RollAgain, top: bool, streak: u32) -> u32 {
    match (roll_again, top) {
        (RollAgain::Forfeit(_), true) => streak + 1,
        _ => 0,
    }
}

/// Whether the player rolls again in this turn after a moved roll: the throw grants another
/// roll (`again`, from [`throw_effect`]) or the move ended on an extra-turn square, and the
/// game is not over (`finished`) and the move did not stop on a jump that takes a turn
/// ([`RollOutcome::pending`], `jump_takes_turn`). A top throw that lands on an extra-turn
/// square still gives only one more roll.
pub fn rolls_again(again: bool, outcome: &RollOutcome, finished: bool) -> bool {
    (again || outcome.extra_roll) && !finished && !outcome.pending
}

/// What one roll inside a turn did, and whether the turn goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnStep {
    /// The roll's effect; for a forfeited roll, `to` is the square the turn began on and the
    /// counts are zero.
    pub outcome: RollOutcome,
    /// True when the player rolls again in this turn.
    pub again: bool,
    /// True when this roll was the K-th top throw in a row and forfeited the turn.
    pub forfeited: bool,
}

/// Every outcome of one roll inside a turn on `board` (one player, the state a square): the
/// player began the turn on `turn_start`, stands on `square`, has thrown `streak` top throws in
/// a row so far in this turn, and throws `sum`. Each step comes with its weight out of the
/// returned total. The plain board's view of `throw_into`. When the dice have more than one
/// throw of that sum (a roll-again throw and another, as the dice's [`Throw::top`] says), the
/// steps of each, weighted by the throw's weight; with one throw, its steps alone.
pub fn turn_steps(
    board: &Board,
    turn_start: Square,
    square: Square,
    streak: u32,
    sum: u32,
) -> (Vec<(u64, TurnStep)>, u64) {
    let throws: Vec<&Throw> = board
        .dice()
        .throws()
        .iter()
        .filter(|t| t.sum == sum)
        .collect();
    if let [_, _, ..] = throws.as_slice() {
        // Each throw's steps out of a common total: the throw's weight times the lcm of the
        // throws' own totals (a forfeit's total is 1, a move's the roll law's).
        let each: Vec<_> = throws
            .iter()
            .map(|t| (t.weight, throw_steps(board, turn_start, square, streak, t)))
            .collect();
        let common = each.iter().fold(1, |l, (_, (_, total))| lcm(l, *total));
        let mut steps = Vec::new();
        let mut total = 0;
        for (weight, (own, own_total)) in each {
            let scale = weight * (common / own_total);
            steps.extend(own.into_iter().map(|(w, step)| (w * scale, step)));
            total += weight * common;
        }
        return (steps, total);
    }
    let throw = throws.first().map_or(
        Throw {
            sum,
            weight: 1,
            top: sum == board.dice().max_sum(),
        },
        |t| Throw { weight: 1, ..**t },
    );
    throw_steps(board, turn_start, square, streak, &throw)
}

/// [`turn_steps`] for one throw of the dice (its sum and whether it rolls again).
fn throw_steps(
    board: &Board,
    turn_start: Square,
    square: Square,
    streak: u32,
    throw: &Throw,
) -> (Vec<(u64, TurnStep)>, u64) {
    let now = InTurn { at: square, streak };
    let mut thrown = Vec::new();
    let total = throw_into(
        &SingleBoard::new(board),
        &turn_start,
        &now,
        throw,
        &mut Vec::new(),
        &mut thrown,
    );
    let steps = thrown
        .into_iter()
        .map(|t| {
            let outcome = match t.forfeited {
                true => RollOutcome {
                    to: turn_start,
                    ..RollOutcome::default()
                },
                false => t.outcome,
            };
            let step = TurnStep {
                outcome,
                again: matches!(t.step, Step::Continue(_)),
                forfeited: t.forfeited,
            };
            (t.weight, step)
        })
        .collect();
    (steps, total)
}

/// [`turn_steps`] on a board whose rolls are decided by the throw alone (no chance squares or
/// tiles): the one outcome.
///
/// # Panics
///
/// When the roll is random beyond its throw, or the dice throw `sum` both in a way that rolls
/// again and in one that does not.
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::internals::turn_step;
/// let efi = builtin("efi").unwrap();
/// let step = turn_step(&efi, 1, 1, 0, 6);
/// assert_eq!(step.outcome.to, 7);
/// assert!(step.again); // a six rolls again on the Efi board
/// ```
pub fn turn_step(
    board: &Board,
    turn_start: Square,
    square: Square,
    streak: u32,
    sum: u32,
) -> TurnStep {
    match turn_steps(board, turn_start, square, streak, sum)
        .0
        .as_slice()
    {
        [(_, step)] => *step,
        _ => panic!("turn_step is for boards without chance squares or tiles"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RuleOverrides;
    use crate::game::roll::tests::SMALL;
    use crate::test_util::board;

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
