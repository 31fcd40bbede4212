//! One set of invariant checks ([`check_board`], as statrs' `internal.rs`) run over every board
//! file in `boards/` and over random boards: the pmf plus the tail sums to 1, the cdf is its
//! running sum, the exact mean equals a float solve's and the distribution's exact mean,
//! P(T < shortest) = 0 and P(T = shortest) is the shortest game's probability, the witnesses
//! replay, and the expected visits sum to the expected turns. No board skips a check: a board
//! whose game can last forever is checked for the trap instead of the mean.

use std::path::Path;

use ladders::analysis::{DistributionOptions, Mean};
use ladders::analysis::{Expectation, FloatExpectation};
use ladders::analysis::{Extremes, TurnRolls};
use ladders::board::{Board, Square};
use ladders::internals::board_distribution;
use ladders::internals::extremes;
use ladders::internals::turn_steps;
use ladders::internals::visits;
use ladders::internals::{expect, expect_float};
use ladders::report::to_f64;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::common::{random_board, valid_board};

/// Relative agreement asked of the float solve against the exact mean.
const FLOAT_MEAN_TOLERANCE: f64 = 1e-9;

/// How a board's game ended up in [`check_board`].
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// The game ends with probability 1: every invariant of a finite mean was checked.
    Finite,
    /// The game can last forever: the trap was checked instead of the mean.
    Infinite,
}

/// Replays turns through the rules alone (boards whose state is the square): each roll must be
/// one of the outcomes the rules give that roll (on chance squares and tiles, any drawn one),
/// and the turn must end exactly at its last roll; the square reached, or what went wrong.
pub(crate) fn replay(board: &Board, start: Square, turns: &[TurnRolls]) -> Result<Square, String> {
    let mut at = start;
    for turn in turns {
        if turn.from != at {
            return Err(format!("turn begins on {} not {at}", turn.from));
        }
        let mut square = at;
        for (k, (&face, &shown)) in turn.rolls.iter().zip(&turn.squares).enumerate() {
            let again = k + 1 < turn.rolls.len();
            let (steps, _) = turn_steps(board, at, square, k as u32, face);
            let legal = steps
                .iter()
                .any(|(w, s)| *w > 0 && s.outcome.to == shown && s.again == again);
            if !legal {
                return Err(format!(
                    "roll {face} from {square} cannot reach {shown} (again: {again})"
                ));
            }
            square = shown;
        }
        at = square;
    }
    Ok(at)
}

/// Follows turns by their squares only (stateful boards, whose moves depend on more than the
/// square): each turn begins where the last ended and shows one square per roll (none for a
/// lost turn).
fn follow(start: Square, turns: &[TurnRolls]) -> Result<Square, String> {
    let mut at = start;
    for turn in turns {
        if turn.from != at || turn.rolls.len() != turn.squares.len() {
            return Err(format!("turn {turn:?} does not follow from {at}"));
        }
        at = turn.to();
    }
    Ok(at)
}

/// Where `turns` lead from the start, by the rules where the square is the whole state.
fn witness_end(board: &Board, turns: &[TurnRolls]) -> Result<Square, String> {
    match board.is_stateful() {
        true => follow(board.rules().start, turns),
        false => replay(board, board.rules().start, turns),
    }
}

fn board_extremes(board: &Board) -> Extremes {
    extremes(board)
}

/// The turns computed on a board whose default tail is refused as too much work.
const SLOW_BOARD_TURNS: usize = 300;

