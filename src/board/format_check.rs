//! Every problem of a board file's shape at once: unknown keys and values of the wrong type, each
//! with its line, in plain words (what the key holds, what was found). The typed reading of
//! [`super::format`] stops at its first error, and not necessarily the first in the file; when it
//! fails, this walk over the parsed TOML tree lists them all instead.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::format::{CHANCE_KEYS, RULE_KEYS, TILE_KEYS, TOP_KEYS};
use super::Problem;

/// What a key must hold.
#[derive(Clone, Copy)]
enum Shape {
    /// A quoted string.
    Text,
    /// An integer that fits 64 bits.
    Integer,
    /// true or false.
    Bool,
    /// A list of integers.
    Integers,
    /// A list of lists of integers (`[[from, to], ...]`).
    Pairs,
    /// An integer or a list of integers (`die`).
    IntegerOrList,
    /// A quoted string or an integer (`roll_again`).
    TextOrInteger,
    /// A number or a quoted fraction (a tile's probability).
    Probability,
    /// A list of `[[chance]]` tables.
    Chances,
    /// One `[[chance]]` table.
    Chance,
    /// The `[tiles]` table.
    Tiles,
    /// The `[rules]` table.
    Rules,
}

impl Shape {
    fn words(self) -> &'static str {
        match self {
            Shape::Text => "quoted text",
            Shape::Integer => "an integer",
            Shape::Bool => "true or false",
            Shape::Integers => "a list of integers, e.g. [4, 9]",
            Shape::Pairs => "a list of [from, to] pairs, e.g. [[16, 6], [47, 26]]",
            Shape::IntegerOrList => "an integer (faces) or a list of integer weights",
            Shape::TextOrInteger => "\"none\", \"unlimited\" or an integer",
            Shape::Probability => "a probability: a number or a quoted fraction such as \"1/10\"",
            Shape::Chances => "a list of [[chance]] tables",
            Shape::Chance => "a [[chance]] table with at and to",
            Shape::Tiles | Shape::Rules => "a table",
        }
    }
}

fn top_shape(key: &str) -> Option<Shape> {
    Some(match key {
        "name" | "source" => Shape::Text,
        "size" | "columns" => Shape::Integer,
        "snakes" | "ladders" | "points" => Shape::Pairs,
        "once" | "lose_turn" | "extra_turn" => Shape::Integers,
        "chance" => Shape::Chances,
        "tiles" => Shape::Tiles,
        "rules" => Shape::Rules,
        _ => return None,
    })
}

fn rule_shape(key: &str) -> Option<Shape> {
    Some(match key {
        "overshoot" => Shape::Text,
        "start" | "dice" | "pick" => Shape::Integer,
        "chain" | "coin" | "choose_face" => Shape::Bool,
        "choose_die" => Shape::Integers,
        "die" => Shape::IntegerOrList,
        "roll_again" => Shape::TextOrInteger,
        _ => return None,
    })
}

/// A value as a person reads it: `the text "x"`, `the decimal number 6.5`, `a date`.
fn found(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("the text {s:?}"),
        DeValue::Integer(i) => format!("the integer {i}"),
        DeValue::Float(x) => format!("the decimal number {x}"),
        DeValue::Boolean(b) => format!("{b}"),
        DeValue::Datetime(d) => format!("the date {d}"),
        DeValue::Array(_) => "a list".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// The walk: `line` maps a byte offset to its line.
struct Walk<'a> {
    line: &'a dyn Fn(usize) -> usize,
    problems: Vec<Problem>,
}

