//! `stud query --ranges` on a multiway file (three to eight seats): each live seat's range
//! reaching the spot, by hand class and its likeliest holdings, as `--json` writes it.
//!
//! A seat's range is the Bayesian replay of the table ([`replay_seats`], the one the table
//! re-solver and `stud query --values` run) on the file's rows as stored, exactly (a floor of
//! 0): every holding of the seat's down cards, given every up card dealt, weighed by the product
//! of the probabilities of the actions the seat took with it. A class's `share` is its part of
//! the range's weight (the probability of the class given the betting); `holdings` counts the
//! class's holdings the betting leaves possible.

use super::spot::{cards_text, replay, Replayed, Step};
use crate::bot::range::replay_seats;
use crate::bot::StrategyPlayer;
use crate::describe::Classes;
use crate::purify::Purification;
use crate::strategy_file::StrategyFile;
use abstraction::cards::CardSet;
use anyhow::{ensure, Context, Result};
use serde_json::{json, Value};

/// How many holdings of each seat the answer lists, the likeliest first.
pub const TOP_HOLDINGS: usize = 10;

/// Each live seat's range at the decision of `steps` on `player`'s multiway file, played as
/// stored (see the module): a list, one entry per live seat in seat order.
pub fn ranges_json(player: &StrategyPlayer, steps: &[Step]) -> Result<Value> {
    let StrategyFile::Multiway(f) = player.file() else {
        anyhow::bail!("the ranges of a table read a multiway file")
    };
    ensure!(
        player.purification() == Purification::Mixed,
        "a range is weighed by the rows as stored (mixed), not {}",
        player.purification()
    );
    let def = &f.header.game;
    let Replayed { state, bets, .. } = replay(def, steps)?;
    state.to_act().context(
        "--ranges needs a decision with its up cards: give the door cards in the spot, as in \
         `3c 8d Kh`",
    )?;
    let every = (1u16 << def.seats) - 1;
    let r = replay_seats(player, &state, &bets, 0.0, every, |_| false)?;
    ensure!(
        r.read == bets.len(),
        "the ranges' replay stopped before the spot"
    );
    let street = state.street();
    let classes = Classes::of(f.bucketing_at(&state), street);
    let mut seats = Vec::new();
    for (s, range) in r.ranges.iter().enumerate() {
        let seat = s as u8;
        if state.folded(seat) {
            continue;
        }
        let range = range.as_ref().context("a seat's range was not followed")?;
        let up: CardSet = state.up_cards(seat).iter().copied().collect();
        let held = range.holdings();
        let total: f64 = held.iter().map(|h| h.weight).sum();
        let share = |w: f64| if total > 0.0 { w / total } else { 0.0 };
        let mut by_class = vec![(0usize, 0.0f64); classes.names.len()];
        for h in held {
            let c = &mut by_class[classes.classify(h.set, up)];
            c.0 += 1;
            c.1 += h.weight;
        }
        let mut class_rows: Vec<(usize, f64, &str)> = (by_class.iter().zip(&classes.names))
            .filter(|(x, _)| x.0 > 0)
            .map(|(&(n, w), name)| (n, share(w), name.as_str()))
            .collect();
        class_rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut order: Vec<usize> = (0..held.len()).collect();
        order.sort_by(|&a, &b| held[b].weight.total_cmp(&held[a].weight));
        let top: Vec<Value> = (order.iter().take(TOP_HOLDINGS))
            .map(|&i| {
                let h = &held[i];
                json!({
                    "cards": cards_text(h.set),
                    "class": classes.names[classes.classify(h.set, up)],
                    "share": share(h.weight),
                })
            })
            .collect();
        seats.push(json!({
            "seat": seat,
            "showing": cards_text(up),
            "down_cards": range.n(),
            "holdings": held.len(),
            "lost": range.lost(),
            "classes": class_rows
                .iter()
                .map(|&(n, sh, name)| json!({ "class": name, "holdings": n, "share": sh }))
                .collect::<Vec<_>>(),
            "top": top,
        }));
    }
    Ok(Value::Array(seats))
}
