//! A solved strategy file as a player: the adapter between the real game and the abstract tree.
//!
//! Two kinds of file (see [`crate::strategy_file::TreeKind`]):
//! - a public tree (walkable games): the player walks the file's tree along the public events
//!   of the hand and reads the row of its private card;
//! - a betting tree (the real games): the node is `BettingNodes::locate` of the real betting,
//!   the seat's role on the street comes from the rules engine's first actor, the bucket from
//!   the file's embedded bucketing on the seat's `CardView`, and each abstract child's
//!   probability goes to the real legal action that plays it (`real_action`); legal actions the
//!   abstract node lacks (a raise past the cap, a second bet size) get zero; an abstract raise
//!   where no raise is legal (a seat all in) goes to the call.
//!
//! Before a row is played it goes through the player's [`Purification`] (mixed, thresholded or
//! pure: see [`crate::purify`]).
//!
//! A row that still leaves no weight on any legal action gets the defined fallback, the check
//! or call, answered as [`Answer::Fallback`](super::Answer::Fallback) for the caller to count.

use super::{normalize_or_fall_back, Answer, Bet, Player};
use crate::purify::Purification;
use crate::strategy_file::{StrategyFile, TreeKind, MAX_ACTIONS};
use abstraction::betting_tree::BettingNodes;
use abstraction::cards::Card;
use abstraction::rules::{Action, Deal, GameDef, Profile, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context};
use std::path::Path;

/// Plays the average strategy of a strategy file: it walks the file's tree along the public
/// events of the hand (up and community cards, bets) and reads the row of its private card.
pub struct StrategyPlayer {
    file: StrategyFile,
    /// The file's path.
    path: String,
    /// The name reports give: the path, and how the rows are played if that was set.
    name: String,
    /// The game's deck in order: a private card's index is its hand number in the file.
    deck: Vec<Card>,
    /// What is done to a row before it is played.
    purification: Purification,
}

impl StrategyPlayer {
    /// Opens the strategy file at `path`, which must have been solved for `def` exactly, or for
    /// the same game under the card-room rules where `def` is it under PokerKit's and the
    /// strategy fits them ([`pokerkit_fits`]); its rows are played as its kind of file is by
    /// default ([`super::default_purification`]).
    pub fn open(path: &str, def: &GameDef) -> anyhow::Result<StrategyPlayer> {
        let file = StrategyFile::open(Path::new(path))?;
        let stored = &file.header().game;
        if stored != def && !pokerkit_fits(stored, def) {
            let pokerkit = stored.clone().with_profile(Profile::PokerKit) == *def;
            if pokerkit {
                bail!(
                    "{path} was solved for {} under the card-room rules; PokerKit's rules are \
                     accepted heads-up with stacks of at least {} (no one all in under the cap), \
                     not here",
                    stored.variant,
                    most_committed(def)
                );
            }
            let why = if stored.variant == def.variant {
                "the same game with other stakes, stacks, seats or rules"
            } else {
                "another game"
            };
            bail!(
                "{path} was solved for {} as stored in it, not for the game asked ({}: {why}): \
                 pass the game it was solved for",
                stored.variant,
                def.variant
            );
        }
        Ok(StrategyPlayer::of_file(file, path))
    }

    /// The player of `file`, opened already from `path` (its name), for the game it was solved
    /// for; its rows played as by [`StrategyPlayer::open`].
    pub fn of_file(file: StrategyFile, path: &str) -> StrategyPlayer {
        StrategyPlayer {
            deck: file.header().game.deck.cards().iter().collect(),
            name: path.to_string(),
            path: path.to_string(),
            purification: super::default_purification(file.header().tree),
            file,
        }
    }

    /// Plays every row through `purification` instead of the default of its kind of file
    /// ([`super::default_purification`]); the player's name says it (`FILE:threshold=0.15`), so
    /// that reports and written hands tell how the file was played.
    pub fn with_purification(mut self, purification: Purification) -> StrategyPlayer {
        self.name = format!("{}:{purification}", self.path);
        self.purification = purification;
        self
    }

    /// What is done to a row before it is played.
    pub fn purification(&self) -> Purification {
        self.purification
    }
}

impl StrategyPlayer {
    /// Walks the file's tree from the root along the public events of the hand, calling
    /// `visit(node, seat to act, action taken)` at each betting decision passed, and returns the
    /// node reached.
    pub fn walk(
        &self,
        state: &State,
        bets: &[Bet],
        mut visit: impl FnMut(u32, u8, Action) -> anyhow::Result<()>,
    ) -> anyhow::Result<u32> {
        let f = &self.file;
        let mut node = 0u32;
        for_each_public_event(state, bets, |e| {
            let next = f
                .child(node, e)?
                .with_context(|| format!("{e:?} is not in the strategy's abstract game"))?;
            if let Edge::Action(a) = e {
                visit(node, f.node(node)?.player, a)?;
            }
            node = next;
            Ok(())
        })?;
        Ok(node)
    }

