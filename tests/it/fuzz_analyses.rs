//! Fuzzing the analyses (issue 17, item 13, second target): small valid random boards
//! (`common::random_board`: 5 to 39 squares, any overshoot, start, roll-again and chain rule)
//! through every exact analysis, which must not panic and must agree with each other:
//!
//! - the distribution's terms and tail add up to exactly 1, P(T = n) >= 0, the cdf is the
//!   running sum;
//! - P(T = n) = 0 below the shortest game, and P(T = shortest) is the shortest game's
//!   probability (breadth-first search against the stepped law);
//! - E[T] from the expectation solve is F'(1) of the generating function (a second method),
//!   and F(1) = 1; an infinite expectation goes with a trap in the distribution.
//!
//! A short pass runs in CI; a long run: `LADDERS_FUZZ_ANALYSES_CASES=100000 cargo test --release
//! --test it fuzz_analyses`.

use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use ladders::analysis::DistributionOptions;
use ladders::analysis::Expectation;
use ladders::board::Board;
use ladders::internals::board_distribution;
use ladders::internals::expect_with;
use ladders::internals::extremes;
use ladders::internals::pgf;
use ladders::internals::Chain;

use crate::common::random_board;

fn cases() -> u32 {
    std::env::var("LADDERS_FUZZ_ANALYSES_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

/// Every invariant above on one board; `Err` names the one broken.
fn analyses_agree(board: &Board) -> Result<(), String> {
    let chain = Chain::for_board(board);
    let expectation = expect_with(board, false);
    let options = DistributionOptions::tail(BigRational::new(1.into(), 1_000_000.into()));
    // A board whose tail decays so slowly that the exact stepping to 1e-6 would take minutes is
    // refused (a d2 past eight snakes to 0 needs about 68,000 turns); its first 300 turns are
    // checked instead, and the refusal must be for more turns than that.
    let dist = match board_distribution(board, &options) {
        Ok(dist) => dist,
        Err(refused) if refused.turns > 300.0 => {
            let mut first = options;
            first.turns = Some(300);
            board_distribution(board, &first).map_err(|e| format!("distribution: {e}"))?
        }
        Err(e) => return Err(format!("distribution refused at {} turns: {e}", e.turns)),
    };
    let mut total = BigRational::zero();
    for t in &dist.terms {
        if t.p < BigRational::zero() {
            return Err(format!("P(T = {}) < 0", t.n));
        }
        total += &t.p;
        if t.cdf() != total {
            return Err(format!("cdf at {} is not the running sum", t.n));
        }
    }
    if !dist.starts_finished && total + dist.tail() != BigRational::one() {
        return Err("the terms and the tail do not add up to 1".into());
    }
    let ex = extremes(board);
    if let Some(s) = &ex.shortest {
        for t in dist.terms.iter().take_while(|t| t.n <= s.turns) {
            let want = if t.n == s.turns {
                s.probability.clone()
            } else {
                BigRational::zero()
            };
            if t.p != want {
                return Err(format!(
                    "P(T = {}) = {} against the shortest game's {}",
                    t.n, t.p, want
                ));
            }
        }
    }
    match &expectation {
        Expectation::Finite(e) => {
            if dist.trap.is_some() {
                return Err("a finite expectation beside a trap".into());
            }
            let f = pgf(&chain).factorial_moments(1);
            if f[0] != BigRational::one() || f[1] != e.turns {
                return Err(format!(
                    "F(1) = {}, F'(1) = {} against E[T] = {}",
                    f[0], f[1], e.turns
                ));
            }
        }
        Expectation::Infinite(_) => {
            if dist.trap.is_none() {
                return Err("an infinite expectation without a trap".into());
            }
        }
    }
    Ok(())
}

#[test]
fn random_small_boards_through_every_analysis_agree() {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&random_board(), |text| {
            // A few drawn boards are invalid (a jump cycle): the parser fuzz covers those.
            let Ok(board) = Board::from_toml_str(&text, "fuzz") else {
                return Err(TestCaseError::reject("an invalid board"));
            };
            analyses_agree(&board).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))
        })
        .unwrap();
}
