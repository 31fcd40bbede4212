//! The single path of [`super`] summed in machine words (`u128`), for the turns whose numbers
//! all fit one: the standard game's paths are a few levels of a d6 (efi's longest turn is 17
//! levels, `6^17` is 44 bits). Every product and sum is checked; the first that would overflow
//! gives up, and the caller sums the turn in big integers instead. Both give each amount as the
//! same fraction in lowest terms, so the chain is the same whichever way its turns were summed.
//!
//! # Formula
//!
//! As in [`super`], with the cycle's factor folded into the levels' denominators: an amount
//! whose last addition was at level k is a numerator over
//!
//! ```text
//! E_(k+1) = e_0 e_1 ... e_k,   e_i = d_i (Dc - Gc) if i = j (the cycle's first level), else d_i,
//! ```
//!
//! and `c` at level k adds `c G_k` (`c G_k Dc` from level j on) over `E_(k+1)`: the levels
//! before the cycle are over `D_(k+1)`, those on it over `D_(k+1) (Dc - Gc)`, and an amount on
//! both is brought to the later one's denominator (Horner's rule, one product per level
//! passed). Each amount is reduced once, by a gcd in words (Euclid's steps in `u128` until both
//! fit a `u64`, then a `u64` gcd): a square reached from one level has a small numerator, so
//! that gcd is one division and a few steps.
//!
//! Building efi's chain (82 turns, 2,530 transitions) took 5.2 M instructions with every turn
//! in big integers, about 2,000 per transition, and takes 2.5 M in words, most of it the two
//! big integers of each result and their allocations.

use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::super::compound::RollsFrom;
use super::super::{Turn, TurnRewards};
use super::Shape;

/// An amount `num / E_(level+1)`; `num = 0` is zero at any level.
#[derive(Clone, Copy, Default)]
struct Acc {
    level: usize,
    num: u128,
}

/// One level of the path in words: `e_k`, `c`'s multiplier `G_k` (times `Dc` on the cycle)
/// and the denominator `E_(k+1)`.
struct Level {
    lift: u128,
    weight: u128,
    den: u128,
}

/// The path's levels.
struct Levels(Vec<Level>);

impl Levels {
    /// The levels of `shape`, or `None` when a denominator does not fit a word.
    fn new(shape: &Shape) -> Option<Levels> {
        let Shape { d, g, cycle } = shape;
        let (j, dc, left) = match *cycle {
            Some(j) => {
                let dc = d[j..].iter().try_fold(1, |p, &x| mul(p, x))?;
                // g_i <= d_i, so Gc fits when Dc does; the turn ends, so Gc < Dc.
                let gc = g[j..].iter().try_fold(1, |p, &x| mul(p, x))?;
                (j, dc, dc.checked_sub(gc).filter(|&l| l > 0)?)
            }
            None => (d.len(), 1, 1),
        };
        let mut levels = Vec::with_capacity(d.len());
        let (mut den, mut reach) = (1u128, 1u128);
        for k in 0..d.len() {
            let lift = if k == j { mul(d[k], left)? } else { d[k] };
            den = mul(den, lift)?;
            let weight = if k >= j { mul(reach, dc)? } else { reach };
            levels.push(Level { lift, weight, den });
            // G_(k+1) <= D_(k+1) <= den: it fits.
            reach *= g[k];
        }
        Some(Levels(levels))
    }

    /// Adds `c` at level `k` (levels come in increasing order), or `None` on overflow.
    fn add(&self, acc: &mut Acc, k: usize, c: u128) -> Option<()> {
        let term = mul(c, self.0[k].weight)?;
        acc.num = match acc.num {
            0 => term,
            num => self.lifted(num, acc.level, k)?.checked_add(term)?,
        };
        acc.level = k;
        Some(())
    }

    /// `num` over `E_(from+1)` as a numerator over `E_(to+1)`, or `None` on overflow.
    fn lifted(&self, num: u128, from: usize, to: usize) -> Option<u128> {
        self.0[from + 1..=to]
            .iter()
            .try_fold(num, |n, level| mul(n, level.lift))
    }