    /// The hand number of a private card in the file.
    pub fn hand(&self, card: Card) -> anyhow::Result<u32> {
        self.deck
            .iter()
            .position(|&c| c == card)
            .map(|i| i as u32)
            .with_context(|| format!("{card} is not in the strategy's deck"))
    }
}

/// Whether a strategy solved for `stored` (the card-room rules) plays `asked`: the same game
/// under PokerKit's house rules, heads-up, every stack deep enough that no one is all in under
/// the cap. Then every betting a PokerKit dealer deals is one the card room allows (PokerKit's
/// rules only take options away: raises past the cap heads-up, the open-pair big bet), no
/// all-in raise for less can happen (where PokerKit reopens the betting), and heads-up the deck
/// never runs out; a strategy file's abstraction caps the betting anyway.
pub fn pokerkit_fits(stored: &GameDef, asked: &GameDef) -> bool {
    stored.clone().with_profile(Profile::CardRoom) == *stored
        && stored.clone().with_profile(Profile::PokerKit) == *asked
        && asked.seats == 2
        && asked
            .starting_stacks
            .iter()
            .all(|&s| s >= most_committed(asked))
}

/// The most one seat can put in a hand of `def` with the cap never lifted: the ante and the
/// cap's bets on every street.
fn most_committed(def: &GameDef) -> u64 {
    def.ante
        + def
            .streets
            .iter()
            .map(|s| u64::from(def.max_bets) * def.bet_amount(s.bet))
            .sum::<u64>()
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
    mut f: impl FnMut(Edge) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
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

impl StrategyPlayer {
    /// The file.
    pub fn file(&self) -> &StrategyFile {
        &self.file
    }

    /// Lets first-street bucket lookups use a precomputed table (seconds at the `default` size):
    /// for long matches and servers. See [`StrategyFile::precompute_first_street`].
    pub fn precompute_first_street(&mut self) -> usize {
        self.file.precompute_first_street()
    }

    /// [`Player::policy`] for a betting-tree file (see the module documentation), with the
    /// seat's bucket when it is known (else computed from the seat's cards, if needed).
    fn betting_policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        bucket: Option<u32>,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let f = &self.file;
        let street = state.street();
        let node = f.locate(bets)?;
        let n = f.node(node)?;
        probs.fill(0.0);
        if n.kind == NodeKind::Showdown as u8 || (n.street as usize > street) {
            // A raise past the cap closed this street in the abstract game: it has called.
            probs[super::passive(legal)] = 1.0;
            return Ok(Answer::Own);
        }
        let role = (state.first_actor(street) != Some(seat)) as u8;
        if n.kind != NodeKind::Action as u8 || n.street as usize != street || n.player != role {
            bail!(
                "the strategy's tree has no decision of seat {seat} (role {role}) on {} \
                 after this betting",
                state.def().street_name(street)
            );
        }
        let bucket = match bucket {
            Some(b) => b,
            None => f.key_of(state, seat)?,
        };
        let mut row = [0.0; MAX_ACTIONS];
        let k = f.row_into(node, bucket, &mut row)?;
        self.purification.apply(&mut row[..k]);
        for (c, &p) in row[..k].iter().enumerate() {
            if let Some(a) = f.real_action(node, c, legal) {
                if let Some(i) = legal.iter().position(|&x| x == a) {
                    probs[i] += p;
                }
            }
        }
        Ok(normalize_or_fall_back(legal, probs))
    }
}

impl Player for StrategyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        if self.file.header().tree == TreeKind::Betting {
            return self.betting_policy(state, bets, seat, None, legal, probs);
        }
        let f = &self.file;
        let node = self.walk(state, bets, |_, _, _| Ok(()))?;
        let n = f.node(node)?;
        if n.kind != NodeKind::Action as u8 || n.player != seat {
            bail!("the strategy's tree has no decision of seat {seat} here");
        }
        let card = match state.down_cards(seat) {
            [Some(c)] => *c,
            _ => bail!("the strategy plays games with exactly one known down card per seat"),
        };
        let hand = self.hand(card)?;
        let mut row = [0.0; MAX_ACTIONS];
        let k = f.probabilities_into(node, hand, &mut row)?;
        self.purification.apply(&mut row[..k]);
        for (p, a) in probs.iter_mut().zip(legal) {
            *p = f.position(node, Edge::Action(*a))?.map_or(0.0, |c| row[c]);
        }
        Ok(normalize_or_fall_back(legal, probs))
    }

    /// A betting-tree file's bucket of the seat's view; a public-tree file has no classes.
    fn card_class(&self, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        if self.file.header().tree != TreeKind::Betting {
            return Ok(None);
        }
        Ok(Some(self.file.key_of(state, seat)?))
    }

    fn class_policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        class: u32,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        if self.file.header().tree != TreeKind::Betting {
            bail!("a public-tree strategy reads its card without classes");
        }
        // LBR weighs each holding by these probabilities: a fallback is a probability too.
        self.betting_policy(state, bets, seat, Some(class), legal, probs)?;
        Ok(())
    }
}
