//! Choosing a board on the command line: a built-in name or a file, `--reverse`, and rule
//! overrides that answer "what if" without editing the file.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use anyhow::{bail, Result};
use clap::ValueHint;
use ladders::board::{
    builtin_names, near_builtin_names, Board, ChoicesSpec, DieChoice, Located, Overshoot,
    RollAgain, RuleOverrides, BUILTIN_BOARDS, DEFAULT_BOARD,
};
use ladders::board::{parse_spec, read_text};
use ladders::Game;

/// The help heading of the rule options: each one, when given, replaces the board's own rule.
const RULES: &str = "Rule overrides (default: the board's own rules)";

/// The rule overrides and transforms every board-taking command accepts (their values are words
/// and numbers: shell completion offers no file names for them, `ValueHint::Other`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RuleArgs {
    /// Swap every snake and ladder end for end (snakes climb, ladders slide)
    #[arg(help_heading = RULES, long)]
    pub reverse: bool,
    /// Start off the board (0) or standing on square S (nothing triggers there)
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "S")]
    pub start: Option<u32>,
    /// What a roll past the finish does: stay put, bounce back by the excess, or allow it to finish
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "stay|bounce|allow", value_parser = parse_overshoot)]
    pub overshoot: Option<Overshoot>,
    /// The die: a number of faces (fair), or face weights of a loaded die (1,1,1,1,1,3)
    // `expect` also takes a range of fair dice, LO..HI (docs/pictures.md); the help line is kept
    // as every command shows it.
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "FACES|W1,W2,...", value_parser = parse_die_arg)]
    pub die: Option<DieArg>,
    /// How many dice are thrown at once (the move is their sum)
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=i64::from(ladders::board::MAX_DICE)))]
    pub dice: Option<u32>,
    /// Whether the top face rolls again: none, unlimited, or K (the K-th in a row forfeits)
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "none|unlimited|K", value_parser = RollAgain::parse)]
    pub roll_again: Option<RollAgain>,
    /// Whether jumps chain (true) or at most one jump is taken per move (false)
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "true|false")]
    pub chain: Option<bool>,
    /// Choice rule: before each roll the player picks one of these fair dice (4,6)
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "F1,F2,...", value_delimiter = ',')]
    pub choose_die: Option<Vec<i64>>,
    /// Choice rule: after each roll the player may flip a coin (heads +1, tails -1)
    #[arg(help_heading = RULES, long)]
    pub coin: bool,
    /// Choice rule: throw K dice and move by the one the player picks
    #[arg(help_heading = RULES, long, value_hint = ValueHint::Other, value_name = "K")]
    pub pick: Option<i64>,
    /// Choice rule: the player picks the die's face
    #[arg(help_heading = RULES, long)]
    pub choose_face: bool,
}

impl RuleArgs {
    /// The overrides as the library takes them.
    pub fn overrides(&self) -> RuleOverrides {
        let mut overrides = RuleOverrides::default();
        overrides.start = self.start;
        overrides.overshoot = self.overshoot;
        overrides.die = match &self.die {
            Some(DieArg::One(d)) => Some(d.clone()),
            _ => None,
        };
        overrides.dice = self.dice;
        overrides.roll_again = self.roll_again;
        overrides.chain = self.chain;
        overrides.choices = ChoicesSpec {
            choose_die: self.choose_die.clone().map(Located::unplaced),
            coin: self.coin.then_some(Located::unplaced(true)),
            pick: self.pick.map(Located::unplaced),
            choose_face: self.choose_face.then_some(Located::unplaced(true)),
            decline: None,
        };
        overrides
    }

    /// Loads `name` (built-in or path) and applies `--reverse` and the overrides; a board with
    /// a choice rule is refused (the analyses need a policy: `ladders optimize`).
    pub fn load(&self, name: &str) -> Result<Board> {
        let board = self.load_with_choices(name)?;
        refuse_choice(&board, name)?;
        Ok(board)
    }