/// Runs every invariant on `board`; panics (naming `label`) at the first that fails.
fn check_board(board: &Board, label: &str) -> Verdict {
    let d = match board_distribution(board, &DistributionOptions::default()) {
        Ok(d) => d,
        // A board whose tail decays so slowly that the default tail would take minutes of exact
        // stepping is refused; its invariants are then checked on its first turns (every check
        // below holds for any number of terms).
        Err(refused) => {
            assert!(
                refused.turns > SLOW_BOARD_TURNS as f64,
                "{label}: refused at only {} turns",
                refused.turns
            );
            let first = DistributionOptions::turns(SLOW_BOARD_TURNS);
            board_distribution(board, &first).unwrap_or_else(|e| panic!("{label}: {e}"))
        }
    };
    // The pmf and the tail sum to 1 exactly; the cdf is the running sum of the pmf.
    let mut running = match d.starts_finished {
        true => BigRational::one(),
        false => BigRational::zero(),
    };
    for (i, term) in d.terms.iter().enumerate() {
        assert_eq!(term.n, i + 1, "{label}: terms out of order");
        running += &term.p;
        assert_eq!(term.cdf(), running, "{label}: cdf at {}", term.n);
    }
    assert_eq!(
        running + d.tail(),
        BigRational::one(),
        "{label}: pmf + tail"
    );

    // The shortest game: nothing finishes before it, and its probability is P(T = shortest).
    let ex = board_extremes(board);
    match &ex.shortest {
        Some(s) => {
            for t in d.terms.iter().take(s.turns.saturating_sub(1)) {
                assert!(
                    t.p.is_zero(),
                    "{label}: P(T = {}) > 0 before {}",
                    t.n,
                    s.turns
                );
            }
            if let Some(t) = d.terms.get(s.turns.wrapping_sub(1)) {
                assert_eq!(t.p, s.probability, "{label}: P(T = shortest)");
            }
            assert!(
                s.probability > BigRational::zero(),
                "{label}: shortest impossible"
            );
            assert_eq!(s.witness.len(), s.turns, "{label}: witness length");
            assert_eq!(witness_end(board, &s.witness), Ok(board.size()), "{label}");
            assert_eq!(
                witness_end(board, &s.rolls_witness),
                Ok(board.size()),
                "{label}"
            );
            let rolls: usize = s.rolls_witness.iter().map(|t| t.rolls.len()).sum();
            assert_eq!(rolls, s.rolls, "{label}: rolls witness");
        }
        None => assert!(
            d.terms.iter().all(|t| t.p.is_zero()),
            "{label}: unreachable"
        ),
    }

    // These boards are small and well conditioned: the float solve must stand behind its answer.
    let float = expect_float(board, false).unwrap_or_else(|e| panic!("{label}: {e}"));
    match (expect(board), float) {
        (Expectation::Finite(e), FloatExpectation::Finite(f)) => {
            let exact = to_f64(&e.turns);
            let scale = exact.abs().max(1.0);
            assert!(
                (exact - f.turns).abs() <= FLOAT_MEAN_TOLERANCE * scale,
                "{label}: exact mean {exact} float mean {}",
                f.turns
            );
            if let Mean::Exact(m) = &d.mean {
                assert_eq!(m, &e.turns, "{label}: the distribution's mean");
            }
            assert!(d.trap.is_none(), "{label}: a trap on a finite game");
            if let Some(s) = &ex.shortest {
                assert!(
                    e.turns >= BigRational::from_integer(s.turns.into()),
                    "{label}"
                );
            }
            // Expected turns begun on each square add up to the expected turns.
            let v = visits(board).unwrap_or_else(|e| panic!("{label}: visits: {e}"));
            let total: BigRational = v.squares.iter().map(|(_, x)| x.clone()).sum();
            assert_eq!(total, e.turns, "{label}: visits sum to the expected turns");
            Verdict::Finite
        }
        (Expectation::Infinite(_), FloatExpectation::Infinite(_)) => {
            // The game can last forever: the distribution names a trap and never loses its tail.
            assert!(d.trap.is_some(), "{label}: infinite mean without a trap");
            assert_eq!(d.mean, Mean::Infinite, "{label}: the distribution's mean");
            assert!(d.tail() > BigRational::zero(), "{label}: no tail on a trap");
            assert!(visits(board).is_err(), "{label}: visits on an endless game");
            Verdict::Infinite
        }
        (e, f) => panic!("{label}: exact and float disagree on finiteness: {e:?} vs {f:?}"),
    }
}

#[test]
fn every_board_file_passes_every_invariant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("boards/") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let board = Board::load(&path).expect("every shipped board is valid");
        let label = path.display().to_string();
        // Every shipped board's game ends: a bug that made games endless would fail here.
        assert_eq!(check_board(&board, &label), Verdict::Finite, "{label}");
        checked += 1;
    }
    assert!(
        checked >= 7,
        "only {checked} board files found in {}",
        dir.display()
    );
}

#[test]
fn a_board_too_slow_for_the_default_tail_is_checked_on_its_first_turns() {
    // Eight snakes to 0 on the even squares 18..32 and a d2: a game is won about once in 512
    // runs up the board, so P(T > n) falls by about 0.9998 a turn and the default tail needs
    // about 136,000 exact turns (refused). Random boards of the strategy below can be like it.
    let text = "size = 33\nsnakes = [[32, 0], [30, 0], [28, 0], [26, 0], [24, 0], [22, 0], \
                [20, 0], [18, 0]]\n[rules]\ndie = 2\novershoot = \"stay\"\n";
    let board = valid_board(text);
    let refused = board_distribution(&board, &DistributionOptions::default());
    assert!(matches!(refused, Err(e) if e.turns > 100_000.0));
    assert_eq!(check_board(&board, "slow"), Verdict::Finite);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn random_boards_pass_every_invariant(text in random_board()) {
        let board = valid_board(&text);
        check_board(&board, &text);
    }
}
