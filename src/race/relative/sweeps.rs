//! The relative-position chain of [`super`] generated on the fly: the states are enumerated in
//! sweep order, every state's rolls are made from the one-player roll table when the state is
//! visited, and the values live in one array of fixed-point integers (no stored matrix, no
//! second copy). Gauss-Seidel sweeps solve for the values; a pass of the same shape computes
//! every residual exactly in integers, and another checks the bound on the game's length.

use rayon::prelude::*;

/// One roll of the mover from a square that does not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Roll {
    /// The square (index) the roll ends on.
    pub to: u32,
    /// Its probability times D.
    pub weight: u32,
    /// The same mover rolls again.
    pub again: bool,
    /// Opponents on `to` go back to the start (the roll lands: [`crate::race::knockoff`]).
    pub knock: bool,
}

/// The one-player roll table and the shape of the relative chain.
#[derive(Clone, Debug)]
pub(super) struct Game {
    /// The seats.
    pub players: usize,
    /// The squares a token can stand on.
    pub m: usize,
    /// The start square's index.
    pub start: usize,
    /// D: every roll's probability is its weight over D.
    pub denominator: u64,
    /// For every square, its rolls that do not finish.
    pub rolls: Vec<Vec<Roll>>,
    /// For every square, the weight of its rolls that finish.
    pub finishing: Vec<u32>,
    /// m^(P-1): a state's number is the mover's square times this plus the others' number.
    pub lead: usize,
}

/// The blocks [`Game::sweep_blocks`] updates together (on two threads, from the same values).
const BLOCKS_PER_PHASE: usize = 8;

/// The most components per state: six players' win chances and two words of remaining turns.
pub(super) const MAX_COMPONENTS: usize = 8;
/// The scale of the win chances: W = w / 2^62 (a chance of 1 and a little above fits a u64).
pub(super) const WIN_BITS: u32 = 62;
/// The scale of the remaining turns: T = t / 2^70, in two u64 words.
pub(super) const TURN_BITS: u32 = 70;
/// The largest remaining-turns value taken (2^13 turns: D times it stays far inside u128).
const TURN_CEILING: u128 = 1 << (TURN_BITS + 13);

impl Game {
    /// Words per state: the P win chances W_0..W_(P-1), then the remaining turns T (low word,
    /// high word).
    pub fn components(&self) -> usize {
        self.players + 2
    }

    /// m^P.
    pub fn states(&self) -> usize {
        self.m.pow(self.players as u32)
    }

    /// The start state's number (every seat on the start square).
    pub fn start_state(&self) -> usize {
        encode(&vec![self.start; self.players], self.m)
    }

    /// Calls `f(positions, state)` for every state, by decreasing sum of the positions (the
    /// sweep order: a roll mostly moves a token forward, so most values a state reads were
    /// updated earlier in the same sweep), lexicographically within a sum.
    fn for_each_state(&self, mut f: impl FnMut(&[usize], usize)) {
        let mut pos = vec![0usize; self.players];
        for sum in self.sums() {
            for mover in 0..self.m {
                self.for_each_in_layer(sum, mover, &mut pos, &mut f);
            }
        }
    }

    /// The sums of the positions, largest first.
    fn sums(&self) -> impl Iterator<Item = usize> {
        (0..=self.players * (self.m - 1)).rev()
    }

    /// Calls `f(positions, state)` for every state whose positions add up to `sum` and whose
    /// mover stands on `mover`, lexicographically (`pos` is the scratch of the positions).
    fn for_each_in_layer(
        &self,
        sum: usize,
        mover: usize,
        pos: &mut [usize],
        mut f: impl FnMut(&[usize], usize),
    ) {
        let m = self.m;
        let rest = match sum.checked_sub(mover) {
            Some(rest) if rest <= (self.players - 1) * (m - 1) => rest,
            _ => return,
        };
        pos[0] = mover;
        fill_smallest(&mut pos[1..], rest, m);
        loop {
            f(pos, encode(pos, m));
            if !next_same_sum(&mut pos[1..], m) {
                break;
            }
        }
    }

    /// Calls `f(roll, next)` for every roll of the mover in `pos` that does not finish, with
    /// the next state's number: the mover moved (and opponents on its landing square sent back),
    /// then, when the turn ends, the next seat becomes the mover.
    #[inline]
    fn for_each_roll(&self, pos: &[usize], mut f: impl FnMut(&Roll, usize)) {
        let m = self.m;
        let others = &pos[1..];
        let rest = encode(others, m);
        let lead = self.lead;
        for roll in &self.rolls[pos[0]] {
            let j = roll.to as usize;
            let next = if roll.knock && others.contains(&j) {
                let sent = |q: usize| if q == j { self.start } else { q };
                let rest = others.iter().fold(0, |s, &q| s * m + sent(q));
                if roll.again {
                    j * lead + rest
                } else {
                    rest * m + j
                }
            } else if roll.again {
                j * lead + rest
            } else {
                rest * m + j
            };
            f(roll, next);
        }
    }

