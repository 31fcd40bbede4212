//! The shortest and the longest game, with the rolls that make them, on any board: over the
//! one-player chain's states (the square, and on a board that changes during a game what is
//! used up, eaten and owed), each shown by its square.
//!
//! # Method
//!
//! - Fewest turns: a shortest path (petgraph's A* with unit costs and a zero heuristic, which is
//!   breadth-first search) from the start to the finish in the graph of compound moves, whose
//!   edges are the transitions of the turn chain with positive probability. Its probability,
//!   P(T = fewest), is stepped exactly over the states on shortest games only
//!   (`super::shortest_probability`).
//! - The rolls of one turn from state a to state b: a breadth-first search over the states
//!   inside the turn (the game's state and the top throws in a row), driven by the turn machine
//!   the chain's compound move and the simulator drive ([`begin`], [`throw_into`]), so the
//!   witness comes from the rules, not from the chain.
//! - Fewest rolls: a game is a sequence of turns, and its rolls are the sum of its turns' rolls,
//!   so the fewest rolls are a shortest path in the turn graph weighted by each turn's fewest
//!   rolls (0 for a skipped turn or a jump turn, which shows the square the jump took the token
//!   to), found by Dijkstra's algorithm (petgraph).
//! - What the shortest game does ("breaks the ladder on 3", "eats the point square 6 (+4)",
//!   "loses its next turn on 13") is read from the states at the ends of its turns
//!   ([`OnSquare::turn_events`]).
//! - Longest game: unbounded exactly when the compound-move graph has a cycle among the states
//!   that are not final (a strongly connected component with an edge inside it, found with
//!   petgraph's Tarjan SCC); then one shortest such cycle is given, through the cycle state
//!   nearest the start. Otherwise the graph of the game is acyclic and the longest game is its
//!   longest path, found in topological order. A turn that can go on for ever keeps the chance
//!   that it never ends as a move in the chain; such moves are not turns and not edges here,
//!   and a reachable endless turn makes the longest game unbounded before any cycle does.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use num_rational::BigRational;
use petgraph::algo::{astar, tarjan_scc, toposort};
use petgraph::graph::{DiGraph, NodeIndex};

use super::shortest_probability::shortest_probability;
use crate::board::{Board, Square};
use crate::chain::{on_player_chain, Chain, ChainState, Memory};
use crate::game::{begin, throw_into, turn_steps, Capabilities, InTurn, OnSquare, RollGame, Step};

/// The rolls of one turn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct TurnRolls {
    /// The square the turn began on.
    pub from: Square,
    /// The faces rolled, in order.
    pub rolls: Vec<u32>,
    /// The square after each roll (jumps taken).
    pub squares: Vec<Square>,
}

impl TurnRolls {
    /// Where the turn ends.
    pub fn to(&self) -> Square {
        *self.squares.last().unwrap_or(&self.from)
    }
}

/// The shortest game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Shortest {
    /// The fewest turns from the start to the finish.
    pub turns: usize,
    /// One game with that many turns (each turn with the fewest rolls it can take).
    pub witness: Vec<TurnRolls>,
    /// P(T = turns), exact.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub probability: BigRational,
    /// The fewest rolls from the start to the finish.
    pub rolls: usize,
    /// One game with that many rolls, turn by turn.
    pub rolls_witness: Vec<TurnRolls>,
    /// What the shortest game does on a board that changes during a game, turn by turn in
    /// order ("breaks the ladder on 3", ...); empty on other boards.
    pub events: Vec<String>,
}

/// The longest game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Longest {
    /// A cycle of turns that avoids the finish can be reached: games can be as long as you like
    /// (or endless).
    Unbounded {
        /// Turns from the start to the cycle's first square.
        lead_in: Vec<TurnRolls>,
        /// The turns that go round the cycle (the last ends where the first began).
        cycle: Vec<TurnRolls>,
    },
    /// A turn that can go on for ever (no throw it comes to ends it) can be reached: games can
    /// be endless.
    EndlessTurn {
        /// Turns from the start to the square where that turn begins.
        lead_in: Vec<TurnRolls>,
    },
    /// Every game ends within this many turns.
    Bounded {
        /// The most turns a game can take.
        turns: usize,
        /// One game that takes them.
        witness: Vec<TurnRolls>,
    },
}

/// The shortest and longest game of a board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Extremes {
    /// `None` when the finish cannot be reached from the start at all.
    pub shortest: Option<Shortest>,
    /// The longest game.
    pub longest: Longest,
}

