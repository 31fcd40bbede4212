//! How far a floating-point answer (`expect --float`) can be trusted: the significant digits
//! its solve stands behind, from an estimate of the system's condition number and the solver's
//! backward-error tolerance, and the checks that catch an answer no correct solve could give
//! (a negative count, fewer rolls than turns where every turn has a roll, a negative variance). An answer that keeps fewer
//! than [`MIN_DIGITS`] digits is refused, never printed as a number.
//!
//! The bound. Every float solve is backward stable: its answer x solves `(A + dA) x = b` with
//! `|dA| <= ETA |A|`, ETA = `crate::prec::BACKWARD_ERROR` (infinity norms; BiCGSTAB's
//! answers are kept only when their residual passes that test, the fallback is an elimination). Then the error is at most about
//! `kappa * ETA * |x|` with `kappa = |A| |A^-1|`. For `A = I - Q`, `|A| <= 2` and `|A^-1|` is
//! the largest expected number of steps left from any state (`A^-1` is nonnegative and
//! `A^-1 1` is that vector), so `kappa <= 2 * max_i steps_i`. The solve gives those steps; it
//! cannot give small ones on a nearly singular system, because any x with a small residual
//! has `(1 - rho) pi x >= pi b - |r|` (pi the left eigenvector of Q for its largest eigenvalue
//! rho), so `max x >= about 1 / (1 - rho)`.

/// The most significant digits ever claimed for a float answer.
pub const MAX_DIGITS: u32 = 12;

/// Below this many significant digits a float answer is refused.
pub const MIN_DIGITS: u32 = 3;

/// Why a floating-point answer is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FloatUntrusted {
    /// The system is too ill-conditioned for f64.
    #[error(
        "the floating-point solve cannot stand behind its answer: the system's condition number \
         is about {condition:.1e}, which leaves {digits} correct significant digits (at least \
         3 are needed)"
    )]
    IllConditioned {
        /// The condition number's estimate.
        condition: f64,
        /// The significant digits left (negative: not even the magnitude).
        digits: i32,
    },
    /// The solve gave a figure no game can have.
    #[error(
        "the floating-point solve gave an impossible answer ({what} = {value:e}), so it is not \
         printed"
    )]
    Impossible {
        /// Which figure.
        what: &'static str,
        /// Its value.
        value: f64,
    },
    /// A pivot vanished: the float system is singular.
    #[error("the floating-point solve failed (the system is singular in f64)")]
    Singular,
}

/// The significant digits a component of relative size `scale` (`|x|_inf / |x_i|`, at least 1)
/// keeps when the condition number is `condition`: `floor(-log10(condition * ETA * scale))`.
pub fn significant_digits(condition: f64, scale: f64) -> i32 {
    let relative = condition.max(1.0) * crate::prec::BACKWARD_ERROR * scale.max(1.0);
    if !relative.is_finite() {
        return i32::MIN;
    }
    // Bounded: relative >= 1e-14, so the value is at most 14.
    (-relative.log10()).floor() as i32
}

/// The figures of an expectation in floating point, to be checked: `turns`, `rolls`, the
/// nonnegative counts (snakes, ladders, climbed, slid, per square), `second` (`E[T^2]`'s
/// ingredient `u` with `Var = 2u - t - t^2`).
pub struct Figures<'a> {
    /// E\[T\].
    pub turns: f64,
    /// Expected rolls.
    pub rolls: f64,
    /// `u`, the chained solve's value: `Var[T] = 2u - t - t^2`.
    pub second: f64,
    /// Figures that must be nonnegative, with their names.
    pub counts: &'a [(&'static str, f64)],
    /// Every turn has a roll, so the expected rolls are at least the expected turns (false
    /// when a turn can have none: a lost turn, a jump turn under `jump_takes_turn`).
    pub every_turn_rolls: bool,
}

/// The digits of an accepted answer: of every figure but the variance, and of the variance
/// (0 when the variance is below what the solve resolves).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Trust {
    /// The condition number's estimate.
    pub condition: f64,
    /// Significant digits of every figure but the variance, `MIN_DIGITS..=MAX_DIGITS`.
    pub digits: u32,
    /// Significant digits of the variance and standard deviation, `0..=digits` (0: the
    /// variance is below [`Trust::variance_bound`] and not resolved).
    pub variance_digits: u32,
    /// The absolute error bound of the variance.
    pub variance_bound: f64,
    /// The largest expected number of steps from any state.
    pub max_steps: f64,
}

impl Trust {
    /// The significant digits of another component of the same solve, `value` (a per-square
    /// figure: smaller components keep fewer digits), at most [`Trust::digits`].
    pub fn digits_for(&self, value: f64) -> u32 {
        let scale = self.max_steps / value.abs().max(f64::MIN_POSITIVE);
        significant_digits(self.condition, scale).clamp(0, self.digits as i32) as u32
    }
}

