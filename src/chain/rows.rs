//! A chain's transition rows and turn rewards, kept in machine words when every number fits one
//! (a die's turns: sums of powers of its faces' chances, for every built-in board), and made
//! into big rationals only when a caller asks for them.
//!
//! A big rational costs 64 bytes and two small heap blocks; a row entry in words costs 24
//! bytes, and a turn's rewards 104 bytes, none on the heap. One player's turns under unlimited
//! roll-again come in words already (`chain::rest`, [`Law`]); other models' turns come as big
//! rationals, and are kept in words when they fit. The analyses that need only counts over a
//! common denominator (the certified stepping, [`crate::exact::certified::MergedRows`]) or only
//! the columns ([`super::Chain::trap`]) read the words; everything else reads the big
//! rationals, made once on the first call ([`Lazy::big`]) and equal to what the turns said.

use std::borrow::Cow;
use std::sync::OnceLock;

use num_rational::BigRational;

use super::words::{Frac, Law, WordRewards};
use super::{Turn, TurnRewards};

/// One transition as words: to state `to` with probability `num / den`, in lowest terms
/// (`0 / 1` for zero), `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordEntry {
    /// The state the transition leads to.
    pub to: u32,
    /// The probability's numerator.
    pub num: u64,
    /// The probability's denominator.
    pub den: u64,
}

impl WordEntry {
    /// The probability as a big rational.
    fn big(self) -> BigRational {
        Frac {
            num: self.num,
            den: self.den,
        }
        .big()
    }
}

/// Every transient state's transitions as words, sorted by state within each row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordRows<'a> {
    rows: &'a [Vec<WordEntry>],
}

impl<'a> WordRows<'a> {
    /// The transitions of transient state `i`.
    pub fn row(&self, i: usize) -> &'a [WordEntry] {
        &self.rows[i]
    }

    /// The number of rows (the transient states).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Every row's entries, one row after another.
    pub fn entries(&self) -> impl Iterator<Item = &'a WordEntry> {
        self.rows.iter().flatten()
    }
}

/// A number (or a row of them) in words, or as big rationals when it did not fit.
pub(super) enum Kept<W, B> {
    Words(W),
    Big(B),
}

/// A row of (state index, probability).
type BigRow = Vec<(usize, BigRational)>;

/// One turn as the chain builder keeps it until the states are renumbered (indices in the
/// order the states were found).
pub(super) struct PendingTurn {
    row: Kept<Vec<WordEntry>, BigRow>,
    /// Boxed when big: a turn's big rewards are 384 bytes.
    rewards: Kept<WordRewards, Box<TurnRewards>>,
    endless: bool,
}

impl PendingTurn {
    /// The turn `law` in words, its states numbered by `index` (a word row when every index
    /// fits a word).
    pub(super) fn of_law<S>(law: &Law<S>, mut index: impl FnMut(&S) -> usize) -> PendingTurn {
        // Sized once: collecting through `Option` would grow the row by doubling (a quarter of
        // efi's row bytes were spare room).
        let mut words = Vec::with_capacity(law.next.len());
        let mut big = None;
        for (s, p) in &law.next {
            let j = index(s);
            match u32::try_from(j) {
                Ok(to) if big.is_none() => words.push(WordEntry {
                    to,
                    num: p.num,
                    den: p.den,
                }),
                _ => big.get_or_insert_with(Vec::new).push((j, p.big())),
            }
        }
        let row = match big {
            None => Kept::Words(words),
            Some(rest) => {
                let done = words.into_iter().map(|e| (e.to as usize, e.big()));
                Kept::Big(done.chain(rest).collect())
            }
        };
        PendingTurn {
            row,
            rewards: Kept::Words(law.rewards),
            endless: false,
        }
    }

    /// The turn `turn` with its states numbered by `index`, in words where they fit.
    pub(super) fn of_turn<S>(turn: Turn<S>, mut index: impl FnMut(&S) -> usize) -> PendingTurn {
        let row: BigRow = turn.next.into_iter().map(|(s, p)| (index(&s), p)).collect();
        // Sized once, as in `of_law`.
        let mut words = Vec::with_capacity(row.len());
        for (j, p) in &row {
            let (Some(Frac { num, den }), Ok(to)) = (Frac::of(p), u32::try_from(*j)) else {
                break;
            };
            words.push(WordEntry { to, num, den });
        }
        let row = match words.len() == row.len() {
            true => Kept::Words(words),
            false => Kept::Big(row),
        };
        let rewards = match WordRewards::of(&turn.rewards) {
            Some(words) => Kept::Words(words),
            None => Kept::Big(Box::new(turn.rewards)),
        };
        PendingTurn {
            row,
            rewards,
            endless: turn.endless,
        }
    }
}

