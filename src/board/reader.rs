//! Reads a parsed board file (the TOML tree, every value with its place) into a [`BoardSpec`],
//! finding every problem of its shape at once: unknown keys, values of the wrong type, rule
//! words that are not rules, each with the line of the value (an element's own line inside a
//! list or a table). A value that cannot be read is left at its default and reported, so the
//! validation of [`super::validate`] still judges the rest of the board in the same pass.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::format::{closest, LineIndex, CHANCE_KEYS, RULE_KEYS, TILE_KEYS, TOP_KEYS};
use super::{
    BoardSpec, ChanceSpec, ChoicesSpec, Declinable, DieSpec, Located, Overshoot, ProbabilitySpec,
    Problem, RollAgainSpec, RollOn, Rules, TilesSpec,
};

/// What a key must hold, in words for a message.
mod shape {
    pub const TEXT: &str = "quoted text";
    pub const INTEGER: &str = "an integer";
    pub const BOOL: &str = "true or false";
    pub const INTEGERS: &str = "a list of integers, e.g. [4, 9]";
    pub const PAIRS: &str = "a list of [from, to] pairs, e.g. [[16, 6], [47, 26]]";
    pub const DIE: &str = "an integer (faces) or a list of integer weights";
    pub const ROLL_AGAIN: &str = "\"none\", \"unlimited\" or an integer";
    pub const PROBABILITY: &str = "a probability: a number or a quoted fraction such as \"1/10\"";
    pub const CHANCES: &str = "a list of [[chance]] tables";
    pub const CHANCE: &str = "a [[chance]] table with at and to";
    pub const TABLE: &str = "a table";
}

use crate::text::{echo, echo_plain};

type Value<'a> = Spanned<DeValue<'a>>;

/// A value as a person reads it: `the text "x"`, `the decimal number 6.5`, `a date`.
fn found(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("the text {}", echo(s)),
        DeValue::Integer(i) => format!("the integer {i}"),
        DeValue::Float(x) => format!("the decimal number {x}"),
        DeValue::Boolean(b) => format!("{b}"),
        DeValue::Datetime(d) => format!("the date {d}"),
        DeValue::Array(_) => "a list".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// The reading: the line of each byte offset, and the problems found so far.
struct Reader<'a> {
    lines: &'a LineIndex,
    problems: Vec<Problem>,
}

