//! The plain boards' fast loop: one fair die, no random cell, no forfeit. Several games per core
//! advance in lockstep, each roll one multiply for the face and one table addition.
//!
//! # One word per game
//!
//! A lane (a game in progress) is one u64: the token's row in the low bits, then the roll's
//! tallies summed since the last stop (snakes, ladders, squares climbed, slid, turns ended), then
//! at the top a count of rolls. The cell `row + face` of `FastPlay::cells` holds what a roll
//! adds to that word: its tallies, one roll, and the new row minus the old one (wrapping), so
//! that after the addition the low bits hold the new row exactly (the word is the sum of the
//! upper fields plus the row, and the row stays below `2^row_bits`). A roll is then
//!
//! ```text
//! face, batch = batch * n split at bit 64     (the next face of the batch, Dice::face)
//! lane += cells[(lane & row_mask) + face]
//! ```
//!
//! The count of rolls starts at `2^(s+1) - left` in a field of s + 2 bits ending at bit 63, so
//! the word turns negative after exactly `left` rolls; a finishing roll also adds `2^s = F`
//! (the field's headroom) and turns it negative at once. Checking the sign is the only test in
//! the loop: the lane then stops (`stop`) to move its tallies into wide counters, end its game
//! if it finished or hit the turn cap, and count down again. Each field has room for F rolls'
//! worth (`left <= F`), so nothing overflows. `left` is also at most the turns left before the
//! cap: a roll ends at most one turn, so the cap is reached only at a stop.
//!
//! # Lockstep and the random bits
//!
//! Every lane rolls once per round, so all lanes use their batches of k faces ([`FaceBatch`],
//! 21 on a d6) together: each takes a fresh accepted word, then k rounds are played. The stops
//! of a round are handled in lane order, which fixes which lane takes the chunk's next game.
//! The games are the same as the spelled-out loop's ([`super::engine`]), which draws the same
//! faces in the same order per lane; a test holds them to it.

use super::engine::{Lane, Run};
use super::stream::{split, FaceBatch};
use super::table::{RollTally, ROW_BITS, TURN_END_SHIFT};

/// Games played in lockstep on one core.
pub const LANES: usize = 4;

/// Fields of a lane's word above the row: snakes, ladders, climbed, slid, turns ended.
const FIELDS: usize = 5;

/// At most 2^20 rolls between stops.
const MAX_SPARE: u32 = 20;

/// Where each field of a lane's word lies (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Layout {
    row_mask: u64,
    shift: [u32; FIELDS],
    mask: [u64; FIELDS],
    /// The count of rolls: bits `count_shift..64`, `spare + 2` of them.
    count_shift: u32,
    spare: u32,
    /// F = 2^spare: the most rolls between two stops.
    pub(super) flush_every: u64,
}

impl Layout {
    /// The layout for rows up to `max_row` and per-roll tallies up to `max`, the spare bits
    /// shared out equally as headroom (each field and the count get s bits: F = 2^s rolls);
    /// `None` when even F = 1 does not fit in 64 bits.
    pub(super) fn new(max_row: u64, max: [u64; FIELDS]) -> Option<Layout> {
        let used = bits(max_row) + max.iter().map(|&m| bits(m)).sum::<u32>() + 2;
        let spare = 64u32.checked_sub(used)? / (FIELDS as u32 + 1);
        Some(Layout::with_spare(max_row, max, spare.min(MAX_SPARE)))
    }

    /// The layout with `spare` bits of headroom (tests use small ones to force stops).
    pub(super) fn with_spare(max_row: u64, max: [u64; FIELDS], spare: u32) -> Layout {
        let row_bits = bits(max_row);
        let mut shift = [0; FIELDS];
        let mut mask = [0; FIELDS];
        let mut at = row_bits;
        for i in 0..FIELDS {
            let width = bits(max[i]) + spare;
            shift[i] = at;
            mask[i] = (1u64 << width) - 1;
            at += width;
        }
        let count_shift = 64 - (spare + 2);
        assert!(at <= count_shift, "the fields fit below the count");
        Layout {
            row_mask: (1u64 << row_bits) - 1,
            shift,
            mask,
            count_shift,
            spare,
            flush_every: 1 << spare,
        }
    }

    /// The word of a lane on `row` that turns negative after `left` rolls (1..=F).
    pub(super) fn start(&self, row: u32, left: u64) -> u64 {
        ((2u64 << self.spare) - left) << self.count_shift | u64::from(row)
    }

