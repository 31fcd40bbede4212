//! The dice of a board: one die (fair, or loaded with integer weights per face) thrown `count`
//! times at once, the move being the sum. [`Dice::throws`] is the exact law of one throw, the
//! random part of every roll (docs/model.md, "Dice").
//!
//! A throw is a **top throw** when every die shows its top face F (the largest face number,
//! whatever its weight). Since no die shows more than F, that is exactly the throws whose sum is
//! `count * F`, so a throw is identified by its sum; under `roll_again_on = "double"` the throws
//! that roll again are the doubles instead (`Dice::with_doubles`), and a sum may be two
//! throws, a double and the rest.

use std::collections::BTreeMap;

/// The largest total weight of one throw, `(sum of the face weights)^count` after the weights
/// are divided by their gcd: every probability of a throw is `weight / total`, and the exact
/// roll-level system keeps totals times draw denominators in machine words.
pub const MAX_THROW_TOTAL: u64 = 1 << 40;

/// One outcome of a throw: the sum of the dice, and its weight out of [`Dice::total`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Throw {
    /// The sum of the dice (the squares moved).
    pub sum: u32,
    /// Its weight: the probability is `weight / total`.
    pub weight: u64,
    /// True when the throw rolls again under a roll-again rule: every die on its top face, or
    /// with `roll_again_on = "double"` every die on the same face.
    pub top: bool,
}

/// One die kind thrown `count` times.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    weights: Vec<u64>,
    count: u32,
    throws: Vec<Throw>,
    total: u64,
}

/// The dice cannot be used: the weights are all zero, or one throw's total weight is too large.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceError {
    /// Every face has weight 0.
    AllZero,
    /// `(sum of weights)^count` exceeds [`MAX_THROW_TOTAL`].
    TooHeavy,
}

impl Dice {
    /// `count` fair dice with faces `1..=faces`.
    pub fn fair(faces: u32, count: u32) -> Result<Dice, DiceError> {
        Dice::new(vec![1; faces as usize], count)
    }

    /// `count` dice whose face i (from 1) has weight `weights[i - 1]`.
    ///
    /// # Errors
    ///
    /// `DiceError` for all-zero weights or a throw law too heavy for exact machine-word work.
    pub fn new(mut weights: Vec<u64>, count: u32) -> Result<Dice, DiceError> {
        let g = weights.iter().fold(0u64, |g, &w| gcd(g, w));
        if g == 0 {
            return Err(DiceError::AllZero);
        }
        for w in &mut weights {
            *w /= g;
        }
        let sum: u64 = weights.iter().sum();
        let total = (0..count).try_fold(1u64, |t, _| t.checked_mul(sum));
        let total = match total {
            Some(t) if t <= MAX_THROW_TOTAL => t,
            _ => return Err(DiceError::TooHeavy),
        };
        // The law of the sum by repeated convolution: law[s] = weight of sum s.
        let faces = weights.len();
        let mut law = vec![1u64];
        for _ in 0..count {
            let mut next = vec![0u64; law.len() + faces];
            for (s, &w) in law.iter().enumerate() {
                if w == 0 {
                    continue;
                }
                for (f, &v) in weights.iter().enumerate() {
                    next[s + f + 1] += w * v;
                }
            }
            law = next;
        }
        let top_sum = faces as u32 * count;
        let throws = law
            .iter()
            .enumerate()
            .filter(|(_, &w)| w > 0)
            .map(|(s, &w)| Throw {
                sum: s as u32,
                weight: w,
                top: s as u32 == top_sum,
            })
            .collect();
        Ok(Dice {
            weights,
            count,
            throws,
            total,
        })
    }

    /// The same dice under `roll_again_on = "double"`: a throw rolls again when every die shows
    /// the same face, so a sum thrown both as a double and otherwise is two throws (a double
    /// and the rest, `top` only on the double; ascending by sum, the double last).
    pub(crate) fn with_doubles(mut self) -> Dice {
        // Weight of (sum, the face every die so far shows, or 0 once two differ).
        let mut law: BTreeMap<(u32, u32), u64> = BTreeMap::from([((0, u32::MAX), 1)]);
        for _ in 0..self.count {
            let mut next = BTreeMap::new();
            for (&(sum, same), &w) in &law {
                for (face, &v) in (1u32..).zip(&self.weights) {
                    if v == 0 {
                        continue;
                    }
                    let same = if same == u32::MAX || same == face {
                        face
                    } else {
                        0
                    };
                    *next.entry((sum + face, same)).or_insert(0) += w * v;
                }
            }
            law = next;
        }
        let mut throws: BTreeMap<(u32, bool), u64> = BTreeMap::new();
        for ((sum, same), w) in law {
            *throws.entry((sum, same != 0)).or_insert(0) += w;
        }
        self.throws = throws
            .into_iter()
            .map(|((sum, top), weight)| Throw { sum, weight, top })
            .collect();
        self
    }

