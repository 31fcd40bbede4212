//! The likeliest game: the single game (the states at the ends of its turns, start to finish)
//! with the highest probability, among the games with the fewest turns and among all games of
//! at most a given number of turns.
//!
//! # Definition
//!
//! A game is the sequence of turn-chain states s0 (the start), s1, ..., sn, where s1..s(n-1)
//! are transient and the n-th turn ends the game (in any final state: on a board with point
//! squares the final states differ by what was eaten, and they are one end here). Its
//! probability is the product of its turns' exact probabilities: P(s0 -> s1) ... P(s(n-1) ->
//! end), each the chain's transition probability (every roll sequence of the turn summed).
//!
//! # Method
//!
//! Layered maximum product (Viterbi): after k turns, `best[s]` is the highest probability of a
//! k-turn prefix that ends on transient state s, with its previous state kept for the path.
//! The first layer in which the game can end gives the likeliest fewest-turn game. A later
//! layer gives a likelier game only when its probability is strictly higher (ties go to the
//! fewer turns, then to the lower state numbers in the chain's order). The search stops early,
//! proven, once no prefix still going beats the best game found (every turn multiplies by at
//! most 1, so no continuation can gain). Without a bound it also stops after as many turns as
//! the chain has states: a likeliest game can be taken without a repeated state (cutting out a
//! cycle multiplies by 1 / (the cycle's probability) >= 1), so it has fewer turns than that.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::shortest::{turn_between, turns_along, TurnRolls};
use crate::board::Board;
use crate::chain::{on_player_chain, Memory};
use crate::chain::{Chain, ChainState};

/// One game, with its exact probability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Chain state indices at the start and at the end of each turn; the last is a final state
    /// (the one the last turn most likely ends in, the lowest-numbered on a tie).
    pub path: Vec<usize>,
    /// The product of the turns' probabilities (the last turn's: of ending the game at all).
    pub probability: BigRational,
    /// How many games of the kind asked for have this same probability, this one included
    /// (1: it is the only likeliest game; saturates at `u128::MAX`).
    pub ties: u128,
}

impl Game {
    /// The number of turns.
    #[cfg(test)]
    pub fn turns(&self) -> usize {
        self.path.len() - 1
    }
}

/// The likeliest games of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Likeliest {
    /// The likeliest among the games with the fewest turns.
    pub fewest: Game,
    /// The likeliest among the games of at most `within` turns (all games when `within` is
    /// `None`); `None` when no game ends within the bound.
    pub overall: Option<Game>,
    /// The turn bound asked for, if any.
    pub within: Option<usize>,
}

/// A likeliest game as turns with their rolls, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameTurns {
    /// Each turn, with one way to roll it (the fewest rolls the turn can take).
    pub turns: Vec<TurnRolls>,
    /// The game's exact probability (`Game::probability`).
    pub probability: BigRational,
    /// How many games tie with it (`Game::ties`).
    pub ties: u128,
}

/// `Likeliest` with each game's turns and rolls.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct LikeliestTurns {
    /// The likeliest among the games with the fewest turns.
    #[serde(rename = "fewest_turns")]
    pub fewest: GameTurns,
    /// The likeliest among the games of at most `within` turns (`None`: none ends within).
    pub overall: Option<GameTurns>,
    /// The turn bound asked for, if any.
    pub within: Option<usize>,
}

/// [`likeliest`] with the rolls of each turn from `turn(a, b)` (as [`super::shortest::extremes_by`]
/// takes it).
pub fn likeliest_turns<S: ChainState>(
    chain: &Chain<S>,
    within: Option<usize>,
    turn: &dyn Fn(&S, &S) -> Option<TurnRolls>,
) -> Option<LikeliestTurns> {
    let l = likeliest(chain, within)?;
    let turns = |g: Game| GameTurns {
        turns: turns_along(chain.states(), &g.path, turn),
        probability: g.probability,
        ties: g.ties,
    };
    Some(LikeliestTurns {
        fewest: turns(l.fewest),
        overall: l.overall.map(turns),
        within,
    })
}