    /// The exact value of `acc`, reduced.
    fn value(&self, acc: &Acc) -> BigRational {
        lowest(false, acc.num, self.0[acc.level].den)
    }

    /// The exact value of `plus - minus`, reduced, or `None` on overflow.
    fn difference(&self, plus: &Acc, minus: &Acc) -> Option<BigRational> {
        let k = plus.level.max(minus.level);
        let p = self.lifted(plus.num, plus.level, k)?;
        let m = self.lifted(minus.num, minus.level, k)?;
        Some(lowest(m > p, p.abs_diff(m), self.0[k].den))
    }
}

/// `a b`, or `None` on overflow: one machine product when both fit a `u64` (the usual case;
/// `u128::checked_mul` always took the long way).
fn mul(a: u128, b: u128) -> Option<u128> {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => Some(u128::from(a) * u128::from(b)),
        _ => a.checked_mul(b),
    }
}

/// `±num / den` in lowest terms (`den` > 0).
fn lowest(negative: bool, num: u128, den: u128) -> BigRational {
    if num == 0 {
        return BigRational::zero();
    }
    let (num, den) = match gcd(num, den) {
        1 => (num, den),
        g => match (u64::try_from(num), u64::try_from(den)) {
            (Ok(n), Ok(d)) => (u128::from(n / g as u64), u128::from(d / g as u64)),
            _ => (num / g, den / g),
        },
    };
    let num = BigInt::from(num);
    BigRational::new_raw(if negative { -num } else { num }, BigInt::from(den))
}

/// Euclid's gcd of `num` > 0 and `den`, in `u64` as soon as both fit one. A square reached
/// from one level has a small numerator: one division, then a few steps on small numbers.
fn gcd(num: u128, den: u128) -> u128 {
    let (mut a, mut b) = (den, num);
    let word = u128::from(u64::MAX);
    while a > word || b > word {
        (a, b) = (b, a % b);
        if b == 0 {
            return a;
        }
    }
    let (mut a, mut b) = (a as u64, b as u64);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    u128::from(a)
}

