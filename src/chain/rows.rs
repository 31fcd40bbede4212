//! A chain's transition rows and turn rewards as [`super::Chain`] keeps them: each transient
//! state's row as (state index, probability) sorted by index, its turn's expected rewards and
//! whether its turn can go on for ever.

use num_rational::BigRational;

use super::{Turn, TurnRewards};

/// A row of (state index, probability).
type BigRow = Vec<(usize, BigRational)>;

/// One turn as the chain builder keeps it until the states are renumbered (indices in the
/// order the states were found).
pub(super) struct PendingTurn {
    row: BigRow,
    rewards: TurnRewards,
    endless: bool,
}

impl PendingTurn {
    /// The turn `turn` with its states numbered by `index`.
    pub(super) fn of_turn<S>(turn: Turn<S>, mut index: impl FnMut(&S) -> usize) -> PendingTurn {
        PendingTurn {
            row: turn.next.into_iter().map(|(s, p)| (index(&s), p)).collect(),
            rewards: turn.rewards,
            endless: turn.endless,
        }
    }
}

/// A chain's transient rows and rewards, as [`super::Chain`] keeps them.
#[derive(Clone, Debug)]
pub(super) struct ChainTurns {
    rows: Vec<BigRow>,
    rewards: Vec<TurnRewards>,
    /// Per transient state: its turn can go on for ever ([`Turn::endless`]).
    endless: Vec<bool>,
}

impl ChainTurns {
    /// The turns of the transient states, in the chain's order, their state indices renumbered
    /// by `new_id` and each row sorted by the new indices.
    pub(super) fn assemble(turns: Vec<PendingTurn>, new_id: &[usize]) -> ChainTurns {
        let mut rows = Vec::with_capacity(turns.len());
        let mut rewards = Vec::with_capacity(turns.len());
        let mut endless = Vec::with_capacity(turns.len());
        for turn in turns {
            let mut row = turn.row;
            row.iter_mut().for_each(|(j, _)| *j = new_id[*j]);
            // A turn's states come sorted, and stay so unless a final state sorts before a
            // transient one.
            if !row.is_sorted_by_key(|(j, _)| *j) {
                row.sort_by_key(|(j, _)| *j);
            }
            rows.push(row);
            rewards.push(turn.rewards);
            endless.push(turn.endless);
        }
        ChainTurns {
            rows,
            rewards,
            endless,
        }
    }

    /// The rows.
    pub(super) fn big(&self) -> &[BigRow] {
        &self.rows
    }

    /// The expected rewards of each transient state's turn.
    pub(super) fn rewards(&self, i: usize) -> &TurnRewards {
        &self.rewards[i]
    }

    /// Whether each transient state's turn can go on for ever.
    pub(super) fn endless(&self) -> &[bool] {
        &self.endless
    }

    /// The states transient state `i`'s row leads to, in order.
    pub(super) fn columns(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.rows[i].iter().map(|(j, _)| *j)
    }
}

#[cfg(test)]
mod tests {
    use num_traits::{One, Zero};

    use crate::board::Board;
    use crate::chain::Chain;
    use crate::exact::certified::MergedRows;
    use crate::test_util::board;

    /// Every built-in board's chain has its rows sorted by state, and each sums to 1.
    #[test]
    fn every_built_in_chains_rows_are_sorted_and_sum_to_one() {
        for name in crate::board::builtin_names() {
            let chain = Chain::for_board(&crate::board::builtin(name).unwrap());
            for i in 0..chain.transient_count() {
                let row = chain.row(i);
                assert!(
                    row.windows(2).all(|w| w[0].0 < w[1].0),
                    "{name}: row {i} sorted"
                );
                let columns: Vec<usize> = chain.rows.columns(i).collect();
                assert_eq!(columns, row.iter().map(|(j, _)| *j).collect::<Vec<_>>());
                let sum = row
                    .iter()
                    .fold(num_rational::BigRational::zero(), |s, (_, p)| s + p);
                assert!(sum.is_one(), "{name}: row {i} sums to {sum}");
            }
        }
    }

    /// A turn whose chance does not fit a word (a 2-faced die whose 2s roll again, 150
    /// squares: from square 0 a run of 2s reaches square 148 with probability `2^-74`, past a
    /// word when its 1 ends the turn): the counts refused, and the rows, columns and trap as the
    /// turns say.
    #[test]
    fn a_chance_past_a_word_is_kept_and_refused_as_counts() {
        let b: Board = board("size = 150\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n");
        let chain = Chain::for_board(&b);
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