    /// D times the right-hand side of every component of state `pos`, from the values `x`:
    /// `acc[k] = [k = 0] fin 2^60 + sum_again w W_k(s') + sum_pass w W_(k-1 mod P)(s')` and
    /// `acc[P] = sum_again w T(s') + sum_pass w (2^70 + T(s'))`.
    #[inline]
    fn right_side(&self, pos: &[usize], x: &[u64], acc: &mut [u128; MAX_COMPONENTS]) {
        let (p, cs) = (self.players, self.components());
        *acc = [0; MAX_COMPONENTS];
        acc[0] = u128::from(self.finishing[pos[0]]) << WIN_BITS;
        self.for_each_roll(pos, |roll, next| {
            let w = u128::from(roll.weight);
            let v = &x[next * cs..next * cs + cs];
            if roll.again {
                for (a, &y) in acc.iter_mut().zip(&v[..p]) {
                    *a += w * u128::from(y);
                }
                acc[p] += w * turns(v, p);
            } else {
                acc[0] += w * u128::from(v[p - 1]);
                for k in 1..p {
                    acc[k] += w * u128::from(v[k - 1]);
                }
                acc[p] += w * (turns(v, p) + (1u128 << TURN_BITS));
            }
        });
    }

    /// The updated words of state `pos` from the values `x`: each win chance and the remaining
    /// turns rounded to its grid (`new[..P + 2]`, the layout of a state's words).
    #[inline(always)]
    fn updated(&self, pos: &[usize], x: &[u64], divider: Divider, new: &mut [u64]) {
        let p = self.players;
        let mut acc = [0u128; MAX_COMPONENTS];
        self.right_side(pos, x, &mut acc);
        for (v, &a) in new[..p].iter_mut().zip(&acc) {
            *v = divider.rounded(a);
        }
        let t = divider.rounded_wide(acc[p]);
        new[p] = t as u64;
        new[p + 1] = (t >> 64) as u64;
    }

    /// One Gauss-Seidel sweep over every state, each value rounded to its grid. Returns the
    /// largest change of a win chance and of a remaining-turns value (in grid units), or `None`
    /// when a remaining-turns value outgrows the integers.
    pub fn sweep(&self, x: &mut [u64]) -> Option<(u64, u128)> {
        let cs = self.components();
        let divider = Divider::new(self.denominator);
        let mut moved = Moved::default();
        let mut new = [0u64; MAX_COMPONENTS];
        self.for_each_state(|pos, s| {
            self.updated(pos, x, divider, &mut new);
            moved.replace(self.players, &mut x[s * cs..s * cs + cs], &new);
        });
        moved.result()
    }

    /// A sweep by blocks of the middle seats on the threads of rayon's pool. A block holds the
    /// states (a, mid, d) that share the seats between the mover and the last: their moves
    /// read the states (mid, d, a'), one contiguous run of m^2 states that stays in the cache
    /// while the block is swept, and they write m runs of m states. The blocks are swept by
    /// decreasing number, [`BLOCKS_PER_PHASE`] at a time: the blocks of a phase are updated
    /// together from the values before the phase began (Jacobi within a phase, Gauss-Seidel
    /// across phases), so the result does not depend on the threads. Returns what
    /// [`Game::sweep`] returns.
    pub fn sweep_blocks(&self, x: &mut [u64]) -> Option<(u64, u128)> {
        let (m, cs) = (self.m, self.components());
        let divider = Divider::new(self.denominator);
        let blocks = m.pow(self.players as u32 - 2);
        let mut buffers = vec![vec![0u64; m * m * cs]; BLOCKS_PER_PHASE.min(blocks)];
        let mut moved = Moved::default();
        let order: Vec<usize> = (0..blocks).rev().collect();
        for phase in order.chunks(BLOCKS_PER_PHASE) {
            let values: &[u64] = x;
            let phase_moved = buffers
                .par_iter_mut()
                .zip(phase)
                .map(|(out, &mid)| self.block_updated(mid, values, divider, out))
                .reduce(Moved::default, Moved::merge);
            moved = moved.merge(phase_moved);
            for (out, &mid) in buffers.iter().zip(phase) {
                for (a, run) in out.chunks_exact(m * cs).enumerate() {
                    let s = a * self.lead + mid * m;
                    x[s * cs..(s + m) * cs].copy_from_slice(run);
                }
            }
        }
        moved.result()
    }

