//! The closed forms on boards using every rule, including boards that change during a game
//! (one-use jumps, points, lost and extra turns), against `tests/independent/closed_form.py`:
//! a second route (Cramer's rule over the turn kernel of `rules_chain.py`, by evaluation and
//! interpolation in exact fractions, reduced by Euclid's gcd) to the generating function N / D,
//! and a third one (the kernel's binomial recursion) to the raw moments E[T^k], k = 1..4. The
//! fixtures are `tests/fixtures/independent-closed-forms/*.txt` (`tests/independent/
//! regenerate.sh` rewrites them); the real binary's `pgf --json` and `expect --moments 4
//! --json` must equal them with `==`, coefficient by coefficient and fraction by fraction.

use std::path::Path;

use serde_json::Value;

use super::common::{exact, json_of};
use super::known_values::parse_fraction;

/// The strings of a JSON array of strings.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect()
}

/// Checks one fixture against the binary; returns the number of values compared.
fn check_fixture(path: &Path) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let board = root.join(lines.next().unwrap().strip_prefix("args ").unwrap());
    let board = board.to_str().unwrap();
    let pgf = json_of(&["pgf", board, "--json"]);
    let expect = json_of(&["expect", board, "--moments", "4", "--json"]);
    let raw: Vec<_> = expect["moments"]["raw"]
        .as_array()
        .expect("the raw moments")
        .iter()
        .map(exact)
        .collect();
    let mut compared = 0;
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        match words[..] {
            ["pgf_numerator", ..] => {
                assert_eq!(strings(&pgf["numerator"]), words[1..], "{board}: N");
                compared += words.len() - 1;
            }
            ["pgf_denominator", ..] => {
                assert_eq!(strings(&pgf["denominator"]), words[1..], "{board}: D");
                compared += words.len() - 1;
            }
            ["raw_moment", k, value] => {
                let k: usize = k.parse().unwrap();
                assert_eq!(raw[k - 1], parse_fraction(value), "{board}: E[T^{k}]");
                compared += 1;
            }
            _ => panic!("{}: bad line {line:?}", path.display()),
        }
    }
    compared
}

#[test]
fn closed_forms_and_moments_equal_the_independent_derivation_on_every_rule() {
    let paths = super::common::fixtures("independent-closed-forms");
    // Twelve boards, six of them changing during a game (one-use jumps, points, lost or extra
    // turns): every fixture holds N, D and four moments.
    assert_eq!(paths.len(), 12);
    for path in &paths {
        let compared = check_fixture(path);
        assert!(compared >= 8, "{}: only {compared} values", path.display());
    }
}

/// Issue 39's turn rules (`enter`, `roll_again_on = "double"`, `jump_takes_turn`): the same
/// comparison on the boards of `tests/fixtures/independent-boards/` that use them, kept apart so
/// the count above stays the issue-18 set.
#[test]
fn closed_forms_and_moments_equal_the_independent_derivation_on_the_turn_rules() {
    let paths = super::common::fixtures("independent-closed-forms-turn-rules");
    assert!(paths.len() >= 2, "only {} fixtures", paths.len());
    for path in &paths {
        let compared = check_fixture(path);
        assert!(compared >= 8, "{}: only {compared} values", path.display());
    }
}
