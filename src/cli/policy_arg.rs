//! `--policy optimal|FILE` for the analyses of a board with a choice rule (`expect`,
//! `distribution`, `shortest`, `simulate`, `check`): the player follows that policy, so the game
//! is an ordinary chain over squares ([`ladders::choice::PolicyModel`]). [`GameArgs`] is the
//! board with its overrides, the policy and `--digits`, as `expect`, `distribution` and `shortest` take them.

use std::io::{self, Write};

use anyhow::{anyhow, bail, Result};
use ladders::board::Board;
use ladders::choice::{optimize, policy_file, Game, Policy, PolicyModel};

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
    /// With `--policy`, the board and its policy ([`PolicyArgs::load`]); without, `None`.
    pub fn chosen(&self) -> Result<Option<Chosen>> {
        self.policy.load(&self.board.rules, &self.board.board)
    }
}

/// A board with a choice rule and the policy its player follows.
pub struct Chosen {
    /// The board.
    pub board: Board,
    /// Its decision process.
    pub game: Game,
    /// The policy.
    pub policy: Policy,
    /// `optimal` or the policy file's name.
    pub name: String,
}

impl Chosen {
    /// The game played by the policy, as a turn model.
    pub fn model(&self) -> PolicyModel<'_> {
        PolicyModel::new(&self.board, &self.game, &self.policy)
    }
}

impl PolicyArgs {
    /// With `--policy`, the board `name` (which must have a choice rule) and its policy; without,
    /// `None` (the command loads the board as usual, refusing a choice rule).
    pub fn load(&self, rules: &RuleArgs, name: &str) -> Result<Option<Chosen>> {
        let Some(which) = &self.policy else {
            return Ok(None);
        };
        let board = rules.load_with_choices(name)?;
        let Some(game) = Game::new(&board) else {
            bail!(
                "{}: --policy is for a board with a choice rule (choose_die, coin, pick or \
                 choose_face), and this board has none",
                board.origin()
            );
        };
        let policy = if which == "optimal" {
            optimize(&game)
                .map_err(|s| {
                    anyhow!(
                        "{}: from square {s} no choice ever reaches the finish: no policy ends the game",
                        board.origin()
                    )
                })?
                .policy
        } else {
            let file = policy_file::load(std::path::Path::new(which))?;
            file.policy(&game)?
        };
        Ok(Some(Chosen {
            board,
            game,
            policy,
            name: which.clone(),
        }))
    }
}

/// Writes a command's report for the board `chosen` plays (or the plain board): with `json` the
/// value `to_json` makes, with a `policy` key naming the policy; else a `Policy` line and the
/// text `to_text` writes.
pub fn write_report(
    out: &mut dyn Write,
    json: bool,
    chosen: Option<&Chosen>,
    to_json: impl FnOnce() -> Result<Value>,
    to_text: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if json {
        let mut value = to_json()?;
        if let (Some(c), Some(obj)) = (chosen, value.as_object_mut()) {
            obj.insert("policy".into(), c.name.clone().into());
        }
        write_json(out, &value)?;
    } else {
        if let Some(c) = chosen {
            writeln!(out, "Policy           {}", c.name)?;
        }
        to_text(out)?;
    }
    Ok(())
}