    /// The number of faces F of each die (the top face).
    pub fn faces(&self) -> u32 {
        self.weights.len() as u32
    }

    /// The number of dice thrown together.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The face weights, divided by their gcd (all 1 for a fair die).
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// True for one fair die (the standard game's dice).
    pub fn is_single_fair(&self) -> bool {
        self.count == 1 && self.is_fair()
    }

    /// True when every face has the same weight.
    pub fn is_fair(&self) -> bool {
        self.weights.iter().all(|&w| w == 1)
    }

    /// The law of one throw: every sum with a positive weight, ascending.
    pub fn throws(&self) -> &[Throw] {
        &self.throws
    }

    /// The total weight of a throw: `(sum of the weights)^count`.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The largest sum, `count * F`.
    pub fn max_sum(&self) -> u32 {
        self.faces() * self.count
    }
}

/// The greatest common divisor (0 with 0 gives 0).
pub(crate) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple of two positive numbers.
pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two d3 with doubles: a sum of 4 is 2-2 (weight 1, rolls again) or 1-3, 3-1 (weight 2);
    /// sums 2 and 6 are doubles only, 3 and 5 never. Worked by hand from the 9 throws.
    #[test]
    fn doubles_split_a_sum_into_the_double_and_the_rest() {
        let d = Dice::fair(3, 2).unwrap().with_doubles();
        let got: Vec<(u32, u64, bool)> = d
            .throws()
            .iter()
            .map(|t| (t.sum, t.weight, t.top))
            .collect();
        assert_eq!(
            got,
            [
                (2, 1, true),
                (3, 2, false),
                (4, 2, false),
                (4, 1, true),
                (5, 2, false),
                (6, 1, true)
            ]
        );
        assert_eq!(d.total(), 9);
    }

    #[test]
    fn a_fair_die_has_one_throw_per_face() {
        let d = Dice::fair(6, 1).unwrap();
        assert_eq!(d.total(), 6);
        assert_eq!(d.throws().len(), 6);
        assert!(d.throws().iter().all(|t| t.weight == 1));
        assert_eq!(d.throws().iter().filter(|t| t.top).count(), 1);
        assert_eq!(d.throws()[5].sum, 6);
        assert!(d.is_single_fair());
    }

    #[test]
    fn two_dice_sum_with_the_triangle_law() {
        // Worked by hand: two d6 give sums 2..12 with weights 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1
        // out of 36; only 6 + 6 = 12 is a top throw.
        let d = Dice::fair(6, 2).unwrap();
        assert_eq!(d.total(), 36);
        let w: Vec<(u32, u64)> = d.throws().iter().map(|t| (t.sum, t.weight)).collect();
        let expected: Vec<(u32, u64)> = (2..=12)
            .map(|s: u32| (s, 6 - (7i64 - s as i64).unsigned_abs()))
            .collect();
        assert_eq!(w, expected);
        assert_eq!(
            d.throws()
                .iter()
                .filter(|t| t.top)
                .map(|t| t.sum)
                .collect::<Vec<_>>(),
            vec![12]
        );
    }

    #[test]
    fn loaded_weights_are_reduced_and_zero_faces_never_show() {
        // [2, 0, 2, 2, 2, 6] is the same law as [1, 0, 1, 1, 1, 3]: total 7, no face 2.
        let d = Dice::new(vec![2, 0, 2, 2, 2, 6], 1).unwrap();
        assert_eq!(d.weights(), &[1, 0, 1, 1, 1, 3]);
        assert_eq!(d.total(), 7);
        assert!(d.throws().iter().all(|t| t.sum != 2));
        assert_eq!(
            d.throws().last().unwrap(),
            &Throw {
                sum: 6,
                weight: 3,
                top: true
            }
        );
    }

    #[test]
    fn all_zero_and_too_heavy_dice_are_refused() {
        assert_eq!(Dice::new(vec![0, 0], 1), Err(DiceError::AllZero));
        // 100 faces, 10 dice: 100^10 = 10^20 > 2^40.
        assert_eq!(Dice::fair(100, 10), Err(DiceError::TooHeavy));
    }
}
