//! The relative-position chain of [`super`] generated on the fly: the states are enumerated in
//! sweep order, every state's rolls are made from the one-player roll table when the state is
//! visited, and the values live in one array of fixed-point integers (no stored matrix, no
//! second copy). Gauss-Seidel sweeps solve for the values; a pass of the same shape computes
//! every residual exactly in integers, and another checks the bound on the game's length.

use rayon::prelude::*;

use super::layout::{Encoded, Layered, Layout};

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
    /// The squares several tokens may share: the start, and square 0 where nobody is knocked
    /// off. On every other square a landing sends the opponent there back to the start, so the
    /// states where two tokens share one are never reached ([`Game::closed`]).
    pub shared: Vec<bool>,
    /// The squares with a roll that leaves the mover where it was.
    pub stays: Vec<bool>,
}

/// Sequential passes over a layer's states whose mover may stay, after the layer's update.
const STAY_PASSES: usize = 2;

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

    /// The start state's number in `layout` (every seat on the start square).
    pub fn start_state(&self, layout: &impl Layout) -> usize {
        layout.index(&vec![self.start; self.players])
    }

    /// The positions as one base-m number ([`Game::sweep`]'s layout).
    pub fn encoded(&self) -> Encoded {
        Encoded {
            m: self.m,
            lead: self.lead,
            players: self.players,
        }
    }

    /// Whether no two tokens share a square other than the start and square 0: the states a
    /// race reaches, closed under the rolls.
    #[inline]
    pub fn closed(&self, pos: &[usize]) -> bool {
        pos.iter()
            .enumerate()
            .all(|(i, &q)| self.shared[q] || !pos[i + 1..].contains(&q))
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
    /// the next state's number in `layout`: the mover moved (and opponents on its landing
    /// square sent back), then, when the turn ends, the next seat becomes the mover.
    #[inline]
    fn for_each_roll<L: Layout>(&self, layout: &L, pos: &[usize], mut f: impl FnMut(&Roll, usize)) {
        let p = self.players;
        let others = &pos[1..];
        let base = layout.base(pos);
        for roll in &self.rolls[pos[0]] {
            let j = roll.to as usize;
            let next = if roll.knock && others.contains(&j) {
                let mut next = [0usize; MAX_COMPONENTS];
                let sent = |q: usize| if q == j { self.start } else { q };
                let (first, rest) = if roll.again { (0, 1) } else { (p - 1, 0) };
                next[first] = j;
                for (n, &q) in next[rest..rest + p - 1].iter_mut().zip(others) {
                    *n = sent(q);
                }
                layout.index(&next[..p])
            } else if roll.again {
                layout.again(base, j)
            } else {
                layout.pass(base, j)
            };
            f(roll, next);
        }
    }

    /// D times the right-hand side of every component of state `pos`, from the values `x`:
    /// `acc[k] = [k = 0] fin 2^60 + sum_again w W_k(s') + sum_pass w W_(k-1 mod P)(s')` and
    /// `acc[P] = sum_again w T(s') + sum_pass w (2^70 + T(s'))`.
    #[inline]
    fn right_side(
        &self,
        layout: &impl Layout,
        pos: &[usize],
        x: &[u64],
        acc: &mut [u128; MAX_COMPONENTS],
    ) {
        let (p, cs) = (self.players, self.components());
        *acc = [0; MAX_COMPONENTS];
        acc[0] = u128::from(self.finishing[pos[0]]) << WIN_BITS;
        self.for_each_roll(layout, pos, |roll, next| {
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
    fn updated(
        &self,
        layout: &impl Layout,
        pos: &[usize],
        x: &[u64],
        divider: Divider,
        new: &mut [u64],
    ) {
        let p = self.players;
        let mut acc = [0u128; MAX_COMPONENTS];
        self.right_side(layout, pos, x, &mut acc);
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
        let layout = self.encoded();
        self.for_each_state(|pos, s| {
            self.updated(&layout, pos, x, divider, &mut new);
            moved.replace(self.players, &mut x[s * cs..s * cs + cs], &new);
        });
        moved.result()
    }

    /// One sweep of the layered values `x` ([`Layered`]) by decreasing sum of the positions, on
    /// the threads of rayon's pool: a layer's states are updated together from the values before
    /// the layer began (the rolls that leave the sum unchanged read the layer's old values), so
    /// the result does not depend on the threads. Only the states a race reaches
    /// ([`Game::closed`]) are updated. The change of every state's remaining turns, in grid
    /// units, goes to `turn_changes`. Returns what [`Game::sweep`] returns.
    pub fn sweep_layers(
        &self,
        layout: &Layered,
        x: &mut [u64],
        buffer: &mut Vec<u64>,
        turn_changes: &mut [f32],
    ) -> Option<(u64, u128)> {
        let (p, cs) = (self.players, self.components());
        let divider = Divider::new(self.denominator);
        let threads = rayon::current_num_threads().max(1);
        let mut moved = Moved::default();
        for sum in (0..layout.layers()).rev() {
            let layer = layout.layer(sum);
            buffer.clear();
            buffer.resize(layer.len() * cs, 0);
            let pieces = layout.pieces(sum, 4 * threads);
            let mut outs = Vec::with_capacity(pieces.len());
            let mut rest = &mut buffer[..];
            for blocks in &pieces {
                let states = layout.block_states(sum, blocks.clone());
                let (out, tail) = rest.split_at_mut(states.len() * cs);
                outs.push((blocks.clone(), states.start, out));
                rest = tail;
            }
            let values: &[u64] = x;
            outs.into_par_iter().for_each(|(blocks, first, out)| {
                layout.for_each_in_groups(sum, blocks, |pos, s| {
                    if self.closed(pos) {
                        let k = s - first;
                        self.updated(layout, pos, values, divider, &mut out[k * cs..k * cs + cs]);
                    }
                });
            });
            // The layer's new words replace the old in the order of their numbers (streams
            // through memory), with their changes.
            let per = layout.runs() / layout.blocks();
            let mut parts = Vec::with_capacity(pieces.len());
            let (mut olds, mut news) = (&mut x[layer.start * cs..layer.end * cs], &buffer[..]);
            let mut changes = &mut turn_changes[layer.clone()];
            for blocks in &pieces {
                let states = layout.block_states(sum, blocks.clone());
                let (old, more_olds) = olds.split_at_mut(states.len() * cs);
                let (new, more_news) = news.split_at(states.len() * cs);
                let (change, more_changes) = changes.split_at_mut(states.len());
                parts.push((blocks.start * per..blocks.end * per, old, new, change));
                (olds, news, changes) = (more_olds, more_news, more_changes);
            }
            let layer_moved = parts
                .into_par_iter()
                .map(|(runs, old, new, change)| {
                    let mut moved = Moved::default();
                    let mut k = 0;
                    layout.for_each_in_runs(sum, runs, |pos, _| {
                        if self.closed(pos) {
                            let (old, new) =
                                (&mut old[k * cs..k * cs + cs], &new[k * cs..k * cs + cs]);
                            change[k] = (turns(new, p) as f64 - turns(old, p) as f64) as f32;
                            moved.replace(p, old, new);
                        }
                        k += 1;
                    });
                    moved
                })
                .reduce(Moved::default, Moved::merge);
            moved = moved.merge(layer_moved);
            if !self.stays.iter().any(|&s| s) {
                continue;
            }
            for _ in 0..STAY_PASSES {
                let mut new = [0u64; MAX_COMPONENTS];
                layout.for_each_in_runs(sum, 0..layout.runs(), |pos, s| {
                    if self.stays[pos[0]] && self.closed(pos) {
                        self.updated(layout, pos, x, divider, &mut new);
                        let old = &mut x[s * cs..s * cs + cs];
                        turn_changes[s] += (turns(&new, p) as f64 - turns(old, p) as f64) as f32;
                        moved.replace(p, old, &new);
                    }
                });
            }
        }
        moved.result()
    }

    /// The largest exact residual `|D (b + Q x) - D x|` of the win chances and of the remaining
    /// turns (in grid units: divide by D 2^62 and D 2^70), over the states of `layout` (in a
    /// [`Layered`] layout, those a race reaches).
    pub fn residuals<L: Layout>(&self, layout: &L, x: &[u64]) -> (u128, u128) {
        let (p, cs) = (self.players, self.components());
        let d = u128::from(self.denominator);
        layout.fold_states(
            (0u128, 0u128),
            |(win, turn), pos, s| {
                if !L::EVERY_STATE && !self.closed(pos) {
                    return;
                }
                let mut acc = [0u128; MAX_COMPONENTS];
                self.right_side(layout, pos, x, &mut acc);
                let values = &x[s * cs..s * cs + cs];
                for (&a, &v) in acc[..p].iter().zip(values) {
                    *win = (*win).max(a.abs_diff(d * u128::from(v)));
                }
                *turn = (*turn).max(acc[p].abs_diff(d * turns(values, p)));
            },
            |a, b| (a.0.max(b.0), a.1.max(b.1)),
        )
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
    pub fn length_estimate(&self, layout: &impl Layout, x: &[u64]) -> f64 {
        let cs = self.components();
        let t = turns(&x[self.start_state(layout) * cs..], self.players) as f64;
        let ratio = self.denominator as f64 / self.least_ending_weight().max(1) as f64;
        (1.0 + t / (1u128 << TURN_BITS) as f64) * ratio
    }

    /// A bound u on the expected remaining rolls, made from the remaining turns T in `x`:
    /// `u(s) = ceil(margin (1 + T(s)) D / e) + 1` with e the least ending weight (1 + T gains at
    /// least e / D per roll), checked exactly in integers at every state: `D u - D Q u >= D`.
    /// Such a u exists only if the game ends with probability 1, so the check proves that too.
    /// Returns u(start), or `None` when no margin passes.
    pub fn length_bound<L: Layout>(&self, layout: &L, x: &[u64]) -> Option<u64> {
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
            let holds = layout.fold_states(
                true,
                |holds, pos, s| {
                    if *holds && (L::EVERY_STATE || self.closed(pos)) {
                        let mut qu = 0i128;
                        self.for_each_roll(layout, pos, |roll, next| {
                            qu += i128::from(roll.weight) * u(next);
                        });
                        *holds = d * u(s) - qu >= d;
                    }
                },
                |a, b| a && b,
            );
            holds.then(|| u(self.start_state(layout)) as u64)
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
