//! The states and transitions of a turn chain counted before it is built: the chains that
//! [`super::ChainSize`] does not estimate (a board that changes during a game, whose state is
//! the square and what is used up, eaten or owed; `roll_again = K`) are counted exactly by
//! walking the supports of their turns ([`super::compound::turn_ends`]: the rolls of each turn
//! in machine integers, no fraction built), which costs a small part of the build (about a
//! tenth: the build sums every turn's law and rewards in big rationals). The count stops once
//! it passes a cap, so a chain far too large to build is refused at the cost of the part that
//! was counted.
//!
//! # Formula
//!
//! Memory of the built chain, about `states x BYTES_PER_STATE + transitions x
//! BYTES_PER_TRANSITION` ([`chain_bytes`]): a state holds its turn's rewards (six rationals) and
//! its place in the build's maps, a transition its row entry (index and fraction).

use std::collections::{HashMap, HashSet, VecDeque};

use super::compound::turn_ends;
use super::size::{BYTES_PER_TRANSITION, CHAIN_BYTES_LIMIT};
use crate::game::RollGame;

/// Bytes a state of a built turn chain takes besides its transitions: the turn's six expected
/// rewards (rationals), the state's entries in the build's maps and its row's vector
/// (measured, peak resident memory of `Chain::build` alone on
/// `tests/hostile/boards/stateful_10000.toml`: 1,790 MB for the full chain's 1,228,364 states
/// and 7,371,416 transitions, 227 MB for the 153,573 states and 921,592 transitions of the
/// chain without the eaten apples; 737 and 752 bytes a state once the transitions'
/// [`BYTES_PER_TRANSITION`] are taken out).
pub const BYTES_PER_STATE: f64 = 750.0;

/// The counted size of a turn chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counted {
    /// The reachable states (the start's and every turn's ends), final ones included.
    pub states: usize,
    /// The transitions: the ends of the turns of the non-final states counted.
    pub transitions: usize,
    /// False when the count stopped at its cap: the chain has more states and transitions.
    pub complete: bool,
    /// The most in-turn states one turn passes (squares reached by rolls that go on: top
    /// throws, extra-turn squares).
    pub longest_turn: usize,
}

impl Counted {
    /// The estimated bytes of the built chain (`chain_bytes`), or of the largest turn's
    /// system while it is built (`turn_bytes`) when that is more.
    pub fn bytes(&self) -> f64 {
        chain_bytes(self.states, self.transitions).max(turn_bytes(self.longest_turn))
    }
}

/// Bytes of one entry of the dense system a turn's in-turn states are solved in for their
/// visits (`compound::general_visits`, `m (m + 1)` rationals for m in-turn states, 64 bytes each
/// while zero): with an extra-turn square on every square a turn can pass every square ahead,
/// so that system grows as the board's squares squared (3,000 squares: 577 MB peak for
/// `expect`; 10,000 aborted at 2 GiB).
pub const BYTES_PER_TURN_ENTRY: f64 = 64.0;

/// The estimated bytes of the dense system of a turn of `in_turn` in-turn states.
pub fn turn_bytes(in_turn: usize) -> f64 {
    let m = in_turn as f64;
    m * (m + 1.0) * BYTES_PER_TURN_ENTRY
}

/// The estimated bytes of a built turn chain of `states` states and `transitions` transitions.
pub fn chain_bytes(states: usize, transitions: usize) -> f64 {
    states as f64 * BYTES_PER_STATE + transitions as f64 * BYTES_PER_TRANSITION
}

/// Counts the states reachable from `start` by whole turns of `game`, and their transitions,
/// until the estimated bytes ([`chain_bytes`]) pass `cap_bytes`. (The tests' view of the walk.)
#[cfg(test)]
pub fn count<G: RollGame>(game: &G, start: G::State, cap_bytes: f64) -> Counted {
    walk(game, start, cap_bytes, |_| {}, |_| {})
}

/// The least reachable state (in the states' order) whose turn can go on for ever
/// ([`super::Turn::endless`]), found by walking the turns' supports: what
/// [`super::Chain::endless_state`] says, without building the chain.
pub fn first_endless<G: RollGame>(game: &G, start: G::State) -> Option<G::State> {
    let mut first: Option<G::State> = None;
    let endless = |s: &G::State| {
        if first.as_ref().is_none_or(|f| s < f) {
            first = Some(s.clone());
        }
    };
    walk(game, start, f64::INFINITY, |_| {}, endless);
    first
}

/// [`count`], with the states of each layer (the states `layer` gives the same key: a part of
/// the state that a game never takes back, such as the jumps used up), in no order.
pub fn count_layers<G: RollGame, K: std::hash::Hash + Eq>(
    game: &G,
    start: G::State,
    cap_bytes: f64,
    layer: impl Fn(&G::State) -> K,
) -> (Counted, Vec<usize>) {
    let mut layers: HashMap<K, usize> = HashMap::new();
    let count = walk(
        game,
        start,
        cap_bytes,
        |s| *layers.entry(layer(s)).or_default() += 1,
        |_| {},
    );
    (count, layers.into_values().collect())
}

