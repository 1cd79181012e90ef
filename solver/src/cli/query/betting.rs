//! `stud query` on a betting-tree file (the real games, heads-up): the spot replayed on the rules
//! engine, the decision located in the file's betting tree, the rows of `--hand`'s bucket or of
//! every bucket, and `--ranges`' chart and ranges.

use super::rows::{
    called_row, examples, play_json, play_rows, print_aligned, print_play, print_rows, print_table,
    rows_json, Row,
};
use super::spot::{
    cards_text, check_hand_up, describe, describe_words, first_words, hand_label, parse_holding,
    parse_spot, replay_betting, Holding, Replayed, Step,
};
use super::Args;
use crate::cli::action_words;
use abstraction::betting_tree::{BettingKind, BettingNodes};
use abstraction::bucketing::view::held_by;
use abstraction::bucketing::CardView;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::State;
use anyhow::{bail, Context, Result};
use solver::bot::StrategyPlayer;
use solver::policy;
use solver::strategy_file::{BettingFile, MAX_ACTIONS};

/// Where a queried decision is, as `--json` reports it.
struct Spot<'a> {
    /// The seat to act (`None`: the first decision, whose seat the door cards decide).
    seat: Option<u8>,
    /// Its role on the street (0 acts first).
    role: u8,
    street: usize,
    street_name: &'a str,
    node: u32,
}

/// The `--json` answer of a decision: where it is, its actions (PHH codes and words; `capped`:
/// past the raise cap, where the strategy calls) and its rows.
fn decision_json(
    at: &Spot,
    capped: bool,
    codes: &[String],
    names: &[String],
    rows: &[Row],
) -> serde_json::Value {
    serde_json::json!({
        "seat": at.seat,
        "role": at.role,
        "street": at.street,
        "street_name": at.street_name,
        "node": at.node,
        "capped": capped,
        "actions": codes,
        "action_names": names,
        "hands": rows_json(rows),
    })
}

/// What each bucket holds at a spot ([`solver::describe::holdings`]).
fn holdings(
    f: &BettingFile,
    street: usize,
    up: CardSet,
    opp_up: CardSet,
) -> Result<Vec<Vec<CardSet>>> {
    solver::describe::holdings(f.bucketing(), street, up, opp_up)
}

