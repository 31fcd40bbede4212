//! The simulator on boards that change during a game (one-use jumps, point squares, lost and
//! extra turns): games played roll by roll on the same [`RollGame`] as the exact chain, one roll
//! at a time, with the player's state (square, what is used up and eaten, a turn owed) carried
//! through the game.
//!
//! # The game played
//!
//! A turn is [`play_turn`], which drives the game's turn machine: [`begin`] skips a turn owed
//! (it counts as a turn, with no roll); otherwise a throw is drawn by its exact integer weight,
//! [`play_throw`] plays it (the roll is [`RollGame::roll_into`]: for one player,
//! [`crate::game::roll_with`] with the player's used-up jumps and eaten squares; a forfeit, an
//! extra roll and a top throw's roll-again are decided there), and one outcome is drawn by its
//! weight when a chance square or a tile makes the roll random; the outcome's step says whether
//! the turn goes on. The chain's compound move drives the same machine, so both follow the one
//! definition of the rules; the simulator never uses the chain's transition laws.
//!
//! # Reproducibility
//!
//! Games are cut into chunks of [`CHUNK_GAMES`](super::engine::CHUNK_GAMES); chunk c plays its games one after another on
//! its own stream of the seed (streams apart from the plain engine's and the race's), chunks
//! are merged by sums and by a total order, so the result depends on the seed only, never on the
//! thread count.

use std::collections::BTreeMap;

use super::engine::{GameRecord, Tally};
use super::stream::{reject_below, Dice, Weighted};
use super::table::RollTally;
use super::{finish, par_chunks, SimOptions, Simulation};
use crate::board::{Board, Throw};
use crate::game::{
    begin, play_throw, Branches, PlayerState, RollGame, RollOutcome, StatefulBoard, Step,
};

/// Streams of the stateful simulator's chunks are numbered from here (the plain engine uses
/// small numbers, races `2^62` and up).
const STATEFUL_STREAMS: u64 = 1 << 61;

/// The throws of a board's dice, drawn by their exact integer weights.
#[derive(Clone, Debug)]
pub struct Throws {
    throws: Vec<Throw>,
    pick: Weighted,
}

impl Throws {
    /// The throws of `board`'s dice.
    pub fn new(board: &Board) -> Throws {
        let throws = board.dice().throws().to_vec();
        Throws {
            pick: Weighted::new(throws.iter().map(|t| t.weight)),
            throws,
        }
    }

    fn draw(&self, dice: &mut Dice) -> Throw {
        self.throws[self.pick.pick(dice)]
    }
}

/// One roll of a turn, as [`play_turn`] reports it: the throw's sum and what the roll did
/// (`None` for a forfeit: the K-th top throw in a row).
pub struct RollSeen<'a> {
    /// The sum of the dice.
    pub sum: u32,
    /// The roll's outcome; `None` when the throw forfeited the turn.
    pub outcome: Option<&'a RollOutcome>,
}

/// Picks one of a roll's branches by its weight out of `total`; a roll with one branch draws
/// nothing.
fn pick<S>(branches: &Branches<S>, total: u64, dice: &mut Dice) -> usize {
    if branches.len() == 1 {
        return 0;
    }
    let mut u = dice.uniform(total, reject_below(total));
    branches
        .iter()
        .position(|(w, ..)| {
            let here = u < *w;
            u = u.wrapping_sub(*w);
            here
        })
        .expect("the weights add up to the total")
}

/// Plays one whole turn of `game` from the non-final `state` with `dice` (the game's dice are
/// `throws`) through the turn machine, calling `seen` after every roll; returns the state the
/// next turn begins in (after [`RollGame::end_turn`]). `branches` is scratch space for the
/// rolls' outcomes, kept by the caller from turn to turn so that a roll allocates nothing.
pub fn play_turn<G: RollGame>(
    game: &G,
    throws: &Throws,
    state: G::State,
    dice: &mut Dice,
    branches: &mut Branches<G::State>,
    seen: &mut impl FnMut(RollSeen<'_>),
) -> G::State {
    let began = state.clone();
    let mut now = match begin(game, state) {
        Step::End(after) => return after,
        Step::Continue(now) => now,
    };
    loop {
        let throw = throws.draw(dice);
        let pick = |b: &Branches<G::State>, total| pick(b, total, dice);
        let (step, outcome) = play_throw(game, &began, &now, &throw, branches, pick);
        seen(RollSeen {
            sum: throw.sum,
            outcome: outcome.as_ref(),
        });
        match step {
            Step::End(next) => return next,
            Step::Continue(next) => now = next,
        }
    }
}

/// The final scores of the finished games: `counts[score]` games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Scores {
    /// Games by final score.
    pub counts: BTreeMap<i64, u64>,
}