impl Reader<'_> {
    fn line(&self, value: &Value<'_>) -> Option<usize> {
        Some(self.lines.line(value.span().start))
    }

    fn problem(&mut self, value: &Value<'_>, message: String) {
        self.problems.push(Problem::new(self.line(value), message));
    }

    fn wrong(&mut self, key: &str, value: &Value<'_>, expected: &str) {
        let message = format!(
            "{key}: expected {expected}, found {}",
            found(value.get_ref())
        );
        self.problem(value, message);
    }

    fn located<T>(&self, value: &Value<'_>, inner: T) -> Located<T> {
        Located {
            value: inner,
            line: self.line(value),
        }
    }

    /// An integer that fits 64 bits; `None` after a problem (one that does not fit is named as
    /// such, not as a wrong type).
    fn integer(&mut self, key: &str, value: &Value<'_>) -> Option<i64> {
        let DeValue::Integer(i) = value.get_ref() else {
            self.wrong(key, value, shape::INTEGER);
            return None;
        };
        let digits = i.as_str().replace('_', "");
        match i64::from_str_radix(&digits, i.radix()) {
            Ok(n) => Some(n),
            Err(_) => {
                let message = format!(
                    "{key} = {i} is too large: integers here are at most {}",
                    i64::MAX
                );
                self.problem(value, message);
                None
            }
        }
    }

    fn located_integer(&mut self, key: &str, value: &Value<'_>) -> Option<Located<i64>> {
        let n = self.integer(key, value)?;
        Some(self.located(value, n))
    }

    fn text(&mut self, key: &str, value: &Value<'_>) -> Option<String> {
        match value.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            _ => {
                self.wrong(key, value, shape::TEXT);
                None
            }
        }
    }

    fn boolean(&mut self, key: &str, value: &Value<'_>) -> Option<Located<bool>> {
        match value.get_ref() {
            DeValue::Boolean(b) => Some(self.located(value, *b)),
            _ => {
                self.wrong(key, value, shape::BOOL);
                None
            }
        }
    }

    /// The items of a list, or `None` after a problem naming what the key holds.
    fn list<'v, 'i>(
        &mut self,
        key: &str,
        value: &'v Value<'i>,
        expected: &str,
    ) -> Option<&'v [Value<'i>]> {
        match value.get_ref() {
            DeValue::Array(items) => Some(&items[..]),
            _ => {
                self.wrong(key, value, expected);
                None
            }
        }
    }

    /// A list of integers; `None` when any item is not one (each such item reported).
    fn integers(&mut self, key: &str, value: &Value<'_>, expected: &str) -> Option<Vec<i64>> {
        let items = self.list(key, value, expected)?;
        let read: Vec<Option<i64>> = items.iter().map(|v| self.integer(key, v)).collect();
        read.into_iter().collect()
    }

    /// Each integer of a list with its own line (items that are not integers reported).
    fn located_integers(&mut self, key: &str, value: &Value<'_>) -> Vec<Located<i64>> {
        let Some(items) = self.list(key, value, shape::INTEGERS) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|v| self.located_integer(key, v))
            .collect()
    }

    /// Each list of integers of a list (`[[a, b], ...]`) with its line; lists with an item that
    /// is not an integer are reported and left out.
    fn integer_lists(&mut self, key: &str, value: &Value<'_>) -> Vec<Located<Vec<i64>>> {
        let Some(items) = self.list(key, value, shape::PAIRS) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|v| {
                let list = self.integers(key, v, shape::INTEGERS)?;
                Some(self.located(v, list))
            })
            .collect()
    }

    /// The `[from, to]` pairs of snakes or ladders (`kind`), a problem for each that is not a
    /// pair.
    fn pairs(&mut self, key: &str, kind: &str, value: &Value<'_>) -> Vec<Located<(i64, i64)>> {
        let mut out = Vec::new();
        for item in self.integer_lists(key, value) {
            match item.value.as_slice() {
                [from, to] => out.push(Located {
                    value: (*from, *to),
                    line: item.line,
                }),
                other => self.problems.push(Problem::new(
                    item.line,
                    format!(
                        "a {kind} is a pair [from, to] of two squares, found {} numbers {}",
                        other.len(),
                        echo_plain(&format!("{other:?}"))
                    ),
                )),
            }
        }
        out
    }

    /// The keys of `table` not in `known`, each reported (`table_name` empty at the top).
    fn unknown_keys(&mut self, table_name: &str, table: &DeTable<'_>, known: &[&str]) {
        for (key, _) in table.iter() {
            let key_text = key.get_ref();
            if known.contains(&key_text.as_ref()) {
                continue;
            }
            let list = known
                .iter()
                .map(|k| format!("{k:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            let place = if table_name.is_empty() {
                String::new()
            } else {
                format!(" in {table_name}")
            };
            let mut message = format!(
                "unknown key {}{place}: expected one of {list}",
                echo(key_text)
            );
            if let Some(best) = closest(key_text, known) {
                message.push_str(&format!(" (did you mean {best:?}?)"));
            }
            self.problems.push(Problem::new(
                Some(self.lines.line(key.span().start)),
                message,
            ));
        }
    }

    /// A table's known keys read, its unknown keys reported; `None` when it is not a table.
    fn table<'v, 'i>(
        &mut self,
        key: &str,
        value: &'v Value<'i>,
        known: &[&str],
        expected: &str,
    ) -> Option<&'v DeTable<'i>> {
        let DeValue::Table(table) = value.get_ref() else {
            self.wrong(key, value, expected);
            return None;
        };
        self.unknown_keys(key, table, known);
        Some(table)
    }

    /// A key a table must have, or a problem on the table's line.
    fn required<'v, 'i>(
        &mut self,
        table: &'v DeTable<'i>,
        at: &Value<'_>,
        key: &str,
        what: &str,
    ) -> Option<&'v Value<'i>> {
        let value = table.get(key);
        if value.is_none() {
            self.problem(at, format!("{what}: missing key {key:?}"));
        }
        value
    }

    /// A value as `read` makes it out, with its line; absent or unreadable (`read` reported
    /// why), the `default` on no line.
    fn read_or<T>(
        &mut self,
        value: Option<&Value<'_>>,
        default: T,
        read: impl FnOnce(&mut Self, &Value<'_>) -> Option<T>,
    ) -> Located<T> {
        match value {
            Some(v) => match read(self, v) {
                Some(parsed) => self.located(v, parsed),
                None => Located::unplaced(default),
            },
            None => Located::unplaced(default),
        }
    }
}

/// Reads the parsed `document` into a [`BoardSpec`] with every problem of its shape; `None`
/// for the spec when the size cannot be read (nothing else can be judged without it).
pub(super) fn read(
    document: &DeTable<'_>,
    origin: &str,
    lines: &LineIndex,
) -> (Option<BoardSpec>, Vec<Problem>) {
    let mut r = Reader {
        lines,
        problems: Vec::new(),
    };
    r.unknown_keys("", document, &TOP_KEYS);
    let get = |key: &str| document.get(key);
    let size = match get("size") {
        Some(v) => r.located_integer("size", v),
        None => {
            r.problems.push(Problem::new(
                Some(1),
                "missing key \"size\": the finish square, e.g. size = 100",
            ));
            None
        }
    };
    let name = get("name").and_then(|v| r.text("name", v));
    let source = get("source").and_then(|v| r.text("source", v));
    let snakes = get("snakes").map_or_else(Vec::new, |v| r.pairs("snakes", "snake", v));
    let ladders = get("ladders").map_or_else(Vec::new, |v| r.pairs("ladders", "ladder", v));
    let chance = get("chance").map_or_else(Vec::new, |v| chances(&mut r, v));
    let tiles = get("tiles").and_then(|v| tiles(&mut r, v));
    let once = get("once").map_or_else(Vec::new, |v| r.located_integers("once", v));
    let points = get("points").map_or_else(Vec::new, |v| r.integer_lists("points", v));
    let lose_turn = get("lose_turn").map_or_else(Vec::new, |v| r.located_integers("lose_turn", v));
    let extra_turn =
        get("extra_turn").map_or_else(Vec::new, |v| r.located_integers("extra_turn", v));
    let columns = get("columns").and_then(|v| r.located_integer("columns", v));
    let empty = DeTable::new();
    let rules = get("rules")
        .and_then(|v| r.table("rules", v, RULE_KEYS, shape::TABLE))
        .unwrap_or(&empty);
    let rules = read_rules(&mut r, rules);
    let spec = size.map(|size| BoardSpec {
        origin: origin.to_string(),
        name: name.unwrap_or_else(|| origin.to_string()),
        source,
        size,
        snakes,
        ladders,
        start: rules.start,
        overshoot: rules.overshoot,
        die: rules.die,
        dice: rules.dice,
        chance,
        tiles,
        once,
        points,
        lose_turn,
        extra_turn,
        columns,
        roll_again: rules.roll_again,
        chain: rules.chain,
        enter: rules.enter,
        roll_again_on: rules.roll_again_on,
        jump_takes_turn: rules.jump_takes_turn,
        choices: rules.choices,
        read_problems: Vec::new(),
    });
    (spec, r.problems)
}

/// The `[rules]` table as read (defaults where absent or unreadable).
struct ReadRules {
    start: Located<i64>,
    overshoot: Located<Overshoot>,
    die: Located<DieSpec>,
    dice: Located<i64>,
    roll_again: Located<RollAgainSpec>,
    chain: Located<bool>,
    enter: Option<Located<Vec<Located<i64>>>>,
    roll_again_on: Located<RollOn>,
    jump_takes_turn: Located<bool>,
    choices: ChoicesSpec,
}

fn read_rules(r: &mut Reader<'_>, rules: &DeTable<'_>) -> ReadRules {
    let defaults = Rules::default();
    let integer = |r: &mut Reader<'_>, key: &str, default: u32| {
        rules
            .get(key)
            .and_then(|v| r.located_integer(key, v))
            .unwrap_or(Located::unplaced(i64::from(default)))
    };
    let start = integer(r, "start", defaults.start);
    let dice = integer(r, "dice", defaults.dice);
    let overshoot = r.read_or(rules.get("overshoot"), defaults.overshoot, |r, v| {
        let word = r.text("overshoot", v)?;
        let rule = Overshoot::from_name(&word);
        if rule.is_none() {
            let message = format!(
                "overshoot {} is not a rule: expected \"stay\", \"bounce\" or \"allow\"",
                echo(&word)
            );
            r.problem(v, message);
        }
        rule
    });
    let die = read_die(r, rules.get("die"));
    let roll_again = r.read_or(rules.get("roll_again"), RollAgainSpec::None, |r, v| match v
        .get_ref()
    {
        DeValue::String(s) if s == "none" => Some(RollAgainSpec::None),
        DeValue::String(s) if s == "unlimited" => Some(RollAgainSpec::Unlimited),
        DeValue::String(s) => {
            let message = format!(
                "roll_again {} is not a rule: expected \"none\", \"unlimited\" or an \
                     integer K >= 2",
                echo(s)
            );
            r.problem(v, message);
            None
        }
        DeValue::Integer(_) => r.integer("roll_again", v).map(RollAgainSpec::Count),
        _ => {
            r.wrong("roll_again", v, shape::ROLL_AGAIN);
            None
        }
    });
    let chain = rules
        .get("chain")
        .and_then(|v| r.boolean("chain", v))
        .unwrap_or(Located::unplaced(defaults.chain));
    let enter = rules.get("enter").and_then(|v| {
        let sums = r.list("enter", v, shape::INTEGERS)?;
        let sums: Vec<_> = sums
            .iter()
            .filter_map(|s| r.located_integer("enter", s))
            .collect();
        Some(r.located(v, sums))
    });
    let roll_again_on = r.read_or(
        rules.get("roll_again_on"),
        defaults.roll_again_on,
        |r, v| {
            let word = r.text("roll_again_on", v)?;
            let rule = RollOn::from_name(&word);
            if rule.is_none() {
                let message =
                    format!("roll_again_on {word:?} is not a rule: expected \"top\" or \"double\"");
                r.problem(v, message);
            }
            rule
        },
    );
    let jump_takes_turn = rules
        .get("jump_takes_turn")
        .and_then(|v| r.boolean("jump_takes_turn", v))
        .unwrap_or(Located::unplaced(defaults.jump_takes_turn));
    let choices = ChoicesSpec {
        choose_die: rules.get("choose_die").and_then(|v| {
            let list = r.integers("choose_die", v, shape::INTEGERS)?;
            Some(r.located(v, list))
        }),
        coin: rules.get("coin").and_then(|v| r.boolean("coin", v)),
        pick: rules.get("pick").and_then(|v| r.located_integer("pick", v)),
        choose_face: rules
            .get("choose_face")
            .and_then(|v| r.boolean("choose_face", v)),
        decline: read_decline(r, rules.get("decline")),
    };
    ReadRules {
        start,
        overshoot,
        die,
        dice,
        roll_again,
        chain,
        enter,
        roll_again_on,
        jump_takes_turn,
        choices,
    }
}

