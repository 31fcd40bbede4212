//! The board's JSON form, as every report writes it (documented in `docs/json-output.md`): the
//! board a report is about ([`BoardJson`]) and its rules as in the board file ([`RulesJson`]).

use serde::Serialize;

use super::{Board, Chance, Jump, Overshoot, RollAgain, Rules, Square, Tiles};

/// The board a report is about (fields in alphabetical order, see `report::json::ExactJson`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BoardJson<'a> {
    /// `[from, to]` pairs.
    pub ladders: JumpPairs<'a>,
    /// Display name.
    pub name: &'a str,
    /// A path or `builtin:NAME`.
    pub origin: &'a str,
    /// The finish square.
    pub size: u32,
    /// `[from, to]` pairs.
    pub snakes: JumpPairs<'a>,
    /// Free text on the layout's source.
    pub source: Option<&'a str>,
}

impl<'a> BoardJson<'a> {
    /// Describes `board`.
    pub fn new(board: &'a Board) -> BoardJson<'a> {
        BoardJson {
            ladders: JumpPairs(board.ladders()),
            name: board.name(),
            origin: board.origin(),
            size: board.size(),
            snakes: JumpPairs(board.snakes()),
            source: board.source(),
        }
    }
}

/// Snakes or ladders as a JSON array of `[from, to]` pairs.
#[derive(Clone, Copy, Debug)]
pub struct JumpPairs<'a>(pub &'a [Jump]);

impl Serialize for JumpPairs<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|j| [j.from, j.to]))
    }
}

/// The rules, as in the board file (fields in alphabetical order, see `report::json::ExactJson`). The keys
/// of the newer rules appear only when the board uses them, so standard boards keep their JSON.
#[derive(Clone, Debug, Serialize)]
pub struct RulesJson<'a> {
    /// Whether jumps chain.
    pub chain: bool,
    /// The chance squares (absent when none).
    #[serde(skip_serializing_if = "<[Chance]>::is_empty")]
    pub chance: &'a [Chance],
    /// How many dice are thrown at once (absent for one).
    #[serde(skip_serializing_if = "is_one")]
    pub dice: u32,
    /// The number of faces of the die.
    pub die: u32,
    /// The face weights of a loaded die (absent for a fair die).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die_weights: Option<&'a [u64]>,
    /// What a roll past the finish does.
    pub overshoot: Overshoot,
    /// Whether the top face rolls again.
    pub roll_again: RollAgain,
    /// 0 (off the board) or the square the token starts on.
    pub start: Square,
    /// Seed 002's random tiles (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<&'a Tiles>,
    /// The house rules a board sets ([`Rules::house_rules`]), each under its key (absent with
    /// the defaults).
    #[serde(flatten)]
    pub house: std::collections::BTreeMap<&'static str, serde_json::Value>,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

impl<'a> RulesJson<'a> {
    /// The JSON form of `rules` alone (a fair die, no draws).
    pub fn new(rules: &Rules) -> RulesJson<'a> {
        RulesJson {
            chain: rules.chain,
            chance: &[],
            dice: rules.dice,
            die: rules.die,
            die_weights: None,
            overshoot: rules.overshoot,
            roll_again: rules.roll_again,
            start: rules.start,
            tiles: None,
            house: rules.house_rules().into_iter().collect(),
        }
    }

    /// The JSON form of `board`'s rules: its [`Rules`], dice, chance squares and tiles.
    pub fn of(board: &'a Board) -> RulesJson<'a> {
        RulesJson {
            chance: board.chances(),
            die_weights: (!board.dice().is_fair()).then(|| board.dice().weights()),
            tiles: board.tiles(),
            ..RulesJson::new(board.rules())
        }
    }
}

/// A board's rules, as in the board file.
pub fn board_rules_json(board: &Board) -> serde_json::Value {
    serde_json::to_value(RulesJson::of(board)).expect("rules serialize")
}