    /// The range of `--die LO..HI`, when one was given.
    pub fn die_range(&self) -> Option<std::ops::RangeInclusive<u32>> {
        match self.die {
            Some(DieArg::Range(lo, hi)) => Some(lo..=hi),
            _ => None,
        }
    }

    /// [`RuleArgs::load`], keeping a choice rule.
    pub fn load_with_choices(&self, name: &str) -> Result<Board> {
        Ok(self.spec(name)?.validate()?)
    }

    /// [`RuleArgs::load`] as the library's [`Game`]: a board with a choice rule is refused.
    pub fn game(&self, name: &str) -> Result<Game> {
        let game = self.game_with_choices(name)?;
        refuse_choice(game.board(), name)?;
        Ok(game)
    }

    /// [`RuleArgs::load_with_choices`] as the library's [`Game`].
    pub fn game_with_choices(&self, name: &str) -> Result<Game> {
        Ok(Game::from_spec(self.spec(name)?)?)
    }

    /// The board `name` as written, with `--reverse` and the overrides applied.
    fn spec(&self, name: &str) -> Result<ladders::board::BoardSpec> {
        if let Some(range) = self.die_range() {
            bail!(
                "--die {}..{}: a range of dice is for `ladders expect` and `ladders analyze` (a table of expected turns per die size)",
                range.start(),
                range.end()
            );
        }
        let mut spec = load_spec(name)?;
        if self.reverse {
            spec.reverse();
        }
        spec.apply(&self.overrides());
        Ok(spec)
    }
}

/// Refuses a board whose player chooses (the analyses need a policy), naming the remedies.
fn refuse_choice(board: &Board, name: &str) -> Result<()> {
    if let Some(rule) = board.choice() {
        bail!(
            "{}: the player chooses ({}), so the game needs a policy: `--policy optimal` or `--policy FILE` (expect, distribution, shortest, simulate, check), or `ladders optimize {name}`",
            board.origin(),
            rule.key()
        );
    }
    Ok(())
}

/// A board argument as written (a built-in name, a path or `-`: any text), whose possible values
/// are the built-in names for shell completion only: bash offers them, and a word that matches
/// none falls back to file names (`complete -o default`). Help does not list them
/// (`hide_possible_values`); `ladders boards` does.
#[derive(Clone, Copy, Debug)]
pub struct BoardName;

impl clap::builder::TypedValueParser for BoardName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            BUILTIN_BOARDS
                .iter()
                .map(|b| clap::builder::PossibleValue::new(b.name)),
        ))
    }
}

/// One board and its rule overrides.
#[derive(clap::Args, Clone, Debug)]
pub struct BoardArgs {
    /// A built-in board (see `ladders boards`), the path of a board file, or - for standard input
    #[arg(default_value = DEFAULT_BOARD, value_parser = BoardName, hide_possible_values = true)]
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl BoardArgs {
    /// Loads the board.
    pub fn load(&self) -> Result<Board> {
        self.rules.load(&self.board)
    }

    /// Loads the board, keeping a choice rule (for commands that need no policy).
    pub fn load_with_choices(&self) -> Result<Board> {
        self.rules.load_with_choices(&self.board)
    }
}

/// Refuses a board whose player state is more than a square (one-use jumps, points, lost or
/// extra turns, jumps that take a turn) for a command that does not answer those yet: `expect`, `distribution`,
/// `simulate`, `check` and `verify` do.
pub fn square_state_only(game: &Game, command: &str) -> Result<()> {
    if game.changes_during_a_game() {
        bail!(
            "{}: `{command}` does not answer boards with one-use jumps, points, lost or extra turns, \
             or jumps that take a turn, yet; `ladders expect`, `distribution`, `simulate`, `check` and `verify` do",
            game.board().origin()
        );
    }
    Ok(())
}

/// `--die`: one die, or a range of fair dice (`LO..HI`, for `expect` and `analyze`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DieArg {
    /// One die (fair or loaded).
    One(DieChoice),
    /// Fair dice of LO to HI faces.
    Range(u32, u32),
}

