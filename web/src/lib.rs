//! The web page's WebAssembly shell over [`ladders::Game`]: each exported function takes a board
//! file's text and the page's rule switches (as JSON) and returns the library's answer as JSON,
//! `{"ok": ...}` or `{"error": ...}`. No analysis here: loading, the questions and their cost
//! checks are the façade's, the picture is `ladders::report`'s (as `ladders draw --svg` makes it).

use ladders::analysis::{DistributionOptions, Expectation};
use ladders::board::{Board, DieChoice, Overshoot, RollAgain, RuleOverrides, BUILTIN_BOARDS};
use ladders::report::sqrt_fixed;
use ladders::report::{board_svg, DrawOptions, Heat, HeatOf};
use ladders::report::{DistributionJson, ExtremesJson, RaceJson};
use ladders::{Error, Game, Race};
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;

/// Places after the point of the decimals the shell writes itself.
const DIGITS: usize = 12;

/// The digits after the point the race certifies.
const RACE_DIGITS: usize = 6;

/// The order of the moments the page shows (mean, standard deviation, skew, kurtosis).
const MOMENTS: usize = 4;

/// The built-in boards: `[{name, summary, text}]`.
#[wasm_bindgen]
pub fn builtins() -> String {
    let boards: Vec<Value> = BUILTIN_BOARDS
        .iter()
        .map(|b| json!({"name": b.name, "summary": b.summary, "text": b.text}))
        .collect();
    Value::Array(boards).to_string()
}

/// Answers `question` about the board `text` under the rule switches `rules` (JSON, see
/// [`Switches`]): `"board"` (the board's facts and its SVG), `"heat"` (the SVG shaded by the
/// expected visits), `"expect"`, `"moments"`, `"distribution"`, `"shortest"` or `"race"` (two
/// players on the board).
#[wasm_bindgen]
pub fn ask(question: &str, text: &str, rules: &str) -> String {
    let answer = load(text, rules).and_then(|game| answer(question, &game));
    match answer {
        Ok(value) => json!({ "ok": value }),
        Err(error) => json!({ "error": error }),
    }
    .to_string()
}

/// The page's rule switches; an absent or empty field keeps the board's own rule.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Switches {
    /// The start square.
    pub start: Option<u32>,
    /// `stay`, `bounce` or `allow`.
    pub overshoot: Option<String>,
    /// Faces (`8`) or face weights (`1,1,1,1,1,3`).
    pub die: Option<String>,
    /// `none`, `unlimited` or K.
    pub roll_again: Option<String>,
    /// Whether jumps chain.
    pub chain: Option<bool>,
}

impl Switches {
    /// The library's overrides, or a message naming the bad switch.
    fn overrides(&self) -> Result<RuleOverrides, String> {
        let overshoot = match given(&self.overshoot) {
            None => None,
            Some(name) => Some(Overshoot::from_name(name).ok_or_else(|| {
                format!("overshoot: expected stay, bounce or allow, found {name:?}")
            })?),
        };
        let die = given(&self.die)
            .map(DieChoice::parse)
            .transpose()
            .map_err(|e| format!("die: {e}"))?;
        let roll_again = given(&self.roll_again)
            .map(RollAgain::parse)
            .transpose()
            .map_err(|e| format!("roll again: {e}"))?;
        let mut overrides = RuleOverrides::default();
        overrides.start = self.start;
        overrides.overshoot = overshoot;
        overrides.die = die;
        overrides.roll_again = roll_again;
        overrides.chain = self.chain;
        Ok(overrides)
    }
}

/// A switch's text, trimmed, when not empty.
fn given(switch: &Option<String>) -> Option<&str> {
    switch.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// The game of `text` with the switches of `rules` applied.
fn load(text: &str, rules: &str) -> Result<Game, Value> {
    let switches: Switches = match rules.trim() {
        "" => Switches::default(),
        rules => serde_json::from_str(rules).map_err(|e| rules_error(&e.to_string()))?,
    };
    let overrides = switches.overrides().map_err(|e| rules_error(&e))?;
    let game = Game::from_toml(text, "board").map_err(|e| error_json(&e))?;
    match overrides.is_empty() {
        true => Ok(game),
        false => game.with_rules(&overrides).map_err(|e| error_json(&e)),
    }
}

/// One question's answer as JSON.
fn answer(question: &str, game: &Game) -> Result<Value, Value> {
    let value = match question {
        "board" => Ok(board_facts(game, None)),
        "heat" => Heat::of(game, HeatOf::Visits).map(|heat| board_facts(game, Some(&heat))),
        "expect" => game.expect().map(|e| expectation_json(&e)),
        "moments" => game.moments(MOMENTS).map(|m| to_json(&m)),
        "distribution" => game
            .distribution(&DistributionOptions::default())
            .map(|d| to_json(&DistributionJson::new(game.board(), &d))),
        "shortest" => game
            .shortest()
            .map(|s| to_json(&ExtremesJson::new(game.board(), &s))),
        "race" => Game::race(&[game.clone(), game.clone()], RACE_DIGITS)
            .map(|r| race_json(game.board(), &r)),
        other => return Err(json!({"kind": "usage", "message": format!("no question {other:?}")})),
    };
    value.map_err(|e| error_json(&e))
}

/// The expectations, with the standard deviation of the turns (the library's square root of
/// the exact variance, to [`DIGITS`] places) when the game ends.
fn expectation_json(expectation: &Expectation) -> Value {
    let mut value = to_json(expectation);
    if let Expectation::Finite(e) = expectation {
        value["standard_deviation"] = Value::String(sqrt_fixed(&e.variance, DIGITS));
    }
    value
}

/// Two players on the board: the façade's race as `ladders race --json` writes it, with the
/// first player's chance to win in the digits its interval certifies (`first_wins`, as
/// `ladders race` prints it).
fn race_json(board: &Board, odds: &Race) -> Value {
    let mut value = to_json(&RaceJson {
        boards: &[board, board],
        race: odds,
        knock_off: false,
        distribution: false,
    });
    if let Some(first) = odds.seats.first() {
        value["first_wins"] = Value::String(first.win.certified(odds.digits).text);
    }
    value
}

/// The board's size and rules, and its picture (`heat`: shaded by it).
fn board_facts(game: &Game, heat: Option<&Heat>) -> Value {
    let board = game.board();
    let mut options = DrawOptions::default();
    options.heat = heat;
    json!({
        "size": board.size(),
        "name": board.name(),
        "svg": board_svg(board, &options),
    })
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| json!({"serialize_error": e.to_string()}))
}

