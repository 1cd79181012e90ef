//! Subgames with public chance below the root: a re-solve entered on an earlier street, the up
//! cards still to come dealt inside it ([`Subgame::with_chance`]).
//!
//! The subgame's tree is the lossless public tree of the rest of the hand from the root's spot
//! ([`Tree::build_below`]): one chance node per up card dealt, a board per public-card state,
//! each hand bucketed by itself (a hand colliding with a board's cards is [`NONE`] there, its
//! reach 0), and every terminal's value multiplied by the probability of its public cards
//! given both private hands (uniform over the cards neither holds nor shows) and by the
//! subgame's scale, 1 / the weight of the pairs of hands that do not collide. So, as in a
//! last-street subgame, every value is chips per hand given that the root is reached, and the
//! root's chance over the hands is the product of the ranges (card removal by the terminals).
//!
//! Built for the games whose one down card is dealt on the first street and the rest face up
//! (the walkable stud games: ministud, yardstud, kings and aces): the lossless tree's own
//! limits ([`Tree::check_supported`]). The ranges come from the same Bayesian replay as the
//! last street's ([`crate::bot::range`]), up to the root.

use super::{Options, Subgame};
use crate::bot::range::replay;
use crate::bot::{Bet, Player};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::card_abstraction::Lossless;
use abstraction::cards::CardSet;
use abstraction::rules::{Deal, Next, State};
use abstraction::tree::{Budget, Edge, NodeKind, Tree};
use anyhow::{bail, ensure, Context};
use std::time::Instant;

impl Subgame {
    /// The subgame of the hand at `state` after `bets` from the first decision of `street`
    /// (any street of the hand up to `state`'s), the up cards of the later streets dealt as
    /// public chance inside it; ranges from `blueprint`'s policy (`options.floor`). Only public
    /// cards of `state` are read. For games of one down card dealt on the first street (see
    /// the module documentation); a tree that would not fit in the memory available is refused
    /// before it grows past it.
    pub fn with_chance(
        blueprint: &dyn Player,
        state: &State,
        bets: &[Bet],
        street: usize,
        options: Options,
    ) -> anyhow::Result<Subgame> {
        let def = state.def();
        ensure!(
            def.seats == 2,
            "re-solving is heads-up: the game has {} seats",
            def.seats
        );
        ensure!(
            (0.0..=1.0).contains(&options.floor),
            "the ranges' floor must be a probability, not {}",
            options.floor
        );
        Tree::check_supported(def).with_context(|| {
            format!(
                "{}: re-solving from an earlier street, up cards dealt inside the subgame",
                def.variant
            )
        })?;
        ensure!(
            street <= state.street()
                && (state.street() > street || matches!(state.next(), Next::Act { .. })),
            "a subgame from {} starts at its first decision: this spot is on {}",
            def.street_name(street),
            def.street_name(state.street())
        );
        let start = Instant::now();
        let r = replay(blueprint, state, bets, options.floor, |st| {
            st.street() == street
        })?;
        match r.state.next() {
            Next::Act { .. } if r.state.street() == street => {}
            Next::Act { .. } => bail!("the betting given stops before the subgame's street"),
            Next::Over => bail!("the hand ends before the subgame's street"),
            Next::Deal { .. } => bail!("the state lacks a card the betting so far dealt"),
        }
        // The hands are the deck's cards, as in the lossless tree (those showing weigh 0).
        let cards: Vec<_> = def.deck.cards().iter().collect();
        let mut ranges = [vec![0.0; cards.len()], vec![0.0; cards.len()]];
        for (range, w) in r.ranges.iter().zip(&mut ranges) {
            ensure!(
                range.n() == 1,
                "a subgame with chance needs one down card a seat"
            );
            for h in range.holdings() {
                let i = (cards.iter().position(|&c| CardSet::single(c) == h.set))
                    .context("a holding outside the deck")?;
                w[i] += h.weight;
            }
        }
        let replayed = start.elapsed().as_secs_f64() * 1000.0;
        let mut sub = Subgame::with_chance_given(&r.state, &bets[..r.read], ranges)?;
        sub.range_millis += replayed;
        Ok(sub)
    }