/// A row with every state index `j` replaced by `new_id[j]`, sorted by the new indices: in
/// words when every new index fits one.
fn renumbered(row: Kept<Vec<WordEntry>, BigRow>, new_id: &[usize]) -> Kept<Vec<WordEntry>, BigRow> {
    // Every index is below the number of states: they all fit a word when it does.
    match (row, u32::try_from(new_id.len()).is_ok()) {
        (Kept::Words(mut row), true) => {
            row.iter_mut()
                .for_each(|e| e.to = new_id[e.to as usize] as u32);
            // A turn's states come sorted, and stay so unless a final state sorts before a
            // transient one.
            if !row.is_sorted_by_key(|e| e.to) {
                row.sort_by_key(|e| e.to);
            }
            Kept::Words(row)
        }
        (row, _) => {
            let mut row = big_row(row);
            row.iter_mut().for_each(|(j, _)| *j = new_id[*j]);
            if !row.is_sorted_by_key(|(j, _)| *j) {
                row.sort_by_key(|(j, _)| *j);
            }
            Kept::Big(row)
        }
    }
}

/// A row as big rationals.
fn big_row(row: Kept<Vec<WordEntry>, BigRow>) -> BigRow {
    match row {
        Kept::Words(w) => w.iter().map(|e| (e.to as usize, e.big())).collect(),
        Kept::Big(b) => b,
    }
}

/// Items kept in words when every one fit, with their big form made from the words on the
/// first call to [`Lazy::big`] (or kept from the start when one did not fit).
#[derive(Clone, Debug)]
pub(super) struct Lazy<W, B> {
    words: Option<Vec<W>>,
    big: OnceLock<Vec<B>>,
}

impl<W, B> Lazy<W, B> {
    /// The items, in words when every one is.
    fn of(items: Vec<Kept<W, B>>, big_of: impl Fn(W) -> B) -> Lazy<W, B> {
        if items.iter().all(|r| matches!(r, Kept::Words(_))) {
            let words = items.into_iter().filter_map(|item| match item {
                Kept::Words(w) => Some(w),
                Kept::Big(_) => None,
            });
            return Lazy {
                words: Some(words.collect()),
                big: OnceLock::new(),
            };
        }
        let big = items.into_iter().map(|item| match item {
            Kept::Words(w) => big_of(w),
            Kept::Big(b) => b,
        });
        Lazy {
            words: None,
            big: OnceLock::from(big.collect::<Vec<_>>()),
        }
    }

    /// The items in words, when every one fit.
    fn words(&self) -> Option<&[W]> {
        self.words.as_deref()
    }

    /// The items in their big form (made from the words the first time).
    fn big(&self, big_of: impl Fn(&W) -> B) -> &[B] {
        self.big.get_or_init(|| {
            let words = self.words.as_ref().expect("items are words or big");
            words.iter().map(big_of).collect()
        })
    }
}

/// A chain's transient rows and rewards, as [`super::Chain`] keeps them.
#[derive(Clone, Debug)]
pub(super) struct ChainTurns {
    rows: Lazy<Vec<WordEntry>, BigRow>,
    rewards: Lazy<WordRewards, Box<TurnRewards>>,
    /// Per transient state: its turn can go on for ever ([`Turn::endless`]).
    endless: Vec<bool>,
}

impl ChainTurns {
    /// The turns of the transient states, in the chain's order, their state indices renumbered
    /// by `new_id`.
    pub(super) fn assemble(turns: Vec<PendingTurn>, new_id: &[usize]) -> ChainTurns {
        let mut rows = Vec::with_capacity(turns.len());
        let mut rewards = Vec::with_capacity(turns.len());
        let mut endless = Vec::with_capacity(turns.len());
        for turn in turns {
            rows.push(renumbered(turn.row, new_id));
            rewards.push(turn.rewards);
            endless.push(turn.endless);
        }
        ChainTurns {
            rows: Lazy::of(rows, |w| big_row(Kept::Words(w))),
            rewards: Lazy::of(rewards, |w| Box::new(w.big())),
            endless,
        }
    }

