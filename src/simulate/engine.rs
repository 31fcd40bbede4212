//! The simulator's engine: games played roll by roll from the board and [`crate::rules`], never
//! from the chain's compound moves, so that a simulation is an independent check of the chain.
//!
//! # How it is fast
//!
//! - **One table lookup per roll.** [`Table`] holds, for every square s and face r, what
//!   [`rules::roll`] and [`rules::turn_step`] say happens: the row of the square reached, whether
//!   the player rolls again, and the id of the roll's snakes/ladders tally. The rules module stays
//!   the single definition; the table is only a cache of it. A row is `square * die`, so the next
//!   index is `row + face` with no multiplication.
//! - **Few random bits per roll.** [`Dice`] cuts each 64-bit output of xoshiro256++ into four
//!   16-bit pieces and turns each into a face by Lemire's multiply-shift, rejecting the
//!   `2^16 mod die` pieces that would bias it (4 in 65,536 for a d6), so faces are exactly
//!   uniform and a d6 roll costs a quarter of a random number.
//!   (D. Lemire, *Fast random integer generation in an interval*, ACM TOMACS 29(1), 2019.)
//! - **Several games per core at once.** A chunk plays [`LANES`] independent games interleaved,
//!   each lane with its own random stream, so the out-of-order core overlaps their table loads.
//!
//! # Reproducibility
//!
//! Games are cut into chunks of [`CHUNK_GAMES`]; chunk c's lane l draws from its own stream,
//! seeded from (seed, c, l). Within a chunk, lanes take the next game in a fixed order. Chunks are
//! merged in their order, so the result depends on the seed only, never on the thread count.
//!
//! # Building on it
//!
//! [`Table`] and [`Dice`] are the reusable parts: a game of several tokens taking turns (with or
//! without knocking each other off) can drive the same table and dice one token at a time.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Board, RollAgain, Square};
use crate::rules;

/// Games played interleaved on one core.
pub const LANES: usize = 8;
/// Games in one chunk, the unit of work (and of random streams).
pub const CHUNK_GAMES: u64 = 1 << 16;

/// Bits of a table entry that hold the next row.
const ROW_BITS: u64 = 0xFFFF_FFFF;
/// The "rolls again" flag of a table entry.
const AGAIN_BIT: u64 = 1 << 63;

/// What one roll did besides moving: snakes and ladders taken, squares climbed and slid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RollTally {
    /// Snakes taken.
    pub snakes: u32,
    /// Ladders taken.
    pub ladders: u32,
    /// Squares climbed by ladders.
    pub climbed: u32,
    /// Squares slid down by snakes.
    pub slid: u32,
}

/// The rules of a board cached as one lookup per (square, face).
#[derive(Clone, Debug)]
pub struct Table {
    die: u32,
    size: Square,
    start_row: u32,
    finish_row: u32,
    /// Number of top faces in a row already rolled in a turn after which a top face forfeits.
    forfeit_streak: Option<u32>,
    /// `entries[square * die + face - 1]`: next row | tally id << 32 | again << 63.
    entries: Vec<u64>,
    /// The tallies by id; id 0 is a roll that took no jump.
    tallies: Vec<RollTally>,
}

