//! Property tests on random boards: the exact expected turns agree with an independent
//! floating-point solve (nalgebra LU) to 1e-9 relative, and when the exact answer is infinite
//! the trap it names really cannot reach the finish (a search over the chain's rows).

use ladders::analysis::Expectation;
use ladders::board::Square;
use ladders::internals::expect_chain;
use ladders::internals::Chain;
use ladders::report::to_f64;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

use crate::common::{random_board, valid_board};

/// Whether any final state can be reached from state `from` of `chain` (the final states are
/// numbered from `transient_count()` on).
fn reaches_a_final_state(chain: &Chain<Square>, from: usize) -> bool {
    let n = chain.transient_count();
    let mut seen = vec![false; chain.states().len()];
    let mut stack = vec![from];
    while let Some(i) = stack.pop() {
        if i >= n {
            return true;
        }
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(chain.row(i).iter().map(|(j, _)| *j));
    }
    false
}

/// E[T] from the start by nalgebra's LU in floating point: `(I - Q) t = 1`.
fn float_expected_turns(chain: &Chain<Square>) -> f64 {
    let n = chain.transient_count();
    let mut a = DMatrix::<f64>::identity(n, n);
    for i in 0..n {
        for (j, p) in chain.row(i) {
            if *j < n {
                a[(i, *j)] -= to_f64(p);
            }
        }
    }
    let t = a
        .lu()
        .solve(&DVector::from_element(n, 1.0))
        .expect("nonsingular");
    t[chain.start()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn exact_expected_turns_agree_with_a_float_solve(text in random_board()) {
        let board = valid_board(&text);
        let chain = Chain::for_board(&board);
        let n = chain.transient_count();
        // The start is never the finish on these boards (start 0 or 1, at least 5 squares).
        prop_assert!(chain.start() < n);
        match expect_chain(&chain) {
            Expectation::Finite(e) => {
                let float = float_expected_turns(&chain);
                let exact = to_f64(&e.turns);
                prop_assert!(((exact - float) / exact).abs() < 1e-9, "exact {exact} float {float}\n{text}");
            }
            Expectation::Infinite(trap) => {
                let at = chain.index_of(&trap.state);
                prop_assert!(at.is_some(), "the trap {:?} is not a state", trap);
                prop_assert!(!reaches_a_final_state(&chain, at.unwrap()), "{:?}\n{}", trap, text);
            }
        }
    }
}
