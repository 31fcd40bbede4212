//! Fuzzing the board parser and validator: seeds from `boards/` and `tests/fixtures/bad/`,
//! mutated by proptest (bytes replaced, inserted, deleted), must parse or give an error, never
//! panic. A short pass runs in CI; a long run: `LADDERS_FUZZ_CASES=10000000 cargo test --release
//! --test it fuzz`.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use ladders::board::Board;

/// The seed texts.
fn seeds() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    for dir in ["boards", "tests/fixtures/bad", "tests/hostile/boards"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            out.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
    }
    out
}

fn cases() -> u32 {
    std::env::var("LADDERS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

#[test]
fn mutated_board_files_never_panic_the_parser() {
    let seeds = seeds();
    let n = seeds.len();
    let edits = prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 0..8);
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(0..n, edits), |(seed, edits)| {
            let mut bytes = seeds[seed].clone().into_bytes();
            for (at, op, byte) in edits {
                let i = if bytes.is_empty() {
                    0
                } else {
                    at.index(bytes.len())
                };
                match op {
                    0 if !bytes.is_empty() => bytes[i] = byte,
                    1 => bytes.insert(i, byte),
                    _ if !bytes.is_empty() => {
                        bytes.remove(i);
                    }
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Err(e) = Board::from_toml_str(&text, "fuzz") {
                prop_assert!(!e.problems.is_empty());
                let escape = '\u{1b}';
                prop_assert!(!e.to_string().contains(escape), "raw escape in {}", e);
            }
            Ok(())
        })
        .unwrap();
}