/// `stud query` on a betting-tree file: the spot replayed on the rules engine (down cards
/// unknown), the abstract node located from its betting, the rows of the player's bucket(s).
///
/// `player`: the file's strategy played as stored, for `--ranges`.
pub(super) fn run_betting(
    f: &BettingFile,
    args: &Args,
    steps: &[Step],
    player: Option<&StrategyPlayer>,
) -> Result<Option<serde_json::Value>> {
    let def = &f.header().game;
    let player = ranges_player(args, player)?;
    let holding = args.hand.as_deref().map(parse_holding).transpose()?;
    let Replayed { state, bets, empty } = replay_betting(def, steps)?;
    let street = state.street();
    let street_name = def.street_name(street);
    let Some(seat) = state.to_act() else {
        // The empty spot: the first decision, whoever the door cards make first to act.
        if holding.is_some() || player.is_some() {
            bail!(
                "{} needs the up cards, to find the holdings' buckets: give the door cards in \
                 the spot, as in `3c 8d`",
                if player.is_some() {
                    "--ranges"
                } else {
                    "--hand"
                }
            );
        }
        debug_assert!(empty);
        return first_decision(f, args, &bets, street);
    };
    let legal = state.legal_actions();
    let d = policy::locate_betting(f, &state, &bets, seat, &legal)?;
    let role = d.actor;
    let at = Spot {
        seat: Some(seat),
        role,
        street,
        street_name: &street_name,
        node: d.node,
    };
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let opp_up: CardSet = state.up_cards(1 - seat).iter().copied().collect();
    check_hand_up(args.hand.as_deref(), holding.as_ref(), up, seat)?;
    let whose = whose_turn(seat, role, &street_name, up, opp_up);
    if d.capped {
        // Past the cap the abstract game has called: the strategy checks or calls, as its
        // player does in play (see `solver::policy`). An answer, not an error.
        let call = legal[solver::bot::passive(&legal)];
        let rows = vec![called_row(holding.as_ref(), up)];
        let names = vec![action_words(&state, call)];
        let extras = match player {
            Some(p) => {
                let held = holdings(f, street, up, opp_up)?;
                Some(extras(p, &state, &bets, &held, 1, |_| Some(vec![1.0]))?)
            }
            None => None,
        };
        if args.output.json {
            let codes = [call.to_string().replace(' ', "")];
            let mut v = decision_json(&at, true, &codes, &names, &rows);
            add_extras(&mut v, extras);
            return Ok(Some(v));
        }
        println!("{whose}");
        println!(
            "past the strategy's cap of {} bets on a street: its game has no more raises \
             there, and its answer with every hand is: {}",
            f.header().betting.max_bets,
            names[0]
        );
        print_extras(&names, extras.as_ref());
        return Ok(None);
    }
    // The holdings of each bucket, when every bucket's row is asked (`--ranges` reuses them).
    let (mut rows, held) = match &holding {
        Some(h) => (vec![hand_row(f, &d, &state, seat, h)?], None),
        None => {
            let (rows, hs) = bucket_rows(f, &d, &state, seat)?;
            (rows, Some(hs))
        }
    };
    play_rows(&mut rows, args.play);
    let (codes, names) = actions_at(f, &d, &state)?;
    let extras = match (player, &held) {
        (Some(p), Some(held)) => Some(extras(p, &state, &bets, held, names.len(), |b| {
            rows.get(b).map(|r| r.probs.clone())
        })?),
        _ => None,
    };
    if args.output.json {
        let mut v = decision_json(&at, false, &codes, &names, &rows);
        v["play"] = play_json(args.play).into();
        add_extras(&mut v, extras);
        return Ok(Some(v));
    }
    println!("{whose}");
    print_play(args.play);
    print_rows(&names, rows, seat, holding.is_none());
    print_extras(&names, extras.as_ref());
    Ok(None)
}

/// The player whose ranges `--ranges` shows: `player` (`None` without `--ranges`), refused
/// when there is none.
fn ranges_player<'a>(
    args: &Args,
    player: Option<&'a StrategyPlayer>,
) -> Result<Option<&'a StrategyPlayer>> {
    Ok(match (args.ranges, player) {
        (true, None) => bail!("--ranges reads a real game's strategy (a betting-tree file)"),
        (true, p) => p,
        (false, _) => None,
    })
}

/// The text answer's line of who acts: the seat, first or second on the street, and the up
/// cards.
fn whose_turn(seat: u8, role: u8, street_name: &str, up: CardSet, opp_up: CardSet) -> String {
    format!(
        "p{} to act on {street_name} ({} to act on this street; showing {}, the opponent {})",
        seat + 1,
        if role == 0 { "first" } else { "second" },
        cards_text(up),
        cards_text(opp_up)
    )
}

/// The actions of decision `d` at `state`: their PHH codes, and their words (the real action
/// each plays, or the abstract edge's where it plays none).
fn actions_at(
    f: &BettingFile,
    d: &policy::Decision,
    state: &State,
) -> Result<(Vec<String>, Vec<String>)> {
    let kids = f.children(d.node)?;
    let codes: Vec<String> = kids.iter().map(|k| describe(k.1)).collect();
    let names: Vec<String> = kids
        .iter()
        .zip(d.actions())
        .map(|(kid, a)| match a {
            Some(a) => action_words(state, *a),
            None => describe_words(kid.1),
        })
        .collect();
    Ok((codes, names))
}

/// What `--ranges` adds: the strategy by hand class (`row(bucket)`: the bucket's row, `actions`
/// long), each seat's range (see [`solver::ranges`]).
struct Extras {
    chart: serde_json::Value,
    ranges: serde_json::Value,
}

