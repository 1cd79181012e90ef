//! A lock resolved on the whole game tree of a walkable game of three to eight seats (the exact
//! multiway solver's): each information set is one row (every deal apart), a seat's, so a rule
//! names a `player`, optionally a street and the seat's down cards (`hands`).
//!
//! A rule with a `spot` (`stud query`'s notation at a table, as the sampled solver's lock reads
//! it: the up cards as dealt, p1's first, then the betting) fixes the decision the spot
//! reaches: every information set of the seat to act whose public events are the spot's (one
//! per holding of its down cards), or those of the `hands` named.

use crate::lock::spot::replay;
use crate::lock::Rule;
use crate::lock::{apply, at_spot, parse_spot, rule_streets, Actor, Decision, Kind, Lock, Locked};
use crate::spot::Step;
use abstraction::cards::{parse_cards, CardSet, Rank};
use abstraction::history_tree::{Event, HistoryKind, HistoryTree, Move, Seen};
use abstraction::rules::GameDef;
use anyhow::{anyhow, bail, Context, Result};

/// Resolves `lock` on `tree` (of `def`): the flags are per information set, the slots the
/// tree's.
pub fn on_history(lock: &Lock, def: &GameDef, tree: &HistoryTree) -> Result<Locked> {
    let mut locked = Locked::empty(tree.infosets.len(), tree.num_slots);
    let decisions = decisions(tree);
    for rule in &lock.rules {
        let at = || format!("{} line {}", lock.source, rule.line);
        check(rule, def).with_context(at)?;
        let seat = rule.seat.expect("checked");
        if let Some(spot) = &rule.spot {
            fix_spot(&mut locked, def, tree, &decisions, rule, spot).with_context(at)?;
            continue;
        }
        let rows = |d: &Decision| -> Result<Vec<u32>> {
            let cards = tree.seen[d.node].cards;
            Ok(if hands_name(&rule.hands, cards)? {
                vec![0]
            } else {
                Vec::new()
            })
        };
        apply(&mut locked, def, &decisions, rule, Actor::Seat(seat), rows).with_context(at)?;
    }
    Ok(locked)
}

/// Refuses what the whole game tree's rows cannot say: a role, buckets or classes (every
/// deal is apart), a seat past the table.
fn check(rule: &Rule, def: &GameDef) -> Result<()> {
    match rule.seat {
        None => bail!(
            "`player`: whose rows, p1 to p{} (each seat's rows are its own)",
            def.seats
        ),
        Some(s) if s >= def.seats => {
            bail!("`player = {}`: this game has {} seats", s + 1, def.seats)
        }
        Some(_) => {}
    }
    if rule.role.is_some() {
        bail!("`position` is for the sampled solvers' rows; here a seat's rows are its own: name the `player`");
    }
    if !rule.buckets.is_empty() || !rule.classes.is_empty() {
        bail!(
            "`buckets`, `classes`: the exact multiway solver deals every hand apart; name `hands`"
        );
    }
    rule_streets(def, rule).map(drop)
}

