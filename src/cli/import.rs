//! `ladders import`: a board written in another format, as a board file on standard output.
//! One format so far: LeetCode 909's grid (the library's `leetcode_board_file`).

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use ladders::board::leetcode_board_file;
use ladders::board::MAX_FILE_BYTES;

use super::exit;

/// Convert a board from another format into a board file
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders import leetcode '[[-1,-1],[-1,3]]'",
    "ladders import leetcode '[[-1,-1,-1],[-1,9,8],[-1,8,9]]'"
))]
pub struct Args {
    /// The format of the input
    #[arg(value_enum)]
    pub format: Format,
    /// The file to read, - for standard input, or the board itself (text that starts with `[`,
    /// as LeetCode prints it)
    pub file: String,
}

/// The formats `import` reads.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// LeetCode 909 "Snakes and Ladders": a JSON n x n grid, -1 for no jump, else the square
    /// the snake or ladder leads to; squares numbered boustrophedon from the bottom left
    Leetcode,
}

/// Reads the input and writes the board file.
///
/// # Errors
///
/// The input cannot be read, is too large, or is not a board of the format.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let inline = args.file.trim_start().starts_with('[');
    let text = if inline {
        args.file.clone()
    } else {
        read_input(&args.file)?
    };
    let origin = if inline {
        "the command line"
    } else {
        &args.file
    };
    let file = match args.format {
        Format::Leetcode => leetcode_board_file(&text, origin)?,
    };
    out.write_all(file.as_bytes())?;
    Ok(exit::code(exit::SUCCESS))
}

/// The whole input, refused past [`MAX_FILE_BYTES`] with its size (never cut short).
fn read_input(name: &str) -> Result<String> {
    let shown = ladders::report::printable(name);
    let mut bytes = Vec::new();
    let limit = MAX_FILE_BYTES + 1;
    if name == "-" {
        super::board_args::claim_stdin()?;
        std::io::stdin()
            .take(limit)
            .read_to_end(&mut bytes)
            .context("-: cannot read standard input")?;
    } else {
        std::fs::File::open(name)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .with_context(|| format!("{shown}: cannot read the file"))?;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!("{shown}: more than {MAX_FILE_BYTES} bytes, the limit for a board");
    }
    String::from_utf8(bytes).with_context(|| format!("{shown}: not UTF-8 text"))
}
