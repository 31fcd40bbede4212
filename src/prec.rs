//! Float tolerances, named in one place (as statrs' `prec.rs`).
//!
//! Exact answers never depend on these: every float below either screens work that is then
//! done or checked exactly (a sweep whose result is rounded up and verified in integers, a bound
//! raised by a margin), decides whether a float answer is good enough to show as a float, or
//! lays out a picture. Each constant says what it guards; a new tolerance goes here, with its
//! line, rather than as a literal at the comparison. (Tests keep their own tolerances next to
//! their assertions.)

// --- Float solves and their acceptance ---------------------------------------------------------

/// The normwise backward error a float solve of `A x = b` is held to:
/// `|r|_inf <= BACKWARD_ERROR (|A|_inf |x|_inf + |b|_inf)` (Higham, *Accuracy and Stability of
/// Numerical Algorithms*, 2nd ed., theorem 7.1): as good as a backward-stable direct solve. The
/// float solvers accept an answer by it, and the error bounds shown with float answers assume it.
pub const BACKWARD_ERROR: f64 = 1e-14;

/// BiCGSTAB restarts (and tests the true residual) once its recurrence's residual is below this
/// relative size; a little under [`BACKWARD_ERROR`] so that the true residual usually passes.
pub const KRYLOV_RESTART: f64 = 1e-15;

/// The float power method behind the tail law stops once the Collatz-Wielandt ratios of its
/// iterate agree to this (relative); the law it settles on is then proved exactly.
pub const POWER_SETTLED: f64 = 1e-13;

/// The float bracket on the spectral radius (Collatz-Wielandt ratios) is narrow enough once
/// `hi - lo <= SPECTRAL_BRACKET * hi`.
pub const SPECTRAL_BRACKET: f64 = 1e-14;

/// Above `1 - RHO_MARGIN` a float decay rate rho is not trusted to say how slowly the tail
/// decays: 1 - rho is then near the rounding error of rho (on a board won with probability
/// 2^-51 a game, rho rounds to exactly 1).
pub const RHO_MARGIN: f64 = 1e-6;

// --- Margins on bounds computed in floats ------------------------------------------------------

/// The relative margin for float rounding on a bound computed in floating point and then used
/// as exact (the log2 Hadamard bounds of the solver and the lifting's step estimates), and on a
/// float solution rounded up before it is checked exactly (the fixed-point race's upper vector).
pub const BOUND_ROUNDING: f64 = 1e-9;

/// A float shown as an upper bound (to two digits) is raised by this relative amount so that the
/// conversion from the exact bound never rounds it below the bound.
pub const SHOWN_UPWARD: f64 = 1e-12;

// --- Sweeps whose results are checked exactly afterwards ---------------------------------------

/// Gauss-Seidel and value-iteration sweeps for a value stop when no component moves by more
/// than this (relative, or absolute on probabilities); the exact step that follows does not rely
/// on it.
pub const SWEEP_SETTLED: f64 = 1e-15;

/// A correction sweep (the error of a float solution solved from its exact residual, in the
/// layered race and a duel's refinement) stops when it moves by less than this: only a rough
/// correction is wanted.
pub const SWEEP_ROUGH: f64 = 1e-3;

/// A correction sweep whose corrected values should land on the multiples of 2^-60 nearest the
/// solution (the layered race's chances to eat each apple): stops when it moves by less than
/// this, so that the certified radius is the rounding's, not the sweep's.
pub const SWEEP_REFINED: f64 = 1e-6;

/// The sweeps for a bound on the expected remaining turns (then rounded up and checked exactly
/// in integers) stop when no component moves by more than this (relative).
pub const LENGTH_SWEEP_SETTLED: f64 = 1e-12;

/// The outward-rounded fixed-point iteration of a race stops when no component changes by more
/// than this (relative).
pub const FIXED_POINT_SETTLED: f64 = 1e-13;

/// The first slack (relative) the fixed-point race adds to its float solution when it looks for
/// a certified upper vector; raised tenfold on each failed attempt.
pub const FIXED_POINT_SLACK: f64 = 1e-9;

// --- Screens, ties and comparisons -------------------------------------------------------------

/// Two actions' float values closer than this count as a tie when a duel's greedy strategy is
/// read off them.
pub const TIE: f64 = 1e-12;

/// The float screen of a duel's proof skips a candidate action only when it loses by more than
/// this (plus twice its error radius); near-ties are worked out exactly.
pub const SCREEN: f64 = 1e-9;

/// A simulated mean against an exact law of standard deviation 0 passes when it is within this
/// (relative to the expected value, at least absolute).
pub const ZERO_SPREAD: f64 = 1e-9;

// --- Pictures ----------------------------------------------------------------------------------

/// The least top of a chart's value axis, so that an all-zero series still has a scale.
pub const AXIS_FLOOR: f64 = 1e-12;

/// A quantile level matches a marked level (a half, nine tenths, ...) when within this.
pub const LEVEL_MATCH: f64 = 1e-9;

/// The least length of an arrow on a drawn board, so that its direction is always defined.
pub const ARROW_LENGTH: f64 = 1e-9;

// The relations the docs above state, checked when the crate compiles: a tolerance changed
// against them stops the build.
const _: () = {
    // The Krylov restart is stricter than the acceptance test.
    assert!(KRYLOV_RESTART < BACKWARD_ERROR);
    // 1 - RHO_MARGIN is below 1 by far more than a rounding step.
    assert!(1.0 - RHO_MARGIN < 1.0 - 1e6 * f64::EPSILON);
    // The bound margin exceeds the rounding of a sum of a million terms (about 1e6 * 2^-53).
    assert!(BOUND_ROUNDING > 1e6 * f64::EPSILON / 2.0);
};