/// Computes what `--ranges` adds at the decision `state` (`held`: the player to act's holdings
/// by bucket).
fn extras(
    player: &StrategyPlayer,
    state: &State,
    bets: &[(usize, Action)],
    held: &[Vec<CardSet>],
    actions: usize,
    row: impl Fn(usize) -> Option<Vec<f64>>,
) -> Result<Extras> {
    let f = player.file();
    let b = f
        .betting()
        .context("a betting-tree file without its bucketing")?
        .bucketing();
    let seat = state.to_act().context("--ranges: no one to act")?;
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    Ok(Extras {
        chart: solver::ranges::class_chart(b, state.street(), up, held, actions, row),
        ranges: solver::ranges::seat_ranges(player, state, bets, Some(held))?,
    })
}

/// Adds `--ranges`' answer to the JSON answer.
fn add_extras(v: &mut serde_json::Value, extras: Option<Extras>) {
    if let Some(e) = extras {
        v["chart"] = e.chart;
        v["ranges"] = e.ranges;
    }
}

/// Prints `--ranges`' answer as tables: the chart (one column per action of `names`), then each
/// seat's range by hand class.
fn print_extras(names: &[String], extras: Option<&Extras>) {
    let Some(e) = extras else { return };
    let num = |x: &serde_json::Value| x.as_f64().unwrap_or(0.0);
    let count = |x: &serde_json::Value| x.as_u64().unwrap_or(0).to_string();
    let empty = Vec::new();
    let list = |x: &serde_json::Value| x.as_array().unwrap_or(&empty).clone();
    println!();
    println!("by hand class (the mean of the rows of each class's holdings):");
    let mut head = vec!["hand class".to_string(), "holds".to_string()];
    head.extend(names.iter().cloned());
    let cells: Vec<Vec<String>> = list(&e.chart["rows"])
        .iter()
        .filter(|r| r["holdings"].as_u64() > Some(0))
        .map(|r| {
            let mut c = vec![
                r["class"].as_str().unwrap_or("").to_string(),
                count(&r["holdings"]),
            ];
            c.extend(
                list(&r["probabilities"])
                    .iter()
                    .map(|p| format!("{:.3}", num(p))),
            );
            c
        })
        .collect();
    print_aligned(&head, &cells, &[0]);
    for r in list(&e.ranges) {
        println!();
        let seat = r["seat"].as_u64().unwrap_or(0) + 1;
        println!(
            "p{seat}'s range reaching the spot: the betting so far has probability {:.4} over \
             p{seat}'s {} holdings",
            num(&r["reach"]),
            count(&r["holdings"]),
        );
        if r["lost"] == true {
            println!(
                "(p{seat} took an action its strategy never takes with any holding: from there \
                 every holding counts alike)"
            );
        }
        let head: Vec<String> = ["hand class", "holds", "reach", "share"]
            .map(String::from)
            .to_vec();
        let cells: Vec<Vec<String>> = list(&r["classes"])
            .iter()
            .filter(|c| c["holdings"].as_u64() > Some(0))
            .map(|c| {
                vec![
                    c["class"].as_str().unwrap_or("").to_string(),
                    count(&c["holdings"]),
                    format!("{:.4}", num(&c["reach"])),
                    format!("{:.3}", num(&c["share"])),
                ]
            })
            .collect();
        print_aligned(&head, &cells, &[0]);
    }
}

