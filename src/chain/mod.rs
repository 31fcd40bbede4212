//! The turn chain: the absorbing Markov chain whose steps are whole turns (DESIGN.md section 2).
//!
//! A [`TurnModel`] says what a state is and gives, for each state, the exact distribution of the
//! state after one turn with the expected rewards of that turn. [`Chain::build`] keeps only the
//! states reachable from the start and splits them into transient and final ones. Games whose
//! turns are made of rolls ([`crate::game::RollGame`]) get their turn from the one
//! [`compound_move`], which drives the game's turn machine: one player on a board
//! ([`SingleBoard`], [`StatefulBoard`]) and the joint games of several players alike.
//! [`RollLevel`] is the same single-board game seen roll by roll, for the fast exact solve;
//! [`Rolls`] any one player's game roll by roll, over the turn machine's in-turn states.

mod compound;
mod count;
mod endless;
mod ends;
mod linked;
mod links;
mod player;
mod roll_level;
mod rolls;
mod rows;
mod run;
mod size;

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::Deref;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

pub use compound::compound_move;
use compound::{compound_move_memo, RollsMemo};
pub use count::{check_counted_layers, first_endless, Counted, StatesTooMany};
pub use endless::{endless_turn, endless_turn_sentence, turn_loop};
pub use linked::{LinkedChain, LinkedTurn};
pub use links::{link_order, Link};
pub(crate) use player::{on_player_chain, on_player_game};
pub use player::{stateful_game, Memory, PlayerChain, PlayerGame};
pub use roll_level::{Ends, RollLevel, RollMove, RollSquares};
pub use rolls::{Rolled, Rolls};
use rows::{ChainTurns, PendingTurn};
pub use size::{check_fits, ChainSize, ChainTooBig, CHAIN_BYTES_LIMIT};

use crate::board::{Board, Square};
use crate::game::{Capabilities, PlayerState, RollGame, SingleBoard, StatefulBoard};

/// Expected amounts collected during one turn from a given state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRewards {
    /// Expected rolls in the turn (forfeited rolls included).
    pub rolls: BigRational,
    /// Expected snakes taken.
    pub snakes: BigRational,
    /// Expected ladders taken.
    pub ladders: BigRational,
    /// Expected squares climbed by ladders.
    pub climbed: BigRational,
    /// Expected squares slid down by snakes.
    pub slid: BigRational,
    /// Expected points scored (point squares eaten).
    pub points: BigRational,
}

impl Default for TurnRewards {
    fn default() -> TurnRewards {
        TurnRewards {
            rolls: BigRational::zero(),
            snakes: BigRational::zero(),
            ladders: BigRational::zero(),
            climbed: BigRational::zero(),
            slid: BigRational::zero(),
            points: BigRational::zero(),
        }
    }
}

/// The exact law of one turn from one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<S> {
    /// Where the turn ends, with probabilities summing to 1 (each state listed once).
    pub next: Vec<(S, BigRational)>,
    /// What the turn collects on average.
    pub rewards: TurnRewards,
    /// True when some sequence of rolls never ends the turn (every roll goes on, for ever, with
    /// positive probability): the chance of that is in `next` as the turn's own first state
    /// (the game has not ended, turn after turn), and the game can last for ever.
    pub endless: bool,
}

/// What a chain's states must be: cloned, compared, ordered (the chain numbers them in order),
/// hashed and printed for debugging. Blanket-implemented.
pub trait ChainState: Clone + Eq + Hash + Ord + Debug {}

impl<T: Clone + Eq + Hash + Ord + Debug> ChainState for T {}

/// A game seen one whole turn at a time.
pub trait TurnModel {
    /// A state of the game between turns.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// The state the game begins in.
    fn start(&self) -> Self::State;
    /// True for the states where the game is over (absorbing).
    fn is_final(&self, state: &Self::State) -> bool;
    /// The exact law of one turn from a non-final state.
    fn turn(&self, state: &Self::State) -> Turn<Self::State>;
}

