//! Certified float solves of a joint race chain too large for rational arithmetic, one layer
//! at a time: the answers of [`super::shared`] on boards whose chain has hundreds of thousands of
//! states (two players on seed 003's 200 squares).
//!
//! # The chain
//!
//! [`LayeredChain::build`] walks the states reachable from a [`TurnModel`]'s start (each turn
//! from [`TurnModel::turn`], the one compound move) and keeps every transient state's turn as
//! integer weights over the row's own denominator `d_s`: `w_sj / d_s` to transient state j, and
//! for each seat the weight of the turns it wins. The states are sorted by a caller's key
//! `(layer, order)`: a turn may lead only to its own layer or to an earlier one (on a shared
//! board the set of used-up jumps only grows, so the layer is that set, the largest first), and
//! within a layer the order is the sweep order (the seats' squares summed, the largest first:
//! a turn mostly moves forward, so a sweep reads mostly values already swept).
//!
//! # What is solved
//!
//! For each seat k, `W_k = b_k + Q W_k` with `b_k(s)` the chance that the turn from s is won by
//! k; for the length, `R = [seat 1 to move] + Q R` (the rounds begun). Seat k wins with
//! `W_k(start)`; the expected length in rounds is `R(start)`.
//!
//! # What is proved
//!
//! The method of [`super::relative`], over layers:
//!
//! 1. Gauss-Seidel sweeps in floats, layer after layer (a layer reads only itself and the
//!    layers already solved); v, their rounding to multiples of 2^-60, is an exact rational
//!    vector. The residual `r = b + Q v - v` is computed exactly in integers (`d_s r_s` is an
//!    integer over 2^60), one step of iterative refinement (`e = r + Q e`, again by layers)
//!    moves v near the solution, and the residual of the refined v is computed exactly again.
//! 2. A vector u >= 0 with `u - Q u >= 1` (the expected remaining turns, rounded up with a
//!    margin) is checked exactly in integers; it exists only if the game ends with probability
//!    1, so the check proves that too. Each component's error `e = X - v` satisfies
//!    `|e| <= Q |e| + max|r|`, so `|e| <= max|r| u` (Kemeny and Snell, *Finite Markov Chains*,
//!    theorem 3.2.1: `(I - Q)^-1` is the nonnegative sum of the powers of Q).
//!
//! Every answer is the interval `v(start) ± max|r| u(start)`, about 1e-15 wide.

use std::collections::{HashMap, VecDeque};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::knockoff::RaceState;
use crate::chain::TurnModel;
use crate::num::interval::Interval;

/// The scale of the certified centers: v = v_int / 2^60.
const SCALE_BITS: u32 = 60;

/// The largest row denominator taken (integer residuals stay far inside i128).
pub const MAX_DENOMINATOR: u64 = 1 << 32;

/// The most Gauss-Seidel sweeps of one layer (the residual check catches a sweep stopped
/// early).
const MAX_SWEEPS: usize = 20_000;

/// The largest value a component may have (expected rounds included): 2^40.
const MAX_VALUE: f64 = (1u64 << 40) as f64;

/// Why a layered chain was not built or not certified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayeredError {
    /// More reachable states than allowed.
    #[error("more than {0} reachable states")]
    TooLarge(usize),
    /// A turn's probabilities have a denominator above [`MAX_DENOMINATOR`].
    #[error("a turn's probabilities have a denominator above 2^32")]
    Denominator,
    /// A turn can go on for ever, or no bound on the game's length was proved.
    #[error("no certified bound on the game's length was found (the game may never end)")]
    NotCertified,
}

