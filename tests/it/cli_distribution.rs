//! Runs the real binary: `distribution`, `shortest`, `analyze` (and `ladders` alone) on boards
//! whose answers were worked out by hand or come from the seeds.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use predicates::prelude::*;

use crate::common::{exact, json_of, ladders, stdout_of};

#[test]
fn distribution_json_of_the_tiny_board_matches_the_hand_derivation() {
    // boards/tiny.toml: P(T = n) = (n - 1) / 2^n and P(T <= n) = 1 - (n + 1) / 2^n.
    let v = json_of(&["distribution", "tiny", "--turns", "12", "--json"]);
    let terms = v["distribution"].as_array().unwrap();
    assert_eq!(terms.len(), 12);
    let mut total = BigRational::from_integer(0.into());
    for t in terms {
        let n = t["n"].as_u64().unwrap() as i64;
        let two_n = BigInt::from(2).pow(n as u32);
        assert_eq!(
            exact(&t["p"]),
            BigRational::new((n - 1).into(), two_n.clone())
        );
        assert_eq!(
            exact(&t["cdf"]),
            BigRational::one() - BigRational::new((n + 1).into(), two_n)
        );
        total += exact(&t["p"]);
    }
    // The probabilities plus the tail are exactly 1: P(T > 12) = 13 / 4096.
    assert_eq!(exact(&v["tail"]), BigRational::new(13.into(), 4096.into()));
    assert_eq!(total + exact(&v["tail"]), BigRational::one());
    assert_eq!(v["stopped"], "turns");
    assert_eq!(v["quantiles"]["0.5"], 3);
}

#[test]
fn distribution_stops_at_the_tail_and_prints_csv() {
    // Tiny: P(T > n) = (n + 1) / 2^n first falls below 1/100 at n = 11 (12 / 2048).
    let text = stdout_of(&["distribution", "tiny", "--tail", "0.01", "--csv", "--exact"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "n,p,cdf,survives");
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[3], "3,1/4,1/2,1/2");
    assert_eq!(lines[11], "11,5/1024,509/512,3/512");
}