impl TurnModel for SingleBoard<'_> {
    type State = Square;

    fn start(&self) -> Square {
        self.board().rules().start
    }

    fn is_final(&self, state: &Square) -> bool {
        *state == self.board().size()
    }

    fn turn(&self, state: &Square) -> Turn<Square> {
        compound_move(self, state)
    }
}

impl TurnModel for StatefulBoard<'_> {
    type State = PlayerState;

    fn start(&self) -> PlayerState {
        StatefulBoard::start(self)
    }

    fn is_final(&self, state: &PlayerState) -> bool {
        state.square == self.board().size()
    }

    fn turn(&self, state: &PlayerState) -> Turn<PlayerState> {
        compound_move(self, state)
    }
}

/// The least common denominator D of `entries`, and `D / q` for each of their distinct
/// denominators q (so an entry `p / q` is the integer `p (D / q)` over D). A chain's entries
/// share few denominators (a turn's powers of the die), so each distinct one costs one lcm step
/// and one division, and each entry one hash look-up, not a big division of its own.
pub(crate) fn common_denominator<'a>(
    entries: impl IntoIterator<Item = &'a BigRational>,
) -> (BigInt, Denominators<'a>) {
    let mut distinct = Denominators::default();
    let mut d = BigInt::one();
    for p in entries {
        if !distinct.contains_key(p.denom()) {
            d = crate::num::gcd::lcm(d, p.denom());
            distinct.insert(p.denom(), BigInt::zero());
        }
    }
    for (q, factor) in distinct.iter_mut() {
        *factor = &d / *q;
    }
    (d, distinct)
}

/// `D / q` per distinct denominator q, from [`common_denominator`]: a map keyed by big
/// integers under a word-at-a-time multiplicative hash (the standard hasher spent more on a
/// denominator's few words than the division it saves).
pub(crate) type Denominators<'a> = HashMap<&'a BigInt, BigInt, BuildHasherDefault<WordHasher>>;

/// A multiplicative hash over 8-byte words (FxHash's step): fast and good enough for keys that
/// are not chosen by an adversary (a chain's denominators and states).
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// A chain's states, numbered with the transient ones first, each group in the states' order,
/// and which of them is the start: what [`Chain`] and [`LinkedChain`] share (each derefs to
/// it).
#[derive(Clone, Debug)]
pub struct Numbered<S> {
    states: Vec<S>,
    transient: usize,
    start: usize,
}

impl<S: Clone + Ord> Numbered<S> {
    /// The states found (`order`, the start first) numbered, with the old index of each new
    /// index and the new index of each old one.
    fn of(order: &[S], is_final: impl Fn(&S) -> bool) -> (Numbered<S>, Vec<usize>, Vec<usize>) {
        let mut ids: Vec<usize> = (0..order.len()).collect();
        ids.sort_by(|&a, &b| {
            let (fa, fb) = (is_final(&order[a]), is_final(&order[b]));
            fa.cmp(&fb).then_with(|| order[a].cmp(&order[b]))
        });
        let mut new_id = vec![0; order.len()];
        for (new, &old) in ids.iter().enumerate() {
            new_id[old] = new;
        }
        let numbered = Numbered {
            states: ids.iter().map(|&i| order[i].clone()).collect(),
            transient: ids.iter().filter(|&&i| !is_final(&order[i])).count(),
            start: new_id[0],
        };
        (numbered, ids, new_id)
    }
}

impl<S> Numbered<S> {
    /// All reachable states: transient ones first, then final ones.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// The number of transient states (they are `states()[..transient_count()]`).
    pub fn transient_count(&self) -> usize {
        self.transient
    }

    /// The index of the start state.
    pub fn start(&self) -> usize {
        self.start
    }
}