    /// [`Subgame::with_chance`] from the first decision of `state`'s street (reached by
    /// `bets`, down cards unknown), each seat's range given: a weight per card of the deck, in
    /// the deck's order (normalized here). What a nested re-solve enters with
    /// ([`super::nest`]): the ranges a solve above implies, not a replay.
    pub fn with_chance_given(
        state: &State,
        bets: &[Bet],
        mut ranges: [Vec<f64>; 2],
    ) -> anyhow::Result<Subgame> {
        let start = Instant::now();
        let def = state.def();
        let street = state.street();
        ensure!(
            matches!(state.next(), Next::Act { .. }) && bets.iter().all(|b| b.0 < street),
            "a subgame with chance starts at the first decision of its street"
        );
        let cards: Vec<_> = def.deck.cards().iter().collect();
        for w in &mut ranges {
            ensure!(
                w.len() == cards.len(),
                "a range of {} weights for a deck of {} cards",
                w.len(),
                cards.len()
            );
            let total: f64 = w.iter().sum();
            super::reached(total > 0.0, "a seat's range is empty")?;
            w.iter_mut().for_each(|x| *x /= total);
        }
        // The weight of the pairs of hands that do not collide: one card each, so all pairs
        // but the hand with itself.
        let same: f64 = ranges[0].iter().zip(&ranges[1]).map(|(a, b)| a * b).sum();
        let pairs = 1.0 - same;
        super::reached(
            pairs > 1e-12,
            "every pair of the two ranges' holdings shares a card",
        )?;
        let range_millis = start.elapsed().as_secs_f64() * 1000.0;
        let budget = Budget {
            nodes: usize::MAX,
            bytes: crate::memory::available_memory().unwrap_or(usize::MAX),
            per_slot: super::BYTES_PER_SLOT,
        };
        let betting = BettingAbstraction::for_game(def);
        // The root is the street's first decision: no bet made on it yet.
        let tree = Tree::build_below(&Lossless, betting, budget, state, 0, 1.0 / pairs)
            .context("the subgame's public tree")?;
        let (states, node_bets) = states_below(&tree, state, bets)?;
        let hands: Vec<CardSet> = cards.iter().map(|&c| CardSet::single(c)).collect();
        Ok(Subgame {
            tree,
            seats: [0, 1],
            ranges,
            roots: hands.clone(),
            of_root: (0..hands.len() as u32).collect(),
            hands,
            states,
            bets: node_bets,
            root_bets: bets.len(),
            street,
            range_millis,
            scale: 1.0 / pairs,
        })
    }
}

/// The state (down cards unknown) and the hand's whole betting at each action node of `tree`,
/// built below the spot `root` reached by `bets`; `None` and empty elsewhere.
type NodeStates = (Vec<Option<State>>, Vec<Vec<Bet>>);

/// See [`NodeStates`]: the rules engine walked along the tree's edges.
fn states_below(tree: &Tree, root: &State, bets: &[Bet]) -> anyhow::Result<NodeStates> {
    let n = tree.nodes.len();
    let mut states = vec![None; n];
    let mut node_bets = vec![Vec::new(); n];
    let mut stack = vec![(0usize, root.clone(), bets.to_vec())];
    while let Some((i, mut st, b)) = stack.pop() {
        while let Next::Deal {
            deal: Deal::Down, ..
        } = st.next()
        {
            st.deal_unknown()?;
        }
        let node = tree.nodes[i];
        for c in tree.children(i) {
            let mut next = st.clone();
            let mut nb = b.clone();
            match tree.edges[c] {
                Edge::Action(a) => {
                    nb.push((node.street as usize, a));
                    next.apply(a)?;
                }
                Edge::Card(card) => next.deal(card)?,
                Edge::Root => bail!("node {c}: a root edge below the root"),
            }
            stack.push((c, next, nb));
        }
        if node.kind == NodeKind::Action {
            ensure!(
                st.to_act() == Some(node.seat),
                "node {i}: the rules engine says another seat acts"
            );
            states[i] = Some(st);
            node_bets[i] = b;
        }
    }
    Ok((states, node_bets))
}
