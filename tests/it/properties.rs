//! Property tests on random boards: the exact expected turns agree with an independent
//! floating-point solve (nalgebra LU) to 1e-9 relative.

use ladders::analysis::expectation::{expect_chain, Expectation};
use ladders::board::Board;
use ladders::chain::Chain;
use ladders::exact::decimal::to_f64;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

use crate::common::random_board;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn exact_expected_turns_agree_with_a_float_solve(text in random_board()) {
        // Boards where chain = true closes a cycle of jumps are rejected by validation: skip.
        let Ok(board) = Board::from_toml_str(&text, "random") else { return Ok(()); };
        let chain = Chain::for_board(&board);
        let Expectation::Finite(e) = expect_chain(&chain) else { return Ok(()); };
        let n = chain.transient_count();
        prop_assume!(chain.start() < n);
        let mut a = DMatrix::<f64>::identity(n, n);
        for i in 0..n {
            for (j, p) in chain.row(i) {
                if *j < n {
                    a[(i, *j)] -= to_f64(p);
                }
            }
        }
        let t = a.lu().solve(&DVector::from_element(n, 1.0)).expect("nonsingular");
        let float = t[chain.start()];
        let exact = to_f64(&e.turns);
        prop_assert!(((exact - float) / exact).abs() < 1e-9, "exact {exact} float {float}\n{text}");
    }
}
