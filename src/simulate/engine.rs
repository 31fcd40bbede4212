//! The simulator's engine: games played roll by roll from the board and [`crate::rules`], never
//! from the chain's compound moves, so that a simulation is an independent check of the chain.
//!
//! # How it plays any board
//!
//! Every roll goes through the [`Table`] (generated from [`crate::rules::turn_steps`]): a throw
//! drawn exactly by its integer weight among the dice's sums, its effect on the turn from
//! [`crate::rules::throw_effect`] (the forfeit rule has no other definition), then the cell's
//! outcome, drawn by its integer weight when a chance square or a tile makes the roll random
//! ([`Table::play_roll`]).
//!
//! # How the standard game is fast
//!
//! One fair die, no chance square or tile, no forfeit: the interleaved loop below.
//! - **One table lookup per roll.** The cell `row + face` holds the row reached, whether the turn
//!   ends, and the roll's packed tallies; a row is `square * die`, so no multiplication.
//! - **Few random bits per roll.** Each 64-bit output of xoshiro256++ gives four 16-bit pieces,
//!   each turned into a face by Lemire's multiply-shift with rejection ([`super::stream`]), so
//!   faces are exactly uniform and a d6 roll costs a quarter of a random number.
//! - **Several games per core at once.** A chunk plays [`LANES`] independent games interleaved,
//!   each lane with its own random stream, so the out-of-order core overlaps their table loads.
//!
//! The general loop draws the same pieces in the same order for such a board (a fair die's
//! throw is one piece), so both loops play the very same games; a test holds them to it.
//!
//! # Reproducibility
//!
//! Games are cut into chunks of [`CHUNK_GAMES`]; chunk c's lane l draws from its own stream,
//! seeded from (seed, c, l). Within a chunk, lanes take the next game in a fixed order. Chunks are
//! merged in their order, so the result depends on the seed only, never on the thread count.

use super::stream::{reject_below, Dice};
use super::table::{
    Packing, RollTally, Table, Turn, COST_SHIFT, FINISH_COST, ROW_BITS, TURN_END_SHIFT,
};

