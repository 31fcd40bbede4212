//! Samples to check: turn counts read from a user's file, or a summary (mean, games, sd).
//!
//! A file holds one turn count per line, a histogram as `turns,count` lines, or one game per line
//! beside its number (`game,turns`, pandas' `,turns`), as a header line says ([`parse_turns`]
//! lists the formats). Blank lines and lines starting with `#` are skipped.
//! A mean is read as the interval its digits stand for: "46.1" is somewhere in [46.05, 46.15).

use std::io::Read;

use thiserror::Error;

use crate::text::{echo, printable};

use super::Histogram;

/// The largest turn count a sample file may hold (so that a stray huge number fails fast instead
/// of allocating a histogram of that size).
pub const MAX_TURNS_IN_FILE: u64 = 10_000_000;

/// Sample files larger than this are refused (ten million games, one per line, take about
/// 50 MB; larger samples fit in a few lines as a `turns,count` histogram).
pub const MAX_SAMPLE_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a whole sample file from `reader`, refusing more than `MAX_SAMPLE_FILE_BYTES` bytes
/// (so `/dev/zero` fails after 64 MiB, not at the memory limit) and text that is not UTF-8 (with
/// the line of the first bad byte).
///
/// # Errors
///
/// The reader fails, gives more than the limit, or gives bytes that are not UTF-8.
pub fn read_sample(reader: impl Read, origin: &str) -> Result<String, SampleError> {
    let err = |line: usize, message: String| SampleError {
        origin: origin.to_string(),
        line,
        message,
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_SAMPLE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(1, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_SAMPLE_FILE_BYTES {
        return Err(err(
            1,
            format!(
                "more than {MAX_SAMPLE_FILE_BYTES} bytes, the limit for a sample file: \
                 write a large sample as `turns,count` lines"
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..good].iter().filter(|&&b| b == b'\n').count();
        err(line, format!("byte {} is not UTF-8 text", good + 1))
    })
}

/// A problem in a sample file.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{}:{line}: {}", printable(.origin), printable(.message))]
pub struct SampleError {
    /// The file name (or `-` for standard input).
    pub origin: String,
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads turn counts: one integer per line, `turns,count` histogram lines, or one game per line
/// beside a game number, as a header line names the columns.
///
/// # The formats
///
/// - **A header line** (its first line that is not blank or a `#` comment, when no field of it
///   is a number) names each column: `turns` (or `turn`) the turn counts, `count` (or `games`,
///   `n`, `frequency`) how many games took that many turns, and `game` (or `index`, `id`, or an
///   empty name, as pandas writes `,turns`) a game's number, which is skipped. Names are read
///   without case or surrounding double quotes (R writes `"","turns"`). Exactly one column is
///   the turns; without a `count` column each line is one game.
/// - **Without a header**: one column is one game per line; two columns are `turns,count` lines,
///   unless the first column counts 0, 1, 2, ... or 1, 2, 3, ... (a game number, as an index
///   written without its header) and the second holds turn counts too: then both readings are
///   possible and the file is refused, naming both. More columns need a header.
///
/// # Errors
///
/// The first line that does not fit the format, a header naming an unknown column, a count above
/// `MAX_TURNS_IN_FILE`, an ambiguous file, or no data at all.
///
/// # Examples
///
/// ```
/// use ladders::simulate::parse_turns;
/// let h = parse_turns("turns,count\n2,3\n5,1\n", "x.csv").unwrap();
/// assert_eq!(h.n(), 4);
/// assert_eq!(parse_turns("3\n3\n", "x").unwrap().mean(), Some(3.0));
/// let games = parse_turns(",turns\n0,3\n1,5\n", "pandas.csv").unwrap();
/// assert_eq!((games.n(), games.mean()), (2, Some(4.0)));
/// assert!(parse_turns("0,3\n1,5\n", "no_header.csv").is_err());
/// ```
pub fn parse_turns(text: &str, origin: &str) -> Result<Histogram, SampleError> {
    let err = |line: usize, message: String| SampleError {
        origin: origin.to_string(),
        line,
        message,
    };
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw.trim()))
        .filter(|(_, t)| !t.is_empty() && !t.starts_with('#'))
        .map(|(line, t)| (line, t.split(',').map(field).collect()))
        .collect();
    let last_line = text.lines().count().max(1);
    let Some((first_line, first)) = lines.first() else {
        return Err(err(last_line, "no turn counts found".to_string()));
    };
    let h = if first.iter().all(|f| f.parse::<f64>().is_err()) {
        let layout = Layout::from_header(first).map_err(|m| err(*first_line, m))?;
        layout
            .tally(&lines[1..])
            .map_err(|(line, m)| err(line, m))?
    } else {
        Layout::without_header(&lines).map_err(|(line, m)| err(line, m))?
    };
    if h.n() == 0 {
        return Err(err(last_line, "no turn counts found".to_string()));
    }
    Ok(h)
}

/// One comma-separated field: trimmed, and without the double quotes R and spreadsheets put
/// around text.
fn field(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(t)
        .trim()
}

/// Which column of a sample file holds what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    /// Fields on every line.
    width: usize,
    /// The column of turn counts.
    turns: usize,
    /// The column of games per turn count (none: each line is one game).
    count: Option<usize>,
    /// Whether a header line named the columns (for the messages).
    named: bool,
}

/// A line number and a message.
type LineError = (usize, String);

/// The names a header may give its columns.
const KNOWN_COLUMNS: &str = "`turns`, `count` (or `games`, `n`, `frequency`) and `game` (or                              `index`, `id`, or an empty name)";

impl Layout {
    /// Two columns without a header, read as `turns,count`.
    const HISTOGRAM: Layout = Layout {
        width: 2,
        turns: 0,
        count: Some(1),
        named: false,
    };

    /// The columns a header line names.
    fn from_header(names: &[&str]) -> Result<Layout, String> {
        let (mut turns, mut count) = (None, None);
        for (i, name) in names.iter().enumerate() {
            let slot = match name.to_ascii_lowercase().as_str() {
                "turns" | "turn" => &mut turns,
                "count" | "games" | "n" | "frequency" => &mut count,
                "" | "game" | "index" | "id" => continue,
                _ => {
                    return Err(format!(
                        "header column {} is not one this reads: {KNOWN_COLUMNS}",
                        echo(name)
                    ))
                }
            };
            if slot.replace(i).is_some() {
                return Err(format!("the header names column {name:?} twice"));
            }
        }
        let turns = turns.ok_or_else(|| {
            format!("the header names no `turns` column (the columns this reads: {KNOWN_COLUMNS})")
        })?;
        Ok(Layout {
            width: names.len(),
            turns,
            count,
            named: true,
        })
    }

    /// The turn counts of a file without a header: one column is one game per line, two are
    /// `turns,count` unless the file also reads as `game,turns` (then it is refused).
    fn without_header(lines: &[(usize, Vec<&str>)]) -> Result<Histogram, LineError> {
        let (first_line, first) = &lines[0];
        match first.len() {
            1 => Layout {
                width: 1,
                turns: 0,
                count: None,
                named: false,
            }
            .tally(lines),
            2 => {
                let histogram = Layout::HISTOGRAM.tally(lines)?;
                let per_game = Layout {
                    count: None,
                    turns: 1,
                    ..Layout::HISTOGRAM
                };
                match numbered(lines).then(|| per_game.tally(lines)) {
                    Some(Ok(games)) => Err((*first_line, ambiguous(&histogram, &games))),
                    _ => Ok(histogram),
                }
            }
            n => Err((
                *first_line,
                format!(
                    "{n} columns and no header line: start the file with one naming the columns                      ({KNOWN_COLUMNS})"
                ),
            )),
        }
    }

    /// The histogram of the data lines.
    fn tally(&self, lines: &[(usize, Vec<&str>)]) -> Result<Histogram, LineError> {
        let mut counts: Vec<u64> = Vec::new();
        let mut games: u64 = 0;
        for (line, fields) in lines {
            let line = *line;
            if fields.len() != self.width {
                return Err((line, self.wrong_width(fields)));
            }
            let turns = parse_count(fields[self.turns]).map_err(|m| (line, m))?;
            let count = match self.count {
                None => 1,
                Some(c) => fields[c].parse::<u64>().map_err(|_| {
                    (
                        line,
                        format!("count {} is not a non-negative integer", echo(fields[c])),
                    )
                })?,
            };
            games = games.checked_add(count).ok_or_else(|| {
                (
                    line,
                    "the counts add up to more than 2^64 - 1 games, the most a sample may hold"
                        .to_string(),
                )
            })?;
            let at = turns as usize;
            if counts.len() <= at {
                counts.resize(at + 1, 0);
            }
            // Cannot overflow: the total above did not.
            counts[at] += count;
        }
        Ok(Histogram::new(counts))
    }

    /// What a line with the wrong number of fields is told.
    fn wrong_width(&self, fields: &[&str]) -> String {
        let found = fields.join(",");
        match (self.named, self.width) {
            (true, w) => format!(
                "expected {w} columns as the header line names them, found {} in {}",
                fields.len(),
                echo(&found)
            ),
            (false, 1) => format!("expected one turn count, found {}", echo(&found)),
            (false, _) => format!("expected `turns,count`, found {}", echo(&found)),
        }
    }
}

/// Whether the first column counts 0, 1, 2, ... or 1, 2, 3, ... line by line, as a game number
/// (an index written without its header) does.
fn numbered(lines: &[(usize, Vec<&str>)]) -> bool {
    let first = lines.first().and_then(|(_, f)| f[0].parse::<u64>().ok());
    let Some(start @ (0 | 1)) = first else {
        return false;
    };
    lines
        .iter()
        .zip(start..)
        .all(|((_, f), want)| f[0].parse::<u64>() == Ok(want))
}

/// The message for two columns that read both as `turns,count` and as `game,turns`.
fn ambiguous(histogram: &Histogram, games: &Histogram) -> String {
    let reading = |h: &Histogram| format!("{} games, mean {:.2}", h.n(), h.mean().unwrap_or(0.0));
    format!(
        "two columns and no header line, the first numbering the lines as a game number would: \
         read as `turns,count` (a histogram) the file holds {}; read as `game,turns` (one game \
         per line) it holds {}; start the file with the header line `turns,count` or \
         `game,turns` to say which",
        reading(histogram),
        reading(games)
    )
}

fn parse_count(text: &str) -> Result<u64, String> {
    let v: u64 = text
        .parse()
        .map_err(|_| format!("turn count {text:?} is not a non-negative integer"))?;
    if v > MAX_TURNS_IN_FILE {
        return Err(format!(
            "turn count {v} is above the limit of {MAX_TURNS_IN_FILE}"
        ));
    }
    Ok(v)
}

/// A mean that is not a number (`verify --mean`'s text).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MeanError {
    /// The text is not a number.
    #[error("mean {0:?} is not a number")]
    NotANumber(String),
    /// The number is infinite or not a number (`inf`, `NaN`).
    #[error("mean {0:?} is not a finite number")]
    NotFinite(String),
}

