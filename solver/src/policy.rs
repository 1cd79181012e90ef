//! A strategy file's policy at a real spot: the one place that finds where a real hand is in a
//! file's abstract game, whose row it reads there, and which real action each abstract action
//! plays. [`StrategyPlayer`](crate::bot::StrategyPlayer) (matches, the server, LBR, the report's
//! third-street chart) and `stud query` go through it.
//!
//! Three kinds of file (see [`StrategyFile`]):
//! - a public tree (walkable games): the node is reached by walking the file's tree along the
//!   public events of the hand ([`public_events`]); the actor is the seat; the row key is the
//!   file's bucket of the seat's private card at the node;
//! - a betting tree (the real games): the node is `BettingNodes::locate` of the real betting;
//!   the actor is the seat's role on the street (0 if it acts first there, by the rules
//!   engine's first actor); the row key is the file's bucket of the seat's view with what the
//!   rows recall of earlier streets. A raise past the cap has closed the street in the abstract
//!   game: the decision is [`capped`](Decision::capped), and the strategy checks or calls;
//! - a multiway file (three to eight seats): the node is the file's own
//!   [`MultiwayFile::locate`] (the street's tree, the node, the pot class); the actor is the
//!   seat; the row key is the bucket of the seat's view ([`MultiwayFile::view`]). A street the
//!   abstract game has closed is capped, as in a betting tree.
//!
//! Each child of the node plays a real legal action or none (`real_action`: legal actions the
//! abstract node lacks, a raise past the cap or a second bet size, get no weight; an abstract
//! raise where no raise is legal, a seat all in, goes to the call).

use crate::action::Bet;
use crate::strategy_file::multiway::MultiwayFile;
use crate::strategy_file::{BettingFile, PublicFile, StrategyFile, MAX_ACTIONS};
use abstraction::betting_tree::{BettingKind, BettingNodes};
use abstraction::multiway_betting::{MwKind, Spot};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};

/// A real decision in a strategy file's abstract game.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    /// The node of the file's tree.
    pub node: u32,
    /// Who acts, in the file's terms: the seat (public tree, multiway file) or the role on the
    /// street (betting tree: 0 acts first on it).
    pub actor: u8,
    /// Past the raise cap (betting-tree and multiway files): the abstract game has called at
    /// `node` (a showdown, or a later street), and the strategy checks or calls; the node has no
    /// row.
    pub capped: bool,
    /// A multiway file's street tree and pot class of the node (0 in a heads-up file).
    tree: u32,
    pot_class: u8,
    /// The node's number of children (0 when capped).
    k: usize,
    /// The real legal action each child plays (`None`: none).
    actions: [Option<Action>; MAX_ACTIONS],
}

/// Finds `seat`'s decision after `bets` in `state` in `f`'s abstract game, with the real action
/// among `legal` that each of its children plays.
pub fn locate(
    f: &StrategyFile,
    state: &State,
    bets: &[Bet],
    seat: u8,
    legal: &[Action],
) -> Result<Decision> {
    match f {
        StrategyFile::Betting(f) => locate_betting(f, state, bets, seat, legal),
        StrategyFile::Public(f) => locate_public(f, state, bets, seat, legal),
        StrategyFile::Multiway(f) => locate_multiway(f, state, bets, seat, legal),
    }
}

impl Decision {
    /// A decision at the root, of `actor`, not yet filled in.
    fn new(actor: u8) -> Decision {
        Decision {
            node: 0,
            actor,
            capped: false,
            tree: 0,
            pot_class: 0,
            k: 0,
            actions: [None; MAX_ACTIONS],
        }
    }
}

/// [`locate`] in a betting-tree file: the node located from the real betting, the actor the
/// seat's role on the street.
pub fn locate_betting(
    f: &BettingFile,
    state: &State,
    bets: &[Bet],
    seat: u8,
    legal: &[Action],
) -> Result<Decision> {
    let street = state.street();
    let mut d = Decision::new((state.first_actor(street) != Some(seat)) as u8);
    d.node = f.locate(bets)?;
    let n = f.node(d.node)?;
    if n.kind == BettingKind::Showdown as u8 || (n.street as usize > street) {
        d.capped = true;
        return Ok(d);
    }
    if n.kind != BettingKind::Action as u8 || n.street as usize != street || n.role != d.actor {
        bail!(
            "the strategy's tree has no decision of {} (role {}) on {} after this betting",
            seat_name(seat),
            d.actor,
            state.def().street_name(street)
        );
    }
    d.k = n.num_children as usize;
    for (c, a) in d.actions.iter_mut().enumerate().take(d.k) {
        *a = f.real_action(d.node, c, legal);
    }
    Ok(d)
}

/// [`locate`] in a public-tree file: the node walked along the public events, the actor the
/// seat.
pub fn locate_public(
    f: &PublicFile,
    state: &State,
    bets: &[Bet],
    seat: u8,
    legal: &[Action],
) -> Result<Decision> {
    let mut d = Decision::new(seat);
    d.node = walk(f, state, bets)?;
    let n = f.node(d.node)?;
    if n.kind != NodeKind::Action as u8 || n.seat != seat {
        bail!(
            "the strategy's tree has no decision of {} here",
            seat_name(seat)
        );
    }
    d.k = n.num_children as usize;
    for &a in legal {
        if let Some(slot) = f
            .position(d.node, Edge::Action(a))?
            .and_then(|c| d.actions.get_mut(c))
        {
            *slot = Some(a);
        }
    }
    Ok(d)
}

