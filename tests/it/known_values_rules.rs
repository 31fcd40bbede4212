//! The exact answers on small boards using every rule of docs/model.md (loaded dice, several
//! dice, chance squares, random tiles, one-use jumps, points, lost and extra turns, mixed with
//! roll-again, bounce and chains) against `tests/independent/rules_chain.py`, a pure-Python
//! roll-level chain written from the rules text, not from the Rust code. The boards are
//! `tests/fixtures/independent-boards/*.toml`, the Python's answers
//! `tests/fixtures/independent-rules/*.txt` (`tests/independent/regenerate.sh` rewrites them):
//! expectations, variance, P(T = n) for n = 1..6, and on point boards the expected final score
//! and its law, all compared with `==`. And issue 11's rules on tiny boards worked by hand in the
//! comments.

use std::collections::BTreeMap;
use std::path::Path;

use ladders::analysis::DistributionOptions;
use ladders::analysis::Expectation;
use ladders::board::Board;
use ladders::internals::expect;
use ladders::internals::square_answers;
use ladders::internals::{board_distribution, score};
use num_rational::BigRational;

use super::known_values::parse_fraction;

/// Checks one fixture; returns the number of values compared.
fn check_fixture(path: &Path) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let board_path = lines.next().unwrap().strip_prefix("args ").unwrap();
    let board = Board::load(&root.join(board_path)).expect("valid board");
    let Expectation::Finite(e) = expect(&board) else {
        panic!("{}: expected a finite game", path.display())
    };
    let options = DistributionOptions::turns(6);
    let law = board_distribution(&board, &options).expect("six turns are cheap");
    let final_score = score(&board).unwrap();
    let mut compared = 0;
    let mut score_law = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        let (got, expected) = match words[..] {
            ["p_turns", n, value] => {
                let n: usize = n.parse().unwrap();
                let term = &law.terms[n - 1];
                assert_eq!(term.n, n);
                (term.p.clone(), parse_fraction(value))
            }
            ["score_law", v, value] => {
                score_law.push((v.parse::<i64>().unwrap(), parse_fraction(value)));
                continue;
            }
            ["score", value] => (
                final_score
                    .as_ref()
                    .expect("a points board")
                    .expected
                    .clone(),
                parse_fraction(value),
            ),
            [name, value] => {
                let got = match name {
                    "turns" => &e.turns,
                    "rolls" => &e.rolls,
                    "snakes" => &e.snakes,
                    "ladders" => &e.ladders,
                    "climbed" => &e.climbed,
                    "slid" => &e.slid,
                    "variance" => &e.variance,
                    other => panic!("unknown quantity {other}"),
                };
                (got.clone(), parse_fraction(value))
            }
            _ => panic!("{}: bad line {line:?}", path.display()),
        };
        assert_eq!(got, expected, "{}: {line}", path.display());
        compared += 1;
    }
    if let Some(s) = final_score {
        assert_eq!(s.law, score_law, "{}: the score's law", path.display());
        compared += score_law.len();
    } else {
        assert!(
            score_law.is_empty(),
            "{}: no score computed",
            path.display()
        );
    }
    compared
}

#[test]
fn every_rule_equals_the_independent_python_derivation_on_small_boards() {
    let fixtures = super::common::fixtures("independent-rules");
    let mut compared = 0;
    for path in &fixtures {
        // Every fixture holds at least the seven expectations and six terms of P(T = n).
        let n = check_fixture(path);
        assert!(n >= 13, "{}: only {n} values", path.display());
        compared += n;
    }
    // Six boards for issue 11's rules and six for issue 12's, at least.
    assert!(fixtures.len() >= 12, "only {} fixtures", fixtures.len());
    assert!(compared >= 12 * 13);
}

#[test]
fn reach_on_every_rule_equals_the_independent_python_derivation() {
    // rules_chain.py --reach: for each square, one absorbing solve per square over its own
    // roll-level chain (the rolls that leave the token on the square cut), against the Rust
    // answer from the game's chain roll by roll; on every small board and efi (a turn of
    // several rolls). The Python lists every square a roll can leave the token on; the Rust
    // rows are the squares a turn can begin on (the start's reach 0 when no roll returns there).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = super::common::fixtures("independent-reach");
    let mut compared = 0;
    for path in &fixtures {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let board_path = lines.next().unwrap().strip_prefix("args ").unwrap();
        let board_path = board_path.strip_suffix(" --reach").unwrap_or(board_path);
        let board = Board::load(&root.join(board_path)).expect("valid board");
        let want: BTreeMap<u32, BigRational> = lines
            .map(|line| match line.split(' ').collect::<Vec<_>>()[..] {
                ["reach", j, p] => (j.parse().unwrap(), parse_fraction(p)),
                _ => panic!("{}: {line}", path.display()),
            })
            .collect();
        let answers = square_answers(&board).unwrap();
        assert_eq!(answers.no_reach, None, "{}", path.display());
        for row in &answers.squares[..answers.squares.len() - 1] {
            let expected = want.get(&row.square).cloned().unwrap_or_default();
            assert_eq!(
                row.reach.as_ref(),
                Some(&expected),
                "{} square {}",
                path.display(),
                row.square
            );
            compared += 1;
        }
    }
    assert!(fixtures.len() >= 20 && compared >= 200, "{compared}");
}

