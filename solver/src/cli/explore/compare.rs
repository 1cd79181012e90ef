//! `stud explore A --diff B`: at a decision, how B's strategy differs from A's, by hand class
//! (each side's chart of `stud query`) and row by row (the rows `stud query --diff` compares,
//! [`solver::strategy_file::diff::betting_node`]).

use anyhow::{Context, Result};
use serde_json::{json, Value};
use solver::bot::StrategyPlayer;
use solver::query::betting::answer_of;
use solver::strategy_file::diff;

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
    let (ca, cb) = (&qa["chart"]["rows"], &qb["chart"]["rows"]);
    let classes: Vec<Value> = (ca.as_array().into_iter().flatten())
        .zip(cb.as_array().into_iter().flatten())
        .filter(|(x, _)| x["holdings"].as_u64().unwrap_or(0) > 0)
        .map(|(x, y)| {
            let (pa, pb) = (numbers(&x["probabilities"]), numbers(&y["probabilities"]));
            json!({
                "class": x["class"], "holdings": x["holdings"],
                "a": pa, "b": pb, "moved": diff::moved(&pa, &pb),
            })
        })
        .collect();
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
