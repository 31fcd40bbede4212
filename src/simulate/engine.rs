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
/// Bit 32 of an entry: the roll ends the turn.
const TURN_END_SHIFT: u32 = 32;
/// Bits 33..: the roll's cost on the lane's countdown: 1, or [`FINISH_COST`] when it finishes.
const COST_SHIFT: u32 = 33;
/// The countdown cost of a finishing roll: far below any countdown, so the lane stops at once.
const FINISH_COST: i64 = 1 << 29;

/// What one roll did besides moving: snakes and ladders taken, squares climbed and slid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RollTally {
    /// Snakes taken.
    pub snakes: u64,
    /// Ladders taken.
    pub ladders: u64,
    /// Squares climbed by ladders.
    pub climbed: u64,
    /// Squares slid down by snakes.
    pub slid: u64,
}

impl RollTally {
    fn add(&mut self, other: &RollTally) {
        self.snakes += other.snakes;
        self.ladders += other.ladders;
        self.climbed += other.climbed;
        self.slid += other.slid;
    }
}

/// How the four tallies of a roll share one u64 so that a roll adds them with one addition:
/// field i starts at bit `shift[i]` and has room for the sum of `flush_every` rolls.
#[derive(Clone, Copy, Debug)]
struct Packing {
    shift: [u32; 4],
    /// Rolls after which the packed sum must be moved into wide counters (a power of two).
    flush_every: i64,
}

impl Packing {
    /// Fields just wide enough for the largest value of each tally in one roll, and the spare
    /// bits shared out as headroom; `None` when the fields do not fit in 64 bits at all.
    fn new(max: [u64; 4]) -> Option<Packing> {
        let bits: Vec<u32> = max.iter().map(|&m| 64 - m.leading_zeros()).collect();
        let used: u32 = bits.iter().sum();
        let spare = 64u32.checked_sub(used)? / 4;
        let spare = spare.min(20);
        let mut shift = [0u32; 4];
        let mut at = 0;
        for i in 0..4 {
            shift[i] = at;
            at += bits[i] + spare;
        }
        Some(Packing {
            shift,
            flush_every: 1 << spare,
        })
    }

    fn pack(&self, t: &RollTally) -> u64 {
        t.snakes << self.shift[0]
            | t.ladders << self.shift[1]
            | t.climbed << self.shift[2]
            | t.slid << self.shift[3]
    }

    fn unpack(&self, v: u64) -> RollTally {
        let field = |i: usize| {
            let end = if i == 3 { 64 } else { self.shift[i + 1] };
            let width = end - self.shift[i];
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            (v >> self.shift[i]) & mask
        };
        RollTally {
            snakes: field(0),
            ladders: field(1),
            climbed: field(2),
            slid: field(3),
        }
    }
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
    /// `entries[square * die + face - 1]`: next row | turn ends << 32 | countdown cost << 33.
    entries: Vec<u64>,
    /// The same index: the roll's tallies, packed.
    packed: Vec<u64>,
    /// The same index: the roll's tallies.
    tallies: Vec<RollTally>,
    packing: Option<Packing>,
}

