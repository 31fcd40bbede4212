//! The board file format (TOML), read into an unvalidated [`BoardSpec`] that keeps the line of
//! every value so validation can name it. The format is documented in `docs/board-format.md`.
//!
//! ```toml
//! name = "Chutes and Ladders (Milton Bradley)"
//! size = 100
//! snakes = [[16, 6], [47, 26]]
//! ladders = [[1, 38], [80, 100]]
//!
//! [rules]
//! start = 0
//! overshoot = "stay"
//! die = 6
//! roll_again = "none"
//! chain = true
//! ```

use std::fs::File;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::{
    BoardError, BoardSpec, ChanceSpec, ChoicesSpec, DieSpec, Located, Overshoot, ProbabilitySpec,
    Problem, RollAgainSpec, TilesSpec,
};

/// The keys allowed at the top level of a board file.
pub const TOP_KEYS: [&str; 13] = [
    "name",
    "source",
    "size",
    "snakes",
    "ladders",
    "chance",
    "tiles",
    "once",
    "points",
    "lose_turn",
    "extra_turn",
    "columns",
    "rules",
];
/// The keys allowed in the `[rules]` table.
pub const RULE_KEYS: [&str; 10] = [
    "start",
    "overshoot",
    "die",
    "dice",
    "roll_again",
    "chain",
    "choose_die",
    "coin",
    "pick",
    "choose_face",
];
/// The keys allowed in a `[[chance]]` table.
pub const CHANCE_KEYS: [&str; 2] = ["at", "to"];
/// The keys allowed in the `[tiles]` table.
pub const TILE_KEYS: [&str; 3] = ["length", "snake", "ladder"];

