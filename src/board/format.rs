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

use toml::de::DeTable;

use super::{BoardError, BoardSpec};

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
pub const RULE_KEYS: &[&str] = &[
    "start",
    "overshoot",
    "die",
    "dice",
    "roll_again",
    "chain",
    "enter",
    "roll_again_on",
    "jump_takes_turn",
    "choose_die",
    "coin",
    "pick",
    "choose_face",
    "decline",
];
/// The keys allowed in a `[[chance]]` table.
pub const CHANCE_KEYS: [&str; 2] = ["at", "to"];
/// The keys allowed in the `[tiles]` table.
pub const TILE_KEYS: [&str; 3] = ["length", "snake", "ladder"];

/// Board files larger than this are refused before parsing (a real board is a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

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

/// Parses board text into a [`BoardSpec`]; `origin` names it in error messages. The problems
/// of the file's shape (unknown keys, wrong types, rule words that are not rules) travel in the
/// spec, [`BoardSpec::read_problems`], so that validation reports them with every other problem
/// at once.
///
/// # Errors
///
/// The text is not TOML, or its `size` cannot be read (nothing else can be judged without it):
/// every problem found.
pub fn parse_spec(text: &str, origin: &str) -> Result<BoardSpec, BoardError> {
    let lines = LineIndex::new(text);
    let document = DeTable::parse(text).map_err(|e| {
        let line = e.span().map(|s| lines.line(s.start));
        BoardError::single(origin, line, describe_toml_error(&e))
    })?;
    match super::reader::read(document.get_ref(), origin, &lines) {
        (Some(mut spec), problems) => {
            spec.read_problems = problems;
            Ok(spec)
        }
        (None, problems) => Err(BoardError::new(origin, problems)),
    }
}

/// A TOML syntax error's message on one line.
fn describe_toml_error(error: &toml::de::Error) -> String {
    error.message().trim().replace('\n', " ")
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
pub(super) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(super) fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
    }

    pub(super) fn line(&self, offset: usize) -> usize {
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
        assert_eq!(closest("overshot", RULE_KEYS), Some("overshoot"));
        assert_eq!(closest("zzzzzz", &TOP_KEYS), None);
    }
}
