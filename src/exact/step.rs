//! Exact stepping of the law of the game after n turns, kept in integers.
//!
//! # Formula
//!
//! With `p_0` the start vector and `P` the transition matrix, `p_n = p_(n-1) P`. Let D be the
//! common denominator of `P`'s entries, so `A = D P` is an integer matrix. Then
//! `v_n = D^n p_n = v_(n-1) A` is an integer vector: the loop needs no gcd, and
//! `P(T = n, ends in final state f) = v_n[f] / D^n` exactly.
//!
//! # How it is kept fast
//!
//! Measured on the Efi board (unlimited roll-again), D = 5 * 6^14 (39 bits) and the chain has
//! 2530 transitions, so `D^n` has 14,000 bits by the 372 turns it takes for P(T > n) to fall below
//! 1e-15. Three things keep a step cheap:
//!
//! - the matrix is stored flat (compressed rows, one `u64` limb per coefficient while D fits a
//!   word) and the vectors are flat arrays of `u64` limbs, updated in place with one
//!   multiply-and-add pass per transition (no allocation inside a step);
//! - D is factored once (trial division); after each step the common factor of the whole vector
//!   and the scale is divided out, one prime of D at a time. Most rows of Efi's chain have small
//!   denominators, so about half of D's bits cancel every turn: the numbers grow by about 18 bits a
//!   turn instead of 39, which halves the work;
//! - fractions are reduced with the same factors (a valuation per prime), not with a general gcd.
//!
//! The counts are therefore over a scale that divides `D^n` ([`Stepper::scale`]), not always
//! `D^n` itself.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::{Chain, Link, LinkedChain, LinkedTurn};
use crate::num::limbs::{
    divexact_odd, inverse_mod_word, mac, modexact_odd, shift_right, significant, to_big,
    valuation_word,
};

mod linked;
use linked::{Entry, LinkedTurns, Scratch, WholeTurns};

/// Trial division bound for factoring D: primes below it are found; a cofactor below its square
/// is then prime too.
const TRIAL_BOUND: u64 = 1 << 16;

/// One prime (or an unproven cofactor) of D.
#[derive(Clone, Debug)]
struct Factor {
    /// The factor.
    f: u64,
    /// Its exponent in D.
    in_d: u32,
    /// The largest k with f^k <= u64::MAX.
    chunk: u32,
}

impl Factor {
    fn new(f: u64, in_d: u32) -> Factor {
        let mut chunk = 0;
        let mut pow: u64 = 1;
        while let Some(next) = pow.checked_mul(f) {
            pow = next;
            chunk += 1;
        }
        Factor { f, in_d, chunk }
    }

    /// f^k for k <= chunk.
    fn pow(&self, k: u32) -> u64 {
        self.f.pow(k)
    }
}

/// A chain's transition matrix scaled to integers: `D P`.
#[derive(Clone, Debug)]
pub struct IntegerChain {
    denominator: BigInt,
    transient: usize,
    finals: usize,
    start: usize,
    /// Target state of each transition.
    col: Vec<usize>,
    /// The same transitions by target (compressed columns): the transitions into state j are
    /// `by_target[col_start[j]..col_start[j + 1]]`, each (source state, transition index).
    col_start: Vec<usize>,
    by_target: Vec<(usize, usize)>,
    /// Limbs per coefficient (1 while D < 2^64).
    coef_limbs: usize,
    /// True when every column's coefficients are single limbs summing to less than 2^64, so
    /// the products into one limb of one count can be summed in a `u128` without carries.
    lazy_carries: bool,
    /// D times each transition's probability, `coef_limbs` little-endian limbs each.
    coef: Vec<u64>,
    /// The primes of D (and possibly one unproven cofactor that fits a word).
    factors: Vec<Factor>,
    /// True when `factors` multiply to D and are all prime, so they reduce fractions alone.
    fully_factored: bool,
    /// The bit length of D.
    d_bits: u64,
    /// The turns through the chain's links (`step/linked.rs`), when it has them and they
    /// take fewer products.
    linked: Option<LinkedTurns>,
}

