//! The sampling solver's strategy lifted onto the exact game tree of a walkable game, so that
//! the verified [`super::nash_conv`] measures it (docs/notes/multiway.md, "The sampling solver
//! measured exactly").
//!
//! Every information set of a [`HistoryTree`] (a seat's down cards and every public event) is
//! mapped to one row of the sampled abstraction as the strategy file's player finds it: the
//! hand replayed on the rules engine and its street's real actions followed in the street's
//! tree by [`MultiwayBetting::locate`] (the tree of the seats that began the street, its pot
//! class by the real chips that entered it), the roles by [`MultiwayFacts`]' first actor, the
//! bucket of the seat's view against the best showing live opponent (the other up cards seen
//! as the solve's [`MultiwayView`]) by [`MultiwayFacts::bucket`]. The other seats' down cards,
//! which the seat has not seen, are filled with cards no event shows: no fact of the seat's
//! view reads them. `bot::check::check_player` then plays hands through the rules engine and
//! asks the file's player at every decision: the other lookup, by real states.
//!
//! # A capped abstraction in the uncapped game
//! Under a multiway cap ([`abstraction::multiway_betting::MultiwayCap`]) the real game has
//! raises the abstraction lacks, and the lift plays them as the player does
//! (docs/notes/multiway.md, "A cap for multiway pots"): at a decision where the abstract street
//! is at its cap the row has no raise, and the real raise is never played (probability 0); a
//! real raise past the cap is the abstract call, the nearest action that keeps the street's
//! line in the abstract game (the raise's chips still count in the real pot that sets the next
//! street's pot class); a seat acting again on that street finds the abstract street closed
//! and calls ([`Play::Call`]), as the abstract game has it calling. A fold there is absorbed
//! by the abstract street, but the next street is entered by the seats really in.

use super::sampled::Rows;
use super::Solver;
use crate::cfr::Algorithm;
use crate::purify::Purification;
use abstraction::bucketing::{canon, TableView};
use abstraction::cards::{Card, CardSet};
use abstraction::history_tree::{
    Event, HistoryKind, HistoryTree, Infoset, Move, Seen, MAX_ACTIONS,
};
use abstraction::multiway_betting::{MultiwayBetting, MwKind, Spot};
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayFacts, MAX_DEAL_SEATS};
use abstraction::rules::game_def::Deal;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, GameDef, Next, State};
use anyhow::{bail, ensure, Context, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// The most cards a seat holds in a multiway deal.
const MAX_CARDS: usize = 8;

/// Where each information set of a history tree sits in a sampled solve's rows.
#[derive(Clone, Debug)]
pub struct Lift {
    /// Per information set: how it plays the sampled solver's rows.
    pub plays: Vec<Play>,
    /// Per information set: its row numbered densely (0, 1, … in the order first met), the
    /// information sets the sampled abstraction cannot tell apart sharing one: a key for
    /// [`merge`]. An information set past a multiway cap's close ([`Play::Call`]) has a key
    /// of its own.
    pub abstract_key: Vec<u32>,
    /// Per information set: the same with the seat's cards told apart exactly (its down cards,
    /// every seat's up cards) and only the betting abstracted (the street trees entered by a
    /// pot class, nodes by role): the betting abstraction's own share of the loss.
    pub betting_key: Vec<u32>,
    /// Per information set: the same with the seat's view against the best showing live
    /// opponent (and its dead cards, if the view has them) told apart exactly (under suit
    /// renaming), not bucketed: the view's share, beside the bucketing's.
    pub view_key: Vec<u32>,
    /// Per street: the distinct views (under suit renaming) the tree's information sets that
    /// read a row show.
    pub views: Vec<usize>,
    /// Per street: the buckets those views fall in.
    pub buckets: Vec<usize>,
    /// The information sets past a multiway cap's close ([`Play::Call`]; 0 uncapped).
    pub closed: usize,
}

/// How an information set of the whole game tree plays a sampled solve's strategy: as the
/// strategy file's player plays it at that real decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// The row of `actions` probabilities from `slot`, its abstract action `c` played as the
    /// information set's action `onto[c]` (a real action the abstraction lacks, a raise at a
    /// multiway cap, never).
    Row {
        /// The first slot of the row in the sampled solver's layout.
        slot: u32,
        /// The abstract actions of the row.
        actions: u8,
        /// Each abstract action's index among the information set's actions.
        onto: [u8; MAX_ACTIONS],
    },
    /// A raise past a multiway cap was the abstract street's call and closed it: the seat
    /// calls (the information set's action of this index), as the player does.
    Call(u8),
}

