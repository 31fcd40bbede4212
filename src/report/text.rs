//! Text building blocks shared by the text reports.

use num_rational::BigRational;

use crate::board::Board;
use crate::num::decimal::fixed;
use crate::text::count;

/// A check's verdict in a text report: `ok` or `FAIL`.
pub(crate) fn ok(pass: bool) -> &'static str {
    if pass {
        "ok"
    } else {
        "FAIL"
    }
}

/// A p-value in a text report: three decimals, or two significant digits below 0.001.
pub(crate) fn p_text(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// One line naming the board and where it came from.
pub fn board_line(board: &Board) -> String {
    format!(
        "{} ({}, {}, {}, {})",
        board.name(),
        board.origin(),
        count(u64::from(board.size()), "square"),
        count(board.snakes().len() as u64, "snake"),
        count(board.ladders().len() as u64, "ladder")
    )
}

/// One line describing the board's rules: the [`crate::board::Rules`], the dice, chance squares and tiles.
pub fn rules_line(board: &Board) -> String {
    let rules = board.rules();
    let start = if rules.start == 0 {
        "off the board".to_string()
    } else {
        format!("on square {}", rules.start)
    };
    let dice = board.dice();
    let die = if dice.is_fair() {
        format!("d{}", rules.die)
    } else {
        let w: Vec<String> = dice.weights().iter().map(|w| w.to_string()).collect();
        format!("d{} loaded {}", rules.die, w.join(":"))
    };
    let die = match dice.count() {
        1 => format!("{die} die"),
        k => format!("{k} {die} dice"),
    };
    let mut line = format!(
        "start {start}, overshoot {}, {die}, roll again {}, jumps {}",
        rules.overshoot,
        rules.roll_again,
        if rules.chain { "chain" } else { "do not chain" }
    );
    match board.chances().len() {
        0 => {}
        1 => line.push_str(", 1 chance square"),
        k => line.push_str(&format!(", {k} chance squares")),
    }
    let counts = [
        (board.once_squares().len(), "one-use jump"),
        (board.point_squares().len(), "point square"),
        (board.lose_turn_squares().len(), "lost-turn square"),
        (board.extra_turn_squares().len(), "extra-turn square"),
    ];
    for (k, what) in counts {
        match k {
            0 => {}
            1 => line.push_str(&format!(", 1 {what}")),
            k => line.push_str(&format!(", {k} {what}s")),
        }
    }
    if let Some(t) = board.tiles() {
        line.push_str(&format!(
            ", random tiles (length {}, snake {}, ladder {})",
            t.length, t.snake, t.ladder
        ));
    }
    for (key, value) in rules.house_rules() {
        let value = match value.as_array() {
            Some(items) => {
                let items: Vec<String> = items.iter().map(|v| v.to_string()).collect();
                format!("[{}]", items.join(", "))
            }
            None => value.to_string(),
        };
        line.push_str(&format!(", {key} = {value}"));
    }
    line
}

/// The longest fraction a text report prints whole unless asked (`expect --exact`), in
/// characters: every built-in board's fit (seed-003's variance is 954); a 10,000-square
/// board's mean is 14,945.
pub const LONG_FRACTION: usize = 1_000;

/// `value` as `numerator/denominator` (an integer as itself); past [`LONG_FRACTION`] characters, unless `whole`, its
/// first digits and its digit counts instead (`12345678901234567890... / 98765432109876543210...
/// (7472 / 7473 digits; --exact prints it whole)`). JSON always carries the whole fraction.
pub fn fraction_text(value: &BigRational, whole: bool) -> String {
    let (numer, denom) = (value.numer().to_string(), value.denom().to_string());
    if whole || numer.len() + denom.len() < LONG_FRACTION {
        // An integer as itself, as `BigRational` writes it.
        return value.to_string();
    }
    let first = |digits: &str| digits.chars().take(20).collect::<String>();
    format!(
        "{}... / {}... ({} / {} digits; --exact prints it whole)",
        first(&numer),
        first(&denom),
        numer.trim_start_matches('-').len(),
        denom.len()
    )
}

/// `value` as a decimal, followed by the exact fraction when it is not an integer (past
/// `LONG_FRACTION` characters, unless `whole`, by its first digits and digit counts, as
/// `fraction_text` shows it).
pub fn exact_text(value: &BigRational, digits: usize, whole: bool) -> String {
    if value.is_integer() {
        format!("{} (exact)", value.numer())
    } else {
        format!("{} = {}", fixed(value, digits), fraction_text(value, whole))
    }
}

/// A float shown with at most `significant` significant digits and at most `decimals` digits
/// after the point: fixed notation for magnitudes from 1e-4 up to `10^significant`, scientific
/// outside (`4.5e15`, never a run of digits nobody stands behind). 0 is `0`.
pub fn float_text(x: f64, significant: u32, decimals: usize) -> String {
    let significant = significant.max(1) as usize;
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    // Rounded first, so the exponent is the one the shown digits have (9.99 to 2 digits: 10).
    let rounded: f64 = format!("{x:.p$e}", p = significant - 1)
        .parse()
        .unwrap_or(x);
    let exponent = rounded.abs().log10().floor() as i64;
    if exponent >= significant as i64 || exponent < -4 {
        return format!("{x:.p$e}", p = significant - 1);
    }
    let wanted = (significant as i64 - 1 - exponent).max(0) as usize;
    format!("{x:.d$}", d = wanted.min(decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_fraction_is_shown_by_its_first_digits_and_digit_counts_unless_whole() {
        use num_bigint::BigInt;
        // 2^4000 has 1205 digits (4000 log10 2 = 1204.1), 3^2000 has 955 (2000 log10 3 = 954.2).
        let big = BigRational::new(BigInt::from(2).pow(4000), BigInt::from(3).pow(2000));
        let short = fraction_text(&big, false);
        assert!(
            short.starts_with("13182040934309431001... / 17478712517226516096... "),
            "{short}"
        );
        assert!(
            short.ends_with("(1205 / 955 digits; --exact prints it whole)"),
            "{short}"
        );
        assert_eq!(fraction_text(&big, true).len(), 1205 + 1 + 955);
        let small = BigRational::new(BigInt::from(7), BigInt::from(3));
        assert_eq!(fraction_text(&small, false), "7/3");
        assert_eq!(
            fraction_text(&BigRational::from_integer(BigInt::from(4)), false),
            "4"
        );
    }

    #[test]
    fn floats_show_only_their_significant_digits() {
        assert_eq!(float_text(39.225_122_308_235, 11, 12), "39.225122308");
        assert_eq!(float_text(39.225_122_308_235, 11, 3), "39.225");
        // Issue 19 item 5: 22 digits of a variance; 12 are kept.
        assert_eq!(float_text(1_086_209_949.478_633_4, 12, 12), "1086209949.48");
        assert_eq!(
            float_text(4.503_599_627_370_494e15, 12, 12),
            "4.50359962737e15"
        );
        assert_eq!(float_text(9.996, 3, 12), "10.0");
        assert_eq!(float_text(1.5e-7, 3, 12), "1.50e-7");
        assert_eq!(float_text(0.0, 12, 12), "0");
    }
}