/// The shortest and the longest game on `board`, from its chain: on the squares, or on the
/// full state of a board that changes during a game (what is used up, eaten and owed).
///
/// # Examples
///
/// ```
/// use ladders::internals::extremes;
/// use ladders::board::builtin;
/// // Seed 001: the fewest turns on the Milton Bradley board is 7.
/// let mb = builtin("milton-bradley").unwrap();
/// let e = extremes(&mb);
/// assert_eq!(e.shortest.unwrap().turns, 7);
/// ```
pub fn extremes(board: &Board) -> Extremes {
    on_player_chain!(board, Memory::Full, |game, chain| extremes_of(
        board, game, chain
    ))
}

/// [`extremes`] of `game` (on `board`) from its chain, already built: each turn's rolls found
/// through the turn machine, the fewest rolls over the turn graph, the events of each turn
/// read from its first and last state.
pub fn extremes_of<G>(board: &Board, game: &G, chain: &Chain<G::State>) -> Extremes
where
    G: RollGame,
    G::State: OnSquare,
{
    let turn = |a: &G::State, b: &G::State| turn_between(game, a, b);
    let fewest = || match Capabilities::of(board).stateless {
        true => fewest_rolls_on_squares(board),
        false => fewest_rolls(game, chain),
    };
    let events = |a: &G::State, b: &G::State| a.turn_events(board, b);
    extremes_by(chain, &turn, Some(&fewest), Some(&events))
}

/// The fewest rolls and a game that takes them, when it is not the shortest game's.
pub type FewestRolls<'a> = &'a dyn Fn() -> Option<(usize, Vec<TurnRolls>)>;

/// What the turns of a game do, from each turn's first and last state (for the report).
pub type Events<'a, S> = &'a dyn Fn(&S, &S) -> Vec<String>;

/// [`extremes`] for any chain: `turn(a, b)` gives the rolls of one turn from a to b (an edge of
/// the chain), `fewest` the fewest rolls (`None`: one roll per turn, so the fewest rolls are the
/// shortest game's), `events` what a turn of the shortest game does.
pub fn extremes_by<S: ChainState>(
    chain: &Chain<S>,
    turn: &dyn Fn(&S, &S) -> Option<TurnRolls>,
    fewest: Option<FewestRolls<'_>>,
    events: Option<Events<'_, S>>,
) -> Extremes {
    let states = chain.states();
    let turns_along = |path: &[NodeIndex]| -> Vec<TurnRolls> {
        let path: Vec<usize> = path.iter().map(|n| n.index()).collect();
        turns_along(states, &path, turn)
    };
    let t = chain.transient_count();
    let mut g: DiGraph<usize, ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..states.len()).map(|i| g.add_node(i)).collect();
    // A turn that can go on for ever keeps the chance that it never ends as a move to one of
    // the squares it goes round: no turn ends there, so only the moves a turn can make are edges.
    let endless = |i: usize| i < t && chain.turn_is_endless(i);
    for (i, row) in chain.rows().iter().enumerate() {
        for (j, _) in row {
            if !endless(i) || turn(&states[i], &states[*j]).is_some() {
                g.add_edge(nodes[i], nodes[*j], ());
            }
        }
    }
    let start = nodes[chain.start()];
    let is_final = |n: NodeIndex| n.index() >= t;

    let shortest = astar(&g, start, is_final, |_| 1usize, |_| 0).map(|(turns, path)| {
        let witness = turns_along(&path);
        let (rolls, rolls_witness) = match fewest {
            Some(f) => f().expect("the finish is reachable"),
            None => (turns, witness.clone()),
        };
        let events = events.map_or_else(Vec::new, |describe| {
            path.windows(2)
                .flat_map(|w| describe(&states[w[0].index()], &states[w[1].index()]))
                .collect()
        });
        Shortest {
            turns,
            witness,
            probability: shortest_probability(chain, turns),
            rolls,
            rolls_witness,
            events,
        }
    });

    let endless_turn = bfs_until(&g, start, |n| endless(n.index()));
    let longest = match (endless_turn, cycle_nearest_start(&g, start, t)) {
        (Some((lead, _)), _) => Longest::EndlessTurn {
            lead_in: turns_along(&lead),
        },
        (None, Some((lead, cycle))) => Longest::Unbounded {
            lead_in: turns_along(&lead),
            cycle: turns_along(&cycle),
        },
        (None, None) => {
            let path = longest_path(&g, start, t);
            Longest::Bounded {
                turns: path.len().saturating_sub(1),
                witness: turns_along(&path),
            }
        }
    };
    Extremes { shortest, longest }
}

