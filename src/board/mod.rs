//! Boards: the first stage of the pipeline (board file -> `Board` -> rules -> chain -> analyses).
//!
//! A [`Board`] only comes out of validation ([`BoardSpec::validate`]), so every later stage can
//! rely on it: squares in range, snakes going down, ladders going up, at most one jump per square,
//! no cycle of jumps when jumps chain. Board files are TOML (`format`, documented in
//! `docs/board-format.md`); the built-in boards live in `boards/` and are embedded ([`builtin()`]).

// Crate-internal; what the command line, tests and benchmarks still reach of them is in
// `crate::internals`, the answers the façade returns are re-exported below.
pub(crate) mod builtin;
mod chained;
pub(crate) mod dice;
mod draws;
pub(crate) mod format;
pub(crate) mod json;
pub(crate) mod leetcode;
mod reader;
mod validate;
mod validate_choices;
mod validate_draws;
mod validate_state;

use std::fmt;
use std::path::Path;

use serde::Serialize;

pub use builtin::{
    builtin, builtin_names, near_builtin_names, BuiltinBoard, OtherLayout, BUILTIN_BOARDS,
    DEFAULT_BOARD,
};
pub use dice::{Dice, Throw};
pub use draws::{Chance, Probability, TileDraw, Tiles};
pub use format::{load_spec, parse_spec, read_text, MAX_FILE_BYTES};
pub use leetcode::board_file as leetcode_board_file;
pub use validate::{BoardError, Problem};
pub use validate_choices::{ChoiceRule, ChoicesSpec, Declinable};
pub use validate_state::MAX_STATE_SQUARES;

/// A square of the board: 0 is off the board (the start when `start = 0`), `1..=size` are the
/// squares, `size` is the finish.
pub type Square = u32;

/// The largest `size` a board file may ask for: the size at which every command answers or
/// refuses within about a minute (docs/limits.md has the measurements). It was 100,000 until
/// 2026-11-23, where the exact solve of `expect` alone took about ten minutes.
pub const MAX_SIZE: Square = 10_000;
/// The largest die (number of faces) a board may use.
pub const MAX_DIE: u32 = 100;
/// The most dice thrown at once (`dice = k`).
pub const MAX_DICE: u32 = 10;
/// The largest weight of one face of a loaded die or of one chance destination.
pub(crate) const MAX_WEIGHT: u64 = 1_000_000;
/// The largest K for `roll_again = K` (the K-th top face in a row forfeits the turn).
pub(crate) const MAX_ROLL_AGAIN: u32 = 64;

/// What happens when a roll would carry the token past the finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Overshoot {
    /// The token does not move this roll.
    Stay,
    /// The token goes back from the finish by the excess: `t = 2N - t`.
    Bounce,
    /// Any roll past the finish still finishes.
    Allow,
}

impl Overshoot {
    /// The names accepted in board files and on the command line.
    pub const NAMES: [&'static str; 3] = ["stay", "bounce", "allow"];

    /// Parses `"stay"`, `"bounce"` or `"allow"`.
    pub fn from_name(name: &str) -> Option<Overshoot> {
        match name {
            "stay" => Some(Overshoot::Stay),
            "bounce" => Some(Overshoot::Bounce),
            "allow" => Some(Overshoot::Allow),
            _ => None,
        }
    }

    /// The name used in board files.
    pub fn name(self) -> &'static str {
        match self {
            Overshoot::Stay => "stay",
            Overshoot::Bounce => "bounce",
            Overshoot::Allow => "allow",
        }
    }
}

impl fmt::Display for Overshoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether rolling the die's top face grants another roll in the same turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollAgain {
    /// A turn is one roll.
    None,
    /// Every top face grants another roll.
    Unlimited,
    /// Top faces grant another roll, but the K-th top face in a row forfeits the turn: that roll
    /// is not moved, the token goes back to where the turn began, and the turn ends.
    Forfeit(u32),
}

impl RollAgain {
    /// Parses `none`, `unlimited` or an integer K >= 2 (as written on the command line).
    pub fn parse(text: &str) -> Result<RollAgain, String> {
        match text {
            "none" => Ok(RollAgain::None),
            "unlimited" => Ok(RollAgain::Unlimited),
            other => match other.parse::<u32>() {
                Ok(k) if (2..=MAX_ROLL_AGAIN).contains(&k) => Ok(RollAgain::Forfeit(k)),
                _ => Err(format!(
                    "expected \"none\", \"unlimited\" or an integer K from 2 to {MAX_ROLL_AGAIN}, found {}",
                    crate::text::echo(other)
                )),
            },
        }
    }
}

