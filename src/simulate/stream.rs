//! The simulator's randomness: seeded xoshiro256++ streams cut into 16-bit pieces, and the two
//! exact samplers built on them, a uniform integer below any n ([`Dice::uniform`], Lemire's
//! multiply-shift with rejection) and a pick by integer weights ([`Weighted`], a cumulative
//! table over that uniform integer). No floating point is involved: a throw of weight w out of a
//! total W comes up with probability exactly w / W (up to the generator itself).
//!
//! The plain boards' fair die draws its faces in batches instead ([`FaceBatch`], [`Dice::face`]):
//! one 64-bit word gives k faces (21 on a d6) by k multiply-shifts, exactly uniform by one
//! rejection test per word.
//!
//! (D. Lemire, *Fast random integer generation in an interval*, ACM TOMACS 29(1), 2019;
//! N. Brackett-Rozinsky, D. Lemire, *Batched ranged random integer generation*, Software:
//! Practice and Experience 55(1), 2025.)

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded random stream handing out 16-bit pieces (four per 64-bit output) and whole words.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: Xoshiro256PlusPlus,
    bits: u64,
    left: u32,
    /// The batch of faces in progress ([`Dice::face`]): what is left of its word.
    word: u64,
    /// Faces left in `word`.
    faces_left: u32,
}

impl Dice {
    /// The dice of random stream `stream` of `seed`.
    pub fn new(seed: u64, stream: u64) -> Dice {
        let key = splitmix64(splitmix64(seed) ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Dice {
            rng: Xoshiro256PlusPlus::seed_from_u64(key),
            bits: 0,
            left: 0,
            word: 0,
            faces_left: 0,
        }
    }

    /// A face of the fair die of `batch`, the next of the current batch (a new batch, from the
    /// next accepted word, when it is used up). The batches never mix with the 16-bit pieces.
    #[inline]
    pub fn face(&mut self, batch: &FaceBatch) -> u32 {
        if self.faces_left == 0 {
            self.word = self.batch_word(batch);
            self.faces_left = batch.k;
        }
        self.faces_left -= 1;
        let (face, rest) = split(self.word, batch.n, 64);
        self.word = rest;
        face as u32
    }

    /// The next word that `batch` accepts (see [`FaceBatch::accepts`]): the start of a batch.
    #[inline]
    pub(super) fn batch_word(&mut self, batch: &FaceBatch) -> u64 {
        loop {
            let x = self.rng.next_u64();
            if batch.accepts(x) {
                return x;
            }
        }
    }

    /// Sets the batch in progress (the fast loop keeps it in its own registers meanwhile).
    pub(super) fn set_batch_state(&mut self, word: u64, faces_left: u32) {
        self.word = word;
        self.faces_left = faces_left;
    }

    /// A uniform integer below `n` (at most 2^16), from the next 16-bit piece; `reject_below`
    /// must be `2^16 mod n` (see [`reject_below`]).
    #[inline(always)]
    pub fn next_index(&mut self, n: u32, reject_below: u32) -> u32 {
        if self.left == 0 {
            self.refill();
        }
        self.take(n, reject_below)
    }

    /// A uniform integer below `n` (1 <= n): from one 16-bit piece when n <= 2^16 (exactly as
    /// [`Dice::next_index`]; `reject` must then be `2^16 mod n`), else from whole 64-bit words by
    /// Lemire's method at 64 bits.
    #[inline]
    pub fn uniform(&mut self, n: u64, reject: u32) -> u64 {
        if n <= PIECE {
            return u64::from(self.next_index(n as u32, reject));
        }
        loop {
            if let Some(v) = lemire(self.rng.next_u64(), 64, n) {
                return v;
            }
        }
    }

    /// Loads the next four 16-bit pieces.
    #[inline(always)]
    pub(super) fn refill(&mut self) {
        self.bits = self.rng.next_u64();
        self.left = 4;
    }

    /// An integer below `n` from the next piece (there must be one left). Lemire: `piece * n =
    /// v * 2^16 + low`; the `2^16 mod n` lowest `low`s are rejected so that each v has exactly
    /// `floor(2^16 / n)` pieces, and a rejected piece is replaced from fresh random numbers
    /// (outside the four-piece schedule, so the schedule stays the same for every lane).
    #[inline(always)]
    pub(super) fn take(&mut self, n: u32, reject_below: u32) -> u32 {
        let piece = (self.bits & 0xFFFF) as u32;
        self.bits >>= 16;
        self.left -= 1;
        match face_of_piece(piece, n, reject_below) {
            Some(face) => face,
            None => self.redraw(n, reject_below),
        }
    }

    #[inline(never)]
    fn redraw(&mut self, n: u32, reject_below: u32) -> u32 {
        loop {
            let x = self.rng.next_u64();
            for k in 0..4 {
                if let Some(face) =
                    face_of_piece(((x >> (16 * k)) & 0xFFFF) as u32, n, reject_below)
                {
                    return face;
                }
            }
        }
    }
}

/// The number of values of a 16-bit piece.
const PIECE: u64 = 1 << 16;

/// Faces of an n-faced fair die in batches of k from one word (Brackett-Rozinsky and Lemire).
///
/// A word x of `b` bits is accepted when `x * n^k mod 2^b >= 2^b mod n^k`. Then
/// `x * n^k = v * 2^b + low` and Lemire's argument gives each v below n^k exactly
/// `floor(2^b / n^k)` accepted words: v is exactly uniform. The faces are v's digits in base n,
/// most significant first, and come out one multiply at a time: `x * n = f1 * 2^b + r1`,
/// `r1 * n = f2 * 2^b + r2`, ..., so `x * n^k = (f1 n^(k-1) + ... + fk) 2^b + rk`, each fi < n
/// (see [`split`]). Uniform digits of a uniform v are independent uniform faces. k is the
/// largest with n^k <= 2^56 (at most 32), so a word is rejected with probability below 2^-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceBatch {
    /// The faces.
    pub n: u64,
    /// Faces per word.
    pub k: u32,
    /// n^k mod 2^64.
    pow: u64,
    /// 2^64 mod n^k: words whose `x * n^k mod 2^64` is below it are rejected.
    threshold: u64,
}

