//! What `stud query --ranges` adds at a decision of a real game's strategy, and what `stud
//! explore` draws from it: the strategy of the player to act by hand class, and each seat's
//! range reaching the spot by hand class and by bucket.
//!
//! A seat's range is the Bayesian replay of [`crate::bot::range`] (the one LBR and endgame
//! re-solving run) on the file's rows as stored ([`Purification::Mixed`]), exactly (a floor of
//! 0): every holding of the seat's down cards, given the up cards dealt, weighed by the product
//! of the probabilities of the actions the seat took with it. For a class (or a bucket) of this
//! street, `reach` is the mean of that product over the class's holdings, the probability of
//! the betting so far given the class; `share` is the class's part of the range's weight, the
//! probability of the class given the betting.

use crate::bot::range::replay;
use crate::bot::{Bet, StrategyPlayer};
use crate::describe::Classes;
use crate::purify::Purification;
use abstraction::bucketing::Bucketing;
use abstraction::cards::CardSet;
use abstraction::rules::State;
use anyhow::{ensure, Context, Result};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The strategy of the player to act by hand class: for each class of `street` (the player
/// showing `up`), how many of its holdings there are (`held[bucket]`: the holdings of each
/// bucket) and the mean over them of their bucket's row (`row(bucket)`, `actions` long).
pub fn class_chart(
    b: &Bucketing,
    street: usize,
    up: CardSet,
    held: &[Vec<CardSet>],
    actions: usize,
    row: impl Fn(usize) -> Option<Vec<f64>>,
) -> Value {
    let classes = Classes::of(b, street);
    let mut sum = vec![vec![0.0; actions]; classes.names.len()];
    let mut count = vec![0usize; classes.names.len()];
    for (bucket, hands) in held.iter().enumerate() {
        let probs = row(bucket).unwrap_or_default();
        for &down in hands {
            let c = classes.classify(down, up);
            count[c] += 1;
            for (s, p) in sum[c].iter_mut().zip(&probs) {
                *s += p;
            }
        }
    }
    let rows: Vec<Value> = classes
        .names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let n = count[c];
            let mean: Vec<f64> = sum[c].iter().map(|s| s / n.max(1) as f64).collect();
            json!({ "class": name, "holdings": n, "probabilities": mean })
        })
        .collect();
    json!({ "rows": rows, "holdings": count.iter().sum::<usize>() })
}

