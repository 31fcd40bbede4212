//! `ladders completions SHELL` and `ladders man [SUBCOMMAND]`: shell completions (clap_complete)
//! and man pages (clap_mangen) generated from the same clap definition as the parser, so they
//! cannot drift from it. Install lines are in the README.
//!
//! What a value completes to follows the option's own help: a value name that lists words
//! (`stay|bounce|allow`, `none|unlimited|K`, `optimal|FILE`) offers its lower-case words, one
//! that names `FILE` offers file names too, a board offers the built-in names and file names,
//! and a number offers nothing.

use std::any::TypeId;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::builder::{PossibleValuesParser, ValueHint};
use clap::{Arg, CommandFactory};
use clap_complete::Shell;

use super::exit;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell)
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders completions bash",
    "ladders completions zsh",
    "ladders completions fish"
))]
pub struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Print a man page in roff: ladders(1), or one subcommand's ladders-SUBCOMMAND(1)
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!("ladders man", "ladders man expect"))]
pub struct ManArgs {
    /// The subcommand whose page to print (default: the main page, which lists them all)
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
}

/// The whole command line, every deferred subcommand built.
fn built() -> clap::Command {
    let mut cmd = super::Cli::command();
    cmd.build();
    cmd
}

/// The words a value completes to, and whether file names complete too.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Values {
    words: Vec<String>,
    files: bool,
}

/// What `arg`'s value completes to, when it is words (with or without file names): its value
/// parser's possible values (a board's are the built-in names), or the lower-case words of a
/// value name such as `stay|bounce|allow` (`K` and `FILE` are placeholders). A board, and a
/// value name that lists `FILE`, complete file names too.
fn values(arg: &Arg) -> Option<Values> {
    let name = arg.get_value_names().and_then(|n| n.first());
    let name = name.map_or("", |n| n.as_str());
    let words: Vec<String> = match arg.get_value_parser().possible_values() {
        Some(values) => values.map(|v| v.get_name().to_string()).collect(),
        None if name.contains('|') => (name.split('|'))
            .filter(|w| !w.chars().any(|c| c.is_ascii_uppercase()))
            .map(String::from)
            .collect(),
        None => return None,
    };
    Some(Values {
        files: matches!(arg.get_id().as_str(), "board" | "boards")
            || name.split('|').any(|w| w == "FILE"),
        words,
    })
}

/// True when `arg` takes a number (nothing to complete: no file names).
fn is_number(arg: &Arg) -> bool {
    let id = arg.get_value_parser().type_id();
    [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<f64>(),
    ]
    .iter()
    .any(|t| id == *t)
}

/// `cmd` as completion sees it: each value that is words has them as its possible values (for
/// completion only: the parser is not run), and a number says it is no file.
fn for_completion(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if arg.get_value_parser().possible_values().is_some() {
            return arg;
        }
        if let Some(values) = values(&arg) {
            return arg.value_parser(PossibleValuesParser::new(values.words));
        }
        match arg.get_value_hint() == ValueHint::Unknown && is_number(&arg) {
            true => arg.value_hint(ValueHint::Other),
            false => arg,
        }
    })
    .mut_subcommands(for_completion)
}

/// The options and positionals whose words complete together with file names, by subcommand
/// (the top level has the name "ladders").
fn words_and_files(cmd: &clap::Command) -> Vec<(&str, &Arg, Vec<String>)> {
    std::iter::once(cmd)
        .chain(cmd.get_subcommands())
        .flat_map(|sub| sub.get_arguments().map(move |arg| (sub.get_name(), arg)))
        .filter_map(|(sub, arg)| match values(arg) {
            Some(Values { words, files: true }) => Some((sub, arg, words)),
            _ => None,
        })
        .collect()
}

/// zsh's script with each value that is words and files completing as both (clap_complete
/// writes the words alone, `(w1 w2)`, which would hide the files): `_alternative` offers the
/// words and `_files`.
fn zsh_words_and_files(script: String, cmd: &clap::Command) -> String {
    let mut script = script;
    let mut done = std::collections::BTreeSet::new();
    for (_, _, words) in words_and_files(cmd) {
        let words = words.join(" ");
        if done.insert(words.clone()) {
            let alone = format!(":({words})'");
            // An option's spec reads each unescaped colon as the start of its next value.
            let both =
                format!(":_alternative \"words\\:word\\:({words})\" \"files\\:file\\:_files\"'");
            script = script.replace(&alone, &both);
        }
    }
    script
}

/// fish's script with each value that is words and files completing as both: an option's
/// words without `-f` (which would hide the files), and a board positional's built-in names
/// (clap_complete writes no positionals; fish offers file names there by itself).
fn fish_words_and_files(script: String, cmd: &clap::Command) -> String {
    let mut script = script;
    for (sub, arg, words) in words_and_files(cmd) {
        match arg.get_long() {
            Some(long) => {
                let lines: Vec<String> = script.lines().map(String::from).collect();
                script = lines
                    .into_iter()
                    .map(|l| match l.contains(&format!(" -l {long} ")) {
                        true => l.replace(" -r -f -a ", " -r -a "),
                        false => l,
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                script.push('\n');
            }
            None if arg.is_positional() && sub != "ladders" => {
                script.push_str(&format!(
                    "complete -c ladders -n \"__fish_ladders_using_subcommand {sub}\" -a \"{}\"\n",
                    words.join(" ")
                ));
            }
            None => {}
        }
    }
    script
}

/// Runs `completions`.
pub fn run_completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let mut cmd = for_completion(built());
    // Generated whole first: clap_complete panics on a failed write (exit 101).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "ladders", &mut script);
    let script = String::from_utf8(script)?;
    let script = match args.shell {
        Shell::Zsh => zsh_words_and_files(script, &cmd),
        Shell::Fish => fish_words_and_files(script, &cmd),
        // bash offers file names when no word matches (`complete -o default`).
        _ => script,
    };
    out.write_all(script.as_bytes())?;
    Ok(exit::code(exit::SUCCESS))
}
/// Runs `man`.
pub fn run_man(args: &ManArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let cmd = built();
    let man = match &args.subcommand {
        None => clap_mangen::Man::new(cmd),
        // The page's title and its usage line name the subcommand as it is typed.
        Some(name) => match cmd.find_subcommand(name) {
            Some(sc) => clap_mangen::Man::new(sc.clone().bin_name(format!("ladders {name}")))
                .title(format!("ladders-{name}")),
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
                bail!(
                    "no subcommand {name:?}: expected one of {}",
                    names.join(", ")
                )
            }
        },
    };
    man.render(out)?;
    Ok(exit::code(exit::SUCCESS))
}