impl Table {
    /// Builds the table from [`rules::turn_step`] (and so [`rules::roll`]) for every square and
    /// face.
    pub fn new(board: &Board) -> Table {
        let die = board.rules().die;
        let size = board.size();
        let cells = (size as usize + 1) * die as usize;
        let mut entries = Vec::with_capacity(cells);
        let mut tallies = Vec::with_capacity(cells);
        for square in 0..=size {
            for face in 1..=die {
                if square == size {
                    entries.push(u64::from(size * die));
                    tallies.push(RollTally::default());
                    continue;
                }
                let step = rules::turn_step(board, square, square, 0, face);
                let out = step.outcome;
                let cost = if out.to == size { FINISH_COST } else { 1 } as u64;
                entries.push(
                    u64::from(out.to * die)
                        | u64::from(!step.again) << TURN_END_SHIFT
                        | cost << COST_SHIFT,
                );
                tallies.push(RollTally {
                    snakes: out.snakes.into(),
                    ladders: out.ladders.into(),
                    climbed: out.climbed.into(),
                    slid: out.slid.into(),
                });
            }
        }
        let mut max = [0u64; 4];
        for t in &tallies {
            for (m, v) in max.iter_mut().zip([t.snakes, t.ladders, t.climbed, t.slid]) {
                *m = (*m).max(v);
            }
        }
        let packing = Packing::new(max);
        let packed = match &packing {
            Some(p) => tallies.iter().map(|t| p.pack(t)).collect(),
            None => Vec::new(),
        };
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
            packed,
            tallies,
            packing,
        }
    }

    /// The number of faces.
    pub fn die(&self) -> u32 {
        self.die
    }

    /// After how many top faces in a row already rolled in a turn the next top face forfeits
    /// the turn (`None` when nothing forfeits), as [`rules::turn_step`] decides it.
    pub fn forfeit_streak(&self) -> Option<u32> {
        self.forfeit_streak
    }

    /// The square a token starts a game on.
    pub fn start(&self) -> Square {
        self.start_row / self.die
    }

    /// What a roll of face index `face` (0-based) from `square` does: the square reached, whether
    /// the turn ends, and the roll's tallies (a roll-again forfeit is not in the table).
    pub fn lookup(&self, square: Square, face: u32) -> (Square, bool, RollTally) {
        let i = (square * self.die + face) as usize;
        let e = self.entries[i];
        (
            (e & ROW_BITS) as u32 / self.die,
            (e >> TURN_END_SHIFT) & 1 == 1,
            self.tallies[i],
        )
    }

    /// The squares that can be reached from the start (by the table: no chain involved) from which
    /// the finish cannot be reached; empty when every game ends with probability 1.
    pub fn trapping_squares(&self) -> Vec<Square> {
        let n = self.size as usize + 1;
        let d = self.die as usize;
        let next = |s: usize, f: usize| (self.entries[s * d + f] & ROW_BITS) as usize / d;
        let mut reach = vec![false; n];
        let mut stack = vec![self.start() as usize];
        reach[self.start() as usize] = true;
        while let Some(s) = stack.pop() {
            for f in 0..d {
                let t = next(s, f);
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
                preds[next(s, f)].push(s);
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
}

impl Dice {
    /// The dice of random stream `stream` of `seed`.
    pub fn new(seed: u64, stream: u64) -> Dice {
        let key = splitmix64(splitmix64(seed) ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Dice {
            rng: Xoshiro256PlusPlus::seed_from_u64(key),
            bits: 0,
            left: 0,
        }
    }

    /// The next face of a `die`-faced die, from 0 to `die - 1` (the face value minus one);
    /// `reject_below` must be `2^16 mod die` (see [`reject_below`]).
    #[inline(always)]
    pub fn next_index(&mut self, die: u32, reject_below: u32) -> u32 {
        if self.left == 0 {
            self.refill();
        }
        self.take(die, reject_below)
    }

    /// Loads the next four 16-bit pieces.
    #[inline(always)]
    fn refill(&mut self) {
        self.bits = self.rng.next_u64();
        self.left = 4;
    }

    /// A face from the next piece (there must be one left). Lemire: `piece * die = face * 2^16 +
    /// low`; the `2^16 mod die` lowest `low`s are rejected so that each face has exactly
    /// `floor(2^16 / die)` pieces, and a rejected piece is replaced from fresh random numbers
    /// (outside the four-piece schedule, so the schedule stays the same for every lane).
    #[inline(always)]
    fn take(&mut self, die: u32, reject_below: u32) -> u32 {
        let piece = (self.bits & 0xFFFF) as u32;
        self.bits >>= 16;
        self.left -= 1;
        match face_of_piece(piece, die, reject_below) {
            Some(face) => face,
            None => self.redraw(die, reject_below),
        }
    }

    #[inline(never)]
    fn redraw(&mut self, die: u32, reject_below: u32) -> u32 {
        loop {
            let x = self.rng.next_u64();
            for k in 0..4 {
                if let Some(face) =
                    face_of_piece(((x >> (16 * k)) & 0xFFFF) as u32, die, reject_below)
                {
                    return face;
                }
            }
        }
    }
}

/// The face (0-based) a 16-bit piece stands for, or `None` for a rejected piece (Lemire's
/// multiply-shift with rejection).
#[inline(always)]
fn face_of_piece(piece: u32, die: u32, reject_below: u32) -> Option<u32> {
    let m = piece * die;
    ((m & 0xFFFF) >= reject_below).then_some(m >> 16)
}

/// `2^16 mod die`: the 16-bit pieces that [`Dice::next_index`] rejects so every face has exactly
/// `floor(2^16 / die)` pieces.
pub fn reject_below(die: u32) -> u32 {
    (1u32 << 16) % die
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
    /// For forfeits: the row the turn began on and the top faces rolled in a row in this turn.
    turn_start_row: u32,
    streak: u32,
    game: u64,
}

impl Lane {
    fn new(table: &Table, dice: Dice, game: u64) -> Lane {
        Lane {
            at_start: dice.clone(),
            dice,
            row: table.start_row,
            countdown: 0,
            countdown_from: 0,
            rolls: 0,
            turns: 0,
            packed: 0,
            turn_start_row: table.start_row,
            streak: 0,
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
    match (&table.packing, table.forfeit_streak) {
        (Some(packing), None) => {
            for lane in &mut lanes {
                run.set_countdown(lane, packing);
            }
            let die = table.die;
            let reject = reject_below(die);
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
                            let i = (lane.row + face) as usize;
                            let e = entries[i];
                            lane.packed = lane.packed.wrapping_add(packed[i]);
                            lane.row = (e & ROW_BITS) as u32;
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
                    let i = (lane.row + face) as usize;
                    let e = entries[i];
                    lane.packed = lane.packed.wrapping_add(packed[i]);
                    lane.row = (e & ROW_BITS) as u32;
                    lane.turns += (e >> TURN_END_SHIFT) & 1;
                    lane.countdown -= (e >> COST_SHIFT) as i64;
                    if lane.countdown <= 0 && !run.stop(lane, packing, finish_row) {
                        break;
                    }
                }
            }
        }
        _ => {
            // Forfeits (or tallies too wide to pack): one roll at a time, every rule spelled out.
            // Round-robin over the lanes like the fast loop, so games go to the same streams.
            let mut active: Vec<usize> = (0..lanes.len()).collect();
            while !active.is_empty() {
                active.retain(|&l| {
                    let lane = &mut lanes[l];
                    let done = general_step(table, lane, &mut run.tally.totals, max_turns);
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
        let finished = lane.row == finish_row;
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

/// One roll with every rule spelled out (forfeits included), adding its tallies to `totals`.
/// Returns `Some(Some(turns))` when the game finished, `Some(None)` when it hit the turn cap,
/// `None` when it goes on.
fn general_step(
    table: &Table,
    lane: &mut Lane,
    totals: &mut RollTally,
    max_turns: u64,
) -> Option<Option<u64>> {
    let face = lane.dice.next_index(table.die, reject_below(table.die));
    lane.rolls += 1;
    let forfeit = table
        .forfeit_streak
        .is_some_and(|k| face == table.die - 1 && lane.streak >= k);
    if forfeit {
        // The roll is not moved; back to where the turn began, and the turn ends.
        lane.row = lane.turn_start_row;
        lane.streak = 0;
        lane.turns += 1;
    } else {
        let i = (lane.row + face) as usize;
        let e = table.entries[i];
        totals.add(&table.tallies[i]);
        lane.row = (e & ROW_BITS) as u32;
        if (e >> TURN_END_SHIFT) & 1 == 1 {
            lane.streak = 0;
            lane.turns += 1;
            lane.turn_start_row = lane.row;
        } else {
            lane.streak += 1;
        }
    }
    if lane.row == table.finish_row {
        Some(Some(lane.turns))
    } else if lane.turns >= max_turns {
        Some(None)
    } else {
        None
    }
}

/// Replays a recorded game and returns its faces (1-based), turn by turn. The replay plays the
/// spelled-out rules (the loop used for forfeits), so it also checks the fast loop that recorded the game.
pub fn replay(table: &Table, record: &GameRecord, max_turns: u64) -> Vec<Vec<u32>> {
    let mut lane = Lane::new(table, record.dice.clone(), 0);
    let mut totals = RollTally::default();
    let mut turns: Vec<Vec<u32>> = vec![Vec::new()];
    loop {
        let mut probe = lane.dice.clone();
        let face = probe.next_index(table.die, reject_below(table.die)) + 1;
        let before = lane.turns;
        let done = general_step(table, &mut lane, &mut totals, max_turns);
        turns.last_mut().expect("a turn").push(face);
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
            let b = builtin(name).unwrap().unwrap();
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

    #[test]
    fn every_face_has_exactly_the_same_number_of_accepted_pieces() {
        for die in 2..=crate::board::MAX_DIE {
            let mut counts = vec![0u32; die as usize];
            for piece in 0..1u32 << 16 {
                if let Some(f) = face_of_piece(piece, die, reject_below(die)) {
                    counts[f as usize] += 1;
                }
            }
            assert!(counts.iter().all(|&c| c == (1 << 16) / die), "die {die}");
        }
    }

    #[test]
    fn packing_round_trips_the_largest_tallies() {
        let p = Packing::new([3, 1, 4000, 70]).unwrap();
        let t = RollTally {
            snakes: 3,
            ladders: 1,
            climbed: 4000,
            slid: 70,
        };
        let mut sum = 0u64;
        for _ in 0..p.flush_every {
            sum = sum.wrapping_add(p.pack(&t));
        }
        let n = p.flush_every as u64;
        assert_eq!(
            p.unpack(sum),
            RollTally {
                snakes: 3 * n,
                ladders: n,
                climbed: 4000 * n,
                slid: 70 * n
            }
        );
        assert!(Packing::new([u64::MAX, 1, 1, 1]).is_none());
    }

    #[test]
    fn the_table_is_what_the_rules_module_says() {
        let b = builtin("efi").unwrap().unwrap();
        let t = Table::new(&b);
        for square in 0..b.size() {
            for face in 1..=6 {
                let step = rules::turn_step(&b, square, square, 0, face);
                let (to, ends, tally) = t.lookup(square, face - 1);
                assert_eq!(to, step.outcome.to);
                assert_eq!(ends, !step.again);
                assert_eq!(tally.climbed, u64::from(step.outcome.climbed));
            }
        }
    }
}