/// [`count`], telling `new` each state reached (the start first) and `endless` each state whose
/// turn can go on for ever.
fn walk<G: RollGame>(
    game: &G,
    start: G::State,
    cap_bytes: f64,
    mut new: impl FnMut(&G::State),
    mut endless: impl FnMut(&G::State),
) -> Counted {
    new(&start);
    let mut seen: HashSet<G::State> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let mut transitions = 0;
    let mut longest_turn = 0;
    while let Some(state) = queue.pop_front() {
        if game.is_final(&state) {
            continue;
        }
        let (ends, never, in_turn) = turn_ends(game, &state);
        if never {
            endless(&state);
        }
        transitions += ends.len();
        longest_turn = longest_turn.max(in_turn);
        for s in ends {
            if seen.insert(s.clone()) {
                new(&s);
                queue.push_back(s);
            }
        }
        let counted = Counted {
            states: seen.len(),
            transitions,
            complete: false,
            longest_turn,
        };
        if counted.bytes() > cap_bytes {
            return counted;
        }
    }
    Counted {
        states: seen.len(),
        transitions,
        complete: true,
        longest_turn,
    }
}

/// A turn chain, counted before it is built, would need more memory than
/// [`CHAIN_BYTES_LIMIT`].
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("{}", self.sentence())]
pub struct StatesTooMany {
    /// The count, stopped at the limit (`complete` false) or whole.
    pub count: Counted,
}

impl StatesTooMany {
    /// The message: the states and transitions counted, or, when one turn's in-turn states are
    /// what passes the limit, that turn (the count stopped inside it, so its states and
    /// transitions, "more than 7 states" on 10,000 squares with an extra turn on each, say
    /// nothing).
    fn sentence(&self) -> String {
        let c = self.count;
        let limit = grouped((CHAIN_BYTES_LIMIT / 1e6) as usize);
        let state = "its state is the square and what the game remembers (jumps used up, squares \
                     eaten, a turn owed, top throws in a row)";
        if turn_bytes(c.longest_turn) > chain_bytes(c.states, c.transitions) {
            return format!(
                "the turn chain of this game would need {} of memory (the limit is {limit} MB; \
                 counted before building it): a turn can pass {} in-turn states (rolls that go \
                 on: top throws, extra-turn squares), whose visits are solved together; {state}",
                memory(c),
                grouped(c.longest_turn)
            );
        }
        let more = if c.complete { "" } else { "more than " };
        format!(
            "the turn chain of this game would hold {more}{} states and {more}{} transitions in \
             {} of memory (the limit is {limit} MB; counted before building it): {state}",
            grouped(c.states),
            grouped(c.transitions),
            memory(c),
        )
    }
}

fn memory(c: Counted) -> String {
    let mb = grouped((c.bytes() / 1e6).round() as usize);
    if c.complete {
        format!("about {mb} MB")
    } else {
        format!("more than {mb} MB")
    }
}

fn grouped(n: usize) -> String {
    crate::text::thousands(n as u64)
}

/// Counts `game`'s chain from `start` with the states of each layer (`count_layers`) and
/// refuses it, before it is built, when it would take more than [`CHAIN_BYTES_LIMIT`].
///
/// # Errors
///
/// [`StatesTooMany`] with the count (stopped just past the limit).
pub fn check_counted_layers<G: RollGame, K: std::hash::Hash + Eq>(
    game: &G,
    start: G::State,
    layer: impl Fn(&G::State) -> K,
) -> Result<(Counted, Vec<usize>), StatesTooMany> {
    let (count, layers) = count_layers(game, start, CHAIN_BYTES_LIMIT, layer);
    if count.complete {
        Ok((count, layers))
    } else {
        Err(StatesTooMany { count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::{Chain, TurnModel};
    use crate::game::SingleBoard;
    use crate::test_util::board;

    /// The count against the built chain: every state, every transition.
    fn same_as_built(text: &str) {
        let b = board(text);
        let game = SingleBoard::new(&b);
        let chain = Chain::build(&game);
        let counted = count(&game, TurnModel::start(&game), f64::INFINITY);
        let built: usize = chain.rows().iter().map(Vec::len).sum();
        assert!(counted.complete);
        assert_eq!(counted.states, chain.states().len(), "{text}");
        assert_eq!(counted.transitions, built, "{text}");
    }

    #[test]
    fn the_count_is_the_built_chains_size() {
        same_as_built(
            "size = 30\nsnakes = [[17, 4]]\nladders = [[3, 22]]\n[rules]\nroll_again = 3\n",
        );
        same_as_built("size = 20\n[rules]\ndie = 3\nroll_again = \"unlimited\"\n");
        same_as_built("size = 12\n[rules]\ndice = 2\novershoot = \"bounce\"\n");
    }

    #[test]
    fn the_count_stops_past_its_cap_and_finds_an_endless_turn() {
        let b = board("size = 2000\n[rules]\nroll_again = 2\n");
        let game = SingleBoard::new(&b);
        let cap = chain_bytes(100, 0);
        let capped = count(&game, TurnModel::start(&game), cap);
        // Stopped at the first state that passed the cap: far short of the 2,001 squares.
        assert!(!capped.complete);
        assert!(capped.bytes() > cap, "{capped:?}");
        assert!(capped.states < 100, "{capped:?}");
        // Worked by hand: a die that always shows its top face, 2, which rolls again: from the
        // start 2, then 4, whose snake goes back to 0, and round again; the turn never ends.
        let b = board(
            "size = 10\nsnakes = [[4, 0]]\n[rules]\ndie = [0, 2]\nroll_again = \"unlimited\"\n",
        );
        let game = SingleBoard::new(&b);
        assert_eq!(first_endless(&game, TurnModel::start(&game)), Some(0));
    }
}