/// The likeliest games of `board` (no policy), over the squares or over the full state of a
/// board that changes during a game, each turn's rolls found as the shortest game's are
/// ([`turn_between`]).
pub fn board_likeliest(board: &Board, within: Option<usize>) -> Option<LikeliestTurns> {
    on_player_chain!(board, Memory::Full, |game, chain| likeliest_turns(
        chain,
        within,
        &|a, b| turn_between(game, a, b)
    ))
}

/// One layer: per transient state, the best prefix probability after this many turns.
type Layer = Vec<Option<BigRational>>;

/// Per transient state, the previous state of its best prefix (`NONE`: no prefix).
type Parents = Vec<u32>;

/// Per transient state, how many prefixes reach it with its best probability.
type Counts = Vec<u128>;

const NONE: u32 = u32::MAX;

/// A game's end found in one layer: (probability, transient state before the last turn, how
/// many games of this layer end with that probability).
type End = (BigRational, usize, u128);

/// The likeliest games of `chain`, the overall one among games of at most `within` turns.
/// `None` when the game cannot end (no final state is reachable from the start).
pub fn likeliest<S: ChainState>(chain: &Chain<S>, within: Option<usize>) -> Option<Likeliest> {
    let t = chain.transient_count();
    let start = chain.start();
    if start >= t {
        let none = Game {
            path: vec![start],
            probability: BigRational::one(),
            ties: 1,
        };
        return Some(Likeliest {
            fewest: none.clone(),
            overall: Some(none),
            within,
        });
    }
    let limit = chain.states().len();
    let mut layer: Layer = vec![None; t];
    layer[start] = Some(BigRational::one());
    let mut counts: Counts = vec![0; t];
    counts[start] = 1;
    let mut parents: Vec<Parents> = Vec::new();
    let mut fewest: Option<(usize, End)> = None;
    let mut overall: Option<(usize, End)> = None;
    for k in 1..=limit {
        let bounded = within.is_some_and(|w| k > w);
        if bounded && fewest.is_some() {
            break;
        }
        let (next, next_counts, back, end) = step(chain, &layer, &counts);
        layer = next;
        counts = next_counts;
        parents.push(back);
        if let Some(end) = end {
            if fewest.is_none() {
                fewest = Some((k, end.clone()));
            }
            match &mut overall {
                _ if bounded => {}
                // A later game of the same probability ties (the fewer turns stay shown).
                Some((_, (p, _, ties))) if end.0 == *p => *ties = ties.saturating_add(end.2),
                Some((_, (p, _, _))) if end.0 < *p => {}
                _ => overall = Some((k, end)),
            }
        }
        let going = layer.iter().flatten().max();
        match (going, &overall) {
            (None, _) => break,
            // A prefix can only lose probability; one of the best game's can still tie it.
            (Some(m), Some((_, (p, _, _)))) if m < p && fewest.is_some() => break,
            _ => {}
        }
    }
    let game = |(k, (p, before, ties)): (usize, End)| Game {
        path: trace(&parents[..k - 1], before, final_of(chain, before)),
        probability: p,
        ties,
    };
    Some(Likeliest {
        fewest: game(fewest.clone()?),
        overall: overall.map(game),
        within,
    })
}

