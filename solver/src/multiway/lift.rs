//! The sampling solver's strategy lifted onto the exact game tree of a walkable game, so that
//! the verified [`super::nash_conv`] measures it (docs/notes/multiway.md, "The sampling solver
//! measured exactly").
//!
//! Every information set of a [`HistoryTree`] (a seat's down cards and every public event) is
//! mapped to one row of the sampled abstraction by the sampled game's own lookup, as a
//! traversal of [`super::sampled`] finds it: the street trees of [`MultiwayBetting`] followed
//! action by action (a street's tree by the seats that began it, its pot class by the chips
//! that entered it), the roles by [`MultiwayFacts`]' first actor, the bucket of the seat's view
//! against the best showing live opponent (the other up cards seen as the solve's
//! [`MultiwayView`]) by [`MultiwayFacts::bucket`]. The other seats' down
//! cards, which the seat has not seen, are filled with cards no event shows: no fact of the
//! seat's view reads them. `bot::check::check_player` then plays hands through the rules
//! engine and asks the file's player at every decision: the other lookup, by real states and
//! `MultiwayBetting::locate`.

use super::sampled::Rows;
use super::Solver;
use crate::cfr::Algorithm;
use crate::purify::Purification;
use abstraction::bucketing::{canon, TableView};
use abstraction::cards::{Card, CardSet};
use abstraction::history_tree::{Event, HistoryKind, HistoryTree, Infoset, Move, Seen};
use abstraction::multiway_betting::{pot_class, MultiwayBetting, MwKind};
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayFacts, MAX_DEAL_SEATS};
use abstraction::rules::game_def::Deal;
use abstraction::rules::seat_name;
use abstraction::rules::GameDef;
use abstraction::tree::Edge;
use anyhow::{bail, ensure, Context, Result};
use std::collections::HashMap;

/// The most cards a seat holds in a multiway deal.
const MAX_CARDS: usize = 8;

/// Where each information set of a history tree sits in a sampled solve's rows.
#[derive(Clone, Debug)]
pub struct Lift {
    /// Per information set: the first slot of its row in the sampled solver's layout.
    pub rows: Vec<u32>,
    /// Per information set: its row numbered densely (0, 1, … in the order first met), the
    /// information sets the sampled abstraction cannot tell apart sharing one: a key for
    /// [`merge`].
    pub abstract_key: Vec<u32>,
    /// Per information set: the same with the seat's cards told apart exactly (its down cards,
    /// every seat's up cards) and only the betting abstracted (the street trees entered by a
    /// pot class, nodes by role): the betting abstraction's own share of the loss.
    pub betting_key: Vec<u32>,
    /// Per information set: the same with the seat's view against the best showing live
    /// opponent (and its dead cards, if the view has them) told apart exactly (under suit
    /// renaming), not bucketed: the view's share, beside the bucketing's.
    pub view_key: Vec<u32>,
    /// Per street: the distinct views (under suit renaming) the tree's information sets show.
    pub views: Vec<usize>,
    /// Per street: the buckets those views fall in.
    pub buckets: Vec<usize>,
}

impl Lift {
    /// The row of every information set of `tree` (the whole game tree of `def`) in the
    /// sampled abstraction of `def`: `betting`, `buckets` (its card abstraction), `layout`
    /// (their slot layout). Fails, naming the information set, where the abstraction
    /// has no such decision (a community card, an action the street tree lacks, another seat
    /// to act, other actions).
    pub fn new(
        tree: &HistoryTree,
        def: &GameDef,
        betting: &MultiwayBetting,
        buckets: &MultiwayBuckets,
        layout: &Rows,
    ) -> Result<Lift> {
        ensure!(
            tree.seats == def.seats as usize && betting.seats == def.seats,
            "the tree, the game and the betting abstraction have different seats"
        );
        let mut at = Locate {
            def,
            betting,
            buckets,
            layout,
            facts: MultiwayFacts::new(def)?,
            down_at: def
                .streets
                .iter()
                .flat_map(|s| &s.deal)
                .filter(|d| **d != Deal::Community)
                .map(|d| *d == Deal::Down)
                .collect(),
            deck: def.deck.cards(),
        };
        let perms = canon::deck_perms(def.deck.cards());
        let mut seen_views: Vec<HashMap<TableView, u32>> = vec![HashMap::new(); betting.streets];
        let mut rows = Vec::with_capacity(tree.infosets.len());
        let mut abstract_ids = HashMap::new();
        let mut betting_ids = HashMap::new();
        let mut view_ids = HashMap::new();
        let (mut abstract_key, mut betting_key, mut view_key) =
            (Vec::new(), Vec::new(), Vec::new());
        for (set, seen) in tree.infosets.iter().zip(&tree.seen) {
            let found = at
                .row(set, seen, tree)
                .with_context(|| format!("the information set {}", seen.describe()))?;
            let view = canon::canonical_table(&found.view, &perms);
            seen_views[view.view.street].insert(view, found.bucket);
            let next = view_ids.len() as u32;
            view_key.push(*view_ids.entry((found.decision, view)).or_insert(next));
            rows.push(found.slot as u32);
            let next = abstract_ids.len() as u32;
            abstract_key.push(*abstract_ids.entry(found.slot).or_insert(next));
            let mut ups = [0u64; MAX_DEAL_SEATS];
            for e in seen.events() {
                if let Event::Up { seat, card } = e {
                    ups[seat as usize] |= CardSet::from_iter([card]).0;
                }
            }
            let next = betting_ids.len() as u32;
            let key = (found.decision, set.seat, seen.cards.0, ups);
            betting_key.push(*betting_ids.entry(key).or_insert(next));
        }
        let buckets = seen_views
            .iter()
            .map(|m| {
                let mut b: Vec<u32> = m.values().copied().collect();
                b.sort_unstable();
                b.dedup();
                b.len()
            })
            .collect();
        Ok(Lift {
            rows,
            abstract_key,
            betting_key,
            view_key,
            views: seen_views.iter().map(HashMap::len).collect(),
            buckets,
        })
    }