/// A joint race chain as integer weights, its states in layers (module doc).
#[derive(Clone, Debug)]
pub struct LayeredChain<S> {
    /// The transient states in the race's sweep order.
    states: Vec<S>,
    /// The race's sweeps: the states in their own order.
    race_sweeps: Sweeps,
    /// The sweeps of every other solve: the settling order.
    sweeps: Sweeps,
    /// Row s is `cols[first[s]..first[s + 1]]`, with its weights.
    first: Vec<usize>,
    cols: Vec<u32>,
    weights: Vec<u64>,
    /// `d_s`.
    denominator: Vec<u64>,
    /// `won[s * seats + k]`: the weight of the turns from s that seat k wins.
    won: Vec<u64>,
    seats: usize,
    start: usize,
    /// Row s's turns that ate are `eaten[eaten_first[s]..eaten_first[s + 1]]`: (column, what
    /// they ate, weight), a part of the row's weights.
    eaten_first: Vec<usize>,
    eaten: Vec<(u32, u64, u64)>,
    /// Row s's turns by what they ate, won or not: `ate[ate_first[s]..ate_first[s + 1]]`.
    ate_first: Vec<usize>,
    ate: Vec<(u64, u64)>,
    /// The seat to move in each state.
    mover: Vec<u32>,
    /// `uneaten[s]`: bit j is set when the game reaches s from the start along turns that
    /// did not eat apple j (s is a state of the race to apple j).
    uneaten: Vec<u64>,
}

/// An order to sweep the states in, cut into layers.
#[derive(Clone, Debug)]
struct Sweeps {
    /// The states in sweep order.
    order: Vec<u32>,
    /// Layer l is `order[layers[l]..layers[l + 1]]`.
    layers: Vec<usize>,
    /// Per layer: every state reads only states before it (then one sweep solves the layer
    /// exactly, and a second would change nothing).
    triangular: Vec<bool>,
}

/// The turn from one state, as integer weights over one denominator.
struct Row {
    to: Vec<(usize, u64)>,
    won: Vec<u64>,
    denominator: u64,
    /// The part of `to` whose turns ate: (state, what they ate, weight).
    eaten: Vec<(usize, u64, u64)>,
    /// What the turns ate, whether they won or not: (what, weight).
    ate: Vec<(u64, u64)>,
    /// The seat that moves.
    mover: usize,
}

/// The two orders of a chain's states ([`LayeredChain::build`]): `race` sorts the states and
/// orders the sweeps of the race itself, `settle` the sweeps of every solve whose values are
/// refined until they settle (the bounds on the length and the race to each apple). Each is a
/// key `(layer, order)` (module doc).
#[derive(Clone, Copy, Debug)]
pub struct Keys<Race, Settle> {
    /// The race's order.
    pub race: Race,
    /// The settling order.
    pub settle: Settle,
}

/// How [`LayeredChain::build_eating`] reads a model whose states also say what the turn that
/// led there ate (a bit per apple): `split` parts such a state into the chain's state and the
/// bits, `join` makes the state a turn begins in (nothing eaten yet) and `mover` names the seat
/// that moves in a state (the one who eats).
#[derive(Clone, Copy, Debug)]
pub struct Eating<Split, Join, Mover> {
    /// A model's state as the chain's state and what the turn ate.
    pub split: Split,
    /// The model's state a turn from a chain's state begins in.
    pub join: Join,
    /// The seat to move in a chain's state.
    pub mover: Mover,
}

impl<S: RaceState> LayeredChain<S> {
    /// The chain of `model` for `seats` players, states sorted by `keys` (module doc), at most
    /// `limit` states.
    ///
    /// # Errors
    ///
    /// [`LayeredError::TooLarge`] above `limit` states, [`LayeredError::Denominator`] for a
    /// turn's denominator above [`MAX_DENOMINATOR`], [`LayeredError::NotCertified`] for a turn
    /// that can go on for ever.
    pub fn build<M, K, L>(
        model: &M,
        seats: usize,
        keys: &Keys<impl Fn(&S) -> K, impl Fn(&S) -> L>,
        limit: usize,
    ) -> Result<LayeredChain<S>, LayeredError>
    where
        M: TurnModel<State = S>,
        K: Ord,
        L: Ord,
    {
        let eating = Eating {
            split: |s: S| (s, 0),
            join: S::clone,
            mover: |_: &S| 0,
        };
        LayeredChain::build_eating(model, seats, keys, limit, &eating)
    }

