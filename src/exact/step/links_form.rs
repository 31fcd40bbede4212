//! The exact law of T stepped on a chain held as links only ([`LinkedChain`]): the route for
//! boards whose whole turns do not fit (gen-10000-again: 12 million entries with
//! denominators up to 6^572; here about 70,000 entries of words). [`super::IntegerChain`],
//! on the whole turns, is the route wherever those fit; the tests hold the two to the same
//! fractions.
//!
//! # The step
//!
//! As in `step/linked.rs`: with `T = E + W T` (W the links, one entry `g / d` per linked
//! state; E the ending rolls, numerators c over d, and the whole turns of the states without
//! a link), `v T = y E` with `y = v + y W`, summed in an order that puts every state before
//! the one its link leads to. With w the counts at scale s (`w = s v`), A the longest chain of
//! links and L the least common multiple of the whole turns' denominators:
//!
//! - `Y_x = d^A w_x + sum over links x' -> x of g (Y_x' / d)`, each division exact (`Y_x` is
//!   divisible by `d^(A - a(x))`, a(x) the longest chain of links into x, at most `A - 1` for
//!   a linked x; `step/linked.rs` proves it), so `Y = d^A s y`;
//! - `P_j = L sum over linked x of (Y_x / d) c_xj + sum over unlinked x of Y_x (L p_xj)`, the
//!   next turn's counts at scale `s d^A L`;
//! - the content (the gcd of the scale and every transient count) is divided out.
//!
//! `P(T = n)` is the final states' counts over the scale, `P(T > n)` the transient ones'.
//!
//! # Work
//!
//! Without cancellation the counts grow by `bits(d^A L)` a turn (1,500 bits on
//! gen-10000-again, whose longest run of sixes is 571 rolls), so n turns cost about
//! `entries n^2 bits(d^A L) / 128` limb products ([`LinkedLaw::work`]).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::{link_order, LinkedChain, LinkedTurn};
use crate::num::gcd::{gcd, reduced};

/// A [`LinkedChain`]'s turns as the exact stepping takes them.
#[derive(Clone, Debug)]
pub struct LinkedLaw {
    transient: usize,
    start: usize,
    /// The links' common denominator d.
    d: u64,
    /// `d^A`.
    d_pow: BigInt,
    /// L, the least common multiple of the whole turns' denominators.
    l: BigInt,
    /// The links in the order the sums take them: (from, to, g).
    steps: Vec<(usize, usize, u64)>,
    /// The linked states' ending rolls: (from, to, c).
    ends: Vec<(usize, usize, u64)>,
    /// The unlinked states' whole turns: (from, to, `L p`).
    whole: Vec<(usize, usize, BigInt)>,
    /// The entries held (ending rolls, links and whole turns' entries).
    entries: usize,
}

impl LinkedLaw {
    /// The stepping of `chain`, or `None` when its links' denominators differ or a link goes
    /// on with more than its denominator.
    pub fn new<S>(chain: &LinkedChain<S>) -> Option<LinkedLaw> {
        let turns = chain.turns();
        let links: Vec<_> = turns
            .iter()
            .map(|t| match t {
                LinkedTurn::Link(l) => Some(l),
                LinkedTurn::Whole(_) => None,
            })
            .collect();
        let d = links.iter().flatten().map(|l| l.denom).next().unwrap_or(1);
        if links
            .iter()
            .flatten()
            .any(|l| l.denom != d || l.goes_on > d)
        {
            return None;
        }
        let mut depth = vec![0u32; turns.len()];
        let mut steps = Vec::new();
        for i in link_order(&links)? {
            let link = links[i]?;
            steps.push((i, link.next, link.goes_on));
            depth[link.next] = depth[link.next].max(depth[i] + 1);
        }
        let a = depth.into_iter().max().unwrap_or(0);
        let mut l = BigInt::one();
        let mut ends = Vec::new();
        for (i, turn) in turns.iter().enumerate() {
            match turn {
                LinkedTurn::Link(link) => ends.extend(link.ends.iter().map(|&(j, c)| (i, j, c))),
                LinkedTurn::Whole(row) => {
                    for (_, p) in row {
                        l = crate::num::gcd::lcm(l, p.denom());
                    }
                }
            }
        }
        let whole: Vec<(usize, usize, BigInt)> = turns
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t {
                LinkedTurn::Whole(row) => Some((i, row)),
                LinkedTurn::Link(_) => None,
            })
            .flat_map(|(i, row)| {
                let l = &l;
                row.iter()
                    .map(move |(j, p)| (i, *j, p.numer() * (l / p.denom())))
            })
            .collect();
        Some(LinkedLaw {
            transient: chain.transient_count(),
            start: chain.start(),
            d,
            d_pow: BigInt::from(d).pow(a),
            l,
            entries: chain.entries(),
            steps,
            ends,
            whole,
        })
    }

    /// The bits the counts grow by a turn at most: those of `d^A L`.
    pub fn bits_per_turn(&self) -> u64 {
        (&self.d_pow * &self.l).bits()
    }

    /// The work of `turns` turns, in limb products: each entry multiplies a count of about
    /// `n bits_per_turn` bits at turn n.
    pub fn work(&self, turns: f64) -> f64 {
        let limbs_per_turn = self.bits_per_turn() as f64 / 64.0;
        self.entries as f64 * (turns * turns / 2.0 * limbs_per_turn + turns)
    }

    /// A stepper at turn 0, all the mass on the start.
    pub fn stepper(&self) -> LinkedStepper<'_> {
        let mut mass = vec![BigInt::zero(); self.transient];
        let started = self.start < self.transient;
        if started {
            mass[self.start] = BigInt::one();
        }
        LinkedStepper {
            law: self,
            mass,
            scale: BigInt::one(),
            turn: 0,
            ends_now: BigInt::zero(),
            survives: BigInt::from(u8::from(started)),
        }
    }
}