impl RollAgain {
    /// The rule as a board file writes it: `"none"`, `"unlimited"` or the integer K.
    pub fn toml(&self) -> String {
        match self {
            RollAgain::Forfeit(k) => k.to_string(),
            other => format!("\"{other}\""),
        }
    }
}

impl fmt::Display for RollAgain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollAgain::None => f.write_str("none"),
            RollAgain::Unlimited => f.write_str("unlimited"),
            RollAgain::Forfeit(k) => write!(f, "{k}"),
        }
    }
}

impl Serialize for RollAgain {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RollAgain::Forfeit(k) => serializer.serialize_u32(*k),
            other => serializer.serialize_str(&other.to_string()),
        }
    }
}

/// Which throws grant another roll under a roll-again rule (`roll_again_on`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RollOn {
    /// Every die on its top face (a 6 on a d6, double 6 with two).
    #[default]
    Top,
    /// Every die on the same face (any double, with two or more dice).
    Double,
}

impl RollOn {
    /// Parses `"top"` or `"double"`.
    pub fn from_name(name: &str) -> Option<RollOn> {
        match name {
            "top" => Some(RollOn::Top),
            "double" => Some(RollOn::Double),
            _ => None,
        }
    }
}

/// The rules a board is played with (the `[rules]` table of a board file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Rules {
    /// 0: off the board (the first roll lands on square r); s >= 1: standing on square s.
    pub start: Square,
    /// What a roll past the finish does.
    pub overshoot: Overshoot,
    /// The number of faces of the die (faces 1..=die; the top face is `die`). Whether it is
    /// loaded is in [`Board::dice`].
    pub die: u32,
    /// How many dice are thrown at once (the move is their sum).
    pub dice: u32,
    /// Whether the top face rolls again.
    pub roll_again: RollAgain,
    /// Whether jumps chain (a ladder whose top is a snake's head slides you down).
    pub chain: bool,
    /// `enter`: the throw sums that take a token off square 0 (`None`: every sum).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enter: Option<SumSet>,
    /// `roll_again_on`: which throws roll again (the dice's [`Throw::top`] says it per throw).
    pub roll_again_on: RollOn,
    /// `jump_takes_turn`: a move that lands on a jump's start stops there and ends the turn; the
    /// next turn follows the jump, with no roll (docs/model.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub jump_takes_turn: bool,
}

/// A set of throw sums, each at most [`SumSet::MAX`], kept in one word so that [`Rules`] stays a
/// small `Copy` value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SumSet(u128);

impl SumSet {
    /// The largest sum a set can hold (`enter` lists sums up to it: 21 d6).
    pub const MAX: u32 = 127;

    /// The set of `sums` (those above [`SumSet::MAX`] are left out).
    pub fn of(sums: impl IntoIterator<Item = u32>) -> SumSet {
        SumSet(
            sums.into_iter()
                .filter(|&s| s <= SumSet::MAX)
                .fold(0, |set, s| set | 1 << s),
        )
    }

    /// True when `sum` is in the set.
    pub fn contains(&self, sum: u32) -> bool {
        sum <= SumSet::MAX && self.0 >> sum & 1 == 1
    }

    /// The sums, ascending.
    pub fn sums(&self) -> Vec<u32> {
        (0..=SumSet::MAX).filter(|&s| self.contains(s)).collect()
    }
}

impl Serialize for SumSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.sums())
    }
}

impl Rules {
    /// The rules a board file sets beyond start, overshoot, dice, roll-again and chain, each
    /// key with its value, for the reports' rules (empty with the defaults, so the report of a
    /// board without them is unchanged).
    pub fn house_rules(&self) -> Vec<(&'static str, serde_json::Value)> {
        let mut rules = Vec::new();
        if let Some(enter) = self.enter {
            rules.push(("enter", serde_json::json!(enter.sums())));
        }
        if self.roll_again_on == RollOn::Double {
            rules.push(("roll_again_on", serde_json::json!("double")));
        }
        if self.jump_takes_turn {
            rules.push(("jump_takes_turn", serde_json::json!(true)));
        }
        rules
    }

