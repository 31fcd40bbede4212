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
//! Every amount (a square's probability, a reward) is one integer numerator over the turn's one
//! denominator `D_(L+1)` (times `Dc - Gc` on a cycle): an amount `c` at level k adds `c w_k`,
//! with the level's weight `w_k = G_k D_(L+1) / D_(k+1)` (times `Dc` on the cycle, `Dc - Gc`
//! before it), and each is reduced once at the end, from the last level k that added to it:
//! its numerator divided exactly by `D_(L+1) / D_(k+1)`, over `D_(k+1)` (times `Dc - Gc`), so
//! a square that ends rolls at one level has a short numerator again. The sums are first made
//! in `i128` words (efi's turns need a few dozen bits: one multiplication and one word gcd per
//! amount) and, when a number does not fit, made again in big integers, reduced by a gcd with
//! each word of the denominator. Rational arithmetic on each level, the old way, paid a binary
//! gcd of `D_k`'s bits per addition: on a 999-square board with a 3-faced die whose 3s roll
//! again, paths have 333 levels and the turn chain took 3.6 s to build.

use std::rc::Rc;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{CheckedSub, One, ToPrimitive, Zero};

use super::compound::{gcd_words, RollsFrom};
use super::{Turn, TurnRewards};
use crate::game::InTurn;
use crate::num::gcd;

/// The integers a path's sums are kept in: `i128` (every sum is first tried in words, the
/// usual turn's numbers are a few dozen bits) or `BigInt` (the same sums again when a number
/// does not fit a word: the arithmetic is checked, and `BigInt`'s never fails).
trait Count: Clone + PartialEq + Zero + One + CheckedSub + From<i128> + TryFrom<u128> {
    /// `self x`, or `None` when it does not fit.
    fn times(&self, x: &Self) -> Option<Self>;
    /// `self += x`, or `None` when the sum does not fit.
    fn plus(&mut self, x: &Self) -> Option<()>;
    /// `(num / lift) / den` (`lift` divides `num`, `den > 0`) in lowest terms, where `den` is
    /// the product of the words `factors` and of `left` when there is one.
    fn ratio(
        num: Self,
        lift: &Self,
        den: &Self,
        factors: &[u128],
        left: Option<&Self>,
    ) -> BigRational;
}

impl Count for i128 {
    fn times(&self, x: &i128) -> Option<i128> {
        match (i64::try_from(*self), i64::try_from(*x)) {
            // Two words' product always fits: one multiplication, no overflow test.
            (Ok(a), Ok(b)) => Some(i128::from(a) * i128::from(b)),
            _ => self.checked_mul(*x),
        }
    }

    fn plus(&mut self, x: &i128) -> Option<()> {
        *self = self.checked_add(*x)?;
        Some(())
    }

    fn ratio(num: i128, lift: &i128, den: &i128, _: &[u128], _: Option<&i128>) -> BigRational {
        let num = match (u64::try_from(num), u64::try_from(*lift)) {
            (_, Ok(1)) => num,
            (Ok(n), Ok(l)) => i128::from(n / l),
            _ => num / lift,
        };
        let (n, d) = (num.unsigned_abs(), den.unsigned_abs());
        let g = gcd_words(n, d);
        // In words a division is one instruction, and a big integer is made from one limb.
        let (n, d) = match (u64::try_from(n), u64::try_from(d)) {
            (Ok(n), Ok(d)) => (BigInt::from(n / g as u64), BigInt::from(d / g as u64)),
            _ => (BigInt::from(n / g), BigInt::from(d / g)),
        };
        BigRational::new_raw(if num < 0 { -n } else { n }, d)
    }
}

impl Count for BigInt {
    fn times(&self, x: &BigInt) -> Option<BigInt> {
        Some(self * x)
    }

    fn plus(&mut self, x: &BigInt) -> Option<()> {
        *self += x;
        Some(())
    }

    fn ratio(
        num: BigInt,
        lift: &BigInt,
        den: &BigInt,
        factors: &[u128],
        left: Option<&BigInt>,
    ) -> BigRational {
        // An exact division, and the numerator is short again (a square's ending rolls at
        // one level: a word).
        let num = if lift.is_one() { num } else { num / lift };
        let den = den.magnitude().clone();
        reduced_by(num, den, factors, left.map(BigInt::magnitude))
    }
}

/// The weights of a path's levels over the turn's one denominator: an amount `c` at level k
/// is `c w_k / den`; one whose last level is k is `(num / tails[k]) / dens[k]`.
struct Weights<N> {
    w: Vec<N>,
    /// `D_(L+1) / D_(k+1)` per level.
    tails: Vec<N>,
    /// `den / tails[k]` per level (the last is `den`).
    dens: Vec<N>,
    /// The cycle's `Dc - Gc`, a factor of `den`.
    left: Option<N>,
}

