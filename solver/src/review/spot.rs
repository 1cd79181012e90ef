//! The hero's decisions of a replayed hand, each as the strategy is asked it: the public state
//! (every down card unknown, as [`crate::values`] takes it), the betting so far, the hero's
//! down cards, and the kind of spot and of action in a player's words.

use crate::bot::Bet;
use crate::public_view;
use abstraction::cards::Card;
use abstraction::phh::Replay;
pub use abstraction::rules::notation::{action_kind, ActionKind};
use abstraction::rules::{Action, FirstRound, State};
use anyhow::{Context, Result};
use serde::Serialize;

/// What the player faced when it acted: the betting on the street before its action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpotKind {
    /// Third street's forced opening: bring in or complete.
    BringIn,
    /// Third street, only the bring-in in: fold, call it or complete.
    FacingBringIn,
    /// No bet yet on a later street: check or bet.
    FirstIn,
    /// One bet (or third street's completion) to call.
    FacingBet,
    /// A raise or more to call.
    FacingRaise,
}

impl SpotKind {
    /// The spot in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            SpotKind::BringIn => "bring-in or complete",
            SpotKind::FacingBringIn => "facing the bring-in",
            SpotKind::FirstIn => "first in",
            SpotKind::FacingBet => "facing a bet",
            SpotKind::FacingRaise => "facing a raise",
        }
    }
}

/// The kind of spot of the seat to act at `state`, after `bets`.
pub fn spot_kind(state: &State, bets: &[Bet]) -> SpotKind {
    let street = state.street();
    let on_street = bets.iter().filter(|(s, _)| *s == street);
    let raises = on_street
        .clone()
        .filter(|(_, a)| matches!(a, Action::CompleteBetRaise(_)))
        .count();
    let bring_in = state.def().first_round == FirstRound::BringIn && street == 0;
    match raises {
        0 if bring_in && on_street.count() == 0 => SpotKind::BringIn,
        0 if bring_in => SpotKind::FacingBringIn,
        0 => SpotKind::FirstIn,
        1 => SpotKind::FacingBet,
        _ => SpotKind::FacingRaise,
    }
}

/// One decision of the hero as the strategy is asked it.
pub struct HeroSpot {
    /// The decision's index in the replay's decisions.
    pub index: usize,
    /// The state at the decision, every seat's down cards unknown.
    pub public: State,
    /// The state at the decision with the hero's own down cards known.
    pub own: State,
    /// The betting before the decision.
    pub bets: Vec<Bet>,
    /// The hero's down cards here, in the order dealt.
    pub down: Vec<Card>,
}

/// The hero's decisions of the replayed hand `r`, rebuilt from its start: the up cards as
/// dealt, every down card unknown, the actions as taken. Fails when a down card of the hero
/// is not in the file (a review reads the hero's cards).
pub fn hero_spots(r: &Replay, hero: u8) -> Result<Vec<HeroSpot>> {
    let bets: Vec<Bet> = r.decisions.iter().map(|d| (d.street, d.taken)).collect();
    let mut spots = Vec::new();
    public_view::replay(&r.state, &bets, false, &mut Vec::new(), |public, i| {
        if r.decisions[i].seat == hero {
            spots.push(spot_of(public, &bets[..i], &r.state, hero, i)?);
        }
        Ok(())
    })?;
    Ok(spots)
}

/// The hero's decision `index` at `public`.
fn spot_of(public: &State, bets: &[Bet], end: &State, hero: u8, index: usize) -> Result<HeroSpot> {
    let n = public.down_cards(hero).len();
    let down: Vec<Card> = end.down_cards(hero)[..n]
        .iter()
        .map(|c| c.context("the hero's down cards are not in the hand (`??`): a review reads them"))
        .collect::<Result<_>>()?;
    let mut own = public.clone();
    own.show(hero, &down)?;
    Ok(HeroSpot {
        index,
        public: public.clone(),
        own,
        bets: bets.to_vec(),
        down,
    })
}
