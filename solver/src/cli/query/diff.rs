//! `stud query --diff A B`: how the strategy moved from file A to file B (a locked solve against
//! the solve it was locked from, two solves of different lengths): every row of every decision
//! compared ([`solver::strategy_file::diff`]), the biggest moves first. The two files must be of
//! the same game, card abstraction and tree (compared node by node). Two multiway files are
//! compared by [`super::diff_multiway`].

use super::spot::describe;
use abstraction::rules::seat_name;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use solver::strategy_file::diff::{self, Decision, RowMove};
use solver::strategy_file::{BettingFile, PublicFile, StrategyFile};
use std::path::Path;

/// One row compared: where it is, and its probabilities in both files.
struct Moved {
    spot: String,
    street: String,
    /// `p1`/`p2` on a public tree; the player first or second to act on a betting tree.
    actor: String,
    /// The private card (public tree) or the bucket.
    row: String,
    actions: Vec<String>,
    a: Vec<f64>,
    b: Vec<f64>,
    /// Half the sum of the absolute changes: the probability mass that moved (0 to 1).
    moved: f64,
}

/// A decision's path in the spot notation.
fn spot_of(d: &Decision) -> String {
    d.path
        .iter()
        .map(|&e| describe(e))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `stud query --diff A B`: the `top` biggest moves (every row with `top` 0) in a table,
/// or with `json` one object.
pub(super) fn run(a: &Path, b: &Path, top: usize, json: bool) -> Result<()> {
    let (fa, fb) = (StrategyFile::open(a)?, StrategyFile::open(b)?);
    let (na, nb) = (a.display().to_string(), b.display().to_string());
    if let (StrategyFile::Multiway(x), StrategyFile::Multiway(y)) = (&fa, &fb) {
        return super::diff_multiway::run((x, &na), (y, &nb), top, json);
    }
    diff::comparable(&fa, &fb, &na, &nb).context("--diff")?;
    let game = fa.game();
    let mut rows = match (&fa, &fb) {
        (StrategyFile::Public(x), StrategyFile::Public(y)) => public_rows(game, x, y)?,
        (StrategyFile::Betting(x), StrategyFile::Betting(y)) => betting_rows(game, x, y)?,
        _ => bail!("--diff: one file is a public tree, the other a betting tree"),
    };
    let compared = rows.len();
    rows.sort_by(|x, y| y.moved.total_cmp(&x.moved));
    let changed = rows.iter().filter(|r| r.moved > 1e-12).count();
    let mean = rows.iter().map(|r| r.moved).sum::<f64>() / compared.max(1) as f64;
    if top > 0 {
        rows.truncate(top);
    }
    if json {
        let v = serde_json::json!({
            "a": a.display().to_string(),
            "b": b.display().to_string(),
            "rows_compared": compared,
            "rows_changed": changed,
            "mean_moved": mean,
            "rows": rows.iter().map(|r| serde_json::json!({
                "spot": r.spot, "street": r.street, "player": r.actor, "row": r.row,
                "actions": r.actions, "a": r.a, "b": r.b, "moved": r.moved,
            })).collect::<Vec<_>>(),
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "{} -> {}: {compared} rows compared, {changed} changed, {:.4} of a row's probability \
         moved on average; the biggest moves first (moved: half the sum of the changes)",
        a.display(),
        b.display(),
        mean
    );
    for r in &rows {
        let fmt = |p: &[f64]| {
            let cells: Vec<String> = r
                .actions
                .iter()
                .zip(p)
                .map(|(n, x)| format!("{n} {x:.3}"))
                .collect();
            cells.join(", ")
        };
        println!(
            "{:.3}  {}, {}, at \"{}\" ({}): {}  ->  {}",
            r.moved,
            r.actor,
            r.row,
            r.spot,
            r.street,
            fmt(&r.a),
            fmt(&r.b)
        );
    }
    Ok(())
}

/// The rows of two public-tree files: every private card not on the board, at every decision.
fn public_rows(def: &GameDef, a: &PublicFile, b: &PublicFile) -> Result<Vec<Moved>> {
    let deck: Vec<_> = def.deck.cards().iter().collect();
    let mut rows = Vec::new();
    for d in diff::public_decisions(a, b).context("--diff")? {
        let n = a.node(d.node)?;
        let spot = spot_of(&d);
        for r in diff::public_node(a, b, d.node)? {
            rows.push(row(
                &d,
                &spot,
                def.street_name(n.street as usize),
                seat_name(n.seat).to_string(),
                deck[r.key as usize].to_string(),
                r,
            ));
        }
    }
    Ok(rows)
}

/// The rows of two betting-tree files: every row key of every decision.
fn betting_rows(def: &GameDef, a: &BettingFile, b: &BettingFile) -> Result<Vec<Moved>> {
    let mut rows = Vec::new();
    for d in diff::betting_decisions(a, b).context("--diff")? {
        let n = a.node(d.node)?;
        let spot = spot_of(&d);
        let actor = ["first to act", "second to act"][n.role.min(1) as usize];
        for r in diff::betting_node(a, b, d.node).with_context(|| spot.clone())? {
            let key = format!("bucket {}", r.key);
            rows.push(row(
                &d,
                &spot,
                def.street_name(n.street as usize),
                actor.into(),
                key,
                r,
            ));
        }
    }
    Ok(rows)
}

/// A row compared, in words.
fn row(d: &Decision, spot: &str, street: String, actor: String, key: String, r: RowMove) -> Moved {
    Moved {
        spot: spot.to_string(),
        street,
        actor,
        row: key,
        actions: d.edges.iter().map(|&e| describe(e)).collect(),
        a: r.a,
        b: r.b,
        moved: r.moved,
    }
}