    /// [`LayeredChain::build`] of a model whose states also say what the turn that led there
    /// ate ([`Eating`]): the chain's states are the states without it, its rows the turns with
    /// the eaten outcomes merged (the same rows as the model that forgets them), and each row
    /// also keeps what its turns ate, for [`LayeredChain::solve_eats`].
    ///
    /// # Errors
    ///
    /// As [`LayeredChain::build`].
    pub fn build_eating<M, K, L, T>(
        model: &M,
        seats: usize,
        keys: &Keys<impl Fn(&S) -> K, impl Fn(&S) -> L>,
        limit: usize,
        eating: &Eating<impl Fn(T) -> (S, u64), impl Fn(&S) -> T, impl Fn(&S) -> usize>,
    ) -> Result<LayeredChain<S>, LayeredError>
    where
        M: TurnModel<State = T>,
        K: Ord,
        L: Ord,
    {
        let (start, _) = (eating.split)(model.start());
        let mut found: HashMap<S, usize> = HashMap::from([(start.clone(), 0)]);
        let mut order = vec![start];
        let mut rows: Vec<Row> = Vec::new();
        let mut queue = VecDeque::from([0usize]);
        let stage = crate::progress::Stage::begin("building the joint chain", None);
        while let Some(i) = queue.pop_front() {
            if i % crate::progress::ROWS_PER_REPORT == 0 {
                stage.advance(i as u64);
            }
            let turn = model.turn(&(eating.join)(&order[i]));
            if turn.endless {
                return Err(LayeredError::NotCertified);
            }
            let d = turn
                .next
                .iter()
                .fold(BigInt::one(), |d, (_, p)| d.lcm(p.denom()));
            let d = d.to_u64().filter(|&d| d <= MAX_DENOMINATOR);
            let d = d.ok_or(LayeredError::Denominator)?;
            let mut row = Row {
                to: Vec::with_capacity(turn.next.len()),
                won: vec![0; seats],
                denominator: d,
                eaten: Vec::new(),
                ate: Vec::new(),
                mover: (eating.mover)(&order[i]),
            };
            for (next, p) in turn.next {
                let w = (p.numer() * BigInt::from(d) / p.denom())
                    .to_u64()
                    .expect("at most d");
                let (next, ate) = (eating.split)(next);
                if ate != 0 {
                    row.ate.push((ate, w));
                }
                if let Some(k) = next.winner() {
                    row.won[k] += w;
                    continue;
                }
                let j = match found.get(&next) {
                    Some(&j) => j,
                    None => {
                        if order.len() >= limit {
                            return Err(LayeredError::TooLarge(limit));
                        }
                        found.insert(next.clone(), order.len());
                        order.push(next);
                        queue.push_back(order.len() - 1);
                        order.len() - 1
                    }
                };
                if ate != 0 {
                    row.eaten.push((j, ate, w));
                }
                // The outcomes that differ only in what they ate come one after another.
                match row.to.last_mut() {
                    Some((last, sum)) if *last == j => *sum += w,
                    _ => row.to.push((j, w)),
                }
            }
            rows.push(row);
        }
        drop(found);
        Ok(LayeredChain::sorted(order, rows, seats, keys))
    }