impl IntegerChain {
    /// Scales `chain`'s transitions by their common denominator; stepped through the chain's
    /// links when it has them and they save products (the same counts either way).
    pub fn new<S>(chain: &Chain<S>) -> IntegerChain
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        let links: Vec<_> = (0..chain.transient_count())
            .map(|i| chain.link(i))
            .collect();
        IntegerChain::with_links(chain, &links)
    }

    /// The whole turns only, never the links.
    #[cfg(test)]
    pub(crate) fn whole_turns<S>(chain: &Chain<S>) -> IntegerChain
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        IntegerChain::with_links(chain, &[])
    }

    /// `chain`'s transitions, stepped through `links` (one per transient state, or none) when
    /// [`LinkedTurns::new`] takes them.
    fn with_links<S>(chain: &Chain<S>, links: &[Option<&Link>]) -> IntegerChain
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        let d = chain.common_denominator();
        let du = d.magnitude().clone();
        let coef_limbs = du.to_u64_digits().len().max(1);
        let mut row_start = Vec::with_capacity(chain.transient_count() + 1);
        let mut col = Vec::new();
        let mut coef = Vec::new();
        row_start.push(0);
        for row in chain.rows() {
            for (j, p) in row {
                let a = p.numer().magnitude() * (&du / p.denom().magnitude());
                let mut limbs = a.to_u64_digits();
                limbs.resize(coef_limbs, 0);
                col.push(*j);
                coef.extend_from_slice(&limbs);
            }
            row_start.push(col.len());
        }
        let (factors, fully_factored) = factor(&du);
        let states = chain.states().len();
        let mut counts = vec![0usize; states + 1];
        for &j in &col {
            counts[j + 1] += 1;
        }
        for j in 0..states {
            counts[j + 1] += counts[j];
        }
        let col_start = counts.clone();
        let mut by_target = vec![(0, 0); col.len()];
        for i in 0..chain.transient_count() {
            for (k, &j) in col
                .iter()
                .enumerate()
                .take(row_start[i + 1])
                .skip(row_start[i])
            {
                by_target[counts[j]] = (i, k);
                counts[j] += 1;
            }
        }
        let lazy_carries = coef_limbs == 1
            && (0..states).all(|j| {
                by_target[col_start[j]..col_start[j + 1]]
                    .iter()
                    .try_fold(0u64, |sum, &(_, k)| sum.checked_add(coef[k]))
                    .is_some()
            });
        let linked = match (u64::try_from(&du), links.len() == chain.transient_count()) {
            (Ok(d), true) if coef_limbs == 1 => LinkedTurns::new(
                links,
                &WholeTurns {
                    d,
                    row_start: &row_start,
                    col: &col,
                    coef: &coef,
                    states,
                },
            ),
            _ => None,
        };
        IntegerChain {
            linked,
            lazy_carries,
            col_start,
            by_target,
            d_bits: du.bits(),
            denominator: d,
            transient: chain.transient_count(),
            finals: chain.states().len() - chain.transient_count(),
            start: chain.start(),
            col,
            coef_limbs,
            coef,
            factors,
            fully_factored,
        }
    }

    /// The stepping of a chain held as links only (`step/linked.rs`, "The links form"): D is
    /// `d^A L`. `None` when the links' denominators differ or a link goes on with more than
    /// its denominator.
    pub fn of_links<S>(chain: &LinkedChain<S>) -> Option<IntegerChain> {
        let turns = chain.turns();
        let links: Vec<Option<&Link>> = turns
            .iter()
            .map(|t| match t {
                LinkedTurn::Link(l) => Some(l),
                LinkedTurn::Whole(_) => None,
            })
            .collect();
        let mut l = BigInt::one();
        for turn in turns {
            if let LinkedTurn::Whole(row) = turn {
                for (_, p) in row {
                    l = crate::num::gcd::lcm(l, p.denom());
                }
            }
        }
        let limbs = |x: BigInt| x.magnitude().to_u64_digits();
        let (mut ends, mut whole): (Vec<Entry>, Vec<Entry>) = (Vec::new(), Vec::new());
        for (i, turn) in turns.iter().enumerate() {
            match turn {
                LinkedTurn::Link(link) => {
                    ends.extend(link.ends.iter().map(|&(j, c)| (j, i, vec![c])))
                }
                LinkedTurn::Whole(row) => whole.extend(
                    row.iter()
                        .map(|(j, p)| (*j, i, limbs(p.numer() * (&l / p.denom())))),
                ),
            }
        }
        // The final states no turn reaches hold no mass: they are left out.
        let states = ends
            .iter()
            .chain(&whole)
            .map(|e| e.0 + 1)
            .fold(chain.transient_count(), usize::max);
        let (linked, depth) =
            LinkedTurns::of_links(&links, (ends, whole, limbs(l.clone())), states)?;
        let d = links.iter().flatten().next().map_or(1, |link| link.denom);
        let denominator = BigInt::from(d).pow(depth) * l;
        let (factors, fully_factored) = factor(denominator.magnitude());
        Some(IntegerChain {
            d_bits: denominator.bits(),
            denominator,
            transient: chain.transient_count(),
            finals: states - chain.transient_count(),
            start: chain.start(),
            col: Vec::new(),
            col_start: vec![0; states + 1],
            by_target: Vec::new(),
            coef_limbs: linked.coef_limbs(),
            lazy_carries: false,
            coef: Vec::new(),
            factors,
            fully_factored,
            linked: Some(linked),
        })
    }

    /// The work of `turns` turns when the counts do not cancel (as on the links form), in
    /// limb products: each entry stepped (through the links when they are taken) multiplies a
    /// count of about `n bits(D) / 64` limbs at turn n.
    pub fn uncancelled_work(&self, turns: f64) -> f64 {
        let entries = self
            .linked
            .as_ref()
            .map_or(self.col.len(), LinkedTurns::entries) as f64;
        let limbs_per_turn = self.d_bits as f64 / 64.0;
        entries * (turns * turns / 2.0 * limbs_per_turn + turns)
    }

    /// The common denominator D.
    pub fn denominator(&self) -> &BigInt {
        &self.denominator
    }

    /// The number of transitions (nonzero entries of the matrix; none held on the links form).
    pub fn transitions(&self) -> usize {
        self.col.len()
    }

    /// A stepper at n = 0 (all mass on the start state).
    pub fn stepper(&self) -> Stepper<'_> {
        let n = self.transient + self.finals;
        let stride = 2;
        let mut mass = vec![0u64; n * stride];
        let mut len = vec![0usize; n];
        mass[self.start * stride] = 1;
        len[self.start] = 1;
        Stepper {
            chain: self,
            turn: 0,
            scale: BigInt::one(),
            exps: vec![0; self.factors.len()],
            stride,
            mass,
            len,
            next: Vec::new(),
            next_len: vec![0; n],
            scratch: Scratch::default(),
        }
    }
}