    /// True when a throw of `sum` takes a token on square 0 onto the board (`enter`).
    pub fn enters(&self, sum: u32) -> bool {
        self.enter.is_none_or(|set| set.contains(sum))
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            start: 0,
            overshoot: Overshoot::Stay,
            die: 6,
            dice: 1,
            roll_again: RollAgain::None,
            chain: true,
            enter: None,
            roll_again_on: RollOn::Top,
            jump_takes_turn: false,
        }
    }
}

/// A die as chosen on the command line: `--die 8` or `--die 1,1,1,1,1,3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DieChoice {
    /// A fair die with this many faces.
    Fair(u32),
    /// A loaded die: face i (from 1) has weight `w[i - 1]`.
    Loaded(Vec<u64>),
}

impl DieChoice {
    /// Parses `8` (a fair die) or `1,1,1,1,1,3` (face weights).
    ///
    /// # Errors
    ///
    /// A message naming what is accepted.
    pub fn parse(text: &str) -> Result<DieChoice, String> {
        let bad = || {
            format!(
                "expected a number of faces (2 to {MAX_DIE}) or face weights such as \"1,1,1,1,1,3\", found {}",
                crate::text::echo(text)
            )
        };
        if text.contains(',') {
            let weights: Result<Vec<u64>, _> =
                text.split(',').map(|w| w.trim().parse::<u64>()).collect();
            let weights = weights.map_err(|_| bad())?;
            if !(2..=MAX_DIE as usize).contains(&weights.len())
                || weights.iter().all(|&w| w == 0)
                || weights.iter().any(|&w| w > MAX_WEIGHT)
            {
                return Err(bad());
            }
            Ok(DieChoice::Loaded(weights))
        } else {
            match text.trim().parse::<u32>() {
                Ok(f) if (2..=MAX_DIE).contains(&f) => Ok(DieChoice::Fair(f)),
                _ => Err(bad()),
            }
        }
    }
}

impl std::str::FromStr for DieChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<DieChoice, String> {
        DieChoice::parse(text)
    }
}

/// Rule changes asked for on the command line ("what if" without editing the file): start
/// from [`RuleOverrides::default`] (nothing overridden) and set the fields wanted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleOverrides {
    /// Replaces `start`.
    pub start: Option<Square>,
    /// Replaces `overshoot`.
    pub overshoot: Option<Overshoot>,
    /// Replaces `die`.
    pub die: Option<DieChoice>,
    /// Replaces `dice`.
    pub dice: Option<u32>,
    /// Replaces `roll_again`.
    pub roll_again: Option<RollAgain>,
    /// Replaces `chain`.
    pub chain: Option<bool>,
    /// Sets choice rules (`choose_die`, `coin`, `pick`, `choose_face`, `decline`).
    pub choices: ChoicesSpec,
}

impl RuleOverrides {
    /// True when no rule is overridden.
    pub fn is_empty(&self) -> bool {
        *self == RuleOverrides::default()
    }
}

/// A snake or a ladder: a jump from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Jump {
    /// The square that triggers the jump (a snake's head, a ladder's foot).
    pub from: Square,
    /// Where the token goes (a snake's tail, a ladder's top).
    pub to: Square,
}

impl Jump {
    /// `"snake"` (down) or `"ladder"` (up), as reports name it.
    pub fn kind(&self) -> &'static str {
        if self.to < self.from {
            "snake"
        } else {
            "ladder"
        }
    }
}

/// `{from, kind, to}` of a jump (its [`Jump::kind`] beside its squares): the serde form of a
/// result's jump field flattened into the answers about it.
///
/// # Errors
///
/// The serializer's.
pub(crate) fn jump_with_kind<S: serde::Serializer>(
    jump: &Jump,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(3))?;
    map.serialize_entry("from", &jump.from)?;
    map.serialize_entry("kind", jump.kind())?;
    map.serialize_entry("to", &jump.to)?;
    map.end()
}

/// A value read from a board file, with the line it came from (none for values set on the
/// command line or by a transform).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    /// The value as written.
    pub value: T,
    /// The 1-based line of the board file it came from.
    pub line: Option<usize>,
}

impl<T> Located<T> {
    /// A value with no line (a default, or set on the command line).
    pub fn unplaced(value: T) -> Located<T> {
        Located { value, line: None }
    }
}