impl Walk<'_> {
    fn problem(&mut self, at: usize, message: String) {
        self.problems
            .push(Problem::new(Some((self.line)(at)), message));
    }

    /// An integer that does not fit 64 bits is named as such (not "as i128").
    fn integer(&mut self, key: &str, value: &Spanned<DeValue<'_>>) -> bool {
        let DeValue::Integer(i) = value.get_ref() else {
            return false;
        };
        let digits = i.as_str().replace('_', "");
        if i64::from_str_radix(&digits, i.radix()).is_err() {
            self.problem(
                value.span().start,
                format!(
                    "{key} = {i} is too large: integers here are at most {}",
                    i64::MAX
                ),
            );
        }
        true
    }

    fn each(&mut self, key: &str, value: &Spanned<DeValue<'_>>, item: Shape) -> bool {
        let DeValue::Array(items) = value.get_ref() else {
            return false;
        };
        for v in items.iter() {
            self.value(key, v, item);
        }
        true
    }

    fn value(&mut self, key: &str, value: &Spanned<DeValue<'_>>, shape: Shape) {
        let fits = match (shape, value.get_ref()) {
            (Shape::Text, DeValue::String(_)) | (Shape::Bool, DeValue::Boolean(_)) => true,
            (Shape::Integer, _) => self.integer(key, value),
            (Shape::Integers, _) => self.each(key, value, Shape::Integer),
            (Shape::Pairs, _) => self.each(key, value, Shape::Integers),
            (Shape::IntegerOrList, DeValue::Array(_)) => self.each(key, value, Shape::Integer),
            (Shape::IntegerOrList | Shape::TextOrInteger, DeValue::Integer(_)) => {
                self.integer(key, value)
            }
            (Shape::TextOrInteger, DeValue::String(_)) => true,
            (Shape::Probability, DeValue::String(_) | DeValue::Float(_)) => true,
            (Shape::Probability, DeValue::Integer(_)) => self.integer(key, value),
            (Shape::Chances, _) => self.each(key, value, Shape::Chance),
            (Shape::Chance, _) => self.table(key, value, &CHANCE_KEYS, &|k| match k {
                "at" => Some(Shape::Integer),
                "to" => Some(Shape::Pairs),
                _ => None,
            }),
            (Shape::Tiles, _) => self.table(key, value, &TILE_KEYS, &|k| match k {
                "length" => Some(Shape::Integer),
                "snake" | "ladder" => Some(Shape::Probability),
                _ => None,
            }),
            (Shape::Rules, _) => self.table(key, value, &RULE_KEYS, &rule_shape),
            _ => false,
        };
        if !fits {
            self.problem(
                value.span().start,
                format!(
                    "{key}: expected {}, found {}",
                    shape.words(),
                    found(value.get_ref())
                ),
            );
        }
    }

    fn table(
        &mut self,
        name: &str,
        value: &Spanned<DeValue<'_>>,
        known: &[&str],
        shape: &dyn Fn(&str) -> Option<Shape>,
    ) -> bool {
        let DeValue::Table(table) = value.get_ref() else {
            return false;
        };
        self.keys(name, table, known, shape);
        true
    }

    fn keys(
        &mut self,
        table_name: &str,
        table: &DeTable<'_>,
        known: &[&str],
        shape: &dyn Fn(&str) -> Option<Shape>,
    ) {
        for (key, value) in table.iter() {
            match shape(key.get_ref()) {
                Some(s) => self.value(key.get_ref(), value, s),
                None => {
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
                        "unknown key {:?}{place}: expected one of {list}",
                        key.get_ref()
                    );
                    if let Some(best) = super::format::closest(key.get_ref(), known) {
                        message.push_str(&format!(" (did you mean {best:?}?)"));
                    }
                    self.problem(key.span().start, message);
                }
            }
        }
    }
}

/// Every unknown key and every value of the wrong type in `text`, in line order; empty when the
/// text is not TOML (the TOML error says where) or its shape is right.
pub(super) fn shape_problems(text: &str, line: &dyn Fn(usize) -> usize) -> Vec<Problem> {
    let Ok(document) = DeTable::parse(text) else {
        return Vec::new();
    };
    let mut walk = Walk {
        line,
        problems: Vec::new(),
    };
    walk.keys("", document.get_ref(), &TOP_KEYS, &top_shape);
    if !document
        .get_ref()
        .iter()
        .any(|(k, _)| k.get_ref() == "size")
        && !walk.problems.is_empty()
    {
        walk.problems.push(Problem::new(
            None,
            "missing key \"size\": the finish square, e.g. size = 100".to_string(),
        ));
    }
    walk.problems.sort_by_key(|p| p.line);
    walk.problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<String> {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let line = |offset: usize| starts.partition_point(|&s| s <= offset);
        shape_problems(text, &line)
            .into_iter()
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
}
