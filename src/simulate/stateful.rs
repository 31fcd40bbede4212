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
//! The games are the engine's ([`super::engine::simulate_one`], its seats
//! [`super::engine::play_game`]) with a [`Machine`] player: chunk c of
//! [`CHUNK_GAMES`](super::engine::CHUNK_GAMES) games plays its games one after another on its
//! own stream of the seed (streams apart from the plain engine's and the race's), chunks are
//! merged by sums and by a total order, so the result depends on the seed only, never on the
//! thread count. Seats sharing the board (`super::shared`) play the same [`Machine`].

use std::collections::BTreeMap;

use super::engine::{simulate_one, Player, Roll};
use super::stream::{reject_below, Dice, Weighted};
use super::table::RollTally;
use super::{SimOptions, Simulation};
use crate::board::{Board, Dice as BoardDice, Square, Throw};
use crate::game::{
    begin, play_throw, Branches, PlayerState, Progress, RollGame, RollOutcome, StatefulBoard, Step,
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
        Throws::of(board.dice())
    }

    /// The throws of `dice`.
    pub(crate) fn of(dice: &BoardDice) -> Throws {
        let throws = dice.throws().to_vec();
        Throws {
            pick: Weighted::new(throws.iter().map(|t| t.weight)),
            throws,
        }
    }

    /// The throws, each with its weight.
    pub(crate) fn throws(&self) -> &[Throw] {
        &self.throws
    }

    /// One throw, drawn by its weight.
    pub(crate) fn draw(&self, dice: &mut Dice) -> Throw {
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
#[inline(always)]
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

/// A player on a board that changes during a game: the turn machine itself
/// ([`play_turn`] on the [`StatefulBoard`]), seats sharing the board's one progress.
pub(crate) struct Machine<'a> {
    game: StatefulBoard<'a>,
    throws: Throws,
}

impl<'a> Machine<'a> {
    /// The player of `board`.
    pub(crate) fn new(board: &'a Board) -> Machine<'a> {
        Machine {
            game: StatefulBoard::new(board),
            throws: Throws::new(board),
        }
    }
}

impl Player for Machine<'_> {
    type State = PlayerState;
    type Shared = Progress;
    type Scratch = Branches<PlayerState>;

    fn start(&self) -> PlayerState {
        self.game.start()
    }

    fn square(&self, state: &PlayerState) -> Square {
        state.square
    }

    fn is_final(&self, state: &PlayerState) -> bool {
        RollGame::is_final(&self.game, state)
    }

    #[inline(always)]
    fn turn(
        &self,
        state: PlayerState,
        dice: &mut Dice,
        branches: &mut Branches<PlayerState>,
        seen: &mut impl FnMut(&Roll),
    ) -> PlayerState {
        let began = state.square;
        let mut at = began;
        play_turn(&self.game, &self.throws, state, dice, branches, &mut |r| {
            let roll = match r.outcome {
                Some(o) => Roll {
                    sum: r.sum,
                    from: at,
                    to: o.to,
                    tally: RollTally::of(o),
                    points: self.game.points(o),
                    forfeited: false,
                },
                None => Roll {
                    sum: r.sum,
                    from: at,
                    to: began,
                    forfeited: true,
                    ..Roll::default()
                },
            };
            at = roll.to;
            seen(&roll);
        })
    }

    /// What is used up and eaten is one for the whole table: the mover takes it over.
    fn shared(&self, state: &PlayerState) -> Progress {
        state.progress
    }

    fn hand_over(&self, mover: PlayerState, shared: &Progress) -> PlayerState {
        PlayerState {
            progress: *shared,
            ..mover
        }
    }
}

/// Plays `options.games` games on the stateful `board` with rayon's current thread pool;
/// `progress` is called with the number of games just finished after each chunk. The report's
/// `score` is the law of the final scores seen (`None` when the board has no point squares).
pub fn simulate_stateful(
    board: &Board,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    let (mut sim, scores) = simulate_one(&Machine::new(board), options, STATEFUL_STREAMS, progress);
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
