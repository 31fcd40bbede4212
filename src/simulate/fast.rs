//! The plain boards' fast loop: one fair die, no random cell, no forfeit. Several games per core
//! advance in lockstep, each roll one multiply for the face and one table addition.
//!
//! # One word per game
//!
//! A lane (a game in progress) is one u64: the token's row in the low bits, then the rolls'
//! tallies summed since the last flush (snakes, ladders, squares climbed, slid), then at the top
//! a count of the turns ended. The cell `row + face` of `FastPlay::cells` holds what a roll adds
//! to that word: its tallies, its turn end, and the new row minus the old one (wrapping), so
//! that after the addition the low bits hold the new row exactly (the word is the sum of the
//! upper fields plus the row, and the row stays below `2^row_bits`). A roll is then
//!
//! ```text
//! face, batch = batch * n split at bit 64     (the next face of the batch, Dice::face)
//! lane += cells[(lane & row_mask) + face]
//! ```
//!
//! The count of turns is a field of w bits ending at bit 63 that starts at `2^(w-1) - c`, c the
//! turns the lane may end before it must stop (at most `Q = 2^(w-2)`, and not past the turn
//! cap), so the word turns negative when the c-th turn ends; a finishing roll also adds Q and
//! turns it negative at once. Checking the sign is the only test in the loop: the lane then
//! stops (`stop`) to end its game if it finished or hit the turn cap (its tallies stay in the
//! word, the row and the count start again) and take the chunk's next game.
//!
//! # Flushes on a schedule
//!
//! Every lane rolls once per round, so a game's rolls are the rounds between its start and its
//! stop, and every `R = 2^s` rounds all lanes flush together: their tallies and turns move into
//! wide counters and their counts start again. A tally field holds R rolls' worth (its largest
//! value per roll times R) and the count field counts at most Q >= R turns, so nothing
//! overflows. (A count of Q turns before a flush, every roll ending a turn, stops the lane
//! without ending its game.)
//!
//! # Lockstep and the random bits
//!
//! All lanes use their batches of k faces ([`FaceBatch`], 21 on a d6) together: each takes a
//! fresh accepted word, then k rounds are played. The stops of a round are handled in lane
//! order, which fixes which lane takes the chunk's next game. A lane with no game left to take
//! parks on the finish row, whose cells add nothing, until the last lane has finished. The
//! games are the same as the engine's game loop plays on the lanes ([`super::engine`]), which draws the same faces
//! in the same order per lane; a test holds them to it.

use super::engine::{Lane, Run};
use super::stream::{split, FaceBatch};
use super::table::{RollTally, ROW_BITS, TURN_END_SHIFT};

/// Games played in lockstep on one core.
pub const LANES: usize = 4;

/// Tally fields of a lane's word, between the row and the count of turns: snakes, ladders,
/// climbed, slid.
const TALLIES: usize = 4;

/// At most 2^20 rounds between flushes.
const MAX_SPARE: u32 = 20;

/// Where each field of a lane's word lies (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Layout {
    row_mask: u64,
    shift: [u32; TALLIES],
    mask: [u64; TALLIES],
    /// The tally fields in place.
    tallies_mask: u64,
    /// The count of turns: bits `count_shift..64`.
    count_shift: u32,
    /// Q = 2^(w-2) for a count of w bits: what a finishing roll adds, and the most turns a count
    /// may run to.
    quarter: u64,
    /// R = 2^s: the rounds between two flushes.
    pub(super) flush_every: u64,
}

impl Layout {
    /// The layout for rows up to `max_row` and per-roll tallies up to `max`, the spare bits
    /// shared out equally as headroom (each tally field gets s bits: R = 2^s rounds; the count
    /// of turns gets the rest, at least s + 2 bits); `None` when even R = 1 does not fit in 64
    /// bits.
    pub(super) fn new(max_row: u64, max: [u64; TALLIES]) -> Option<Layout> {
        let used = bits(max_row) + max.iter().map(|&m| bits(m)).sum::<u32>() + 2;
        let spare = (64u32.checked_sub(used)? / (TALLIES as u32 + 1)).min(MAX_SPARE);
        let below = bits(max_row) + max.iter().map(|&m| bits(m) + spare).sum::<u32>();
        Some(Layout::with_spare(max_row, max, spare, 64 - below))
    }