/// The law of the position turn by turn, exactly, over a [`LinkedLaw`].
#[derive(Clone, Debug)]
pub struct LinkedStepper<'a> {
    law: &'a LinkedLaw,
    /// The transient states' counts at `scale`.
    mass: Vec<BigInt>,
    scale: BigInt,
    turn: usize,
    /// The counts that reached a final state in the last turn, at `scale`.
    ends_now: BigInt,
    /// The transient counts' sum, at `scale`.
    survives: BigInt,
}

impl LinkedStepper<'_> {
    /// One more turn.
    pub fn step(&mut self) {
        let law = self.law;
        let t = law.transient;
        let mut y: Vec<BigInt> = self
            .mass
            .iter()
            .map(|w| match w.is_zero() {
                true => BigInt::zero(),
                false => w * &law.d_pow,
            })
            .collect();
        for &(from, to, g) in &law.steps {
            if y[from].is_zero() {
                continue;
            }
            let q = &y[from] / law.d;
            debug_assert!((&q * law.d) == y[from], "not an exact division");
            y[to] += &q * g;
            y[from] = q;
        }
        let mut linked = vec![BigInt::zero(); t];
        let mut ended_linked = BigInt::zero();
        for &(i, j, c) in &law.ends {
            if y[i].is_zero() {
                continue;
            }
            match linked.get_mut(j) {
                Some(p) => *p += &y[i] * c,
                None => ended_linked += &y[i] * c,
            }
        }
        let mut next: Vec<BigInt> = match law.l.is_one() {
            true => linked,
            false => linked.into_iter().map(|p| p * &law.l).collect(),
        };
        let mut ended = ended_linked * &law.l;
        for (i, j, c) in &law.whole {
            if y[*i].is_zero() {
                continue;
            }
            match next.get_mut(*j) {
                Some(p) => *p += &y[*i] * c,
                None => ended += &y[*i] * c,
            }
        }
        let scale = &self.scale * &law.d_pow * &law.l;
        // The content: the gcd of the scale and every count kept.
        let mut content = scale.clone();
        for p in next.iter().chain([&ended]) {
            if content.is_one() {
                break;
            }
            if !p.is_zero() {
                content = gcd(&content, p);
            }
        }
        if !content.is_one() {
            for p in next.iter_mut().filter(|p| !p.is_zero()) {
                *p /= &content;
            }
            ended /= &content;
        }
        self.scale = scale / &content;
        self.survives = next.iter().sum();
        self.mass = next;
        self.ends_now = ended;
        self.turn += 1;
    }

    /// The turns stepped.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// `P(T = n)` for the turn n just stepped.
    pub fn p_ends_now(&self) -> BigRational {
        reduced(self.ends_now.clone(), self.scale.clone())
    }

    /// `P(T > n)`.
    pub fn p_survives(&self) -> BigRational {
        reduced(self.survives.clone(), self.scale.clone())
    }
}

#[cfg(test)]
mod tests;
