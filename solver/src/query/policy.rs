//! `stud query F.json SPOT --values` on the exact multiway solver's policy (kuhn-3p, leduc-3p,
//! tristud): the spot replayed on the policy's game, the exact values of each action in the
//! solved game ([`crate::values::policy`]), as `--json` writes the values of a strategy file.

use super::spot::{check_hand_up, parse_holding, replay, Replayed, Step};
use super::values::to_json;
use crate::strategy_file::policy::Policy;
use crate::values::{policy::exact, Options};
use abstraction::cards::{Card, CardSet};
use anyhow::{Context, Result};
use serde_json::Value;

/// The answer of `stud query F.json SPOT --values [--hand HAND] --json` on `policy`.
pub fn values_json(policy: &Policy, steps: &[Step], hand: Option<&str>) -> Result<Value> {
    let Replayed { state, bets, .. } = replay(&policy.game, steps)?;
    let seat = state
        .to_act()
        .context("--values needs a decision: the spot ends where no one acts")?;
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let holding = hand.map(parse_holding).transpose()?;
    check_hand_up(hand, holding.as_ref(), up, seat)?;
    let down: Option<Vec<Card>> = holding.map(|h| h.down);
    let deck = policy.game.deck.cards();
    if let Some(c) = down.iter().flatten().find(|c| !deck.contains(**c)) {
        anyhow::bail!(
            "--hand {}: {c} is not a card of the game's deck ({})",
            hand.unwrap_or(""),
            super::spot::cards_text(deck)
        );
    }
    let v = exact(policy, &state, &bets, down.as_deref()).context("--values")?;
    let mut out = to_json(&state, &v, down.as_deref(), Options::default());
    out["policy_iterations"] = policy.iterations.into();
    out["policy_nash_conv"] = policy.nash_conv.into();
    Ok(out)
}