/// E[T] of a board given as TOML text.
fn turns_of(text: &str) -> BigRational {
    let board = Board::from_toml_str(text, "hand-worked").expect("valid board");
    let Expectation::Finite(e) = expect(&board) else {
        panic!("expected a finite game:\n{text}")
    };
    e.turns
}

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn issue_11_rules_on_tiny_boards_worked_by_hand() {
    // E(s): expected turns from square s; a coin is `die = 2`. The same boards, and the
    // lost-turn, one-use, extra-turn and points ones, are in rules_chain.py's --selftest.
    //
    // Loaded die, size 3, faces 1 and 2 with weights 1 and 2, bounce: from 2 a 1 finishes and a 2
    // bounces back to 2, E(2) = 1 + (2/3) E(2) = 3; E(1) = 1 + (1/3) E(2) = 2 (a 2 finishes);
    // E(0) = 1 + (1/3) E(1) + (2/3) E(2) = 11/3. P(T = 2) = (1/3)(2/3) + (2/3)(1/3) = 4/9.
    let loaded = "size = 3\n[rules]\ndie = [1, 2]\novershoot = \"bounce\"\n";
    assert_eq!(turns_of(loaded), q(11, 3));
    let options = DistributionOptions::turns(2);
    let board = Board::from_toml_str(loaded, "loaded").unwrap();
    let law = board_distribution(&board, &options).unwrap();
    assert_eq!(law.terms[0].p, q(0, 1));
    assert_eq!(law.terms[1].p, q(4, 9));
    // Two coins, sums 2, 3, 4 with 1/4, 1/2, 1/4, size 5, allow, snake 4 -> 1: E(3) = 1,
    // E(1) = 1 + (1/4) E(3) + (1/2) E(1) = 5/2 (a 3 lands on 4 and slides to 1),
    // E(2) = 1 + (1/4) E(1) = 13/8, E(0) = 1 + (1/4) E(2) + (1/2) E(3) + (1/4) E(1) = 81/32.
    assert_eq!(
        turns_of(
            "size = 5\nsnakes = [[4, 1]]\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n"
        ),
        q(81, 32)
    );
    // The same dice, no snake, unlimited roll-again on the double 2 (sum 4): with G(s) the turns
    // still to come after a roll-again from s, E(s) = 1 + G(s), G(s) = (1/4) E(s + 2) +
    // (1/2) E(s + 3) + (1/4) G(s + 4), zero from 5 on: E(3) = E(4) = 1, E(2) = 5/4,
    // E(1) = 7/4, G(0) = 5/16 + 1/2, E(0) = 29/16.
    assert_eq!(
        turns_of(
            "size = 5\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n"
        ),
        q(29, 16)
    );
    // Chance square 1 -> 3 or 0 (1/2 each), coin, size 4, stay: E(3) = 2, E(2) = 1 + E(3)/2 = 2,
    // E(0) = 1 + (1/4) E(3) + (1/4) E(0) + (1/2) E(2), E(0) = 10/3.
    assert_eq!(
        turns_of("size = 4\n[[chance]]\nat = 1\nto = [[3, 1], [0, 1]]\n[rules]\ndie = 2\n"),
        q(10, 3)
    );
    // Tiles of length 2, p = 1/2 (a snake tile only on 3), q = 1/4, coin, size 4, allow:
    // E(3) = 1, E(2) = 1 + (1/2)((1/2) E(1) + (1/4) E(3)), E(1) = 1 + (1/2)(3/4) E(2) +
    // (1/2)((1/2) E(1) + (1/4) E(3)): E(1) = 33/14, E(2) = 12/7; E(0) = 1 + (1/2)((1/4) E(3) +
    // (3/4) E(1)) + (1/2)(3/4) E(2) = 297/112.
    assert_eq!(
        turns_of(
            "size = 4\n[tiles]\nlength = 2\nsnake = \"1/2\"\nladder = \"1/4\"\n[rules]\ndie = 2\novershoot = \"allow\"\n"
        ),
        q(297, 112)
    );
    // Start on square 1, which a ladder 1 -> 3 leaves: standing there climbs nothing. Coin, size
    // 4, stay: E(3) = 2, E(2) = 1 + E(3)/2 = 2, E(1) = 1 + E(2)/2 + E(3)/2 = 3 (2 if it climbed).
    assert_eq!(
        turns_of("size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\nstart = 1\n"),
        q(3, 1)
    );
}