    /// The profile on `tree` that plays, at every information set, the row of `average` (the
    /// sampled solver's normalised average strategy) it was lifted to.
    pub fn policy(&self, tree: &HistoryTree, average: &[f32]) -> Vec<f64> {
        let mut out = vec![0.0; tree.num_slots];
        for (set, &row) in tree.infosets.iter().zip(&self.rows) {
            let (s, k) = (set.first_slot as usize, set.actions as usize);
            for (o, &p) in out[s..s + k].iter_mut().zip(&average[row as usize..]) {
                *o = p as f64;
            }
        }
        out
    }
}

/// What [`Lift::new`] reads to find a row.
struct Locate<'a> {
    def: &'a GameDef,
    betting: &'a MultiwayBetting,
    buckets: &'a MultiwayBuckets,
    layout: &'a Rows,
    facts: MultiwayFacts,
    /// Which of a seat's cards (in the order dealt) are face down.
    down_at: Vec<bool>,
    deck: CardSet,
}

/// Where [`Locate::row`] found an information set.
struct Found {
    /// The first slot of its row.
    slot: usize,
    /// The bucket of the seat's view.
    bucket: u32,
    /// The seat's view.
    view: TableView,
    /// The decision without the cards: street tree, pot class, its row's offset (the node, or
    /// its betting position under `WithinStreet::Position`).
    decision: (u32, u8, u32),
}

/// A street as the sampled game enters it: its tree, pot class and the seat of each role.
struct Entered {
    tree: u32,
    class: u8,
    order: [u8; MAX_DEAL_SEATS],
    node: u32,
}

