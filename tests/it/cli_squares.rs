//! `ladders squares`, `ladders sensitivity` and `expect`/`analyze --die LO..HI` through the binary: the
//! JSON's exact values against values worked by hand or a second method, CSV shapes, and refusals.

use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::common::{exact, json_of, stderr_of, stdout_of};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn tiny_squares_by_hand() {
    // docs/model.md's tiny board: 2 turns begun on 0 and on 3; back on 0 after a turn with
    // probability 1/2 (tails first); 3 and the finish surely reached; 4 and 2 turns remain.
    let v = json_of(&["squares", "tiny", "--json"]);
    let squares = v["squares"].as_array().unwrap();
    let row = |i: usize, key: &str| exact(&squares[i][key]);
    assert_eq!(squares.len(), 3);
    assert_eq!(
        (row(0, "visits"), row(0, "reach"), row(0, "remaining")),
        (q(2, 1), q(1, 2), q(4, 1))
    );
    assert_eq!(
        (row(1, "visits"), row(1, "reach"), row(1, "remaining")),
        (q(2, 1), q(1, 1), q(2, 1))
    );
    assert_eq!(squares[2]["square"], 4);
    // The snake 2 -> 0: once on average, at least once with probability 1/2.
    let snake = &v["jumps"][0];
    assert_eq!(
        (snake["from"].as_u64(), snake["kind"].as_str()),
        (Some(2), Some("snake"))
    );
    assert_eq!(
        (exact(&snake["uses"]), exact(&snake["taken"])),
        (q(1, 1), q(1, 2))
    );
}

#[test]
fn visits_sum_to_expect_and_the_law_after_n_to_the_distribution() {
    // Second methods through the binary: `expect`'s turns, `distribution`'s P(T > n).
    let v = json_of(&["squares", "milton-bradley", "--json"]);
    let total: BigRational = v["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| exact(&s["visits"]))
        .sum();
    let e = json_of(&["expect", "milton-bradley", "--json"]);
    assert_eq!(total, exact(&e["expected_turns"]));
    let d = json_of(&["distribution", "milton-bradley", "--turns", "20", "--json"]);
    let a = json_of(&["squares", "milton-bradley", "--after", "20", "--json"]);
    let law = a["law"].as_array().unwrap();
    let off: BigRational = law
        .iter()
        .filter(|r| r["square"] != 100)
        .map(|r| exact(&r["p"]))
        .sum();
    let all: BigRational = law.iter().map(|r| exact(&r["p"])).sum();
    assert_eq!(d["turns"], 20);
    assert_eq!(off, exact(&d["tail"]));
    assert_eq!(all, BigRational::one());
    assert!(off > BigRational::zero());
}

#[test]
fn csv_has_one_line_per_square_and_per_jump() {
    let text = stdout_of(&["squares", "milton-bradley", "--csv"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "square,visits,reach,remaining");
    // The start, the 100 squares less the 19 jump starts, and the finish counted among them.
    assert_eq!(lines.len() - 1, 1 + 100 - 19);
    let text = stdout_of(&["squares", "milton-bradley", "--csv", "--jumps"]);
    assert_eq!(text.lines().next(), Some("from,to,kind,uses,taken"));
    assert_eq!(text.lines().count(), 1 + 19);
}

#[test]
fn sensitivity_lists_every_jump_sorted_with_exact_changes() {
    let v = json_of(&["sensitivity", "milton-bradley", "--json"]);
    let rows = v["removed"].as_array().unwrap();
    assert_eq!(rows.len(), 19);
    let base = exact(&v["turns"]);
    for w in rows.windows(2) {
        assert!(exact(&w[0]["change"]) >= exact(&w[1]["change"]));
    }
    for r in rows {
        assert_eq!(exact(&r["turns"]) - &base, exact(&r["change"]));
    }
    // Removing the ladder 28 -> 84 through the binary: `expect` on the board without it.
    let row = rows.iter().find(|r| r["from"] == 28).unwrap();
    let text = std::fs::read_to_string("boards/milton-bradley.toml").unwrap();
    let without = text.replace("[28, 84],", "");
    assert_ne!(without, text);
    let path = std::env::temp_dir().join(format!("ladders-sens-{}.toml", std::process::id()));
    std::fs::write(&path, without).unwrap();
    let e = json_of(&["expect", path.to_str().unwrap(), "--json"]);
    assert_eq!(exact(&row["turns"]), exact(&e["expected_turns"]));
}

/// `COMMAND milton-bradley --die RANGE --digits 2` marks the spinner of 15 (25.81 turns) best,
/// the published answer (Althoen, King and Schilling, 2011).
fn assert_best_is_fifteen(command: &str, range: &str) {
    let args = [command, "milton-bradley", "--die", range, "--digits", "2"];
    let text = stdout_of(&args);
    let best: Vec<&str> = text.lines().filter(|l| l.contains("<- best")).collect();
    assert_eq!(best, vec!["  15  25.81  <- best"], "{text}");
}

#[test]
fn the_die_table_marks_fifteen_on_milton_bradley() {
    assert_best_is_fifteen("expect", "2..40");
    let v = json_of(&["expect", "milton-bradley", "--die", "2..40", "--json"]);
    assert_eq!(v["best"], 15);
    assert_eq!(v["dice"].as_array().unwrap().len(), 39);
    // The row for 6 is `expect`'s own answer.
    let six = json_of(&["expect", "milton-bradley", "--json"]);
    assert_eq!(exact(&v["dice"][4]["turns"]), exact(&six["expected_turns"]));
}

#[test]
fn analyze_takes_a_die_range_and_gives_expects_table() {
    // Issue 13: `analyze --die LO..HI` is the same table as `expect --die LO..HI`; the row for 6
    // is `expect`'s own answer on the board (an independent solve, tested in known_values).
    let a = json_of(&["analyze", "milton-bradley", "--die", "5..7", "--json"]);
    let e = json_of(&["expect", "milton-bradley", "--die", "5..7", "--json"]);
    assert_eq!(a, e);
    assert_eq!(a["dice"].as_array().unwrap().len(), 3);
    let six = json_of(&["expect", "milton-bradley", "--json"]);
    assert_eq!(exact(&a["dice"][1]["turns"]), exact(&six["expected_turns"]));
    assert_best_is_fifteen("analyze", "13..17");
}

#[test]
fn a_die_range_is_refused_elsewhere_and_a_bad_range_is_named() {
    let err = stderr_of(&["distribution", "tiny", "--die", "2..5"], 2);
    assert!(
        err.contains("--die 2..5") && err.contains("expect"),
        "{err}"
    );
    let err = stderr_of(&["expect", "tiny", "--die", "9..3"], 2);
    assert!(err.contains("LO..HI") && err.contains("9..3"), "{err}");
}

#[test]
fn reach_is_refused_with_its_reason_where_it_is_not_computed() {
    // A turn of several rolls has its reach now (tiny with roll-again: the snake from 2 is taken
    // at least once w.p. 1/2, as in tiny's one-roll game); seed 003's one-use jumps and apples
    // make more states between rolls than the per-square solves take.
    let text = stdout_of(&["squares", "tiny", "--roll-again", "unlimited"]);
    assert!(!text.contains("not computed"), "{text}");
    let err = stderr_of(&["draw", "seed-003", "--heat", "reach"], 2);
    assert!(err.contains("states of the game between rolls"), "{err}");
}