    /// The chain with its states in the race's order, and the layers of both orders.
    fn sorted<K: Ord, L: Ord>(
        order: Vec<S>,
        rows: Vec<Row>,
        seats: usize,
        keys: &Keys<impl Fn(&S) -> K, impl Fn(&S) -> L>,
    ) -> LayeredChain<S> {
        let race_keys: Vec<K> = order.iter().map(&keys.race).collect();
        let mut ids: Vec<usize> = (0..order.len()).collect();
        ids.sort_by(|&a, &b| {
            race_keys[a]
                .cmp(&race_keys[b])
                .then_with(|| order[a].cmp(&order[b]))
        });
        drop(race_keys);
        let mut rank = vec![0u32; order.len()];
        for (r, &i) in ids.iter().enumerate() {
            rank[i] = r as u32;
        }
        let mut chain = LayeredChain {
            states: Vec::with_capacity(order.len()),
            race_sweeps: Sweeps::default(),
            sweeps: Sweeps::default(),
            first: vec![0],
            cols: Vec::new(),
            weights: Vec::new(),
            denominator: Vec::with_capacity(order.len()),
            won: Vec::with_capacity(order.len() * seats),
            seats,
            start: rank[0] as usize,
            eaten_first: vec![0],
            eaten: Vec::new(),
            ate_first: vec![0],
            ate: Vec::new(),
            mover: Vec::with_capacity(order.len()),
            uneaten: Vec::new(),
        };
        for &i in &ids {
            let row = &rows[i];
            for &(j, w) in &row.to {
                chain.cols.push(rank[j]);
                chain.weights.push(w);
            }
            chain.first.push(chain.cols.len());
            let eaten = row.eaten.iter().map(|&(j, a, w)| (rank[j], a, w));
            chain.eaten.extend(eaten);
            chain.eaten_first.push(chain.eaten.len());
            chain.ate.extend_from_slice(&row.ate);
            chain.ate_first.push(chain.ate.len());
            chain.mover.push(row.mover as u32);
            chain.denominator.push(row.denominator);
            chain.won.extend_from_slice(&row.won);
        }
        chain.states = ids.iter().map(|&i| order[i].clone()).collect();
        chain.uneaten = uneaten(&chain);
        chain.race_sweeps = Sweeps::new(&chain, (0..chain.states.len() as u32).collect());
        let settle_keys: Vec<L> = chain.states.iter().map(&keys.settle).collect();
        let mut settle: Vec<u32> = (0..chain.states.len() as u32).collect();
        settle.sort_by(|&a, &b| settle_keys[a as usize].cmp(&settle_keys[b as usize]));
        drop(settle_keys);
        chain.sweeps = Sweeps::new(&chain, settle);
        chain
    }
}

impl Sweeps {
    /// The sweeps of `chain`'s states in `order`, and their layers: a new layer begins wherever
    /// no state before it reads a state from there on, so a layer, once solved, is never
    /// changed again (an order that does not layer the chain gives one layer, still correct).
    fn new<S>(chain: &LayeredChain<S>, order: Vec<u32>) -> Sweeps {
        let n = order.len();
        let mut position = vec![0u32; n];
        for (p, &s) in order.iter().enumerate() {
            position[s as usize] = p as u32;
        }
        let reads = |p: usize| {
            let s = order[p] as usize;
            chain.cols[chain.first[s]..chain.first[s + 1]]
                .iter()
                .map(|&j| position[j as usize] as usize)
        };
        // The furthest state read by any state up to p.
        let mut furthest = 0usize;
        let mut layers = vec![0];
        for p in 0..n {
            furthest = reads(p).fold(furthest, usize::max);
            if p + 1 < n && furthest <= p {
                layers.push(p + 1);
            }
        }
        layers.push(n);
        let triangular = layers
            .windows(2)
            .map(|l| (l[0]..l[1]).all(|p| reads(p).all(|j| j < p)))
            .collect();
        Sweeps {
            order,
            layers,
            triangular,
        }
    }

    /// The number of layers solved one after another.
    fn layer_count(&self) -> usize {
        self.layers.len() - 1
    }
}

impl Default for Sweeps {
    fn default() -> Sweeps {
        Sweeps {
            order: Vec::new(),
            layers: vec![0, 0],
            triangular: vec![true],
        }
    }
}

