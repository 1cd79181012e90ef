//! `stud query --diff A B`: how the strategy moved from file A to file B (a locked solve against
//! the solve it was locked from, two solves of different lengths): every row of every decision
//! compared, the biggest moves first. The two files must be of the same game, card abstraction
//! and tree (compared node by node).

use super::spot::describe;
use abstraction::rules::GameDef;
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};
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

/// A decision of the tree both files share: its node, its path from the root in the spot
/// notation, and its children's edges.
struct Decision {
    node: u32,
    spot: String,
    edges: Vec<Edge>,
}

/// Runs `stud query --diff A B`: the `top` biggest moves (every row with `top` 0) in a table,
/// or with `json` one object.
pub(super) fn run(a: &Path, b: &Path, top: usize, json: bool) -> Result<()> {
    let (fa, fb) = (StrategyFile::open(a)?, StrategyFile::open(b)?);
    let (ha, hb) = match (fa.header(), fb.header()) {
        (Some(x), Some(y)) => (x, y),
        _ => bail!("--diff compares heads-up files (a multiway file's rows are not compared yet)"),
    };
    if ha.game != hb.game || ha.card_abstraction != hb.card_abstraction || ha.nodes != hb.nodes {
        let same = if ha.game == hb.game {
            "the same game"
        } else {
            "two games"
        };
        bail!(
            "--diff: {} and {} are not of the same game, card abstraction and tree ({same}; \
             {}, {} nodes against {}, {} nodes)",
            a.display(),
            b.display(),
            ha.card_abstraction,
            ha.nodes,
            hb.card_abstraction,
            hb.nodes
        );
    }
    let mut rows = match (&fa, &fb) {
        (StrategyFile::Public(x), StrategyFile::Public(y)) => public_rows(&ha.game, x, y)?,
        (StrategyFile::Betting(x), StrategyFile::Betting(y)) => betting_rows(&ha.game, x, y)?,
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

/// Every decision of a file's tree in preorder, read through `children` and `is_action` and
/// checked against the other file's children (`other`).
fn decisions(
    children: impl Fn(u32) -> Result<Vec<(u32, Edge)>>,
    other: impl Fn(u32) -> Result<Vec<(u32, Edge)>>,
    is_action: impl Fn(u32) -> Result<bool>,
) -> Result<Vec<Decision>> {
    let mut out = Vec::new();
    let mut stack = vec![(0u32, String::new())];
    while let Some((i, spot)) = stack.pop() {
        let kids = children(i)?;
        if kids != other(i)? {
            bail!("--diff: the two files' trees differ at node {i} (spot \"{spot}\")");
        }
        if is_action(i)? {
            let edges = kids.iter().map(|k| k.1).collect();
            out.push(Decision {
                node: i,
                spot: spot.clone(),
                edges,
            });
        }
        for &(c, e) in kids.iter().rev() {
            let sep = if spot.is_empty() { "" } else { " " };
            stack.push((c, format!("{spot}{sep}{}", describe(e))));
        }
    }
    Ok(out)
}

/// Half the sum of the absolute differences of two rows.
fn moved(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / 2.0
}

/// The rows of two public-tree files: every private card not on the board, at every decision.
fn public_rows(def: &GameDef, a: &PublicFile, b: &PublicFile) -> Result<Vec<Moved>> {
    let action = |i| Ok(a.node(i)?.kind == NodeKind::Action as u8);
    let ds = decisions(|i| a.children(i), |i| b.children(i), action)?;
    let deck: Vec<_> = def.deck.cards().iter().collect();
    let mut rows = Vec::new();
    for d in ds {
        let n = a.node(d.node)?;
        for (h, card) in deck.iter().enumerate() {
            // A card on the board is no hand here.
            if a.bucket(d.node, h as u32).is_err() {
                continue;
            }
            let (pa, pb) = (
                a.probabilities(d.node, h as u32)?,
                b.probabilities(d.node, h as u32)?,
            );
            rows.push(Moved {
                spot: d.spot.clone(),
                street: def.street_name(n.street as usize),
                actor: format!("p{}", n.seat + 1),
                row: card.to_string(),
                actions: d.edges.iter().map(|&e| describe(e)).collect(),
                moved: moved(&pa, &pb),
                a: pa,
                b: pb,
            });
        }
    }
    Ok(rows)
}

/// The rows of two betting-tree files: every row key of every decision.
fn betting_rows(def: &GameDef, a: &BettingFile, b: &BettingFile) -> Result<Vec<Moved>> {
    if a.recall() != b.recall() || a.bucketing().checksum() != b.bucketing().checksum() {
        bail!("--diff: the two files' bucketings or recall differ");
    }
    let action = |i| Ok(a.node(i)?.kind == NodeKind::Action as u8);
    let ds = decisions(|i| a.children(i), |i| b.children(i), action)?;
    let buckets: Vec<u32> = (0..def.streets.len())
        .map(|s| a.bucketing().buckets(s))
        .collect();
    let keys = a.recall().keys(&buckets);
    let mut rows = Vec::new();
    for d in ds {
        let n = a.node(d.node)?;
        let k = n.num_children as usize;
        let (mut pa, mut pb) = (vec![0.0; k], vec![0.0; k]);
        for key in 0..keys[n.street as usize] {
            a.row_into(d.node, key, &mut pa)
                .with_context(|| format!("{} row {key}", d.spot))?;
            b.row_into(d.node, key, &mut pb)?;
            rows.push(Moved {
                spot: d.spot.clone(),
                street: def.street_name(n.street as usize),
                actor: ["first to act", "second to act"][n.role.min(1) as usize].into(),
                row: format!("bucket {key}"),
                actions: d.edges.iter().map(|&e| describe(e)).collect(),
                moved: moved(&pa, &pb),
                a: pa.clone(),
                b: pb.clone(),
            });
        }
    }
    Ok(rows)
}
