//! Boards whose turn can go on for ever, found before any game is simulated: a simulation there
//! would never return (the turn cap counts turns, and such a turn never ends).
//!
//! A turn goes on only after a top throw (`roll_again = "unlimited"`; with `roll_again = K` the
//! K-th top throw ends it) or on an extra-turn square. With unlimited roll-again and no
//! extra-turn square, a turn can last for ever with positive probability only if the top throw
//! has probability 1 (otherwise a run of n top throws has probability P(top)^n -> 0); only then,
//! or when the board has extra-turn squares, is the one-player chain built, and its turn
//! function ([`super::compound_move`], the one definition) says which state's turn never
//! ends. [`turn_loop`] names the throws that keep such a turn going, and [`Trap::sentence`]
//! says in words how a game can last for ever: the one sentence every report and error gives.

use std::collections::{HashMap, VecDeque};

use super::{first_endless, Chain, Trap, TurnModel};
use crate::board::{Board, Square};
use crate::game::{
    begin, throw_into, Capabilities, InTurn, PlayerState, RollGame, SingleBoard, StatefulBoard,
    Step,
};

/// The square (nearest the start) where a reachable turn can go on for ever, if any.
pub fn endless_turn(board: &Board) -> Option<Square> {
    let dice = board.dice();
    let all_top = dice.throws().iter().all(|t| t.top || t.weight == 0);
    let caps = Capabilities::of(board);
    if !(caps.extra_rolls || (caps.rolls_again_unlimited() && all_top)) {
        return None;
    }
    if !caps.stateless {
        // Eaten apples change no move: the lumped game's turns are the full game's.
        let game = StatefulBoard::for_turns(board);
        first_endless(&game, TurnModel::start(&game)).map(|s| s.square)
    } else {
        Chain::for_board(board).endless_state().copied()
    }
}

/// How a turn can go on for ever: throws that keep the turn going round the same squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnLoop {
    /// The loop as (square, throw): each throw, from its square, lets the turn go on from the
    /// next pair's square (the last back to the first's). From these squares no throw ends the
    /// turn.
    pub steps: Vec<(Square, u32)>,
}

impl std::fmt::Display for TurnLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.steps.as_slice() {
            [(square, throw)] => write!(
                f,
                "on square {square} a throw of {throw} ends on square {square} and the turn \
                 goes on, again and again"
            ),
            steps => {
                let mut round: Vec<String> = steps
                    .iter()
                    .map(|(s, t)| format!("{s} (a throw of {t})"))
                    .collect();
                round.push(steps.first().map_or(String::new(), |(s, _)| s.to_string()));
                write!(
                    f,
                    "the token goes round {} and the turn goes on after every throw",
                    round.join(" -> ")
                )
            }
        }
    }
}

/// The throws that keep a turn begun on `began` going for ever, if it can go on for ever; found
/// through the turn machine (on a board that changes during a game, from `began` with nothing
/// used, eaten or owed).
pub fn turn_loop(board: &Board, began: Square) -> Option<TurnLoop> {
    if Capabilities::of(board).stateless {
        return loop_of(&SingleBoard::new(board), began, |s| *s);
    }
    let game = StatefulBoard::for_turns(board);
    let fresh = PlayerState {
        square: began,
        ..game.start()
    };
    loop_of(&game, fresh, |s| s.square)
}

/// [`turn_loop`] in any game, its states shown by their `square`.
fn loop_of<G: RollGame>(
    game: &G,
    began: G::State,
    square: impl Fn(&G::State) -> Square,
) -> Option<TurnLoop> {
    let Step::Continue(first) = begin(game, began.clone()) else {
        return None;
    };
    // The in-turn states in the order found, and per state its throws: (sum, the next
    // in-turn state's index, or None when the throw can end the turn).
    let mut states = vec![first.clone()];
    let mut index: HashMap<InTurn<G::State>, usize> = HashMap::from([(first, 0)]);
    let mut moves: Vec<Vec<(u32, Option<usize>)>> = Vec::new();
    let (mut rolled, mut thrown) = (Vec::new(), Vec::new());
    while moves.len() < states.len() {
        let now = states[moves.len()].clone();
        let mut here = Vec::new();
        for throw in game.dice(&now.at).throws().iter().filter(|t| t.weight > 0) {
            thrown.clear();
            throw_into(game, &began, &now, throw, &mut rolled, &mut thrown);
            for t in thrown.drain(..).filter(|t| t.weight > 0) {
                let next = match t.step {
                    Step::End(_) => None,
                    Step::Continue(next) => Some(match index.get(&next) {
                        Some(&j) => j,
                        None => {
                            index.insert(next.clone(), states.len());
                            states.push(next);
                            states.len() - 1
                        }
                    }),
                };
                here.push((throw.sum, next));
            }
        }
        moves.push(here);
    }
    // Backwards from the throws that end the turn: the states from which it can end.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); states.len()];
    for (i, here) in moves.iter().enumerate() {
        for j in here.iter().filter_map(|m| m.1) {
            preds[j].push(i);
        }
    }
    let mut can_end: Vec<bool> = moves
        .iter()
        .map(|h| h.iter().any(|m| m.1.is_none()))
        .collect();
    let mut queue: VecDeque<usize> = (0..states.len()).filter(|&i| can_end[i]).collect();
    while let Some(j) = queue.pop_front() {
        for &i in &preds[j] {
            if !can_end[i] {
                can_end[i] = true;
                queue.push_back(i);
            }
        }
    }
    // From a state that cannot end the turn every throw goes on to another such state: follow
    // the first throw until a state repeats.
    let mut at = can_end.iter().position(|&c| !c)?;
    let mut path: Vec<(Square, u32)> = Vec::new();
    let mut seen: HashMap<usize, usize> = HashMap::new();
    while let std::collections::hash_map::Entry::Vacant(e) = seen.entry(at) {
        e.insert(path.len());
        let (sum, next) = moves[at].iter().find_map(|&(s, m)| Some((s, m?)))?;
        path.push((square(&states[at].at), sum));
        at = next;
    }
    Some(TurnLoop {
        steps: path.split_off(seen[&at]),
    })
}