impl Lift {
    /// The row of every information set of `tree` (the whole game tree of `def`) in the
    /// sampled abstraction of `def`: `betting`, `buckets` (its card abstraction), `layout`
    /// (their slot layout). Each decision is located as the strategy file's player locates
    /// it, so a capped abstraction's raise past its cap is the call and the rest of that
    /// street calls ([`Play::Call`]). Fails, naming the information set, where the
    /// abstraction has no such decision (a community card, an action the street tree lacks,
    /// another seat to act).
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
            shared: Arc::new(def.clone()),
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
        let mut plays = Vec::with_capacity(tree.infosets.len());
        let mut ids = Keys::default();
        let (mut abstract_key, mut betting_key, mut view_key) =
            (Vec::new(), Vec::new(), Vec::new());
        for (set, seen) in tree.infosets.iter().zip(&tree.seen) {
            let found = at
                .row(set, seen, tree)
                .with_context(|| format!("the information set {}", seen.describe()))?;
            plays.push(found.play);
            let (Some(decision), Play::Row { slot, .. }) = (found.decision, found.play) else {
                // No row: keys of its own (the same in each, an exact information set).
                let k = ids.closed();
                abstract_key.push(k);
                betting_key.push(k);
                view_key.push(k);
                continue;
            };
            let view = canon::canonical_table(&found.view, &perms);
            seen_views[view.view.street].insert(view, found.bucket);
            view_key.push(Keys::of(&mut ids.view, (decision, view)));
            abstract_key.push(Keys::of(&mut ids.row, slot));
            let mut ups = [0u64; MAX_DEAL_SEATS];
            for e in seen.events() {
                if let Event::Up { seat, card } = e {
                    ups[seat as usize] |= CardSet::from_iter([card]).0;
                }
            }
            let key = (decision, set.seat, seen.cards.0, ups);
            betting_key.push(Keys::of(&mut ids.betting, key));
        }
        ids.renumber(&mut [&mut abstract_key, &mut betting_key, &mut view_key]);
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
            closed: plays.iter().filter(|p| matches!(p, Play::Call(_))).count(),
            plays,
            abstract_key,
            betting_key,
            view_key,
            views: seen_views.iter().map(HashMap::len).collect(),
            buckets,
        })
    }

    /// The profile on `tree` that plays, at every information set, the row of `average` (the
    /// sampled solver's normalised average strategy) it was lifted to, each abstract action
    /// as its real action; past a multiway cap's close, the call.
    pub fn policy(&self, tree: &HistoryTree, average: &[f32]) -> Vec<f64> {
        let mut out = vec![0.0; tree.num_slots];
        for (set, play) in tree.infosets.iter().zip(&self.plays) {
            let s = set.first_slot as usize;
            match *play {
                Play::Row {
                    slot,
                    actions,
                    onto,
                } => {
                    let row = &average[slot as usize..][..actions as usize];
                    for (&to, &p) in onto.iter().zip(row) {
                        out[s + to as usize] = p as f64;
                    }
                }
                Play::Call(call) => out[s + call as usize] = 1.0,
            }
        }
        out
    }

    /// The information sets of the sampled game met (distinct rows read).
    pub fn abstract_sets(&self) -> usize {
        let keys = self
            .abstract_key
            .iter()
            .max()
            .map_or(0, |&k| k as usize + 1);
        keys - self.closed
    }
}

