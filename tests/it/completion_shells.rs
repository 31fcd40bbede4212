//! Shell completion (issue 40 item 20): where a board is expected every shell offers the
//! built-in names and file names, a rule value offers its words (`stay bounce allow`, `none
//! unlimited`), `--policy` offers `optimal` and file names, and a number offers no file names.
//! Asserted on the generated scripts' text, and by running each shell's own completion on them
//! (bash always; zsh and fish where installed, and always under CI, whose `.ci/run` installs
//! them).

use std::path::Path;
use std::process::Command;

use crate::common::stdout_of;

/// The built-in board names, as the scripts list them.
fn names() -> String {
    ladders::board::builtin_names()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn zsh_offers_board_names_and_files_and_each_rule_value_its_words() {
    let zsh = stdout_of(&["completions", "zsh"]);
    let both = |words: &str| {
        format!(":_alternative \"words\\:word\\:({words})\" \"files\\:file\\:_files\"'")
    };
    // Every board argument (ten subcommands take one, race/draw/duel take several).
    assert!(zsh.matches(&both(&names())).count() >= 13, "{zsh}");
    assert!(!zsh.contains("for standard input:_default'"), "files alone");
    assert!(zsh.contains(&format!(":optimal|FILE{}", both("optimal"))));
    assert!(zsh.contains(":stay|bounce|allow:(stay bounce allow)'"));
    assert!(zsh.contains(":none|unlimited|K:(none unlimited)'"));
    assert!(zsh.contains(":sympy|maple|mathematica:(sympy maple mathematica)'"));
    // Numbers: nothing to offer (`_default` offered file names).
    assert!(!zsh.contains(":DIGITS:_default'"), "--digits");
    assert!(!zsh.contains(":N:_default'"), "--games, --turns, ...");
}

#[test]
fn fish_offers_board_names_and_files_and_each_rule_value_its_words() {
    let fish = stdout_of(&["completions", "fish"]);
    for command in ["analyze", "expect", "race", "draw", "simulate", "squares"] {
        let line = format!(
            "complete -c ladders -n \"__fish_ladders_using_subcommand {command}\" -a \"{}\"\n",
            names()
        );
        assert!(fish.contains(&line), "{command}: {fish}");
    }
    let option = |command: &str, long: &str| -> &str {
        let start = format!("__fish_ladders_using_subcommand {command}\" -l {long} ");
        let at = fish
            .find(&start)
            .unwrap_or_else(|| panic!("{command} --{long}"));
        fish[at..].lines().next().unwrap()
    };
    // Words and files (no -f, which would hide the files).
    assert!(option("expect", "policy").ends_with("-r -a \"optimal\\t''\""));
    assert!(option("expect", "overshoot").contains("-r -f -a \"stay\\t''"));
    assert!(option("generate", "roll-again").contains("-r -f -a \"none\\t''"));
    assert!(
        option("expect", "digits").ends_with("-r -f"),
        "no files for a number"
    );
}

#[test]
fn bash_offers_each_rule_value_its_words() {
    let bash = stdout_of(&["completions", "bash"]);
    for (option, words) in [
        ("--overshoot", "stay bounce allow"),
        ("--roll-again", "none unlimited"),
        ("--policy", "optimal"),
        ("--format", "sympy maple mathematica"),
    ] {
        let case = format!("                {option})\n");
        let at = bash.find(&case).unwrap_or_else(|| panic!("{option}"));
        let block = &bash[at..at + bash[at..].find(";;").unwrap()];
        assert!(
            block.contains(&format!("compgen -W \"{words}\"")),
            "{option}: {block}"
        );
    }
}

/// A shell, when installed; under CI (`CI` set) a missing one fails the test instead of
/// skipping it (`.ci/run` installs zsh and fish).
fn shell(name: &str) -> Option<String> {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .is_ok_and(|o| o.status.success());
    match (found, std::env::var_os("CI").is_some()) {
        (true, _) => Some(name.to_string()),
        (false, true) => panic!("{name} is not installed: .ci/run installs it"),
        (false, false) => {
            eprintln!("{name} is not installed: its completion is checked on the script only");
            None
        }
    }
}

/// A folder holding `myboard.toml`, for completions to run in, beside the script of `shell`
/// (`../script`).
fn workdir(shell: &str) -> std::path::PathBuf {
    let top =
        std::env::temp_dir().join(format!("ladders-completion-{shell}-{}", std::process::id()));
    let dir = top.join("cwd");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("myboard.toml"), "size = 10\n").unwrap();
    std::fs::write(top.join("script"), stdout_of(&["completions", shell])).unwrap();
    dir
}

/// The words a shell offers after `line`, sorted, by `complete(dir, line)`.
fn offered(output: std::process::Output) -> Vec<String> {
    assert!(output.status.success(), "{output:?}");
    let mut words: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .filter(|w| !w.is_empty())
        .collect();
    words.sort();
    words
}

/// What each case's line should offer: the built-in names and the file, the overshoot's words,
/// `optimal` and the file, and nothing for a number.
fn check(shell: &str, complete: impl Fn(&Path, &str) -> Vec<String>) {
    let dir = workdir(shell);
    let mut boards: Vec<String> = ladders::board::builtin_names().map(String::from).collect();
    boards.push("myboard.toml".into());
    boards.sort();
    assert_eq!(complete(&dir, "ladders expect "), boards, "{shell}");
    assert_eq!(complete(&dir, "ladders race efi "), boards, "{shell}");
    assert_eq!(
        complete(&dir, "ladders expect --overshoot "),
        ["allow", "bounce", "stay"],
        "{shell}"
    );
    assert_eq!(
        complete(&dir, "ladders expect --policy "),
        ["myboard.toml", "optimal"],
        "{shell}"
    );
    assert_eq!(
        complete(&dir, "ladders expect --digits "),
        Vec::<String>::new()
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn zsh_and_fish_complete_board_names_rule_words_and_files() {
    if let Some(zsh) = shell("zsh") {
        let capture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/completion/capture.zsh");
        check("zsh", |dir, line| {
            offered(
                Command::new("timeout")
                    .args(["60", &zsh, "-f", capture, "../script", line])
                    .current_dir(dir)
                    .output()
                    .unwrap(),
            )
        });
    }
    if let Some(fish) = shell("fish") {
        check("fish", |dir, line| {
            offered(
                Command::new(&fish)
                    .arg("-c")
                    .arg(format!("source ../script; complete -C '{line}'"))
                    .current_dir(dir)
                    .output()
                    .unwrap(),
            )
        });
    }
}
