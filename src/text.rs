//! Text for people, at the foundation so every layer's messages can use it: counts written
//! with thousands separators ([`thousands`], [`count`]), estimates of any size ([`figure`]), and free text that reaches a terminal
//! (board names, sources, file names). Anything printed as text goes through [`printable`] or
//! was checked by [`unprintable`], so a board cannot forge output lines, move the cursor or
//! clear the screen (JSON output escapes on its own). A value the user gave that a message
//! echoes goes through [`echo`] (quoted) or [`echo_plain`]: cut to its first [`ECHO_CHARS`]
//! characters and its length, so a 10 MB value gives a line of message, not 10 MB of it.

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun, plural unless `n` is 1, with thousands separators: `1 snake`,
/// `10,000 games`.
pub fn count(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

/// An estimate of any size for a message: whole and grouped by thousands below 10^15
/// (`33,000,000`), in scientific form from there (`7.8e23`), never a saturated machine word
/// (an `f64` cast to `u64` stops at 18,446,744,073,709,551,615). Negative and NaN give 0, the
/// infinite `more than 1e308`.
pub fn figure(x: f64) -> String {
    match x {
        x if x.is_infinite() && x > 0.0 => "more than 1e308".to_string(),
        x if x.is_nan() || x < 1e15 => thousands(x.max(0.0).round() as u64),
        x => format!("{x:.1e}"),
    }
}

/// Longest board `name`, in characters (names are padded into table columns).
pub const MAX_NAME_CHARS: usize = 1_000;

/// Longest board `source`, in characters.
pub const MAX_SOURCE_CHARS: usize = 10_000;

/// Whether `c` must not reach a terminal raw: a control character (C0, DEL, C1, which covers
/// newlines, escape sequences and NUL); a bidirectional override, isolate or mark (U+202A to
/// U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C), which reorders what is shown; a line or
/// paragraph separator (U+2028, U+2029), which breaks a line; an interlinear annotation
/// character (U+FFF9 to U+FFFB) or a tag character (U+E0000 to U+E007F), which hide text.
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// The first unprintable character of `text`, with its 1-based position in characters.
pub fn unprintable(text: &str) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|&(_, c)| is_unprintable(c))
        .map(|(i, c)| (i + 1, c))
}

/// The most characters of a user's value a message echoes whole; a longer one shows its first
/// `ECHO_CHARS` and its length.
pub const ECHO_CHARS: usize = 40;

/// A value the user gave, as a message echoes it in quotes: `{:?}` of the value (quoted,
/// escaped), or past `ECHO_CHARS` characters of its first ones and its length:
/// `"xxxx..." (1,000,000 characters)`.
pub fn echo(value: &str) -> String {
    match cut(value) {
        None => format!("{value:?}"),
        Some((head, n)) => format!("{head:?}... ({})", count(n as u64, "character")),
    }
}

/// [`echo`] without quotes, for a value shown as it is (a file name): [`printable`], or past
/// `ECHO_CHARS` characters its first ones and its length: `xxxx... (1,000,000 characters)`.
pub fn echo_plain(value: &str) -> String {
    match cut(value) {
        None => printable(value),
        Some((head, n)) => format!("{}... ({})", printable(head), count(n as u64, "character")),
    }
}

/// The first [`ECHO_CHARS`] characters of `value` and its length in characters, when it is
/// longer.
fn cut(value: &str) -> Option<(&str, usize)> {
    let (end, _) = value.char_indices().nth(ECHO_CHARS)?;
    Some((&value[..end], value.chars().count()))
}

/// `text` with each unprintable character written as an escape (`\n`, `\u{1b}`); other text,
/// including non-ASCII letters, is kept as is.
pub fn printable(text: &str) -> String {
    if unprintable(text).is_none() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            // Every control character has a backslash escape in escape_debug (`\n`, `\u{1b}`).
            out.extend(c.escape_debug());
        } else if is_unprintable(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_past_a_machine_word_is_written_in_scientific_form_not_saturated() {
        assert_eq!(figure(33_000_000.4), "33,000,000");
        assert_eq!(figure(999_999_999_999_999.0), "999,999,999,999,999");
        // 82^16 squares' states (16 players on Efi), past u64::MAX.
        assert_eq!(figure(82f64.powi(16)), "4.2e30");
        assert_eq!(figure(-3.0), "0");
        assert_eq!(figure(f64::NAN), "0");
        assert_eq!(figure(f64::INFINITY), "more than 1e308");
    }

    #[test]
    fn a_long_value_is_echoed_by_its_first_characters_and_its_length() {
        assert_eq!(echo("bouce"), "\"bouce\"");
        assert_eq!(echo("a\nb"), "\"a\\nb\"");
        let forty = "x".repeat(ECHO_CHARS);
        assert_eq!(echo(&forty), format!("\"{forty}\""));
        let long = "x".repeat(1_000_000);
        assert_eq!(
            echo(&long),
            format!("\"{forty}\"... (1,000,000 characters)")
        );
        assert_eq!(
            echo_plain(&long),
            format!("{forty}... (1,000,000 characters)")
        );
        // Characters, not bytes: 41 two-byte letters are cut after 40.
        let accents = "é".repeat(41);
        assert_eq!(
            echo_plain(&accents),
            format!("{}... (41 characters)", "é".repeat(40))
        );
        assert_eq!(echo_plain("\u{1b}[2J"), "\\u{1b}[2J");
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "snake"), "1 snake");
        assert_eq!(count(0, "ladder"), "0 ladders");
        assert_eq!(count(10_000, "game"), "10,000 games");
    }

    #[test]
    fn control_characters_are_escaped_and_letters_kept() {
        assert_eq!(printable("x\nFAKE"), "x\\nFAKE");
        assert_eq!(printable("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(printable("a\0b"), "a\\0b");
        assert_eq!(printable("\u{202E}abc"), "\\u{202e}abc");
        assert_eq!(printable("Échelles et serpents"), "Échelles et serpents");
        // Marks, separators, annotations and tags (issue 40, item 13).
        assert_eq!(
            printable("a\u{200E}b\u{200F}\u{061C}\u{2028}\u{2029}\u{FFF9}\u{E0041}"),
            "a\\u{200e}b\\u{200f}\\u{61c}\\u{2028}\\u{2029}\\u{fff9}\\u{e0041}"
        );
    }

    #[test]
    fn finds_the_first_unprintable_character() {
        assert_eq!(unprintable("ab\tc\n"), Some((3, '\t')));
        assert_eq!(unprintable("plain"), None);
    }
}