/// A mean (or a standard deviation) as written: the interval of values its digits stand for.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MeanInterval {
    /// The text as given.
    pub text: String,
    /// The low end (included).
    pub low: f64,
    /// The high end (excluded; equal to `low` when the mean has an exponent and is taken as is).
    pub high: f64,
}

impl MeanInterval {
    /// Reads "46.1" as [46.05, 46.15) and "27" as [26.5, 27.5); a number with an exponent is
    /// taken as a point.
    ///
    /// # Errors
    ///
    /// The text is not a finite number.
    pub fn parse(text: &str) -> Result<MeanInterval, MeanError> {
        let t = text.trim();
        let v: f64 = t
            .parse()
            .map_err(|_| MeanError::NotANumber(text.to_string()))?;
        if !v.is_finite() {
            return Err(MeanError::NotFinite(text.to_string()));
        }
        if t.contains(['e', 'E']) {
            return Ok(MeanInterval {
                text: t.to_string(),
                low: v,
                high: v,
            });
        }
        let decimals = t.split_once('.').map_or(0, |(_, f)| f.len());
        let half = 0.5 * 10f64.powi(-(decimals as i32));
        Ok(MeanInterval {
            text: t.to_string(),
            low: v - half,
            high: v + half,
        })
    }

    /// The point of the interval nearest `x`.
    pub fn nearest(&self, x: f64) -> f64 {
        x.clamp(self.low, self.high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_with_one_decimal_is_the_interval_it_rounds_from() {
        let m = MeanInterval::parse("46.1").unwrap();
        assert!((m.low - 46.05).abs() < 1e-12 && (m.high - 46.15).abs() < 1e-12);
        assert!((m.nearest(46.17) - 46.15).abs() < 1e-12);
        assert_eq!(m.nearest(46.1), 46.1);
        let p = MeanInterval::parse("3.9e1").unwrap();
        assert_eq!((p.low, p.high), (39.0, 39.0));
        assert_eq!(
            MeanInterval::parse("abc").unwrap_err().to_string(),
            "mean \"abc\" is not a number"
        );
        assert_eq!(
            MeanInterval::parse(" inf").unwrap_err(),
            MeanError::NotFinite(" inf".to_string())
        );
    }

    #[test]
    fn csv_and_plain_lines_are_read_and_mixing_them_is_an_error() {
        let h = parse_turns("# my run\n4\n\n2\n4\n", "f").unwrap();
        assert_eq!(h.counts(), &[0, 0, 1, 0, 2]);
        let c = parse_turns("turns,count\n7,10\n8, 5\n", "f").unwrap();
        assert_eq!(c.n(), 15);
        let e = parse_turns("4\n7,10\n", "f").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_turns("4\nx\n", "runs.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "runs.txt:2: turn count \"x\" is not a non-negative integer"
        );
        assert!(parse_turns("\n# nothing\n", "f").is_err());
        assert!(parse_turns("99999999999\n", "f").is_err());
    }

    #[test]
    fn a_header_names_the_turns_column_and_an_index_is_skipped() {
        // Each of these is the same two games of 3 and 5 turns.
        for text in [
            "turns,count\n3,1\n5,1\n",
            "count,turns\n1,3\n1,5\n",
            "turns,games\n3,1\n5,1\n",
            ",turns\n0,3\n1,5\n",
            "game,turns\n7,3\n9,5\n",
            "\"\",\"turns\"\n\"1\",3\n\"2\",5\n",
            "turns\n3\n5\n",
            "Game, Turns\n1,3\n2,5\n",
            ",turns,count\n0,3,1\n1,5,1\n",
        ] {
            let h = parse_turns(text, "f").unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(h.counts(), &[0, 0, 0, 1, 0, 1], "{text:?}");
        }
    }

    #[test]
    fn a_header_that_names_no_turns_or_an_unknown_column_is_refused() {
        let e = parse_turns("game,count\n1,3\n", "f").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("no `turns` column"), "{}", e.message);
        let e = parse_turns("turns,probability\n3,0.5\n", "f").unwrap_err();
        assert!(e.message.contains("\"probability\""), "{}", e.message);
        let e = parse_turns("turns,turns\n3,3\n", "f").unwrap_err();
        assert!(e.message.contains("twice"), "{}", e.message);
        let e = parse_turns("game,turns\n1,3\n2\n", "f").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("expected 2 columns"), "{}", e.message);
        let e = parse_turns("1,3,4\n", "f").unwrap_err();
        assert!(
            e.message.contains("3 columns and no header line"),
            "{}",
            e.message
        );
    }