/// The dense keys of [`Lift::new`], numbered in the order first met: the keys of information
/// sets that read a row from 0, those past a cap's close apart until [`Keys::renumber`].
#[derive(Default)]
struct Keys {
    row: HashMap<u32, u32>,
    betting: HashMap<(Decision, u8, u64, [u64; MAX_DEAL_SEATS]), u32>,
    view: HashMap<(Decision, TableView), u32>,
    closed: u32,
}

/// A decision without the cards: street tree, pot class, its row's offset.
type Decision = (u32, u8, u32);

/// Marks a key of [`Keys::closed`] until it is renumbered.
const CLOSED: u32 = 1 << 31;

impl Keys {
    /// The key of `k` in `ids`, a new one if `k` is new.
    fn of<K: std::hash::Hash + Eq>(ids: &mut HashMap<K, u32>, k: K) -> u32 {
        let next = ids.len() as u32;
        *ids.entry(k).or_insert(next)
    }

    /// A new key of an information set past a cap's close.
    fn closed(&mut self) -> u32 {
        self.closed += 1;
        CLOSED | (self.closed - 1)
    }

    /// Moves the keys of the information sets past a cap's close after each list's others, so
    /// that every list is dense from 0.
    fn renumber(&self, keys: &mut [&mut Vec<u32>; 3]) {
        let firsts = [self.row.len(), self.betting.len(), self.view.len()];
        for (list, first) in keys.iter_mut().zip(firsts) {
            for k in list.iter_mut().filter(|k| **k & CLOSED != 0) {
                *k = first as u32 + (*k & !CLOSED);
            }
        }
    }
}

/// What [`Lift::new`] reads to find a row.
struct Locate<'a> {
    def: &'a GameDef,
    /// The same game, shared by each replayed [`State`].
    shared: Arc<GameDef>,
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
    /// How it plays the abstraction.
    play: Play,
    /// The bucket of the seat's view.
    bucket: u32,
    /// The seat's view.
    view: TableView,
    /// The decision without the cards: street tree, pot class, its row's offset (the node, or
    /// its betting position under `WithinStreet::Position`); `None` past the abstract street's
    /// close, where no row is read.
    decision: Option<Decision>,
}

