//! The compound move of a turn whose rolls that go on follow one path (the standard game: one
//! top throw, no draw), summed in integers. [`super::compound`] finds the in-turn states and the
//! rolls from each ([`super::compound::RollsFrom`], the one definition of what a roll does);
//! this file only adds up their probabilities.
//!
//! # Formula
//!
//! Level k of the path has the rolls' common denominator `d_k`, the numerator `g_k` of its one
//! roll that goes on, and numerators `c` for what ends there (a square, a reward). Reaching level
//! k has probability `x_k = G_k / D_k` with `G_k = g_0 ... g_(k-1)` and `D_k = d_0 ... d_(k-1)`,
//! so an amount `c` at level k is worth `c G_k / D_(k+1)`. When the last level goes on to level j
//! (a cycle j..=L of top throws), the levels from j on are visited `Dc / (Dc - Gc)` times as
//! often (`Dc`, `Gc` the products of `d_i`, `g_i` over the cycle: the geometric series).
//!
//! Each amount (a square's probability, a reward) is kept as one integer numerator over
//! `D_(k+1)` for the last level k that added to it (Horner's rule: moving to a later level
//! multiplies by the `d_i` between) and reduced once at the end, by a gcd with a machine word
//! when the numerator is one (a square reached from one level: `c / D_(k+1)`) and Lehmer's
//! otherwise. Rational arithmetic on each level, the old way, paid a binary gcd of
//! `D_k`'s bits per addition: on a 999-square board with a 3-faced die whose 3s roll again,
//! paths have 333 levels and the turn chain took 3.6 s to build.

use std::collections::BTreeMap;
use std::rc::Rc;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::compound::RollsFrom;
use super::{Turn, TurnRewards};
use crate::game::InTurn;
use crate::num::gcd;

/// An amount `num / D_(level+1)`.
#[derive(Clone)]
struct Acc {
    level: usize,
    num: BigInt,
}

/// One amount split at the cycle's first level `j`: the part added before j and the part added
/// from j on (to be multiplied by `Dc / (Dc - Gc)`).
#[derive(Clone, Default)]
struct Split {
    pre: Option<Acc>,
    cyc: Option<Acc>,
}

/// The path's levels: `d`, and the products the amounts need.
struct Levels {
    /// `d_k` per level.
    d: Vec<u128>,
    /// `D_(k+1)` per level.
    prefix: Vec<BigUint>,
    /// `G_k` per level.
    reach: Vec<BigUint>,
    /// The cycle's first level, with `Dc` and `Dc - Gc`.
    cycle: Option<(usize, BigUint, BigUint)>,
}

impl Levels {
    /// Adds `c G_k / D_(k+1)` at level `k` to `split` (levels come in increasing order).
    fn add(&self, split: &mut Split, k: usize, c: BigInt) {
        let on_cycle = self.cycle.as_ref().is_some_and(|(j, _, _)| k >= *j);
        let slot = if on_cycle {
            &mut split.cyc
        } else {
            &mut split.pre
        };
        let term = if self.reach[k].is_one() {
            c
        } else {
            c * BigInt::from(self.reach[k].clone())
        };
        match slot {
            None => {
                *slot = Some(Acc {
                    level: k,
                    num: term,
                })
            }
            Some(acc) => {
                for i in acc.level + 1..=k {
                    acc.num *= self.d[i];
                }
                acc.level = k;
                acc.num += term;
            }
        }
    }

    /// The exact value of `split`, reduced.
    fn value(&self, split: &Split) -> BigRational {
        match (&split.pre, &split.cyc, &self.cycle) {
            (None, None, _) => BigRational::zero(),
            (Some(p), None, _) => {
                let den = self.prefix[p.level].clone();
                reduced_by(p.num.clone(), den, &self.d[..=p.level], None)
            }
            (pre, Some(c), Some((_, dc, left))) => {
                let mut num = &c.num * BigInt::from(dc.clone());
                if let Some(p) = pre {
                    // D_(p+1) divides D_(c+1): bring the part before the cycle to it.
                    let lift: BigUint = self.d[p.level + 1..=c.level].iter().product();
                    num += &p.num * BigInt::from(lift * left);
                }
                let den = &self.prefix[c.level] * left;
                reduced_by(num, den, &self.d[..=c.level], Some(left))
            }
            (_, Some(_), None) => unreachable!("amounts on a cycle only when there is one"),
        }
    }
}

