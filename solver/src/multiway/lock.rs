//! A lock resolved on the whole game tree of a walkable game of three to eight seats (the exact
//! multiway solver's): each information set is one row (every deal apart), a seat's, so a rule
//! names a `player`, optionally a street and the seat's down cards (`hands`).

use crate::lock::{apply, rule_streets, Actor, Decision, Kind, Lock, Locked, Rule};
use abstraction::cards::{parse_cards, CardSet, Rank};
use abstraction::history_tree::{HistoryKind, HistoryTree};
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
/// deal is apart), a spot, a seat past the table.
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
    if rule.spot.is_some() {
        bail!("`spot`: the exact multiway solver locks a player's rows by street and hands");
    }
    rule_streets(def, rule).map(drop)
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