impl FaceBatch {
    /// The batches of an n-faced die (1 <= n <= 2^32).
    pub fn new(n: u64) -> FaceBatch {
        assert!((1..=1 << 32).contains(&n), "a die of {n} faces");
        let mut k = 1;
        let mut pow = u128::from(n);
        while k < 32 && pow * u128::from(n) <= 1 << 56 {
            pow *= u128::from(n);
            k += 1;
        }
        FaceBatch {
            n,
            k,
            pow: pow as u64,
            threshold: ((1u128 << 64) % pow) as u64,
        }
    }

    /// Whether the 64-bit word `x` starts a batch.
    #[inline(always)]
    pub fn accepts(&self, x: u64) -> bool {
        x.wrapping_mul(self.pow) >= self.threshold
    }
}

/// One face of a batch: `word * n = face * 2^bits + rest` (word below 2^bits, bits <= 64).
/// The simulator uses 64 bits; the tests enumerate it at 16.
#[inline(always)]
pub fn split(word: u64, n: u64, bits: u32) -> (u64, u64) {
    let m = u128::from(word) * u128::from(n);
    let mask = if bits == 64 {
        u128::from(u64::MAX)
    } else {
        (1u128 << bits) - 1
    };
    ((m >> bits) as u64, (m & mask) as u64)
}

/// The value below `n` a 16-bit piece stands for, or `None` for a rejected piece (Lemire's
/// multiply-shift with rejection).
#[inline(always)]
pub(super) fn face_of_piece(piece: u32, n: u32, reject_below: u32) -> Option<u32> {
    let m = piece * n;
    ((m & 0xFFFF) >= reject_below).then_some(m >> 16)
}

/// Lemire's method on a `bits`-bit random number `x` (bits <= 64) for a value below `n`:
/// `x * n = v * 2^bits + low`, rejecting the `2^bits mod n` lowest `low`s, so each v below n
/// has exactly `floor(2^bits / n)` accepted x. The simulator uses 64 bits; the tests
/// enumerate it at 16.
fn lemire(x: u64, bits: u32, n: u64) -> Option<u64> {
    let m = u128::from(x) * u128::from(n);
    let mask = if bits == 64 {
        u128::from(u64::MAX)
    } else {
        (1u128 << bits) - 1
    };
    let low = (m & mask) as u64;
    // 2^bits mod n, computed only when low is small enough to matter (low < n).
    if low < n {
        let reject = ((1u128 << bits) % u128::from(n)) as u64;
        if low < reject {
            return None;
        }
    }
    Some((m >> bits) as u64)
}