/// `num / den` in lowest terms, where `den` is the product of the words `factors` (the levels'
/// denominators) and of `left` when there is one (the cycle's `Dc - Gc`). A numerator that
/// fits a word takes [`reduced`]'s one word gcd; a longer one is divided by its gcd with each
/// factor in turn, `gcd(n, a b) = gcd(n, a) gcd(n / gcd(n, a), b)`, each a remainder by a word
/// and a word gcd, skipping a factor once the numerator is known prime to it. A general gcd of
/// the two long numbers (Lehmer's) took most of a 1,000-square board's chain build, whose
/// paths have 166 levels of a d6.
fn reduced_by(num: BigInt, den: BigUint, factors: &[u128], left: Option<&BigUint>) -> BigRational {
    if num.magnitude().to_u64().is_some() {
        return reduced(num, den);
    }
    let (sign, mut n) = num.into_parts();
    let mut den = den;
    if let Some(left) = left {
        let h = match left.to_u64() {
            Some(l) => BigUint::from(l.gcd(&(&n % l).to_u64().expect("below l"))),
            None => {
                gcd::gcd(&BigInt::from(n.clone()), &BigInt::from(left.clone()))
                    .into_parts()
                    .1
            }
        };
        if !h.is_one() {
            n /= &h;
            den /= &h;
        }
    }
    // The factors the numerator is known to be prime to (a path's levels share a few values).
    let mut prime_to = [0u128; 8];
    let mut known = 0;
    for f in word_products(factors) {
        if f == 1 || prime_to[..known].contains(&f) {
            continue;
        }
        // A word's remainder and quotient take num-bigint's one-digit route; a wider factor
        // is made a big integer first.
        let h = match u64::try_from(f) {
            Ok(f) => u128::from(f.gcd(&(&n % f).to_u64().expect("below f"))),
            Err(_) => f.gcd(&(&n % f).to_u128().expect("below f")),
        };
        if h == 1 {
            if known < prime_to.len() {
                prime_to[known] = f;
                known += 1;
            }
        } else if let Ok(h) = u64::try_from(h) {
            n /= h;
            den /= h;
        } else {
            n /= h;
            den /= h;
        }
    }
    BigRational::new_raw(BigInt::from_biguint(sign, n), BigInt::from(den))
}

/// `factors` multiplied together in runs whose products fit a `u64` (a factor that does not
/// fit one comes alone): the same product in fewer, larger factors (a d6's levels, 24 to a
/// word).
fn word_products(factors: &[u128]) -> impl Iterator<Item = u128> + '_ {
    let mut rest = factors;
    std::iter::from_fn(move || {
        let (&first, tail) = rest.split_first()?;
        rest = tail;
        let Ok(mut product) = u64::try_from(first) else {
            return Some(first);
        };
        while let Some(p) = rest
            .first()
            .and_then(|&f| u64::try_from(f).ok())
            .and_then(|f| product.checked_mul(f))
        {
            product = p;
            rest = &rest[1..];
        }
        Some(u128::from(product))
    })
}

/// `num / den` in lowest terms (`den` > 0), with one gcd: a machine word's when `num` fits one.
fn reduced(num: BigInt, den: BigUint) -> BigRational {
    if num.is_zero() {
        return BigRational::zero();
    }
    let g = match num.magnitude().to_u64() {
        Some(n) => BigUint::from(n.gcd(&(&den % n).to_u64().expect("below n"))),
        None => gcd::gcd(&num, &BigInt::from(den.clone()))
            .to_biguint()
            .expect("a gcd is non-negative"),
    };
    if g.is_one() {
        BigRational::new_raw(num, BigInt::from_biguint(Sign::Plus, den))
    } else {
        BigRational::new_raw(num / BigInt::from(g.clone()), BigInt::from(den / g))
    }
}

