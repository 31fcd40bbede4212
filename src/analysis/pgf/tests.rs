//! Tests of the generating function against values derived by hand, by counting, by the exact
//! solver and by a textbook Berlekamp-Massey over the rationals.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::*;
use crate::analysis::expectation::{expect_chain, Expectation};
use crate::analysis::fundamental::expected_rewards;
use crate::analysis::moments::factorial_moments;
use crate::analysis::stateful::{law_chain, stateful_chain};
use crate::board::{builtin, builtin_names, Board};
use crate::game::Capabilities;

fn ints(v: &[i64]) -> Vec<BigInt> {
    v.iter().map(|&x| BigInt::from(x)).collect()
}

fn builtin_boards() -> Vec<Board> {
    builtin_names().map(|n| builtin(n).unwrap()).collect()
}

#[test]
fn the_tiny_board_has_the_hand_worked_generating_function() {
    // By hand (boards/tiny.toml): T = G1 + G2, two independent waits for heads, each with
    // generating function (z/2) / (1 - z/2) = z / (2 - z). So
    // F(z) = z^2 / (2 - z)^2 = z^2 / (4 - 4z + z^2), and D(z) F(z) = N(z) reads
    // 4 p_n - 4 p_(n-1) + p_(n-2) = 0 for n >= 3, with p_0 = p_1 = 0, p_2 = 1/4.
    let b = builtin("tiny").unwrap();
    let f = pgf(&Chain::for_board(&b));
    assert_eq!(f.numerator, ints(&[0, 0, 1]));
    assert_eq!(f.denominator, ints(&[4, -4, 1]));
    assert_eq!(f.recurrence.coefficients, ints(&[4, -4, 1]));
    assert_eq!(f.recurrence.from, 3);
    let quarter = BigRational::new(BigInt::one(), BigInt::from(4));
    assert_eq!(
        f.recurrence.initial,
        vec![BigRational::zero(), BigRational::zero(), quarter]
    );
}

/// `2^n P(T = n)` for a coin moving 1 or 2 from square `start` until it reaches `size` or
/// passes it, by counting paths (no chain): `ways[n][s]` paths of n steps ending on s unfinished.
fn coin_counts(size: usize, start: usize) -> Vec<BigInt> {
    let mut ways = vec![BigInt::zero(); size];
    ways[start] = BigInt::one();
    let mut ended = vec![BigInt::zero()];
    while ways.iter().any(|w| !w.is_zero()) {
        let mut next = vec![BigInt::zero(); size];
        let mut done = BigInt::zero();
        for (s, w) in ways.iter().enumerate() {
            for step in 1..=2 {
                if s + step >= size {
                    done += w;
                } else {
                    next[s + step] += w;
                }
            }
        }
        ways = next;
        ended.push(done);
    }
    ended
}

#[test]
fn zeilbergers_coin_board_has_his_polynomial_generating_function() {
    // Thanatipanonda and Zeilberger (J. Symbolic Computation 104, 2021): an empty 30-square
    // board, start on square 1, a coin moving 1 or 2, reaching or passing 30 ends the game:
    // F(z) = z^15 (z^14 + 55 z^13 + ... + 131072) / 2^28.
    let text = "name = \"coin\"\nsize = 30\n[rules]\nstart = 1\ndie = 2\novershoot = \"allow\"\n";
    let b = Board::from_toml_str(text, "zeilberger").unwrap();
    let f = pgf(&Chain::for_board(&b));
    assert_eq!(f.denominator, vec![BigInt::from(1u64 << 28)]);
    assert_eq!(f.numerator.len(), 30);
    assert!(f.numerator[..15].iter().all(Zero::is_zero));
    // The published coefficients: z^29, z^28 and the constant of the bracket (z^15).
    assert_eq!(f.numerator[29], BigInt::one());
    assert_eq!(f.numerator[28], BigInt::from(55));
    assert_eq!(f.numerator[15], BigInt::from(131_072));
    // Every coefficient, against path counting: 2^28 P(T = n) = counts[n] 2^(28 - n).
    let counts = coin_counts(30, 1);
    assert_eq!(counts.len(), 30);
    for (n, c) in counts.iter().enumerate() {
        let want = if n <= 28 {
            c << (28 - n)
        } else {
            c >> (n - 28)
        };
        assert_eq!(f.numerator[n], want, "z^{n}");
    }
    assert_eq!(&counts[29] % 2, BigInt::zero());
}

/// The series of N/D equals the exact P(T = n) (stepped in integers on the chain) for three
/// times the recurrence's order past its initial terms. Checked as `D(z) L(z) = N(z)` modulo
/// `z^count`, L the exact law, which is the same statement as D(0) != 0, in integers: with S the
/// chain's common denominator and `c_n = S^n P(T = n)`, `sum_i d_i S^i c_(k-i) = N_k S^k` for
/// every k < count (dividing the series out would scale by `d_0^k`, a million bits on seed-003).
/// [`Pgf::series`] itself is compared with the first terms.
fn assert_series_is_the_law<S: ChainState>(chain: &Chain<S>, f: &Pgf, name: &str) {
    let count = 3 * f.recurrence.order().max(1) + f.recurrence.from;
    let ic = IntegerChain::new(chain);
    let s = ic.denominator().clone();
    let mut stepper = ic.stepper();
    let mut law = vec![BigRational::zero()];
    let mut counts = vec![BigInt::zero()];
    let mut s_pow = vec![BigInt::one()];
    for n in 1..count {
        stepper.step();
        let p = stepper.p_ends_now();
        s_pow.push(&s_pow[n - 1] * &s);
        let c = &p * BigRational::from_integer(s_pow[n].clone());
        assert!(c.is_integer(), "{name} n = {n}");
        counts.push(c.to_integer());
        law.push(p);
    }
    let d = &f.denominator;
    assert!(!d[0].is_zero(), "{name}");
    let scaled_d: Vec<BigInt> = d.iter().zip(&s_pow).map(|(di, si)| di * si).collect();
    for k in 0..count {
        let mut lhs = BigInt::zero();
        for (i, e) in scaled_d.iter().enumerate().take(k + 1) {
            lhs += e * &counts[k - i];
        }
        let rhs = f
            .numerator
            .get(k)
            .map_or_else(BigInt::zero, |x| x * &s_pow[k]);
        assert_eq!(lhs, rhs, "{name} z^{k}");
    }
    let first = count.min(40);
    assert_eq!(f.series(first), law[..first], "{name}");
}