/// [`locate`] in a multiway file: the spot its own [`MultiwayFile::locate`] finds, the actor
/// the seat; each child's real action is the betting abstraction's.
fn locate_multiway(
    f: &MultiwayFile,
    state: &State,
    bets: &[Bet],
    seat: u8,
    legal: &[Action],
) -> Result<Decision> {
    let mut d = Decision::new(seat);
    let spot = f.locate(state, bets)?;
    (d.node, d.tree, d.pot_class) = (spot.node, spot.tree, spot.pot_class);
    let n = f.betting.nodes[spot.node as usize];
    if n.kind != MwKind::Action {
        d.capped = true;
        return Ok(d);
    }
    d.k = n.num_children as usize;
    if d.k > MAX_ACTIONS {
        bail!("a decision of {} actions: the most is {MAX_ACTIONS}", d.k);
    }
    for (c, a) in d.actions.iter_mut().enumerate().take(d.k) {
        let real = f.betting.real_action(spot.tree, spot.node, c, legal);
        *a = Some(real.with_context(|| format!("abstract action {c} has no real action"))?);
    }
    Ok(d)
}

impl Decision {
    /// The real legal action each child of the node plays (`None`: none), in child order.
    pub fn actions(&self) -> &[Option<Action>] {
        &self.actions[..self.k.min(MAX_ACTIONS)]
    }

    /// The row key of `seat`'s own cards in `state` here: the file's bucket of its view with
    /// what the rows recall (betting tree), of its view (multiway file), or of its one private
    /// card (public tree).
    pub fn key(&self, f: &StrategyFile, state: &State, seat: u8) -> Result<u32> {
        let f = match f {
            StrategyFile::Betting(f) => return f.key_of(state, seat),
            StrategyFile::Multiway(f) => return f.bucket_of_seat(state, seat),
            StrategyFile::Public(f) => f,
        };
        let card = match state.down_cards(seat) {
            [Some(c)] => *c,
            _ => bail!("the strategy plays games with exactly one known down card per seat"),
        };
        // A private card's hand number in the file is its index in the game's deck.
        let hand = f
            .header()
            .game
            .deck
            .cards()
            .iter()
            .position(|c| c == card)
            .with_context(|| format!("{card} is not in the strategy's deck"))?;
        f.bucket(self.node, hand as u32)
    }

    /// The row of `key` here, normalized, into `out[..k]`; returns `k`.
    pub fn row(&self, f: &StrategyFile, key: u32, out: &mut [f64]) -> Result<usize> {
        match f {
            StrategyFile::Public(f) => f.row_into(self.node, key, out),
            StrategyFile::Betting(f) => f.row_into(self.node, key, out),
            StrategyFile::Multiway(f) => f.row_into(&self.spot(), key, out),
        }
    }

    /// Where a multiway file's decision is (see [`MultiwayFile::locate`]).
    fn spot(&self) -> Spot {
        Spot {
            tree: self.tree,
            node: self.node,
            pot_class: self.pot_class,
        }
    }

    /// Adds each child's probability in `row` onto the real legal action it plays (`probs[i]`
    /// for `legal[i]`).
    pub fn onto_legal(&self, row: &[f64], legal: &[Action], probs: &mut [f64]) {
        for (&p, a) in row.iter().zip(self.actions()) {
            if let Some(i) = a.and_then(|a| legal.iter().position(|&x| x == a)) {
                probs[i] += p;
            }
        }
    }
}

/// Walks a public-tree file from the root along the public events of the hand and returns the
/// node reached.
fn walk(f: &PublicFile, state: &State, bets: &[Bet]) -> Result<u32> {
    let mut node = 0u32;
    for_each_public_event(state, bets, |e| {
        node = f
            .child(node, e)?
            .with_context(|| format!("{e:?} is not in the strategy's abstract game"))?;
        Ok(())
    })?;
    Ok(node)
}

/// The public events of the hand in the order they happened, as the tree's edges: on each
/// street, the up cards dealt seat by seat, then the community cards, then that street's bets.
/// (Down cards are private: not events.)
pub fn public_events(state: &State, bets: &[Bet]) -> Vec<Edge> {
    let mut out = Vec::new();
    let _ = for_each_public_event(state, bets, |e| {
        out.push(e);
        Ok(())
    });
    out
}

/// Calls `f` on each public event in order (see [`public_events`]), stopping at the first error.
/// Allocates nothing: the strategy player walks its tree with it at every decision.
fn for_each_public_event(
    state: &State,
    bets: &[Bet],
    mut f: impl FnMut(Edge) -> Result<()>,
) -> Result<()> {
    let def = state.def();
    let mut ups_before = 0;
    let mut board_before = 0;
    for (street, sd) in def.streets.iter().enumerate().take(state.street() + 1) {
        let ups = sd.deal.iter().filter(|d| **d == Deal::Up).count();
        let board = sd.deal.iter().filter(|d| **d == Deal::Community).count();
        for seat in 0..def.seats {
            let have = state.up_cards(seat);
            let end = (ups_before + ups).min(have.len());
            for &c in &have[ups_before.min(end)..end] {
                f(Edge::Card(c))?;
            }
        }
        let have = state.community_cards();
        let end = (board_before + board).min(have.len());
        for &c in &have[board_before.min(end)..end] {
            f(Edge::Card(c))?;
        }
        for &(_, a) in bets.iter().filter(|(s, _)| *s == street) {
            f(Edge::Action(a))?;
        }
        ups_before += ups;
        board_before += board;
    }
    Ok(())
}
