//! A lock resolved on the sampled multiway solver's rows: a street's tree per number of live
//! seats, each decision's rows one per pot class and bucket. A row is a betting position's
//! (the seat first, second, ... to act on the street), whichever seat holds it, so a rule names
//! a `position` (or none: every position), optionally a street, and `buckets` or `classes`;
//! it fixes those buckets in every pot class of every tree of its street.

use super::Rows;
use crate::lock::classes::ClassRows;
use crate::lock::{apply, rule_streets, Actor, Decision, Kind, Lock, Locked, Rule};
use abstraction::multiway_betting::{pot_classes, MultiwayBetting, MwKind};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::GameDef;
use abstraction::tree::Edge;
use anyhow::{bail, Context, Result};

/// Resolves `lock` on the rows `rows` of `betting` (of `def`), whose buckets are `buckets`'
/// (a rule's `classes` read the bucketing of each tree's live seats).
pub fn on_betting(
    lock: &Lock,
    def: &GameDef,
    betting: &MultiwayBetting,
    rows: &Rows,
    buckets: &MultiwayBuckets,
) -> Result<Locked> {
    let mut locked = Locked::empty(betting.nodes.len(), rows.slots);
    let mut decisions = Vec::new();
    let mut live_of = vec![0u8; betting.nodes.len()];
    for (ti, t) in betting.trees.iter().enumerate() {
        live_of[t.root as usize..t.end as usize].fill(t.live);
        for i in t.root as usize..t.end as usize {
            let n = &betting.nodes[i];
            if n.kind != MwKind::Action {
                continue;
            }
            let kinds: Vec<Kind> = (betting.children(i))
                .map(|c| match betting.edges[c] {
                    Edge::Action(a) => Kind::of(a),
                    _ => Kind::CheckCall,
                })
                .collect();
            decisions.push(Decision {
                node: i,
                actor: n.role,
                street: t.street as usize,
                path: Vec::new(),
                kinds,
                first_slot: rows.base[ti] + n.index as usize,
                stride: t.actions as usize,
            });
        }
    }
    for rule in &lock.rules {
        let at = || format!("{} line {}", lock.source, rule.line);
        check(rule, def, rows).with_context(at)?;
        let class_rows = ClassRows::new(&rule.classes);
        if !rule.classes.is_empty() {
            let streets = rule_streets(def, rule).with_context(at)?;
            let b = buckets.for_live(def.seats as usize);
            class_rows
                .check(b, |s| def.street_name(s), &streets)
                .with_context(at)?;
        }
        let rows_of = |d: &Decision| -> Result<Vec<u32>> {
            let n = rows.buckets[d.street];
            let chosen: Vec<u32> = if !rule.classes.is_empty() {
                let live = live_of[d.node] as usize;
                class_rows.buckets(buckets.for_live(live), live, d.street)?
            } else if !rule.buckets.is_empty() {
                rule.buckets.clone()
            } else {
                (0..n).collect()
            };
            Ok((0..pot_classes(d.street))
                .flat_map(|class| chosen.iter().map(move |&b| class * n + b))
                .collect())
        };
        let actor = Actor::Role(rule.role);
        apply(&mut locked, def, &decisions, rule, actor, rows_of).with_context(at)?;
    }
    Ok(locked)
}

/// Refuses what the sampled multiway rows cannot say: a seat (the rows are a position's), a
/// private hand or a spot, a bucket past the street's.
fn check(rule: &Rule, def: &GameDef, rows: &Rows) -> Result<()> {
    if rule.seat.is_some() {
        bail!(
            "`player`: the sampled multiway solver's rows are one strategy for every seat, by its \
             position on the street (the up cards): give `position = \"first\"`, \"second\", \
             ..., or none for every position"
        );
    }
    if !rule.hands.is_empty() {
        bail!(
            "`hands`: the sampled multiway solver's rows are buckets: give `buckets` or `classes`"
        );
    }
    if rule.spot.is_some() {
        bail!("`spot`: the sampled multiway solver locks a position's rows by street, buckets or classes");
    }
    for s in rule_streets(def, rule)? {
        if let Some(&b) = rule.buckets.iter().find(|&&b| b >= rows.buckets[s]) {
            bail!(
                "`buckets`: bucket {b} of {} on {}",
                rows.buckets[s],
                def.street_name(s)
            );
        }
    }
    Ok(())
}
