//! Helpers shared by the integration tests: running the binary, reading its JSON, and random
//! board files for the property tests.

use assert_cmd::Command;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;

pub use crate::random_board::random_board;

/// The `ladders` binary built by cargo.
pub fn ladders() -> Command {
    Command::cargo_bin("ladders").expect("binary built")
}

/// Runs `ladders ARGS`, asserts success and returns standard output as text.
pub fn stdout_of(args: &[&str]) -> String {
    stdout_with_code(args, 0)
}

/// Runs `ladders ARGS`, asserts the exit code and returns standard output as text.
pub fn stdout_with_code(args: &[&str], code: i32) -> String {
    let out = ladders().args(args).assert().code(code);
    String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8")
}

/// Runs `ladders ARGS`, asserts the exit code and returns standard error as text.
pub fn stderr_of(args: &[&str], code: i32) -> String {
    let out = ladders().args(args).assert().code(code);
    String::from_utf8(out.get_output().stderr.clone()).expect("UTF-8")
}

/// Runs `ladders ARGS`, asserts success and parses standard output as JSON.
pub fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).expect("valid JSON")
}

/// The files of `tests/fixtures/NAME`, sorted.
pub fn fixtures(name: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    paths
}

/// Reads an EXACT object (`{"numerator", "denominator", "decimal"}`) back into a fraction.
pub fn exact(v: &Value) -> BigRational {
    let n: BigInt = v["numerator"].as_str().unwrap().parse().unwrap();
    let d: BigInt = v["denominator"].as_str().unwrap().parse().unwrap();
    BigRational::new(n, d)
}

/// A random board from [`random_board`]'s text, valid by construction: a text whose jumps close
/// a cycle under `chain = true` is refused by validation (checked here), and its `chain = false`
/// twin is used instead, so no random case is skipped.
pub fn valid_board(text: &str) -> ladders::board::Board {
    use ladders::board::Board;
    match Board::from_toml_str(text, "random") {
        Ok(board) => board,
        Err(e) => {
            assert!(
                text.contains("chain = true") && e.to_string().contains("cycle"),
                "unexpected refusal: {e}\n{text}"
            );
            let twin = text.replace("chain = true", "chain = false");
            Board::from_toml_str(&twin, "random").expect("without chaining a board is valid")
        }
    }
}