/// A board as written, before validation: what `format` reads and what transforms edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    /// Where the board came from, for error messages: a path or `builtin:NAME`.
    pub origin: String,
    /// The board's display name.
    pub name: String,
    /// Free text: where the layout comes from.
    pub source: Option<String>,
    /// The finish square N.
    pub size: Located<i64>,
    /// `[from, to]` pairs meant to go down.
    pub snakes: Vec<Located<(i64, i64)>>,
    /// `[from, to]` pairs meant to go up.
    pub ladders: Vec<Located<(i64, i64)>>,
    /// `start`.
    pub start: Located<i64>,
    /// `overshoot`.
    pub overshoot: Located<Overshoot>,
    /// `die`: a number of faces or the weights of a loaded die.
    pub die: Located<DieSpec>,
    /// `dice`: how many dice are thrown at once.
    pub dice: Located<i64>,
    /// `[[chance]]` tables.
    pub chance: Vec<Located<ChanceSpec>>,
    /// `[tiles]`.
    pub tiles: Option<Located<TilesSpec>>,
    /// `once`: squares whose snake or ladder works once per game.
    pub once: Vec<Located<i64>>,
    /// `points`: `[square, points]` pairs as written.
    pub points: Vec<Located<Vec<i64>>>,
    /// `lose_turn`: squares that cost the next turn.
    pub lose_turn: Vec<Located<i64>>,
    /// `extra_turn`: squares that give one more roll.
    pub extra_turn: Vec<Located<i64>>,
    /// `columns`: the row length of the board as drawn.
    pub columns: Option<Located<i64>>,
    /// `roll_again`.
    pub roll_again: Located<RollAgainSpec>,
    /// `chain`.
    pub chain: Located<bool>,
    /// `enter`: the sums as written, each with its line (the list's own line beside them).
    pub enter: Option<Located<Vec<Located<i64>>>>,
    /// `roll_again_on`.
    pub roll_again_on: Located<RollOn>,
    /// `jump_takes_turn`.
    pub jump_takes_turn: Located<bool>,
    /// The choice rules (`choose_die`, `coin`, `pick`, `choose_face`, `decline`).
    pub choices: ChoicesSpec,
    /// The problems found while reading the file (unknown keys, values of the wrong type, rule
    /// words that are not rules), each value left at its default: validation reports them with
    /// every other problem at once.
    pub read_problems: Vec<Problem>,
}

/// `die` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DieSpec {
    /// `die = F`: a fair die.
    Faces(i64),
    /// `die = [w1, ..., wF]`: face weights, each with its line.
    Weights(Vec<Located<i64>>),
}

/// A `[[chance]]` table as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceSpec {
    /// `at`.
    pub at: Located<i64>,
    /// `to`: each entry as written (a pair `[square, weight]` when well formed), with its line.
    pub to: Vec<Located<Vec<i64>>>,
}

/// A probability as written in `[tiles]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbabilitySpec {
    /// A string, `"1/10"` or `"0.1"`.
    Text(String),
    /// An integer (only 0 and 1 are probabilities).
    Integer(i64),
    /// A TOML float as written, refused (it is not exact).
    Float(String),
}

/// The `[tiles]` table as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilesSpec {
    /// `length`.
    pub length: Located<i64>,
    /// `snake`.
    pub snake: Located<ProbabilitySpec>,
    /// `ladder`.
    pub ladder: Located<ProbabilitySpec>,
}

/// `roll_again` as written: a word, or an integer not yet checked to be >= 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollAgainSpec {
    /// `"none"`.
    None,
    /// `"unlimited"`.
    Unlimited,
    /// An integer K.
    Count(i64),
}

impl BoardSpec {
    /// Swaps every snake and ladder end for end (seed 000's reversed board): a snake from a to b
    /// becomes a ladder from b to a, and the other way round.
    pub fn reverse(&mut self) {
        let flip = |jumps: &[Located<(i64, i64)>]| -> Vec<Located<(i64, i64)>> {
            jumps
                .iter()
                .map(|j| Located {
                    value: (j.value.1, j.value.0),
                    line: j.line,
                })
                .collect()
        };
        let ladders = flip(&self.snakes);
        let snakes = flip(&self.ladders);
        self.snakes = snakes;
        self.ladders = ladders;
        self.name = format!("{} (reversed)", self.name);
    }

