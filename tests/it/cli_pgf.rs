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
    // A polynomial: the game cannot last more than 29 turns, there is no decay rate.
    assert_eq!(v["decay_rate"], serde_json::Value::Null);
}

#[test]
fn pgf_json_of_the_tiny_board_has_the_exact_double_root() {
    // boards/tiny.toml, by hand: F(z) = z^2 / (2 - z)^2, a double root z0 = 2, and
    // P(T > n) = sum_(k > n) (k - 1) 2^-k = (n + 1) 2^-n = 1 binomial(n + 1, 1) (1/2)^n: rho = 1/2
    // and C = 1 exactly, multiplicity 2.
    let v = json_of(&["pgf", "tiny", "--json"]);
    let rate = &v["decay_rate"];
    assert_eq!(rate["low"], "1/2");
    assert_eq!(rate["high"], "1/2");
    assert_eq!(rate["multiplicity"], 2);
    assert_eq!(rate["constant"]["low"], "1");
    assert_eq!(rate["constant"]["high"], "1");
}

#[test]
fn pgf_refuses_an_unknown_format() {
    ladders()
        .args(["pgf", "tiny", "--format", "latex"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sympy, maple, mathematica"));
}

#[test]
fn expect_moments_of_the_tiny_board_are_the_hand_worked_ones() {
    // boards/tiny.toml: T = G1 + G2, two geometric(1/2) waits with cumulants 2, 2, 6, 26 each,
    // so T's are 4, 4, 12, 52: mu_2 = 4, mu_3 = 12, mu_4 = 52 + 3 * 4^2 = 100, and
    // E[T^2] = 4 + 16 = 20, E[T^3] = 12 + 3*4*4 + 64 = 124, E[T^4] = 100 + 4*4*12 + 6*16*4 + 256
    // = 932; skewness^2 = 144 / 64 = 9/4, excess kurtosis = 100 / 16 - 3 = 13/4. Factorial:
    // E[T(T-1)(T-2)] = 124 - 3*20 + 2*4 = 72, E[T(T-1)(T-2)(T-3)] = 932 - 6*124 + 11*20 - 6*4
    // = 384.
    let v = json_of(&["expect", "tiny", "--moments", "4", "--json"]);
    let m = &v["moments"];
    let nums = |key: &str| -> Vec<String> {
        m[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                format!(
                    "{}/{}",
                    x["numerator"].as_str().unwrap(),
                    x["denominator"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(nums("raw"), ["4/1", "20/1", "124/1", "932/1"]);
    assert_eq!(nums("central"), ["0/1", "4/1", "12/1", "100/1"]);
    assert_eq!(nums("factorial"), ["4/1", "16/1", "72/1", "384/1"]);
    assert_eq!(m["skewness"], "1.500000000000");
    assert_eq!(m["skewness_squared"]["numerator"], "9");
    assert_eq!(m["skewness_squared"]["denominator"], "4");
    assert_eq!(m["excess_kurtosis"]["numerator"], "13");
    assert_eq!(m["excess_kurtosis"]["denominator"], "4");
    ladders()
        .args(["expect", "tiny", "--moments", "4", "--float"])
        .assert()
        .code(2);
}

#[test]
fn expect_moments_refuses_with_the_estimates_when_neither_route_is_cheap() {
    // 10,000 squares (about 9,600 transient states): the generating function needs 19,200
    // exact terms (about 40 minutes by the estimate), the block system of the solves
    // ((n k)^2 k) grows past 10 s from k = 3 (k = 2 about 5 s), so --moments 3 is refused with
    // both estimates and the largest order that is solved directly.
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-10000.toml");
    ladders()
        .args(["expect", board, "--moments", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "moments to order 3: too long on this board",
        ))
        .stderr(predicate::str::contains("ask for --moments 2 or less"));
}

#[test]
fn pgf_refuses_at_once_with_its_estimate_where_it_would_run_for_minutes() {
    // 10,000 squares: 19,200 exact terms to step (about 40 minutes by the estimate; it ran
    // past a minute of CPU before the estimate existed). Refused before any stepping, in each
    // output form, with what to run instead; gen-1000 (about 2 s) is still answered.
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-10000.toml");
    for extra in [&[][..], &["--json"][..], &["--format", "sympy"][..]] {
        ladders()
            .args(["pgf", board])
            .args(extra)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(
                "the generating function would take about",
            ))
            .stderr(predicate::str::contains("9600 transient states"))
            .stderr(predicate::str::contains("`ladders distribution`"));
    }
    let small = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-1000.toml");
    ladders()
        .args(["pgf", small, "--format", "sympy"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("F = "));
}

#[test]
fn pgf_json_of_milton_bradley_encloses_the_decay_rate_distribution_estimates() {
    // `distribution` estimates rho in floating point (nalgebra, a separate route); the proved
    // enclosure from `pgf` must be narrow and contain it up to that estimate's rounding.
    let v = json_of(&["pgf", "milton-bradley", "--json"]);
    let exact = |s: &serde_json::Value| -> num_rational::BigRational {
        s.as_str().unwrap().parse().unwrap()
    };
    let (low_q, high_q) = (
        exact(&v["decay_rate"]["low"]),
        exact(&v["decay_rate"]["high"]),
    );
    // Narrow beyond what a float can show: below 1e-17 of rho, exactly.
    let width = (&high_q - &low_q) * num_rational::BigRational::from_integer(10u64.pow(17).into());
    assert!(low_q < high_q && width < low_q, "{low_q} {high_q}");
    let parse = |q: &num_rational::BigRational| -> f64 {
        q.numer().to_string().parse::<f64>().unwrap()
            / q.denom().to_string().parse::<f64>().unwrap()
    };
    let (low, high) = (parse(&low_q), parse(&high_q));
    let d = json_of(&["distribution", "milton-bradley", "--json"]);
    let rho = d["decay"]["rho"].as_f64().unwrap();
    assert!(
        low - 1e-12 <= rho && rho <= high + 1e-12,
        "{low} {rho} {high}"
    );
    assert!(v["decay_rate"]["rho"]
        .as_str()
        .unwrap()
        .starts_with("0.95974702"));
}