/// `2^16 mod n` for n <= 2^16 (0 above): the 16-bit pieces that [`Dice::next_index`] rejects.
pub fn reject_below(n: u64) -> u32 {
    if n <= PIECE {
        (PIECE % n) as u32
    } else {
        0
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014), used to spread seeds into streams.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Totals up to this are turned into an index by one lookup instead of a binary search.
const DIRECT_MAX: u64 = 256;

/// An exact pick among outcomes with integer weights: a uniform integer u below the total, then
/// the outcome whose cumulative range holds u.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighted {
    total: u64,
    reject: u32,
    /// `cumulative[i]`: the weights of outcomes 0..=i.
    cumulative: Vec<u64>,
    /// For small totals, `direct[u]` is the outcome of u.
    direct: Vec<u16>,
}

impl Weighted {
    /// The pick among `weights` (positive total; there must be at most 2^16 outcomes).
    pub fn new(weights: impl IntoIterator<Item = u64>) -> Weighted {
        let mut cumulative: Vec<u64> = weights.into_iter().collect();
        for i in 1..cumulative.len() {
            cumulative[i] += cumulative[i - 1];
        }
        let total = *cumulative.last().expect("some outcome");
        assert!(total > 0, "a pick needs a positive total weight");
        let mut w = Weighted {
            total,
            reject: reject_below(total),
            cumulative,
            direct: Vec::new(),
        };
        if total <= DIRECT_MAX {
            w.direct = (0..total).map(|u| w.search(u) as u16).collect();
        }
        w
    }

    /// The total weight.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The weight of outcome `i`.
    pub fn weight(&self, i: usize) -> u64 {
        self.cumulative[i] - if i == 0 { 0 } else { self.cumulative[i - 1] }
    }

    /// The outcome of the uniform integer `u` (below the total): the first i whose cumulative
    /// weight exceeds u, so outcome i has exactly `weight_i` values of u.
    #[inline(always)]
    pub fn index_of(&self, u: u64) -> usize {
        match self.direct.get(u as usize) {
            Some(&i) => usize::from(i),
            None => self.search(u),
        }
    }

    fn search(&self, u: u64) -> usize {
        self.cumulative.partition_point(|&c| c <= u)
    }