    /// The updated words of the states (a, mid, d) of block `mid` from the values `x`, into
    /// `out` (a state's words at (a m + d)(P + 2)), with the largest changes.
    fn block_updated(&self, mid: usize, x: &[u64], divider: Divider, out: &mut [u64]) -> Moved {
        let (p, cs) = (self.players, self.components());
        let mut moved = Moved::default();
        let mut words = out.chunks_exact_mut(cs);
        self.for_each_in_block(mid, |pos, s| {
            let new = words.next().expect("a buffer of the block's states");
            self.updated(pos, x, divider, new);
            moved.note(p, &x[s * cs..s * cs + cs], new);
        });
        moved
    }

    /// Calls `f(positions, state)` for every state (a, mid, d) of block `mid`, by a then d
    /// (the order of the states' numbers).
    #[inline]
    fn for_each_in_block(&self, mid: usize, mut f: impl FnMut(&[usize], usize)) {
        let (p, m) = (self.players, self.m);
        let mut pos = [0usize; MAX_COMPONENTS];
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

    /// The largest exact residual `|D (b + Q x) - D x|` of the win chances and of the remaining
    /// turns (in grid units: divide by D 2^62 and D 2^70).
    pub fn residuals(&self, x: &[u64]) -> (u128, u128) {
        let (p, cs) = (self.players, self.components());
        let d = u128::from(self.denominator);
        self.fold_states(
            (0u128, 0u128),
            |(win, turn), pos, s| {
                let mut acc = [0u128; MAX_COMPONENTS];
                self.right_side(pos, x, &mut acc);
                let values = &x[s * cs..s * cs + cs];
                for (&a, &v) in acc[..p].iter().zip(values) {
                    *win = (*win).max(a.abs_diff(d * u128::from(v)));
                }
                *turn = (*turn).max(acc[p].abs_diff(d * turns(values, p)));
            },
            |a, b| (a.0.max(b.0), a.1.max(b.1)),
        )
    }

    /// Folds `f` over every state on rayon's threads (a block of [`Game::sweep_blocks`] in a
    /// task, its reads in the cache) into a copy of `init` per task, the tasks' results merged
    /// by `merge`: for the passes whose result does not depend on the order of the states.
    fn fold_states<T: Clone + Send + Sync>(
        &self,
        init: T,
        f: impl Fn(&mut T, &[usize], usize) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        (0..self.m.pow(self.players as u32 - 2))
            .into_par_iter()
            .map(|mid| {
                let mut acc = init.clone();
                self.for_each_in_block(mid, |pos, s| f(&mut acc, pos, s));
                acc
            })
            .reduce(|| init.clone(), merge)
    }

    /// The weight (over D) of the rolls that end the turn or finish from the square with the
    /// most roll-again weight: every roll ends the turn with at least this chance.
    fn least_ending_weight(&self) -> u64 {
        (0..self.m)
            .map(|q| {
                let again: u64 = self.rolls[q]
                    .iter()
                    .filter(|r| r.again)
                    .map(|r| u64::from(r.weight))
                    .sum();
                self.denominator - again
            })
            .min()
            .unwrap_or(self.denominator)
    }

    /// The expected remaining rolls from the start that the values `x` suggest (a float, not
    /// a bound): what a residual is multiplied by in the certified error.
    pub fn length_estimate(&self, x: &[u64]) -> f64 {
        let cs = self.components();
        let t = turns(&x[self.start_state() * cs..], self.players) as f64;
        let ratio = self.denominator as f64 / self.least_ending_weight().max(1) as f64;
        (1.0 + t / (1u128 << TURN_BITS) as f64) * ratio
    }

    /// A bound u on the expected remaining rolls, made from the remaining turns T in `x`:
    /// `u(s) = ceil(margin (1 + T(s)) D / e) + 1` with e the least ending weight (1 + T gains at
    /// least e / D per roll), checked exactly in integers at every state: `D u - D Q u >= D`.
    /// Such a u exists only if the game ends with probability 1, so the check proves that too.
    /// Returns u(start), or `None` when no margin passes.
    pub fn length_bound(&self, x: &[u64]) -> Option<u64> {
        let cs = self.components();
        let p = self.players;
        let scale = (1u128 << TURN_BITS) as f64;
        let ratio = self.denominator as f64 / self.least_ending_weight().max(1) as f64;
        let d = i128::from(self.denominator);
        [1.001, 1.01, 1.1, 1.5, 2.0].into_iter().find_map(|margin| {
            let u = |s: usize| -> i128 {
                let t = turns(&x[s * cs..], p) as f64 / scale;
                ((1.0 + t) * ratio * margin).ceil() as i128 + 1
            };
            let holds = self.fold_states(
                true,
                |holds, pos, s| {
                    if *holds {
                        let mut qu = 0i128;
                        self.for_each_roll(pos, |roll, next| {
                            qu += i128::from(roll.weight) * u(next);
                        });
                        *holds = d * u(s) - qu >= d;
                    }
                },
                |a, b| a && b,
            );
            holds.then(|| u(self.start_state()) as u64)
        })
    }
}

/// The largest changes of a sweep, and whether a remaining-turns value outgrew the integers.
#[derive(Clone, Copy, Debug, Default)]
struct Moved {
    win: u64,
    turns: u128,
    overflow: bool,
}

impl Moved {
    /// Keeps the largest changes from a state's words `old` to its words `new`.
    #[inline]
    fn note(&mut self, p: usize, old: &[u64], new: &[u64]) {
        for (&o, &v) in old[..p].iter().zip(&new[..p]) {
            self.win = self.win.max(v.abs_diff(o));
        }
        let t = turns(new, p);
        self.turns = self.turns.max(t.abs_diff(turns(old, p)));
        self.overflow |= t > TURN_CEILING;
    }