    /// What a roll from the row `from` to the row `to` adds to the word.
    fn cell(&self, from: u32, to: u32, t: &RollTally, turn_ends: bool, finishes: bool) -> u64 {
        let count = 1 + if finishes { self.flush_every } else { 0 };
        let fields = [t.snakes, t.ladders, t.climbed, t.slid, u64::from(turn_ends)];
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

    /// What a word started with `left` counted: the tallies, the turns ended and the rolls
    /// (`finished`: its last roll reached the finish, which added F to the count).
    pub(super) fn counted(&self, word: u64, left: u64, finished: bool) -> (RollTally, u64, u64) {
        let field = |i: usize| (word >> self.shift[i]) & self.mask[i];
        let count = word >> self.count_shift;
        let extra = if finished { self.flush_every } else { 0 };
        let rolls = count - ((2u64 << self.spare) - left) - extra;
        let tally = RollTally {
            snakes: field(0),
            ladders: field(1),
            climbed: field(2),
            slid: field(3),
        };
        (tally, field(4), rolls)
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
    /// `cells[row + face]`: what the roll adds to a lane's word.
    pub(super) cells: Vec<u64>,
    /// The die's batches of faces.
    pub(super) batch: FaceBatch,
    finish_row: u32,
}

impl FastPlay {
    /// From the table's `entries` (next row, turn end) and `tallies`; `None` when a lane's
    /// word cannot hold the rows and tallies (the general loop then plays the board).
    pub(super) fn new(
        entries: &[u64],
        tallies: &[RollTally],
        width: u32,
        finish_row: u32,
    ) -> Option<FastPlay> {
        let mut max = [1u64; FIELDS];
        max[..4].fill(0);
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
                layout.cell(from, to, t, ends, to == finish_row && from != finish_row)
            })
            .collect();
        // Every index `row + face` is at most the row mask (see `last_index`): the table is
        // padded to the mask's size, so the lockstep loop's `(word + face) & mask` needs no
        // bounds check.
        debug_assert!(cells.len() as u64 <= layout.row_mask + 1);
        cells.resize(layout.row_mask as usize + 1, 0);
        FastPlay {
            layout,
            cells,
            batch: FaceBatch::new(u64::from(width)),
            finish_row,
        }
    }

    /// The same play with `spare` bits of headroom (tests: stops every 2^spare rolls).
    #[cfg(test)]
    pub(super) fn with_spare(&self, table: &super::table::Table, spare: u32) -> FastPlay {
        let l = &self.layout;
        let max = std::array::from_fn(|i| l.mask[i] >> l.spare);
        let width = self.batch.n as u32;
        let layout = Layout::with_spare(last_index(self.finish_row, width), max, spare);
        let (entries, tallies) = table.cells_for_tests();
        FastPlay::with_layout(layout, entries, tallies, width, self.finish_row)
    }
}

/// Plays the chunk's games on the fast loop, `lanes` holding the first ones: in lockstep while
/// there are [`LANES`] of them and games left to start, then each lane alone to its game's end.
pub(super) fn play(run: &mut Run, fast: &FastPlay, lanes: &mut [Lane]) {
    let start = run.table.start_row;
    let mut words: Vec<u64> = lanes
        .iter_mut()
        .map(|lane| {
            lane.left = left(run, fast, lane.turns);
            fast.layout.start(start, lane.left)
        })
        .collect();
    let mut idle = vec![false; lanes.len()];
    if let Ok(all) = <&mut [u64; LANES]>::try_from(&mut words[..]) {
        lockstep(run, fast, lanes, all, &mut idle);
    }
    let cells = &fast.cells[..];
    let row_mask = fast.layout.row_mask;
    for ((lane, word), idle) in lanes.iter_mut().zip(&mut words).zip(idle) {
        if idle {
            continue;
        }
        loop {
            if (*word as i64) < 0 {
                match stop(run, fast, lane, *word) {
                    Some(next) => *word = next,
                    None => break,
                }
                continue;
            }
            let face = lane.dice.face(&fast.batch) as usize;
            *word = word.wrapping_add(cells[(*word & row_mask) as usize + face]);
        }
    }
}

/// The lockstep rounds, until a lane finds no game left to start (marked idle; the other lanes
/// are left with their batches in their dice, possibly with a stop pending).
fn lockstep(
    run: &mut Run,
    fast: &FastPlay,
    lanes: &mut [Lane],
    out: &mut [u64; LANES],
    idle: &mut [bool],
) {
    let batch = &fast.batch;
    let k = batch.k;
    let mut lane_words = *out;
    let mut faces = [0u64; LANES];
    'all: loop {
        for (f, lane) in faces.iter_mut().zip(lanes.iter_mut()) {
            *f = lane.dice.batch_word(batch);
        }
        let mut faces_left = k;
        while faces_left > 0 {
            faces_left = rounds(
                &fast.cells,
                batch.n,
                &mut lane_words,
                &mut faces,
                faces_left,
            );
            // The lanes to stop, in lane order, found without a branch per lane (which lane
            // stops is random, so such branches are mispredicted).
            let mut negative = lane_words
                .iter()
                .enumerate()
                .fold(0u32, |m, (l, &w)| m | (((w >> 63) as u32) << l));
            while negative != 0 {
                let l = negative.trailing_zeros() as usize;
                negative &= negative - 1;
                lanes[l].dice.set_batch_state(faces[l], faces_left);
                if let Some(next) = stop(run, fast, &mut lanes[l], lane_words[l]) {
                    lane_words[l] = next;
                } else {
                    idle[l] = true;
                    for (lane, &f) in lanes.iter_mut().zip(&faces) {
                        lane.dice.set_batch_state(f, faces_left);
                    }
                    break 'all;
                }
            }
        }
    }
    *out = lane_words;
}