impl Locate<'_> {
    /// The row of information set `set` of `tree` (what its seat has seen: `seen`): the real
    /// hand replayed on the rules engine up to the decision and located there as the strategy
    /// file's player locates it ([`MultiwayBetting::locate`]), so that the lift plays what the
    /// player plays, past a multiway cap too.
    fn row(&mut self, set: &Infoset, seen: &Seen, tree: &HistoryTree) -> Result<Found> {
        let seat = set.seat;
        self.deal_as_seen(seat, seen)?;
        let (state, bets, began) = self.replay(seen)?;
        ensure!(
            state.next() == Next::Act { seat },
            "{} to act where the rules engine has {}",
            seat_name(seat),
            state.next()
        );
        let street = state.street();
        let spot = self.betting.locate(&state, &bets)?;
        let live = state.live();
        let opponent = self.facts.opponent(street, live, seat);
        let mut shown = [0u8; MAX_DEAL_SEATS];
        for (s, n) in shown.iter_mut().enumerate().take(self.def.seats as usize) {
            *n = state.up_cards(s as u8).len() as u8;
        }
        let bucket = (self.facts).bucket(self.buckets, street, (seat, opponent), live, &shown)?;
        let view =
            (self.facts).table_view(self.buckets.view, street, (seat, opponent), live, &shown);
        let mine = &tree.actions[set.first_slot as usize..][..set.actions as usize];
        let n = self.betting.nodes[spot.node as usize];
        if n.kind != MwKind::Action {
            // A raise past the cap was the abstract call and closed the street there: the
            // player calls, as heads-up past the cap (`MultiwayBetting::follow`).
            let call = (mine.iter().position(|&a| a == Action::CheckCall))
                .context("the abstract street has closed and the seat cannot call")?;
            return Ok(Found {
                play: Play::Call(call as u8),
                bucket,
                view,
                decision: None,
            });
        }
        let (order, _) = self.facts.order(street, began);
        ensure!(
            order[n.role as usize] == seat,
            "{} to act where the abstraction has {}",
            seat_name(seat),
            seat_name(order[n.role as usize])
        );
        let slot = self
            .layout
            .slot(self.betting, spot.tree, spot.pot_class, bucket, n.index);
        Ok(Found {
            play: Play::Row {
                slot: slot as u32,
                actions: n.num_children,
                onto: self.onto(&spot, n.num_children as usize, &state, mine)?,
            },
            bucket,
            view,
            decision: Some((spot.tree, spot.pot_class, n.index)),
        })
    }

    /// Each of the `k` abstract actions at `spot` as the index among `mine` (the information
    /// set's actions at `state`) of the real action the player plays for it. A real action the
    /// abstraction lacks (a raise at the abstract cap) is never played.
    fn onto(
        &self,
        spot: &Spot,
        k: usize,
        state: &State,
        mine: &[Action],
    ) -> Result<[u8; MAX_ACTIONS]> {
        ensure!(k <= MAX_ACTIONS, "a decision of {k} abstract actions");
        let legal = state.legal_actions();
        let mut onto = [0u8; MAX_ACTIONS];
        // The real actions already played (bit `i`: `mine[i]`): no two abstract actions share one.
        let mut taken = 0u64;
        for (c, to) in onto.iter_mut().enumerate().take(k) {
            let real = (self.betting)
                .real_action(spot.tree, spot.node, c, &legal)
                .with_context(|| format!("abstract action {c} has no real action in {legal:?}"))?;
            let i = (mine.iter().position(|&a| a == real))
                .with_context(|| format!("the real action {real} is not among {mine:?}"))?;
            ensure!(
                taken >> i & 1 == 0,
                "two abstract actions play the real action {real}"
            );
            taken |= 1 << i;
            *to = i as u8;
        }
        Ok(onto)
    }

    /// The real hand `seen` describes replayed on the rules engine up to its last event (the
    /// down cards dealt unknown: locating a decision reads the up cards, the chips and who is
    /// in), the current street's actions and the seats live when it began (whose roles the
    /// street's tree has).
    fn replay(&self, seen: &Seen) -> Result<(State, Vec<Action>, u16)> {
        let mut state = State::with_def(Arc::clone(&self.shared))?;
        let mut bets: Vec<(usize, Action)> = Vec::new();
        let mut events = seen.events();
        let mut began = state.live();
        loop {
            match state.next() {
                Next::Deal {
                    deal: Deal::Down, ..
                } => state.deal_unknown()?,
                Next::Deal { seat: to, .. } => match events.next() {
                    Some(Event::Up { seat, card }) if to == Some(seat) => state.deal(card)?,
                    Some(Event::Community(_)) => bail!("a community card: not in the sampled game"),
                    e => bail!("{e:?} where the rules engine deals {}", state.next()),
                },
                Next::Act { seat: actor } => match events.next() {
                    None => break,
                    Some(Event::Act { seat, kind }) if seat == actor => {
                        let a = (state.legal_actions().into_iter())
                            .find(|&a| Move::of(a) == kind)
                            .with_context(|| format!("{} cannot {kind:?}", seat_name(seat)))?;
                        if bets.last().is_none_or(|&(s, _)| s != state.street()) {
                            began = state.live();
                        }
                        bets.push((state.street(), a));
                        state.apply(a)?;
                    }
                    e => bail!("{e:?} where {} is to act", seat_name(actor)),
                },
                Next::Over => bail!("a decision after the hand's end"),
            }
        }
        let street = state.street();
        let bets: Vec<Action> = (bets.into_iter())
            .filter(|&(s, _)| s == street)
            .map(|(_, a)| a)
            .collect();
        if bets.is_empty() {
            began = state.live();
        }
        Ok((state, bets, began))
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
