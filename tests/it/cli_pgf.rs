//! Runs the real binary: `pgf` in each output format on the hand-worked tiny board and on
//! Zeilberger's coin board, and `expect --moments`.

use predicates::prelude::*;

use crate::common::{json_of, ladders};

#[test]
fn pgf_of_the_tiny_board_prints_the_hand_worked_closed_form() {
    // boards/tiny.toml, by hand: F(z) = z^2 / (2 - z)^2 = z^2 / (z^2 - 4z + 4).
    ladders()
        .args(["pgf", "tiny"])
        .assert()
        .success()
        .stdout(predicate::str::contains("N(z) = z^2\n"))
        .stdout(predicate::str::contains("D(z) = z^2 - 4*z + 4\n"))
        .stdout(predicate::str::contains(
            "4 p(n) - 4 p(n-1) + p(n-2) = 0 for n >= 3",
        ))
        .stdout(predicate::str::contains(
            "initial terms p(0), ..., p(2) = 0, 0, 1/4",
        ));
    for (format, line) in [
        ("sympy", "F = (z**2)/(z**2 - 4*z + 4)\n"),
        ("maple", "F := (z^2)/(z^2 - 4*z + 4);\n"),
        ("mathematica", "F = (z^2)/(z^2 - 4*z + 4)\n"),
    ] {
        ladders()
            .args(["pgf", "tiny", "--format", format])
            .assert()
            .success()
            .stdout(line);
    }
}

#[test]
fn pgf_json_of_zeilbergers_coin_board_is_his_polynomial() {
    // An empty 30-square board, start on 1, a coin, passing 30 allowed: Thanatipanonda and
    // Zeilberger's z^15 (z^14 + 55 z^13 + ... + 131072) / 2^28.
    let v = json_of(&["pgf", "tests/fixtures/zeilberger-coin.toml", "--json"]);
    assert_eq!(v["denominator"], serde_json::json!(["268435456"]));
    let n = v["numerator"].as_array().unwrap();
    assert_eq!(n.len(), 30);
    assert_eq!(n[29], "1");
    assert_eq!(n[28], "55");
    assert_eq!(n[15], "131072");
    assert_eq!(v["f_at_1"], "1");
}

#[test]
fn pgf_refuses_an_unknown_format() {
    ladders()
        .args(["pgf", "tiny", "--format", "latex"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sympy, maple, mathematica"));
}