/// `decline` as written: which jumps the player may decline.
fn read_decline(r: &mut Reader<'_>, value: Option<&Value<'_>>) -> Option<Located<Declinable>> {
    let value = value?;
    let word = r.text("decline", value)?;
    let kind = Declinable::from_name(&word);
    if kind.is_none() {
        let message = format!(
            "decline {word:?} is not a rule: expected \"ladders\", \"snakes\" or \"jumps\""
        );
        r.problem(value, message);
    }
    Some(r.located(value, kind?))
}

/// `die` as written: an integer (faces) or a list of integer weights, each with its line.
fn read_die(r: &mut Reader<'_>, value: Option<&Value<'_>>) -> Located<DieSpec> {
    let default = DieSpec::Faces(i64::from(Rules::default().die));
    r.read_or(value, default, |r, value| match value.get_ref() {
        DeValue::Integer(_) => r.integer("die", value).map(DieSpec::Faces),
        DeValue::Array(items) => {
            let weights: Vec<Option<Located<i64>>> =
                items.iter().map(|v| r.located_integer("die", v)).collect();
            weights
                .into_iter()
                .collect::<Option<Vec<_>>>()
                .map(DieSpec::Weights)
        }
        DeValue::String(s) => {
            let message = format!(
                "die {} is not a die: expected a number of faces (die = 6) or the integer \
                 weights of a loaded die's faces (die = [1, 1, 1, 1, 1, 3])",
                echo(s)
            );
            r.problem(value, message);
            None
        }
        _ => {
            r.wrong("die", value, shape::DIE);
            None
        }
    })
}