/// Splits `d` into primes below [`TRIAL_BOUND`] and a cofactor. Returns the factors and whether
/// they are all proven prime and multiply to `d`.
fn factor(d: &BigUint) -> (Vec<Factor>, bool) {
    let mut rest = d.clone();
    let mut out = Vec::new();
    let mut p = 2u64;
    while p < TRIAL_BOUND && !rest.is_one() {
        let mut e = 0;
        loop {
            let (q, r) = rest.div_rem(&BigUint::from(p));
            if !r.is_zero() {
                break;
            }
            rest = q;
            e += 1;
        }
        if e > 0 {
            out.push(Factor::new(p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if rest.is_one() {
        return (out, true);
    }
    let bound_sq = BigUint::from(TRIAL_BOUND) * BigUint::from(TRIAL_BOUND);
    match u64::try_from(&rest) {
        Ok(c) => {
            out.push(Factor::new(c, 1));
            (out, rest < bound_sq)
        }
        Err(_) => (out, false),
    }
}

/// The law of the game after `turn()` turns, as integers over a common `scale()`.
#[derive(Clone, Debug)]
pub struct Stepper<'a> {
    chain: &'a IntegerChain,
    turn: usize,
    /// The denominator of every count (a divisor of D^turn).
    scale: BigInt,
    /// The exponent of each factor of D in `scale` (for the primes it holds).
    exps: Vec<u32>,
    /// Limbs reserved per state.
    stride: usize,
    /// Transient states' counts, then the final states' counts of this turn: `stride` limbs each.
    mass: Vec<u64>,
    /// Significant limbs of each count.
    len: Vec<usize>,
    next: Vec<u64>,
    next_len: Vec<usize>,
    /// Room for the stepping through the links.
    scratch: Scratch,
}

/// This turn's counts, read while the next turn's are written.
struct Counts<'a> {
    mass: &'a [u64],
    len: &'a [usize],
    stride: usize,
}

impl Counts<'_> {
    /// The significant limbs of state i's count.
    #[inline]
    fn of(&self, i: usize) -> &[u64] {
        &self.mass[i * self.stride..i * self.stride + self.len[i]]
    }

    /// `out = sum over entries of count(i) * coef[t]` for single-limb coefficients whose sum is
    /// below 2^64: products summed per limb without carries (each < 2^64 * coefficient sum <
    /// 2^128), then one carry pass. `top` is the longest count among the sources. Inlined
    /// into both steppings' loops (whole turns and links), as it was into the one.
    #[inline(always)]
    fn sum_narrow(
        &self,
        entries: &[(usize, usize)],
        coef: &[u64],
        top: usize,
        wide: &mut Vec<u128>,
        out: &mut [u64],
    ) {
        wide.clear();
        wide.resize(top, 0);
        for &(i, t) in entries {
            let a = u128::from(coef[t]);
            for (w, &x) in wide.iter_mut().zip(self.of(i)) {
                *w += u128::from(x) * a;
            }
        }
        let mut carry: u128 = 0;
        for (k, o) in out.iter_mut().enumerate() {
            let w = wide.get(k).copied().unwrap_or(0);
            let (sum, over) = w.overflowing_add(carry);
            *o = sum as u64;
            carry = (sum >> 64) | (u128::from(over) << 64);
        }
        debug_assert!(carry == 0, "a count outgrew its stride");
    }

    /// The same sums for wide coefficients (`cl` limbs each), with a count of the u128
    /// overflows per limb.
    #[inline]
    fn sum_wide(
        &self,
        entries: &[(usize, usize)],
        coef: &[u64],
        cl: usize,
        wide: &mut Vec<u128>,
        overflows: &mut Vec<u64>,
        out: &mut [u64],
    ) {
        let width = out.len();
        wide.clear();
        wide.resize(width, 0);
        overflows.clear();
        overflows.resize(width + 1, 0);
        for &(i, t) in entries {
            let src = self.of(i);
            for (l, &a) in coef[t * cl..(t + 1) * cl].iter().enumerate() {
                let a = u128::from(a);
                for (k, &x) in src.iter().enumerate() {
                    let (sum, over) = wide[k + l].overflowing_add(u128::from(x) * a);
                    wide[k + l] = sum;
                    overflows[k + l] += u64::from(over);
                }
            }
        }
        // Limb k receives wide[k] (low word), wide[k - 1] (high word) and the overflows of
        // limb k - 2 (each worth 2^128).
        let mut carry: u128 = 0;
        for k in 0..width {
            let mut v = carry;
            let mut over = 0u64;
            let (a, o1) = v.overflowing_add(u128::from(wide[k] as u64));
            v = a;
            over += u64::from(o1);
            if k >= 1 {
                let (a, o2) = v.overflowing_add(wide[k - 1] >> 64);
                v = a;
                over += u64::from(o2);
            }
            if k >= 2 {
                let (a, o3) = v.overflowing_add(u128::from(overflows[k - 2]));
                v = a;
                over += u64::from(o3);
            }
            out[k] = v as u64;
            carry = (v >> 64) | (u128::from(over) << 64);
        }
        debug_assert!(carry == 0, "a count outgrew its stride");
    }
}

impl Stepper<'_> {
    /// Plays one more turn. Afterwards [`Stepper::absorbed`] holds the mass that reached each
    /// final state in exactly this turn.
    pub fn step(&mut self) {
        let c = self.chain;
        let states = c.transient + c.finals;
        self.make_room();
        let stride = self.stride;
        self.next.clear();
        self.next.resize(states * stride, 0);
        match &c.linked {
            Some(l) => self.fill_linked(l),
            None => self.fill_whole(),
        }
        for j in 0..states {
            self.next_len[j] = significant(&self.next[j * stride..(j + 1) * stride]);
        }
        std::mem::swap(&mut self.mass, &mut self.next);
        std::mem::swap(&mut self.len, &mut self.next_len);
        self.scale *= &c.denominator;
        for (e, f) in self.exps.iter_mut().zip(&c.factors) {
            *e += f.in_d;
        }
        self.turn += 1;
        self.remove_content();
    }

    /// Writes the next turn's counts at scale `scale() D` into `next`, by the whole turns.
    fn fill_whole(&mut self) {
        let c = self.chain;
        let (states, stride) = (c.transient + c.finals, self.stride);
        // Product scanning: each limb k of each new count is the sum over the transitions into
        // it of (limb k - l of the source) * (limb l of the coefficient), added into a 192-bit
        // accumulator. The products are independent of each other, unlike a multiply-and-add
        // pass per transition whose carries form one long chain.
        let cl = c.coef_limbs;
        let mut wide: Vec<u128> = Vec::new();
        let mut overflows: Vec<u64> = Vec::new();
        for j in 0..states {
            let entries = &c.by_target[c.col_start[j]..c.col_start[j + 1]];
            let top = entries.iter().map(|&(i, _)| self.len[i]).max().unwrap_or(0);
            if top == 0 {
                continue;
            }
            let width = (top + cl + 1).min(stride);
            let counts = Counts {
                mass: &self.mass,
                len: &self.len,
                stride,
            };
            let out = &mut self.next[j * stride..j * stride + width];
            if c.lazy_carries {
                counts.sum_narrow(entries, &c.coef, top, &mut wide, out);
            } else {
                counts.sum_wide(entries, &c.coef, cl, &mut wide, &mut overflows, out);
            }
        }
    }

    /// Grows the limbs per state (by half again) when the next turn's counts may not fit.
    fn make_room(&mut self) {
        let c = self.chain;
        let states = c.transient + c.finals;
        let max_len = self.len[..c.transient].iter().copied().max().unwrap_or(0);
        // Every new count is at most scale * D: that many limbs, plus one for carries.
        let need = (self.scale.bits() + c.d_bits) as usize / 64 + 2;
        let stride = self.stride.max(need).max(max_len + c.coef_limbs + 1);
        if stride > self.stride {
            let new_stride = stride + stride / 2;
            let mut grown = vec![0u64; states * new_stride];
            for i in 0..states {
                let l = self.len[i];
                grown[i * new_stride..i * new_stride + l]
                    .copy_from_slice(&self.mass[i * self.stride..i * self.stride + l]);
            }
            self.mass = grown;
            self.stride = new_stride;
        }
    }

    /// Divides every count and the scale by their common factors among D's primes: the least
    /// valuation of each prime over the nonzero counts (capped by its exponent in the scale),
    /// then one shift for the 2s and one exact division for the odd part.
    fn remove_content(&mut self) {
        let c = self.chain;
        let states = c.transient + c.finals;
        let stride = self.stride;
        let mut shift = 0u32;
        let mut odd: Vec<(u64, u32)> = Vec::new(); // (f^v, v) per odd factor chunk
        for (fi, f) in c.factors.iter().enumerate() {
            let cap = if f.f == 2 {
                self.exps[fi]
            } else {
                self.exps[fi].min(f.chunk)
            };
            if cap == 0 {
                continue;
            }
            let mut v = cap;
            let d = if f.f == 2 { 0 } else { f.pow(v) };
            let inv = if f.f == 2 { 0 } else { inverse_mod_word(d) };
            for i in 0..states {
                let l = self.len[i];
                if l == 0 {
                    continue;
                }
                let x = &self.mass[i * stride..i * stride + l];
                let here = if f.f == 2 {
                    let tz = x
                        .iter()
                        .position(|&w| w != 0)
                        .map_or(0, |p| p as u64 * 64 + u64::from(x[p].trailing_zeros()));
                    tz.min(u64::from(v)) as u32
                } else {
                    let r = modexact_odd(x, d, inv);
                    valuation_word(r % d, f.f, v)
                };
                v = v.min(here);
                if v == 0 {
                    break;
                }
            }
            if v == 0 {
                continue;
            }
            self.exps[fi] -= v;
            if f.f == 2 {
                shift = v;
            } else {
                odd.push((f.pow(v), v));
            }
        }
        if shift == 0 && odd.is_empty() {
            return;
        }
        // Multiply the odd parts together while they fit a word.
        let mut divisors: Vec<u64> = Vec::new();
        for (g, _) in odd {
            match divisors
                .last_mut()
                .and_then(|last| last.checked_mul(g).map(|p| (last, p)))
            {
                Some((last, p)) => *last = p,
                None => divisors.push(g),
            }
        }
        let inverses: Vec<u64> = divisors.iter().map(|&d| inverse_mod_word(d)).collect();
        for i in 0..states {
            let l = self.len[i];
            if l == 0 {
                continue;
            }
            let x = &mut self.mass[i * stride..i * stride + l];
            if shift > 0 {
                shift_right(x, shift);
            }
            for (&d, &inv) in divisors.iter().zip(&inverses) {
                divexact_odd(x, d, inv);
            }
            self.len[i] = significant(x);
        }
        if shift > 0 {
            self.scale >>= shift as usize;
        }
        for d in divisors {
            self.scale /= BigInt::from(d);
        }
    }

    /// The number of turns played so far.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The common denominator of every count here: a divisor of D^turn (the common factors of
    /// all counts are divided out as the stepper goes).
    pub fn scale(&self) -> &BigInt {
        &self.scale
    }

    fn count(&self, i: usize) -> BigInt {
        to_big(&self.mass[i * self.stride..i * self.stride + self.len[i]])
    }

    /// `scale()` times the probability of each transient state after `turn` turns.
    pub fn transient_mass(&self) -> Vec<BigInt> {
        (0..self.chain.transient).map(|i| self.count(i)).collect()
    }

    /// `scale()` times the probability that the game ended in each final state at exactly this
    /// turn.
    pub fn absorbed(&self) -> Vec<BigInt> {
        let c = self.chain;
        (c.transient..c.transient + c.finals)
            .map(|i| self.count(i))
            .collect()
    }

    /// The sum of the counts of states `range`, added in limbs.
    fn sum_counts(&self, range: std::ops::Range<usize>) -> BigInt {
        let width = range.clone().map(|i| self.len[i]).max().unwrap_or(0) + 1;
        let mut acc = vec![0u64; width + 1];
        for i in range {
            let x = &self.mass[i * self.stride..i * self.stride + self.len[i]];
            mac(&mut acc, x, 1);
        }
        to_big(&acc)
    }

    /// `scale()` times P(T = turn).
    pub fn ends_count(&self) -> BigInt {
        let c = self.chain;
        self.sum_counts(c.transient..c.transient + c.finals)
    }

    /// P(T = turn): the game ended at exactly this turn.
    pub fn p_ends_now(&self) -> BigRational {
        self.reduce(self.ends_count())
    }

    /// P(T > turn): the game is still going.
    pub fn p_survives(&self) -> BigRational {
        self.reduce(self.survival_count())
    }

    /// The integer `scale() * P(T > turn)`, cheap to compare against a threshold.
    pub fn survival_count(&self) -> BigInt {
        self.sum_counts(0..self.chain.transient)
    }

    /// `count / scale()` as a reduced fraction. When D is fully factored this takes one
    /// valuation per prime of D instead of a general gcd.
    pub fn reduce(&self, count: BigInt) -> BigRational {
        if count.is_zero() {
            return BigRational::zero();
        }
        if !self.chain.fully_factored {
            return BigRational::new(count, self.scale.clone());
        }
        let mut num = count;
        let mut den = self.scale.clone();
        for (f, &e) in self.chain.factors.iter().zip(&self.exps) {
            let fb = BigInt::from(f.f);
            let mut left = e;
            while left > 0 {
                let (q, r) = num.div_rem(&fb);
                if !r.is_zero() {
                    break;
                }
                num = q;
                den /= &fb;
                left -= 1;
            }
        }
        BigRational::new_raw(num, den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{builtin, Board};

    #[test]
    fn the_tiny_board_ends_at_turn_n_with_probability_n_minus_one_over_two_to_the_n() {
        // Worked by hand (boards/tiny.toml): T is the sum of two geometric(1/2) waits.
        let b = builtin("tiny").unwrap();
        let chain = Chain::for_board(&b);
        let ic = IntegerChain::new(&chain);
        let mut s = ic.stepper();
        for n in 1..=20i64 {
            s.step();
            let expect = BigRational::new((n - 1).into(), BigInt::from(2).pow(n as u32));
            assert_eq!(s.p_ends_now(), expect, "n = {n}");
            // P(T > n) = (n + 1) / 2^n.
            let surv = BigRational::new((n + 1).into(), BigInt::from(2).pow(n as u32));
            assert_eq!(s.p_survives(), surv, "n = {n}");
        }
    }

    /// The plain rational recurrence p_n = p_(n-1) P, with a gcd in every operation: the slow
    /// second method the limb arithmetic is checked against.
    fn rational_steps<S>(chain: &Chain<S>, turns: usize) -> Vec<(BigRational, BigRational)>
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        let t = chain.transient_count();
        let mut p = vec![BigRational::zero(); chain.states().len()];
        p[chain.start()] = BigRational::one();
        let mut out = Vec::new();
        for _ in 0..turns {
            let mut next = vec![BigRational::zero(); p.len()];
            for (i, pi) in p.iter().enumerate().take(t) {
                for (j, a) in chain.row(i) {
                    next[*j] += pi * a;
                }
            }
            let ends: BigRational = next[t..].iter().sum();
            let surv: BigRational = next[..t].iter().sum();
            out.push((ends, surv));
            for x in &mut next[t..] {
                *x = BigRational::zero();
            }
            p = next;
        }
        out
    }

    #[test]
    fn limb_stepping_with_content_removal_equals_the_rational_recurrence() {
        // Efi (D = 5 * 6^14, 39 bits: content is removed every turn) and the same board with a
        // d4 and forfeit on the 2nd top face; 30 turns each.
        let efi = builtin("efi").unwrap();
        let odd = Board::from_toml_str(
            "size = 30\nsnakes = [[29, 3], [17, 8]]\nladders = [[2, 21], [11, 26]]\n[rules]\ndie = 4\novershoot = \"bounce\"\nroll_again = 2\n",
            "t",
        )
        .unwrap();
        for board in [efi, odd] {
            let chain = Chain::for_board(&board);
            let ic = IntegerChain::new(&chain);
            let mut s = ic.stepper();
            for (n, (ends, surv)) in rational_steps(&chain, 30).into_iter().enumerate() {
                s.step();
                assert_eq!(s.p_ends_now(), ends, "n = {}", n + 1);
                assert_eq!(s.p_survives(), surv, "n = {}", n + 1);
                // The reduced fraction really is reduced.
                let p = s.p_ends_now();
                assert!(p.numer().gcd(p.denom()).is_one());
            }
        }
    }

    #[test]
    fn coefficients_wider_than_a_word_are_handled() {
        // Reversed Efi: D = 7958632679658370954690560 (83 bits), two limbs per coefficient.
        let rev = builtin("efi").unwrap().reversed().unwrap();
        let chain = Chain::for_board(&rev);
        let ic = IntegerChain::new(&chain);
        assert!(ic.denominator().bits() > 64);
        let mut s = ic.stepper();
        for (n, (ends, surv)) in rational_steps(&chain, 12).into_iter().enumerate() {
            s.step();
            assert_eq!(s.p_ends_now(), ends, "n = {}", n + 1);
            assert_eq!(s.p_survives(), surv, "n = {}", n + 1);
        }
    }

    #[test]
    fn factoring_finds_the_primes_of_d() {
        // 5 * 6^14 = 2^14 3^14 5; 2 * 4294967311 (a prime above 2^32, unproven by trial).
        let (f, full) = factor(&BigUint::from(391_820_820_480u64));
        assert!(full);
        let got: Vec<(u64, u32)> = f.iter().map(|f| (f.f, f.in_d)).collect();
        assert_eq!(got, vec![(2, 14), (3, 14), (5, 1)]);
        let (f, full) = factor(&BigUint::from(2u64 * 4_294_967_311));
        assert!(!full);
        assert_eq!(f.last().unwrap().f, 4_294_967_311);
    }

    #[test]
    fn exact_division_and_remainder_by_multiplication() {
        // x = 3^50 * 7 + 0 (divisible by 3^40 and by 7); checked against BigUint arithmetic.
        let x = BigUint::from(3u32).pow(50) * 7u32;
        let limbs = x.to_u64_digits();
        for d in [3u64, 9, 7, 21, 3u64.pow(40), 5, 11, 3u64.pow(39) * 5] {
            let inv = inverse_mod_word(d);
            assert_eq!(d.wrapping_mul(inv), 1);
            let r = modexact_odd(&limbs, d, inv);
            let divisible = (&x % d).is_zero();
            assert_eq!(r % d == 0, divisible, "d = {d}");
            if divisible {
                let mut y = limbs.clone();
                divexact_odd(&mut y, d, inv);
                assert_eq!(to_big(&y), BigInt::from(&x / d));
            }
        }
        let z = BigUint::from(1u32) << 130usize;
        let mut w = z.to_u64_digits();
        shift_right(&mut w, 67);
        assert_eq!(to_big(&w), BigInt::from(BigUint::from(1u32) << 63usize));
        // 3^50 * 7 has 3-valuation 50, capped at 40 by the modulus 3^40.
        let r = modexact_odd(&limbs, 3u64.pow(40), inverse_mod_word(3u64.pow(40)));
        assert_eq!(valuation_word(r % 3u64.pow(40), 3, 40), 40);
    }
}