/// The turns of a game given by its chain state indices, each with the rolls `turn` finds for
/// it (an edge of the chain is a possible turn).
pub fn turns_along<S>(
    states: &[S],
    path: &[usize],
    turn: &dyn Fn(&S, &S) -> Option<TurnRolls>,
) -> Vec<TurnRolls> {
    path.windows(2)
        .map(|w| {
            turn(&states[w[0]], &states[w[1]]).expect("an edge of the chain is a possible turn")
        })
        .collect()
}

/// The fewest rolls of one turn from state `a` to state `b`, if a turn can go from a to b.
pub fn turn_between<G>(game: &G, a: &G::State, b: &G::State) -> Option<TurnRolls>
where
    G: RollGame,
    G::State: OnSquare,
{
    turn_ends(game, a)
        .remove(b)
        .map(|(rolls, squares)| TurnRolls {
            from: a.square(),
            rolls,
            squares,
        })
}

/// The faces of some rolls and the square after each.
type Rolls = (Vec<u32>, Vec<Square>);

/// Every state where a turn from `from` can end, with the fewest rolls that get there (the
/// faces and the square after each roll), by a breadth-first search over the states inside the
/// turn, driven by the turn machine ([`begin`], [`throw_into`]).
fn turn_ends<G>(game: &G, from: &G::State) -> HashMap<G::State, Rolls>
where
    G: RollGame,
    G::State: OnSquare,
{
    let mut ends = HashMap::new();
    let first = match begin(game, from.clone()) {
        Step::End(after) => {
            // A turn with no roll: a lost turn stays, a jump turn moves the token.
            let moved = (after.square() != from.square()).then_some(after.square());
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
    let mut paths: HashMap<InTurn<G::State>, Rolls> =
        HashMap::from([(first.clone(), (Vec::new(), Vec::new()))]);
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
            for thrown in thrown.drain(..).filter(|o| o.weight > 0) {
                match thrown.step {
                    Step::End(next) => {
                        let square = next.square();
                        ends.entry(next).or_insert_with(|| extend(t.sum, square));
                    }
                    Step::Continue(next) => {
                        if let Entry::Vacant(e) = paths.entry(next.clone()) {
                            e.insert(extend(t.sum, next.at.square()));
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
    }
    ends
}

/// The fewest rolls from the start to the finish, and one such game turn by turn: a game is a
/// sequence of turns and its rolls the sum of its turns' rolls, so the fewest rolls are a
/// shortest path in the turn graph weighted by each turn's fewest rolls (0 for a skipped turn
/// or a jump turn), found by Dijkstra's algorithm (petgraph).
fn fewest_rolls<G>(game: &G, chain: &Chain<G::State>) -> Option<(usize, Vec<TurnRolls>)>
where
    G: RollGame,
    G::State: OnSquare,
{
    let states = chain.states();
    let t = chain.transient_count();
    let mut g: DiGraph<usize, (usize, Vec<u32>, Vec<Square>)> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..states.len()).map(|i| g.add_node(i)).collect();
    for (i, s) in states[..t].iter().enumerate() {
        // In state order, so that ties between equally short games break the same way on
        // every run.
        let mut ends: Vec<_> = turn_ends(game, s).into_iter().collect();
        ends.sort_by(|a, b| a.0.cmp(&b.0));
        for (b, (rolls, squares)) in ends {
            if let Some(j) = chain.index_of(&b) {
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
                from: states[w[0].index()].square(),
                rolls: rolls.clone(),
                squares: squares.clone(),
            }
        })
        .collect();
    Some((cost, turns))
}

/// [`fewest_rolls`] on a board whose state is its square: a breadth-first search over rolls
/// (the square and the top throws so far in the turn). A forfeited turn puts the token back
/// where it was with nothing gained, so a game with the fewest rolls never forfeits, and the
/// square the turn began on need not be part of the state. It finds as many rolls as the turn
/// graph does, but breaks ties between equally short games its own way, the way the reports of
/// such boards show (kept so that they stay as they were).
fn fewest_rolls_on_squares(board: &Board) -> Option<(usize, Vec<TurnRolls>)> {
    let rules = board.rules();
    let cap = Capabilities::of(board).forfeit_after.unwrap_or(1);
    type State = (Square, u32);
    let first: State = (rules.start, 0);
    // parent: state -> (previous state, face, the turn went on): a sum can be thrown both ways
    // when the dice roll again on some throws of it and not on others (doubles).
    let mut parent: HashMap<State, (State, u32, bool)> = HashMap::new();
    let mut seen = std::collections::HashSet::from([first]);
    let mut queue = VecDeque::from([first]);
    let mut found = None;
    'search: while let Some(state) = queue.pop_front() {
        for (face, step) in board.dice().throws().iter().flat_map(|t| {
            let steps = turn_steps(board, state.0, state.0, state.1, t.sum).0;
            steps.into_iter().map(move |(_, step)| (t.sum, step))
        }) {
            if step.forfeited {
                continue;
            }
            let top = if step.again && cap > 1 {
                state.1 + 1
            } else {
                0
            };
            let next = (step.outcome.to, top);
            if step.outcome.to == board.size() {
                parent.insert(next, (state, face, step.again));
                found = Some(next);
                break 'search;
            }
            if seen.insert(next) {
                parent.insert(next, (state, face, step.again));
                queue.push_back(next);
            }
        }
    }
    if board.size() == rules.start {
        return Some((0, Vec::new()));
    }
    let mut at = found?;
    let mut moves = Vec::new(); // (state before, face, square after, went on)
    while at != first {
        let (prev, face, again) = parent[&at];
        moves.push((prev, face, at.0, again));
        at = prev;
    }
    moves.reverse();
    // Split into turns by replaying through the rules.
    let mut turns = Vec::new();
    let mut current = TurnRolls {
        from: rules.start,
        rolls: Vec::new(),
        squares: Vec::new(),
    };
    let mut top = 0;
    for (prev, face, to, again) in &moves {
        let step = turn_steps(board, current.from, prev.0, top, *face)
            .0
            .into_iter()
            .map(|(_, step)| step)
            .find(|step| step.outcome.to == *to && step.again == *again)
            .expect("the search found this roll");
        current.rolls.push(*face);
        current.squares.push(*to);
        if step.again {
            top += 1;
        } else {
            top = 0;
            let next_from = *to;
            turns.push(std::mem::replace(
                &mut current,
                TurnRolls {
                    from: next_from,
                    rolls: Vec::new(),
                    squares: Vec::new(),
                },
            ));
        }
    }
    Some((moves.len(), turns))
}

/// A cycle among the non-final states, through the cycle state nearest the start: the path from
/// the start to it, and the cycle (first node repeated last).
fn cycle_nearest_start(
    g: &DiGraph<usize, ()>,
    start: NodeIndex,
    transient: usize,
) -> Option<(Vec<NodeIndex>, Vec<NodeIndex>)> {
    let mut in_cycle = vec![false; g.node_count()];
    for scc in tarjan_scc(g) {
        let cyclic = scc.len() > 1 || g.contains_edge(scc[0], scc[0]);
        if cyclic && scc[0].index() < transient {
            for n in scc {
                in_cycle[n.index()] = true;
            }
        }
    }
    // Breadth first from the start: the first state on a cycle.
    let (path_to, entry) = bfs_until(g, start, |n| in_cycle[n.index()])?;
    // The shortest cycle through `entry`: breadth first over successors back to it.
    let mut best: Option<Vec<NodeIndex>> = None;
    for succ in g.neighbors(entry) {
        if succ == entry {
            return Some((path_to, vec![entry, entry]));
        }
        if !in_cycle[succ.index()] {
            continue;
        }
        if let Some((mut path, _)) = bfs_until(g, succ, |n| n == entry) {
            if best.as_ref().is_none_or(|b| path.len() + 1 < b.len()) {
                path.insert(0, entry);
                best = Some(path);
            }
        }
    }
    best.map(|cycle| (path_to, cycle))
}

/// Breadth first from `from` to the first node satisfying `goal`: the path (both ends included).
fn bfs_until(
    g: &DiGraph<usize, ()>,
    from: NodeIndex,
    goal: impl Fn(NodeIndex) -> bool,
) -> Option<(Vec<NodeIndex>, NodeIndex)> {
    let mut parent = vec![None; g.node_count()];
    let mut seen = vec![false; g.node_count()];
    seen[from.index()] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(n) = queue.pop_front() {
        if goal(n) {
            let mut path = vec![n];
            let mut at = n;
            while let Some(p) = parent[at.index()] {
                path.push(p);
                at = p;
            }
            path.reverse();
            return Some((path, n));
        }
        for m in g.neighbors(n) {
            if !seen[m.index()] {
                seen[m.index()] = true;
                parent[m.index()] = Some(n);
                queue.push_back(m);
            }
        }
    }
    None
}

/// The longest path from the start in an acyclic graph of the game, ending on a final state.
fn longest_path(g: &DiGraph<usize, ()>, start: NodeIndex, transient: usize) -> Vec<NodeIndex> {
    let order = toposort(g, None).expect("no cycle among the squares");
    let mut best: Vec<Option<(usize, Option<NodeIndex>)>> = vec![None; g.node_count()];
    best[start.index()] = Some((0, None));
    for &n in &order {
        let Some((len, _)) = best[n.index()] else {
            continue;
        };
        for m in g.neighbors(n) {
            if best[m.index()].is_none_or(|(l, _)| l < len + 1) {
                best[m.index()] = Some((len + 1, Some(n)));
            }
        }
    }
    let end = (transient..g.node_count())
        .map(NodeIndex::new)
        .filter(|n| best[n.index()].is_some())
        .max_by_key(|n| best[n.index()].map(|(l, _)| l));
    let Some(mut at) = end else {
        return vec![start];
    };
    let mut path = vec![at];
    while let Some((_, Some(p))) = best[at.index()] {
        path.push(p);
        at = p;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::{board, q};

    /// Replays turns through the rules: each turn's rolls must be legal, end the turn exactly at
    /// the last roll, and pass the squares listed. Returns the square reached.
    pub(crate) fn replay(board: &Board, start: Square, turns: &[TurnRolls]) -> Square {
        let mut at = start;
        for turn in turns {
            assert_eq!(turn.from, at, "each turn begins where the last ended");
            let mut square = at;
            for (k, (&face, &expect)) in turn.rolls.iter().zip(&turn.squares).enumerate() {
                let step = turn_steps(board, at, square, k as u32, face)
                    .0
                    .into_iter()
                    .map(|(_, step)| step)
                    .find(|step| step.outcome.to == expect)
                    .unwrap_or_else(|| {
                        panic!("roll {k} of a turn from {at} cannot reach {expect}")
                    });
                let last = k + 1 == turn.rolls.len();
                assert_eq!(step.again, !last, "the turn ends at its last roll");
                square = step.outcome.to;
            }
            at = square;
        }
        at
    }

    #[test]
    fn seed_figures_shortest_one_one_seven() {
        // Seed 000: 1 turn on Efi (ten sixes then a 1) and on reversed Efi; seed 001: 7 turns.
        let efi = builtin("efi").unwrap();
        let cases = [
            (efi.clone(), 1),
            (efi.reversed().unwrap(), 1),
            (builtin("milton-bradley").unwrap(), 7),
        ];
        for (b, turns) in cases {
            let e = extremes(&b);
            let s = e.shortest.unwrap();
            assert_eq!(s.turns, turns, "{}", b.name());
            assert_eq!(s.witness.len(), turns);
            assert_eq!(replay(&b, b.rules().start, &s.witness), b.size());
            assert_eq!(
                replay(&b, b.rules().start, &s.rolls_witness),
                b.size(),
                "fewest-rolls witness"
            );
            let rolls: usize = s.rolls_witness.iter().map(|t| t.rolls.len()).sum();
            assert_eq!(rolls, s.rolls);
            assert!(matches!(e.longest, Longest::Unbounded { .. }));
        }
        // Efi's one-turn game is ten sixes and a 1 (seed 000), the only one-turn game.
        let e = extremes(&efi);
        assert_eq!(
            e.shortest.as_ref().unwrap().witness[0].rolls,
            vec![6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1]
        );
        // Its probability, worked by hand: ten sixes from 1 reach 99 (7, 13, 19 -> 38, 44, 50,
        // 56, 62, 68, 74, 80 -> 99); from there the sixes go round 99 -> 95 (105 bounces) -> 99
        // (101 bounces), and at every level k >= 10 exactly one face finishes (a 1 on 99, a 5
        // on 95). So P(T = 1) = sum_(k >= 10) 6^-k / 6 = 6^-11 * 6/5 = 1 / (5 * 6^10).
        assert_eq!(
            e.shortest.unwrap().probability,
            BigRational::new(1.into(), num_bigint::BigInt::from(6).pow(10) * 5)
        );
    }

    #[test]
    fn the_tiny_board_by_hand() {
        // boards/tiny.toml: 0 -(1)-> 3 -(1)-> 4: two turns, probability 1/4 (P(T = 2) = 1/4);
        // rolling a 2 from 0 slides 2 -> 0, a cycle of one turn.
        let b = builtin("tiny").unwrap();
        let e = extremes(&b);
        let s = e.shortest.unwrap();
        assert_eq!(s.turns, 2);
        assert_eq!(s.probability, BigRational::new(1.into(), 4.into()));
        assert_eq!(s.rolls, 2);
        assert_eq!(s.witness[0].rolls, vec![1]);
        assert_eq!(s.witness[0].squares, vec![3]);
        let Longest::Unbounded { lead_in, cycle } = e.longest else {
            panic!("unbounded")
        };
        assert!(lead_in.is_empty());
        assert_eq!(cycle.len(), 1);
        assert_eq!(cycle[0].from, 0);
        assert_eq!(cycle[0].to(), 0);
        assert_eq!(cycle[0].rolls, vec![2]);
    }

    #[test]
    fn a_board_without_snakes_and_overshoot_allow_has_an_exact_longest_game() {
        // size 10, d6, allow, no jumps, start off the board: the longest game rolls ten 1s
        // (10 turns); the shortest rolls 6 then 4 or more (2 turns), probability 1/6 * 1/2
        // summed over the first roll: P(T = 2) = sum_(r) 1/6 * P(one roll from r finishes)
        // = 1/6 * (0 + 0 + 0 + 1/6 + 2/6 + 3/6) = 1/6, worked by hand (from r a roll of
        // 10 - r or more finishes: 7 - (10 - r) faces when r >= 4).
        let b = board("size = 10\n[rules]\novershoot = \"allow\"\n");
        let e = extremes(&b);
        let s = e.shortest.unwrap();
        assert_eq!(s.turns, 2);
        assert_eq!(s.probability, BigRational::new(1.into(), 6.into()));
        let Longest::Bounded { turns, witness } = e.longest else {
            panic!("bounded")
        };
        assert_eq!(turns, 10);
        assert_eq!(replay(&b, 0, &witness), 10);
        assert!(witness.iter().all(|t| t.rolls == vec![1]));
    }

    #[test]
    fn fewest_rolls_differs_from_fewest_turns_when_sixes_roll_again() {
        // size 13, d6, unlimited roll-again, allow: 6, 6, then any roll: 1 turn of 3 rolls;
        // but one roll can never finish and two rolls cannot either when the first is a 6
        // (6 + 6 = 12 < 13) or when it is not (one turn, then a second turn: 2 rolls, e.g.
        // 5 then 6 + ... no: 5 + 6 = 11 and a six rolls again). Fewest rolls: 3 (e.g. 6 6 1).
        let b = board("size = 13\n[rules]\novershoot = \"allow\"\nroll_again = \"unlimited\"\n");
        let e = extremes(&b);
        let s = e.shortest.unwrap();
        assert_eq!(s.turns, 1);
        assert_eq!(s.rolls, 3);
        assert_eq!(replay(&b, 0, &s.rolls_witness), 13);
    }

    #[test]
    fn an_unreachable_finish_has_no_shortest_game() {
        let b = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        let e = extremes(&b);
        assert!(e.shortest.is_none());
        assert!(matches!(e.longest, Longest::Unbounded { .. }));
    }

    #[test]
    fn a_one_use_ladder_gives_the_shortest_game_once() {
        // A coin on 8 squares (overshoot allow), a one-use ladder 1 -> 6. By hand: the fastest
        // game is 1 (ladder to 6), then 2 (to 8): 2 turns, P = 1/2 * 1/2 = 1/4 (0 -> 2 -> 4 ->
        // 6 -> 8 takes 4). The ladder can be used only once, so the game breaks it.
        let b = board(
            "size = 8\nladders = [[1, 6]]\nonce = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
        );
        let e = extremes(&b);
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
        let s = extremes(&extra).shortest.unwrap();
        assert_eq!(s.turns, 1);
        assert_eq!(s.probability, q(1, 4));
        assert_eq!(s.witness[0].rolls, vec![2, 2]);
        assert_eq!(s.rolls, 2);
        // A lost turn on 2 and on 1 and 3: every route pays a skipped turn except... none (from
        // 0 the first roll lands on 1 or 2). Shortest: 0 -> 2, skip, 2 -> 4: 3 turns, 2 rolls.
        let lose =
            board("size = 4\nlose_turn = [1, 2, 3]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let s = extremes(&lose).shortest.unwrap();
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
            let s = extremes(&b).shortest.unwrap();
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
            let law = crate::analysis::distribution::board_distribution(&b, &options).unwrap();
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
