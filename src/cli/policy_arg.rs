//! `--policy optimal|FILE` for the analyses of a board with a choice rule (`expect`,
//! `distribution`, `shortest`, `simulate`, `check`): the player follows that policy
//! ([`ladders::Game::with_optimal_policy`], [`ladders::Game::with_policy_file`]). [`GameArgs`] is the
//! board with its overrides, the policy and `--digits`, as `expect`, `distribution` and `shortest` take them.

use std::io::{self, Write};

use anyhow::{bail, Result};
use ladders::Game;

use serde_json::Value;

use super::board_args::{BoardArgs, RuleArgs};
use super::output::write_json;
use super::output_args::Digits;

/// The policy a player who chooses follows.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PolicyArgs {
    /// With a choice rule: the player's policy, optimal (least expected turns) or a policy file
    #[arg(long, value_name = "optimal|FILE")]
    pub policy: Option<String>,
}

/// The board of an analysis that also takes a policy: the board with its rule overrides, the
/// policy its player follows when the board has a choice rule, and the digits of its decimals.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub digits: Digits,
}

impl GameArgs {
    /// The board with its overrides as the library's [`Game`]: with `--policy`, its player
    /// following that policy ([`PolicyArgs::load`]); without, a board with a choice rule is
    /// refused.
    pub fn game(&self) -> Result<Game> {
        match self.policy.load(&self.board.rules, &self.board.board)? {
            Some(game) => Ok(game),
            None => self.board.rules.game(&self.board.board),
        }
    }
}

impl PolicyArgs {
    /// With `--policy`, the board `name` (which must have a choice rule) with its player
    /// following that policy; without, `None` (the command loads the board as usual, refusing
    /// a choice rule).
    pub fn load(&self, rules: &RuleArgs, name: &str) -> Result<Option<Game>> {
        let Some(which) = &self.policy else {
            return Ok(None);
        };
        let game = rules.game_with_choices(name)?;
        if game.board().choice().is_none() {
            bail!(
                "{}: --policy is for a board with a choice rule (choose_die, coin, pick or \
                 choose_face), and this board has none",
                game.board().origin()
            );
        }
        Ok(Some(match which.as_str() {
            "optimal" => game.with_optimal_policy()?,
            file => game.with_policy_file(std::path::Path::new(file))?,
        }))
    }
}

/// Writes a command's report for `game` (its player following a policy, or not): with `json`
/// the value `to_json` makes, with a `policy` key naming the policy; else a `Policy` line and
/// the text `to_text` writes.
pub fn write_report(
    out: &mut dyn Write,
    json: bool,
    game: &Game,
    to_json: impl FnOnce() -> Result<Value>,
    to_text: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if json {
        write_json(out, &with_policy(game, to_json()?))?;
    } else {
        policy_line(out, game)?;
        to_text(out)?;
    }
    Ok(())
}

/// A report's JSON `value` with a `policy` key naming the policy `game`'s player follows.
pub fn with_policy(game: &Game, mut value: Value) -> Value {
    if let (Some(name), Some(obj)) = (game.policy_name(), value.as_object_mut()) {
        obj.insert("policy".into(), name.into());
    }
    value
}

/// A text report's first line, `Policy  NAME`, when `game`'s player follows a policy.
pub fn policy_line(out: &mut dyn Write, game: &Game) -> io::Result<()> {
    match game.policy_name() {
        Some(name) => writeln!(out, "Policy           {name}"),
        None => Ok(()),
    }
}
