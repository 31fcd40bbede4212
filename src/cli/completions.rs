//! `ladders completions SHELL` and `ladders man [SUBCOMMAND]`: shell completions (clap_complete)
//! and man pages (clap_mangen) generated from the same clap definition as the parser, so they
//! cannot drift from it. Install lines are in the README.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::CommandFactory;
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

/// `cmd` with its board arguments' built-in names left out of completion, for the shells whose
/// scripts would then offer only the names: zsh's list and fish's `-f -a` replace file names,
/// where bash falls back to them when no name matches (`complete -o default`).
fn boards_as_files(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| match arg.get_id().as_str() {
        "board" | "boards" => arg.value_parser(clap::builder::StringValueParser::new()),
        _ => arg,
    })
    .mut_subcommands(boards_as_files)
}

/// Runs `completions`.
pub fn run_completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let mut cmd = match args.shell {
        Shell::Bash => built(),
        _ => boards_as_files(built()),
    };
    // Generated whole first: clap_complete panics on a failed write (exit 101).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "ladders", &mut script);
    out.write_all(&script)?;
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