impl Table {
    /// Builds the table from [`rules::roll`] and [`rules::turn_step`] for every square and face.
    pub fn new(board: &Board) -> Table {
        let die = board.rules().die;
        let size = board.size();
        let mut tallies = vec![RollTally::default()];
        let mut entries = Vec::with_capacity((size as usize + 1) * die as usize);
        for square in 0..=size {
            for face in 1..=die {
                if square == size {
                    entries.push(u64::from(size * die));
                    continue;
                }
                let step = rules::turn_step(board, square, square, 0, face);
                let out = step.outcome;
                let tally = RollTally {
                    snakes: out.snakes,
                    ladders: out.ladders,
                    climbed: out.climbed,
                    slid: out.slid,
                };
                let id = match tallies.iter().position(|t| *t == tally) {
                    Some(id) => id,
                    None => {
                        tallies.push(tally);
                        tallies.len() - 1
                    }
                };
                let mut e = u64::from(out.to * die) | (id as u64) << 32;
                if step.again {
                    e |= AGAIN_BIT;
                }
                entries.push(e);
            }
        }
        // Where the K-th top face forfeits, ask the rules how many top faces in a row it takes.
        let forfeit_streak = match board.rules().roll_again {
            RollAgain::Forfeit(_) => {
                let probe = board.rules().start.min(size - 1);
                (0..=crate::board::MAX_ROLL_AGAIN)
                    .find(|&j| rules::turn_step(board, probe, probe, j, die).forfeited)
            }
            _ => None,
        };
        Table {
            die,
            size,
            start_row: board.rules().start * die,
            finish_row: size * die,
            forfeit_streak,
            entries,
            tallies,
        }
    }

    /// The number of faces.
    pub fn die(&self) -> u32 {
        self.die
    }

    /// The tally of each tally id.
    pub fn tallies(&self) -> &[RollTally] {
        &self.tallies
    }

    /// The square a token starts a game on.
    pub fn start(&self) -> Square {
        self.start_row / self.die
    }

    /// The squares that can be reached from the start (by the table: no chain involved) from which
    /// the finish cannot be reached; empty when every game ends with probability 1.
    pub fn trapping_squares(&self) -> Vec<Square> {
        let n = self.size as usize + 1;
        let d = self.die as usize;
        let mut reach = vec![false; n];
        let mut stack = vec![self.start() as usize];
        reach[self.start() as usize] = true;
        while let Some(s) = stack.pop() {
            for f in 0..d {
                let t = (self.entries[s * d + f] & ROW_BITS) as usize / d;
                if !reach[t] {
                    reach[t] = true;
                    stack.push(t);
                }
            }
        }
        // Backwards from the finish.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for s in 0..n - 1 {
            for f in 0..d {
                let t = (self.entries[s * d + f] & ROW_BITS) as usize / d;
                preds[t].push(s);
            }
        }
        let mut ends = vec![false; n];
        ends[n - 1] = true;
        let mut stack = vec![n - 1];
        while let Some(t) = stack.pop() {
            for &s in &preds[t] {
                if !ends[s] {
                    ends[s] = true;
                    stack.push(s);
                }
            }
        }
        (0..n)
            .filter(|&s| reach[s] && !ends[s])
            .map(|s| s as Square)
            .collect()
    }
}

/// A fair die with exactly uniform faces, drawing 16 random bits per face.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: Xoshiro256PlusPlus,
    bits: u64,
    left: u32,
    die: u32,
    /// `2^16 mod die`: pieces whose low product is below this are rejected.
    reject_below: u32,
}

impl Dice {
    /// A die with `die` faces on the random stream `stream` of `seed`.
    pub fn new(die: u32, seed: u64, stream: u64) -> Dice {
        let key = splitmix64(splitmix64(seed) ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Dice {
            rng: Xoshiro256PlusPlus::seed_from_u64(key),
            bits: 0,
            left: 0,
            die,
            reject_below: (1u32 << 16) % die,
        }
    }

    /// The next face, from 0 to `die - 1` (face value minus one).
    #[inline(always)]
    pub fn next_index(&mut self) -> u32 {
        loop {
            if self.left == 0 {
                self.bits = self.rng.next_u64();
                self.left = 4;
            }
            let piece = (self.bits & 0xFFFF) as u32;
            self.bits >>= 16;
            self.left -= 1;
            // Lemire: piece * die = face * 2^16 + low; reject the 2^16 mod die lowest `low`s
            // so that each face has exactly floor(2^16 / die) pieces.
            let m = piece * self.die;
            if (m & 0xFFFF) >= self.reject_below {
                return m >> 16;
            }
        }
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014), used to spread seeds into streams.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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
    /// Rolls counted by tally id (see [`Table::tallies`]), over finished and capped games.
    pub by_tally: Vec<u64>,
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
        add_counts(&mut self.by_tally, &other.by_tally);
        if let Some(s) = other.shortest {
            if self.shortest.as_ref().is_none_or(|b| s.key() < b.key()) {
                self.shortest = Some(s);
            }
        }
        if let Some(l) = other.longest {
            let better = |b: &GameRecord| (l.turns, u64::MAX - l.chunk, u64::MAX - l.game) > (b.turns, u64::MAX - b.chunk, u64::MAX - b.game);
            if self.longest.as_ref().is_none_or(better) {
                self.longest = Some(l);
            }
        }
    }