    /// Replaces the rules named in `overrides`.
    pub fn apply(&mut self, overrides: &RuleOverrides) {
        if let Some(start) = overrides.start {
            self.start = Located::unplaced(i64::from(start));
        }
        if let Some(overshoot) = overrides.overshoot {
            self.overshoot = Located::unplaced(overshoot);
        }
        if let Some(die) = &overrides.die {
            self.die = Located::unplaced(match die {
                DieChoice::Fair(f) => DieSpec::Faces(i64::from(*f)),
                DieChoice::Loaded(w) => DieSpec::Weights(
                    w.iter()
                        .map(|&v| Located::unplaced(v.min(i64::MAX as u64) as i64))
                        .collect(),
                ),
            });
        }
        if let Some(dice) = overrides.dice {
            self.dice = Located::unplaced(i64::from(dice));
        }
        if let Some(roll_again) = overrides.roll_again {
            self.roll_again = Located::unplaced(match roll_again {
                RollAgain::None => RollAgainSpec::None,
                RollAgain::Unlimited => RollAgainSpec::Unlimited,
                RollAgain::Forfeit(k) => RollAgainSpec::Count(i64::from(k)),
            });
        }
        if let Some(chain) = overrides.chain {
            self.chain = Located::unplaced(chain);
        }
        self.choices.merge(&overrides.choices);
    }

    /// Checks everything and builds the [`Board`], or reports every problem found.
    ///
    /// # Errors
    ///
    /// A [`BoardError`] listing each problem with the line it is on.
    pub fn validate(self) -> Result<Board, BoardError> {
        validate::validate(self)
    }
}

/// A validated board: squares `1..=size`, its snakes and ladders, its rules, and the jump table.
#[derive(Clone, Debug)]
pub struct Board {
    spec: BoardSpec,
    size: Square,
    snakes: Vec<Jump>,
    ladders: Vec<Jump>,
    rules: Rules,
    /// `jump[t]`: where a token that lands on `t` ends up after its jumps (t itself when none).
    jump_once: Vec<Square>,
    /// `chained[t]`: where the fixed jumps from `t` lead with `chain = true`, resolved once
    /// (`None` past a chance square or a one-use jump, or with `chain = false`).
    chained: Vec<Option<chained::Chained>>,
    dice: Dice,
    chances: Vec<Chance>,
    /// `chance_at[t]`: the index in `chances` of the chance square `t`, `u32::MAX` for none.
    chance_at: Vec<u32>,
    tiles: Option<Tiles>,
    state: StateSquares,
    choice: Option<ChoiceRule>,
}

/// The squares that make a player's state remember something (one-use jumps, point squares)
/// or act on a turn (lost and extra turns), by square; empty on boards without any.
#[derive(Clone, Debug, Default)]
pub(crate) struct StateSquares {
    /// The one-use squares, in file order (bit i of a `used` mask is `once[i]`).
    pub once: Vec<Square>,
    /// The point squares and their points, in file order (bit i of an `eaten` mask).
    pub points: Vec<(Square, i64)>,
    /// Per square (when any of these exist): 1 + the index in `once` (0: none), 1 + the index in
    /// `points`, loses a turn, gives an extra roll.
    pub by_square: Vec<(u8, u8, bool, bool)>,
    /// The row length of the board as drawn.
    pub columns: Square,
}

impl Board {
    /// Reads and validates a board file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, is not valid TOML in the board format, or fails validation.
    pub fn load(path: &Path) -> Result<Board, BoardError> {
        format::load_spec(path)?.validate()
    }

