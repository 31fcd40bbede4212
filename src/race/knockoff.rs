//! The knock-off house rule (seed 004): a player whose move ends on the square where an opponent
//! stands sends that opponent back to the start. The players now interact, so the chain is the
//! joint one over (every position, whose turn) ([`KnockOff`], a [`TurnModel`]), and the answers
//! are absorption probabilities and an expected reward of that chain.
//!
//! # What "landing" means
//!
//! A roll lands on the square where its move ends: after the overshoot rule and after every jump
//! it triggers (the final square of a chain of jumps), as [`crate::game::roll`] reports it.
//! Squares passed on the way (a ladder's foot, a snake's head) knock nobody off. A roll that
//! leaves the token where the roll began (a roll past the finish under `overshoot = "stay"`, a
//! forfeited roll) lands nowhere, and square 0 (off the board) is nobody's square. Every opponent
//! on the landing square goes back to its board's start (0 or 1), at once, so with roll-again a
//! knock-off happens mid-turn and the rest of the turn sees it. A forfeited turn (the K-th top
//! face) sends the mover back to where the turn began but does not undo the knock-offs made
//! earlier in that turn.
//!
//! # What is computed
//!
//! With Q the transient part of the joint chain and N = (I - Q)^-1 (Kemeny and Snell, *Finite
//! Markov Chains*, theorem 3.3.7 for absorption probabilities): seat s wins with probability
//! `(N r_s)[start]`, where `r_s[x]` is the probability that the turn from x ends with s
//! finishing; the expected length in rounds is `(N b)[start]` with `b[x] = 1` when seat 1 is
//! to move in x (every round begins with seat 1's turn).
//!
//! - Small joint chains ([`KnockOffOptions::exact_limit`] transient states) are solved exactly
//!   with the exact solver [`solve`] (one elimination per prime, one right-hand
//!   side per seat plus one for the length).
//! - Larger ones are stepped in outward-rounded fixed point (`super::fixed`) until the mass still
//!   in play is negligible: seat s's win lies in `[absorbed_lo, absorbed_hi + P(still playing)]`,
//!   and the length's tail is bounded with a certified supersolution (`supersolution`). The
//!   answers are certified intervals, as for independent seats.
//!
//! Without the rule (`knock_off = false`) the same joint chain plays alternating turns without
//! interaction; the tests use it to show that the series of `super::independent` (seed 000's
//! "each plays a whole game, fewest turns wins") gives the same numbers.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::fixed::{supersolution, FixedChain};
use super::independent::{bits_for, settled, Method, Race, SeatResult};
use super::relative::{self, RelativeError};
use crate::board::{Board, Dice, RollAgain, Square};
use crate::chain::{compound_move, Chain, ChainState, ChainTooLarge, Turn, TurnModel};
use crate::exact::solve::{identity_minus, solve, transient_matrix, System, Wanted};
use crate::game::roll;
use crate::game::{Branches, RollGame};
use crate::num::dyadic::unscaled as dyadic;
use crate::num::interval::Interval;

/// A state of the joint game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JointState {
    /// Every seat's square, and the seat (from 0) whose turn it is.
    Playing {
        /// `positions[s]`: the square of seat s.
        positions: Vec<Square>,
        /// The seat to move, from 0.
        to_move: usize,
    },
    /// The game is over: this seat (from 0) finished first.
    Won(usize),
}

/// Several players taking whole turns in seat order, with or without the knock-off rule.
#[derive(Clone, Debug)]
pub struct KnockOff<'a> {
    boards: Vec<&'a Board>,
    knock_off: bool,
}