    fn record(&mut self, turns: u64, rolls: u64, chunk: u64, game: u64, dice: &Dice) {
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
    row: u32,
    turn_start_row: u32,
    streak: u32,
    rolls: u64,
    /// Rolls after which the same turn went on.
    agains: u64,
    game: u64,
}

/// Plays the games of chunk `chunk` (`games` of them) and returns their tallies.
pub fn run_chunk(table: &Table, seed: u64, chunk: u64, games: u64, max_turns: u64) -> Tally {
    let mut tally = Tally {
        by_tally: vec![0; table.tallies.len()],
        ..Tally::default()
    };
    let mut lanes: Vec<Lane> = (0..LANES as u64)
        .map(|l| {
            let dice = Dice::new(table.die, seed, chunk * LANES as u64 + l);
            Lane {
                at_start: dice.clone(),
                dice,
                row: table.start_row,
                turn_start_row: table.start_row,
                streak: 0,
                rolls: 0,
                agains: 0,
                game: l,
            }
        })
        .collect();
    let mut started = (LANES as u64).min(games);
    lanes.truncate(started as usize);
    let mut counts = vec![0u64; LANES * table.tallies.len()];
    let nt = table.tallies.len();
    if let Some(k) = table.forfeit_streak {
        let mut live: Vec<usize> = (0..lanes.len()).collect();
        while !live.is_empty() {
            live.retain(|&l| {
                let lane = &mut lanes[l];
                let done = step_forfeit(table, lane, &mut counts[l * nt..(l + 1) * nt], k, max_turns);
                if let Some(turns) = done {
                    finish(&mut tally, lane, turns, chunk, table, &mut started, games)
                } else {
                    true
                }
            });
        }
    } else {
        // All lanes busy: the interleaved loop.
        if lanes.len() == LANES {
            let lanes: &mut [Lane; LANES] = (&mut lanes[..]).try_into().expect("LANES lanes");
            'all: loop {
                for (l, lane) in lanes.iter_mut().enumerate() {
                    if let Some(turns) = step(table, lane, &mut counts[l * nt..], max_turns) {
                        if !finish(&mut tally, lane, turns, chunk, table, &mut started, games) {
                            // This lane has no more games: continue lane by lane below.
                            lane.game = u64::MAX;
                            break 'all;
                        }
                    }
                }
            }
        }
        for (l, lane) in lanes.iter_mut().enumerate() {
            if lane.game == u64::MAX {
                continue;
            }
            loop {
                if let Some(turns) = step(table, lane, &mut counts[l * nt..], max_turns) {
                    if !finish(&mut tally, lane, turns, chunk, table, &mut started, games) {
                        break;
                    }
                }
            }
        }
    }
    for l in 0..LANES {
        for (id, c) in counts[l * nt..(l + 1) * nt].iter().enumerate() {
            tally.by_tally[id] += c;
        }
    }
    tally
}