impl<S: Ord> Numbered<S> {
    /// The index of `state`, if it is reachable.
    pub fn index_of(&self, state: &S) -> Option<usize> {
        let (t, f) = self.states.split_at(self.transient);
        t.binary_search(state)
            .ok()
            .or_else(|| f.binary_search(state).ok().map(|i| i + self.transient))
    }
}

impl<S> Deref for Chain<S> {
    type Target = Numbered<S>;

    fn deref(&self) -> &Numbered<S> {
        &self.numbered
    }
}

/// A state from which the game can never end, and the cycle it is caught in.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Trap<S> {
    /// A reachable state from which no final state can be reached.
    pub state: S,
    /// A cycle of states the game can go round forever from there (first state repeated last).
    pub cycle: Vec<S>,
    /// True when the trap is a turn begun in `state` that can go on for ever (its rolls never
    /// end it), not a cycle of turns; `cycle` is then `[state, state]`.
    pub endless_turn: bool,
}

impl<S> Trap<S> {
    /// The same trap with each state mapped by `f` (for example a state projected to its square).
    pub fn map<T>(self, f: impl Fn(S) -> T) -> Trap<T> {
        Trap {
            state: f(self.state),
            cycle: self.cycle.into_iter().map(f).collect(),
            endless_turn: self.endless_turn,
        }
    }
}

/// The chain has more reachable states than the caller allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the chain has more than {limit} reachable states")]
pub struct ChainTooLarge {
    /// The limit that was exceeded.
    pub limit: usize,
}

/// The reachable part of a turn model as an absorbing Markov chain.
///
/// States are numbered with the transient ones first (in the states' order), then the final
/// ones. `Q` is the transient-to-transient part of the transition matrix.
#[derive(Clone, Debug)]
pub struct Chain<S> {
    numbered: Numbered<S>,
    /// The transient states' rows, rewards and whether each can go on for ever.
    rows: ChainTurns,
    /// Per transient state: its turn as ending rolls and the turn of another state (empty
    /// when no state has one; see [`Link`]).
    links: Vec<Option<Link>>,
}

impl<S: Clone + Eq + Hash + Ord + Debug> Chain<S> {
    /// Builds the chain of the states reachable from the model's start.
    pub fn build<M: TurnModel<State = S>>(model: &M) -> Chain<S> {
        match Chain::build_limited(model, usize::MAX) {
            Ok(chain) => chain,
            Err(_) => unreachable!("no limit"),
        }
    }

    /// Builds the chain, giving up once more than `limit` states are reachable.
    ///
    /// # Errors
    ///
    /// [`ChainTooLarge`] when the reachable part has more than `limit` states.
    pub fn build_limited<M: TurnModel<State = S>>(
        model: &M,
        limit: usize,
    ) -> Result<Chain<S>, ChainTooLarge> {
        let start = model.start();
        let mut found: HashMap<S, usize, BuildHasherDefault<WordHasher>> = HashMap::default();
        found.insert(start.clone(), 0);
        let mut order = vec![start];
        // Each state's turn until the states are renumbered (indices in the order found).
        let mut turns: Vec<Option<PendingTurn>> = Vec::new();
        let mut queue = VecDeque::from([0usize]);
        let mut too_large = false;
        // Shown after a second: a large or stateful board's turns take seconds to sum.
        let stage = crate::progress::Stage::begin("building the turn chain", None);
        while let Some(i) = queue.pop_front() {
            if i % crate::progress::ROWS_PER_REPORT == 0 {
                stage.advance(i as u64);
            }
            let state = order[i].clone();
            turns.push(None);
            if model.is_final(&state) {
                continue;
            }
            let mut index = |next: &S| match found.get(next) {
                Some(&j) => j,
                None => {
                    too_large |= order.len() >= limit;
                    found.insert(next.clone(), order.len());
                    order.push(next.clone());
                    queue.push_back(order.len() - 1);
                    order.len() - 1
                }
            };
            turns[i] = Some(PendingTurn::of_turn(model.turn(&state), &mut index));
            if too_large {
                return Err(ChainTooLarge { limit });
            }
        }
        turns.resize_with(order.len(), || None);
        drop(stage);

        let (numbered, ids, new_id) = Numbered::of(&order, |s| model.is_final(s));
        let pending = ids[..numbered.transient]
            .iter()
            .map(|&old| turns[old].take().expect("transient states have a turn"))
            .collect();
        let rows = ChainTurns::assemble(pending, &new_id);
        Ok(Chain {
            numbered,
            rows,
            links: Vec::new(),
        })
    }

