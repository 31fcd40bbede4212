//! Runs the real binary: `simulate`, `check` and `verify` on boards that change during a game
//! (one-use jumps, points, lost and extra turns; issue 12). A simulation on a board with every
//! feature at once must pass against the exact laws at 10^6 games (turns, rolls and the final
//! score), give the same report on one thread and on two, and a sample played with jumps that
//! never break must be rejected against the board where they do.

use serde_json::Value;

use crate::cli_simulate_any::report;
use crate::common::ladders;

const ALL: &str = "tests/fixtures/sim/stateful-all.toml";
const FOREVER: &str = "tests/fixtures/sim/stateful-forever.toml";

#[test]
fn check_passes_at_a_million_games_on_a_board_with_every_feature() {
    let out = ladders()
        .args(["check", ALL, "-n", "1M", "--seed", "2026", "--json"])
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{v}");
    let check = &v["check"];
    assert_eq!(check["verdict"], "PASS");
    assert_eq!(v["games"], 1_000_000);
    for test in ["mean", "rolls", "score"] {
        assert_eq!(check[test]["pass"], true, "{test}: {check}");
    }
    assert_eq!(check["chi_square"]["pass"], true);
    // The exact expected score is that of `expect` (apples worth 4 and -2: between -2 and 4).
    let expect: Value = serde_json::from_slice(
        &ladders()
            .args(["expect", ALL, "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let exact = &check["exact_score"]["expected"];
    assert_eq!(
        format!(
            "{}/{}",
            exact["numerator"].as_str().unwrap(),
            exact["denominator"].as_str().unwrap()
        ),
        expect["score"]["expected"]["exact"].as_str().unwrap()
    );
    // Every score seen is one a subset of the apples gives: 0, 4, -2 or 2.
    let scores: Vec<i64> = v["score"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, vec![-2, 0, 2, 4]);
}

#[test]
fn one_thread_and_two_give_the_same_report_on_a_stateful_board() {
    let one = report(&[ALL], "1");
    assert_eq!(one, report(&[ALL], "2"));
    assert!(one.contains("Score            mean"), "{one}");
}

#[test]
fn a_sample_played_with_jumps_that_never_break_is_rejected() {
    let dir = std::env::temp_dir().join(format!("ladders-sim-stateful-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (played_on, expect) in [(FOREVER, 1), (ALL, 0)] {
        let csv = dir.join("turns.csv");
        let csv = csv.to_str().unwrap();
        ladders()
            .args(["simulate", played_on, "-n", "20k", "--seed", "3"])
            .args(["--histogram-csv", csv])
            .assert()
            .success();
        let out = ladders()
            .args(["verify", ALL, "--file", csv])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(expect), "{played_on}:\n{text}");
        let verdict = if expect == 1 { "FAIL" } else { "PASS" };
        assert!(
            text.contains(&format!("Verdict          {verdict}")),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
