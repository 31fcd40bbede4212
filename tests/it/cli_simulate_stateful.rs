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

/// The exact answers of tests/independent/shared_race.py for two players sharing `SHARED`.
fn shared_exact() -> std::collections::BTreeMap<String, f64> {
    use num_traits::ToPrimitive;
    std::fs::read_to_string("tests/fixtures/sim/shared-two.txt")
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, v)| v.contains('/'))
        .map(|(k, v)| {
            let q = crate::known_values::parse_fraction(v);
            (k.to_string(), q.to_f64().unwrap())
        })
        .collect()
}

const SHARED: &str = "tests/fixtures/sim/shared-two.toml";

#[test]
fn two_players_sharing_a_stateful_board_agree_with_the_independent_joint_chain() {
    // 10^6 games of two seats sharing one state (a broken ladder is broken for both, an apple
    // is eaten once), against the exact win probabilities, expected rounds and expected scores of
    // the independent joint chain (shared_race.py): every |z| below 5.
    let exact = shared_exact();
    assert!((exact["win1"] + exact["win2"] - 1.0).abs() < 1e-15);
    let out = ladders()
        .args([
            "simulate",
            SHARED,
            "--players",
            "2",
            "-n",
            "1M",
            "--seed",
            "2026",
            "--json",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["shared_state"], true);
    assert!(v["simulated_because"]
        .as_str()
        .unwrap()
        .contains("ladders race"));
    assert_eq!(
        (v["games"].as_u64(), v["capped"].as_u64()),
        (Some(1_000_000), Some(0))
    );
    let n = 1e6;
    let z = |seen: f64, p: f64, se: f64| (seen - p) / se;
    for seat in 0..2 {
        let p = exact[&format!("win{}", seat + 1)];
        let share = v["seats"][seat]["share"].as_f64().unwrap();
        let zw = z(share, p, (p * (1.0 - p) / n).sqrt());
        assert!(
            zw.abs() < 5.0,
            "seat {}: {share} vs {p}, z = {zw}",
            seat + 1
        );
        let sc = &v["scores"][seat];
        let zs = z(
            sc["mean"].as_f64().unwrap(),
            exact[&format!("score{}", seat + 1)],
            sc["standard_error"].as_f64().unwrap(),
        );
        assert!(zs.abs() < 5.0, "score of seat {}: z = {zs}", seat + 1);
    }
    let r = &v["rounds"];
    let zr = z(
        r["mean"].as_f64().unwrap(),
        exact["rounds"],
        r["standard_error"].as_f64().unwrap(),
    );
    assert!(zr.abs() < 5.0, "rounds: z = {zr}");
    // Sharing matters here: seat 1 eats the apple on 3 first more often, so the seats' expected
    // scores differ by far more than the sampling error (exact: 0.793 and 0.417).
    assert!(exact["score1"] - exact["score2"] > 0.3);
}

#[test]
fn players_on_a_stateful_board_share_one_board() {
    let out = ladders()
        .args(["simulate", SHARED, "tiny", "-n", "10", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("share it"));
}