/// Each state's apples not yet eaten on some way there ([`LayeredChain::uneaten`]): all bits
/// at the start, then along every turn the bits of the apples it did not eat, until nothing
/// changes.
fn uneaten<S: RaceState>(chain: &LayeredChain<S>) -> Vec<u64> {
    let mut bits = vec![0u64; chain.first.len() - 1];
    bits[chain.start] = !0;
    let mut queue = vec![chain.start];
    while let Some(s) = queue.pop() {
        let row = chain.first[s]..chain.first[s + 1];
        let eaten = chain.eaten_at(s);
        for (&col, &w) in chain.cols[row.clone()].iter().zip(&chain.weights[row]) {
            // The turns to col that ate nothing pass every bit; one that ate passes the rest.
            let mut rest = w;
            let mut passes = 0u64;
            for &(_, ate, w) in eaten.iter().filter(|e| e.0 == col) {
                rest -= w;
                passes |= !ate;
            }
            if rest > 0 {
                passes = !0;
            }
            let col = col as usize;
            let new = bits[s] & passes & !bits[col];
            if new != 0 {
                bits[col] |= new;
                queue.push(col);
            }
        }
    }
    bits
}

/// The positions of the ones in `bits`, lowest first.
fn ones(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            j
        })
    })
}

/// The certified answers: each seat's win and the expected rounds, as intervals.
#[derive(Clone, Debug)]
pub struct CertifiedRace {
    /// Seat k's chance to win.
    pub wins: Vec<Interval>,
    /// The expected length in rounds.
    pub rounds: Interval,
}

/// The components of one certified solve: the race's (each seat's win, then the rounds), or
/// for each apple j and seat k the chance that k's move is the first to eat j (component
/// `j seats + k`), whose chain leaves out the turns that ate j (they end that race).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solved {
    /// One component whose constant is 1 a turn: the expected turns.
    Length,
    /// Per apple j, the expected turns until j is eaten or the game ends.
    Lengths {
        apples: usize,
    },
    Race,
    Eats {
        apples: usize,
    },
}

impl<S: RaceState> LayeredChain<S> {
    /// The number of components of `solved`.
    fn components(&self, solved: Solved) -> usize {
        match solved {
            Solved::Length => 1,
            Solved::Lengths { apples } => apples,
            Solved::Race => self.seats + 1,
            Solved::Eats { apples } => apples * self.seats,
        }
    }

    /// Component c's constant at state s, times `d_s`: for the race, each seat's winning
    /// weight, then `d_s` when seat 1 is to move; for the apples, the weight of the turns from
    /// s that ate apple j when seat k moves there.
    fn constant(&self, solved: Solved, s: usize, c: usize) -> u64 {
        match solved {
            Solved::Race if c < self.seats => self.won[s * self.seats + c],
            Solved::Race if self.states[s].begins_round() => self.denominator[s],
            Solved::Race => 0,
            Solved::Length | Solved::Lengths { .. } => self.denominator[s],
            Solved::Eats { .. } => {
                let (j, k) = (c / self.seats, c % self.seats);
                if self.mover[s] as usize != k {
                    return 0;
                }
                self.ate[self.ate_first[s]..self.ate_first[s + 1]]
                    .iter()
                    .filter(|&&(bits, _)| bits >> j & 1 == 1)
                    .map(|&(_, w)| w)
                    .sum()
            }
        }
    }

    /// The components per apple when `solved`'s chains leave out the turns that ate it.
    fn per_apple(&self, solved: Solved) -> Option<usize> {
        match solved {
            Solved::Eats { .. } => Some(self.seats),
            Solved::Lengths { .. } => Some(1),
            Solved::Length | Solved::Race => None,
        }
    }

    /// Whether component c of `solved` is a value at state s: always for the race and its
    /// length; for an apple's components, when s is a state of the race to that apple (the
    /// others are never read by it and stay 0).
    fn live(&self, solved: Solved, s: usize, c: usize) -> bool {
        match self.per_apple(solved) {
            Some(per) => self.uneaten[s] >> (c / per) & 1 == 1,
            None => true,
        }
    }

    /// The turns from s that ate, each as (column, what it ate, weight).
    fn eaten_at(&self, s: usize) -> &[(u32, u64, u64)] {
        &self.eaten[self.eaten_first[s]..self.eaten_first[s + 1]]
    }

