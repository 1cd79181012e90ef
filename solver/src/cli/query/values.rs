//! `stud query --values`: the value of each legal action at a decision of a heads-up real-game
//! file, for `--hand` and by hand class ([`solver::values`] finds them; this reads the spot,
//! draws the progress and prints). `stud explore`'s values view asks [`values_json`].

use super::rows::print_aligned;
use super::spot::{cards_text, check_hand_up, parse_holding, replay_betting, Replayed, Step};
use super::Args;
use crate::cli::action_words;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::State;
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;
use solver::values::{Line, Method, Options, Values};

/// Runs `stud query --values` on `f` (opened from `args.file`).
pub(super) fn run(f: &StrategyFile, args: &Args, steps: &[Step]) -> Result<()> {
    if !matches!(f, StrategyFile::Betting(_)) {
        bail!(
            "--values reads a heads-up real game's strategy (a betting-tree file); {} is not one",
            args.file.display()
        );
    }
    let path = args.file.to_str().context("the file's path is not UTF-8")?;
    let player = StrategyPlayer::open(path, f.game())?.with_purification(Purification::Mixed);
    let options = Options {
        samples: args.samples as usize,
        seed: args.seed,
    };
    let bar = crate::cli::deals_bar(args.output.json, 0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}, {eta} left",
        )
        .expect("a valid template"),
    );
    let v = values_json(
        &player,
        steps,
        args.hand.as_deref(),
        options,
        &|unit, done, all| {
            bar.set_message(unit);
            bar.set_length(all as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let v = v?;
    if args.output.json {
        println!("{v}");
    } else {
        print_values(&v);
    }
    Ok(())
}

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
    let f = (player.file().betting()).context("--values reads a betting-tree file")?;
    let def = &f.header().game;
    let Replayed { state, bets, .. } = replay_betting(def, steps)?;
    let seat = state.to_act().context(
        "--values needs a decision with its up cards: give the door cards in the spot, as in \
         `3c 8d pb`",
    )?;
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let holding = hand.map(parse_holding).transpose()?;
    check_hand_up(hand, holding.as_ref(), up, seat)?;
    let down: Option<Vec<Card>> = holding.map(|h| h.down);
    let unit = match solver::values::walkable(&state) {
        true => "steps of the exact walk",
        false => "deals",
    };
    let v = solver::values::values(player, &state, &bets, down.as_deref(), options, &|d, a| {
        progress(unit, d, a)
    })
    .context("--values")?;
    Ok(to_json(&state, &v, down.as_deref(), options))
}

/// The JSON answer: where, the actions (PHH codes and words), each line in chips and big bets.
fn to_json(state: &State, v: &Values, hand: Option<&[Card]>, options: Options) -> Value {
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

/// A value and its interval, in chips (`+1.25 ±0.40`).
fn cell(x: &Value, pm: &Value, a: usize) -> String {
    let c = x[a].as_f64().unwrap_or(f64::NAN);
    match pm[a].as_f64() {
        Some(p) => format!("{c:+.2} ±{p:.2}"),
        None => format!("{c:+.2}"),
    }
}

/// Prints the JSON answer as text: the spot, the hand's values action by action in chips and
/// big bets, then the range and each class in chips.
fn print_values(v: &Value) {
    let names: Vec<String> = (v["action_names"].as_array().into_iter().flatten())
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect();
    let seat = v["seat"].as_u64().unwrap_or(0) + 1;
    println!(
        "p{seat} to act on {}; pot {}, p{seat} has put in {} (a big bet is {} chips)",
        v["street_name"].as_str().unwrap_or(""),
        v["pot"],
        v["committed"],
        v["big_bet"]
    );
    if v["method"] == "exact" {
        println!(
            "values from here in chips (a fold is worth 0), exact: every holding of both seats \
             and every card to come, both seats playing the file to the end"
        );
    } else {
        println!(
            "values from here in chips (a fold is worth 0), estimated: {} deals of the unknown \
             cards (seed {}), both seats playing the file to the end; ± a 95% interval",
            v["samples"], v["seed"]
        );
    }
    let empty = Vec::new();
    if let Some(h) = v["hand"].as_object() {
        println!();
        println!("with {}:", h["cards"].as_str().unwrap_or(""));
        let cells: Vec<Vec<String>> = (0..names.len())
            .map(|a| {
                let bb = cell(&h["big_bets"], &h["plus_minus_big_bets"], a);
                vec![
                    names[a].clone(),
                    cell(&h["chips"], &h["plus_minus"], a),
                    format!("{bb} big bets"),
                ]
            })
            .collect();
        let head = ["action", "chips", "big bets"].map(String::from).to_vec();
        print_aligned(&head, &cells, &[0]);
    }
    if v["range"].is_null() {
        println!();
        println!("(the estimate dealt this hand only: without --hand, the range and each class)");
        return;
    }
    println!();
    println!("by hand class (the player's holdings of each class, weighed by both ranges):");
    let mut head = vec!["hand class".to_string(), "holds".into(), "share".into()];
    head.extend(names.iter().cloned());
    let row = |name: String, holds: String, share: String, l: &Value| {
        let mut c = vec![name, holds, share];
        c.extend((0..names.len()).map(|a| cell(&l["chips"], &l["plus_minus"], a)));
        c
    };
    let mut cells = vec![row(
        "the whole range".into(),
        "".into(),
        "1.000".into(),
        &v["range"],
    )];
    for c in v["classes"].as_array().unwrap_or(&empty) {
        let mut name = c["class"].as_str().unwrap_or("").to_string();
        if c["reached"] == false {
            name.push_str(" (unreached)");
        }
        let share = format!("{:.3}", c["share"].as_f64().unwrap_or(0.0));
        cells.push(row(name, c["holdings"].to_string(), share, c));
    }
    print_aligned(&head, &cells, &[0]);
    let unsampled = v["classes_unsampled"].as_u64().unwrap_or(0);
    if unsampled > 0 {
        println!(
            "{unsampled} more classes met in fewer than 2 samples: ask more with --samples, or \
             one hand with --hand"
        );
    }
}
