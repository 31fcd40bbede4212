//! The rows of a shown distribution (part of `shown.rs`): each row's six cells, the table's and
//! the CSV's for P(T = n), P(T <= n) and P(T > n), written one row after another into one text
//! that the rows then share ([`Rows`]), so that a table of 500 rows is one allocation, not 500.

use std::sync::Arc;

/// One row of the table as shown: P(T = n), P(T <= n) and P(T > n) as the table shows them
/// ([`ShownTerm::table`]) and as CSV cells ([`ShownTerm::csv`]), and P(T = n) as an `f64`.
///
/// The six cells are kept in one string (a table cell that is its CSV cell, as most are, once),
/// shared by the rows of one distribution: one allocation for all of them.
#[derive(Clone)]
#[non_exhaustive]
pub struct ShownTerm {
    /// The number of turns.
    pub n: usize,
    /// The cells of this row (and of the other rows written with it), one after the other: per
    /// column, the CSV cell, then the table's when it differs. `None` only while [`Rows`]
    /// writes the rows (set once for all of them, not cloned and dropped for each).
    text: Option<Arc<String>>,
    /// Where this row's text starts in `text`.
    start: u32,
    /// Per column, where its CSV cell ends and where its table cell starts and ends (the CSV
    /// cell's own place when the table shows it). Each column starts where the one before
    /// ends (that column's table cell, which ends last); the first at `start`.
    ends: [[u32; 3]; 3],
    /// P(T = n) as an `f64`, for the chart: the nearest `f64` on the rows the chart draws (up
    /// to the 99.9 % quantile, or every row) when the chart was asked for, and always from
    /// [`super::ShownDistribution::from_exact`]; else one within the certified bounds (a relative
    /// 2^-20 at most, about 2^-37 on the built-in boards).
    pub p_f64: f64,
}

impl ShownTerm {
    /// The row `n` with the cells `table` and `csv` (P(T = n), P(T <= n), P(T > n)).
    pub fn new(n: usize, table: [&str; 3], csv: [&str; 3], p_f64: f64) -> ShownTerm {
        // Not through `Rows`, whose cells tell a table cell of their own by its length: here
        // one may be empty.
        let mut text = String::new();
        let mut ends = [[0; 3]; 3];
        for (column, end) in ends.iter_mut().enumerate() {
            let start = text.len();
            text.push_str(csv[column]);
            let plain = text.len();
            *end = match table[column] == csv[column] {
                true => [plain, start, plain].map(at),
                false => {
                    text.push_str(table[column]);
                    [plain, plain, text.len()].map(at)
                }
            };
        }
        ShownTerm {
            n,
            text: Some(Arc::new(text)),
            start: 0,
            ends,
            p_f64,
        }
    }

    /// P(T = n), P(T <= n) and P(T > n) as the table shows them
    /// ([`crate::num::decimal::probability`]: never a nonzero value as 0, nor one below 1 as
    /// 1).
    pub fn table(&self) -> [&str; 3] {
        self.ends
            .map(|[_, start, end]| &self.text()[start as usize..end as usize])
    }

    /// The same as CSV cells: plain correctly rounded decimals (or the fractions).
    pub fn csv(&self) -> [&str; 3] {
        [0, 1, 2].map(|column| {
            let start = match column {
                0 => self.start,
                _ => self.ends[column - 1][2],
            };
            &self.text()[start as usize..self.ends[column][0] as usize]
        })
    }

    fn text(&self) -> &str {
        self.text.as_deref().expect("the rows are written")
    }
}

/// Rows being written into one text, which [`Rows::done`] shares among them.
pub(super) struct Rows {
    text: Vec<u8>,
    /// The rows, without their `text` until [`Rows::done`].
    rows: Vec<ShownTerm>,
}

impl Rows {
    /// Room for `rows` rows of `bytes` bytes in all.
    pub(super) fn with_capacity(rows: usize, bytes: usize) -> Rows {
        Rows {
            text: Vec::with_capacity(bytes),
            rows: Vec::with_capacity(rows),
        }
    }