/// Board files larger than this are refused before parsing (a real board is a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBoard {
    name: Option<String>,
    source: Option<String>,
    size: Spanned<i64>,
    #[serde(default)]
    snakes: Vec<Spanned<Vec<i64>>>,
    #[serde(default)]
    ladders: Vec<Spanned<Vec<i64>>>,
    #[serde(default)]
    chance: Vec<Spanned<FileChance>>,
    tiles: Option<Spanned<FileTiles>>,
    #[serde(default)]
    once: Vec<Spanned<i64>>,
    #[serde(default)]
    points: Vec<Spanned<Vec<i64>>>,
    #[serde(default)]
    lose_turn: Vec<Spanned<i64>>,
    #[serde(default)]
    extra_turn: Vec<Spanned<i64>>,
    columns: Option<Spanned<i64>>,
    rules: Option<FileRules>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileRules {
    start: Option<Spanned<i64>>,
    overshoot: Option<Spanned<String>>,
    die: Option<Spanned<toml::Value>>,
    dice: Option<Spanned<i64>>,
    roll_again: Option<Spanned<toml::Value>>,
    chain: Option<Spanned<bool>>,
    choose_die: Option<Spanned<Vec<i64>>>,
    coin: Option<Spanned<bool>>,
    pick: Option<Spanned<i64>>,
    choose_face: Option<Spanned<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileChance {
    at: i64,
    to: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTiles {
    length: i64,
    snake: toml::Value,
    ladder: toml::Value,
}

/// Reads a board file into a [`BoardSpec`].
///
/// # Errors
///
/// The file cannot be read, is too large, or is not a board file.
pub fn load_spec(path: &Path) -> Result<BoardSpec, BoardError> {
    let origin = path.display().to_string();
    let fail = |message: String| BoardError::single(&origin, None, message);
    let cannot_read = |e: std::io::Error| fail(format!("cannot read the file: {e}"));
    // One open, one fstat, the reads: no stat by path first (this runs at every command).
    let file = File::open(path).map_err(cannot_read)?;
    let len = file.metadata().map_err(cannot_read)?.len();
    if len > MAX_FILE_BYTES {
        return Err(fail(format!(
            "the file is {len} bytes, more than the limit of {MAX_FILE_BYTES} for a board file"
        )));
    }
    let text = read_text(file, &origin, len)?;
    parse_spec(&text, &origin)
}

/// Reads board text from `reader` (`len`: the bytes expected, 0 when unknown), refusing more
/// than [`MAX_FILE_BYTES`] (a pipe or a FIFO has no size to check first) and bytes that are not
/// UTF-8.
///
/// # Errors
///
/// The reader fails, gives more than the limit, or gives bytes that are not UTF-8.
pub fn read_text(reader: impl Read, origin: &str, len: u64) -> Result<String, BoardError> {
    let fail = |message: String| BoardError::single(origin, None, message);
    let mut bytes = Vec::with_capacity(len.min(MAX_FILE_BYTES) as usize);
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!(
            "more than {MAX_FILE_BYTES} bytes, the limit for a board file"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        let column = at
            - bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        BoardError::single(
            origin,
            Some(line),
            format!(
                "byte 0x{:02X} at column {column} is not UTF-8: a board file is UTF-8 text",
                bytes[at]
            ),
        )
    })
}

/// The `roll_again` rule as written: `"none"`, `"unlimited"` or an integer (checked later).
fn parse_roll_again(
    value: Option<Spanned<toml::Value>>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Located<RollAgainSpec> {
    parse_rule(
        value,
        RollAgainSpec::None,
        (lines, problems),
        |v| match v {
            toml::Value::String(s) if s == "none" => Some(RollAgainSpec::None),
            toml::Value::String(s) if s == "unlimited" => Some(RollAgainSpec::Unlimited),
            toml::Value::Integer(k) => Some(RollAgainSpec::Count(*k)),
            _ => None,
        },
        |v| {
            format!(
                "roll_again {v} is not a rule: expected \"none\", \"unlimited\" or an integer K >= 2"
            )
        },
    )
}

/// Parses board text into a [`BoardSpec`]; `origin` names it in error messages.
///
/// # Errors
///
/// The text is not TOML, has unknown keys or values of the wrong type.
pub fn parse_spec(text: &str, origin: &str) -> Result<BoardSpec, BoardError> {
    let lines = LineIndex::new(text);
    let file: FileBoard = toml::from_str(text).map_err(|e| {
        // Every unknown key and wrong type at once, in plain words; the typed reading names
        // only one (and TOML syntax errors are only its).
        let all = super::format_check::shape_problems(text, &|at| lines.line(at));
        if !all.is_empty() {
            return BoardError::new(origin, all);
        }
        let line = e.span().map(|s| lines.line(s.start));
        BoardError::single(origin, line, describe_toml_error(&e))
    })?;
    let mut problems = Vec::new();
    let snakes = parse_pairs(file.snakes, "snake", &lines, &mut problems);
    let ladders = parse_pairs(file.ladders, "ladder", &lines, &mut problems);
    let located = |s: &Spanned<i64>| Located {
        value: *s.get_ref(),
        line: Some(lines.line(s.span().start)),
    };
    let defaults = super::Rules::default();
    let rules = file.rules.unwrap_or_default();
    let die = parse_die(rules.die, &lines, &mut problems);
    let chance = file
        .chance
        .into_iter()
        .map(|c| placed(&lines, c, |c| ChanceSpec { at: c.at, to: c.to }))
        .collect();
    let tiles = file.tiles.map(|t| {
        placed(&lines, t, |t| TilesSpec {
            length: t.length,
            snake: probability(t.snake),
            ladder: probability(t.ladder),
        })
    });
    let choices = ChoicesSpec {
        choose_die: rules.choose_die.as_ref().map(|s| spanned(&lines, s)),
        coin: rules.coin.as_ref().map(|s| spanned(&lines, s)),
        pick: rules.pick.as_ref().map(|s| spanned(&lines, s)),
        choose_face: rules.choose_face.as_ref().map(|s| spanned(&lines, s)),
    };
    let overshoot = parse_rule(
        rules.overshoot,
        defaults.overshoot,
        (&lines, &mut problems),
        |s| Overshoot::from_name(s),
        |s| format!("overshoot {s:?} is not a rule: expected \"stay\", \"bounce\" or \"allow\""),
    );
    let roll_again = parse_roll_again(rules.roll_again, &lines, &mut problems);
    if !problems.is_empty() {
        return Err(BoardError::new(origin, problems));
    }
    Ok(BoardSpec {
        origin: origin.to_string(),
        name: file.name.unwrap_or_else(|| origin.to_string()),
        source: file.source,
        size: located(&file.size),
        snakes,
        ladders,
        start: rules
            .start
            .as_ref()
            .map_or(Located::unplaced(i64::from(defaults.start)), located),
        overshoot,
        die,
        dice: rules
            .dice
            .as_ref()
            .map_or(Located::unplaced(i64::from(defaults.dice)), located),
        chance,
        tiles,
        once: file.once.iter().map(located).collect(),
        points: file
            .points
            .into_iter()
            .map(|p| placed(&lines, p, |p| p))
            .collect(),
        lose_turn: file.lose_turn.iter().map(located).collect(),
        extra_turn: file.extra_turn.iter().map(located).collect(),
        columns: file.columns.as_ref().map(located),
        roll_again,
        chain: rules.chain.map_or(Located::unplaced(defaults.chain), |c| {
            placed(&lines, c, |c| c)
        }),
        choices,
    })
}

/// `f` of a value, with the line the value is on.
fn placed<T, U>(lines: &LineIndex, s: Spanned<T>, f: impl FnOnce(T) -> U) -> Located<U> {
    Located {
        line: Some(lines.line(s.span().start)),
        value: f(s.into_inner()),
    }
}

/// A value with the line it is on.
fn spanned<T: Clone>(lines: &LineIndex, s: &Spanned<T>) -> Located<T> {
    Located {
        value: s.get_ref().clone(),
        line: Some(lines.line(s.span().start)),
    }
}

/// `die` as written: an integer (faces) or an array of integer weights.
fn parse_die(
    die: Option<Spanned<toml::Value>>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Located<DieSpec> {
    parse_rule(
        die,
        DieSpec::Faces(i64::from(super::Rules::default().die)),
        (lines, problems),
        |v| match v {
            toml::Value::Integer(f) => Some(DieSpec::Faces(*f)),
            toml::Value::Array(items) => items
                .iter()
                .map(|v| v.as_integer())
                .collect::<Option<Vec<i64>>>()
                .map(DieSpec::Weights),
            _ => None,
        },
        |v| {
            format!(
                "die {v} is not a die: expected a number of faces (die = 6) or the integer \
                 weights of a loaded die's faces (die = [1, 1, 1, 1, 1, 3])"
            )
        },
    )
}

/// A rule as written: absent, the `default` (placed on no line); else what `parse` makes of it,
/// or, where it makes nothing, the `default` and a problem on the value's line with `message`.
fn parse_rule<V, T>(
    value: Option<Spanned<V>>,
    default: T,
    (lines, problems): (&LineIndex, &mut Vec<Problem>),
    parse: impl FnOnce(&V) -> Option<T>,
    message: impl FnOnce(&V) -> String,
) -> Located<T> {
    let Some(value) = value else {
        return Located::unplaced(default);
    };
    let line = Some(lines.line(value.span().start));
    match parse(value.get_ref()) {
        Some(value) => Located { value, line },
        None => {
            problems.push(Problem::new(line, message(value.get_ref())));
            Located::unplaced(default)
        }
    }
}

/// The `[from, to]` pairs of a list of snakes or ladders (`kind`), a problem for each that is not
/// a pair.
fn parse_pairs(
    list: Vec<Spanned<Vec<i64>>>,
    kind: &str,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Vec<Located<(i64, i64)>> {
    let mut out = Vec::new();
    for item in list {
        let line = Some(lines.line(item.span().start));
        match item.get_ref().as_slice() {
            [from, to] => out.push(Located {
                value: (*from, *to),
                line,
            }),
            other => problems.push(Problem::new(
                line,
                format!(
                    "a {kind} is a pair [from, to] of two squares, found {} numbers {other:?}",
                    other.len()
                ),
            )),
        }
    }
    out
}

/// A tile probability as written.
fn probability(value: toml::Value) -> ProbabilitySpec {
    match value {
        toml::Value::String(s) => ProbabilitySpec::Text(s),
        toml::Value::Integer(i) => ProbabilitySpec::Integer(i),
        toml::Value::Float(f) => ProbabilitySpec::Float(f),
        other => ProbabilitySpec::Text(other.to_string()),
    }
}

/// Rewrites toml's message into one line, and adds a did-you-mean to unknown keys.
fn describe_toml_error(error: &toml::de::Error) -> String {
    let message = error.message().trim().replace('\n', " ");
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some(end) = rest.find('`') {
            let key = &rest[..end];
            let known: &[&str] = if message.contains("`overshoot`") {
                &RULE_KEYS
            } else if message.contains("`at`") {
                &CHANCE_KEYS
            } else if message.contains("`length`") {
                &TILE_KEYS
            } else {
                &TOP_KEYS
            };
            let mut out = format!(
                "unknown key {key:?}: expected one of {}",
                known
                    .iter()
                    .map(|k| format!("{k:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if let Some(best) = closest(key, known) {
                out.push_str(&format!(" (did you mean {best:?}?)"));
            }
            return out;
        }
    }
    if message.contains("expected i64") {
        return message.replace("expected i64", "expected an integer");
    }
    if message.starts_with("missing field `size`") {
        return "missing key \"size\": the finish square, e.g. size = 100".to_string();
    }
    message
}

/// The known key closest to `key`, if one is close enough to be a likely typo.
pub(super) fn closest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(key, k), *k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// Maps byte offsets to 1-based line numbers.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
    }

    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_from_one() {
        let idx = LineIndex::new("a\nbc\n\nd");
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(2), 2);
        assert_eq!(idx.line(5), 3);
        assert_eq!(idx.line(6), 4);
    }

    #[test]
    fn suggests_a_close_key() {
        assert_eq!(closest("sise", &TOP_KEYS), Some("size"));
        assert_eq!(closest("ladder", &TOP_KEYS), Some("ladders"));
        assert_eq!(closest("overshot", &RULE_KEYS), Some("overshoot"));
        assert_eq!(closest("zzzzzz", &TOP_KEYS), None);
    }
}
