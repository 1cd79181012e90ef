//! `stud explore A --diff B`: at a decision, how B's strategy differs from A's, by hand class
//! (each side's chart of `stud query`) and row by row (the rows `stud query --diff` compares:
//! [`solver::strategy_file::diff::betting_node`] heads-up; on a multiway file each bucket's row
//! at the table's decision, as [`solver::query::multiway::answer`] reads it from both files).

use anyhow::{Context, Result};
use serde_json::{json, Value};
use solver::bot::StrategyPlayer;
use solver::query::betting::answer_of;
use solver::query::multiway::answer;
use solver::query::spot::Step;
use solver::strategy_file::diff;
use solver::strategy_file::multiway::MultiwayFile;

/// The numbers of a JSON list.
fn numbers(v: &Value) -> Vec<f64> {
    (v.as_array().into_iter().flatten())
        .filter_map(Value::as_f64)
        .collect()
}

/// The difference at the decision `node` (reached by `spot`) between `a` (whose answer there is
/// `qa`, `answer_of`'s JSON) and `b` (`name`): by hand class, A's and B's mean rows and the mass
/// that moved; by bucket, each row the player's holdings fall in; and the largest move.
pub fn node_diff(
    a: &StrategyPlayer,
    b: &StrategyPlayer,
    name: &str,
    spot: &str,
    node: u32,
    qa: &Value,
) -> Result<Value> {
    if qa["capped"] == true {
        // Past the raise cap the answer is the rules' call, the same in both files.
        return Ok(json!({ "file": name, "capped": true, "classes": [], "buckets": [] }));
    }
    let qb = answer_of(b, spot, None, true)
        .with_context(|| format!("{name} at {spot}"))?
        .json();
    let classes = class_moves(&qa["chart"], &qb["chart"]);
    let (fa, fb) = match (a.file().betting(), b.file().betting()) {
        (Some(x), Some(y)) => (x, y),
        _ => anyhow::bail!("--diff compares betting-tree files"),
    };
    // The buckets the player's holdings fall in here, as A's answer lists them.
    let held: Vec<u64> = (qa["hands"].as_array().into_iter().flatten())
        .filter(|h| h["holdings"].as_u64().unwrap_or(0) > 0)
        .filter_map(|h| h["bucket"].as_u64())
        .collect();
    let rows = diff::betting_node(fa, fb, node)?;
    let largest = rows.iter().map(|r| r.moved).fold(0.0, f64::max);
    let buckets: Vec<Value> = (rows.into_iter())
        .filter(|r| held.contains(&u64::from(r.key)))
        .map(|r| json!({ "bucket": r.key, "a": r.a, "b": r.b, "moved": r.moved }))
        .collect();
    Ok(json!({
        "file": name,
        "capped": false,
        "classes": classes,
        "buckets": buckets,
        "largest_move": largest,
    }))
}

/// A's and B's charts side by side: each hand class the player may hold, with both mean rows
/// and the mass that moved.
fn class_moves(ca: &Value, cb: &Value) -> Vec<Value> {
    let (ca, cb) = (&ca["rows"], &cb["rows"]);
    (ca.as_array().into_iter().flatten())
        .zip(cb.as_array().into_iter().flatten())
        .filter(|(x, _)| x["holdings"].as_u64().unwrap_or(0) > 0)
        .map(|(x, y)| {
            let (pa, pb) = (numbers(&x["probabilities"]), numbers(&y["probabilities"]));
            json!({
                "class": x["class"], "holdings": x["holdings"],
                "a": pa, "b": pb, "moved": diff::moved(&pa, &pb),
            })
        })
        .collect()
}

/// [`node_diff`] at a table's decision (reached by `steps`) of the multiway files `fa` (whose
/// answer there is `qa`, `answer_json`'s with the chart) and `fb` (`name`): by hand class, both
/// charts; by bucket, each row the seat's holdings fall in (the rows `stud query --diff`
/// compares, of this decision and pot class); and the largest move of any bucket's row here.
pub fn table_diff(fb: &MultiwayFile, name: &str, steps: &[Step], qa: &Value) -> Result<Value> {
    if qa["capped"] == true {
        return Ok(json!({ "file": name, "capped": true, "classes": [], "buckets": [] }));
    }
    let b = answer(fb, None, None, steps).with_context(|| format!("{name} at the spot"))?;
    let chart = b
        .chart(fb)
        .context("B's answer lists no bucket's holdings")?;
    let rows_a = qa["hands"].as_array().context("A's rows")?;
    anyhow::ensure!(
        rows_a.len() == b.rows.len(),
        "{name}: another number of buckets here"
    );
    let mut largest = 0.0f64;
    let mut buckets = Vec::new();
    for (x, y) in rows_a.iter().zip(&b.rows) {
        let pa = numbers(&x["probabilities"]);
        let moved = diff::moved(&pa, &y.probs);
        largest = largest.max(moved);
        if x["holdings"].as_u64().unwrap_or(0) > 0 {
            buckets.push(json!({ "bucket": x["bucket"], "a": pa, "b": y.probs, "moved": moved }));
        }
    }
    Ok(json!({
        "file": name,
        "capped": false,
        "classes": class_moves(&qa["chart"], &chart),
        "buckets": buckets,
        "largest_move": largest,
    }))
}