    /// Writes the words `new` over a state's words `values`, keeping the largest changes.
    #[inline]
    fn replace(&mut self, p: usize, values: &mut [u64], new: &[u64]) {
        self.note(p, values, new);
        values[..p + 2].copy_from_slice(&new[..p + 2]);
    }

    /// The largest changes of both.
    fn merge(self, other: Moved) -> Moved {
        Moved {
            win: self.win.max(other.win),
            turns: self.turns.max(other.turns),
            overflow: self.overflow || other.overflow,
        }
    }

    /// The largest change of a win chance and of a remaining-turns value, `None` on overflow.
    fn result(self) -> Option<(u64, u128)> {
        (!self.overflow).then_some((self.win, self.turns))
    }
}

/// Division by D with a precomputed reciprocal: `round(a / D)`, saturating at `u64::MAX`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Divider {
    d: u64,
    /// floor(2^64 / D): `(n * inverse) >> 64` is floor(n / D) or one less, for every u64 n.
    inverse: u128,
}

impl Divider {
    pub fn new(d: u64) -> Divider {
        Divider {
            d,
            inverse: (1u128 << 64) / u128::from(d.max(1)),
        }
    }

    #[inline]
    fn rounded(self, a: u128) -> u64 {
        let n = a + u128::from(self.d / 2);
        match u64::try_from(n) {
            Ok(n) => {
                let q = ((u128::from(n) * self.inverse) >> 64) as u64;
                if n - q * self.d >= self.d {
                    q + 1
                } else {
                    q
                }
            }
            Err(_) => u64::try_from(n / u128::from(self.d)).unwrap_or(u64::MAX),
        }
    }

    /// `round(a / D)` in full.
    #[inline]
    fn rounded_wide(self, a: u128) -> u128 {
        (a + u128::from(self.d / 2)) / u128::from(self.d)
    }
}

/// The remaining turns T of the state whose words begin `v` (P win chances first).
#[inline]
pub(super) fn turns(v: &[u64], p: usize) -> u128 {
    u128::from(v[p]) | (u128::from(v[p + 1]) << 64)
}

/// State number of the positions `pos` (mover first), base m.
pub(super) fn encode(pos: &[usize], m: usize) -> usize {
    pos.iter().fold(0, |s, &q| s * m + q)
}

/// The lexicographically smallest positions in `0..m` that add up to `sum`.
fn fill_smallest(pos: &mut [usize], mut sum: usize, m: usize) {
    let p = pos.len();
    for (i, q) in pos.iter_mut().enumerate() {
        let room = (p - 1 - i) * (m - 1);
        *q = sum.saturating_sub(room);
        sum -= *q;
    }
}

/// The lexicographically next positions with the same sum; false after the last.
fn next_same_sum(pos: &mut [usize], m: usize) -> bool {
    let p = pos.len();
    let mut suffix = pos[p - 1];
    for i in (0..p - 1).rev() {
        if pos[i] < m - 1 && suffix > 0 {
            pos[i] += 1;
            fill_smallest(&mut pos[i + 1..], suffix - 1, m);
            return true;
        }
        suffix += pos[i];
    }
    false
}
