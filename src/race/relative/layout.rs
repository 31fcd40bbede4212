//! Where a relative state's words live in the array of values: [`Encoded`], the positions read
//! as one base-m number (the schedule that settles), or [`Layered`], the states grouped by the
//! sum of their positions (the schedule to the digits sweeps layer by layer, and a layer's
//! reads come from a few runs of the layers above). [`super::sweeps`] generates the rolls of a
//! state through the layout it is given.

use rayon::prelude::*;

use super::sweeps::encode;

/// A state's number from its positions (mover first), and the numbers of the states a roll
/// leads to, from what [`Layout::base`] prepared once per state.
pub(super) trait Layout: Sync {
    /// What the rolls of one state share.
    type Base: Copy;

    /// The number of the state with positions `pos` (mover first).
    fn index(&self, pos: &[usize]) -> usize;

    /// Prepares the rolls of the state `pos`.
    fn base(&self, pos: &[usize]) -> Self::Base;

    /// The state after a roll to `j` that ends the turn: (others..., j).
    fn pass(&self, base: Self::Base, j: usize) -> usize;

    /// The state after a roll to `j` that rolls again: (j, others...).
    fn again(&self, base: Self::Base, j: usize) -> usize;

    /// Whether the checks visit every state (or only those a race reaches).
    const EVERY_STATE: bool;

    /// Folds `f(acc, positions, state)` over every state on rayon's threads into a copy of
    /// `init` per task, the tasks' results merged by `merge`: for the passes whose result does
    /// not depend on the order of the states.
    fn fold_states<T: Clone + Send + Sync>(
        &self,
        init: T,
        f: impl Fn(&mut T, &[usize], usize) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
    ) -> T;
}

/// The positions as one base-m number, mover first (m^P states).
#[derive(Clone, Copy, Debug)]
pub(super) struct Encoded {
    /// The squares a token can stand on.
    pub m: usize,
    /// m^(P-1).
    pub lead: usize,
    /// The seats.
    pub players: usize,
}

impl Encoded {
    /// Calls `f(positions, state)` for every state (a, mid, d) that shares the middle seats
    /// `mid` (a number in base m), by a then d: their rolls read one run of m^2 states.
    fn for_each_in_block(&self, mid: usize, mut f: impl FnMut(&[usize], usize)) {
        let (p, m) = (self.players, self.m);
        let mut pos = [0usize; super::sweeps::MAX_COMPONENTS];
        let mut rest = mid;
        for q in pos[1..p - 1].iter_mut().rev() {
            *q = rest % m;
            rest /= m;
        }
        for a in 0..m {
            pos[0] = a;
            let first = a * self.lead + mid * m;
            for d in 0..m {
                pos[p - 1] = d;
                f(&pos[..p], first + d);
            }
        }
    }
}

impl Layout for Encoded {
    /// The others' number.
    type Base = usize;

    #[inline]
    fn index(&self, pos: &[usize]) -> usize {
        encode(pos, self.m)
    }

    #[inline]
    fn base(&self, pos: &[usize]) -> usize {
        encode(&pos[1..], self.m)
    }

    #[inline]
    fn pass(&self, rest: usize, j: usize) -> usize {
        rest * self.m + j
    }

    #[inline]
    fn again(&self, rest: usize, j: usize) -> usize {
        j * self.lead + rest
    }

    const EVERY_STATE: bool = true;

    /// A task per block of the middle seats, its reads in the cache.
    fn fold_states<T: Clone + Send + Sync>(
        &self,
        init: T,
        f: impl Fn(&mut T, &[usize], usize) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        fold_tasks(
            (0..self.m.pow(self.players as u32 - 2)).into_par_iter(),
            init,
            |mid, acc| self.for_each_in_block(mid, |pos, s| f(acc, pos, s)),
            merge,
        )
    }
}