    /// The rows as words, when every probability fit one.
    pub(super) fn words(&self) -> Option<WordRows<'_>> {
        self.rows.words().map(|rows| WordRows { rows })
    }

    /// The rows as big rationals (made from the words the first time).
    pub(super) fn big(&self) -> &[BigRow] {
        self.rows
            .big(|w| w.iter().map(|e| (e.to as usize, e.big())).collect())
    }

    /// The expected rewards of each transient state's turn.
    pub(super) fn rewards(&self, i: usize) -> &TurnRewards {
        &self.rewards.big(|w| Box::new(w.big()))[i]
    }

    /// Whether each transient state's turn can go on for ever.
    pub(super) fn endless(&self) -> &[bool] {
        &self.endless
    }

    /// Transient state `i`'s row as words, or else as big rationals (the other part empty).
    fn row_parts(&self, i: usize) -> (&[WordEntry], &[(usize, BigRational)]) {
        match self.rows.words() {
            Some(w) => (&w[i], &[]),
            None => (&[], &self.big()[i]),
        }
    }

    /// The states transient state `i`'s row leads to, in order.
    pub(super) fn columns(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (words, big) = self.row_parts(i);
        let words = words.iter().map(|e| e.to as usize);
        words.chain(big.iter().map(|(j, _)| *j))
    }

    /// Calls `f` with each state transient state `i`'s row leads to, in order ([`Self::columns`]
    /// without the chained iterator: one test for words or big per row, not per entry).
    pub(super) fn for_each_column(&self, i: usize, mut f: impl FnMut(usize)) {
        match self.rows.words() {
            Some(w) => w[i].iter().for_each(|e| f(e.to as usize)),
            None => self.big()[i].iter().for_each(|(j, _)| f(*j)),
        }
    }

    /// Transient state `i`'s transitions, each probability made from the words or borrowed
    /// from the big rows (without making them).
    pub(super) fn entries(
        &self,
        i: usize,
    ) -> impl Iterator<Item = (usize, Cow<'_, BigRational>)> + '_ {
        let (words, big) = self.row_parts(i);
        let words = words.iter().map(|e| (e.to as usize, Cow::Owned(e.big())));
        words.chain(big.iter().map(|(j, p)| (*j, Cow::Borrowed(p))))
    }

    /// The number of transient states.
    pub(super) fn len(&self) -> usize {
        self.endless.len()
    }
}

#[cfg(test)]
mod tests {
    use num_integer::Integer;
    use num_traits::{One, Zero};

    use crate::board::Board;
    use crate::chain::Chain;
    use crate::exact::certified::MergedRows;
    use crate::test_util::board;

    /// Every built-in board's chain keeps its rows in words, each entry in lowest terms, and
    /// reads the same transitions through every door: the words, the big rows, the entries
    /// made one at a time and the columns (by hand: each row sums to 1).
    #[test]
    fn every_built_in_chain_is_words_read_alike_through_every_door() {
        for name in crate::board::builtin_names() {
            let b = crate::board::builtin(name).unwrap();
            let chain = Chain::for_board(&b);
            let words = chain
                .word_rows()
                .expect("a built-in board's turns fit words");
            assert_eq!(words.len(), chain.transient_count(), "{name}");
            for i in 0..words.len() {
                let row = words.row(i);
                assert!(
                    row.windows(2).all(|w| w[0].to < w[1].to),
                    "{name}: row {i} sorted"
                );
                for e in row {
                    assert!(
                        e.den > 0 && e.num.gcd(&e.den) == 1,
                        "{name}: {e:?} in lowest terms"
                    );
                }
                let big: Vec<_> = row.iter().map(|e| (e.to as usize, e.big())).collect();
                assert_eq!(chain.row(i), &big[..], "{name}: row {i}");
                let entries: Vec<_> = chain
                    .row_entries(i)
                    .map(|(j, p)| (j, p.into_owned()))
                    .collect();
                assert_eq!(entries, big, "{name}: row {i} entry by entry");
                let columns: Vec<usize> = chain.rows.columns(i).collect();
                assert_eq!(columns, big.iter().map(|(j, _)| *j).collect::<Vec<_>>());
                let sum = big
                    .iter()
                    .fold(num_rational::BigRational::zero(), |s, (_, p)| s + p);
                assert!(sum.is_one(), "{name}: row {i} sums to {sum}");
            }
        }
    }

    /// A turn whose chance does not fit a word (a 2-faced die whose 2s roll again, 150
    /// squares: from square 0 a run of 2s reaches square 148 with probability `2^-74`, past a
    /// word when its 1 ends the turn) keeps the whole chain in big rationals: no words, the
    /// counts refused, and the rows, columns and trap as the turns say.
    #[test]
    fn a_chance_past_a_word_keeps_the_rows_big() {
        let b: Board = board("size = 150\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n");
        let chain = Chain::for_board(&b);
        assert!(chain.word_rows().is_none());
        assert!(MergedRows::counts(&chain).is_none());
        let start = chain.start();
        let two = num_bigint::BigInt::from(2);
        let deepest = chain
            .row(start)
            .iter()
            .map(|(_, p)| p.denom())
            .max()
            .unwrap();
        assert!(
            *deepest >= two.pow(74),
            "the deepest level's chance is 2^-74 or less"
        );
        for i in 0..chain.transient_count() {
            let columns: Vec<usize> = chain.rows.columns(i).collect();
            let big: Vec<usize> = chain.row(i).iter().map(|(j, _)| *j).collect();
            assert_eq!(columns, big);
            let sum = chain
                .row(i)
                .iter()
                .fold(num_rational::BigRational::zero(), |s, (_, p)| s + p);
            assert!(sum.is_one(), "row {i} sums to {sum}");
        }
        assert!(chain.always_ends());
        assert!(chain.rewards(start).rolls > num_rational::BigRational::one());
    }
}