/// The knock-off race cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockOffError {
    /// The seats' boards differ in size, so "the same square" means nothing.
    #[error("knock-off needs every seat's board to have the same squares (sizes {0} and {1})")]
    SizesDiffer(Square, Square),
    /// No seats.
    #[error("a race needs at least one player")]
    NoPlayers,
    /// The joint chain is larger than allowed.
    #[error("the joint chain of the knock-off game has more than {} states; fewer players or a smaller board are needed", .0.limit)]
    TooLarge(ChainTooLarge),
    /// No certified bound of the game's remaining length was found (the float candidate for the
    /// supersolution failed its exact check), so the stepped answer cannot be certified.
    #[error("could not certify a bound on the remaining length of the knock-off game (the joint chain's expected times are too long for the float candidate)")]
    NoTailBound(usize),
    /// Every seat plays the same board, but even relative positions need too much memory.
    #[error(transparent)]
    Relative(RelativeError),
    /// The joint chain could need more memory than `KNOCK_OFF_MEMORY` (refused before
    /// anything is allocated, `memory_fits`).
    #[error(
        "the knock-off joint chain may need up to {:.3e} states, about {:.1} GB of memory (the \
         limit is {:.0} GB)",
        *states as f64,
        *states as f64 * BYTES_PER_JOINT_STATE / 1e9,
        KNOCK_OFF_MEMORY / 1e9
    )]
    TooMuchMemory {
        /// The most joint states the chain may have.
        states: u64,
        /// The seats.
        players: usize,
    },
    /// From some reachable joint state no one can ever finish.
    #[error("the game can last forever: from the positions {positions:?} (seat {seat} to move) no player can ever finish")]
    NeverEnds {
        /// The seats' squares in the trapped state.
        positions: Vec<Square>,
        /// The seat to move, from 1.
        seat: usize,
    },
}

impl<'a> KnockOff<'a> {
    /// The joint game of `boards` (seat order), with the knock-off rule when `knock_off`.
    ///
    /// # Errors
    ///
    /// [`KnockOffError::SizesDiffer`] when the boards do not share their squares,
    /// [`KnockOffError::NoPlayers`] for no boards.
    pub fn new(boards: &[&'a Board], knock_off: bool) -> Result<KnockOff<'a>, KnockOffError> {
        let first = boards.first().ok_or(KnockOffError::NoPlayers)?;
        if let Some(b) = boards
            .iter()
            .find(|b| knock_off && b.size() != first.size())
        {
            return Err(KnockOffError::SizesDiffer(first.size(), b.size()));
        }
        Ok(KnockOff {
            boards: boards.to_vec(),
            knock_off,
        })
    }

    /// The positions after seat `s`'s roll moved it from `from` to `to`, with the knock-off.
    fn land(&self, positions: &[Square], s: usize, from: Square, to: Square) -> Vec<Square> {
        let mut p = positions.to_vec();
        p[s] = to;
        if self.knock_off && knocks(from, to) {
            for (j, q) in p.iter_mut().enumerate() {
                if j != s && *q == to {
                    *q = self.boards[j].rules().start;
                }
            }
        }
        p
    }
}

impl TurnModel for KnockOff<'_> {
    type State = JointState;

    fn start(&self) -> JointState {
        JointState::Playing {
            positions: self.boards.iter().map(|b| b.rules().start).collect(),
            to_move: 0,
        }
    }

    fn is_final(&self, state: &JointState) -> bool {
        matches!(state, JointState::Won(_))
    }

    /// The compound move of the seat to move: [`compound_move`] over joint states.
    fn turn(&self, state: &JointState) -> Turn<JointState> {
        compound_move(self, state)
    }
}

impl RollGame for KnockOff<'_> {
    type State = JointState;

    fn dice(&self, state: &JointState) -> &Dice {
        self.boards[mover(state)].dice()
    }

    fn roll_again(&self, state: &JointState) -> RollAgain {
        self.boards[mover(state)].rules().roll_again
    }

    fn is_final(&self, state: &JointState) -> bool {
        matches!(state, JointState::Won(_))
    }

    /// The seat to move rolls; landing on an opponent sends it back to its start.
    fn roll_into(&self, state: &JointState, sum: u32, out: &mut Branches<JointState>) -> u64 {
        let JointState::Playing { positions, to_move } = state else {
            unreachable!("no roll from a final state")
        };
        let s = *to_move;
        let board = self.boards[s];
        let from = positions[s];
        let law = roll(board, from, sum);
        out.clear();
        out.extend(law.branches().iter().map(|&(w, o)| {
            let next = if o.to == board.size() {
                JointState::Won(s)
            } else {
                JointState::Playing {
                    positions: self.land(positions, s, from, o.to),
                    to_move: s,
                }
            };
            (w, next, o)
        }));
        law.total()
    }

    /// The mover goes back to where the turn began; knock-offs made earlier in the turn stand.
    fn forfeit(&self, began: &JointState, now: &JointState) -> JointState {
        let (JointState::Playing { positions: b, .. }, JointState::Playing { positions, to_move }) =
            (began, now)
        else {
            unreachable!("forfeits happen between non-final states")
        };
        let mut p = positions.clone();
        p[*to_move] = b[*to_move];
        JointState::Playing {
            positions: p,
            to_move: *to_move,
        }
    }

