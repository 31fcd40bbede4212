//! The simulator's table: the rules of a board cached per (square, throw), generated from
//! [`game::roll`] and [`game::turn_steps`] and nothing else, and the one roll of the
//! simulator ([`Table::play_roll`]), whose turn logic is [`game::throw_effect`].
//!
//! A throw is an index into the dice's law ([`crate::board::Dice::throws`]: every sum with a
//! positive weight); a row is `square * width` (width: the number of throws), so a cell is
//! `row + throw`. A cell whose roll is decided by the throw (no chance square, no tile drawn)
//! holds its one outcome in `entries`; a random cell points to its weighted outcomes, one of
//! which is drawn exactly by its integer weight (`Weighted`).

use super::engine::{Player, Roll};
use super::fast::FastPlay;
use super::stream::{Dice, Weighted};
use crate::board::{Board, RollAgain, Square, Throw};
use crate::game::{self, Capabilities, ThrowEffect};

/// Bits of a table entry that hold the next row.
pub(super) const ROW_BITS: u64 = 0xFFFF_FFFF;
/// Bit 32 of an entry: the roll ends the turn.
pub(super) const TURN_END_SHIFT: u32 = 32;

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
    pub(super) fn add(&mut self, other: &RollTally) {
        self.snakes += other.snakes;
        self.ladders += other.ladders;
        self.climbed += other.climbed;
        self.slid += other.slid;
    }

    pub(super) fn of(out: &game::RollOutcome) -> RollTally {
        RollTally {
            snakes: out.snakes.into(),
            ladders: out.ladders.into(),
            climbed: out.climbed.into(),
            slid: out.slid.into(),
        }
    }
}

/// The weighted outcomes of a random cell: the pick, and per outcome the row reached and the
/// roll's tallies.
#[derive(Clone, Debug)]
struct Draw {
    pick: Weighted,
    outcomes: Vec<(u32, RollTally)>,
}

/// Where a turn stands: the row it began on, the token's row, the top throws in a row so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The row of the square the turn began on.
    pub start_row: u32,
    /// The row of the square the token is on.
    pub row: u32,
    /// Top throws in a row already thrown in this turn.
    pub streak: u32,
}

impl Turn {
    /// A turn beginning on `row`.
    pub fn at(row: u32) -> Turn {
        Turn {
            start_row: row,
            row,
            streak: 0,
        }
    }
}

/// What [`Table::play_roll`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// The throw's sum.
    pub sum: u32,
    /// The roll ended the turn (a forfeit, a throw without another roll, or the finish).
    pub turn_ends: bool,
    /// The roll's tallies (zero for a forfeit).
    pub tally: RollTally,
    /// The throw forfeited the turn (the token went back to where the turn began).
    pub forfeited: bool,
}

/// The rules of a board cached as one lookup per (square, throw).
#[derive(Clone, Debug)]
pub struct Table {
    pub(super) width: u32,
    size: Square,
    pub(super) start_row: u32,
    pub(super) finish_row: u32,
    roll_again: RollAgain,
    throws: Vec<Throw>,
    pub(super) throw_pick: Weighted,
    /// `entries[row + throw]`: next row | turn ends << 32 (for a random cell: its first
    /// outcome).
    pub(super) entries: Vec<u64>,
    /// The same index: the roll's tallies (for a random cell: its first outcome's).
    tallies: Vec<RollTally>,
    /// The same index: 0 for a sure cell, else 1 + the index of its draw (empty when the board
    /// has no random cell).
    draw_of: Vec<u32>,
    draws: Vec<Draw>,
    /// Set when the interleaved fast loop may play the board (see [`Table::fast`]).
    pub(super) fast: Option<FastPlay>,
}