/// Plays rounds (each lane one roll) until a lane's word turns negative or the batches'
/// `faces_left` faces are used up; returns the faces left. The loop holds the words and batches
/// in locals and calls nothing, so that they stay in registers.
#[inline(never)]
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

/// Rolls the lane may play before its next stop: at most F, and not past the turn cap.
fn left(run: &Run, fast: &FastPlay, turns: u64) -> u64 {
    let to_cap = run.max_turns.saturating_sub(turns);
    fast.layout.flush_every.min(to_cap).max(1)
}

/// The lane's word turned negative: move its tallies into the chunk's, end its game if it
/// finished or hit the cap (starting the next), and count down again: the lane's new word, or
/// `None` when the game ended and the chunk has none left to start. (The word goes in and out by
/// value so that the lockstep loop can keep its lanes' words in registers.)
#[inline(never)]
fn stop(run: &mut Run, fast: &FastPlay, lane: &mut Lane, word: u64) -> Option<u64> {
    let layout = &fast.layout;
    let row = layout.row(word);
    let finished = row == fast.finish_row;
    let (tally, turns, rolls) = layout.counted(word, lane.left, finished);
    lane.rolls += rolls;
    lane.turns += turns;
    run.tally.totals.add(&tally);
    let done = if finished {
        Some(Some(lane.turns))
    } else if lane.turns >= run.max_turns {
        Some(None)
    } else {
        None
    };
    let row = if done.is_some() {
        if !run.end_game(lane, done) {
            return None;
        }
        run.table.start_row
    } else {
        row
    };
    lane.left = left(run, fast, lane.turns);
    Some(layout.start(row, lane.left))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_counts_rolls_tallies_and_rows_and_turns_negative_on_time() {
        // Rows up to 606 (10 bits), tallies up to 2, 1, 70, 60, 1: 10 + 2 + 1 + 7 + 6 + 1 + 2 =
        // 29 bits used, 35 spare, 5 each: F = 32, the count in bits 57..64.
        let l = Layout::new(606, [2, 1, 70, 60, 1]).unwrap();
        assert_eq!((l.spare, l.flush_every, l.count_shift), (5, 32, 57));
        let t = RollTally {
            snakes: 2,
            ladders: 1,
            climbed: 70,
            slid: 60,
        };
        // 32 rolls from row 600 down to row 6 and back up, each with the largest tallies:
        // negative only after the 32nd.
        let mut w = l.start(600, 32);
        for r in 0..32u64 {
            assert!((w as i64) >= 0, "roll {r}");
            let (from, to) = if r % 2 == 0 { (600, 6) } else { (6, 600) };
            assert_eq!(l.row(w), from);
            w = w.wrapping_add(l.cell(from, to, &t, true, false));
        }
        assert!((w as i64) < 0);
        assert_eq!(l.row(w), 600);
        let all = RollTally {
            snakes: 64,
            ladders: 32,
            climbed: 70 * 32,
            slid: 60 * 32,
        };
        assert_eq!(l.counted(w, 32, false), (all, 32, 32));
        // A finishing roll turns the word negative at once, whatever the count: after 0 and
        // after 30 of 32 rolls; 3 rolls of a countdown of 5.
        for (before, left) in [(0u64, 32u64), (30, 32), (2, 5)] {
            let mut w = l.start(6, left);
            for _ in 0..before {
                w = w.wrapping_add(l.cell(6, 6, &RollTally::default(), false, false));
            }
            w = w.wrapping_add(l.cell(6, 606, &t, true, true));
            assert!((w as i64) < 0, "{before}");
            assert_eq!(l.row(w), 606);
            let (_, turns, rolls) = l.counted(w, left, true);
            assert_eq!((turns, rolls), (1, before + 1));
        }
        // Too wide: 46 + 4 x 5 + 1 + 2 bits do not fit; 40 + 4 x 5 + 1 + 2 = 63 do, with F = 1.
        assert!(Layout::new(1 << 45, [31, 31, 31, 31, 1]).is_none());
        assert_eq!(
            Layout::new(1 << 39, [31, 31, 31, 31, 1])
                .unwrap()
                .flush_every,
            1
        );
    }
}