    fn end_turn(&self, state: JointState) -> JointState {
        match state {
            JointState::Playing { positions, to_move } => JointState::Playing {
                positions,
                to_move: (to_move + 1) % self.boards.len(),
            },
            won => won,
        }
    }
}

/// Whether a roll that took the mover from `from` to `to` lands anywhere (module doc): opponents
/// on `to` are sent back only then.
pub(crate) fn knocks(from: Square, to: Square) -> bool {
    to != from && to != 0
}

/// The seat to move in a non-final state.
fn mover(state: &JointState) -> usize {
    match state {
        JointState::Playing { to_move, .. } => *to_move,
        JointState::Won(_) => unreachable!("nobody moves in a final state"),
    }
}

/// Limits and precision of a knock-off race.
#[derive(Clone, Copy, Debug)]
pub struct KnockOffOptions {
    /// Digits after the point to certify.
    pub digits: usize,
    /// The most turns per player stepped before giving up on more digits.
    pub max_turns: usize,
    /// The most joint states the chain may have.
    pub state_limit: usize,
    /// Solve exactly when the joint chain has at most this many transient states.
    pub exact_limit: usize,
}

impl Default for KnockOffOptions {
    fn default() -> KnockOffOptions {
        KnockOffOptions {
            digits: 12,
            max_turns: 100_000,
            state_limit: 200_000,
            exact_limit: 2000,
        }
    }
}

/// The joint chain of `boards` (in seat order), built within `options.state_limit` states.
///
/// # Errors
///
/// See [`KnockOffError`].
pub fn joint_chain(
    boards: &[&Board],
    knock_off: bool,
    state_limit: usize,
) -> Result<Chain<JointState>, KnockOffError> {
    let model = KnockOff::new(boards, knock_off)?;
    let chain = Chain::build_limited(&model, state_limit).map_err(KnockOffError::TooLarge)?;
    if let Some(trap) = chain.trap() {
        let JointState::Playing { positions, to_move } = trap.state else {
            unreachable!("final states are never trapped")
        };
        return Err(KnockOffError::NeverEnds {
            positions,
            seat: to_move + 1,
        });
    }
    Ok(chain)
}

/// Memory of the knock-off joint chain per state, with its transitions and the stepping vectors:
/// measured 66 MB peak for the about 30,000 states of three players on a 30-square board
/// (`/usr/bin/time -v ladders race b30.toml --knock-off --players 3 --exact-limit 0`), rounded up.
pub const BYTES_PER_JOINT_STATE: f64 = 2_500.0;

/// The most memory a knock-off race may plan for before it starts building the joint chain.
pub const KNOCK_OFF_MEMORY: f64 = 2.0 * (1u64 << 30) as f64;

/// Refuses, before anything is allocated, a joint chain of `boards` that could need more than
/// [`KNOCK_OFF_MEMORY`]: its states are at most the product of the seats' squares (start
/// included) times the seats (whose turn it is), and `state_limit` caps them.
///
/// # Errors
///
/// [`KnockOffError::TooMuchMemory`].
pub fn memory_fits(boards: &[&Board], state_limit: usize) -> Result<(), KnockOffError> {
    let bound = boards.len() as f64
        * boards
            .iter()
            .map(|b| f64::from(b.size()) + 1.0)
            .product::<f64>();
    let states = bound.min(state_limit as f64);
    match states * BYTES_PER_JOINT_STATE > KNOCK_OFF_MEMORY {
        true => Err(KnockOffError::TooMuchMemory {
            states: states as u64,
            players: boards.len(),
        }),
        false => Ok(()),
    }
}