#[test]
fn distribution_text_has_the_quantiles_decay_and_a_chart_within_80_columns() {
    ladders()
        .args(["distribution", "tiny"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Median           3 turns"))
        .stdout(predicate::str::contains("99 %             11 turns"))
        .stdout(predicate::str::contains("Decay rate       0.500000"));
    let text = stdout_of(&["distribution", "efi", "--chart"]);
    let chart: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("P(T = n)"))
        .collect();
    assert!(chart.len() > 10);
    assert!(chart.iter().any(|l| l.contains('#')));
    assert!(chart.iter().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn distribution_rejects_a_bad_tail() {
    ladders()
        .args(["distribution", "tiny", "--tail", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("between 0 and 1"));
}

#[test]
fn distribution_refuses_work_that_would_take_too_long() {
    // 100,000 exact turns of Efi would hold numbers of about 900,000 bits: the fractions
    // (--exact, --json) are refused at once. (Decimals alone take the certified stepping, a
    // few seconds.)
    ladders()
        .args(["distribution", "efi", "--turns", "100000", "--exact"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too slow"));
}

#[test]
fn shortest_games_match_the_seeds() {
    // Seed 000: 1 turn on Efi (ten sixes then a 1) and on reversed Efi; seed 001: 7 turns.
    let v = json_of(&["shortest", "efi", "--json"]);
    assert_eq!(v["shortest"]["turns"], 1);
    assert_eq!(
        v["shortest"]["rolls"],
        serde_json::json!([[6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1]])
    );
    assert_eq!(v["longest"]["unbounded"], true);
    let v = json_of(&["shortest", "efi", "--reverse", "--json"]);
    assert_eq!(v["shortest"]["turns"], 1);
    let v = json_of(&["shortest", "milton-bradley", "--json"]);
    assert_eq!(v["shortest"]["turns"], 7);
    assert_eq!(v["shortest"]["rolls"].as_array().unwrap().len(), 7);
}

#[test]
fn shortest_reports_an_exact_longest_game_on_a_board_without_snakes() {
    // size 10, allow, no jumps: the longest game is ten 1s (worked by hand).
    let dir = std::env::temp_dir().join(format!("ladders-cli-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plain.toml");
    std::fs::write(&path, "size = 10\n[rules]\novershoot = \"allow\"\n").unwrap();
    let v = json_of(&["shortest", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["longest"]["unbounded"], false);
    assert_eq!(v["longest"]["turns"], 10);
    assert_eq!(v["shortest"]["turns"], 2);
}

#[test]
fn analyze_is_the_default_command_and_answers_on_one_screen() {
    // Seed 001: milton-bradley's shortest game is 7 turns; its mean is 39.2251... (docs).
    let text = stdout_of(&[]);
    assert!(text.contains("Expected turns   39.2251223"));
    assert!(text.contains("Shortest game    7 turns"));
    assert!(text.contains("Within 100 turns"));
    assert!(text.lines().count() < 40);
    let v = json_of(&["analyze", "tiny", "--json"]);
    // Tiny: E[T] = 4, P(T <= 10) = 1 - 11/1024 (hand-derived), shortest 2 turns.
    assert_eq!(
        exact(&v["expected_turns"]),
        BigRational::from_integer(4.into())
    );
    assert_eq!(v["within"][0]["turns"], 10);
    assert_eq!(
        exact(&v["within"][0]["p"]),
        BigRational::new(1013.into(), 1024.into())
    );
    assert_eq!(v["shortest"]["turns"], 2);
    assert_eq!(v["longest"]["unbounded"], true);
}

/// A decimal such as `0.95974`, `1.88` or `3e-16`, exactly.
fn decimal(text: &str) -> BigRational {
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: BigInt = format!("{int}{frac}").parse().unwrap();
    let e = exp.parse::<i32>().unwrap() - frac.len() as i32;
    let ten = BigRational::from_integer(10.into());
    BigRational::from_integer(digits) * ten.pow(e)
}

#[test]
fn the_proved_tail_law_holds_on_the_exact_law_in_the_json() {
    // `tail_law` says |P(T > n) - c rho^n| <= within for every n >= from; the JSON's own
    // exact terms (until P(T > n) < 1e-12, about 650 turns) are checked against it with the
    // decimals read back as fractions, and the text prints the same sentence.
    let v = json_of(&["distribution", "milton-bradley", "--json"]);
    let law = &v["tail_law"];
    let (c, rho, within) = (
        decimal(law["c"].as_str().unwrap()),
        decimal(law["rho"].as_str().unwrap()),
        decimal(law["within"].as_str().unwrap()),
    );
    let from = law["from"].as_u64().unwrap() as usize;
    let terms = v["distribution"].as_array().unwrap();
    assert!(terms.len() > from + 300, "{}", terms.len());
    for t in &terms[from - 1..] {
        let n = t["n"].as_u64().unwrap() as i32;
        let survives = BigRational::one() - exact(&t["cdf"]);
        let diff = &survives - &c * rho.pow(n);
        assert!(diff.clone() <= within && -diff <= within, "n = {n}");
    }
    // Not vacuous: the error is below a millionth of P(T > from).
    let at_from = BigRational::one() - exact(&terms[from - 1]["cdf"]);
    assert!(within * BigRational::from_integer(1_000_000.into()) < at_from);
    let sentence = law["sentence"].as_str().unwrap();
    assert!(sentence.starts_with("P(T > n) = "), "{sentence}");
    ladders()
        .args(["distribution", "milton-bradley"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "Tail law         {sentence}"
        )));
    // tiny's double root: no such law, and no sentence saying the ratio settles.
    ladders()
        .args(["distribution", "tiny"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Tail law").not())
        .stdout(predicate::str::contains("each extra turn multiplies").not());
}

/// A board of `size` empty squares, 3-faced die, 3s roll again without limit (the hostile
/// corpus's `die3_again_*.toml`).
fn die3_again(size: u32) -> String {
    format!(
        "{}/tests/hostile/boards/die3_again_{size}.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn long_runs_of_top_throws_answer_or_refuse_at_once_with_the_figure() {
    // 2,000 squares: the turn chain fits (about 1.3 million transitions, denominators up to
    // 3^667, 1,057 bits), but 50 exact turns over it would take hours: refused with the turns.
    let err = crate::common::stderr_of(&["distribution", &die3_again(2000), "--turns", "50"], 2);
    assert!(err.contains("about 50 turns over 2000 states"), "{err}");
    assert!(err.contains("--turns"), "{err}");
    // The shortest game, by hand: 666 threes run from 0 to 1998 and a 2 finishes, all in the
    // first turn (one turn of 667 rolls).
    let out = stdout_of(&["shortest", &die3_again(2000)]);
    assert!(out.contains("Shortest game    1 turn,"), "{out}");
    // 10,000 squares: the chain itself (about N^2 / 3 = 33 million transitions) is refused
    // before anything is built, naming its size, and `expect` (roll by roll) still answers.
    let err = crate::common::stderr_of(&["distribution", &die3_again(10000), "--turns", "50"], 2);
    assert!(err.contains("about 33,000,000 transitions"), "{err}");
    assert!(err.contains("3,334 rolls in a row"), "{err}");
    assert!(err.contains("`ladders expect`"), "{err}");
    // E[T] by hand is not short; the exact answer exists: exit 0 with a number.
    let out = stdout_of(&["expect", &die3_again(10000)]);
    assert!(out.contains("Expected turns"), "{out}");
}

#[test]
fn a_turn_chain_too_large_to_hold_whole_steps_its_law_through_its_links() {
    // gen-10000-again: the whole turns (about 12 million transitions) are refused, but the
    // turns asked for are stepped exactly on the links form (about 58,000 entries); the terms
    // against the whole turns are the unit tests' (`exact/step/linked/links_form_tests.rs`).
    let big = format!(
        "{}/benches/boards/gen-10000-again.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = stdout_of(&["distribution", &big, "--turns", "3"]);
    assert!(out.contains("Turns computed   1 to 3 (as asked)"), "{out}");
    assert!(!out.contains("Decay rate"), "{out}");
    // Without a number of turns, the tail's turns need the decay rate: still refused.
    let err = crate::common::stderr_of(&["distribution", &big], 2);
    assert!(err.contains("transitions"), "{err}");
}
