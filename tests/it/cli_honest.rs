//! Output that claims no more than it knows (issue 19, items 4 to 8): the exact mean and a
//! proven mode after `distribution --turns N`, probabilities that never round to 0 or 1 without
//! saying so, and the other honest-output rules. Expected values are worked by hand from
//! boards/tiny.toml (P(T = n) = (n - 1) / 2^n, P(T > n) = (n + 1) / 2^n, E[T] = 4) or come from
//! a second command.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;

use crate::common::{exact, json_of, ladders, stdout_of};

#[test]
fn distribution_with_few_turns_prints_the_exact_mean_and_the_proven_mode() {
    // Three turns of tiny leave P(T > 3) = 1/2, yet E[T] = 4 exactly (the board's comment); the
    // old geometric estimate said 3.75. Mode: P(T = 2) = P(T = 3) = 1/4, and every later term is
    // at most (the best one-turn finish, 1/2 from square 3) x P(T > 3) = 1/4: the mode is 2.
    let text = stdout_of(&["distribution", "tiny", "--turns", "3", "--digits", "3"]);
    assert!(text.contains("Mean             4.000 (exact: 4)"), "{text}");
    assert!(
        text.contains("Mode             2 turns (P(T = 2) = 0.250)"),
        "{text}"
    );
    assert!(!text.contains("approximate"), "{text}");
    let v = json_of(&["distribution", "tiny", "--turns", "3", "--json"]);
    assert_eq!(
        exact(&v["mean"]["exact"]),
        BigRational::from_integer(4.into())
    );
    assert_eq!(v["mode"], 2);
}

#[test]
fn distribution_mean_after_one_turn_is_the_exact_expectation_of_expect() {
    // efi --turns 1 printed 11.70 for 26.91: the mean must be `expect`'s exact E[T].
    let d = json_of(&["distribution", "efi", "--turns", "1", "--json"]);
    let e = json_of(&["expect", "efi", "--json"]);
    assert_eq!(exact(&d["mean"]["exact"]), exact(&e["expected_turns"]));
    // One turn decides nothing about the mode: said so, not "beyond".
    let text = stdout_of(&["distribution", "efi", "--turns", "1"]);
    assert!(
        text.contains("Mode             not decided by the turns computed"),
        "{text}"
    );
    assert!(text.contains("more than 1 turn\n"), "{text}");
}

#[test]
fn a_mode_beyond_every_computed_turn_is_said_only_when_every_term_is_zero() {
    // Tiny cannot end in one turn (P(T = 1) = 0): the mode lies beyond turn 1.
    let text = stdout_of(&["distribution", "tiny", "--turns", "1"]);
    assert!(
        text.contains("Mode             beyond the turns computed"),
        "{text}"
    );
}

#[test]
fn tiny_probabilities_print_in_scientific_notation_and_never_as_zero_or_one() {
    // P(T > 40) = 41 / 2^40 = 3.7289e-11; P(T <= 40) = 1 - that.
    let text = stdout_of(&["distribution", "tiny", "--turns", "40", "--digits", "6"]);
    assert!(text.contains("P(T > 40)        3.729e-11\n"), "{text}");
    assert!(
        text.contains("   40  3.547e-11  1 - 3.729e-11  3.729e-11"),
        "{text}"
    );
    // P(T = 40) = 39 / 2^40 = 3.5470e-11 (above). P(T <= 25) = 1 - 26 / 2^25 = 1 - 7.7486e-7,
    // P(T <= 10) = 1 - 11/1024 = 0.98926.
    let text = stdout_of(&["analyze", "tiny", "--digits", "2"]);
    assert!(text.contains("Within 10 turns  0.99\n"), "{text}");
    assert!(text.contains("Within 25 turns  1 - 7.749e-7\n"), "{text}");
    assert!(!text.contains("turns 1.00"), "{text}");
}

#[test]
fn distribution_csv_keeps_plain_decimals_that_a_reader_parses() {
    let text = stdout_of(&[
        "distribution",
        "tiny",
        "--turns",
        "40",
        "--digits",
        "6",
        "--csv",
    ]);
    // P(T <= 40) rounds to 1.000000 in CSV, which promises fixed decimals for every cell.
    assert!(text.ends_with("40,0.000000,1.000000,0.000000\n"), "{text}");
}