/// Win probability per seat and expected rounds of the joint game: exact for small joint
/// chains, certified intervals otherwise (see the module doc); with the knock-off rule and every
/// seat on the same board, by [`relative::relative_race`] when the joint chain is too large to
/// solve exactly.
///
/// # Errors
///
/// See [`KnockOffError`].
pub fn knock_off_race(
    boards: &[&Board],
    knock_off: bool,
    options: &KnockOffOptions,
) -> Result<Race, KnockOffError> {
    // Every seat on the same board, and a joint chain too large to solve exactly: relative
    // positions (a P-th of the states, floats with a certified bound).
    let small =
        relative::joint_states_bound(boards).is_some_and(|n| n <= options.exact_limit as f64);
    if knock_off && !small {
        match relative::relative_race(boards, options.digits) {
            Ok(race) => return Ok(race),
            Err(e @ RelativeError::TooLarge { .. }) => return Err(KnockOffError::Relative(e)),
            Err(_) => {}
        }
    }
    memory_fits(boards, options.state_limit)?;
    let chain = joint_chain(boards, knock_off, options.state_limit)?;
    if chain.transient_count() <= options.exact_limit {
        Ok(solve_exactly(&chain, boards.len(), options.digits))
    } else {
        step_joint(&chain, boards.len(), options)
    }
}

/// A state of a joint race chain ([`KnockOff`]'s, [`super::shared`]'s): who won in a final
/// state, and whether seat 1 is to move (a round begins).
pub trait RaceState: ChainState {
    /// The seat (from 0) that won, in a final state; `None` while the game goes on.
    fn winner(&self) -> Option<usize>;
    /// True when seat 1 (index 0) is to move: every round begins with seat 1's turn.
    fn begins_round(&self) -> bool;
}

impl RaceState for JointState {
    fn winner(&self) -> Option<usize> {
        match self {
            JointState::Won(seat) => Some(*seat),
            JointState::Playing { .. } => None,
        }
    }

    fn begins_round(&self) -> bool {
        matches!(self, JointState::Playing { to_move: 0, .. })
    }
}

/// The reward "seat 1 is to move" (one per round) of every transient state.
fn round_reward<S: RaceState>(chain: &Chain<S>) -> Vec<u32> {
    chain.states()[..chain.transient_count()]
        .iter()
        .map(|s| u32::from(s.begins_round()))
        .collect()
}

/// For every final state index (from 0 among the finals), the seat that won there.
fn final_seats<S: RaceState>(chain: &Chain<S>) -> Vec<usize> {
    chain.states()[chain.transient_count()..]
        .iter()
        .map(|s| s.winner().expect("final states are wins"))
        .collect()
}

/// `(N r_s)[start]` and `(N b)[start]` in rational arithmetic.
pub fn solve_exactly<S: RaceState>(chain: &Chain<S>, players: usize, digits: usize) -> Race {
    let n = chain.transient_count();
    let start = chain.start();
    let seat_of = final_seats(chain);
    let mut rhs: Vec<Vec<BigRational>> = (0..players)
        .map(|seat| {
            chain
                .rows()
                .iter()
                .map(|row| {
                    row.iter()
                        .filter(|(j, _)| *j >= n && seat_of[*j - n] == seat)
                        .map(|(_, p)| p.clone())
                        .sum()
                })
                .collect()
        })
        .collect();
    rhs.push(
        round_reward(chain)
            .into_iter()
            .map(|x| BigRational::from_integer(x.into()))
            .collect(),
    );
    let at_start = [start];
    let wanted = vec![Wanted::Some(&at_start); rhs.len()];
    let a = identity_minus(&transient_matrix(chain));
    let mut x = solve(System::rational(&a, &rhs), &wanted)
        .expect("every joint state can reach a win, so I - Q is nonsingular");
    let rounds = x.pop().and_then(|mut v| v.pop()).expect("one value asked");
    let seats = x
        .into_iter()
        .enumerate()
        .map(|(seat, mut v)| SeatResult {
            seat: seat + 1,
            win: Interval::exact(v.pop().expect("one value asked")),
            score: None,
        })
        .collect();
    Race {
        seats,
        expected_rounds: Interval::exact(rounds),
        rounds_at_least: Vec::new(),
        turns_summed: 0,
        digits,
        complete: true,
        method: Method::ExactSolve,
    }
}