impl Table {
    /// Builds the table from [`game::turn_steps`] (and so [`game::roll`]) for every square
    /// and throw.
    pub fn new(board: &Board) -> Table {
        let throws = board.dice().throws().to_vec();
        let width = throws.len() as u32;
        let size = board.size();
        let cells = (size as usize + 1) * width as usize;
        let mut entries = Vec::with_capacity(cells);
        let mut tallies = Vec::with_capacity(cells);
        let mut draw_of = Vec::new();
        let mut draws = Vec::new();
        let entry =
            |to: Square, again: bool| u64::from(to * width) | u64::from(!again) << TURN_END_SHIFT;
        for square in 0..=size {
            for throw in &throws {
                if square == size {
                    entries.push(u64::from(size * width));
                    tallies.push(RollTally::default());
                    draw_of.push(0);
                    continue;
                }
                // The turn starts here with no top throw yet: the step moves (a forfeit needs a
                // streak, which `play_roll` asks `game::throw_effect` about).
                let (steps, _) = game::turn_steps(board, square, square, 0, throw.sum);
                let (_, first) = steps[0];
                entries.push(entry(first.outcome.to, first.again));
                tallies.push(RollTally::of(&first.outcome));
                if steps.len() == 1 {
                    draw_of.push(0);
                    continue;
                }
                draws.push(Draw {
                    pick: Weighted::new(steps.iter().map(|&(w, _)| w)),
                    outcomes: steps
                        .iter()
                        .map(|(_, s)| (s.outcome.to * width, RollTally::of(&s.outcome)))
                        .collect(),
                });
                draw_of.push(draws.len() as u32);
            }
        }
        if draws.is_empty() {
            draw_of = Vec::new();
        }
        let caps = Capabilities::of(board);
        let plain = caps.single_fair_die && draws.is_empty() && caps.memoryless_turns();
        let fast = if plain {
            FastPlay::new(&entries, &tallies, width, size * width)
        } else {
            None
        };
        Table {
            width,
            size,
            start_row: board.rules().start * width,
            finish_row: size * width,
            roll_again: board.rules().roll_again,
            throw_pick: Weighted::new(throws.iter().map(|t| t.weight)),
            throws,
            entries,
            tallies,
            draw_of,
            draws,
            fast,
        }
    }

    /// The table of a seat of a race: without the lockstep loop, so that [`Table::play_roll`]
    /// draws every throw by its weight (the loop's batches of faces serve one player only).
    pub fn for_seat(board: &Board) -> Table {
        Table {
            fast: None,
            ..Table::new(board)
        }
    }

    /// Set when the interleaved fast loop plays the board: one fair die (a throw is a face,
    /// drawn in batches), no random cell, no forfeit, a roll's row and tallies that pack in a
    /// word ([`FastPlay`]).
    pub(super) fn fast(&self) -> Option<&FastPlay> {
        self.fast.as_ref()
    }

    /// The throws, in the order of their indices.
    pub fn throws(&self) -> &[Throw] {
        &self.throws
    }

    /// The square a token starts a game on.
    pub fn start(&self) -> Square {
        self.start_row / self.width
    }

    /// The square of a row.
    pub fn square(&self, row: u32) -> Square {
        row / self.width
    }

    /// The row of a square.
    pub fn row(&self, square: Square) -> u32 {
        square * self.width
    }

    /// Every outcome of throw index `throw` from `square` (not the finish), with its weight
    /// out of the cell's total: the table's content, to enumerate against the rules.
    pub fn outcomes(&self, square: Square, throw: usize) -> Vec<(u64, Square, RollTally)> {
        let i = (square * self.width) as usize + throw;
        match self.draw_of.get(i) {
            Some(&d) if d > 0 => {
                let draw = &self.draws[d as usize - 1];
                draw.outcomes
                    .iter()
                    .enumerate()
                    .map(|(k, &(row, t))| (draw.pick.weight(k), row / self.width, t))
                    .collect()
            }
            _ => vec![(1, self.entry_square(i), self.tallies[i])],
        }
    }

    /// Whether the roll of throw index `throw` from `square` ends a turn that began there, as
    /// the fast loop reads it (meaningful for a cell with one outcome).
    pub fn turn_ends(&self, square: Square, throw: usize) -> bool {
        let i = (square * self.width) as usize + throw;
        (self.entries[i] >> TURN_END_SHIFT) & 1 == 1
    }

    /// The entries and tallies (to build other fast plays in tests).
    #[cfg(test)]
    pub(super) fn cells_for_tests(&self) -> (&[u64], &[RollTally]) {
        (&self.entries, &self.tallies)
    }

    fn entry_square(&self, i: usize) -> Square {
        (self.entries[i] & ROW_BITS) as u32 / self.width
    }

