//! The shortest and the longest game on a board that changes during a game (one-use jumps,
//! point squares, lost and extra turns, jumps that take a turn), over the full state: the
//! square, what is used up and eaten, and a turn owed.
//!
//! # Method
//!
//! - The turn graph is the one-player chain over [`PlayerState`] ([`stateful_chain`]), so the
//!   shortest game, the longest and their probabilities come from [`extremes_by`] as on any
//!   board.
//! - The rolls of one turn from state a to state b: a breadth-first search over the states inside
//!   the turn (the game's state and the top throws in a row), driven by the turn machine the
//!   chain's compound move and the simulator drive ([`begin`], [`throw_into`]), so the witness
//!   comes from the rules.
//! - Fewest rolls: a game is a sequence of turns, and its rolls are the sum of its turns' rolls,
//!   so the fewest rolls are a shortest path in the turn graph weighted by each turn's fewest
//!   rolls (0 for a skipped turn or a jump turn, which shows the square the jump took the
//!   token to), found by Dijkstra's algorithm (petgraph).
//! - What the shortest game does ("breaks the ladder on 3", "eats the point square 6 (+4)",
//!   "loses its next turn on 13") is read from the states at the ends of its turns.

use std::collections::{HashMap, VecDeque};

use petgraph::algo::astar;
use petgraph::graph::{DiGraph, NodeIndex};

use super::likeliest::{likeliest_turns, LikeliestTurns};
use super::shortest::{extremes_by, turn_rolls, Extremes, TurnRolls};
use super::stateful::stateful_chain;
use crate::board::{Board, Square};
use crate::chain::Chain;
use crate::game::{
    begin, throw_into, Capabilities, InTurn, PlayerState, RollGame, StatefulBoard, Step,
};

/// The shortest and the longest game of a stateful `board`.
pub fn stateful_extremes(board: &Board) -> Extremes {
    let chain = stateful_chain(board);
    let game = StatefulBoard::new(board);
    let turn = |a: &PlayerState, b: &PlayerState| turn_between(&game, a, b);
    let fewest = || fewest_rolls(&game, &chain);
    extremes_by(
        &chain,
        &turn,
        Some(&fewest),
        Some(&|a, b| turn_events(board, a, b)),
    )
}

/// The likeliest games of a stateful `board` ([`likeliest_turns`] over its chain), with the
/// rolls of each turn found as the shortest game's are.
pub fn stateful_likeliest(board: &Board, within: Option<usize>) -> Option<LikeliestTurns> {
    let game = StatefulBoard::new(board);
    likeliest_turns(&stateful_chain(board), within, &|a, b| {
        turn_between(&game, a, b)
    })
}

/// The likeliest games of any `board` (no policy): over the full state ([`stateful_likeliest`])
/// on a board that changes during a game, else over its squares, each turn's rolls from
/// [`turn_rolls`].
pub fn board_likeliest(board: &Board, within: Option<usize>) -> Option<LikeliestTurns> {
    if !Capabilities::of(board).stateless {
        return stateful_likeliest(board, within);
    }
    let turn = |&a: &Square, &b: &Square| turn_rolls(board, a, b);
    likeliest_turns(&Chain::for_board(board), within, &turn)
}

/// The fewest rolls of one turn from state a to state b, if a turn can go from a to b.
fn turn_between(game: &StatefulBoard<'_>, a: &PlayerState, b: &PlayerState) -> Option<TurnRolls> {
    turn_ends(game, a)
        .remove(b)
        .map(|(rolls, squares)| TurnRolls {
            from: a.square,
            rolls,
            squares,
        })
}