#[test]
fn verify_gives_no_verdict_and_no_hint_on_a_sample_too_small_to_test() {
    // One game of 5 turns on tiny (possible: P(T = 5) = 4/32) said PASS with six hints.
    let out = ladders()
        .args(["verify", "tiny", "--file", "-"])
        .write_stdin("5\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("Verdict          none: fewer than 100 games are too few"),
        "{text}"
    );
    assert!(!text.contains("PASS") && !text.contains("Hint"), "{text}");
    let v = {
        let out = ladders()
            .args(["verify", "tiny", "--mean", "4", "--games", "99", "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    assert_eq!(v["check"]["verdict"], "TOO_FEW_GAMES");
    assert_eq!(v["variants"]["hints"].as_array().unwrap().len(), 0);
    // From 100 games on, a verdict: the mean 4 of tiny over 100 games passes.
    ladders()
        .args(["verify", "tiny", "--mean", "4", "--games", "100"])
        .assert()
        .success();
    // check too: 20 simulated games give no verdict.
    let out = ladders()
        .args(["check", "tiny", "-n", "20", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Verdict          none"));
}

#[test]
fn a_knock_off_race_too_large_for_memory_is_refused_before_building() {
    // Three seats on 100 squares: at most 3 x 101^3 = 3,090,903 joint states, at 2,500 bytes
    // each about 7.7 GB; a huge --state-limit used to let it grow to gigabytes. (With the third
    // six forfeiting, a turn remembers where it began, so positions relative to the mover do
    // not apply and the joint chain is the only exact route.)
    let out = ladders()
        .args([
            "race",
            "milton-bradley",
            "--knock-off",
            "--players",
            "3",
            "--roll-again",
            "3",
            "--state-limit",
            "100000000",
        ])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("may need up to 3.091e6 states, about 7.7 GB of memory"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_long_distribution_table_puts_the_summary_last_where_the_terminal_stops() {
    let text = stdout_of(&["distribution", "milton-bradley"]);
    let rows = text
        .split("P(T > n)")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .count();
    assert!(rows > 40, "{rows}");
    assert!(
        text.contains(&format!(
            "Summary          below the table of {rows} rows\n"
        )),
        "{text}"
    );
    let median = text.find("Median").unwrap();
    let last_row = text.find(&format!("\n  {rows}  ")).unwrap();
    assert!(median > last_row, "the summary follows the table");
    // The summary ends with the decay sentence and the proved tail law.
    assert!(
        text.contains("the chance the game is still going by 0.960\nTail law         P(T > n) = "),
        "{text}"
    );
    assert!(text.trim_end().ends_with("(proved)"), "{text}");
    // A short table keeps the summary first.
    let text = stdout_of(&["distribution", "tiny", "--turns", "10"]);
    assert!(
        text.find("Median").unwrap() < text.find("P(T = n)").unwrap(),
        "{text}"
    );
    assert!(!text.contains("Summary "), "{text}");
}

/// A decimal as printed (`39.225122308`) as an exact fraction, and its number of decimals.
fn decimal(text: &str) -> (BigRational, u32) {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let n: BigInt = format!("{whole}{frac}").parse().expect(text);
    let places = frac.len() as u32;
    (BigRational::new(n, BigInt::from(10).pow(places)), places)
}

/// Item 5: `--float` printed 22 significant digits of a variance and "about 12" whatever the
/// board. Now the header says how many significant digits the solve stands behind, no figure
/// shows more, and every figure is within one unit of its last digit of the exact answer (the
/// second method: the rational solve's fractions). The generated boards take the backward
/// sweeps with the snakes' landing squares as a dense system (a condition
/// number near 1e3, so fewer digits than the built-in boards): issue 16 item 4 kept this
/// condition-number bound (`analysis::float_trust`) for every route.
#[test]
fn float_answers_show_only_the_digits_the_solve_stands_behind() {
    let generated = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-1000.toml");
    let again = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/boards/gen-1000-again.toml"
    );
    for board in ["milton-bradley", "efi", generated, again] {
        let text = stdout_of(&["expect", board, "--float"]);
        let digits: usize = text
            .split("floating point (--float): ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|d| d.parse().ok())
            .expect(&text);
        assert!((3..=12).contains(&digits), "{text}");
        let json = json_of(&["expect", board, "--json"]);
        for (label, key) in [
            ("Expected turns", "expected_turns"),
            ("Variance", "variance"),
            ("Expected rolls", "expected_rolls"),
            ("Squares slid", "expected_slid"),
        ] {
            let line = text.lines().find(|l| l.starts_with(label)).expect(label);
            let shown = line[label.len()..].trim();
            let significant = shown.replace('.', "").trim_start_matches('0').len();
            assert!(significant <= digits, "{board}: {line} ({digits} digits)");
            let (value, places) = decimal(shown);
            let unit = BigRational::new(BigInt::from(1), BigInt::from(10).pow(places));
            let error = (value - exact(&json[key])).abs();
            assert!(error <= unit, "{board}: {line}");
        }
    }
}

/// A float variance below what the solve resolves is not printed as a number: with a die that
/// always rolls 2 (`die = [0, 1]`) the game on 10 squares takes exactly 5 turns, variance 0.
#[test]
fn a_float_variance_below_the_solves_resolution_is_said_so() {
    let dir = std::env::temp_dir().join(format!("ladders-float-var-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("sure.toml");
    std::fs::write(&board, "size = 10\n[rules]\ndie = [0, 1]\n").unwrap();
    let text = stdout_of(&["expect", board.to_str().unwrap(), "--float"]);
    assert!(text.contains("Expected turns   5.0000000000"), "{text}");
    assert!(text.contains("Variance         below "), "{text}");
    assert!(text.contains("not resolved"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
