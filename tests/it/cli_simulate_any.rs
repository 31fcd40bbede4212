//! Runs the real binary: `simulate`, `check` and `verify` on boards beyond the standard game
//! (a loaded die, several dice, chance squares, seed 002's random tiles), alone and in races.
//! The simulations must pass against the exact laws of the chain at 10^6 games, give the same
//! report on one thread and on two, and a sample simulated with a fair die must be rejected
//! against the loaded board it was not played on.

use serde_json::Value;

use crate::common::ladders;

const LOADED: &str = "tests/fixtures/sim/loaded-efi.toml";
const CHANCE: &str = "tests/fixtures/sim/chance-2dice.toml";

/// `check ARGS -n 1M --seed 2026 --json`: exits 0 with a PASS verdict; returns the JSON.
fn passes(args: &[&str]) -> Value {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-n", "1M", "--seed", "2026", "--json"]);
    let out = ladders().args(&all).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{args:?}: {v}");
    assert_eq!(v["check"]["verdict"], "PASS", "{args:?}");
    v
}

#[test]
fn check_passes_on_a_loaded_die_two_dice_chance_squares_and_random_tiles() {
    for args in [
        vec![LOADED],
        vec!["milton-bradley", "--dice", "2", "--overshoot", "allow"],
        vec![
            "efi",
            "--die",
            "0,1,1,2,0,5",
            "--dice",
            "3",
            "--roll-again",
            "2",
        ],
        vec![CHANCE],
        vec!["random-tiles"],
    ] {
        let v = passes(&args);
        assert_eq!(v["games"], 1_000_000, "{args:?}");
    }
}

#[test]
fn a_race_on_a_loaded_or_chance_board_passes_against_the_exact_race() {
    for args in [
        vec![LOADED, "--players", "2"],
        vec![CHANCE, "--players", "2"],
        vec![CHANCE, "--players", "2", "--knock-off"],
        vec!["random-tiles", "--players", "3"],
    ] {
        let v = passes(&args);
        for seat in v["check"]["seats"].as_array().unwrap() {
            assert_eq!(seat["share"]["pass"], true, "{args:?}: {seat}");
        }
    }
}

/// The report of `simulate ARGS` (200,000 games, seed 7, on `threads` threads) without the
/// throughput line.
pub(crate) fn report(args: &[&str], threads: &str) -> String {
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-n", "200k", "--seed", "7", "--threads", threads]);
    let out = ladders().args(&all).output().expect("runs");
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("Throughput"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn one_thread_and_two_give_the_same_report_on_every_new_rule() {
    for args in [
        vec![LOADED],
        vec![CHANCE],
        vec!["random-tiles"],
        vec![CHANCE, "--players", "2", "--knock-off"],
    ] {
        let one = report(&args, "1");
        assert_eq!(one, report(&args, "2"), "{args:?}");
        assert!(one.contains("Seed"), "{args:?}");
    }
}

#[test]
fn verify_rejects_a_fair_die_sample_against_the_loaded_board() {
    let dir = std::env::temp_dir().join(format!("ladders-sim-any-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (die, expect) in [(Some("6"), 1), (None, 0)] {
        let csv = dir.join("turns.csv");
        let csv = csv.to_str().unwrap();
        let mut sim = vec!["simulate", LOADED, "-n", "100k", "--seed", "3"];
        if let Some(d) = die {
            sim.extend_from_slice(&["--die", d]);
        }
        sim.extend_from_slice(&["--histogram-csv", csv]);
        ladders().args(&sim).assert().success();
        let out = ladders()
            .args(["verify", LOADED, "--file", csv])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(expect), "{die:?}:\n{text}");
        let verdict = if expect == 1 { "FAIL" } else { "PASS" };
        assert!(
            text.contains(&format!("Verdict          {verdict}")),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