impl<N: Count> Weights<N> {
    /// The weights of a path of `shape`, or `None` when a number does not fit `N`: `den =
    /// D_(L+1)` times `Dc - Gc` on a cycle, and `w_k = G_k (D_(L+1) / D_(k+1))` times `Dc`
    /// on the cycle or `Dc - Gc` before it.
    fn of(shape: &Shape) -> Option<Weights<N>> {
        let Shape { d, g, cycle } = shape;
        let count = |x: u128| N::try_from(x).ok();
        let product = |xs: &[u128]| xs.iter().try_fold(N::one(), |p, &x| p.times(&count(x)?));
        let (dc, left) = match cycle {
            Some(j) => {
                let dc = product(&d[*j..])?;
                let left = dc.checked_sub(&product(&g[*j..])?)?;
                (dc, Some(left))
            }
            None => (N::one(), None),
        };
        let before = left.clone().unwrap_or_else(N::one);
        // `tail` is D_(L+1) / D_(k+1), from the last level back.
        let mut w = vec![N::zero(); d.len()];
        let mut tails = vec![N::zero(); d.len()];
        let mut tail = N::one();
        for k in (0..d.len()).rev() {
            let on_cycle = cycle.is_some_and(|j| k >= j);
            w[k] = tail.times(if on_cycle { &dc } else { &before })?;
            tails[k] = tail.clone();
            tail = tail.times(&count(d[k])?)?;
        }
        let mut dens = Vec::with_capacity(d.len());
        let mut prefix = before.clone();
        for &x in d {
            prefix = prefix.times(&count(x)?)?;
            dens.push(prefix.clone());
        }
        let mut reach = N::one();
        for (w, &g) in w.iter_mut().zip(g) {
            if !reach.is_one() {
                *w = w.times(&reach)?;
            }
            reach = reach.times(&count(g)?)?;
        }
        Some(Weights {
            w,
            tails,
            dens,
            left,
        })
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

/// The turn over a single path of in-turn states, in integers: where it ends (the states the
/// next turn begins in, as the turn machine gives them) and its rewards; `None` when the rolls
/// that go on branch (then the caller solves the general system). The turn must be able to end
/// from every state (no endless part).
pub(super) fn single_path<S: Ord + Clone>(
    states: &[InTurn<S>],
    rolls: &[Rc<RollsFrom<S>>],
) -> Option<Turn<S>> {
    let shape = Shape::of(states, rolls)?;
    Some(
        summed::<S, i128>(&shape, rolls)
            .unwrap_or_else(|| summed::<S, BigInt>(&shape, rolls).expect("big integers fit")),
    )
}

/// [`single_path`]'s sums over a path of `shape` in `N`, or `None` when a number does not fit.
fn summed<S: Ord + Clone, N: Count>(shape: &Shape, rolls: &[Rc<RollsFrom<S>>]) -> Option<Turn<S>> {
    let Weights {
        w,
        tails,
        dens,
        left,
    } = Weights::<N>::of(shape)?;
    let count = |x: u128| N::try_from(x).ok();
    let mut ends = Vec::with_capacity(rolls.iter().map(|r| r.ends.len()).sum());
    // rolls, snakes, ladders, climbed, slid, points.
    let mut rewards: [N; 6] = std::array::from_fn(|_| N::zero());
    for (k, (r, w)) in rolls.iter().zip(&w).enumerate() {
        let amounts = [r.denom].into_iter().chain(r.counts).map(count);
        for (reward, c) in rewards
            .iter_mut()
            .zip(amounts.chain([Some(N::from(r.points))]))
        {
            let c = c?;
            if !c.is_zero() {
                reward.plus(&c.times(w)?)?;
            }
        }
        // Every state a roll ends on is listed, as the general route lists it.
        for (s, p) in &r.ends {
            ends.push((s.clone(), count(*p)?.times(w)?, k));
        }
    }
    // Stable: a state's last entry is its last level.
    ends.sort_by(|a, b| a.0.cmp(&b.0));
    let value =
        |num: N, k: usize| N::ratio(num, &tails[k], &dens[k], &shape.d[..=k], left.as_ref());
    let mut next = Vec::with_capacity(ends.len());
    for run in ends.chunk_by(|a, b| a.0 == b.0) {
        let mut sum = run[0].1.clone();
        for (_, p, _) in &run[1..] {
            sum.plus(p)?;
        }
        next.push((run[0].0.clone(), value(sum, run[run.len() - 1].2)));
    }
    let last = shape.d.len() - 1;
    let [rolls, snakes, ladders, climbed, slid, points] = rewards.map(|r| value(r, last));
    Some(Turn {
        next,
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