/// One more turn: the next layer with its counts of best prefixes, and the likeliest way to
/// end the game in this turn (with how many games end that way).
fn step<S: ChainState>(
    chain: &Chain<S>,
    layer: &Layer,
    counts: &Counts,
) -> (Layer, Counts, Parents, Option<End>) {
    let t = chain.transient_count();
    let mut next: Layer = vec![None; t];
    let mut next_counts: Counts = vec![0; t];
    let mut back: Parents = vec![NONE; t];
    let mut end: Option<End> = None;
    for (r, entry) in layer.iter().enumerate() {
        let Some(p) = entry else { continue };
        let mut ends = BigRational::zero();
        for (j, q) in chain.row(r) {
            if *j >= t {
                ends += q;
                continue;
            }
            let v = p * q;
            match &next[*j] {
                Some(b) if v < *b => {}
                Some(b) if v == *b => {
                    next_counts[*j] = next_counts[*j].saturating_add(counts[r]);
                }
                _ => {
                    next[*j] = Some(v);
                    next_counts[*j] = counts[r];
                    back[*j] = u32::try_from(r).expect("fewer than 2^32 states");
                }
            }
        }
        if !ends.is_zero() {
            let v = p * ends;
            match &mut end {
                Some((b, _, _)) if v < *b => {}
                Some((b, _, ties)) if v == *b => *ties = ties.saturating_add(counts[r]),
                _ => end = Some((v, r, counts[r])),
            }
        }
    }
    (next, next_counts, back, end)
}

/// The final state a turn from transient state `from` most likely ends in (lowest on a tie).
fn final_of<S: ChainState>(chain: &Chain<S>, from: usize) -> usize {
    let t = chain.transient_count();
    let mut best: Option<(usize, &BigRational)> = None;
    for (j, q) in chain.row(from).iter().filter(|(j, _)| *j >= t) {
        if best.is_none_or(|(_, b)| q > b) {
            best = Some((*j, q));
        }
    }
    best.expect("the turn can end the game").0
}

