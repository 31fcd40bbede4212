//! Property tests on random boards: the exact expected turns agree with an independent
//! floating-point solve (nalgebra LU) to 1e-9 relative.

use ladders::analysis::expectation::{expect_chain, Expectation};
use ladders::board::Board;
use ladders::chain::Chain;
use ladders::exact::decimal::to_f64;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

/// A random board as TOML text: jumps are kept only where they are individually valid.
fn random_board() -> impl Strategy<Value = String> {
    (
        5u32..40,
        2u32..7,
        0u32..2,
        0usize..3,
        0usize..3,
        prop::collection::vec((1u32..40, 0u32..41), 0..8),
        any::<bool>(),
    )
        .prop_map(|(size, die, start, overshoot, again, jumps, chain)| {
            let mut used = std::collections::BTreeSet::new();
            let mut snakes = Vec::new();
            let mut ladders = Vec::new();
            for (from, to) in jumps {
                let (from, to) = (from % size, to % (size + 1));
                if from == 0 || from == to || !used.insert(from) {
                    continue;
                }
                if to < from {
                    snakes.push(format!("[{from}, {to}]"));
                } else {
                    ladders.push(format!("[{from}, {to}]"));
                }
            }
            format!(
                "size = {size}\nsnakes = [{}]\nladders = [{}]\n[rules]\nstart = {start}\n\
                 overshoot = \"{}\"\ndie = {die}\nroll_again = {}\nchain = {chain}\n",
                snakes.join(", "),
                ladders.join(", "),
                ["stay", "bounce", "allow"][overshoot],
                ["\"none\"", "\"unlimited\"", "3"][again],
            )
        })
}

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
