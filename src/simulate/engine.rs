//! The simulator's engine: games played roll by roll from the board and [`crate::game`], never
//! from the chain's compound moves, so that a simulation is an independent check of the chain.
//!
//! # How it plays any board
//!
//! Every roll goes through the [`Table`] (generated from [`crate::game::turn_steps`]): a throw
//! drawn exactly by its integer weight among the dice's sums, its effect on the turn from
//! [`crate::game::throw_effect`] (the forfeit rule has no other definition), then the cell's
//! outcome, drawn by its integer weight when a chance square or a tile makes the roll random
//! ([`Table::play_roll`]).
//!
//! # How the standard game is fast
//!
//! One fair die, no chance square or tile, no forfeit: the lockstep loop of `simulate::fast`.
//! Its faces come in batches from one 64-bit word each (`simulate::stream::FaceBatch`), and the
//! spelled-out loop draws the very same faces for such a board ([`Table::engine_roll`]), so
//! both loops play the very same games; a test holds them to it.
//!
//! # Reproducibility
//!
//! Games are cut into chunks of [`CHUNK_GAMES`]; chunk c's lane l draws from its own stream,
//! seeded from (seed, c, l). Within a chunk, lanes take the next game in a fixed order. Chunks are
//! merged in their order, so the result depends on the seed only, never on the thread count.

use super::fast::{self, LANES};
use super::stream::Dice;
use super::table::{RollTally, Table, Turn};

/// Games in one chunk, the unit of work (and of random streams).
pub const CHUNK_GAMES: u64 = 1 << 16;

/// Where a game can be replayed from: the state of its lane's dice when it began.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Turns the game took.
    pub turns: u64,
    /// Rolls the game took.
    pub rolls: u64,
    /// The chunk it was played in.
    pub chunk: u64,
    /// Its number within the chunk.
    pub game: u64,
    dice: Dice,
}

impl GameRecord {
    /// The state of the random stream when the game began.
    pub(super) fn dice(&self) -> &Dice {
        &self.dice
    }

    /// The order in which records are kept: fewer turns first, then the earlier game.
    fn key(&self) -> (u64, u64, u64) {
        (self.turns, self.chunk, self.game)
    }
}

/// The merged tallies of a simulation.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games that finished.
    pub games: u64,
    /// Games stopped at the turn cap.
    pub capped: u64,
    /// `turns[t]`: games that took t turns.
    pub turns: Vec<u64>,
    /// `rolls[r]`: games that took r rolls.
    pub rolls: Vec<u64>,
    /// Rolls over all games, capped ones included.
    pub total_rolls: u64,
    /// Snakes, ladders, squares climbed and slid over all games, capped ones included.
    pub totals: RollTally,
    /// The game with the fewest turns (the first one seen).
    pub shortest: Option<GameRecord>,
    /// The game with the most turns (the first one seen).
    pub longest: Option<GameRecord>,
}

impl Tally {
    /// Adds another chunk's tallies (chunks are merged in their order).
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.capped += other.capped;
        add_counts(&mut self.turns, &other.turns);
        add_counts(&mut self.rolls, &other.rolls);
        self.total_rolls += other.total_rolls;
        self.totals.add(&other.totals);
        if let Some(s) = other.shortest {
            if self.shortest.as_ref().is_none_or(|b| s.key() < b.key()) {
                self.shortest = Some(s);
            }
        }
        if let Some(l) = other.longest {
            let better = |b: &GameRecord| {
                (l.turns, u64::MAX - l.chunk, u64::MAX - l.game)
                    > (b.turns, u64::MAX - b.chunk, u64::MAX - b.game)
            };
            if self.longest.as_ref().is_none_or(better) {
                self.longest = Some(l);
            }
        }
    }

    /// Records a finished game of `turns` turns and `rolls` rolls, game `game` of chunk
    /// `chunk`, whose stream was `dice` when it began.
    #[inline(always)]
    pub(super) fn record(&mut self, turns: u64, rolls: u64, chunk: u64, game: u64, dice: &Dice) {
        self.games += 1;
        bump(&mut self.turns, turns);
        bump(&mut self.rolls, rolls);
        // Within a chunk: fewer turns first, then the earlier game (records come in any order).
        if self
            .shortest
            .as_ref()
            .is_none_or(|b| (turns, game) < (b.turns, b.game))
        {
            self.shortest = Some(GameRecord {
                turns,
                rolls,
                chunk,
                game,
                dice: dice.clone(),
            });
        }
        if self
            .longest
            .as_ref()
            .is_none_or(|b| turns > b.turns || (turns == b.turns && game < b.game))
        {
            self.longest = Some(GameRecord {
                turns,
                rolls,
                chunk,
                game,
                dice: dice.clone(),
            });
        }
    }
}

