//! A race sample whose rounds show no spread, judged exactly: the chance, under the exact law
//! of the race's length R, that every finished game lasted the same number of rounds v.
//!
//! The mean-rounds test of [`super::race::compare_race`] takes its standard deviation from the
//! sample (the exact variance of R is not computed), so a sample in which every race lasted v
//! rounds has none to test with. It is judged exactly instead. For seats without interaction
//! (no knock-off, each on its own board) seat s needs `T_s` turns, the seats are independent and
//! the race is over after round r only if some seat finished by then, so
//!
//! ```text
//! P(R > r) = prod_s P(T_s > r)        P(R = v) = P(R > v - 1) - P(R > v)
//! ```
//!
//! with each `P(T_s > r)` exact from the integer stepper ([`crate::exact::step`]). The chance
//! that n games all last v rounds is `P(R = v)^n`; the test passes when that chance is not below
//! its level (the Bonferroni level of the race check) and fails otherwise. Capped games are
//! outside the rounds sample, as for the z test (the `check` command refuses a capped sample).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use crate::board::Board;
use crate::chain::Chain;
use crate::exact::step::IntegerChain;
use crate::race::independent::distinct_boards;

/// The seats of a race without interaction, kept so the exact law of its length can be stepped
/// when a sample asks for it.
#[derive(Clone, Debug)]
pub struct RoundsLaw {
    /// The distinct boards.
    boards: Vec<Board>,
    /// Which distinct board each seat plays.
    seat_board: Vec<usize>,
}

/// The exact judgement of a race sample in which every finished game lasted `value` rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct EqualRounds {
    /// The one number of rounds every finished race lasted.
    pub value: u64,
    /// The finished games.
    pub games: u64,
    /// `P(R = value)`, exactly.
    pub p_value_rounds: BigRational,
    /// `log10 P(R = value)^games` (negative infinity when `P(R = value)` is 0).
    pub log10_chance: f64,
    /// The level the chance is compared with.
    pub level: f64,
    /// The chance is not below the level.
    pub pass: bool,
}

impl RoundsLaw {
    /// The law of the length of a race of `boards` (in seat order, no interaction).
    pub fn new(boards: &[&Board]) -> RoundsLaw {
        let (distinct, seat_board) = distinct_boards(boards);
        RoundsLaw {
            boards: distinct.into_iter().cloned().collect(),
            seat_board,
        }
    }

    /// `P(R = v)` exactly, R the number of rounds the race lasts (`v >= 1`): each distinct
    /// board's law is stepped v turns.
    pub fn p_equal(&self, v: u64) -> BigRational {
        let mut before = BigRational::one();
        let mut after = BigRational::one();
        for (i, board) in self.boards.iter().enumerate() {
            let chain = IntegerChain::new(&Chain::for_board(board));
            let mut stepper = chain.stepper();
            for _ in 1..v {
                stepper.step();
            }
            let s_before = stepper.p_survives();
            stepper.step();
            let s_after = stepper.p_survives();
            for _ in self.seat_board.iter().filter(|&&b| b == i) {
                before *= &s_before;
                after *= &s_after;
            }
        }
        before - after
    }

    /// Judges `games` finished races that all lasted `value` rounds at `level`: passes when
    /// `P(R = value)^games >= level`.
    pub fn judge(&self, value: u64, games: u64, level: f64) -> EqualRounds {
        let p = self.p_equal(value);
        let log10_chance = if p.is_zero() {
            f64::NEG_INFINITY
        } else {
            games as f64 * log10(&p)
        };
        EqualRounds {
            value,
            games,
            pass: log10_chance >= level.log10(),
            p_value_rounds: p,
            log10_chance,
            level,
        }
    }
}

/// `log10 r` for a positive rational of any size (the top 64 bits of its numerator and
/// denominator, and their bit lengths).
fn log10(r: &BigRational) -> f64 {
    fn log2_int(x: &BigInt) -> f64 {
        let bits = x.bits();
        let shift = bits.saturating_sub(64);
        let top = (x >> shift).to_f64().unwrap_or(f64::MAX);
        top.log2() + shift as f64
    }
    (log2_int(r.numer()) - log2_int(r.denom())) * std::f64::consts::LOG10_2
}

