//! A random board as TOML text (a proptest strategy), the one definition shared by the
//! integration tests (`tests/it/common.rs`) and the library's unit tests (`src/test_util.rs`
//! includes this file). Only `proptest` and `std`: it compiles in both crates.

use proptest::prelude::*;

/// A random board as TOML text: jumps are kept only where they are individually valid.
pub fn random_board() -> impl Strategy<Value = String> {
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