/// The shape of a single path: per level `k`, the rolls' common denominator `d_k` and the
/// numerator `g_k` of its one roll that goes on (0 at a last level that ends the path), and the
/// cycle's first level `j` when the last level goes back to it.
pub(super) struct Shape {
    pub(super) d: Vec<u128>,
    pub(super) g: Vec<u128>,
    pub(super) cycle: Option<usize>,
}

impl Shape {
    /// The shape of a single path over `rolls` (in discovery order, so level k + 1 follows
    /// level k until the last level, which ends the path or goes back to an earlier one), or
    /// `None` when some level goes on in more than one way.
    fn of<S: Ord + Clone>(states: &[InTurn<S>], rolls: &[Rc<RollsFrom<S>>]) -> Option<Shape> {
        let last = rolls.len().checked_sub(1)?;
        let mut d = Vec::with_capacity(rolls.len());
        let mut g = Vec::with_capacity(rolls.len());
        for (k, r) in rolls.iter().enumerate() {
            match r.goes_on.as_slice() {
                [] if k == last => g.push(0),
                [(s, p)] if k == last || *s == states[k + 1] => g.push(*p),
                _ => return None,
            }
            d.push(r.denom);
        }
        let cycle = match rolls[last].goes_on.as_slice() {
            [(s, _)] => Some(states.iter().position(|t| t == s)?),
            _ => None,
        };
        Some(Shape { d, g, cycle })
    }
}

impl Levels {
    /// The big-integer products of a path of `shape`.
    fn new(shape: &Shape) -> Levels {
        let Shape { d, g, cycle } = shape;
        let cycle = cycle.map(|j| {
            let dc: BigUint = d[j..].iter().product();
            let gc: BigUint = g[j..].iter().product();
            (j, dc.clone(), dc - gc)
        });
        let mut prefix = Vec::with_capacity(d.len());
        let mut reach = Vec::with_capacity(d.len());
        let (mut dk, mut gk) = (BigUint::one(), BigUint::one());
        for k in 0..d.len() {
            reach.push(gk.clone());
            dk *= d[k];
            gk *= g[k];
            prefix.push(dk.clone());
        }
        Levels {
            d: d.clone(),
            prefix,
            reach,
            cycle,
        }
    }
}

/// The turn over a single path of in-turn states, in integers: where it ends (the states the
/// next turn begins in, as the turn machine gives them) and its rewards; `None` when the rolls
/// that go on branch (then the caller solves the general system). The turn must be able to end
/// from every state (no endless part).
pub(super) fn single_path<S: Ord + Clone>(
    states: &[InTurn<S>],
    rolls: &[Rc<RollsFrom<S>>],
) -> Option<Turn<S>> {
    let shape = Shape::of(states, rolls)?;
    let levels = Levels::new(&shape);
    let mut next: BTreeMap<S, Split> = BTreeMap::new();
    // rolls, snakes, ladders, climbed, slid, points.
    let mut rewards: [Split; 6] = Default::default();
    for (k, r) in rolls.iter().enumerate() {
        levels.add(&mut rewards[0], k, BigInt::from(r.denom));
        for (reward, c) in rewards[1..5].iter_mut().zip(r.counts) {
            if c != 0 {
                levels.add(reward, k, BigInt::from(c));
            }
        }
        if r.points != 0 {
            levels.add(&mut rewards[5], k, BigInt::from(r.points));
        }
        // Every state a roll ends on is listed, as the general route lists it.
        for (s, p) in &r.ends {
            levels.add(next.entry(s.clone()).or_default(), k, BigInt::from(*p));
        }
    }
    let [rolls, snakes, ladders, climbed, slid, points] = rewards.map(|r| levels.value(&r));
    Some(Turn {
        next: next
            .iter()
            .map(|(s, split)| (s.clone(), levels.value(split)))
            .collect(),
        rewards: TurnRewards {
            rolls,
            snakes,
            ladders,
            climbed,
            slid,
            points,
        },
        endless: false,
    })
}

#[cfg(test)]
pub(super) mod tests;