/// The joint law stepped with outward rounding until every answer has its digits.
///
/// # Errors
///
/// [`KnockOffError::NoTailBound`] when no certified supersolution was found.
pub fn step_joint<S: RaceState>(
    chain: &Chain<S>,
    players: usize,
    options: &KnockOffOptions,
) -> Result<Race, KnockOffError> {
    let bits = bits_for(options.digits);
    let fixed = FixedChain::new(chain, bits);
    let reward = round_reward(chain);
    let h = supersolution(&fixed, &reward)
        .ok_or(KnockOffError::NoTailBound(chain.transient_count()))?;
    let seat_of = final_seats(chain);
    let mut stepper = fixed.stepper();
    let mut win_lo = vec![BigUint::zero(); players];
    let mut win_hi = vec![BigUint::zero(); players];
    let (mut rounds_lo, mut rounds_hi) = (BigUint::zero(), BigUint::zero());
    let threshold = BigRational::new(
        BigInt::one(),
        BigInt::from(10u32).pow(options.digits as u32 + 1),
    );
    let max_steps = options.max_turns.saturating_mul(players);
    let stage = crate::progress::Stage::begin("stepping the joint chain", None);
    loop {
        stage.advance(stepper.turn() as u64);
        {
            let (lo, hi) = stepper.transient();
            for (i, r) in reward.iter().enumerate() {
                if *r == 1 {
                    rounds_lo += &lo[i];
                    rounds_hi += &hi[i];
                }
            }
        }
        stepper.step();
        let (alo, ahi) = stepper.absorbed();
        for (f, seat) in seat_of.iter().enumerate() {
            win_lo[*seat] += &alo[f];
            win_hi[*seat] += &ahi[f];
        }
        let n = stepper.turn();
        let alive = stepper.survives().1.clone();
        if dyadic(&alive, bits) >= threshold && n < max_steps {
            continue;
        }
        let seats: Vec<SeatResult> = (0..players)
            .map(|s| {
                let hi = dyadic(&(&win_hi[s] + &alive), bits).min(BigRational::one());
                let lo = dyadic(&win_lo[s], bits).min(hi.clone());
                SeatResult {
                    seat: s + 1,
                    win: Interval::new(lo, hi),
                    score: None,
                }
            })
            .collect();
        // The rest of the length: sum_x P(X_M = x) E[remaining rounds | x] <= sum_x hi[x] h[x].
        let tail = {
            let (_, hi) = stepper.transient();
            let dot: BigUint = hi.iter().zip(&h).map(|(a, b)| a * b).sum();
            dyadic(&dot, 2 * bits)
        };
        let expected_rounds =
            Interval::new(dyadic(&rounds_lo, bits), dyadic(&rounds_hi, bits) + tail);
        let (certified, hopeless) = settled(&seats, &expected_rounds, options.digits);
        if certified || hopeless || n >= max_steps {
            return Ok(Race {
                seats,
                expected_rounds,
                rounds_at_least: Vec::new(),
                turns_summed: n,
                digits: options.digits,
                complete: certified || hopeless,
                method: Method::SteppedJoint,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::race::{race, RaceOptions};
    use crate::test_util::{board, q};

    #[test]
    fn with_one_player_the_knock_off_chain_is_the_single_player_chain() {
        for name in ["tiny", "milton-bradley", "efi"] {
            let b = builtin(name).unwrap();
            let single = Chain::for_board(&b);
            let joint = joint_chain(&[&b], true, 10_000).unwrap();
            assert_eq!(joint.transient_count(), single.transient_count(), "{name}");
            for (i, state) in single.states()[..single.transient_count()]
                .iter()
                .enumerate()
            {
                let js = JointState::Playing {
                    positions: vec![*state],
                    to_move: 0,
                };
                let ji = joint.index_of(&js).expect("same states");
                let map = |j: usize| -> JointState {
                    if j < single.transient_count() {
                        JointState::Playing {
                            positions: vec![single.states()[j]],
                            to_move: 0,
                        }
                    } else {
                        JointState::Won(0)
                    }
                };
                let mut expect: Vec<(JointState, BigRational)> = single
                    .row(i)
                    .iter()
                    .map(|(j, p)| (map(*j), p.clone()))
                    .collect();
                expect.sort();
                let got: Vec<(JointState, BigRational)> = joint
                    .row(ji)
                    .iter()
                    .map(|(j, p)| (joint.states()[*j].clone(), p.clone()))
                    .collect();
                assert_eq!(got, expect, "{name}: square {state}");
                assert_eq!(joint.rewards(ji), single.rewards(i), "{name}");
            }
        }
    }

    #[test]
    fn a_knock_off_on_the_smallest_board_by_hand() {
        // size 3, die 2, start 0, overshoot stay, no jumps, two players. Worked by hand.
        // W(x, y): P(the player to move wins), standing on x with the opponent on y. From 0 a 1
        // goes to 1 and a 2 to 2; from 1 a 1 goes to 2 and a 2 finishes; from 2 a 1 finishes and
        // a 2 overshoots and stays (no move, no knock-off). Landing on y sends the opponent to 0;
        // after a move to x' (opponent now on y') the opponent moves: 1 - W(y', x').
        // W(2,2) = 1/2 + 1/2 (1 - W(2,2))                       => 2/3 (not needed below)
        // u = W(2,1) = 1/2 + 1/2 (1 - W(1,2))                   = 1 - v/2
        // v = W(1,2) = 1/2 + 1/2 (1 - W(0,2))   (knock-off)     = 1 - w/2
        // w = W(0,2) = 1/2 (1 - W(2,1)) + 1/2 (1 - W(0,2))  (a 2 knocks: opponent on 0)
        //   => w = 2/3 - u/3, u = 1/2 + w/4 = 2/3 - u/12 => u = 8/13, w = 6/13, v = 10/13.
        // W(0,1) = 1/2 (1 - W(0,1)) (a 1 knocks) + 1/2 (1 - W(1,2)) => 3/2 W(0,1) = 8/13
        //   => W(0,1) = 16/39.
        // W(0,0) = 1/2 (1 - W(0,1)) + 1/2 (1 - W(0,2)) = 1/2 (23/39) + 1/2 (21/39) = 22/39.
        let b = board("size = 3\n[rules]\ndie = 2\n");
        let r = knock_off_race(&[&b, &b], true, &KnockOffOptions::default()).unwrap();
        assert_eq!(r.method, Method::ExactSolve);
        assert_eq!(r.seats[0].win, Interval::exact(q(22, 39)));
        assert_eq!(r.seats[1].win, Interval::exact(q(17, 39)));
    }

    #[test]
    fn alternating_turns_equal_seed_000s_whole_games_definition() {
        // The joint chain without knock-off (alternating turns, solved exactly) against the
        // series of seed 000's definition (independent whole games, fewest turns wins, ties to
        // the earlier seat).
        let tiny = builtin("tiny").unwrap();
        let small = board(
            "size = 12\nsnakes = [[11, 2], [7, 3]]\nladders = [[2, 6]]\n[rules]\ndie = 3\nroll_again = \"unlimited\"\novershoot = \"bounce\"\n",
        );
        for boards in [
            vec![&tiny, &tiny],
            vec![&small, &tiny],
            vec![&tiny, &small, &tiny],
            vec![&small, &small],
        ] {
            let exact = knock_off_race(&boards, false, &KnockOffOptions::default()).unwrap();
            assert_eq!(exact.method, Method::ExactSolve);
            let series = race(&boards, &RaceOptions::default()).unwrap();
            for (e, s) in exact.seats.iter().zip(&series.seats) {
                assert!(s.win.contains(&e.win.lo), "seat {}", e.seat);
            }
            assert!(series.expected_rounds.contains(&exact.expected_rounds.lo));
        }
    }

    #[test]
    fn the_stepped_answer_contains_the_exact_one() {
        let small = board(
            "size = 12\nsnakes = [[11, 2], [7, 3]]\nladders = [[2, 6]]\n[rules]\ndie = 3\nroll_again = \"unlimited\"\novershoot = \"bounce\"\n",
        );
        let boards = [&small, &small];
        let chain = joint_chain(&boards, true, 10_000).unwrap();
        let exact = solve_exactly(&chain, 2, 12);
        let stepped = step_joint(&chain, 2, &KnockOffOptions::default()).unwrap();
        assert!(stepped.complete);
        for (e, s) in exact.seats.iter().zip(&stepped.seats) {
            assert!(s.win.contains(&e.win.lo));
            assert_eq!(s.win.certified(12).digits, 12);
        }
        assert!(stepped.expected_rounds.contains(&exact.expected_rounds.lo));
        // The rule matters here: knock-offs make the game longer than without them.
        let plain = solve_exactly(&joint_chain(&boards, false, 10_000).unwrap(), 2, 12);
        assert!(exact.expected_rounds.lo > plain.expected_rounds.lo);
    }

    #[test]
    fn boards_of_different_sizes_cannot_knock() {
        let tiny = builtin("tiny").unwrap();
        let mb = builtin("milton-bradley").unwrap();
        assert!(matches!(
            KnockOff::new(&[&tiny, &mb], true),
            Err(KnockOffError::SizesDiffer(4, 100))
        ));
    }
}