impl EqualRounds {
    /// The chance `P(R = value)^games` as text: `0.739` or `7.6e-14` (from its logarithm, so
    /// never rounded to 0 while it is positive), `0` when `P(R = value)` is 0.
    pub fn chance_text(&self) -> String {
        if self.log10_chance == f64::NEG_INFINITY {
            return "0".to_string();
        }
        if self.log10_chance >= -3.0 {
            return format!("{:.3}", 10f64.powf(self.log10_chance));
        }
        let e = self.log10_chance.floor();
        let m = 10f64.powf(self.log10_chance - e);
        // 9.96 rounds to 10.0: print 1.0 with the next exponent.
        if format!("{m:.1}") == "10.0" {
            return format!("1.0e{}", e as i64 + 1);
        }
        format!("{m:.1}e{}", e as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::q;

    #[test]
    fn sixteen_seats_on_tiny_last_two_rounds_with_the_hand_worked_chance() {
        // boards/tiny.toml: P(T = n) = (n - 1) / 2^n (n >= 2), so P(T > 1) = 1 and
        // P(T > 2) = 1 - 1/4 = 3/4. Sixteen independent seats: P(R > 1) = 1, P(R > 2) =
        // (3/4)^16 = 3^16 / 4^16 = 43046721 / 4294967296, so
        // P(R = 2) = 1 - 43046721 / 4294967296 = 4251920575 / 4294967296 (= 0.98998...).
        let tiny = builtin("tiny").unwrap();
        let law = RoundsLaw::new(&[&tiny; 16]);
        assert_eq!(law.p_equal(2), q(4_251_920_575, 4_294_967_296));
        assert_eq!(law.p_equal(1), BigRational::zero());
        // P(R = 3) = (3/4)^16 - P(T > 3)^16 with P(T > 3) = 3/4 - 2/8 = 1/2:
        // 3^16 / 4^16 - 1 / 2^16 = (43046721 - 65536) / 4294967296.
        assert_eq!(law.p_equal(3), q(43_046_721 - 65_536, 4_294_967_296));
        // 30 games: 0.98998^30 = 0.7392 (log10: 30 log10(0.9899776) = -0.13126), well above
        // the level of 18 tests, 5e-7 / 18 = 2.8e-8: pass.
        let ok = law.judge(2, 30, 5e-7 / 18.0);
        assert!(ok.pass);
        assert!(
            (ok.log10_chance - -0.131_26).abs() < 1e-4,
            "{}",
            ok.log10_chance
        );
        assert_eq!(ok.chance_text(), "0.739");
        // 3000 games: 3000 log10(0.9899776) = -13.126, below log10(2.8e-8) = -7.56: fail.
        let bad = law.judge(2, 3000, 5e-7 / 18.0);
        assert!(!bad.pass);
        assert_eq!(bad.chance_text(), "7.5e-14");
        // A length the race never has: chance 0.
        let never = law.judge(1, 30, 5e-7 / 18.0);
        assert!(!never.pass);
        assert_eq!(never.chance_text(), "0");
    }

    #[test]
    fn seats_on_different_boards_multiply_their_own_survival() {
        // tiny (P(T > 2) = 3/4) against a board of 2 squares with a d2 die and overshoot stay
        // from the start: T = 1 with the 2, else from square 1 the 1 finishes: P(T > 1) = 1/2,
        // P(T > 2) = 1/4. P(R = 2) = P(R > 1) - P(R > 2) = 1 * 1/2 - 3/4 * 1/4 = 5/16.
        let tiny = builtin("tiny").unwrap();
        let two = Board::from_toml_str(
            "size = 2\nsnakes = []\nladders = []\n[rules]\ndie = 2\novershoot = \"stay\"\n",
            "two",
        )
        .unwrap();
        let law = RoundsLaw::new(&[&tiny, &two]);
        assert_eq!(law.p_equal(2), q(5, 16));
        // P(R = 1) = 1 - P(T_tiny > 1) P(T_two > 1) = 1 - 1/2.
        assert_eq!(law.p_equal(1), q(1, 2));
    }
}