impl Locate<'_> {
    /// The row of information set `set` of `tree` (what its seat has seen: `seen`).
    fn row(&mut self, set: &Infoset, seen: &Seen, tree: &HistoryTree) -> Result<Found> {
        let seat = set.seat;
        self.deal_as_seen(seat, seen)?;
        let seats = self.def.seats as usize;
        let mut street = 0;
        let mut live_set: u16 = (1 << seats) - 1;
        let mut committed = [0u32; MAX_DEAL_SEATS];
        let mut shown = [0u8; MAX_DEAL_SEATS];
        let mut at: Option<Entered> = None;
        for e in seen.events() {
            let (actor, kind) = match e {
                Event::Up { seat, .. } => {
                    shown[seat as usize] += 1;
                    continue;
                }
                Event::Community(_) => bail!("a community card: not in the sampled game"),
                Event::Act { seat, kind } => (seat, kind),
            };
            let s = match at.take() {
                Some(s) => s,
                None => self.enter(street, live_set, &committed)?,
            };
            let n = self.betting.nodes[s.node as usize];
            ensure!(
                n.kind == MwKind::Action && s.order[n.role as usize] == actor,
                "{} acts where the abstraction has {:?} of {}",
                seat_name(actor),
                n.kind,
                seat_name(s.order[n.role as usize])
            );
            let child = self
                .betting
                .children(s.node as usize)
                .find(|&c| matches!(self.betting.edges[c], Edge::Action(a) if Move::of(a) == kind))
                .with_context(|| format!("no abstract action {kind:?} of {}", seat_name(actor)))?;
            let c = self.betting.nodes[child];
            match c.kind {
                MwKind::Action => {
                    at = Some(Entered {
                        node: child as u32,
                        ..s
                    })
                }
                MwKind::NextStreet => {
                    let live = self.betting.trees[s.tree as usize].live;
                    for (r, &put) in self.betting.stakes_of(&c, live).iter().enumerate() {
                        committed[s.order[r] as usize] += put;
                    }
                    live_set = seats_of(&s.order, c.live);
                    street += 1;
                }
                MwKind::Fold | MwKind::Showdown => bail!("a decision after the hand's end"),
            }
        }
        let s = match at {
            Some(s) => s,
            None => self.enter(street, live_set, &committed)?,
        };
        let n = self.betting.nodes[s.node as usize];
        ensure!(
            n.kind == MwKind::Action && s.order[n.role as usize] == seat,
            "{} to act where the abstraction has {:?} of {}",
            seat_name(seat),
            n.kind,
            seat_name(s.order[n.role as usize])
        );
        // The same actions, in the same order, with the same amounts.
        let mine = &tree.actions[set.first_slot as usize..][..set.actions as usize];
        let theirs = &self.betting.edges[self.betting.children(s.node as usize)];
        ensure!(
            mine.iter()
                .map(|&a| Edge::Action(a))
                .eq(theirs.iter().copied()),
            "the actions {mine:?}; the abstraction has {theirs:?}"
        );
        let live = seats_of(&s.order, n.live);
        let opponent = self.facts.opponent(street, live, seat);
        let bucket = (self.facts).bucket(self.buckets, street, (seat, opponent), live, &shown)?;
        let slot = self
            .layout
            .slot(self.betting, s.tree, s.class, bucket, n.index);
        let view =
            (self.facts).table_view(self.buckets.view, street, (seat, opponent), live, &shown);
        Ok(Found {
            slot,
            bucket,
            view,
            decision: (s.tree, s.class, n.index),
        })
    }

    /// Enters `street` with the seats of `set` in, `committed` chips each before it: as
    /// `sampled::Traversal::street` does.
    fn enter(
        &mut self,
        street: usize,
        set: u16,
        committed: &[u32; MAX_DEAL_SEATS],
    ) -> Result<Entered> {
        let seats = self.def.seats;
        let (order, live) = self.facts.order(street, set);
        let tree = (self.betting.tree(street, live as u32))
            .with_context(|| format!("no tree for street {} with {live} seats", street + 1))?;
        let pot: u64 = committed.iter().map(|&c| c as u64).sum();
        let antes = self.def.ante * seats as u64;
        Ok(Entered {
            tree,
            class: pot_class(self.def, street, pot + antes),
            order,
            node: self.betting.trees[tree as usize].root,
        })
    }

    /// Sets the facts' deal to what `seat` has seen: its down cards, every up card shown, and
    /// cards no event shows wherever the seat has not seen one.
    fn deal_as_seen(&mut self, seat: u8, seen: &Seen) -> Result<()> {
        let seats = self.def.seats as usize;
        let mut ups: [Vec<Card>; MAX_DEAL_SEATS] = Default::default();
        let mut used = seen.cards;
        for e in seen.events() {
            if let Event::Up { seat, card } = e {
                ups[seat as usize].push(card);
                used.insert(card);
            }
        }
        let mut unseen = self.deck.iter().filter(|c| !used.contains(*c));
        let mut cards = [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS];
        for (s, row) in cards.iter_mut().enumerate().take(seats) {
            let mut downs = (s == seat as usize)
                .then(|| seen.cards.iter())
                .into_iter()
                .flatten();
            let mut up = ups[s].iter().copied();
            for (slot, &down) in row.iter_mut().zip(&self.down_at) {
                let known = if down { downs.next() } else { up.next() };
                *slot = match known {
                    Some(c) => c,
                    None => unseen.next().context("the deck runs out of cards")?,
                };
            }
        }
        self.facts.set(self.def, &cards);
        Ok(())
    }
}

/// The seats of the roles in `live` (bit `r` = role `r`), role `r` being `order[r]`'s.
fn seats_of(order: &[u8; MAX_DEAL_SEATS], live: u8) -> u16 {
    (0..8)
        .filter(|r| live >> r & 1 == 1)
        .fold(0, |set, r| set | 1 << order[r])
}

