//! `stud query --values`'s answer at a spot of a real-game file, heads-up or multiway: the spot
//! replayed, the value of each legal action for the hand and by hand class ([`crate::values`]),
//! as `--json` writes it. The command line, `stud explore`'s values view and the Python package ask it.

use super::spot::{action_words, cards_text, check_hand_up, parse_holding, replay};
use super::spot::{Replayed, Step};
use crate::bot::StrategyPlayer;
use crate::strategy_file::StrategyFile;
use crate::values::{Line, Method, Options, Values};
use abstraction::cards::{Card, CardSet};
use abstraction::rules::State;
use anyhow::{ensure, Context, Result};
use serde_json::{json, Value};

/// The answer of `stud query FILE SPOT --values [--hand HAND] --json` (`player`'s file,
/// played as stored), as a value: what `stud explore` serves. `progress` is told what is
/// counted (the exact walk's steps, or an estimate's deals), how many are done, of how many.
pub fn values_json(
    player: &StrategyPlayer,
    steps: &[Step],
    hand: Option<&str>,
    options: Options,
    progress: &(dyn Fn(&'static str, usize, usize) + Sync),
) -> Result<Value> {
    let file = player.file();
    ensure!(
        !matches!(file, StrategyFile::Public(_)),
        "--values reads a real game's strategy (a betting-tree or multiway file), not a public \
         tree: every private hand has its own row already"
    );
    let def = file.game();
    let Replayed { state, bets, .. } = replay(def, steps)?;
    let seat = state.to_act().context(
        "--values needs a decision with its up cards: give the door cards in the spot, as in \
         `3c 8d pb`",
    )?;
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let holding = hand.map(parse_holding).transpose()?;
    check_hand_up(hand, holding.as_ref(), up, seat)?;
    let down: Option<Vec<Card>> = holding.map(|h| h.down);
    let unit = if crate::values::walkable(&state) {
        "steps of the exact walk"
    } else if crate::values::table_exact::walkable(&state) {
        "deals of the exact walk"
    } else {
        "deals"
    };
    let v = crate::values::values(player, &state, &bets, down.as_deref(), options, &|d, a| {
        progress(unit, d, a)
    })
    .context("--values")?;
    Ok(to_json(&state, &v, down.as_deref(), options))
}

/// The JSON answer: where, the actions (PHH codes and words), each line in chips and big bets.
pub(super) fn to_json(state: &State, v: &Values, hand: Option<&[Card]>, options: Options) -> Value {
    let bb = v.big_bet as f64;
    let line = |l: &Line| {
        json!({
            "chips": l.chips,
            "big_bets": l.chips.iter().map(|c| c / bb).collect::<Vec<f64>>(),
            "plus_minus": l.plus_minus,
            "plus_minus_big_bets": l.plus_minus.as_ref().map(|p| p.iter().map(|c| c / bb).collect::<Vec<f64>>()),
            "samples": l.samples,
            "reached": l.reached,
        })
    };
    let classes: Vec<Value> = (v.classes.iter())
        .map(|c| {
            let mut x = line(&c.values);
            x["class"] = c.class.as_str().into();
            x["holdings"] = c.holdings.into();
            x["share"] = c.share.into();
            x
        })
        .collect();
    let def = state.def();
    json!({
        "seat": v.seat,
        "seats": def.seats,
        "live": (0..def.seats).filter(|s| state.live() >> s & 1 == 1).collect::<Vec<u8>>(),
        "street": state.street(),
        "street_name": def.street_name(state.street()),
        "method": v.method,
        "actions": v.actions.iter().map(|a| a.to_string().replace(' ', "")).collect::<Vec<_>>(),
        "action_names": v.actions.iter().map(|&a| action_words(state, a)).collect::<Vec<_>>(),
        "committed": v.committed,
        "pot": v.pot,
        "big_bet": v.big_bet,
        "samples": (v.method == Method::Estimate).then_some(options.samples),
        "seed": (v.method == Method::Estimate).then_some(options.seed),
        "hand": hand.map(|h| {
            let mut x = v.hand.as_ref().map_or(Value::Null, line);
            x["cards"] = cards_text(h.iter().copied().collect()).into();
            x
        }),
        "range": v.range.as_ref().map(line),
        "classes": classes,
        "classes_unsampled": v.classes_unsampled,
        "millis": v.millis,
    })
}
