//! `stud explore`'s Train tab: a spot dealt from a seed ([`solver::drill::deal_spot`]: both
//! seats play the file from a shuffled deck, one decision drawn), and the judgement of the
//! action the user picks there ([`solver::drill::feedback`]). The server keeps nothing: the
//! seed deals the same spot on every request, and the page keeps the score.

use crate::cli::action_words;
use crate::cli::play_train::spot_text;
use anyhow::{Context, Result};
use serde_json::{json, Value};
use solver::bot::StrategyPlayer;
use solver::drill::{deal_spot, feedback};
use solver::values::{Method, Options};

/// The spot of `seed`: where it is, the cards the player to act sees, its actions; with `pick`
/// (one of the actions' PHH codes, `cbr10` or `cbr 10`) the coach's frequencies for the hand,
/// each action's value, and the value lost by the pick.
pub fn drill(
    player: &StrategyPlayer,
    seed: u64,
    pick: Option<&str>,
    options: Options,
) -> Result<Value> {
    let (state, bets) = deal_spot(player, seed)?;
    let seat = state.to_act().context("a drill's spot has a decision")?;
    let def = state.def();
    let legal = state.legal_actions();
    let codes: Vec<String> = legal
        .iter()
        .map(|a| a.to_string().replace(' ', ""))
        .collect();
    let ups = |s: u8| -> Vec<String> { state.up_cards(s).iter().map(|c| c.to_string()).collect() };
    let down: Vec<String> = (state.down_cards(seat).iter().flatten())
        .map(|c| c.to_string())
        .collect();
    let mut v = json!({
        "seed": seed,
        "game": def.variant.name(),
        "spot": spot_text(&state, &bets)?,
        "seat": seat,
        "street": state.street(),
        "street_name": def.street_name(state.street()),
        "down": down,
        "up": [ups(0), ups(1)],
        "pot": state.pot(),
        "big_bet": def.big_bet,
        "actions": codes,
        "action_names": legal.iter().map(|&a| action_words(&state, a)).collect::<Vec<_>>(),
    });
    let Some(pick) = pick else {
        return Ok(v);
    };
    let code = pick.replace(' ', "");
    let chosen = (codes.iter().position(|c| *c == code)).with_context(|| {
        format!(
            "pick: `{pick}` is not an action here ({})",
            codes.join(", ")
        )
    })?;
    let f = feedback(player, &state, &bets, legal[chosen], options, &|_, _| {})?;
    let estimate = f.method == Method::Estimate;
    v["frequencies"] = f.frequencies.clone().into();
    v["method"] = serde_json::to_value(f.method)?;
    v["samples"] = estimate.then_some(options.samples).into();
    v["values"] = f.values.clone().into();
    v["plus_minus"] = f.plus_minus.clone().into();
    v["chosen"] = f.chosen.into();
    v["best"] = f.best.into();
    v["loss"] = f.loss.into();
    v["loss_plus_minus"] = f.loss_plus_minus.into();
    v["loss_big_bets"] = (f.loss / def.big_bet as f64).into();
    Ok(v)
}