impl Scores {
    pub(crate) fn add(&mut self, score: i64) {
        *self.counts.entry(score).or_insert(0) += 1;
    }

    pub(crate) fn merge(&mut self, other: Scores) {
        for (s, n) in other.counts {
            *self.counts.entry(s).or_insert(0) += n;
        }
    }

    /// The number of games.
    pub fn n(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The mean score.
    pub fn mean(&self) -> Option<f64> {
        let n = self.n();
        let sum: i128 = self
            .counts
            .iter()
            .map(|(&s, &c)| i128::from(s) * i128::from(c))
            .sum();
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// The sample standard deviation (denominator n - 1).
    pub fn sd(&self) -> Option<f64> {
        let n = self.n();
        let mean = self.mean()?;
        (n > 1).then(|| {
            let ss: f64 = self
                .counts
                .iter()
                .map(|(&s, &c)| (s as f64 - mean).powi(2) * c as f64)
                .sum();
            (ss / (n - 1) as f64).sqrt()
        })
    }

    /// The smallest and the largest score seen.
    pub fn range(&self) -> Option<(i64, i64)> {
        Some((
            *self.counts.keys().next()?,
            *self.counts.keys().next_back()?,
        ))
    }
}

/// One game played to its end or to the turn cap.
struct Played {
    /// `Some(turns)` when the game finished.
    turns: Option<u64>,
    rolls: u64,
    score: i64,
}

/// Plays one game of `game` from its start, calling `seen` after every roll with the number of
/// the turn it belongs to (from 0).
fn play_game(
    game: &StatefulBoard<'_>,
    throws: &Throws,
    dice: &mut Dice,
    branches: &mut Branches<PlayerState>,
    max_turns: u64,
    seen: &mut impl FnMut(u64, RollSeen<'_>),
) -> Played {
    let mut state = game.start();
    let (mut turns, mut rolls, mut score) = (0, 0, 0);
    while !game.is_final(&state) {
        if turns == max_turns {
            return Played {
                turns: None,
                rolls,
                score,
            };
        }
        state = play_turn(game, throws, state, dice, branches, &mut |r: RollSeen<
            '_,
        >| {
            rolls += 1;
            if let Some(o) = r.outcome {
                score += game.points(o);
            }
            seen(turns, r);
        });
        turns += 1;
    }
    Played {
        turns: Some(turns),
        rolls,
        score,
    }
}

/// Plays the games of chunk `chunk` (`games` of them).
fn run_chunk(
    game: &StatefulBoard<'_>,
    throws: &Throws,
    options: &SimOptions,
    chunk: u64,
    games: u64,
) -> (Tally, Scores) {
    let mut dice = Dice::new(options.seed, STATEFUL_STREAMS + chunk);
    let mut tally = Tally::default();
    let mut scores = Scores::default();
    let mut branches = Vec::new();
    for g in 0..games {
        let at_start = dice.clone();
        let totals = &mut tally.totals;
        let max_turns = options.max_turns;
        let played = play_game(
            game,
            throws,
            &mut dice,
            &mut branches,
            max_turns,
            &mut |_, r| {
                if let Some(o) = r.outcome {
                    totals.add(&RollTally::of(o));
                }
            },
        );
        tally.total_rolls += played.rolls;
        match played.turns {
            Some(t) => {
                tally.record(t, played.rolls, chunk, g, &at_start);
                scores.add(played.score);
            }
            None => tally.capped += 1,
        }
    }
    (tally, scores)
}

/// Replays a recorded game: its throws turn by turn (an empty list for a skipped turn).
fn replay(
    game: &StatefulBoard<'_>,
    throws: &Throws,
    record: &GameRecord,
    max_turns: u64,
) -> Vec<Vec<u32>> {
    let mut dice = record.dice().clone();
    let mut turns: Vec<Vec<u32>> = Vec::new();
    let played = play_game(
        game,
        throws,
        &mut dice,
        &mut Vec::new(),
        max_turns,
        &mut |t, r| {
            let t = t as usize;
            if turns.len() <= t {
                turns.resize(t + 1, Vec::new());
            }
            turns[t].push(r.sum);
        },
    );
    turns.resize(played.turns.unwrap_or(max_turns) as usize, Vec::new());
    turns
}

/// Plays `options.games` games on the stateful `board` with rayon's current thread pool;
/// `progress` is called with the number of games just finished after each chunk. The report's
/// `score` is the law of the final scores seen (`None` when the board has no point squares).
pub fn simulate_stateful(
    board: &Board,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    let game = StatefulBoard::new(board);
    let throws = Throws::new(board);
    let (tally, scores) = par_chunks(
        options.games,
        progress,
        || (Tally::default(), Scores::default()),
        |acc, (t, s)| {
            acc.0.merge(t);
            acc.1.merge(s);
        },
        |chunk, games| run_chunk(&game, &throws, options, chunk, games),
    );
    let replayed = |r: &GameRecord| replay(&game, &throws, r, options.max_turns);
    let mut sim = finish(options, tally, &replayed, Vec::new());
    if !board.point_squares().is_empty() {
        sim.score = Some(scores);
    }
    sim
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::DEFAULT_MAX_TURNS;
    use crate::test_util::{board, on_one_thread_and_on_two, EVERY_STATE_RULE};

    fn run(b: &Board, games: u64) -> Simulation {
        let options = SimOptions {
            games,
            seed: 5,
            max_turns: DEFAULT_MAX_TURNS,
        };
        simulate_stateful(b, &options, &|_| {})
    }

    /// `n` draws of probability `p` gave `seen`: within 5 standard deviations.
    fn near(seen: u64, n: u64, p: f64) -> bool {
        let (n, seen) = (n as f64, seen as f64);
        (seen - n * p).abs() <= 5.0 * (n * p * (1.0 - p)).sqrt()
    }

    #[test]
    fn a_lost_turn_is_a_turn_without_a_roll() {
        // Worked by hand: size 2, a coin, allow, square 1 costs the next turn. A 2 finishes at
        // once (T = 1, one roll); a 1 reaches 1, turn 2 is skipped, turn 3 finishes (T = 3, two
        // rolls). P(T = 1) = P(T = 3) = 1/2 and T = 2 never happens.
        let b = board("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let n = 100_000;
        let sim = run(&b, n);
        let t = sim.turns.counts();
        assert_eq!(t.len(), 4);
        assert_eq!((t[0], t[2]), (0, 0));
        assert_eq!(t[1] + t[3], n);
        assert!(near(t[1], n, 0.5), "{t:?}");
        assert_eq!(sim.rolls.counts()[1..], [t[1], t[3]]);
        // The shortest game is one turn of one roll (a 2); a three-turn game shows the skipped
        // turn as an empty turn.
        assert_eq!(sim.shortest.unwrap().faces.unwrap(), vec![vec![2]]);
        assert_eq!(sim.longest.unwrap().turns, 3);
    }

    #[test]
    fn an_extra_turn_square_gives_one_more_roll_in_the_same_turn() {
        // Worked by hand: size 2, a coin, allow, square 1 gives one more roll, which always
        // finishes: T = 1 always, one roll or two with probability 1/2 each.
        let b = board("size = 2\nextra_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let n = 100_000;
        let sim = run(&b, n);
        assert_eq!(sim.turns.counts(), [0, n]);
        let r = sim.rolls.counts();
        assert_eq!(r[1] + r[2], n);
        assert!(near(r[1], n, 0.5), "{r:?}");
    }

    #[test]
    fn apples_are_eaten_once_and_score_their_points() {
        // Worked by hand: size 2, a coin, allow, square 1 scores 5: half the games pass through
        // 1, so the score is 0 or 5 with probability 1/2 each.
        let b = board("size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let n = 100_000;
        let score = run(&b, n).score.unwrap();
        assert_eq!(score.counts.keys().copied().collect::<Vec<_>>(), vec![0, 5]);
        assert!(near(score.counts[&5], n, 0.5), "{score:?}");
        // Size 4, a coin, stay, the snake 2 -> 0: square 3 (and so the finish) is reached only
        // from 1, so every game eats the apple on 1, and many land on 1 again after the snake;
        // the apple is gone by then, so every score is exactly 5.
        let b = board("size = 4\nsnakes = [[2, 0]]\npoints = [[1, 5]]\n[rules]\ndie = 2\n");
        let score = run(&b, 20_000).score.unwrap();
        assert_eq!(score.counts, BTreeMap::from([(5, 20_000)]));
        assert_eq!(score.sd(), Some(0.0));
        // A board without point squares reports no score.
        let plain = board("size = 4\nlose_turn = [1]\n[rules]\ndie = 2\n");
        assert_eq!(run(&plain, 10).score, None);
    }

    #[test]
    fn a_forfeit_goes_back_but_keeps_the_one_use_ladder_broken() {
        // A coin whose top face 2 rolls again and whose second 2 in a row forfeits; the one-use
        // ladder 2 -> 4 on 6 squares. From 0, 2 then 2 climbs the ladder and then forfeits: the
        // token goes back to 0 and the ladder stays broken. In every game the ladder is taken
        // at most once, and some games take it and then forfeit that very turn.
        let b =
            board("size = 6\nladders = [[2, 4]]\nonce = [2]\n[rules]\ndie = 2\nroll_again = 2\n");
        let game = StatefulBoard::new(&b);
        let throws = Throws::new(&b);
        let mut dice = Dice::new(3, 0);
        let mut forfeited_after_climb = 0;
        for _ in 0..2_000 {
            let mut state = game.start();
            let mut ladders = 0;
            while state.square != 6 {
                let began = state;
                let mut climbed_now = false;
                let mut forfeit = false;
                let branches = &mut Vec::new();
                state = play_turn(&game, &throws, state, &mut dice, branches, &mut |r| match r
                    .outcome
                {
                    Some(o) => {
                        ladders += o.ladders;
                        climbed_now |= o.ladders > 0;
                    }
                    None => forfeit = true,
                });
                if forfeit {
                    assert_eq!(state.square, began.square);
                    if climbed_now {
                        forfeited_after_climb += 1;
                        assert_eq!(state.progress.used, 1, "the ladder stays broken");
                    }
                }
            }
            assert!(ladders <= 1);
        }
        assert!(forfeited_after_climb > 100, "{forfeited_after_climb}");
    }

    #[test]
    fn a_one_use_snake_makes_the_game_shorter_as_the_chain_says() {
        // Worked by hand (src/analysis/stateful.rs): size 3, a coin, stay, the snake 2 -> 0 works
        // once: E[T] = 15/4 (6 if it stayed), E[snakes] = 3/4.
        let b = board("size = 3\nsnakes = [[2, 0]]\nonce = [2]\n[rules]\ndie = 2\n");
        let n = 200_000;
        let sim = run(&b, n);
        let mean = sim.turns.mean().unwrap();
        let se = sim.turns.sd().unwrap() / (n as f64).sqrt();
        assert!((mean - 3.75).abs() < 5.0 * se, "{mean}");
        assert!(near(sim.snakes, n, 0.75), "{}", sim.snakes);
    }

    #[test]
    fn the_same_seed_gives_the_same_simulation_on_one_thread_and_on_two() {
        let b = board(EVERY_STATE_RULE);
        let options = SimOptions {
            games: 3 * crate::simulate::engine::CHUNK_GAMES / 2 + 7,
            seed: 11,
            max_turns: DEFAULT_MAX_TURNS,
        };
        let (one, two) = on_one_thread_and_on_two(|| simulate_stateful(&b, &options, &|_| {}));
        assert_eq!(one, two);
        assert_eq!(one.games, options.games);
        assert!(one.score.is_some());
    }
}