fn bump(counts: &mut Vec<u64>, at: u64) {
    let at = at as usize;
    if counts.len() <= at {
        counts.resize(at + 1, 0);
    }
    counts[at] += 1;
}

fn add_counts(into: &mut Vec<u64>, from: &[u64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(from) {
        *a += b;
    }
}

/// One lane: a game in progress.
#[derive(Clone, Debug)]
pub(super) struct Lane {
    pub(super) dice: Dice,
    /// The dice as they were when this game began (to replay it).
    at_start: Dice,
    /// The turn in progress (its `row`: the token's; the fast loop keeps the row elsewhere).
    turn: Turn,
    /// Rolls of this game (in the fast loop: set when it ends).
    pub(super) rolls: u64,
    /// Completed turns of this game (in the fast loop: up to its last stop or flush).
    pub(super) turns: u64,
    game: u64,
}

impl Lane {
    fn new(table: &Table, dice: Dice, game: u64) -> Lane {
        Lane {
            at_start: dice.clone(),
            dice,
            turn: Turn::at(table.start_row),
            rolls: 0,
            turns: 0,
            game,
        }
    }
}

/// Plays the games of chunk `chunk` (`games` of them) and returns their tallies.
pub fn run_chunk(table: &Table, seed: u64, chunk: u64, games: u64, max_turns: u64) -> Tally {
    play_chunk(table, seed, chunk, games, max_turns, table.fast().is_some())
}

/// [`run_chunk`] on the fast loop (`fast`, when the table has one) or the spelled-out loop.
fn play_chunk(
    table: &Table,
    seed: u64,
    chunk: u64,
    games: u64,
    max_turns: u64,
    fast: bool,
) -> Tally {
    let mut tally = Tally::default();
    let lanes_here = (LANES as u64).min(games);
    let mut lanes: Vec<Lane> = (0..lanes_here)
        .map(|l| Lane::new(table, Dice::new(seed, chunk * LANES as u64 + l), l))
        .collect();
    let mut started = lanes_here;
    let mut run = Run {
        table,
        tally: &mut tally,
        chunk,
        games,
        started: &mut started,
        max_turns,
    };
    match table.fast() {
        Some(play) if fast => fast::play(&mut run, play, &mut lanes),
        _ => {
            // One roll at a time, every rule spelled out. Round-robin over the lanes like the
            // fast loop, so games go to the same streams.
            let mut active: Vec<usize> = (0..lanes.len()).collect();
            while !active.is_empty() {
                active.retain(|&l| {
                    let lane = &mut lanes[l];
                    let (_, done) = general_step(table, lane, &mut run.tally.totals, max_turns);
                    done.is_none() || run.end_game(lane, done)
                });
            }
        }
    }
    tally
}

/// What a chunk's lanes share while it runs.
pub(super) struct Run<'a> {
    pub(super) table: &'a Table,
    pub(super) tally: &'a mut Tally,
    chunk: u64,
    games: u64,
    started: &'a mut u64,
    pub(super) max_turns: u64,
}