/// Games played interleaved on one core.
pub const LANES: usize = 8;
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
    pub(super) fn record(&mut self, turns: u64, rolls: u64, chunk: u64, game: u64, dice: &Dice) {
        self.games += 1;
        bump(&mut self.turns, turns);
        bump(&mut self.rolls, rolls);
        if self.shortest.as_ref().is_none_or(|b| turns < b.turns) {
            self.shortest = Some(GameRecord {
                turns,
                rolls,
                chunk,
                game,
                dice: dice.clone(),
            });
        }
        if self.longest.as_ref().is_none_or(|b| turns > b.turns) {
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
struct Lane {
    dice: Dice,
    /// The dice as they were when this game began (to replay it).
    at_start: Dice,
    /// The turn in progress (its `row`: the token's).
    turn: Turn,
    /// Counts down one per roll (a finishing roll: [`FINISH_COST`]); at zero or below the lane
    /// stops to flush its packed tallies and check the turn cap.
    countdown: i64,
    /// The countdown's value when it was last set.
    countdown_from: i64,
    /// Rolls of this game before the countdown was last set.
    rolls: u64,
    /// Completed turns of this game.
    turns: u64,
    /// The packed tallies since the last flush.
    packed: u64,
    game: u64,
}

impl Lane {
    fn new(table: &Table, dice: Dice, game: u64) -> Lane {
        Lane {
            at_start: dice.clone(),
            dice,
            turn: Turn::at(table.start_row),
            countdown: 0,
            countdown_from: 0,
            rolls: 0,
            turns: 0,
            packed: 0,
            game,
        }
    }
}

/// Plays the games of chunk `chunk` (`games` of them) and returns their tallies.
pub fn run_chunk(table: &Table, seed: u64, chunk: u64, games: u64, max_turns: u64) -> Tally {
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
        Some(packing) => {
            for lane in &mut lanes {
                run.set_countdown(lane, packing);
            }
            let die = table.width;
            let reject = reject_below(u64::from(die));
            let finish_row = table.finish_row;
            let entries = &table.entries[..];
            let packed = &table.packed[..];
            // All lanes busy: the interleaved loop, one roll per lane per round.
            let mut idle = vec![false; lanes.len()];
            if let Ok(all) = <&mut [Lane; LANES]>::try_from(&mut lanes[..]) {
                'all: loop {
                    // Every lane rolls once per round, so all lanes use up their four pieces
                    // together: refill them all, then play four rounds.
                    for lane in all.iter_mut() {
                        lane.dice.refill();
                    }
                    for _ in 0..4 {
                        for (l, lane) in all.iter_mut().enumerate() {
                            let face = lane.dice.take(die, reject);
                            let i = (lane.turn.row + face) as usize;
                            let e = entries[i];
                            lane.packed = lane.packed.wrapping_add(packed[i]);
                            lane.turn.row = (e & ROW_BITS) as u32;
                            lane.turns += (e >> TURN_END_SHIFT) & 1;
                            lane.countdown -= (e >> COST_SHIFT) as i64;
                            if lane.countdown <= 0 && !run.stop(lane, packing, finish_row) {
                                idle[l] = true;
                                break 'all;
                            }
                        }
                    }
                }
            }
            // The last games of the chunk, lane by lane (same rolls, same order per lane).
            for (l, lane) in lanes.iter_mut().enumerate() {
                if idle[l] {
                    continue;
                }
                loop {
                    let face = lane.dice.next_index(die, reject);
                    let i = (lane.turn.row + face) as usize;
                    let e = entries[i];
                    lane.packed = lane.packed.wrapping_add(packed[i]);
                    lane.turn.row = (e & ROW_BITS) as u32;
                    lane.turns += (e >> TURN_END_SHIFT) & 1;
                    lane.countdown -= (e >> COST_SHIFT) as i64;
                    if lane.countdown <= 0 && !run.stop(lane, packing, finish_row) {
                        break;
                    }
                }
            }
        }
        None => {
            // Any other board: one roll at a time, every rule spelled out.
            // Round-robin over the lanes like the fast loop, so games go to the same streams.
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
struct Run<'a> {
    table: &'a Table,
    tally: &'a mut Tally,
    chunk: u64,
    games: u64,
    started: &'a mut u64,
    max_turns: u64,
}

impl Run<'_> {
    /// Sets the countdown: at most `flush_every` rolls, and never past the turn cap (a roll ends
    /// at most one turn, so counting rolls cannot step over it).
    fn set_countdown(&self, lane: &mut Lane, packing: &Packing) {
        let left = (self.max_turns - lane.turns).min(packing.flush_every as u64) as i64;
        lane.countdown = left;
        lane.countdown_from = left;
    }

    /// The lane's countdown ran out: flush its tallies, then end its game if it finished or hit
    /// the cap, else set a new countdown. False when the chunk has no game left for the lane.
    #[inline(never)]
    fn stop(&mut self, lane: &mut Lane, packing: &Packing, finish_row: u32) -> bool {
        let finished = lane.turn.row == finish_row;
        let used =
            lane.countdown_from - lane.countdown - if finished { FINISH_COST - 1 } else { 0 };
        lane.rolls += used as u64;
        self.tally.totals.add(&packing.unpack(lane.packed));
        lane.packed = 0;
        let done = if finished {
            Some(Some(lane.turns))
        } else if lane.turns >= self.max_turns {
            Some(None)
        } else {
            None
        };
        if done.is_some() && !self.end_game(lane, done) {
            return false;
        }
        self.set_countdown(lane, packing);
        true
    }

    /// Records the lane's game (`Some(None)`: capped) and starts its next one; false when the
    /// chunk has no game left.
    fn end_game(&mut self, lane: &mut Lane, done: Option<Option<u64>>) -> bool {
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
        let dice = lane.dice.clone();
        *lane = Lane::new(self.table, dice, *self.started);
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
    let rolled = table.play_roll(&mut lane.dice, &mut lane.turn);
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
    }

    #[test]
    fn the_interleaved_loop_plays_exactly_the_games_of_the_spelled_out_rules() {
        // The fast loop (packed tallies, countdowns, flushes) against general_step, which follows
        // rules::turn_step's outcome roll by roll: same streams, so the very same games.
        for (name, max_turns) in [("efi", 10_000), ("milton-bradley", 10_000), ("efi", 12)] {
            let b = builtin(name).unwrap();
            let fast = Table::new(&b);
            let mut tight = fast.clone();
            // Flush every 2 rolls to exercise the countdown's flushes.
            tight.packing.as_mut().unwrap().flush_every = 2;
            let mut general = fast.clone();
            general.packing = None;
            let a = run_chunk(&fast, 9, 3, 5_000, max_turns);
            same(&a, &run_chunk(&tight, 9, 3, 5_000, max_turns));
            same(&a, &run_chunk(&general, 9, 3, 5_000, max_turns));
            assert_eq!(a.games + a.capped, 5_000);
            if max_turns == 12 {
                assert!(a.capped > 0, "efi games often last more than 12 turns");
            }
        }
    }
}