    /// The layout with `spare` bits of headroom and a count of `count_bits` (at least
    /// `spare + 2`; tests use small ones to force flushes and stops).
    pub(super) fn with_spare(
        max_row: u64,
        max: [u64; TALLIES],
        spare: u32,
        count_bits: u32,
    ) -> Layout {
        assert!(count_bits >= spare + 2, "the count holds Q >= R turns");
        let row_bits = bits(max_row);
        let mut shift = [0; TALLIES];
        let mut mask = [0; TALLIES];
        let mut tallies_mask = 0;
        let mut at = row_bits;
        for i in 0..TALLIES {
            let width = bits(max[i]) + spare;
            shift[i] = at;
            mask[i] = (1u64 << width) - 1;
            tallies_mask |= mask[i] << at;
            at += width;
        }
        let count_shift = 64 - count_bits;
        assert!(at <= count_shift, "the fields fit below the count");
        Layout {
            row_mask: (1u64 << row_bits) - 1,
            shift,
            mask,
            tallies_mask,
            count_shift,
            quarter: 1 << (count_bits - 2),
            flush_every: 1 << spare,
        }
    }

    /// The count that turns negative when the `c`-th turn ends (c <= Q).
    fn count_start(&self, c: u64) -> u64 {
        2 * self.quarter - c
    }

    /// The word of a lane on `row`, with the tallies of `word`, that turns negative when the
    /// `c`-th turn ends.
    pub(super) fn restart(&self, word: u64, row: u32, c: u64) -> u64 {
        self.count_start(c) << self.count_shift | (word & self.tallies_mask) | u64::from(row)
    }

    /// What a roll from the row `from` to the row `to` adds to the word.
    fn cell(&self, from: u32, to: u32, t: &RollTally, turn_ends: bool, finishes: bool) -> u64 {
        let count = u64::from(turn_ends) + if finishes { self.quarter } else { 0 };
        let fields = [t.snakes, t.ladders, t.climbed, t.slid];
        let mut cell = count << self.count_shift;
        for (i, v) in fields.into_iter().enumerate() {
            cell += v << self.shift[i];
        }
        cell.wrapping_add(u64::from(to))
            .wrapping_sub(u64::from(from))
    }

    /// The row of a word.
    pub(super) fn row(&self, word: u64) -> u32 {
        (word & self.row_mask) as u32
    }

    /// The tallies a word holds.
    pub(super) fn tallies(&self, word: u64) -> RollTally {
        let field = |i: usize| (word >> self.shift[i]) & self.mask[i];
        RollTally {
            snakes: field(0),
            ladders: field(1),
            climbed: field(2),
            slid: field(3),
        }
    }

    /// The turns a word whose count started at `c` has ended (`finished`: its last roll reached
    /// the finish, which added Q to the count).
    pub(super) fn turns(&self, word: u64, c: u64, finished: bool) -> u64 {
        let extra = if finished { self.quarter } else { 0 };
        (word >> self.count_shift) - self.count_start(c) - extra
    }
}

/// The largest index `row + face` into the table: the finish row's last cell (rows are
/// squares times the die's width). The row field is made wide enough to hold it, so that
/// `(word & mask) + face` never carries out of the field: it equals `(word + face) & mask`.
fn last_index(finish_row: u32, width: u32) -> u64 {
    u64::from(finish_row) + u64::from(width) - 1
}