/// The abstract game of `tree` as a tree the exact solver walks: the information sets that
/// share a `key` (one per information set, dense from 0) merged into one, which plays one
/// row. Its information sets are the keys, each with its first information set's seat and
/// actions (every one of a key must have the same actions). A key's histories may lie at
/// different depths and be of different seats (a row of the sampled game is a role's, whichever
/// seat holds it): the exact solver's passes allow both (a merged set is discounted and
/// regret-matched with its first seat's pass, its regrets added in every seat's), its best
/// response does not, so NashConv is measured on `tree` with [`unmerge`].
pub fn merge(tree: &HistoryTree, key: &[u32]) -> Result<HistoryTree> {
    let keys = key.iter().max().map_or(0, |&k| k as usize + 1);
    let mut first: Vec<Option<usize>> = vec![None; keys];
    for (i, &k) in key.iter().enumerate() {
        match first[k as usize] {
            None => first[k as usize] = Some(i),
            Some(j) => {
                let actions = |s: usize| {
                    let set = tree.infosets[s];
                    &tree.actions[set.first_slot as usize..][..set.actions as usize]
                };
                ensure!(
                    actions(i) == actions(j),
                    "merged information sets {} and {} have different actions",
                    tree.seen[j].describe(),
                    tree.seen[i].describe()
                );
            }
        }
    }
    let mut merged = HistoryTree {
        seats: tree.seats,
        nodes: tree.nodes.clone(),
        payoffs: tree.payoffs.clone(),
        infosets: Vec::with_capacity(keys),
        seen: Vec::with_capacity(keys),
        actions: Vec::new(),
        num_slots: 0,
        max_children: tree.max_children,
        big_bet: tree.big_bet,
    };
    for i in first {
        let i = i.context("a key with no information set")?;
        let set = tree.infosets[i];
        merged.infosets.push(Infoset {
            first_slot: merged.num_slots as u32,
            ..set
        });
        merged.seen.push(tree.seen[i].clone());
        let s = set.first_slot as usize;
        merged
            .actions
            .extend_from_slice(&tree.actions[s..s + set.actions as usize]);
        merged.num_slots += set.actions as usize;
    }
    for n in &mut merged.nodes {
        if n.kind == HistoryKind::Action {
            n.index = key[n.index as usize];
        }
    }
    Ok(merged)
}

/// The profile on `tree` that plays at each information set its key's row of `policy` (a
/// profile on `merge(tree, key)`).
pub fn unmerge(tree: &HistoryTree, merged: &HistoryTree, key: &[u32], policy: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; tree.num_slots];
    for (set, &k) in tree.infosets.iter().zip(key) {
        let from = merged.infosets[k as usize].first_slot as usize;
        let (s, n) = (set.first_slot as usize, set.actions as usize);
        out[s..s + n].copy_from_slice(&policy[from..from + n]);
    }
    out
}

/// `policy` (a profile on `tree`) as a player plays it who rewrites each information set's row
/// by `play` (as `stud match FILE:PLAY` plays a file's rows).
pub fn played_as(tree: &HistoryTree, policy: &[f64], play: Purification) -> Vec<f64> {
    let mut out = policy.to_vec();
    for set in &tree.infosets {
        let s = set.first_slot as usize;
        play.apply(&mut out[s..s + set.actions as usize]);
    }
    out
}

/// The exact solver on the abstract game `merge(tree, key)` (the information sets merged as an
/// abstraction merges them), `iterations` of `algorithm`: its information sets and the
/// NashConv on `tree` of its average strategy, unmerged: where a solver of that abstraction
/// floors.
pub fn floor(
    tree: &HistoryTree,
    key: &[u32],
    algorithm: Algorithm,
    iterations: u64,
) -> Result<(usize, f64)> {
    let merged = merge(tree, key)?;
    let sets = merged.infosets.len();
    let mut s = Solver::new(merged, algorithm);
    while s.iterations < iterations {
        s.iterate();
    }
    let policy = unmerge(tree, &s.tree, key, &s.average_strategy());
    Ok((sets, super::nash_conv(tree, &policy).total()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use abstraction::tree::Budget;

    fn kuhn3() -> HistoryTree {
        HistoryTree::build(&GameDef::kuhn_for(3).unwrap(), Budget::nodes(1 << 20)).unwrap()
    }

    #[test]
    fn merging_nothing_solves_the_same_game() {
        let tree = kuhn3();
        let key: Vec<u32> = (0..tree.infosets.len() as u32).collect();
        let mut merged = Solver::new(merge(&tree, &key).unwrap(), Algorithm::CfrPlus);
        let mut whole = Solver::new(tree, Algorithm::CfrPlus);
        for _ in 0..20 {
            merged.iterate();
            whole.iterate();
        }
        let back = unmerge(&whole.tree, &merged.tree, &key, &merged.average_strategy());
        assert_eq!(back, whole.average_strategy());
    }

    #[test]
    fn merging_sets_of_other_actions_is_refused() {
        // Kuhn's first decisions check or bet, the ones facing a bet fold or call.
        let tree = kuhn3();
        let key = vec![0; tree.infosets.len()];
        let err = merge(&tree, &key).unwrap_err().to_string();
        assert!(err.contains("different actions"), "{err}");
    }
}