/// Parses `--die`: `LO..HI` (2 <= LO <= HI <= the largest die) or what [`DieChoice::parse`]
/// takes.
pub fn parse_die_arg(text: &str) -> Result<DieArg, String> {
    let Some((lo, hi)) = text.split_once("..") else {
        return DieChoice::parse(text).map(DieArg::One);
    };
    let max = ladders::board::MAX_DIE;
    let bad = || {
        format!(
            "expected a range of die sizes LO..HI with 2 <= LO <= HI <= {max}, found {}",
            ladders::report::echo(text)
        )
    };
    let lo: u32 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u32 = hi.trim().parse().map_err(|_| bad())?;
    if !(2 <= lo && lo <= hi && hi <= max) {
        return Err(bad());
    }
    Ok(DieArg::Range(lo, hi))
}

/// `--overshoot stay|bounce|allow`, for the rule overrides and `generate`.
pub(super) fn parse_overshoot(text: &str) -> Result<Overshoot, String> {
    Overshoot::from_name(text)
        .ok_or_else(|| format!("expected one of {}", Overshoot::NAMES.join(", ")))
}

/// A built-in board by name, `-` for standard input, or a board file by path, before validation.
fn load_spec(name: &str) -> Result<ladders::board::BoardSpec> {
    if name == "-" {
        return Ok(parse_spec(&read_stdin_once()?, "-")?);
    }
    let path = Path::new(name);
    if let Some(b) = BUILTIN_BOARDS.iter().find(|b| b.name == name) {
        if path.is_file() {
            super::output::to_stderr(&format!(
                "note: {name} is the built-in board; for the file of that name, write ./{name}"
            ));
        }
        return Ok(parse_spec(b.text, &format!("builtin:{}", b.name))?);
    }
    super::wait::announce_fifo(path, "the board file");
    match ladders::board::load_spec(path) {
        Ok(spec) => return Ok(spec),
        // Asked only after a failure, so a board file is not looked up twice.
        Err(err) if path.exists() => return Err(err.into()),
        Err(_) => {}
    }
    bail!("{}", not_found(name))
}

/// The message for a board name that is neither built in nor a file: the near built-in names,
/// the `.toml` file it may have meant, and the list of built-in boards.
fn not_found(name: &str) -> String {
    let mut message = format!(
        "{}: no such board file, and no built-in board has that name",
        ladders::report::echo_plain(name)
    );
    let toml = format!("{name}.toml");
    if Path::new(&toml).is_file() {
        message.push_str(&format!(
            " (did you mean the file {}?)",
            ladders::report::echo_plain(&toml)
        ));
    }
    let near = near_builtin_names(name);
    if !near.is_empty() {
        message.push_str(&format!(" (did you mean {}?)", near.join(" or ")));
    }
    let names: Vec<&str> = builtin_names().collect();
    message.push_str(&format!("; built-in boards: {}", names.join(", ")));
    message
}

/// Standard input as board text, read once and kept: a command that loads its board twice
/// (`race` asks first whether the players choose) reads the same text both times.
fn read_stdin_once() -> Result<String> {
    static TEXT: OnceLock<String> = OnceLock::new();
    if let Some(text) = TEXT.get() {
        return Ok(text.clone());
    }
    claim_stdin()?;
    let text = read_text(std::io::stdin().lock(), "-", 0)?;
    Ok(TEXT.get_or_init(|| text).clone())
}

/// Claims standard input for one reader: a board `-` and `verify --file -` on the same command
/// line is an error, since the first read it all (a board `-` given twice is read once).
pub fn claim_stdin() -> Result<()> {
    static READ: AtomicBool = AtomicBool::new(false);
    if READ.swap(true, Ordering::SeqCst) {
        bail!("-: standard input can be read only once (give the others as files)");
    }
    Ok(())
}