#[test]
fn the_series_is_the_exact_law_for_three_times_the_order_on_every_built_in_board() {
    // Each board's own game: seed-003's one-use ladders and apples on the chain of its player
    // state without the eaten apples (the same law of T, analysis::stateful).
    for b in builtin_boards() {
        if !Capabilities::of(&b).stateless {
            let chain = law_chain(&b);
            assert_series_is_the_law(&chain, &pgf(&chain), b.name());
        } else {
            let chain = Chain::for_board(&b);
            assert_series_is_the_law(&chain, &pgf(&chain), b.name());
        }
    }
}

#[test]
fn f_of_one_is_one_and_its_derivatives_are_the_solved_moments_on_every_built_in_board() {
    for b in builtin_boards() {
        if !Capabilities::of(&b).stateless {
            // F from the chain without the eaten apples; E[T] and Var T solved on the full
            // player state (what is used up, eaten, owed), by verified lifting.
            let fm = pgf(&law_chain(&b)).factorial_moments(2);
            assert_eq!(fm[0], BigRational::one(), "{}", b.name());
            let full = stateful_chain(&b);
            let e = expected_rewards(&full, &[], true).expect("the verified route applies");
            let turns = e.expected[0].get(full.start());
            assert_eq!(fm[1], turns, "{}", b.name());
            let variance = e.second_moment(full.start()).unwrap() - &turns * &turns;
            assert_eq!(&fm[2] + &fm[1] - &fm[1] * &fm[1], variance, "{}", b.name());
            continue;
        }
        let chain = Chain::for_board(&b);
        let f = pgf(&chain);
        let fm = f.factorial_moments(4);
        assert_eq!(fm[0], BigRational::one(), "{}", b.name());
        let Expectation::Finite(e) = expect_chain(&chain) else {
            panic!("{} ends", b.name())
        };
        assert_eq!(fm[1], e.turns, "{}", b.name());
        // Var T = F''(1) + F'(1) - F'(1)^2.
        assert_eq!(
            &fm[2] + &fm[1] - &fm[1] * &fm[1],
            e.variance,
            "{}",
            b.name()
        );
        assert_eq!(fm, factorial_moments(&chain, 4).unwrap(), "{}", b.name());
    }
}

/// The linear complexity of a sequence by the textbook Berlekamp-Massey over the rationals.
fn rational_linear_complexity(s: &[BigRational]) -> usize {
    let mut c = vec![BigRational::one()];
    let mut b = vec![BigRational::one()];
    let (mut l, mut shift, mut b_disc) = (0usize, 1usize, BigRational::one());
    for k in 0..s.len() {
        let disc = (0..=l).fold(BigRational::zero(), |acc, i| acc + &c[i] * &s[k - i]);
        if disc.is_zero() {
            shift += 1;
            continue;
        }
        let coef = &disc / &b_disc;
        let old = c.clone();
        c.resize(c.len().max(b.len() + shift), BigRational::zero());
        for (i, bi) in b.iter().enumerate() {
            c[i + shift] -= &coef * bi;
        }
        if 2 * l <= k {
            l = k + 1 - l;
            b = old;
            b_disc = disc;
            shift = 1;
        } else {
            shift += 1;
        }
    }
    l
}

#[test]
fn the_recurrence_is_minimal() {
    // No recurrence shorter than the one found fits P(T = n): the linear complexity over the
    // rationals of P(T = 1), P(T = 2), ... (2n terms, n the number of transient states) is
    // the order of D, plus the degree N exceeds it by when the law starts late.
    let coin = "name = \"coin\"\nsize = 12\n[rules]\nstart = 1\ndie = 2\novershoot = \"allow\"\n";
    let small = "name = \"s\"\nsize = 20\nsnakes = [[17, 4], [11, 2]]\nladders = [[3, 15]]\n\
                 [rules]\ndie = 3\n";
    let boards = [
        builtin("tiny").unwrap(),
        builtin("milton-bradley-48").unwrap(),
        Board::from_toml_str(coin, "coin").unwrap(),
        Board::from_toml_str(small, "small").unwrap(),
    ];
    for b in boards {
        let chain = Chain::for_board(&b);
        let f = pgf(&chain);
        let terms = f.series(2 * chain.transient_count() + 1);
        let complexity = rational_linear_complexity(&terms[1..]);
        let deg_n = f.numerator.len() - 1;
        assert_eq!(complexity, f.recurrence.order().max(deg_n), "{}", b.name());
        // And the coefficients found fit every term (the proof's claim, checked again here).
        let r = &f.recurrence;
        for n in r.from..terms.len() {
            let sum = (0..=r.order()).fold(BigRational::zero(), |acc, i| {
                acc + BigRational::from_integer(r.coefficients[i].clone()) * &terms[n - i]
            });
            assert!(sum.is_zero(), "{} n = {n}", b.name());
        }
    }
}
