//! `stud explore` on a multiway file (three to eight seats): a table's decision answered as
//! `stud query FILE SPOT --ranges --json` answers it ([`solver::query::multiway::answer_json`]:
//! every bucket's row with the seat's holdings in it, the strategy by hand class, each live
//! seat's range), the real actions a click takes, and with `--diff B` how B's rows differ
//! ([`super::compare::table_diff`]).

use anyhow::{Context, Result};
use serde_json::Value;
use solver::bot::StrategyPlayer;
use solver::query::multiway::answer_json;
use solver::query::spot::parse_spot;
use solver::strategy_file::StrategyFile;

/// Fills in the decision at `spot` of `player`'s multiway file (played as stored): `query`
/// (the command's answer), `next` (each action's PHH code, in the answer's order) and, with
/// `other` (B and its path as given), `diff`.
pub fn decision(
    player: &StrategyPlayer,
    other: Option<&(StrategyPlayer, String)>,
    spot: &str,
    v: &mut Value,
) -> Result<()> {
    let StrategyFile::Multiway(f) = player.file() else {
        anyhow::bail!("a table's decision reads a multiway file");
    };
    let steps = parse_spot(spot)?;
    let q = answer_json(f, None, None, &steps, Some(player))?;
    // The answer's actions are the real ones already (past the cap: the call).
    v["next"] = q["actions"].clone();
    if let Some((b, name)) = other {
        let StrategyFile::Multiway(fb) = b.file() else {
            anyhow::bail!("--diff: {name} is not a multiway file");
        };
        v["diff"] = super::compare::table_diff(fb, name, &steps, &q)
            .with_context(|| format!("--diff {name}"))?;
    }
    v["query"] = q;
    Ok(())
}