/// The row of `--hand` at decision `d` of `seat` in `state`: the key of its views (the card
/// bucket and what the rows recall), the row, the bucket's description.
fn hand_row(
    f: &BettingFile,
    d: &policy::Decision,
    state: &State,
    seat: u8,
    h: &Holding,
) -> Result<Row> {
    let def = &f.header().game;
    let street = state.street();
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let opp_up: CardSet = state.up_cards(1 - seat).iter().copied().collect();
    let mut row = [0.0; MAX_ACTIONS];
    let width = f.header().width;
    let down: CardSet = h.down.iter().copied().collect();
    if let Some(c) = h
        .down
        .iter()
        .find(|c| up.contains(**c) || opp_up.contains(**c))
    {
        bail!("--hand {c}: that card is already dealt face up in the spot");
    }
    let view = CardView {
        street,
        down,
        up,
        opp_up,
    };
    // The view a street back, from the cards dealt by then (a key may recall it).
    let prev = (street > 0).then(|| {
        let (downs, ups) = held_by(def, street - 1);
        let upto = |cards: &[Card]| cards.iter().take(ups).copied().collect();
        CardView {
            street: street - 1,
            down: h.down.iter().take(downs).copied().collect(),
            up: upto(state.up_cards(seat)),
            opp_up: upto(state.up_cards(1 - seat)),
        }
    });
    let key = f
        .key_of_views(&view, prev.as_ref(), |s| state.first_actor(s) == Some(seat))
        .context("--hand")?;
    let k = f.row_into(d.node, key, &mut row)?;
    // The card bucket in the key (the row may recall earlier streets beside it).
    let b = f.bucket_of(&view).context("--hand")?;
    let about = Some(solver::describe::of_hand(
        f.bucketing(),
        street,
        b,
        down,
        up,
    ));
    Ok(Row {
        hand: Some(hand_label(down, up)),
        bucket: Some(b),
        probs: row[..k].to_vec(),
        unreached: width.is_unreached(&row[..k]),
        holds: None,
        about,
    })
}

/// The row of every bucket at decision `d` of `seat` in `state`, with how many of the seat's
/// holdings each holds here (rows that recall only the order of play: one key per bucket); and
/// those holdings by bucket, which `--ranges` reuses.
fn bucket_rows(
    f: &BettingFile,
    d: &policy::Decision,
    state: &State,
    seat: u8,
) -> Result<(Vec<Row>, Vec<Vec<CardSet>>)> {
    let street = state.street();
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let opp_up: CardSet = state.up_cards(1 - seat).iter().copied().collect();
    let mut rows = Vec::new();
    let mut row = [0.0; MAX_ACTIONS];
    let width = f.header().width;
    let recall = f.recall();
    if recall.recalls_buckets() {
        bail!(
            "this strategy's rows recall the previous street's bucket ({}): a table by \
             bucket is not defined; give the hand with --hand",
            recall.name()
        );
    }
    let counts: Vec<u32> = (0..=street).map(|s| f.bucketing().buckets(s)).collect();
    let held = holdings(f, street, up, opp_up)?;
    let about = solver::describe::at_spot(f.bucketing(), street, up, &held);
    for (b, hands) in held.iter().enumerate() {
        // The row of this bucket at this spot: its key with the spot's order of play.
        let key = recall.key(
            &counts,
            street,
            |_| b as u32,
            |s| state.first_actor(s) == Some(seat),
        );
        let k = f.row_into(d.node, key, &mut row)?;
        rows.push(Row {
            hand: None,
            bucket: Some(b as u32),
            probs: row[..k].to_vec(),
            unreached: width.is_unreached(&row[..k]),
            holds: Some((hands.len(), examples(hands))),
            about: about.get(b).cloned(),
        });
    }
    Ok((rows, held))
}

/// `stud query`'s answer at the empty spot of a betting-tree file: the first decision, whoever
/// the door cards make first to act, every bucket as the street's sampled deals fill it.
fn first_decision(
    f: &BettingFile,
    args: &Args,
    bets: &[(usize, Action)],
    street: usize,
) -> Result<Option<serde_json::Value>> {
    let def = &f.header().game;
    let street_name = def.street_name(street);
    let node = f.locate(bets)?;
    if f.node(node)?.kind != BettingKind::Action as u8 {
        bail!("damaged: the strategy's first node is not a decision");
    }
    let mut rows = Vec::new();
    let mut row = [0.0; MAX_ACTIONS];
    // No up cards: each bucket as the street's sampled deals fill it.
    let about = solver::describe::sampled(f.bucketing(), street)?;
    for b in 0..f.bucketing().buckets(street) {
        let k = f.row_into(node, b, &mut row)?;
        rows.push(Row {
            hand: None,
            bucket: Some(b),
            probs: row[..k].to_vec(),
            unreached: f.header().width.is_unreached(&row[..k]),
            holds: None,
            about: about.get(b as usize).cloned(),
        });
    }
    let codes: Vec<String> = f.children(node)?.iter().map(|k| describe(k.1)).collect();
    let names: Vec<String> = f
        .children(node)?
        .iter()
        .map(|k| first_words(def, k.1))
        .collect();
    if args.output.json {
        let at = Spot {
            seat: None,
            role: 0,
            street,
            street_name: &street_name,
            node,
        };
        return Ok(Some(decision_json(&at, false, &codes, &names, &rows)));
    }
    println!(
        "the first decision on {street_name}, of the seat the door cards make first to act \
         (no up cards given: every bucket; give the door cards, as in `3c 8d`, for what \
         each bucket holds)"
    );
    print_table(&names, &rows);
    Ok(None)
}