    /// Draws an outcome from `dice`.
    #[inline(always)]
    pub fn pick(&self, dice: &mut Dice) -> usize {
        self.index_of(dice.uniform(self.total, self.reject))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_exactly_the_same_number_of_accepted_pieces() {
        // Every die of the boards (2..=100 faces) and totals of loaded and several dice, up to
        // the largest a piece serves.
        let totals = (2..=crate::board::MAX_DIE).map(u64::from).chain([
            36,
            216,
            1000,
            6u64.pow(5),
            65_535,
            65_536,
        ]);
        for n in totals {
            let mut counts = vec![0u32; n as usize];
            for piece in 0..1u32 << 16 {
                if let Some(f) = face_of_piece(piece, n as u32, reject_below(n)) {
                    counts[f as usize] += 1;
                }
            }
            let share = (1u32 << 16) / n as u32;
            assert!(counts.iter().all(|&c| c == share), "n {n}");
        }
    }

    #[test]
    fn every_tuple_of_a_batch_has_exactly_the_same_number_of_accepted_words() {
        // The batch method at 16-bit words, every word enumerated: accept x when
        // x * n^k mod 2^16 >= 2^16 mod n^k, then k faces by split. Each of the n^k tuples of
        // faces must come from exactly floor(2^16 / n^k) words (so the faces are independent and
        // uniform), and the tuple read as a base-n number must be Lemire's value
        // floor(x n^k / 2^16) (a second derivation of the same faces).
        for (n, k) in [
            (6u64, 6u32),
            (6, 5),
            (6, 1),
            (2, 16),
            (3, 10),
            (7, 5),
            (100, 2),
            (255, 2),
        ] {
            let pow = n.pow(k);
            let threshold = (1 << 16) % pow;
            let mut counts = vec![0u32; pow as usize];
            for x in 0..1u64 << 16 {
                if (x * pow) % (1 << 16) < threshold {
                    continue;
                }
                let (mut word, mut tuple) = (x, 0);
                for _ in 0..k {
                    let (face, rest) = split(word, n, 16);
                    assert!(face < n);
                    tuple = tuple * n + face;
                    word = rest;
                }
                assert_eq!(tuple, (x * pow) >> 16, "n {n} k {k} x {x}");
                counts[tuple as usize] += 1;
            }
            let share = ((1u64 << 16) / pow) as u32;
            assert!(counts.iter().all(|&c| c == share), "n {n} k {k}");
        }
    }

    #[test]
    fn the_64_bit_batches_are_the_same_method() {
        // k by hand: 6^21 = 21,936,950,640,377,856 <= 2^56 = 72,057,594,037,927,936 < 6^22;
        // 100^8 = 10^16 <= 2^56 < 10^18; 2^32 (the cap of 32 faces); 2^16 cubed is 2^48;
        // 2^32 squared is over 2^56.
        for (n, k) in [(6u64, 21u32), (100, 8), (2, 32), (1 << 16, 3), (1 << 32, 1)] {
            let b = FaceBatch::new(n);
            assert_eq!(b.k, k, "n {n}");
            let pow = u128::from(n).pow(k);
            // The acceptance test against u128 arithmetic: low word of x n^k against 2^64 mod n^k.
            let mut dice = Dice::new(11, n);
            for _ in 0..2_000 {
                let x = dice.rng.next_u64();
                let m = u128::from(x) * pow;
                let threshold = (1u128 << 64) % pow;
                assert_eq!(b.accepts(x), m % (1 << 64) >= threshold, "n {n} x {x}");
            }
            // Dice::face gives the base-n digits of floor(x n^k / 2^64) of each accepted word of
            // the stream, in order.
            let mut dice = Dice::new(12, n);
            let mut words = Dice::new(12, n);
            for _ in 0..50 {
                let x = loop {
                    let x = words.rng.next_u64();
                    if u128::from(x) * pow % (1 << 64) >= (1u128 << 64) % pow {
                        break x;
                    }
                };
                let mut v = (u128::from(x) * pow) >> 64;
                let mut digits = vec![0u64; k as usize];
                for d in digits.iter_mut().rev() {
                    *d = (v % u128::from(n)) as u64;
                    v /= u128::from(n);
                }
                let faces: Vec<u64> = (0..k).map(|_| u64::from(dice.face(&b))).collect();
                assert_eq!(faces, digits, "n {n}");
            }
        }
    }

    #[test]
    fn the_wide_sampler_accepts_exactly_the_same_number_of_words_per_value() {
        // Lemire at 64 bits is the same function as at 16: enumerate it at 16 bits for totals
        // that leave a remainder (2^16 mod n > 0) and that do not.
        for n in [3u64, 7, 36, 1000, 65_535, 4096] {
            let mut counts = vec![0u64; n as usize];
            for x in 0..1u64 << 16 {
                if let Some(v) = lemire(x, 16, n) {
                    counts[v as usize] += 1;
                }
            }
            assert!(counts.iter().all(|&c| c == (1 << 16) / n), "n {n}");
        }
        // At 64 bits: 2^64 mod 3 = 1, so only the x with low word 0 is rejected.
        assert_eq!(lemire(0, 64, 3), None);
        assert_eq!(lemire(u64::MAX, 64, 3), Some(2));
        assert_eq!(lemire(1 << 63, 64, 3), Some(1));
    }

    #[test]
    fn each_outcome_of_a_pick_gets_exactly_its_weight_in_values() {
        // A loaded d6, two fair dice (the sums' law 1,2,...,6,...,1 out of 36), a zero weight,
        // and a total too large for the direct table.
        let cases: Vec<Vec<u64>> = vec![
            vec![1, 1, 1, 1, 1, 3],
            vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1],
            vec![2, 0, 5],
            vec![100, 0, 250, 7],
        ];
        for weights in cases {
            let w = Weighted::new(weights.iter().copied());
            let mut counts = vec![0u64; weights.len()];
            for u in 0..w.total() {
                counts[w.index_of(u)] += 1;
            }
            assert_eq!(counts, weights);
            // The binary search agrees with the direct table.
            for u in 0..w.total() {
                assert_eq!(w.search(u), w.index_of(u));
            }
        }
    }

    #[test]
    fn a_loaded_pick_follows_its_weights_in_a_long_run() {
        // Weights 1, 1, 1, 1, 1, 3 out of 8 and a total above 2^16 (whole words): chi-square
        // with 5 (resp. 2) degrees of freedom, failing 5 sd above its mean.
        for weights in [vec![1u64, 1, 1, 1, 1, 3], vec![70_000, 1, 69_999]] {
            let w = Weighted::new(weights.iter().copied());
            let mut dice = Dice::new(5, 0);
            let n = 800_000u64;
            let mut counts = vec![0u64; weights.len()];
            for _ in 0..n {
                counts[w.pick(&mut dice)] += 1;
            }
            let mut chi = 0.0;
            for (c, &wt) in counts.iter().zip(&weights) {
                let e = n as f64 * wt as f64 / w.total() as f64;
                chi += (*c as f64 - e).powi(2) / e;
            }
            let df = (weights.len() - 1) as f64;
            assert!(
                chi < df + 5.0 * (2.0 * df).sqrt(),
                "{weights:?}: chi2 {chi}"
            );
        }
    }
}