    #[test]
    fn two_columns_without_a_header_are_a_histogram_unless_the_first_numbers_the_lines() {
        // 7, 8 do not number the lines: a histogram of 3 games.
        assert_eq!(parse_turns("7,1\n8,2\n", "f").unwrap().n(), 3);
        // 0, 1, 2 and 1, 2 do, and the second column holds turn counts too: both readings.
        for text in ["0,4\n1,2\n2,9\n", "1,4\n2,2\n"] {
            let e = parse_turns(text, "f").unwrap_err();
            assert_eq!(e.line, 1);
            assert!(e.message.contains("`turns,count`"), "{}", e.message);
            assert!(e.message.contains("`game,turns`"), "{}", e.message);
        }
        let e = parse_turns("0,4\n1,2\n2,9\n", "f").unwrap_err();
        // As a histogram: 4 + 2 + 9 = 15 games of mean (0*4 + 1*2 + 2*9) / 15 = 1.33; one game
        // per line: 3 games of mean 5.
        assert!(e.message.contains("15 games, mean 1.33"), "{}", e.message);
        assert!(e.message.contains("3 games, mean 5.00"), "{}", e.message);
        // A second column past the largest turn count cannot be turns: a histogram.
        assert_eq!(parse_turns("1,20000000\n", "f").unwrap().n(), 20_000_000);
    }

    #[test]
    fn counts_that_add_up_past_two_to_the_64_are_refused_not_wrapped() {
        // Each count fits in a u64; their sum 2 * (2^64 - 1) does not (it wrapped to 2^64 - 2).
        let text = "10,18446744073709551615\n20,18446744073709551615\n";
        let e = parse_turns(text, "f").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("2^64 - 1"), "{}", e.message);
        let h = parse_turns("10,18446744073709551614\n20,1\n", "f").unwrap();
        assert_eq!(h.n(), u64::MAX);
    }

    #[test]
    fn a_sample_file_is_read_up_to_its_limit_and_must_be_utf8() {
        let zeros = std::io::repeat(b'0').take(MAX_SAMPLE_FILE_BYTES + 10);
        let e = read_sample(zeros, "/dev/zero").unwrap_err();
        assert!(e.message.contains("limit"), "{}", e.message);
        let e = read_sample(&b"4\n5\n\xff6\n"[..], "f").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (3, "byte 5 is not UTF-8 text")
        );
        assert_eq!(read_sample(&b"4\n"[..], "f").unwrap(), "4\n");
    }
}