    /// Gauss-Seidel sweeps of `x = b + Q x` (x[s * C + c], C components of `solved`), layer
    /// after layer, each until no value moves by more than `tolerance` times (1 + its size);
    /// an apple's components leave out the turns that ate it.
    fn sweep(&self, solved: Solved, b: &[f64], x: &mut [f64], tolerance: f64) {
        let cs = self.components(solved);
        let prob: Vec<f64> = (0..self.states.len())
            .flat_map(|s| {
                let d = self.denominator[s] as f64;
                self.weights[self.first[s]..self.first[s + 1]]
                    .iter()
                    .map(move |&w| w as f64 / d)
            })
            .collect();
        let sweeps = match solved {
            Solved::Race => &self.race_sweeps,
            _ => &self.sweeps,
        };
        let stage = crate::progress::Stage::begin(
            "sweeping layer by layer",
            Some(sweeps.layer_count() as u64),
        );
        for l in 0..sweeps.layer_count() {
            stage.advance(l as u64);
            let layer = &sweeps.order[sweeps.layers[l]..sweeps.layers[l + 1]];
            for _ in 0..MAX_SWEEPS {
                let moved = match cs {
                    1 => self.sweep_layer::<1>(solved, layer, &prob, b, x, cs),
                    3 => self.sweep_layer::<3>(solved, layer, &prob, b, x, cs),
                    6 => self.sweep_layer::<6>(solved, layer, &prob, b, x, cs),
                    12 => self.sweep_layer::<12>(solved, layer, &prob, b, x, cs),
                    _ => self.sweep_layer::<0>(solved, layer, &prob, b, x, cs),
                };
                if sweeps.triangular[l] || moved <= tolerance || !moved.is_finite() {
                    break;
                }
            }
        }
    }

    /// One Gauss-Seidel sweep of the states of `layer` in their order, in place, for `cs`
    /// components; the largest move of a live component, relative to (1 + its size). `C` is
    /// `cs` when the compiler should know it (the widths of two seats and of six apples: the
    /// copies and sums of a state's components then unrolled, not calls), else 0.
    fn sweep_layer<const C: usize>(
        &self,
        solved: Solved,
        layer: &[u32],
        prob: &[f64],
        b: &[f64],
        x: &mut [f64],
        cs: usize,
    ) -> f64 {
        let cs = if C == 0 { cs } else { C };
        let mut acc = vec![0.0f64; cs];
        let mut lanes = [0.0f64; 4];
        for &s in layer {
            let s = s as usize;
            acc.copy_from_slice(&b[s * cs..(s + 1) * cs]);
            let row = self.first[s]..self.first[s + 1];
            for (&col, &p) in self.cols[row.clone()].iter().zip(&prob[row]) {
                let base = col as usize * cs;
                for (a, v) in acc.iter_mut().zip(&x[base..base + cs]) {
                    *a += p * v;
                }
            }
            if let Some(per) = self.per_apple(solved) {
                let d = self.denominator[s] as f64;
                for &(col, bits, w) in self.eaten_at(s) {
                    let (p, base) = (w as f64 / d, col as usize * cs);
                    for j in ones(bits) {
                        let apple = j * per..(j + 1) * per;
                        for (a, v) in acc[apple.clone()].iter_mut().zip(&x[base..][apple]) {
                            *a -= p * v;
                        }
                    }
                }
            }
            // The largest move, in four running maxima (the same maximum in any order, without
            // waiting on one).
            let at = &mut x[s * cs..(s + 1) * cs];
            for (c, (old, &a)) in at.iter_mut().zip(acc.iter()).enumerate() {
                if self.live(solved, s, c) {
                    lanes[c % 4] = lanes[c % 4].max((a - *old).abs() / (1.0 + a.abs()));
                    *old = a;
                }
            }
        }
        lanes.iter().fold(0.0f64, |m, &l| m.max(l))
    }