/// The path ending with `last`, whose previous state is `before`, reached after as many turns
/// as there are layers of `parents`.
fn trace(parents: &[Parents], before: usize, last: usize) -> Vec<usize> {
    let mut path = vec![last, before];
    let mut at = before;
    for back in parents.iter().rev() {
        at = back[at] as usize;
        path.push(at);
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn board(text: &str) -> Board {
        Board::from_toml_str(text, "test").unwrap()
    }

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn the_tiny_boards_likeliest_game_is_two_heads() {
        // The tiny board: heads climbs 1 -> 3, then heads finishes; each is 1/2
        // (boards/tiny.toml).
        let tiny = crate::board::builtin("tiny").unwrap();
        let l = likeliest(&Chain::for_board(&tiny), None).unwrap();
        assert_eq!(l.fewest.turns(), 2);
        assert_eq!(l.fewest.probability.to_string(), "1/4");
        assert_eq!(l.overall, Some(l.fewest));
    }

    /// A coin loaded 1:9 on 5 squares, overshoot allow, a ladder 1 -> 5 (the finish).
    /// By hand: heads (1/10) climbs to the finish at once, the only 1-turn game, so the
    /// likeliest fewest-turn game is 0 -> 5 with 1/10. No 2-turn game ends (0 -> 2 -> 3 or 4).
    /// Three turns: 0 -> 2 -> 4 -> end is 9/10 * 9/10 * 1 (from 4 any throw finishes) = 81/100;
    /// 0 -> 2 -> 3 -> end is 9/10 * 1/10 * 9/10. Longer games pass through those with a factor
    /// below 1, so the likeliest game is 0 -> 2 -> 4 -> 5 with 81/100; within 2 turns it is the
    /// 1-turn game.
    const LOADED: &str = "size = 5\nladders = [[1, 5]]\n[rules]\ndie = [1, 9]\n\
                          overshoot = \"allow\"\n";

    fn squares(chain: &Chain<u32>, g: &Game) -> Vec<u32> {
        g.path.iter().map(|&i| chain.states()[i]).collect()
    }

    #[test]
    fn a_rare_shortcut_is_the_fewest_turns_but_not_the_likeliest_game() {
        let b = board(LOADED);
        let chain = Chain::for_board(&b);
        let l = likeliest(&chain, None).unwrap();
        assert_eq!(squares(&chain, &l.fewest), vec![0, 5]);
        assert_eq!(l.fewest.probability, q(1, 10));
        let overall = l.overall.clone().unwrap();
        assert_eq!(squares(&chain, &overall), vec![0, 2, 4, 5]);
        assert_eq!(overall.probability, q(81, 100));
        let within = likeliest(&chain, Some(2)).unwrap();
        assert_eq!(within.overall, Some(l.fewest.clone()));
        assert_eq!(within.fewest, l.fewest);
        assert_eq!(likeliest(&chain, Some(3)).unwrap().overall, l.overall);
    }

    /// Issue 40 item 22: ties are counted. A coin on 4 squares, overshoot allow, no jumps: from
    /// 0 a throw reaches 1 or 2, from 1 2 or 3, from 2 3 or 4, from 3 any throw finishes.
    /// The only 2-turn game is 0 -> 2 -> 4 (1/2 x 1/2 = 1/4). Three turns: 0 -> 1 -> 3 -> 4 and
    /// 0 -> 2 -> 3 -> 4 are 1/2 x 1/2 x 1 = 1/4 each, 0 -> 1 -> 2 -> 4 is 1/8; longer games
    /// are at most 1/8. So three games share the highest probability 1/4, and the fewest-turn
    /// game is alone among the 2-turn games.
    #[test]
    fn games_that_tie_for_the_likeliest_are_counted() {
        let b = board("size = 4\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let chain = Chain::for_board(&b);
        let l = likeliest(&chain, None).unwrap();
        assert_eq!(squares(&chain, &l.fewest), vec![0, 2, 4]);
        assert_eq!((l.fewest.probability.clone(), l.fewest.ties), (q(1, 4), 1));
        let overall = l.overall.unwrap();
        assert_eq!(
            squares(&chain, &overall),
            vec![0, 2, 4],
            "the fewer turns shown"
        );
        assert_eq!((overall.probability, overall.ties), (q(1, 4), 3));
        // Within 2 turns only the one game.
        assert_eq!(likeliest(&chain, Some(2)).unwrap().overall.unwrap().ties, 1);
        // The loaded coin's likeliest game is alone (81/100 against 9/100 and less).
        let loaded = Chain::for_board(&board(LOADED));
        assert_eq!(likeliest(&loaded, None).unwrap().overall.unwrap().ties, 1);
        // A second route on Milton Bradley: every 7-turn game (the fewest) is one face a turn,
        // probability 6^-7, so the count of tied fewest-turn games times 6^-7 is the
        // probability of a 7-turn game, which the shortest-game search sums on its own.
        let mb = Chain::for_board(&crate::board::builtin("milton-bradley").unwrap());
        let fewest = likeliest(&mb, None).unwrap().fewest;
        assert_eq!(fewest.probability, q(1, 6_i64.pow(7)));
        let ties = BigRational::from_integer(fewest.ties.into());
        let seven = super::super::shortest_probability::shortest_probability(&mb, 7);
        assert_eq!(ties * &fewest.probability, seven);
    }

    #[test]
    fn a_bound_below_the_fewest_turns_gives_no_game_within_it() {
        // The tiny board needs 2 turns: within 1 turn no game ends; the fewest-turn game is
        // still given (0 -> 3 -> 4, 1/2 * 1/2).
        let tiny = board("size = 4\nsnakes = [[2, 0]]\nladders = [[1, 3]]\n[rules]\ndie = 2\n");
        let chain = Chain::for_board(&tiny);
        let l = likeliest(&chain, Some(1)).unwrap();
        assert_eq!(squares(&chain, &l.fewest), vec![0, 3, 4]);
        assert_eq!(l.fewest.probability, q(1, 4));
        assert_eq!(l.overall, None);
    }

    #[test]
    fn a_board_that_cannot_end_has_no_likeliest_game() {
        // A coin, snakes on both squares it reaches: 0 -> 0 for ever, the finish 3 unreached.
        let b = board("size = 3\nsnakes = [[1, 0], [2, 0]]\n[rules]\ndie = 2\n");
        assert_eq!(likeliest(&Chain::for_board(&b), None), None);
    }
}
