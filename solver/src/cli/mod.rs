//! The subcommands of the `stud` binary, one module each.

pub mod abstraction;
pub mod aggregate;
pub mod aggregate_later;
pub mod args;
pub mod completions;
pub mod convert;
pub mod eval;
pub mod eval_multiway;
pub mod eval_resolve;
pub mod explore;
pub mod export;
pub mod hand;
pub mod info;
pub mod ladder;
pub mod matches;
pub mod play;
pub(crate) mod play_train;
pub mod query;
pub mod replay;
pub mod report;
pub mod review;
pub mod review_page;
pub mod serve;
pub mod simulate;
pub mod solve;
mod solve_text;
mod solve_watch;

use ::abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};

/// Which solver a command runs (`--solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverKind {
    /// The exact solver (the CFR family, vectors over the private hands) on the public tree:
    /// the walkable games.
    Tree,
    /// The real games' mini-batch deal-sampled CFR+ on the betting tree.
    Deal,
}

/// The game a command plays with `players` (bot names or strategy files): the game the
/// strategy files record (the header holds the whole definition: stakes, stacks, rules), which
/// `--game` may repeat but not contradict; `--game` alone when no file is given; else
/// `default`. Two files solved for different games, or a `--game` that differs from a file's,
/// are refused, naming both and what differs.
pub fn game_for(game: Option<&str>, players: &[&str], default: &str) -> Result<GameDef> {
    let asked = game.map(solver::input::load_game).transpose()?;
    let mut found: Option<(GameDef, &str)> = None;
    for &spec in players {
        // A bot has no game of its own; any other spec names a file and how it is played, and
        // a bad one is refused here, before its game is guessed (`FILE:thresh=2`).
        if solver::bot::BOT_NAMES.contains(&spec) {
            continue;
        }
        let (p, _) = solver::players::strategy_spec(spec)?;
        let path = std::path::Path::new(p);
        let g = solver::strategy_file::StrategyFile::open(path)?
            .game()
            .clone();
        if let Some((other, name)) = &found {
            if *other != g {
                bail!(
                    "{name} and {p} were solved for different games ({}): give each its own match",
                    game_difference(other, &g)
                );
            }
        }
        if let Some(a) = &asked {
            if *a != g {
                bail!(
                    "--game {} is not the game {p} was solved for ({}): leave --game out to play the file's game",
                    game.unwrap_or_default(),
                    game_difference(a, &g)
                );
            }
        }
        found.get_or_insert((g, p));
    }
    match (found, asked) {
        (Some((g, _)), _) => Ok(g),
        (None, Some(a)) => Ok(a),
        (None, None) => solver::input::load_game(default),
    }
}

/// What differs between two games, as `key: a vs b`: the variant name alone can be the same
/// (7stud under two rules profiles).
fn game_difference(a: &GameDef, b: &GameDef) -> String {
    let (Ok(serde_json::Value::Object(x)), Ok(serde_json::Value::Object(y))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return format!("{} vs {}", a.variant, b.variant);
    };
    let diffs: Vec<String> = x
        .iter()
        .filter(|(k, v)| y.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: {v} vs {}",
                y.get(k).unwrap_or(&serde_json::Value::Null)
            )
        })
        .collect();
    diffs.join(", ")
}

/// The street (0-based) that `--street` names in `def`: a number of cards as players say it
/// (`5`, `5th`, `5th street`: [`GameDef::street_named`]).
pub fn street_of(def: &GameDef, s: &str) -> Result<usize> {
    let n = def.streets.len();
    def.street_named(s).with_context(|| {
        format!(
            "--street {s}: {} has {} to {}",
            def.variant.name(),
            def.street_name(0),
            def.street_name(n - 1)
        )
    })
}

/// The progress bar of `deals` deals on standard error, with the time left, as `stud solve`
/// shows its iterations. Shown with `--json` too (the answer is on standard output, a long run
/// is otherwise silent until its end); indicatif draws nothing where standard error is not a
/// terminal, so that nothing but the answer reaches a pipe or a log.
pub fn deals_bar(deals: u64) -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new(deals);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} deals, {eta} left {msg}",
        )
        .expect("a valid template"),
    );
    b
}

pub use ::abstraction::rules::notation::action_words;