impl Run<'_> {
    /// Records the lane's game (`Some(None)`: capped) and starts its next one; false when the
    /// chunk has no game left.
    #[inline(always)]
    pub(super) fn end_game(&mut self, lane: &mut Lane, done: Option<Option<u64>>) -> bool {
        self.tally.total_rolls += lane.rolls;
        match done {
            Some(Some(t)) => {
                self.tally
                    .record(t, lane.rolls, self.chunk, lane.game, &lane.at_start)
            }
            _ => self.tally.capped += 1,
        }
        if *self.started == self.games {
            return false;
        }
        // The next game, in place (the lane keeps its dice).
        lane.at_start.clone_from(&lane.dice);
        lane.turn = Turn::at(self.table.start_row);
        lane.rolls = 0;
        lane.turns = 0;
        lane.game = *self.started;
        *self.started += 1;
        true
    }
}

/// One roll with every rule spelled out ([`Table::play_roll`]), adding its tallies to
/// `totals`. Returns the throw's sum, and `Some(Some(turns))` when the game finished,
/// `Some(None)` when it hit the turn cap, `None` when it goes on.
fn general_step(
    table: &Table,
    lane: &mut Lane,
    totals: &mut RollTally,
    max_turns: u64,
) -> (u32, Option<Option<u64>>) {
    let rolled = table.engine_roll(&mut lane.dice, &mut lane.turn);
    lane.rolls += 1;
    totals.add(&rolled.tally);
    lane.turns += u64::from(rolled.turn_ends);
    let done = if lane.turn.row == table.finish_row {
        Some(Some(lane.turns))
    } else if lane.turns >= max_turns {
        Some(None)
    } else {
        None
    };
    (rolled.sum, done)
}

/// Replays a recorded game and returns its throws (the sum of the dice; the face for one die),
/// turn by turn. The replay plays the spelled-out rules (the general loop), so it also checks
/// the fast loop that recorded the game.
pub fn replay(table: &Table, record: &GameRecord, max_turns: u64) -> Vec<Vec<u32>> {
    let mut lane = Lane::new(table, record.dice.clone(), 0);
    let mut totals = RollTally::default();
    let mut turns: Vec<Vec<u32>> = vec![Vec::new()];
    loop {
        let before = lane.turns;
        let (sum, done) = general_step(table, &mut lane, &mut totals, max_turns);
        turns.last_mut().expect("a turn").push(sum);
        if done.is_some() {
            return turns;
        }
        if lane.turns > before {
            turns.push(Vec::new());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;

    fn same(a: &Tally, b: &Tally) {
        assert_eq!(a.games, b.games);
        assert_eq!(a.capped, b.capped);
        assert_eq!(a.turns, b.turns);
        assert_eq!(a.rolls, b.rolls);
        assert_eq!(a.total_rolls, b.total_rolls);
        assert_eq!(a.totals, b.totals);
        let key = |r: &Option<GameRecord>| r.as_ref().map(|r| (r.turns, r.rolls, r.game));
        assert_eq!(key(&a.shortest), key(&b.shortest));
        assert_eq!(key(&a.longest), key(&b.longest));
    }

    #[test]
    fn the_lockstep_loop_plays_exactly_the_games_of_the_spelled_out_rules() {
        // The fast loop (lane words, counts of turns, stops, flushes) against general_step,
        // which follows game::turn_step's outcome roll by roll: same streams, same faces, so the
        // very same games, and the same records.
        for (name, max_turns) in [
            ("efi", 10_000),
            ("milton-bradley", 10_000),
            ("efi", 12),
            ("efi", 1),
            ("efi", 0),
        ] {
            let b = builtin(name).unwrap();
            let fast = Table::new(&b);
            let mut tight = fast.clone();
            // A flush every 2 rounds and a stop every 2 turns, to exercise both.
            tight.fast = Some(fast.fast().unwrap().with_spare(&fast, 1));
            for games in [5_000, 3] {
                let a = run_chunk(&fast, 9, 3, games, max_turns);
                same(&a, &run_chunk(&tight, 9, 3, games, max_turns));
                same(&a, &play_chunk(&fast, 9, 3, games, max_turns, false));
                assert_eq!(a.games + a.capped, games);
                if max_turns == 12 && games > 3 {
                    assert!(a.capped > 0, "efi games often last more than 12 turns");
                }
            }
        }
    }
}