/// "a turn from square S can go on for ever", with the throws that keep it going
/// ([`turn_loop`]) where they are found.
pub fn endless_turn_sentence(board: &Board, began: Square) -> String {
    match turn_loop(board, began) {
        Some(l) => format!("a turn from square {began} can go on for ever: {l}"),
        None => format!("a turn from square {began} can go on for ever"),
    }
}

impl Trap<Square> {
    /// How the game can last for ever, in words: a turn that can go on for ever (with the
    /// throws that keep it going, found on `board`), or a cycle the token can go round.
    pub fn sentence(&self, board: &Board) -> String {
        if self.endless_turn {
            return endless_turn_sentence(board, self.state);
        }
        if let [a, b] = self.cycle.as_slice() {
            if a == b {
                return format!(
                    "from square {} the finish can never be reached: a turn from square {a} can \
                     end on square {a}, again and again",
                    self.state
                );
            }
        }
        let cycle: Vec<String> = self.cycle.iter().map(|s| s.to_string()).collect();
        format!(
            "from square {} the finish can never be reached: the token can go round {} forever",
            self.state,
            cycle.join(" -> ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::board;

    #[test]
    fn a_die_that_only_shows_its_top_face_never_ends_a_turn_that_cannot_finish() {
        // Every throw is a 6 and rolls again: 0 -> 6, then 6 + 6 = 12 overshoots 10 and stays,
        // for ever. With overshoot "allow" the second 6 finishes, so the turn ends.
        let stay = "size = 10\n[rules]\ndie = [0, 0, 0, 0, 0, 1]\nroll_again = \"unlimited\"\n";
        assert_eq!(endless_turn(&board(stay)), Some(0));
        let allow = stay.replace("unlimited\"", "unlimited\"\novershoot = \"allow\"");
        assert_eq!(endless_turn(&board(&allow)), None);
        // The third six forfeits: the turn ends.
        let forfeit = stay.replace("\"unlimited\"", "3");
        assert_eq!(endless_turn(&board(&forfeit)), None);
    }

    #[test]
    fn extra_turn_squares_that_every_roll_leads_back_to_never_end_the_turn() {
        // A coin: from 0 a roll ends on 1 (directly, or 2 -> 1 by the snake), an extra-turn
        // square; from 1 every roll ends on 1 again (2 -> 1, 3 -> 1). So the first turn, from
        // 0, never ends.
        let b = board("size = 6\nsnakes = [[2, 1], [3, 1]]\nextra_turn = [1]\n[rules]\ndie = 2\n");
        assert_eq!(endless_turn(&b), Some(0));
        // Without the extra turn the turn is one roll.
        let plain = board("size = 6\nsnakes = [[2, 1], [3, 1]]\n[rules]\ndie = 2\n");
        assert_eq!(endless_turn(&plain), None);
    }

    #[test]
    fn the_loop_names_the_squares_and_throws_that_keep_the_turn_going() {
        // Every throw a six: 0 -> 6, then from 6 a six overshoots 10 and stays on 6, for ever.
        let sixes = "size = 10\n[rules]\ndie = [0, 0, 0, 0, 0, 1]\nroll_again = \"unlimited\"\n";
        let sixes = board(sixes);
        assert_eq!(turn_loop(&sixes, 0).unwrap().steps, vec![(6, 6)]);
        // The extra-turn square 1: a 1 goes 1 -> 2 -> 1 (the snake), the first throw followed.
        let extra =
            board("size = 6\nsnakes = [[2, 1], [3, 1]]\nextra_turn = [1]\n[rules]\ndie = 2\n");
        assert_eq!(turn_loop(&extra, 0).unwrap().steps, vec![(1, 1)]);
        // Extra-turn squares 2 and 4 and a die that only throws 2: 0 -> 2, 2 -> 4, and 4 -> 6,
        // whose snake goes back to 2: the loop is 2 (a 2) -> 4 (a 2) -> 2.
        let two =
            board("size = 9\nsnakes = [[6, 2]]\nextra_turn = [2, 4]\n[rules]\ndie = [0, 1]\n");
        let l = turn_loop(&two, 0).unwrap();
        assert_eq!(l.steps, vec![(2, 2), (4, 2)]);
        assert_eq!(
            l.to_string(),
            "the token goes round 2 (a throw of 2) -> 4 (a throw of 2) -> 2 and the turn goes on \
             after every throw"
        );
        // A turn that always ends has no loop.
        assert_eq!(turn_loop(&builtin("milton-bradley").unwrap(), 0), None);
    }

    #[test]
    fn no_built_in_board_has_an_endless_turn() {
        for name in crate::board::builtin_names() {
            let b = builtin(name).unwrap();
            assert_eq!(endless_turn(&b), None, "{name}");
        }
    }
}
