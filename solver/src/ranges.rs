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
use abstraction::rules::seat_name;
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
            "{}'s range does not hold this street's down cards",
            seat_name(seat)
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
