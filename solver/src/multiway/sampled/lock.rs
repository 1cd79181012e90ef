//! A lock resolved on the sampled multiway solver's rows: a street's tree per number of live
//! seats, each decision's rows one per pot class and bucket. A row is a betting position's
//! (the seat first, second, ... to act on the street), whichever seat holds it, so a rule names
//! a `position` (or none: every position), optionally a street, and `buckets` or `classes`;
//! it fixes those buckets in every pot class of every tree of its street.
//!
//! A rule with a `spot` (`stud query`'s notation for a multiway file: the up cards as dealt,
//! p1's first, then the betting) fixes the one decision the spot reaches, as `stud query`
//! finds it (the street's tree by the seats that began it, the node by the street's betting,
//! the pot class by the pot that entered it): its rows of that pot class, every bucket or the
//! `buckets`, `classes` or `hands` named. A hand there is the down cards of the seat to act
//! (`AsAd`), its bucket that of its view at the spot, as the solver and the file's player
//! bucket it.

use super::Rows;
use crate::lock::classes::ClassRows;
use crate::lock::spot::{replay, AtSpot};
use crate::lock::{apply, at_spot, parse_spot, rule_streets, Actor, Decision, Kind, Lock};
use crate::lock::{Locked, Rule};
use abstraction::cards::{parse_distinct_cards, CardSet};
use abstraction::multiway_betting::{pot_classes, MultiwayBetting, MwKind};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::seat_name;
use abstraction::rules::{GameDef, State};
use abstraction::tree::Edge;
use anyhow::{anyhow, bail, Context, Result};

