//! Samples to check: turn counts read from a user's file, or a summary (mean, games, sd).
//!
//! A file holds either one turn count per line, or a histogram as `turns,count` lines (a header
//! line such as `turns,count` is allowed). Blank lines and lines starting with `#` are skipped.
//! A mean is read as the interval its digits stand for: "46.1" is somewhere in [46.05, 46.15).

use std::io::Read;

use thiserror::Error;

use crate::text::printable;

use super::Histogram;

/// The largest turn count a sample file may hold (so that a stray huge number fails fast instead
/// of allocating a histogram of that size).
pub const MAX_TURNS_IN_FILE: u64 = 10_000_000;

/// Sample files larger than this are refused (ten million games, one per line, take about
/// 50 MB; larger samples fit in a few lines as a `turns,count` histogram).
pub const MAX_SAMPLE_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a whole sample file from `reader`, refusing more than [`MAX_SAMPLE_FILE_BYTES`] bytes
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

/// Reads turn counts: one integer per line, or `turns,count` histogram lines.
///
/// # Errors
///
/// The first line that is neither, a count above [`MAX_TURNS_IN_FILE`], a mix of the two forms,
/// or no data at all.
///
/// # Examples
///
/// ```
/// use ladders::simulate::sample::parse_turns;
/// let h = parse_turns("turns,count\n2,3\n5,1\n", "x.csv").unwrap();
/// assert_eq!(h.n(), 4);
/// assert_eq!(parse_turns("3\n3\n", "x").unwrap().mean(), Some(3.0));
/// ```
pub fn parse_turns(text: &str, origin: &str) -> Result<Histogram, SampleError> {
    let err = |line: usize, message: String| SampleError {
        origin: origin.to_string(),
        line,
        message,
    };
    let mut counts: Vec<u64> = Vec::new();
    let mut csv: Option<bool> = None;
    let mut last_line = 0;
    let mut games: u64 = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = t.split(',').map(str::trim).collect();
        let (turns, count) = match fields.as_slice() {
            [a] => {
                if csv == Some(true) {
                    return Err(err(line, format!("expected `turns,count`, found {t:?}")));
                }
                csv = Some(false);
                (parse_count(a).map_err(|m| err(line, m))?, 1)
            }
            [a, b] => {
                if csv == Some(false) {
                    return Err(err(line, format!("expected one turn count, found {t:?}")));
                }
                if csv.is_none() && a.parse::<u64>().is_err() && b.parse::<u64>().is_err() {
                    // A header line.
                    csv = Some(true);
                    continue;
                }
                csv = Some(true);
                let turns = parse_count(a).map_err(|m| err(line, m))?;
                let count = b
                    .parse::<u64>()
                    .map_err(|_| err(line, format!("count {b:?} is not a non-negative integer")))?;
                (turns, count)
            }
            _ => {
                return Err(err(
                    line,
                    format!("expected a turn count or `turns,count`, found {t:?}"),
                ))
            }
        };
        games = games.checked_add(count).ok_or_else(|| {
            err(
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
    let h = Histogram::new(counts);
    if h.n() == 0 {
        return Err(err(last_line.max(1), "no turn counts found".to_string()));
    }
    Ok(h)
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

/// A mean as written: the interval of values its digits stand for.
#[derive(Clone, Debug, PartialEq)]
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