/// The states by the sum S of their positions (b0, b1, ..., b(P-1)), and within a sum by runs
/// of the middle seats (b2, ..., b(P-2), then b1), each run the states of every b(P-1) (b0 is
/// then fixed by S). A roll that ends the turn leads from (a0, a1, ..., a(P-1)) to
/// (a1, ..., a(P-1), j): the run of the middle (a2, ..., a(P-1)) in the layer of its sum, so
/// the states that share (a2, ..., a(P-1)) read one run of each layer just above, entry after
/// entry ([`Layered::for_each_in_groups`]).
#[derive(Clone, Debug)]
pub(super) struct Layered {
    m: usize,
    players: usize,
    /// m^(P-2): the runs of a layer.
    runs: usize,
    /// For every layer S and run r, the number of its first state (`S runs + r`), and the
    /// total at the end.
    first: Vec<u32>,
}

/// What the rolls of one state share in a [`Layered`] layout.
#[derive(Clone, Copy, Debug)]
pub(super) struct LayeredBase {
    /// The sum of the positions after the mover's.
    others: usize,
    /// a1 and a(P-1).
    next: usize,
    last: usize,
    /// The run of (a1, ..., a(P-1), j) and of (j, a1, ..., a(P-1)).
    pass_run: usize,
    again_run: usize,
}

impl Layered {
    /// The layout of `players` seats on `m` squares.
    pub fn new(m: usize, players: usize) -> Layered {
        let runs = m.pow(players as u32 - 2);
        let layers = players * (m - 1) + 1;
        let mut first = Vec::with_capacity(layers * runs + 1);
        let mut total = 0u64;
        let mut middle = vec![0usize; players.saturating_sub(2)];
        for sum in 0..layers {
            for run in 0..runs {
                first.push(u32::try_from(total).expect("fewer than 2^32 states"));
                decode_run(run, m, &mut middle);
                let (lo, hi) = last_range(sum, middle.iter().sum(), m);
                total += (hi + 1).saturating_sub(lo) as u64;
            }
        }
        first.push(u32::try_from(total).expect("fewer than 2^32 states"));
        Layered {
            m,
            players,
            runs,
            first,
        }
    }

    /// The runs of a layer.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// The layers, by sum of the positions.
    pub fn layers(&self) -> usize {
        self.players * (self.m - 1) + 1
    }

    /// The numbers of the states of layer `sum`.
    pub fn layer(&self, sum: usize) -> std::ops::Range<usize> {
        self.first[sum * self.runs] as usize..self.first[(sum + 1) * self.runs] as usize
    }

    /// The run of the middle seats `(b1, ..., b(P-2))`: b1 varies fastest.
    #[inline]
    fn run_of(&self, middle: &[usize]) -> usize {
        match middle.split_first() {
            None => 0,
            Some((&b1, rest)) => encode(rest, self.m) * self.m + b1,
        }
    }

    /// The number of the state of run `run` in layer `sum` whose last seat stands on `last`,
    /// `b0 + last` being `pair`.
    #[inline]
    fn at(&self, sum: usize, run: usize, pair: usize, last: usize) -> usize {
        self.first[sum * self.runs + run] as usize + last - pair.saturating_sub(self.m - 1)
    }

    /// Calls `f(positions, state)` for the states of layer `sum` whose runs are `runs`, in the
    /// order of their numbers.
    pub fn for_each_in_runs(
        &self,
        sum: usize,
        runs: std::ops::Range<usize>,
        mut f: impl FnMut(&[usize], usize),
    ) {
        let (m, p) = (self.m, self.players);
        let mut pos = [0usize; super::sweeps::MAX_COMPONENTS];
        for run in runs {
            decode_run(run, m, &mut pos[1..p - 1]);
            let middle: usize = pos[1..p - 1].iter().sum();
            let (lo, hi) = last_range(sum, middle, m);
            let first = self.first[sum * self.runs + run] as usize;
            for (s, last) in (first..).zip(lo..=hi) {
                pos[p - 1] = last;
                pos[0] = sum - middle - last;
                f(&pos[..p], s);
            }
        }
    }