    /// The row whose column k's cells `cell(k, text)` writes at the end of `text` (ASCII), the
    /// CSV cell and then the table's when it differs (never empty then), returning where the
    /// CSV cell ends; false (and nothing kept) when some cell is not decided.
    pub(super) fn push(
        &mut self,
        n: usize,
        p_f64: f64,
        mut cell: impl FnMut(usize, &mut Vec<u8>) -> Option<usize>,
    ) -> bool {
        let row_start = self.text.len();
        let mut ends = [[0; 3]; 3];
        for (column, end) in ends.iter_mut().enumerate() {
            let start = self.text.len();
            let Some(csv) = cell(column, &mut self.text) else {
                self.text.truncate(row_start);
                return false;
            };
            *end = match csv == self.text.len() {
                true => [csv, start, csv].map(at),
                false => [csv, csv, self.text.len()].map(at),
            };
        }
        self.rows.push(ShownTerm {
            n,
            text: None,
            start: at(row_start),
            ends,
            p_f64,
        });
        true
    }

    /// The rows, sharing their text (the buffer itself, not a copy, its room beyond the text
    /// given back: a shrink in place, which the allocations after it reuse).
    pub(super) fn done(mut self) -> Vec<ShownTerm> {
        self.text.shrink_to_fit();
        let text = Arc::new(String::from_utf8(self.text).expect("UTF-8 cells"));
        for row in &mut self.rows {
            row.text = Some(Arc::clone(&text));
        }
        self.rows
    }
}

/// A place in the rows' text.
fn at(i: usize) -> u32 {
    u32::try_from(i).expect("the rows' text under 4 GiB")
}

/// Rows are equal when they show the same: the cells' text, not how it is stored.
impl PartialEq for ShownTerm {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n
            && self.table() == other.table()
            && self.csv() == other.csv()
            && self.p_f64 == other.p_f64
    }
}

impl std::fmt::Debug for ShownTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShownTerm")
            .field("n", &self.n)
            .field("table", &self.table())
            .field("csv", &self.csv())
            .field("p_f64", &self.p_f64)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_written_one_after_another_share_one_text_and_read_back_their_cells() {
        // Written by hand: a row whose cells are all plain, one with two table cells of their
        // own, an undecided row (nothing kept), then a plain one after it.
        let mut rows = Rows::with_capacity(3, 0);
        let cells = |cells: [(&'static str, &'static str); 3]| {
            move |column: usize, text: &mut Vec<u8>| {
                let (csv, table) = cells[column];
                text.extend_from_slice(csv.as_bytes());
                let plain = text.len();
                text.extend_from_slice(table.as_bytes());
                Some(plain)
            }
        };
        assert!(rows.push(1, 0.25, cells([("0.25", ""), ("0.25", ""), ("0.75", "")])));
        let late = [
            ("0.00", "3.3e-9"),
            ("1.00", "1 - 2.0e-5"),
            ("0.00", "2.0e-5"),
        ];
        assert!(rows.push(2, 3.3e-9, cells(late)));
        let mut columns = 0;
        let undecided = rows.push(3, 0.0, |column, text: &mut Vec<u8>| {
            columns += 1;
            text.extend_from_slice(b"0.5");
            (column < 1).then_some(text.len())
        });
        assert!(!undecided);
        assert_eq!(columns, 2);
        assert!(rows.push(4, 0.5, cells([("0.50", ""), ("1.00", ""), ("0.00", "")])));
        let terms = rows.done();
        assert_eq!(terms.iter().map(|t| t.n).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(terms[0].table(), ["0.25", "0.25", "0.75"]);
        assert_eq!(terms[1].table(), ["3.3e-9", "1 - 2.0e-5", "2.0e-5"]);
        assert_eq!(terms[1].csv(), ["0.00", "1.00", "0.00"]);
        assert_eq!(
            (terms[2].csv(), terms[2].p_f64),
            (["0.50", "1.00", "0.00"], 0.5)
        );
        let text = |row: usize| terms[row].text.as_ref().unwrap();
        assert!(Arc::ptr_eq(text(0), text(2)));
        // The room the writing left over is given back.
        assert_eq!(text(0).capacity(), text(0).len());
    }
}