/// The `[[chance]]` tables, each key with its line; a table missing `at` or `to` is reported.
fn chances(r: &mut Reader<'_>, value: &Value<'_>) -> Vec<Located<ChanceSpec>> {
    let Some(items) = r.list("chance", value, shape::CHANCES) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let Some(table) = r.table("chance", item, &CHANCE_KEYS, shape::CHANCE) else {
            continue;
        };
        let at = r
            .required(table, item, "at", "a [[chance]] table")
            .and_then(|v| r.located_integer("at", v));
        let to = r
            .required(table, item, "to", "a [[chance]] table")
            .map(|v| r.integer_lists("to", v));
        if let (Some(at), Some(to)) = (at, to) {
            out.push(r.located(item, ChanceSpec { at, to }));
        }
    }
    out
}

/// `[tiles]`, each key with its line; `None` when it cannot be read (reported).
fn tiles(r: &mut Reader<'_>, value: &Value<'_>) -> Option<Located<TilesSpec>> {
    let table = r.table("tiles", value, &TILE_KEYS, shape::TABLE)?;
    let length = r
        .required(table, value, "length", "[tiles]")
        .and_then(|v| r.located_integer("length", v));
    let probability = |r: &mut Reader<'_>, key: &str| -> Option<Located<ProbabilitySpec>> {
        let v = r.required(table, value, key, "[tiles]")?;
        let p = match v.get_ref() {
            DeValue::String(s) => ProbabilitySpec::Text(s.to_string()),
            DeValue::Integer(_) => ProbabilitySpec::Integer(r.integer(key, v)?),
            DeValue::Float(x) => ProbabilitySpec::Float(x.to_string()),
            _ => {
                r.wrong(key, v, shape::PROBABILITY);
                return None;
            }
        };
        Some(r.located(v, p))
    };
    let snake = probability(r, "snake");
    let ladder = probability(r, "ladder");
    Some(r.located(
        value,
        TilesSpec {
            length: length?,
            snake: snake?,
            ladder: ladder?,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The problems the reading finds in `text` (none for text that is not TOML: its syntax
    /// error is the parser's), as `line: message`.
    fn problems(text: &str) -> Vec<String> {
        let lines = LineIndex::new(text);
        let Ok(document) = DeTable::parse(text) else {
            return Vec::new();
        };
        let mut found = read(document.get_ref(), "t", &lines).1;
        found.sort_by_key(|p| p.line);
        found
            .into_iter()
            .map(|p| format!("{}: {}", p.line.unwrap_or(0), p.message))
            .collect()
    }

    /// Every problem of `text`, reading and validation together, as `line: message`.
    fn all_problems(text: &str) -> Vec<String> {
        let error = crate::board::Board::from_toml_str(text, "t").expect_err("a bad board");
        error
            .problems
            .iter()
            .map(|p| format!("{}: {}", p.line.unwrap_or(0), p.message))
            .collect()
    }
    #[test]
    fn every_wrong_type_and_unknown_key_is_listed_with_its_line() {
        let found = problems(
            "size = \"x\"\nfoo = 1\nsnakes = [[1, 5]]\nbar = 2\n[rules]\nstart = 3\ndie = 6.5\n",
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("1: size: expected an integer, found the text \"x\""));
        assert!(found[1].starts_with("2: unknown key \"foo\""));
        assert!(found[2].starts_with("4: unknown key \"bar\""));
        assert!(found[3].starts_with("7: die: expected an integer (faces)"));
        assert!(found[3].ends_with("found the decimal number 6.5"));
    }

    #[test]
    fn internal_words_become_plain_ones() {
        let date = problems("size = 1979-05-27\n");
        assert_eq!(
            date,
            ["1: size: expected an integer, found the date 1979-05-27"]
        );
        let rules = problems("size = 10\nrules = 5\n");
        assert_eq!(rules, ["2: rules: expected a table, found the integer 5"]);
        let big = problems("size = 10\n[rules]\nroll_again = 18446744073709551618\n");
        assert_eq!(big.len(), 1, "{big:?}");
        assert!(
            big[0].starts_with("3: roll_again = 18446744073709551618 is too large"),
            "{big:?}"
        );
        assert!(big[0].contains("9223372036854775807"));
    }

    #[test]
    fn a_board_of_the_right_shape_has_no_problem_here() {
        let text = "size = 10\nsnakes = [[9, 2]]\nladders = [[3, 7]]\n[rules]\ndie = [1, 2]\n\
                    roll_again = \"none\"\n[[chance]]\nat = 4\nto = [[1, 1], [5, 1]]\n";
        assert!(problems(text).is_empty());
        assert!(problems("not toml [").is_empty());
    }

    /// Issue 40 item 10: a misspelt key hid a bad rule word, and a bad die hid an upward snake;
    /// every problem of the file comes at once, whatever its kind.
    #[test]
    fn shape_problems_and_validation_problems_come_together() {
        let found = all_problems("size = 10\nsise = 9\n[rules]\novershoot = \"bouce\"\n");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("2: unknown key \"sise\""), "{found:?}");
        assert!(
            found[1].starts_with("4: overshoot \"bouce\" is not a rule"),
            "{found:?}"
        );

        let found = all_problems("size = 100\nsnakes = [[10, 20]]\n[rules]\ndie = \"6\"\n");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("2: snake 10 -> 20 goes up"),
            "{found:?}"
        );
        assert!(
            found[1].starts_with("4: die \"6\" is not a die"),
            "{found:?}"
        );

        // A wrong type, an unknown rule and a validation problem, in line order.
        let found = all_problems(
            "size = 20\nname = 5\nladders = [[15, 3]]\n[rules]\nchain = \"yes\"\nstart = 30\n",
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(
            found[0].starts_with("2: name: expected quoted text"),
            "{found:?}"
        );
        assert!(
            found[1].starts_with("3: ladder 15 -> 3 goes down"),
            "{found:?}"
        );
        assert!(
            found[2].starts_with("5: chain: expected true or false"),
            "{found:?}"
        );
        assert!(
            found[3].starts_with("6: start 30 is not a start"),
            "{found:?}"
        );
    }

    /// Without a readable size nothing else can be judged: the reading's problems alone.
    #[test]
    fn an_unreadable_size_stops_at_the_reading() {
        let found = all_problems("sise = 10\nsnakes = [[1, 5]]\n[rules]\ndie = 1.5\n");
        assert_eq!(
            found,
            [
                "1: unknown key \"sise\": expected one of \"name\", \"source\", \"size\", \
                 \"snakes\", \"ladders\", \"chance\", \"tiles\", \"once\", \"points\", \
                 \"lose_turn\", \"extra_turn\", \"columns\", \"rules\" (did you mean \"size\"?)",
                "1: missing key \"size\": the finish square, e.g. size = 100",
                "4: die: expected an integer (faces) or a list of integer weights, found the \
                 decimal number 1.5",
            ]
        );
    }

    /// Issue 40 item 11: a chance destination, a tile probability and a die weight are named on
    /// their own lines, not on their table's header or on `die =`.
    #[test]
    fn elements_are_named_on_their_own_lines() {
        let text = "size = 10\n\
                    [[chance]]\n\
                    at = 4\n\
                    to = [\n  [2, 1],\n  [12, 1],\n]\n\
                    [tiles]\n\
                    length = 3\n\
                    snake = \"1/2\"\n\
                    ladder = \"2/3\"\n\
                    [rules]\n\
                    die = [\n  1,\n  -4,\n  1,\n]\n";
        let found = all_problems(text);
        assert_eq!(found.len(), 3, "{found:?}");
        // Line 6: `[12, 1],` (line 2 is the table's header `[[chance]]`).
        assert!(
            found[0].starts_with("6: chance 4: destination 12 is outside the board"),
            "{found:?}"
        );
        // Line 11: `ladder = "2/3"`, the value that takes the sum past 1.
        assert!(
            found[1].starts_with("11: tiles snake 1/2 and ladder 2/3 add up to more than 1"),
            "{found:?}"
        );
        // Line 15: `-4,` (line 13 is `die = [`).
        assert!(
            found[2].starts_with("15: die weight -4 is not a weight"),
            "{found:?}"
        );
        let missing = all_problems("size = 10\n[[chance]]\nto = [[2, 1]]\n");
        assert_eq!(
            missing,
            ["2: a [[chance]] table: missing key \"at\""],
            "{missing:?}"
        );
    }

    /// Issue 40 item 11: the too-heavy dice message names the weight it speaks of.
    #[test]
    fn the_too_heavy_dice_message_has_its_number() {
        // The weights total 1,000,001; three dice give a law of total 1,000,001^3 ~ 10^18,
        // past 2^40 ~ 1.1 x 10^12.
        let found = all_problems("size = 100\n[rules]\ndie = [1000000, 1]\ndice = 3\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("4: 3 dice of total weight 1000001 each give a throw law heavier"),
            "{found:?}"
        );
    }

    /// Issue 40 item 12: a top face of weight 0 never comes up, so it cannot bounce the token
    /// below 0: `die = [1, 1, 1, 1, 1, 0]` throws at most 5, and 5 <= size + 1 on 4 squares.
    #[test]
    fn bounce_counts_only_throws_that_can_come_up() {
        let text = "size = 4\n[rules]\novershoot = \"bounce\"\ndie = [1, 1, 1, 1, 1, 0]\n";
        assert!(crate::board::Board::from_toml_str(text, "t").is_ok());
        // A 6 that can come up still can: refused, naming 6.
        let found =
            all_problems("size = 4\n[rules]\novershoot = \"bounce\"\ndie = [1, 1, 1, 1, 1, 1]\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("a largest throw of 6 on 4 squares"),
            "{found:?}"
        );
    }
}