/// Resolves `lock` on the rows `rows` of `betting` (of `def`), whose buckets are `buckets`'
/// (a rule's `classes` read the bucketing of the seats live at each decision, as the solver's
/// traversals and the file's player bucket it).
pub fn on_betting(
    lock: &Lock,
    def: &GameDef,
    betting: &MultiwayBetting,
    rows: &Rows,
    buckets: &MultiwayBuckets,
) -> Result<Locked> {
    let mut locked = Locked::empty(betting.nodes.len(), rows.slots);
    let mut decisions = Vec::new();
    for (ti, t) in betting.trees.iter().enumerate() {
        for i in t.root as usize..t.end as usize {
            if betting.nodes[i].kind == MwKind::Action {
                decisions.push(decision(betting, rows, ti, i));
            }
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
        if rule.spot.is_some() {
            let at_spot = AtRule {
                def,
                betting,
                rows,
                buckets,
                rule,
                class_rows: &class_rows,
            };
            at_spot.fix(&mut locked).with_context(at)?;
            continue;
        }
        let rows_of = |d: &Decision| -> Result<Vec<u32>> {
            let n = rows.buckets[d.street];
            let chosen: Vec<u32> = if !rule.classes.is_empty() {
                // The bucketing of the seats live at the decision, as the solver buckets it
                // (not of those that began the street: a seat may have folded since).
                let live = betting.nodes[d.node].live.count_ones() as usize;
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

/// Decision node `i` of tree `ti` as a rule sees it: its role, street, actions, and its rows at
/// the layout's slots (row `class × buckets + bucket` of the tree's rows).
fn decision(betting: &MultiwayBetting, rows: &Rows, ti: usize, i: usize) -> Decision {
    let (t, n) = (&betting.trees[ti], &betting.nodes[i]);
    let kinds: Vec<Kind> = (betting.children(i))
        .map(|c| match betting.edges[c] {
            Edge::Action(a) => Kind::of(a),
            _ => Kind::CheckCall,
        })
        .collect();
    Decision {
        node: i,
        actor: n.role,
        street: t.street as usize,
        path: Vec::new(),
        kinds,
        first_slot: rows.base[ti] + n.index as usize,
        stride: t.actions as usize,
    }
}

/// A rule with a spot, and what it is resolved against.
struct AtRule<'a> {
    def: &'a GameDef,
    betting: &'a MultiwayBetting,
    rows: &'a Rows,
    buckets: &'a MultiwayBuckets,
    rule: &'a Rule,
    class_rows: &'a ClassRows<'a>,
}

impl AtRule<'_> {
    /// Fixes the rows of the decision the rule's spot reaches, in the pot class it enters the
    /// street with: every bucket, or those its `buckets`, `classes` or `hands` name.
    fn fix(&self, locked: &mut Locked) -> Result<()> {
        let (rule, def) = (self.rule, self.def);
        let spot = rule.spot.as_deref().expect("a rule with a spot");
        let AtSpot { state, bets } = replay(def, &parse_spot(spot)?)?;
        let street = state.street();
        if !rule_streets(def, rule)?.contains(&street) {
            bail!(
                "`street`: the spot {spot:?} is on {}, not {}",
                def.street_name(street),
                rule.street.as_deref().unwrap_or_default()
            );
        }
        let found = (self.betting.locate(&state, &bets))
            .map_err(|e| anyhow!("`spot`: its betting has no place in the abstraction: {e}"))?;
        if self.betting.nodes[found.node as usize].kind != MwKind::Action {
            bail!(
                "`spot`: past the raise cap: the abstract street has closed there (the strategy \
                 calls)"
            );
        }
        let d = decision(
            self.betting,
            self.rows,
            found.tree as usize,
            found.node as usize,
        );
        at_spot(&d, rule, Actor::Role(rule.role))?;
        let n = self.rows.buckets[street];
        let chosen = self.buckets_at(&state, n)?;
        if chosen.is_empty() {
            bail!("the rule fixes no row: no bucket at its spot is of the classes named");
        }
        for b in chosen {
            locked.fix(&d, u32::from(found.pot_class) * n + b, rule);
        }
        Ok(())
    }

    /// The buckets the rule names at `state` (its spot's decision), of `n` on the street.
    fn buckets_at(&self, state: &State, n: u32) -> Result<Vec<u32>> {
        let rule = self.rule;
        let street = state.street();
        let live = state.live().count_ones() as usize;
        let bucketing = self.buckets.for_live(live);
        if !rule.classes.is_empty() {
            return self.class_rows.buckets(bucketing, live, street);
        }
        if !rule.buckets.is_empty() {
            return Ok(rule.buckets.clone());
        }
        if rule.hands.is_empty() {
            return Ok((0..n).collect());
        }
        let seat = state.to_act().expect("a decision");
        let down_cards = state.down_cards(seat).len();
        let table = (0..state.def().seats).fold(CardSet::EMPTY, |t, s| {
            t.union(state.up_cards(s).iter().copied().collect())
        });
        let mut out = Vec::new();
        for h in &rule.hands {
            let cards = parse_distinct_cards(h).map_err(|e| {
                anyhow!("`hands`, {h:?}: the down cards of {}: {e}", seat_name(seat))
            })?;
            if cards.len() != down_cards {
                bail!(
                    "`hands`, {h:?}: {} holds {down_cards} down cards at this spot",
                    seat_name(seat)
                );
            }
            if let Some(c) = cards.iter().find(|&&c| table.contains(c)) {
                bail!("`hands`, {h:?}: {c} is dealt face up at this spot");
            }
            let down: CardSet = cards.iter().copied().collect();
            let view = (self.buckets.view_at(state, seat, down)).context("no live opponent")?;
            let b = bucketing
                .bucket_table(&view)
                .with_context(|| format!("`hands`, {h:?}"))?;
            if !out.contains(&b) {
                out.push(b);
            }
        }
        Ok(out)
    }
}

/// Refuses what the sampled multiway rows cannot say: a seat (the rows are a position's), a
/// private hand without a spot, a bucket past the street's.
fn check(rule: &Rule, def: &GameDef, rows: &Rows) -> Result<()> {
    if rule.seat.is_some() {
        bail!(
            "`player`: the sampled multiway solver's rows are one strategy for every seat, by its \
             position on the street (the up cards): give `position = \"first\"`, \"second\", \
             ..., or none for every position"
        );
    }
    if !rule.hands.is_empty() && rule.spot.is_none() {
        bail!(
            "`hands`: the sampled multiway solver's rows are buckets: give `buckets` or \
             `classes`, or a `spot`, whose up cards put a hand in its bucket"
        );
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