    /// The blocks of a layer: the runs that share the seats from the third to the last but
    /// one, (b2, ..., b(P-2)); one block for three players or fewer. A block's states are
    /// numbered contiguously.
    pub fn blocks(&self) -> usize {
        self.runs / self.m.min(self.runs)
    }

    /// The numbers of the states of layer `sum` in its blocks `blocks`.
    pub fn block_states(
        &self,
        sum: usize,
        blocks: std::ops::Range<usize>,
    ) -> std::ops::Range<usize> {
        let per = self.runs / self.blocks();
        let at = |block: usize| self.first[sum * self.runs + block * per] as usize;
        at(blocks.start)..at(blocks.end)
    }

    /// Calls `f(positions, state)` for the states of layer `sum` in its blocks `blocks`, by
    /// groups that share every seat but the mover and the next, (a2, ..., a(P-1)), the next
    /// seat's square varying fastest (downwards): the rolls of a group that end the turn read
    /// one run of each layer above, entry after entry upwards.
    pub fn for_each_in_groups(
        &self,
        sum: usize,
        blocks: std::ops::Range<usize>,
        mut f: impl FnMut(&[usize], usize),
    ) {
        let (m, p) = (self.m, self.players);
        let mut pos = [0usize; super::sweeps::MAX_COMPONENTS];
        if p == 2 {
            for next in (0..m).rev() {
                if let Some(mover) = sum.checked_sub(next).filter(|&a| a < m) {
                    pos[..2].copy_from_slice(&[mover, next]);
                    f(&pos[..2], self.index(&pos[..2]));
                }
            }
            return;
        }
        for block in blocks {
            let mut rest = block;
            for q in pos[2..p - 1].iter_mut().rev() {
                *q = rest % m;
                rest /= m;
            }
            let block_sum: usize = pos[2..p - 1].iter().sum();
            for last in 0..m {
                pos[p - 1] = last;
                for next in (0..m).rev() {
                    let Some(mover) = sum.checked_sub(block_sum + last + next).filter(|&a| a < m)
                    else {
                        continue;
                    };
                    pos[0] = mover;
                    pos[1] = next;
                    let run = block * m + next;
                    f(&pos[..p], self.at(sum, run, mover + last, last));
                }
            }
        }
    }

    /// The blocks split in about `parts` pieces of similar numbers of states in layer `sum`.
    pub fn pieces(&self, sum: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
        let blocks = self.blocks();
        let size = self.layer(sum).len().div_ceil(parts.max(1)).max(1);
        let mut pieces = Vec::with_capacity(parts);
        let mut begin = 0;
        while begin < blocks {
            let mut end = begin + 1;
            while end < blocks && self.block_states(sum, begin..end).len() < size {
                end += 1;
            }
            pieces.push(begin..end);
            begin = end;
        }
        pieces
    }
}

impl Layout for Layered {
    type Base = LayeredBase;

    #[inline]
    fn index(&self, pos: &[usize]) -> usize {
        let p = self.players;
        let sum = pos.iter().sum();
        self.at(
            sum,
            self.run_of(&pos[1..p - 1]),
            pos[0] + pos[p - 1],
            pos[p - 1],
        )
    }

    #[inline]
    fn base(&self, pos: &[usize]) -> LayeredBase {
        let p = self.players;
        LayeredBase {
            others: pos[1..].iter().sum(),
            next: pos[1],
            last: pos[p - 1],
            pass_run: self.run_of(&pos[2..]),
            again_run: self.run_of(&pos[1..p - 1]),
        }
    }

    #[inline]
    fn pass(&self, b: LayeredBase, j: usize) -> usize {
        self.at(b.others + j, b.pass_run, b.next + j, j)
    }