/// Each seat's range reaching the decision `state` (reached by `bets`), played by `player`
/// with its rows as stored: a list of two, seat 0's then seat 1's (see the module).
/// `held_to_act`: the holdings by bucket of the player to act, when the caller has them.
pub fn seat_ranges(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    held_to_act: Option<&[Vec<CardSet>]>,
) -> Result<Value> {
    ensure!(
        player.purification() == Purification::Mixed,
        "a range is weighed by the rows as stored (mixed), not {}",
        player.purification()
    );
    let f = player.file();
    let b = f
        .betting()
        .context("a betting-tree file without its bucketing")?
        .bucketing();
    let street = state.street();
    let r = replay(player, state, bets, 0.0, |_| false)?;
    ensure!(
        r.read == bets.len() && r.state.street() == street,
        "the range's replay stopped before the spot"
    );
    let classes = Classes::of(b, street);
    let to_act = state.to_act();
    let mut seats = Vec::new();
    for seat in 0..2u8 {
        let range = &r.ranges[seat as usize];
        let up: CardSet = state.up_cards(seat).iter().copied().collect();
        let opp: CardSet = state.up_cards(1 - seat).iter().copied().collect();
        let own;
        let held = match held_to_act {
            Some(h) if to_act == Some(seat) => h,
            _ => {
                own = crate::describe::holdings(b, street, up, opp)?;
                &own[..]
            }
        };
        let weight: HashMap<u64, f64> = range
            .holdings()
            .iter()
            .map(|h| (h.set.0, h.weight))
            .collect();
        let mut by_class = vec![(0usize, 0.0f64); classes.names.len()];
        let mut by_bucket = vec![(0usize, 0.0f64); held.len()];
        for (bucket, hands) in held.iter().enumerate() {
            for down in hands {
                let w = weight.get(&down.0).copied().unwrap_or(0.0);
                let c = &mut by_class[classes.classify(*down, up)];
                c.0 += 1;
                c.1 += w;
                by_bucket[bucket].0 += 1;
                by_bucket[bucket].1 += w;
            }
        }
        let holdings: usize = by_bucket.iter().map(|x| x.0).sum();
        ensure!(
            holdings > 0 && range.n() == b.shape().downs[street] as usize,
            "p{}'s range does not hold this street's down cards",
            seat + 1
        );
        let total: f64 = by_bucket.iter().map(|x| x.1).sum();
        let row = |(n, w): (usize, f64)| {
            json!({
                "holdings": n,
                "reach": if n > 0 { w / n as f64 } else { 0.0 },
                "share": if total > 0.0 { w / total } else { 0.0 },
            })
        };
        let class_rows: Vec<Value> = by_class
            .iter()
            .zip(&classes.names)
            .map(|(&x, name)| {
                let mut v = row(x);
                v["class"] = name.as_str().into();
                v
            })
            .collect();
        let bucket_rows: Vec<Value> = by_bucket
            .iter()
            .enumerate()
            .filter(|(_, x)| x.0 > 0)
            .map(|(bucket, &x)| {
                let mut v = row(x);
                v["bucket"] = bucket.into();
                v
            })
            .collect();
        seats.push(json!({
            "seat": seat,
            "holdings": holdings,
            "reach": total / holdings as f64,
            "lost": range.lost(),
            "classes": class_rows,
            "buckets": bucket_rows,
        }));
    }
    Ok(Value::Array(seats))
}

#[cfg(test)]
mod tests {
    use crate::bot::StrategyPlayer;
    use crate::cli::query::betting_json;
    use crate::purify::Purification;
    use crate::strategy_file::StrategyFile;
    use serde_json::Value;

    fn numbers(v: &Value) -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    }

    #[test]
    fn a_range_after_one_action_weighs_each_bucket_by_its_row() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-hu.strat");
        let def = StrategyFile::open(std::path::Path::new(path))
            .unwrap()
            .header()
            .game
            .clone();
        let player = StrategyPlayer::open(path, &def)
            .unwrap()
            .with_purification(Purification::Mixed);
        // p1 brings in with the 3c: each of its buckets is in the range by its row's
        // probability of the bring-in at the decision before.
        let before = betting_json(&player, "3c 8d", None, false).unwrap();
        assert_eq!(before["actions"][0], "pb");
        let at = betting_json(&player, "3c 8d pb", None, true).unwrap();
        let ranges = at["ranges"].as_array().unwrap();
        let p1 = &ranges[0];
        let buckets = p1["buckets"].as_array().unwrap();
        assert!(buckets.len() > 10);
        for b in buckets {
            let bucket = b["bucket"].as_u64().unwrap() as usize;
            let row = numbers(&before["hands"][bucket]["probabilities"]);
            let reach = b["reach"].as_f64().unwrap();
            assert!(
                (reach - row[0]).abs() < 1e-9,
                "bucket {bucket}: {reach} vs {row:?}"
            );
        }
        // p2 has not acted: every class is in whole, each by its number of holdings.
        let p2 = &ranges[1];
        let total = p2["holdings"].as_f64().unwrap();
        assert_eq!(p2["reach"], 1.0);
        for c in p2["classes"].as_array().unwrap() {
            let n = c["holdings"].as_f64().unwrap();
            if n > 0.0 {
                assert_eq!(c["reach"], 1.0);
            }
            assert!((c["share"].as_f64().unwrap() - n / total).abs() < 1e-12);
        }
        for r in ranges {
            let shares: f64 = r["classes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["share"].as_f64().unwrap())
                .sum();
            assert!((shares - 1.0).abs() < 1e-9);
            assert_eq!(r["lost"], false);
        }
        // The chart counts each of p2's holdings once.
        assert_eq!(at["chart"]["holdings"], p2["holdings"]);
    }
}