/// The end of a lane's game (`turns` is `None` for a capped game). Starts the lane's next game
/// and returns true, or returns false when the chunk has no game left.
#[inline(never)]
fn finish(
    tally: &mut Tally,
    lane: &mut Lane,
    turns: Option<u64>,
    chunk: u64,
    table: &Table,
    started: &mut u64,
    games: u64,
) -> bool {
    match turns {
        Some(t) => tally.record(t, lane.rolls, chunk, lane.game, &lane.at_start),
        None => tally.capped += 1,
    }
    if *started == games {
        return false;
    }
    lane.game = *started;
    *started += 1;
    lane.at_start = lane.dice.clone();
    lane.row = table.start_row;
    lane.turn_start_row = table.start_row;
    lane.streak = 0;
    lane.rolls = 0;
    lane.agains = 0;
    true
}

/// One roll without forfeits. Returns `Some(Some(turns))` when the game finished, `Some(None)`
/// when it hit the turn cap, `None` when it goes on.
#[inline(always)]
fn step(table: &Table, lane: &mut Lane, counts: &mut [u64], max_turns: u64) -> Option<Option<u64>> {
    let face = lane.dice.next_index();
    let e = table.entries[(lane.row + face) as usize];
    lane.row = (e & ROW_BITS) as u32;
    counts[((e >> 32) & 0x7FFF_FFFF) as usize] += 1;
    lane.rolls += 1;
    lane.agains += e >> 63;
    // A turn ends on every roll that does not roll again.
    let turns = lane.rolls - lane.agains;
    if lane.row == table.finish_row {
        Some(Some(turns))
    } else if turns >= max_turns {
        Some(None)
    } else {
        None
    }
}

/// One roll when the K-th top face in a row forfeits (`k`: top faces already rolled in a turn
/// after which the next one forfeits). Here `lane.agains` counts turns.
fn step_forfeit(
    table: &Table,
    lane: &mut Lane,
    counts: &mut [u64],
    k: u32,
    max_turns: u64,
) -> Option<Option<u64>> {
    let face = lane.dice.next_index();
    lane.rolls += 1;
    if face == table.die - 1 && lane.streak >= k {
        // Forfeit: the roll is not moved, back to where the turn began.
        counts[0] += 1;
        lane.row = lane.turn_start_row;
        lane.streak = 0;
        lane.agains += 1;
    } else {
        let e = table.entries[(lane.row + face) as usize];
        lane.row = (e & ROW_BITS) as u32;
        counts[((e >> 32) & 0x7FFF_FFFF) as usize] += 1;
        if e & AGAIN_BIT != 0 {
            lane.streak += 1;
        } else {
            lane.streak = 0;
            lane.agains += 1;
            lane.turn_start_row = lane.row;
        }
    }
    if lane.row == table.finish_row {
        Some(Some(lane.agains))
    } else if lane.agains >= max_turns {
        Some(None)
    } else {
        None
    }
}

/// Replays a recorded game and returns its faces (1-based), turn by turn.
pub fn replay(table: &Table, record: &GameRecord, max_turns: u64) -> Vec<Vec<u32>> {
    let mut lane = Lane {
        dice: record.dice.clone(),
        at_start: record.dice.clone(),
        row: table.start_row,
        turn_start_row: table.start_row,
        streak: 0,
        rolls: 0,
        agains: 0,
        game: 0,
    };
    let mut counts = vec![0u64; table.tallies.len()];
    let mut turns: Vec<Vec<u32>> = vec![Vec::new()];
    loop {
        let before = lane.dice.clone();
        let mut probe = before.clone();
        let face = probe.next_index() + 1;
        let turns_before = turns_so_far(table, &lane);
        let done = match table.forfeit_streak {
            Some(k) => step_forfeit(table, &mut lane, &mut counts, k, max_turns),
            None => step(table, &mut lane, &mut counts, max_turns),
        };
        turns.last_mut().expect("a turn").push(face);
        if done.is_some() {
            return turns;
        }
        if turns_so_far(table, &lane) > turns_before {
            turns.push(Vec::new());
        }
    }
}

fn turns_so_far(table: &Table, lane: &Lane) -> u64 {
    match table.forfeit_streak {
        Some(_) => lane.agains,
        None => lane.rolls - lane.agains,
    }
}