    #[inline]
    fn again(&self, b: LayeredBase, j: usize) -> usize {
        self.at(b.others + j, b.again_run, j + b.last, b.last)
    }

    const EVERY_STATE: bool = false;

    /// A task per piece of a layer.
    fn fold_states<T: Clone + Send + Sync>(
        &self,
        init: T,
        f: impl Fn(&mut T, &[usize], usize) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        let threads = rayon::current_num_threads().max(1);
        let tasks: Vec<_> = (0..self.layers())
            .flat_map(|sum| {
                self.pieces(sum, 4 * threads)
                    .into_iter()
                    .map(move |r| (sum, r))
            })
            .collect();
        fold_tasks(
            tasks.into_par_iter(),
            init,
            |(sum, blocks), acc| self.for_each_in_groups(sum, blocks, |pos, s| f(acc, pos, s)),
            merge,
        )
    }
}

/// Folds the tasks on rayon's threads: `visit(task, acc)` into a copy of `init` per task, the
/// copies merged by `merge`.
fn fold_tasks<K: Send, T: Clone + Send + Sync>(
    tasks: impl ParallelIterator<Item = K>,
    init: T,
    visit: impl Fn(K, &mut T) + Sync + Send,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    tasks
        .map(|task| {
            let mut acc = init.clone();
            visit(task, &mut acc);
            acc
        })
        .reduce(|| init.clone(), merge)
}

/// The middle seats `(b1, ..., b(P-2))` of run `run` ([`Layered::run_of`]).
fn decode_run(mut run: usize, m: usize, middle: &mut [usize]) {
    if let Some((b1, rest)) = middle.split_first_mut() {
        *b1 = run % m;
        run /= m;
        for q in rest.iter_mut().rev() {
            *q = run % m;
            run /= m;
        }
    }
}

/// The squares the last seat may stand on in a state of positions adding up to `sum` whose
/// middle seats add up to `middle` (the mover's square `sum - middle - last` in `0..m`); an
/// empty range when there is none.
fn last_range(sum: usize, middle: usize, m: usize) -> (usize, usize) {
    match sum.checked_sub(middle) {
        Some(pair) if pair <= 2 * (m - 1) => (pair.saturating_sub(m - 1), pair.min(m - 1)),
        _ => (1, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_has_one_number_and_the_rolls_find_theirs() {
        for (m, players) in [(5, 2), (4, 3), (3, 4), (3, 5)] {
            let layout = Layered::new(m, players);
            let states = m.pow(players as u32);
            let mut seen = vec![false; states];
            let mut count = 0;
            for sum in 0..layout.layers() {
                let layer = layout.layer(sum);
                layout.for_each_in_runs(sum, 0..layout.runs, |pos, s| {
                    assert!(layer.contains(&s));
                    assert_eq!(pos.iter().sum::<usize>(), sum);
                    assert_eq!(layout.index(pos), s, "{pos:?}");
                    assert!(!seen[s]);
                    seen[s] = true;
                    count += 1;
                    let base = layout.base(pos);
                    for j in 0..m {
                        let mut passed = pos[1..].to_vec();
                        passed.push(j);
                        assert_eq!(layout.pass(base, j), layout.index(&passed));
                        let mut again = pos.to_vec();
                        again[0] = j;
                        assert_eq!(layout.again(base, j), layout.index(&again));
                    }
                });
            }
            assert_eq!(count, states);
            for sum in 0..layout.layers() {
                let mut grouped = Vec::new();
                for blocks in layout.pieces(sum, 3) {
                    let states = layout.block_states(sum, blocks.clone());
                    layout.for_each_in_groups(sum, blocks, |pos, s| {
                        assert!(states.contains(&s));
                        assert_eq!(layout.index(pos), s, "{pos:?}");
                        grouped.push(s);
                    });
                }
                grouped.sort_unstable();
                assert_eq!(grouped, layout.layer(sum).collect::<Vec<_>>());
            }
        }
    }
}