    /// The exact residuals `d_s (b + Q v - v)` in units of 2^-60, component by component.
    fn residuals(&self, solved: Solved, center: &[i128]) -> Vec<i128> {
        let cs = self.components(solved);
        let one: i128 = 1 << SCALE_BITS;
        let mut out = vec![0i128; center.len()];
        for s in 0..self.states.len() {
            let d = i128::from(self.denominator[s]);
            for c in (0..cs).filter(|&c| self.live(solved, s, c)) {
                let constant = i128::from(self.constant(solved, s, c));
                let mut acc = constant * one - d * center[s * cs + c];
                for t in self.first[s]..self.first[s + 1] {
                    acc += i128::from(self.weights[t]) * center[self.cols[t] as usize * cs + c];
                }
                if let Some(per) = self.per_apple(solved) {
                    for &(col, bits, w) in self.eaten_at(s) {
                        if bits >> (c / per) & 1 == 1 {
                            acc -= i128::from(w) * center[col as usize * cs + c];
                        }
                    }
                }
                out[s * cs + c] = acc;
            }
        }
        out
    }

    /// For each component c of `solved` ([`Solved::Length`], or [`Solved::Lengths`] whose
    /// chains leave out the turns that ate each apple), the start's value of a vector u >= 0
    /// with `d_s u_s - sum w u >= d_s` at every state where c is live, checked exactly; `None`
    /// for a component where no such u was found.
    fn length_bound(&self, solved: Solved) -> Vec<Option<i64>> {
        let (n, cs) = (self.states.len(), self.components(solved));
        let mut t = vec![0.0f64; n * cs];
        self.sweep(
            solved,
            &vec![1.0; n * cs],
            &mut t,
            crate::prec::LENGTH_SWEEP_SETTLED,
        );
        (0..cs)
            .map(|c| {
                let live = || (0..n).filter(move |&s| self.live(solved, s, c));
                if !live().all(|s| t[s * cs + c].is_finite() && t[s * cs + c] < 1e12) {
                    return None;
                }
                let u = |s: usize, margin: f64| (t[s * cs + c] * margin).ceil() as i64 + 1;
                [1.01, 1.1, 1.5, 2.0].into_iter().find_map(|margin| {
                    let holds = live().all(|s| {
                        let d = i128::from(self.denominator[s]);
                        let mut qu: i128 = (self.first[s]..self.first[s + 1])
                            .map(|t| {
                                i128::from(self.weights[t])
                                    * i128::from(u(self.cols[t] as usize, margin))
                            })
                            .sum();
                        if let Some(per) = self.per_apple(solved) {
                            for &(col, bits, w) in self.eaten_at(s) {
                                if bits >> (c / per) & 1 == 1 {
                                    qu -= i128::from(w) * i128::from(u(col as usize, margin));
                                }
                            }
                        }
                        d * i128::from(u(s, margin)) - qu >= d
                    });
                    holds.then(|| u(self.start, margin))
                })
            })
            .collect()
    }

    /// Each seat's win and the expected rounds, certified (module doc), and for each of the
    /// first `apples` apples (bits of what a turn ate, a chain from
    /// [`LayeredChain::build_eating`]) and each seat k the chance that k's move is the first to
    /// eat it, certified: `E_jk = b_jk + Q_j E_jk`, with `b_jk(s)` the
    /// chance that the turn from s eats j when k moves there and `Q_j` the turns of Q that do
    /// not eat j. Apple j's components are values only at the states of its race (those the
    /// game reaches without eating it: the others are never read), so its residual and its
    /// bound on the length are checked there alone, and its correction sweeps until it
    /// settles ([`crate::prec::SWEEP_REFINED`]): the interval of the chain of that race alone.
    /// Each apple's error is bounded with the expected turns until it is eaten or
    /// the game ends ([`Solved::Lengths`]), or, when that bound is not proved, with the race's:
    /// `Q_j <= Q` entry by entry, so `u - Q_j u >= u - Q u >= 1`.
    ///
    /// # Errors
    ///
    /// [`LayeredError::NotCertified`] when no bound on the length was proved or a value is too
    /// large for the fixed point.
    pub fn solve_with_eats(
        &self,
        apples: usize,
    ) -> Result<(CertifiedRace, Vec<Vec<Interval>>), LayeredError> {
        let u = self.length_bound(Solved::Length)[0].ok_or(LayeredError::NotCertified)?;
        let race = self.certify(Solved::Race, &vec![u; self.seats + 1])?;
        // A chance lies in [0, 1], so the interval may be cut to it (never empty: it holds the
        // chance).
        let zero_one = |i: Interval| {
            let hi = i.hi.min(BigRational::one());
            Interval::new(i.lo.max(BigRational::zero()).min(hi.clone()), hi)
        };
        let mut race = race.into_iter();
        let wins = race.by_ref().take(self.seats).map(zero_one).collect();
        let rounds = race.next().expect("the rounds' component");
        let mut eats = Vec::with_capacity(apples);
        if apples > 0 {
            // The apples are certified together, by the sweeps this stage holds.
            let stage =
                crate::progress::Stage::begin("the race to each apple", Some(apples as u64));
            stage.advance(0);
            let lengths = Solved::Lengths { apples };
            let each = self.length_bound(lengths);
            let each: Vec<i64> = (0..apples * self.seats)
                .map(|c| each[c / self.seats].unwrap_or(u))
                .collect();
            let mut all = self.certify(Solved::Eats { apples }, &each)?.into_iter();
            for _ in 0..apples {
                eats.push(all.by_ref().take(self.seats).map(zero_one).collect());
            }
            stage.advance(apples as u64);
        }
        Ok((CertifiedRace { wins, rounds }, eats))
    }