/// The answer of `stud query FILE SPOT [--hand HAND] [--ranges] --json` on a betting-tree file
/// (`player`'s, played as stored), as a value: what `stud explore` serves, so that the page
/// shows what the command prints.
pub fn betting_json(
    player: &StrategyPlayer,
    spot: &str,
    hand: Option<&str>,
    ranges: bool,
) -> Result<serde_json::Value> {
    /// The command line's own parser, so that the answer is the command's with its defaults.
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: Args,
    }
    let mut line = vec!["query", "FILE", spot, "--json"];
    if let Some(h) = hand {
        line.extend(["--hand", h]);
    }
    if ranges {
        line.push("--ranges");
    }
    let args = <Line as clap::Parser>::try_parse_from(line)?.args;
    let steps = parse_spot(spot)?;
    let f = (player.file().betting()).context("a public-tree file: no betting answer")?;
    run_betting(f, &args, &steps, Some(player))?.context("a text answer where JSON was asked")
}

#[cfg(test)]
mod tests {
    use super::betting_json;
    use serde_json::Value;
    use solver::bot::StrategyPlayer;
    use solver::purify::Purification;
    use solver::strategy_file::StrategyFile;

    fn numbers(v: &Value) -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    }

    #[test]
    fn a_range_after_one_action_weighs_each_bucket_by_its_row() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-hu.strat");
        let def = StrategyFile::open(std::path::Path::new(path))
            .unwrap()
            .game()
            .clone();
        let player = StrategyPlayer::open(path, &def)
            .unwrap()
            .with_purification(Purification::Mixed);
        // p1 brings in with the 3c: each of its buckets is in the range by its row's
        // probability of the bring-in at the decision before.
        let before = betting_json(&player, "3c 8d", None, false).unwrap();
        assert_eq!(before["actions"][0], "pb");
        let at = betting_json(&player, "3c 8d pb", None, true).unwrap();
        let ranges = at["ranges"].as_array().unwrap();
        let p1 = &ranges[0];
        let buckets = p1["buckets"].as_array().unwrap();
        assert!(buckets.len() > 10);
        for b in buckets {
            let bucket = b["bucket"].as_u64().unwrap() as usize;
            let row = numbers(&before["hands"][bucket]["probabilities"]);
            let reach = b["reach"].as_f64().unwrap();
            assert!(
                (reach - row[0]).abs() < 1e-9,
                "bucket {bucket}: {reach} vs {row:?}"
            );
        }
        // p2 has not acted: every class is in whole, each by its number of holdings.
        let p2 = &ranges[1];
        let total = p2["holdings"].as_f64().unwrap();
        assert_eq!(p2["reach"], 1.0);
        for c in p2["classes"].as_array().unwrap() {
            let n = c["holdings"].as_f64().unwrap();
            if n > 0.0 {
                assert_eq!(c["reach"], 1.0);
            }
            assert!((c["share"].as_f64().unwrap() - n / total).abs() < 1e-12);
        }
        for r in ranges {
            let shares: f64 = r["classes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["share"].as_f64().unwrap())
                .sum();
            assert!((shares - 1.0).abs() < 1e-9);
            assert_eq!(r["lost"], false);
        }
        // The chart counts each of p2's holdings once.
        assert_eq!(at["chart"]["holdings"], p2["holdings"]);
    }
}