/// Sorts `ends` by state, stably (a state's entries stay in level order), by insertion: a
/// path's ends come nearly sorted (each level's squares lie past the last level's, but for
/// jumps), so this moves few of them, where the library's sorts cost about 100 instructions an
/// entry on efi. A path fits words in at most 128 levels, which bounds the worst case.
fn nearly_sorted<S: Ord>(ends: &mut [(S, usize)]) {
    for i in 1..ends.len() {
        let mut j = i;
        while j > 0 && ends[j - 1].0 > ends[j].0 {
            ends.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The turn over the single path of `shape` (whose levels' rolls are `rolls`), summed in
/// words, or `None` when some number does not fit one.
pub(super) fn single_path<S: Ord + Clone>(
    shape: &Shape,
    rolls: &[Rc<RollsFrom<S>>],
) -> Option<Turn<S>> {
    let levels = Levels::new(shape)?;
    // rolls, snakes, ladders, climbed, slid, then the points scored and lost.
    let mut sums = [Acc::default(); 7];
    // Every state a roll ends on, with the index of its (level, numerator) in `added` (which
    // grows level by level): sorted by state, then index, each state's run is one amount,
    // summed in level order. (Sorting the small pairs rather than the whole entries halved the
    // sort's cost on efi.)
    let count = rolls.iter().map(|r| r.ends.len()).sum();
    let mut ends = Vec::with_capacity(count);
    let mut added = Vec::with_capacity(count);
    for (k, r) in rolls.iter().enumerate() {
        levels.add(&mut sums[0], k, r.denom)?;
        for (sum, c) in sums[1..5].iter_mut().zip(r.counts) {
            if c != 0 {
                levels.add(sum, k, c)?;
            }
        }
        if r.points != 0 {
            let sum = &mut sums[if r.points > 0 { 5 } else { 6 }];
            levels.add(sum, k, r.points.unsigned_abs())?;
        }
        for (s, p) in &r.ends {
            ends.push((s.clone(), added.len()));
            added.push((k, *p));
        }
    }
    nearly_sorted(&mut ends);
    let mut amounts = Vec::with_capacity(ends.len());
    for run in ends.chunk_by(|a, b| a.0 == b.0) {
        let mut acc = Acc::default();
        for &(_, i) in run {
            let (k, p) = added[i];
            levels.add(&mut acc, k, p)?;
        }
        amounts.push((&run[0].0, acc));
    }
    let points = levels.difference(&sums[5], &sums[6])?;
    let [rolls, snakes, ladders, climbed, slid] = [0, 1, 2, 3, 4].map(|i| levels.value(&sums[i]));
    Some(Turn {
        next: amounts
            .into_iter()
            .map(|(s, acc)| (s.clone(), levels.value(&acc)))
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
mod tests {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use proptest::prelude::*;

    use super::{gcd, lowest, Acc, Levels, Shape};

    /// Two levels of denominators `2^100` and 2, no cycle (`E_1 = 2^100`, `E_2 = 2^101`).
    fn two_levels() -> Levels {
        let shape = Shape {
            d: vec![1 << 100, 2],
            g: vec![1, 0],
            cycle: None,
        };
        Levels::new(&shape).expect("2^101 fits")
    }

    #[test]
    fn a_sum_past_128_bits_gives_up() {
        let levels = two_levels();
        let mut acc = Acc::default();
        assert!(levels.add(&mut acc, 0, 1 << 127).is_some());
        // The same level again: 2^127 + 2^127 is 2^128.
        assert!(levels.add(&mut acc, 0, 1 << 127).is_none());
    }

    #[test]
    fn a_numerator_brought_past_128_bits_to_a_later_level_gives_up() {
        let levels = two_levels();
        let mut acc = Acc::default();
        assert!(levels.add(&mut acc, 0, 1 << 127).is_some());
        // Level 1 multiplies by its denominator 2 first.
        assert!(levels.add(&mut acc, 1, 1).is_none());
        let mut small = Acc::default();
        assert!(levels.add(&mut small, 0, 3).is_some());
        assert!(levels.add(&mut small, 1, 1).is_some());
        // 3 / 2^100 + 1 / 2^101 = 7 / 2^101.
        assert_eq!(levels.value(&small), lowest(false, 7, 1 << 101));
        assert_eq!(small.num, 7);
    }

    #[test]
    fn denominators_past_128_bits_give_up() {
        let shape = Shape {
            d: vec![1 << 100, 1 << 30],
            g: vec![1, 0],
            cycle: None,
        };
        assert!(Levels::new(&shape).is_none());
        // A cycle's factor Dc - Gc counts too: 2^100 (2^27 - 1) fits, times 2^27 does not.
        let cycle = |d1| Shape {
            d: vec![1 << 100, d1],
            g: vec![1, 1],
            cycle: Some(1),
        };
        assert!(Levels::new(&cycle(1 << 27)).is_none());
        assert!(Levels::new(&cycle(1 << 13)).is_some());
    }

    proptest! {
        #[test]
        fn the_gcd_and_lowest_terms_agree_with_big_integers(
            num in 1u128.., den in 1u128.., shift in 0u32..100, negative: bool,
        ) {
            // Numbers sharing a power of two, and small ones, as well as any two.
            for (n, d) in [(num, den), (num >> shift.min(127), den >> shift.min(127)), (num % 1000, den % 1000)] {
                let (n, d) = (n.max(1), d.max(1));
                prop_assert_eq!(gcd(n, d), n.gcd(&d));
                let sign = if negative { -1 } else { 1 };
                let exact = num_rational::BigRational::new(BigInt::from(n) * sign, BigInt::from(d));
                let ours = lowest(negative, n, d);
                prop_assert_eq!(ours.numer(), exact.numer());
                prop_assert_eq!(ours.denom(), exact.denom());
            }
        }
    }
}