/// Bits needed to write v.
fn bits(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// The fast loop's table and dice for a plain board.
#[derive(Clone, Debug)]
pub struct FastPlay {
    pub(super) layout: Layout,
    /// `cells[row + face]`: what the roll adds to a lane's word (nothing from the finish row,
    /// where lanes with no game park).
    pub(super) cells: Vec<u64>,
    /// The die's batches of faces.
    pub(super) batch: FaceBatch,
    finish_row: u32,
}

impl FastPlay {
    /// From the table's `entries` (next row, turn end) and `tallies` (the rows below the
    /// finish); `None` when a lane's word cannot hold the rows and tallies (the engine's game loop
    /// then plays the board).
    pub(super) fn new(
        entries: &[u64],
        tallies: &[RollTally],
        width: u32,
        finish_row: u32,
    ) -> Option<FastPlay> {
        let mut max = [0u64; TALLIES];
        for t in tallies {
            for (m, v) in max.iter_mut().zip([t.snakes, t.ladders, t.climbed, t.slid]) {
                *m = (*m).max(v);
            }
        }
        let layout = Layout::new(last_index(finish_row, width), max)?;
        Some(FastPlay::with_layout(
            layout, entries, tallies, width, finish_row,
        ))
    }

    fn with_layout(
        layout: Layout,
        entries: &[u64],
        tallies: &[RollTally],
        width: u32,
        finish_row: u32,
    ) -> FastPlay {
        let mut cells: Vec<u64> = entries
            .iter()
            .zip(tallies)
            .enumerate()
            .map(|(i, (&e, t))| {
                let from = i as u32 / width * width;
                let to = (e & ROW_BITS) as u32;
                let ends = (e >> TURN_END_SHIFT) & 1 == 1;
                if from == finish_row {
                    0
                } else {
                    layout.cell(from, to, t, ends, to == finish_row)
                }
            })
            .collect();
        // Every index `row + face` is at most the row mask (see `last_index`): the table is
        // padded with zeros to the mask's size, so the lockstep loop's `(word + face) & mask` needs no bounds check.
        debug_assert!(cells.len() as u64 <= layout.row_mask + 1);
        cells.resize(layout.row_mask as usize + 1, 0);
        FastPlay {
            layout,
            cells,
            batch: FaceBatch::new(u64::from(width)),
            finish_row,
        }
    }

    /// The same play with `spare` bits of headroom and the smallest count (tests: flushes
    /// every 2^spare rounds, stops every 2^spare turns).
    #[cfg(test)]
    pub(super) fn with_spare(&self, table: &super::table::Table, spare: u32) -> FastPlay {
        let l = &self.layout;
        let s = l.flush_every.trailing_zeros();
        let max = std::array::from_fn(|i| l.mask[i] >> s);
        let width = self.batch.n as u32;
        let max_row = last_index(self.finish_row, width);
        let layout = Layout::with_spare(max_row, max, spare, spare + 2);
        let (entries, tallies) = table.cells_for_tests();
        FastPlay::with_layout(layout, entries, tallies, width, self.finish_row)
    }

    /// The word of a lane with no game: on the finish row, no tallies, a count that never
    /// turns negative.
    fn parked(&self) -> u64 {
        u64::from(self.finish_row)
    }
}

/// What the lockstep loop keeps per lane besides its word.
#[derive(Clone, Copy, Default)]
struct Seat {
    /// The count's c: the turns the lane may end before its next stop.
    c: u64,
    /// The round its game began in.
    began: u64,
    /// No game left to take: parked on the finish row.
    idle: bool,
}

/// Plays the chunk's games on the fast loop, `lanes` (at most [`LANES`]) holding the first
/// ones, in lockstep until every lane has found no game left to take.
pub(super) fn play(run: &mut Run, fast: &FastPlay, lanes: &mut [Lane]) {
    let layout = &fast.layout;
    let batch = &fast.batch;
    let mut words = [fast.parked(); LANES];
    let mut seats = [Seat {
        idle: true,
        ..Seat::default()
    }; LANES];
    for ((lane, word), seat) in lanes.iter_mut().zip(&mut words).zip(&mut seats) {
        *seat = Seat {
            c: count_for(run, layout, lane.turns),
            began: 0,
            idle: false,
        };
        *word = layout.restart(0, run.table.start_row, seat.c);
    }
    let mut faces = [0u64; LANES];
    let mut round = 0u64;
    let mut to_flush = layout.flush_every;
    let mut busy = lanes.len();
    while busy > 0 {
        for ((f, lane), seat) in faces.iter_mut().zip(lanes.iter_mut()).zip(&seats) {
            if !seat.idle {
                *f = lane.dice.batch_word(batch);
            }
        }
        let mut faces_left = batch.k;
        while faces_left > 0 && busy > 0 {
            let ask = faces_left.min(to_flush as u32);
            let left = rounds(&fast.cells, batch.n, &mut words, &mut faces, ask);
            let played = ask - left;
            round += u64::from(played);
            faces_left -= played;
            to_flush -= u64::from(played);
            // The lanes to stop, in lane order, found without a branch per lane (which lane
            // stops is random, so such branches are mispredicted).
            let mut negative = words
                .iter()
                .enumerate()
                .fold(0u32, |m, (l, &w)| m | (((w >> 63) as u32) << l));
            while negative != 0 {
                let l = negative.trailing_zeros() as usize;
                negative &= negative - 1;
                let (lane, seat) = (&mut lanes[l], &mut seats[l]);
                match stop(
                    run,
                    fast,
                    lane,
                    seat,
                    words[l],
                    round,
                    (faces[l], faces_left),
                ) {
                    Some(next) => words[l] = next,
                    None => {
                        run.tally.totals.add(&layout.tallies(words[l]));
                        words[l] = fast.parked();
                        seat.idle = true;
                        busy -= 1;
                    }
                }
            }
            if to_flush == 0 {
                flush(run, fast, lanes, &mut words, &mut seats);
                to_flush = layout.flush_every;
            }
        }
    }
    flush(run, fast, lanes, &mut words, &mut seats);
}

/// Plays rounds (each lane one roll) until a lane's word turns negative or `faces_left` rounds
/// are played; returns the rounds not played. The loop holds the words and batches in locals and
/// calls nothing, so that they stay in registers.
#[inline(always)]
fn rounds(
    cells: &[u64],
    n: u64,
    words: &mut [u64; LANES],
    faces: &mut [u64; LANES],
    mut faces_left: u32,
) -> u32 {
    let index_mask = cells.len() - 1;
    let (mut w, mut f) = (*words, *faces);
    while faces_left > 0 {
        faces_left -= 1;
        let mut any = 0u64;
        for (word, f) in w.iter_mut().zip(f.iter_mut()) {
            let (face, rest) = split(*f, n, 64);
            *f = rest;
            *word =
                word.wrapping_add(cells[(*word as usize).wrapping_add(face as usize) & index_mask]);
            any |= *word;
        }
        if (any as i64) < 0 {
            break;
        }
    }
    (*words, *faces) = (w, f);
    faces_left
}

/// The turns a lane that has ended `turns` of its game may end before its next stop: at most Q,
/// and not past the turn cap.
fn count_for(run: &Run, layout: &Layout, turns: u64) -> u64 {
    layout.quarter.min(run.max_turns.saturating_sub(turns))
}

/// Moves every lane's tallies and turns into the chunk's and the lanes' counters, and starts
/// their counts again.
fn flush(
    run: &mut Run,
    fast: &FastPlay,
    lanes: &mut [Lane],
    words: &mut [u64; LANES],
    seats: &mut [Seat; LANES],
) {
    let layout = &fast.layout;
    for ((lane, word), seat) in lanes.iter_mut().zip(words.iter_mut()).zip(seats.iter_mut()) {
        if seat.idle {
            continue;
        }
        run.tally.totals.add(&layout.tallies(*word));
        lane.turns += layout.turns(*word, seat.c, false);
        seat.c = count_for(run, layout, lane.turns);
        *word = layout.restart(0, layout.row(*word), seat.c);
    }
}

/// The lane's word turned negative in round `round` (counted from 1): end its game if it
/// finished or hit the cap (starting the next), and count its turns again: the lane's new word,
/// or `None` when the game ended and the chunk has none left to start. `batch` is the state of
/// the lane's batch of faces after the round. (The word goes in and out by value so that the
/// lockstep loop can keep its lanes' words in registers.)
#[inline]
fn stop(
    run: &mut Run,
    fast: &FastPlay,
    lane: &mut Lane,
    seat: &mut Seat,
    word: u64,
    round: u64,
    batch: (u64, u32),
) -> Option<u64> {
    let layout = &fast.layout;
    let row = layout.row(word);
    let finished = row == fast.finish_row;
    lane.turns += layout.turns(word, seat.c, finished);
    let done = if finished {
        Some(Some(lane.turns))
    } else if lane.turns >= run.max_turns {
        Some(None)
    } else {
        None
    };
    let row = if done.is_some() {
        lane.rolls = round - seat.began;
        lane.dice.set_batch_state(batch.0, batch.1);
        if !run.end_game(lane, done) {
            return None;
        }
        seat.began = round;
        run.table.start_row
    } else {
        row
    };
    seat.c = count_for(run, layout, lane.turns);
    Some(layout.restart(word, row, seat.c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_holds_rows_tallies_and_turns_and_turns_negative_on_time() {
        // Rows up to 606 (10 bits), tallies up to 2, 1, 70, 60: 10 + 2 + 1 + 7 + 6 + 2 = 28
        // bits used, 36 spare, 7 each: R = 128; the fields take 10 + 9 + 8 + 14 + 13 = 54 bits,
        // the count the other 10: Q = 256.
        let l = Layout::new(606, [2, 1, 70, 60]).unwrap();
        assert_eq!((l.flush_every, l.count_shift, l.quarter), (128, 54, 256));
        let t = RollTally {
            snakes: 2,
            ladders: 1,
            climbed: 70,
            slid: 60,
        };
        // R rolls from row 600 down to row 6 and back up, each with the largest tallies and a
        // turn end, on a count of c = R + 1: never negative, and every field read back.
        let mut w = l.restart(0, 600, 129);
        for r in 0..128u64 {
            assert!((w as i64) >= 0, "roll {r}");
            let (from, to) = if r % 2 == 0 { (600, 6) } else { (6, 600) };
            assert_eq!(l.row(w), from);
            w = w.wrapping_add(l.cell(from, to, &t, true, false));
        }
        assert!((w as i64) >= 0);
        assert_eq!(l.row(w), 600);
        let all = RollTally {
            snakes: 256,
            ladders: 128,
            climbed: 70 * 128,
            slid: 60 * 128,
        };
        assert_eq!((l.tallies(w), l.turns(w, 129, false)), (all, 128));
        // The c-th turn end turns the word negative, and the tallies survive a restart.
        let mut w = l.restart(w, 6, 3);
        assert_eq!(l.tallies(w), all);
        for ends in [true, false, true] {
            assert!((w as i64) >= 0);
            w = w.wrapping_add(l.cell(6, 6, &RollTally::default(), ends, false));
        }
        assert!((w as i64) >= 0);
        w = w.wrapping_add(l.cell(6, 6, &RollTally::default(), true, false));
        assert!((w as i64) < 0);
        assert_eq!(l.turns(w, 3, false), 3);
        // A finishing roll turns the word negative at once, whatever the count: after 0 and
        // after 255 of Q = 256 turns; with and without the roll ending a turn.
        for (before, c, ends) in [(0u64, 256u64, true), (255, 256, true), (2, 5, false)] {
            let mut w = l.restart(0, 6, c);
            for _ in 0..before {
                w = w.wrapping_add(l.cell(6, 6, &RollTally::default(), true, false));
            }
            w = w.wrapping_add(l.cell(6, 606, &t, ends, true));
            assert!((w as i64) < 0, "{before}");
            assert_eq!(l.row(w), 606);
            assert_eq!(l.turns(w, c, true), before + u64::from(ends));
            assert_eq!(l.tallies(w), t);
        }
        // Too wide: 46 + 4 x 5 + 2 bits do not fit; 42 + 4 x 5 + 2 = 64 do, with R = 1, Q = 1.
        assert!(Layout::new(1 << 45, [31, 31, 31, 31]).is_none());
        let tight = Layout::new(1 << 41, [31, 31, 31, 31]).unwrap();
        assert_eq!((tight.flush_every, tight.quarter), (1, 1));
    }
}