    /// One roll of the turn `turn`: a throw drawn by its weight (on a board the lockstep loop
    /// plays, the next face of the die's batches, [`Dice::face`], as that loop draws it), its
    /// effect on the turn from [`game::throw_effect`], then the cell's outcome (drawn by its
    /// weight in a random cell).
    #[inline(always)]
    pub fn play_roll(&self, dice: &mut Dice, turn: &mut Turn) -> Rolled {
        let i = match &self.fast {
            Some(f) => dice.face(&f.batch) as usize,
            None => self.throw_pick.pick(dice),
        };
        self.play_throw(i, dice, turn)
    }

    /// The roll of throw index `i` in the turn `turn`: its effect on the turn from
    /// [`game::throw_effect`], then the cell's outcome (drawn by its weight in a random cell).
    #[inline(always)]
    fn play_throw(&self, i: usize, dice: &mut Dice, turn: &mut Turn) -> Rolled {
        let throw = self.throws[i];
        match game::throw_effect(self.roll_again, throw.top, turn.streak) {
            ThrowEffect::Forfeit => {
                *turn = Turn::at(turn.start_row);
                Rolled {
                    sum: throw.sum,
                    turn_ends: true,
                    tally: RollTally::default(),
                    forfeited: true,
                }
            }
            ThrowEffect::Move { again } => {
                let cell = turn.row as usize + i;
                let (row, tally) = match self.draw_of.get(cell) {
                    Some(&d) if d > 0 => {
                        let draw = &self.draws[d as usize - 1];
                        draw.outcomes[draw.pick.pick(dice)]
                    }
                    _ => ((self.entries[cell] & ROW_BITS) as u32, self.tallies[cell]),
                };
                let turn_ends = !(again && row != self.finish_row);
                if turn_ends {
                    *turn = Turn::at(row);
                } else {
                    turn.row = row;
                    turn.streak += 1;
                }
                Rolled {
                    sum: throw.sum,
                    turn_ends,
                    tally,
                    forfeited: false,
                }
            }
        }
    }

    /// The rows a cell can lead to.
    fn next_rows(&self, cell: usize) -> Vec<usize> {
        match self.draw_of.get(cell) {
            Some(&d) if d > 0 => self.draws[d as usize - 1]
                .outcomes
                .iter()
                .map(|&(row, _)| row as usize)
                .collect(),
            _ => vec![(self.entries[cell] & ROW_BITS) as usize],
        }
    }

    /// The squares that can be reached from the start (by the table: no chain involved) from which
    /// the finish cannot be reached; empty when every game ends with probability 1.
    pub fn trapping_squares(&self) -> Vec<Square> {
        let n = self.size as usize + 1;
        let d = self.width as usize;
        let next = |s: usize| -> Vec<usize> {
            (0..d)
                .flat_map(|f| self.next_rows(s * d + f))
                .map(|row| row / d)
                .collect()
        };
        let mut reach = vec![false; n];
        let mut stack = vec![self.start() as usize];
        reach[self.start() as usize] = true;
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for s in 0..n - 1 {
            for t in next(s) {
                preds[t].push(s);
            }
        }
        while let Some(s) = stack.pop() {
            for t in next(s) {
                if !reach[t] {
                    reach[t] = true;
                    stack.push(t);
                }
            }
        }
        // Backwards from the finish.
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

/// A player on a board whose state is the square: its state is the token's square, a turn is
/// [`Table::play_roll`] until a roll ends it (for a seat of a race, built by
/// [`Table::for_seat`], every throw drawn by its weight).
impl Player for Table {
    type State = Square;
    type Shared = ();
    type Scratch = ();

    fn start(&self) -> Square {
        Table::start(self)
    }

    fn square(&self, square: &Square) -> Square {
        *square
    }

    fn is_final(&self, square: &Square) -> bool {
        *square == self.size
    }

    #[inline(always)]
    fn turn(
        &self,
        at: Square,
        dice: &mut Dice,
        _: &mut (),
        seen: &mut impl FnMut(&Roll),
    ) -> Square {
        let mut turn = Turn::at(self.row(at));
        let mut from = at;
        loop {
            let rolled = self.play_roll(dice, &mut turn);
            let to = Table::square(self, turn.row);
            seen(&Roll {
                sum: rolled.sum,
                from,
                to,
                tally: rolled.tally,
                points: 0,
                forfeited: rolled.forfeited,
            });
            if rolled.turn_ends {
                return to;
            }
            from = to;
        }
    }
}

#[cfg(test)]
mod tests;