/// The error as JSON: its kind, the whole message, and for a board its problems with their
/// lines, for a refusal the estimate and the limit.
fn error_json(error: &Error) -> Value {
    let message = error.to_string();
    match error {
        Error::Board(board) => json!({
            "kind": "board",
            "message": message,
            "problems": board.problems.iter()
                .map(|p| json!({"line": p.line, "message": p.message}))
                .collect::<Vec<_>>(),
            "more": board.more,
        }),
        Error::TooLarge(too) => json!({"kind": "too_large", "message": message, "too_large": too}),
        Error::NeedsPolicy { .. } => json!({"kind": "needs_policy", "message": message}),
        _ => json!({"kind": "unanswerable", "message": message}),
    }
}

fn rules_error(message: &str) -> Value {
    json!({"kind": "rules", "message": message})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask_json(question: &str, text: &str, rules: &str) -> Value {
        serde_json::from_str(&ask(question, text, rules)).expect("the answer is JSON")
    }

    fn builtin_text(name: &str) -> &'static str {
        BUILTIN_BOARDS
            .iter()
            .find(|b| b.name == name)
            .expect("built in")
            .text
    }

    #[test]
    fn tiny_expects_four_turns() {
        // docs/model.md solves tiny by hand: E[T] = 4.
        let v = ask_json("expect", builtin_text("tiny"), "");
        assert_eq!(v["ok"]["finite"]["turns"]["numerator"], "4", "{v}");
        assert_eq!(v["ok"]["finite"]["turns"]["denominator"], "1", "{v}");
        // Var[T] = 4 (docs/model.md), so the standard deviation is 2.
        assert_eq!(v["ok"]["standard_deviation"], "2.000000000000", "{v}");
    }

    #[test]
    fn an_upward_snake_names_its_line() {
        let v = ask_json("board", "size = 10\nsnakes = [[2, 5]]\n", "");
        assert_eq!(v["error"]["kind"], "board", "{v}");
        assert_eq!(v["error"]["problems"][0]["line"], 2, "{v}");
    }

    #[test]
    fn switches_replace_the_rules() {
        // tiny with overshoot allowed: a wait for heads (geometric(1/2), 2 turns on average)
        // takes the ladder to 3, from where either face finishes (1 turn): E[T] = 3.
        let v = ask_json("expect", builtin_text("tiny"), r#"{"overshoot": "allow"}"#);
        assert_eq!(v["ok"]["finite"]["turns"]["numerator"], "3", "{v}");
        let v = ask_json("expect", builtin_text("tiny"), r#"{"die": "one"}"#);
        assert_eq!(v["error"]["kind"], "rules", "{v}");
    }

    #[test]
    fn two_coins_on_tiny_race_to_sixteen_twenty_sevenths() {
        // Each player on tiny finishes in T turns with P(T = n) = (n - 1) / 2^n (docs/model.md);
        // the first wins when T1 <= T2 (moving first, it wins a tie): sum_n P(T = n) P(T >= n)
        // = 16/27 = 0.592592... (worked by hand in src/race/independent.rs).
        let v = ask_json("race", builtin_text("tiny"), "");
        assert_eq!(v["ok"]["first_wins"], "0.592593", "{v}");
    }

    #[test]
    fn the_picture_is_svg_with_and_without_heat() {
        for question in ["board", "heat"] {
            let v = ask_json(question, builtin_text("milton-bradley"), "");
            let svg = v["ok"]["svg"].as_str().expect("svg");
            assert!(
                svg.starts_with("<svg") || svg.starts_with("<?xml"),
                "{question}"
            );
        }
    }
}