    /// The transitions of transient state `i`: (state index, probability), sorted by index.
    pub fn row(&self, i: usize) -> &[(usize, BigRational)] {
        &self.rows.big()[i]
    }

    /// Every transient state's transitions.
    pub fn rows(&self) -> &[Vec<(usize, BigRational)>] {
        self.rows.big()
    }

    /// Transient state `i`'s turn as the rolls that end it and the turn of another state, when
    /// the chain was built with links (one player under unlimited roll-again): then
    /// `row(i)` is `ends / denom + (goes_on / denom) row(next)`.
    pub fn link(&self, i: usize) -> Option<&Link> {
        self.links.get(i)?.as_ref()
    }

    /// The expected rewards of one turn from transient state `i`.
    pub fn rewards(&self, i: usize) -> &TurnRewards {
        self.rows.rewards(i)
    }

    /// The least common denominator D of every transition probability, so that D times the
    /// transition matrix is an integer matrix. Each distinct denominator is taken once (many
    /// entries share one), and most divide the lcm so far (a run of top throws gives `F^k` for
    /// every k up to its length), which costs one division each (Lehmer's lcm,
    /// `num::gcd::lcm`), not a gcd.
    pub fn common_denominator(&self) -> BigInt {
        common_denominator(self.rows().iter().flatten().map(|(_, p)| p)).0
    }
}

impl<'a> Chain<Square> {
    /// The single-player chain of `board`.
    pub fn for_board(board: &'a Board) -> Chain<Square> {
        if !Capabilities::of(board).rolls_again_unlimited() {
            return Chain::build(&SingleBoard::new(board));
        }
        // Every turn's rolls as one player's from its square, kept across turns; every in-turn
        // state is a square: room for all of them from the start.
        let squares = board.size() as usize + 1;
        let model = MemoBoard {
            game: SingleBoard::new(board),
            memo: RefCell::new(HashMap::with_capacity_and_hasher(
                squares,
                Default::default(),
            )),
            walk: links::LinkWalk::with_capacity(squares),
        };
        let mut chain = Chain::build(&model);
        // SingleBoard has no lost turns: every chain turn is a whole fresh turn.
        let whole = |s: &Square| model.game.skip(s).is_none();
        let index_of = |s: &Square| chain.index_of(s);
        let links = links::index_links(
            &model.walk.records(),
            &chain.states,
            chain.transient,
            index_of,
            whole,
        );
        chain.links = links;
        chain
    }
}

/// [`SingleBoard`] under unlimited roll-again, its in-turn rolls kept across turns
/// ([`compound::RollsMemo`]) and each turn's run of top throws walked for the links
/// ([`links::LinkWalk`]): the same turns, fewer rolls worked out.
struct MemoBoard<'a> {
    game: SingleBoard<'a>,
    memo: RollsMemo<Square>,
    walk: links::LinkWalk<Square>,
}