/// Fixes the rows of `rule` at its `spot`: every information set of the rule's seat whose
/// public events are the spot's (of the `hands` named). Refuses a spot where another seat
/// acts, on another street than the rule's, an action named that is not legal there, and a
/// spot the tree does not reach (its betting abstraction dropped an action of it).
fn fix_spot(
    locked: &mut Locked,
    def: &GameDef,
    tree: &HistoryTree,
    decisions: &[Decision],
    rule: &Rule,
    spot: &str,
) -> Result<()> {
    let steps = parse_spot(spot)?;
    let at = replay(def, &steps)?;
    let street = at.state.street();
    if !rule_streets(def, rule)?.contains(&street) {
        bail!(
            "`street`: the spot {spot:?} is on {}, not {}",
            def.street_name(street),
            rule.street.as_deref().unwrap_or_default()
        );
    }
    let seat = rule.seat.expect("checked");
    let (mut found, mut fixed) = (0, 0);
    for (d, seen) in decisions.iter().zip(&tree.seen) {
        if d.actor != seat || !events_are(seen, &steps) {
            continue;
        }
        if found == 0 {
            at_spot(d, rule, Actor::Seat(seat))?;
        }
        found += 1;
        if hands_name(&rule.hands, seen.cards)? {
            locked.fix(d, 0, rule);
            fixed += 1;
        }
    }
    if found == 0 {
        let to_act = at.state.to_act().expect("a decision");
        if to_act != seat {
            bail!("`spot`: p{} acts there, not p{}", to_act + 1, seat + 1);
        }
        bail!("`spot`: the game tree has no decision there (its betting abstraction drops an action of the spot)");
    }
    if fixed == 0 {
        bail!(
            "the rule fixes no row: p{} holds none of the `hands` named at its spot",
            seat + 1
        );
    }
    Ok(())
}

/// Whether the public events `seen` are the spot's `steps` (its seat prefixes checked on the
/// rules engine and read past): each card in turn, each action by its kind.
fn events_are(seen: &Seen, steps: &[Step]) -> bool {
    let mut steps = steps.iter().filter(|s| !matches!(s, Step::Seat(_)));
    let mut events = seen.events();
    loop {
        match (events.next(), steps.next()) {
            (None, None) => return true,
            (Some(Event::Up { card, .. } | Event::Community(card)), Some(Step::Card(c))) => {
                if card != *c {
                    return false;
                }
            }
            (Some(Event::Act { kind, .. }), Some(Step::Exact(a))) => {
                if kind != Move::of(*a) {
                    return false;
                }
            }
            (Some(Event::Act { kind, .. }), Some(Step::AnyRaise)) => {
                if kind != Move::CompleteBetRaise {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// Whether the down cards `cards` are among `hands` (every hand when none is named): a hand is
/// the down cards written together (`Ks`, `KsQh`), or a rank alone (`K`): a down card of it.
fn hands_name(hands: &[String], cards: CardSet) -> Result<bool> {
    if hands.is_empty() {
        return Ok(true);
    }
    for h in hands {
        if let Ok(named) = parse_cards(h) {
            if named.iter().copied().collect::<CardSet>() == cards {
                return Ok(true);
            }
            continue;
        }
        let rank = Rank::parse(h.trim()).ok_or_else(|| {
            anyhow!("`hands`, {h:?}: neither cards (`Ks`, `KsQh`) nor a rank (`K`)")
        })?;
        if cards.iter().any(|c| c.rank() == rank) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Every information set as a decision (its index standing for the node), in index order,
/// with its street: the chance nodes that follow an action open the next one.
fn decisions(tree: &HistoryTree) -> Vec<Decision> {
    let mut street = vec![0u8; tree.nodes.len()];
    let mut of_set: Vec<Option<usize>> = vec![None; tree.infosets.len()];
    // Children are numbered after their parent: one pass in index order sets every street.
    for (i, n) in tree.nodes.iter().enumerate() {
        for c in n.children() {
            let opens = n.kind == HistoryKind::Action && tree.nodes[c].kind == HistoryKind::Chance;
            street[c] = street[i] + opens as u8;
        }
        if n.kind == HistoryKind::Action {
            of_set[n.index as usize].get_or_insert(street[i] as usize);
        }
    }
    (tree.infosets.iter().enumerate())
        .map(|(i, set)| {
            let first = set.first_slot as usize;
            let kinds: Vec<Kind> = tree.actions[first..first + set.actions as usize]
                .iter()
                .map(|&a| Kind::of(a))
                .collect();
            Decision {
                node: i,
                actor: set.seat,
                street: of_set[i].unwrap_or(0),
                path: Vec::new(),
                stride: kinds.len(),
                kinds,
                first_slot: first,
            }
        })
        .collect()
}