    /// Every component of `solved` at the start, certified with `u[c]`, component c's bound u
    /// on the length at the start (module doc).
    fn certify(&self, solved: Solved, u: &[i64]) -> Result<Vec<Interval>, LayeredError> {
        let n = self.states.len();
        let cs = self.components(solved);
        let b: Vec<f64> = (0..n * cs)
            .map(|i| self.constant(solved, i / cs, i % cs) as f64 / self.denominator[i / cs] as f64)
            .collect();
        let mut x = vec![0.0f64; n * cs];
        self.sweep(solved, &b, &mut x, crate::prec::SWEEP_SETTLED);
        if !x.iter().all(|v| v.is_finite() && v.abs() < MAX_VALUE) {
            return Err(LayeredError::NotCertified);
        }
        let one = (1u64 << SCALE_BITS) as f64;
        let mut center: Vec<i128> = x.iter().map(|&v| (v * one).round() as i128).collect();
        // One step of iterative refinement: e = r / d + Q e, in units of 2^-60.
        let r: Vec<f64> = self
            .residuals(solved, &center)
            .iter()
            .enumerate()
            .map(|(i, &v)| v as f64 / self.denominator[i / cs] as f64)
            .collect();
        let mut e = vec![0.0f64; r.len()];
        // An apple's chances are corrected until they settle on the multiples of 2^-60 nearest
        // the solution (the race's, whose own rough correction its bound allows for, are not).
        let settled = match solved {
            Solved::Eats { .. } => crate::prec::SWEEP_REFINED,
            _ => crate::prec::SWEEP_ROUGH,
        };
        self.sweep(solved, &r, &mut e, settled);
        for (c, de) in center.iter_mut().zip(&e) {
            *c += de.round() as i128;
        }
        let residual = self.residuals(solved, &center);
        // max_s |d_s r_s| / d_s per component, exactly.
        let mut worst = vec![BigRational::zero(); cs];
        for (i, &v) in residual.iter().enumerate() {
            if v != 0 {
                let r = BigRational::new(
                    BigInt::from(v.unsigned_abs()),
                    BigInt::from(self.denominator[i / cs]),
                );
                if r > worst[i % cs] {
                    worst[i % cs] = r;
                }
            }
        }
        let scale = BigRational::from_integer(BigInt::one() << SCALE_BITS);
        let at = |c: usize| {
            let v = BigRational::from_integer(BigInt::from(center[self.start * cs + c])) / &scale;
            let radius = &worst[c] * BigInt::from(u[c]) / &scale;
            Interval::new(&v - &radius, &v + &radius)
        };
        Ok((0..cs).map(at).collect())
    }
}