impl TurnModel for MemoBoard<'_> {
    type State = Square;

    fn start(&self) -> Square {
        TurnModel::start(&self.game)
    }

    fn is_final(&self, state: &Square) -> bool {
        TurnModel::is_final(&self.game, state)
    }

    fn turn(&self, state: &Square) -> Turn<Square> {
        self.walk.walk(&self.game, state, &self.memo);
        compound_move_memo(&self.game, state, &self.memo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RollAgain;
    use crate::board::{Board, RuleOverrides};
    use crate::test_util::{board, q};

    fn compound(b: &Board, s: Square) -> Turn<Square> {
        compound_move(&SingleBoard::new(b), &s)
    }

    #[test]
    fn compound_move_without_roll_again_is_one_roll() {
        // Tiny board (die 2): from 0, a 1 climbs 1 -> 3, a 2 slides 2 -> 0.
        let b = crate::board::builtin("tiny").unwrap();
        let m = compound(&b, 0);
        assert_eq!(m.next, vec![(0, q(1, 2)), (3, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(1, 1));
        assert_eq!(m.rewards.ladders, q(1, 2));
        assert_eq!(m.rewards.snakes, q(1, 2));
        assert_eq!(m.rewards.climbed, q(1, 1)); // 1/2 * 2 squares
        assert_eq!(m.rewards.slid, q(1, 1)); // 1/2 * 2 squares
    }

    #[test]
    fn unlimited_roll_again_sums_a_cycle_of_top_faces_in_closed_form() {
        // size 5, die 2, overshoot stay, unlimited: from 4, a 2 (top) overshoots and stays on 4,
        // then rolls again; a 1 finishes. Worked by hand: the turn from 4 always ends on 5, with
        // expected rolls 1 + 1/2 + 1/4 + ... = 2 (the cycle 4 -> 4 of length 1, ratio 1/2).
        let b = board("size = 5\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n");
        let m = compound(&b, 4);
        assert_eq!(m.next, vec![(5, q(1, 1))]);
        assert_eq!(m.rewards.rolls, q(2, 1));
        // From 2: a 1 -> 3 ends; a 2 -> 4 rolls again, and from 4 as above finishes.
        // So P(end on 3) = 1/2, P(end on 5) = 1/2; rolls = 1 + 1/2 * 2 = 2.
        let m = compound(&b, 2);
        assert_eq!(m.next, vec![(3, q(1, 2)), (5, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(2, 1));
    }

    #[test]
    fn a_cycle_of_length_two_uses_ratio_f_to_the_minus_two() {
        // Worked by hand on size 6, die 3, bounce, unlimited roll-again:
        // from 4, a 3 -> 7 bounces to 5 (again); from 5 a 3 -> 8 bounces
        // to 4 (again): the cycle 4 -> 5 -> 4 of length 2, ratio 1 - 3^-2 = 8/9.
        // Level weights: w0 = 1 / (8/9) = 9/8, w1 = (1/3) / (8/9) = 3/8.
        // Ends: level 0 (on 4): 1 -> 5, 2 -> 6 (finish); level 1 (on 5): 1 -> 6 (finish), 2 -> 7 -> 5.
        // P(5) = w0/3 + w1/3 = 3/8 + 1/8 = 1/2; P(6) = w0/3 + w1/3 = 1/2. Rolls = w0 + w1 = 3/2.
        let b = board(
            "size = 6\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n",
        );
        let m = compound(&b, 4);
        assert_eq!(m.next, vec![(5, q(1, 2)), (6, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(3, 2));
    }

    #[test]
    fn forfeit_sends_the_token_back_to_where_the_turn_began() {
        // size 20, die 2, roll_again = 2: from 0, a 1 -> 1 ends (1/2); a 2 -> 2 rolls again:
        // then a 1 -> 3 ends (1/4), a 2 is the second top face in a row: forfeit, back to 0 (1/4).
        let b = board("size = 20\n[rules]\ndie = 2\nroll_again = 2\n");
        let m = compound(&b, 0);
        assert_eq!(m.next, vec![(0, q(1, 4)), (1, q(1, 2)), (3, q(1, 4))]);
        assert_eq!(m.rewards.rolls, q(3, 2));
    }

    #[test]
    fn seed_002s_board_finishes_in_two_turns_with_the_hand_derived_probability() {
        // Worked by hand in docs/seed-answers.md: P(T = 2) = 1/40 + 7/200 = 3/50, P(T = 1) = 0.
        let b = crate::board::builtin("random-tiles").unwrap();
        let chain = Chain::for_board(&b);
        let finish = chain.index_of(&20).unwrap();
        let to_finish = |i: usize| -> BigRational {
            chain
                .row(i)
                .iter()
                .filter(|(j, _)| *j == finish)
                .map(|(_, p)| p.clone())
                .sum()
        };
        let start = chain.start();
        assert_eq!(to_finish(start), q(0, 1));
        let two: BigRational = chain
            .row(start)
            .iter()
            .filter(|(j, _)| *j < chain.transient_count())
            .map(|(j, p)| p * to_finish(*j))
            .sum();
        assert_eq!(two, q(3, 50));
    }

    #[test]
    fn chain_keeps_only_reachable_squares_and_splits_off_the_finish() {
        let b = crate::board::builtin("tiny").unwrap();
        let chain = Chain::for_board(&b);
        assert_eq!(chain.states(), &[0, 3, 4]);
        assert_eq!(chain.transient_count(), 2);
        assert_eq!(chain.start(), 0);
        assert_eq!(chain.common_denominator(), BigInt::from(2));
        assert!(chain.always_ends());
    }

    #[test]
    fn a_board_whose_finish_cannot_be_reached_reports_the_trap() {
        // size 6, die 2, overshoot stay, snakes 4 -> 2 and 5 -> 2: from 3 a roll reaches 4 or 5,
        // both back to 2; from 2 a 1 -> 3 and a 2 -> 4 -> 2. No roll ever reaches 6, so the start
        // itself is trapped.
        let b = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        let chain = Chain::for_board(&b);
        let trap = chain.trap().expect("trapped");
        assert_eq!(trap.state, 0);
        assert_eq!(trap.cycle.first(), trap.cycle.last());
        assert!(!chain.always_ends());
        // With a three-sided die, 3 + 3 = 6 finishes, and the trap is gone.
        let allow = b
            .with_rules(&RuleOverrides {
                die: Some(crate::board::DieChoice::Fair(3)),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert!(Chain::for_board(&allow).always_ends());
    }

    /// The chain with the in-turn rolls kept across turns (`for_board` under unlimited
    /// roll-again) equals the chain built turn by turn from scratch (`SingleBoard`): the same
    /// states, rows and rewards, on every built-in board without state and on the 1,000-square
    /// benchmark boards, each under unlimited roll-again and with chance squares where the
    /// board has them.
    #[test]
    fn rolls_kept_across_turns_give_the_chain_built_from_scratch() {
        let mut boards: Vec<Board> = crate::board::builtin_names()
            .map(|name| crate::board::builtin(name).unwrap())
            .collect();
        for path in [
            "benches/boards/gen-1000.toml",
            "benches/boards/gen-1000-again.toml",
        ] {
            let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
            boards.push(
                Board::from_toml_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap(),
            );
        }
        let mut checked = 0;
        for b in boards.iter().filter(|b| Capabilities::of(b).stateless) {
            let unlimited = RuleOverrides {
                roll_again: Some(RollAgain::Unlimited),
                ..RuleOverrides::default()
            };
            let Ok(b) = b.with_rules(&unlimited) else {
                continue;
            };
            let kept = Chain::for_board(&b);
            let scratch = Chain::build(&SingleBoard::new(&b));
            assert_eq!(kept.states(), scratch.states(), "{}", b.name());
            assert_eq!(kept.rows(), scratch.rows(), "{}", b.name());
            for i in 0..kept.transient_count() {
                assert_eq!(kept.rewards(i), scratch.rewards(i), "{}", b.name());
            }
            assert_eq!(kept.rows.endless(), scratch.rows.endless(), "{}", b.name());
            checked += 1;
        }
        assert!(checked >= 6, "{checked} boards");
    }
}