/// Checks the figures of a float solve whose largest expected number of steps from any state
/// is `max_steps`, and says how many digits each keeps.
///
/// # Errors
///
/// [`FloatUntrusted`] when fewer than [`MIN_DIGITS`] digits are left or a figure is impossible.
pub fn trust(figures: &Figures<'_>, max_steps: f64) -> Result<Trust, FloatUntrusted> {
    let f = figures;
    let all = [("expected turns", f.turns), ("expected rolls", f.rolls)];
    for &(what, value) in all.iter().chain(f.counts) {
        if !value.is_finite() || value < 0.0 {
            return Err(FloatUntrusted::Impossible { what, value });
        }
    }
    if !f.second.is_finite() {
        return Err(FloatUntrusted::Impossible {
            what: "E[T^2]",
            value: f.second,
        });
    }
    let condition = 2.0 * max_steps.max(f.rolls).max(1.0);
    let digits = significant_digits(condition, max_steps / f.turns.max(f64::MIN_POSITIVE));
    if digits < MIN_DIGITS as i32 {
        return Err(FloatUntrusted::IllConditioned { condition, digits });
    }
    let relative = 10f64.powi(-digits);
    if f.turns < 1.0 - relative {
        return Err(FloatUntrusted::Impossible {
            what: "expected turns",
            value: f.turns,
        });
    }
    if f.every_turn_rolls && f.rolls < f.turns * (1.0 - relative) {
        return Err(FloatUntrusted::Impossible {
            what: "expected rolls (fewer than turns)",
            value: f.rolls,
        });
    }
    let variance = 2.0 * f.second - f.turns - f.turns * f.turns;
    // Each of u, t, t^2 is off by at most `relative` of itself (u: twice, a chained solve).
    let variance_bound = relative * (4.0 * f.second.abs() + f.turns + 2.0 * f.turns * f.turns);
    if variance < -variance_bound {
        return Err(FloatUntrusted::Impossible {
            what: "variance",
            value: variance,
        });
    }
    let lost = if variance > variance_bound {
        (variance_bound / relative / variance)
            .log10()
            .ceil()
            .max(0.0) as i32
    } else {
        digits
    };
    let digits = digits.min(MAX_DIGITS as i32);
    Ok(Trust {
        condition,
        digits: digits as u32,
        variance_digits: (digits - lost).max(0) as u32,
        variance_bound,
        max_steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(turns: f64, rolls: f64, second: f64) -> Figures<'static> {
        Figures {
            turns,
            rolls,
            second,
            counts: &[],
            every_turn_rolls: true,
        }
    }

    #[test]
    fn digits_follow_the_condition_number() {
        // condition 50, scale 1: relative error 5e-13, 12 digits (12.3 floored).
        assert_eq!(significant_digits(50.0, 1.0), 12);
        // 2 * 4.5e15 (the 2^-51 board): 90, no digit at all.
        assert!(significant_digits(9.0e15, 1.0) < 0);
        // A component ten times smaller than the largest loses one more.
        assert_eq!(significant_digits(50.0, 10.0), 11);
        assert_eq!(significant_digits(f64::INFINITY, 1.0), i32::MIN);
    }

    #[test]
    fn the_2_pow_minus_51_board_is_refused() {
        // What the solve printed before: E[T] -2,488,214,975,684,528 (exact 4,503,599,627,370,494).
        let bad = figures(-2.488_214_975_684_528e15, 4.5e15, 1.0);
        assert!(matches!(
            trust(&bad, 4.5e15),
            Err(FloatUntrusted::Impossible { .. })
        ));
        // Even a positive answer of that size is refused: no digit survives.
        let big = figures(4.5e15, 4.5e15, 2.0e31);
        assert!(matches!(
            trust(&big, 4.5e15),
            Err(FloatUntrusted::IllConditioned { .. })
        ));
    }

    #[test]
    fn a_well_conditioned_answer_keeps_its_digits_and_the_variance_loses_the_cancellation() {
        // The tiny board: E[T] = 4, Var = 4, so u = (Var + t + t^2) / 2 = 12; steps at most 4.
        let t = trust(&figures(4.0, 4.0, 12.0), 4.0).unwrap();
        assert_eq!(t.condition, 8.0);
        // 8e-14: 13 digits, capped at 12.
        assert_eq!(t.digits, 12);
        // Bound 1e-13 * (48 + 4 + 32) = 8.4e-12 on a variance of 4: 84 / 4 = 21, two digits
        // lost from the 12 shown.
        assert_eq!(t.variance_digits, 10);
        assert!((t.variance_bound - 8.4e-12).abs() < 1e-20);
        // A per-square figure a hundred times below the largest: 8e-12, 11 digits.
        assert_eq!(t.digits_for(0.04), 11);
    }

    #[test]
    fn a_variance_below_the_bound_is_unresolved_and_a_negative_one_impossible() {
        // A deterministic game: 10 turns, Var = 0, u = (0 + 10 + 100) / 2 = 55.
        let zero = trust(&figures(10.0, 10.0, 55.0), 10.0).unwrap();
        assert_eq!(zero.variance_digits, 0);
        let negative = figures(10.0, 10.0, 50.0);
        assert!(matches!(
            trust(&negative, 10.0),
            Err(FloatUntrusted::Impossible {
                what: "variance",
                ..
            })
        ));
    }

    #[test]
    fn fewer_rolls_than_turns_are_possible_when_a_turn_can_have_none() {
        // Lost turns and jump turns have no roll: 9 rolls in 10 turns is a game.
        let jump_turns = Figures {
            every_turn_rolls: false,
            ..figures(10.0, 9.0, 60.0)
        };
        assert!(trust(&jump_turns, 10.0).is_ok());
    }

    #[test]
    fn impossible_figures_are_refused() {
        let fewer_rolls = figures(10.0, 9.0, 60.0);
        assert!(trust(&fewer_rolls, 10.0).is_err());
        let nan = figures(f64::NAN, 1.0, 1.0);
        assert!(trust(&nan, 1.0).is_err());
        let negative_slid = Figures {
            counts: &[("squares slid", -1.0)],
            ..figures(10.0, 10.0, 60.0)
        };
        assert_eq!(
            trust(&negative_slid, 10.0),
            Err(FloatUntrusted::Impossible {
                what: "squares slid",
                value: -1.0
            })
        );
    }
}