/// Every state where a turn from `from` can end, with the fewest rolls that get there (the
/// faces and the square after each roll), by a breadth-first search inside the turn.
fn turn_ends(
    game: &StatefulBoard<'_>,
    from: &PlayerState,
) -> HashMap<PlayerState, (Vec<u32>, Vec<Square>)> {
    let mut ends = HashMap::new();
    let first = match begin(game, *from) {
        Step::End(after) => {
            // A turn with no roll: a lost turn stays, a jump turn moves the token.
            let moved = (after.square != from.square).then_some(after.square);
            ends.insert(after, (Vec::new(), moved.into_iter().collect()));
            return ends;
        }
        Step::Continue(first) => first,
    };
    let throws: Vec<_> = game
        .dice(from)
        .throws()
        .iter()
        .filter(|t| t.weight > 0)
        .copied()
        .collect();
    // Breadth first: the first way found to a state is one with the fewest rolls.
    let mut paths: HashMap<InTurn<PlayerState>, (Vec<u32>, Vec<Square>)> =
        HashMap::from([(first, (Vec::new(), Vec::new()))]);
    let mut queue = VecDeque::from([first]);
    let (mut rolled, mut thrown) = (Vec::new(), Vec::new());
    while let Some(now) = queue.pop_front() {
        let (rolls, squares) = paths[&now].clone();
        let extend = |face: u32, square: Square| {
            let mut r = rolls.clone();
            let mut q = squares.clone();
            r.push(face);
            q.push(square);
            (r, q)
        };
        for t in &throws {
            thrown.clear();
            throw_into(game, from, &now, t, &mut rolled, &mut thrown);
            for step in thrown.iter().filter(|o| o.weight > 0).map(|o| o.step) {
                match step {
                    Step::End(next) => {
                        ends.entry(next)
                            .or_insert_with(|| extend(t.sum, next.square));
                    }
                    Step::Continue(next) => {
                        if let std::collections::hash_map::Entry::Vacant(e) = paths.entry(next) {
                            e.insert(extend(t.sum, next.at.square));
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
    }
    ends
}

/// The fewest rolls from the start to the finish, and one such game turn by turn.
fn fewest_rolls(
    game: &StatefulBoard<'_>,
    chain: &crate::chain::Chain<PlayerState>,
) -> Option<(usize, Vec<TurnRolls>)> {
    let states = chain.states();
    let t = chain.transient_count();
    let mut g: DiGraph<usize, (usize, Vec<u32>, Vec<Square>)> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..states.len()).map(|i| g.add_node(i)).collect();
    let index: HashMap<&PlayerState, usize> =
        states.iter().enumerate().map(|(i, s)| (s, i)).collect();
    for (i, s) in states[..t].iter().enumerate() {
        // In state order, so that ties between equally short games break the same way on
        // every run.
        let mut ends: Vec<_> = turn_ends(game, s).into_iter().collect();
        ends.sort_by_key(|e| e.0);
        for (b, (rolls, squares)) in ends {
            if let Some(&j) = index.get(&b) {
                g.add_edge(nodes[i], nodes[j], (rolls.len(), rolls, squares));
            }
        }
    }
    let start = nodes[chain.start()];
    let (cost, path) = astar(&g, start, |n| n.index() >= t, |e| e.weight().0, |_| 0)?;
    let turns = path
        .windows(2)
        .map(|w| {
            let e = g
                .find_edge(w[0], w[1])
                .expect("a step of the path is an edge");
            let (_, rolls, squares) = &g[e];
            TurnRolls {
                from: states[w[0].index()].square,
                rolls: rolls.clone(),
                squares: squares.clone(),
            }
        })
        .collect();
    Some((cost, turns))
}

/// What one turn from `a` to `b` does: the one-use jumps it breaks, the point squares it eats,
/// a turn it loses.
fn turn_events(board: &Board, a: &PlayerState, b: &PlayerState) -> Vec<String> {
    let mut out = Vec::new();
    let used = b.progress.used & !a.progress.used;
    for (i, &sq) in board.once_squares().iter().enumerate() {
        if used >> i & 1 == 1 {
            let kind = if board.jump_from(sq).is_some_and(|to| to > sq) {
                "ladder"
            } else {
                "snake"
            };
            out.push(format!("breaks the {kind} on {sq}"));
        }
    }
    let eaten = b.progress.eaten & !a.progress.eaten;
    for (i, &(sq, points)) in board.point_squares().iter().enumerate() {
        if eaten >> i & 1 == 1 {
            out.push(format!("eats the point square {sq} ({points:+})"));
        }
    }
    // Under jump_takes_turn a turn owed on a jump's start is the jump's own turn, which the
    // witness shows (no roll, the token moved).
    let jump_turn = board.rules().jump_takes_turn && board.jump_from(b.square).is_some();
    if b.owed && !a.owed && !jump_turn {
        out.push(format!("loses its next turn on {}", b.square));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shortest::Longest;
    use crate::test_util::{board, q};

    #[test]
    fn a_one_use_ladder_gives_the_shortest_game_once() {
        // A coin on 8 squares (overshoot allow), a one-use ladder 1 -> 6. By hand: the fastest
        // game is 1 (ladder to 6), then 2 (to 8): 2 turns, P = 1/2 * 1/2 = 1/4 (0 -> 2 -> 4 ->
        // 6 -> 8 takes 4). The ladder can be used only once, so the game breaks it.
        let b = board(
            "size = 8\nladders = [[1, 6]]\nonce = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
        );
        let e = stateful_extremes(&b);
        let s = e.shortest.unwrap();
        assert_eq!(s.turns, 2);
        assert_eq!(s.probability, q(1, 4));
        assert_eq!(s.witness[0].rolls, vec![1]);
        assert_eq!(s.witness[0].squares, vec![6]);
        assert_eq!(s.events, vec!["breaks the ladder on 1".to_string()]);
        assert_eq!(s.rolls, 2);
        // The longest game avoids the ladder (a one from 0 lands on it the first time): a two
        // to 2, then six ones to 8: 7 turns, every move forward, so no cycle.
        match e.longest {
            Longest::Bounded { turns, witness } => {
                assert_eq!(turns, 7);
                assert_eq!(witness[0].rolls, vec![2]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_extra_turn_square_shortens_the_game_by_a_turn_and_a_lost_turn_costs_one() {
        // Size 4, a coin, overshoot allow. Plain: 0 -> 2 -> 4 takes 2 turns. With an extra
        // turn on 2: 0 -> 2 (extra roll) -> 4 in one turn of two rolls; P(T = 1) = 1/2 * 1/2.
        let extra = board("size = 4\nextra_turn = [2]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let s = stateful_extremes(&extra).shortest.unwrap();
        assert_eq!(s.turns, 1);
        assert_eq!(s.probability, q(1, 4));
        assert_eq!(s.witness[0].rolls, vec![2, 2]);
        assert_eq!(s.rolls, 2);
        // A lost turn on 2 and on 1 and 3: every route pays a skipped turn except... none (from
        // 0 the first roll lands on 1 or 2). Shortest: 0 -> 2, skip, 2 -> 4: 3 turns, 2 rolls.
        let lose =
            board("size = 4\nlose_turn = [1, 2, 3]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let s = stateful_extremes(&lose).shortest.unwrap();
        assert_eq!(s.turns, 3);
        assert_eq!(s.rolls, 2);
        assert!(
            s.witness[1].rolls.is_empty(),
            "the skipped turn has no roll"
        );
        assert_eq!(s.events, vec!["loses its next turn on 2".to_string()]);
    }

    #[test]
    fn the_witness_is_a_game_from_the_start_to_the_finish() {
        // On the stateful fixtures: the turns follow one another (each begins where the last
        // ended), the game ends on the finish, and its probability is positive.
        for path in [
            "tests/fixtures/sim/stateful-all.toml",
            "tests/fixtures/sim/stateful-forever.toml",
        ] {
            let b = Board::load(std::path::Path::new(path)).unwrap();
            let s = stateful_extremes(&b).shortest.unwrap();
            assert_eq!(s.witness.len(), s.turns, "{path}");
            let mut at = b.rules().start;
            for t in &s.witness {
                assert_eq!(t.from, at, "{path}");
                at = t.to();
            }
            assert_eq!(at, b.size(), "{path}");
            assert!(s.probability > q(0, 1));
            // A second method: the exact law stepped turn by turn has no mass before the
            // shortest game, and its term there is the shortest game's probability.
            let options = crate::analysis::distribution::DistributionOptions {
                turns: Some(s.turns),
                ..Default::default()
            };
            let law = crate::analysis::stateful::board_distribution(&b, &options).unwrap();
            for term in &law.terms {
                let want = if term.n == s.turns {
                    s.probability.clone()
                } else {
                    q(0, 1)
                };
                assert_eq!(term.p, want, "{path}: P(T = {})", term.n);
            }
            assert!(s.rolls <= s.witness.iter().map(|t| t.rolls.len()).sum::<usize>());
        }
    }
}