    /// Parses and validates board text; `origin` names it in error messages.
    ///
    /// # Errors
    ///
    /// The text is not valid TOML in the board format, or fails validation.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Board, BoardError> {
        format::parse_spec(text, origin)?.validate()
    }

    /// The same board with snakes and ladders swapped end for end.
    ///
    /// # Errors
    ///
    /// The reversed board is invalid (for example a ladder to the finish becomes a snake from it).
    pub fn reversed(&self) -> Result<Board, BoardError> {
        let mut spec = self.spec.clone();
        spec.reverse();
        spec.validate()
    }

    /// The same board with some rules replaced.
    ///
    /// # Errors
    ///
    /// The new rules make the board invalid (for example `chain = true` closes a cycle of jumps).
    pub fn with_rules(&self, overrides: &RuleOverrides) -> Result<Board, BoardError> {
        let mut spec = self.spec.clone();
        spec.apply(overrides);
        spec.validate()
    }

    /// The board as written (before validation), for transforms.
    pub fn spec(&self) -> &BoardSpec {
        &self.spec
    }

    /// The board's display name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Where the board came from: a path or `builtin:NAME`.
    pub fn origin(&self) -> &str {
        &self.spec.origin
    }

    /// Free text on where the layout comes from.
    pub fn source(&self) -> Option<&str> {
        self.spec.source.as_deref()
    }

    /// The finish square N.
    pub fn size(&self) -> Square {
        self.size
    }

    /// The snakes, in file order.
    pub fn snakes(&self) -> &[Jump] {
        &self.snakes
    }

    /// The ladders, in file order.
    pub fn ladders(&self) -> &[Jump] {
        &self.ladders
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The whole chain of fixed jumps from `square`, resolved when the board was validated
    /// (`None`: walk it, as `game::roll`'s `follow` does).
    pub(crate) fn chained(&self, square: Square) -> Option<chained::Chained> {
        self.chained.get(square as usize).copied().flatten()
    }

    /// The square a jump from `square` leads to, if a snake or ladder starts there.
    pub fn jump_from(&self, square: Square) -> Option<Square> {
        let to = self.jump_once[square as usize];
        (to != square).then_some(to)
    }

    /// The dice thrown each roll.
    pub fn dice(&self) -> &Dice {
        &self.dice
    }

    /// The chance squares, in file order.
    pub fn chances(&self) -> &[Chance] {
        &self.chances
    }

    /// The chance square at `square`, if it is one.
    pub fn chance_at(&self, square: Square) -> Option<&Chance> {
        match self.chance_at.get(square as usize) {
            Some(&i) if i != u32::MAX => Some(&self.chances[i as usize]),
            _ => None,
        }
    }

    /// Seed 002's random tiles, when the board has them.
    pub fn tiles(&self) -> Option<&Tiles> {
        self.tiles.as_ref()
    }

    /// The squares whose snake or ladder works once per game, in file order.
    pub fn once_squares(&self) -> &[Square] {
        &self.state.once
    }

    /// The point squares with their points, in file order.
    pub fn point_squares(&self) -> &[(Square, i64)] {
        &self.state.points
    }

    /// The one-use bit of the jump from `square` (0 when it is not one-use).
    pub fn once_bit(&self, square: Square) -> u64 {
        match self.state.by_square.get(square as usize) {
            Some(&(i, ..)) if i > 0 => 1 << (i - 1),
            _ => 0,
        }
    }

    /// The point square at `square`: its bit in an `eaten` mask and its points.
    pub fn points_at(&self, square: Square) -> Option<(u64, i64)> {
        match self.state.by_square.get(square as usize) {
            Some(&(_, i, ..)) if i > 0 => Some((1 << (i - 1), self.state.points[i as usize - 1].1)),
            _ => None,
        }
    }

    /// True when ending a move on `square` costs the player's next turn.
    pub fn loses_turn(&self, square: Square) -> bool {
        self.state
            .by_square
            .get(square as usize)
            .is_some_and(|e| e.2)
    }

    /// True when ending a move on `square` gives one more roll in the turn.
    pub fn gives_extra_roll(&self, square: Square) -> bool {
        self.state
            .by_square
            .get(square as usize)
            .is_some_and(|e| e.3)
    }

    /// The squares that cost the next turn, ascending.
    pub fn lose_turn_squares(&self) -> Vec<Square> {
        self.flagged(|e| e.2)
    }

    /// The squares that give an extra roll, ascending.
    pub fn extra_turn_squares(&self) -> Vec<Square> {
        self.flagged(|e| e.3)
    }

    fn flagged(&self, f: impl Fn(&(u8, u8, bool, bool)) -> bool) -> Vec<Square> {
        let by = &self.state.by_square;
        (0..by.len())
            .filter(|&s| f(&by[s]))
            .map(|s| s as Square)
            .collect()
    }

    /// The row length of the board as drawn (`columns`; 10 for 100 squares, otherwise
    /// ceil(sqrt(size)) unless the file says).
    pub fn columns(&self) -> Square {
        self.state.columns
    }

    /// True when a player's state is more than a square: one-use jumps, point squares, lost or
    /// extra turns, or jumps that take a turn (`jump_takes_turn`: a token on a jump's start owes
    /// the jump, a turn with no roll, which the turn machine plays through the stateful game).
    pub fn is_stateful(&self) -> bool {
        !self.state.by_square.is_empty() || self.rules.jump_takes_turn
    }

    /// True when every roll is decided by the dice alone: no chance square, no tiles (the
    /// standard game, whose roll from a square and a throw has one outcome).
    pub fn is_deterministic(&self) -> bool {
        self.chances.is_empty() && self.tiles.is_none()
    }

    /// The player's choice rule, if the board has one (docs/model.md, "Choices").
    pub fn choice(&self) -> Option<&ChoiceRule> {
        self.choice.as_ref()
    }
}
