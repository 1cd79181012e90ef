//! `stud query`'s answer on a betting-tree file (the real games, heads-up): the spot replayed on
//! the rules engine, the decision located in the file's betting tree, the rows of the hand's
//! bucket or of every bucket, and what `--ranges` adds (the chart by hand class and each seat's
//! range). The answer as data ([`Answer`]) and as `stud query --json` writes it
//! ([`Answer::json`]); the command line prints its text from the same data.

use super::rows::{called_row, examples, play_json, play_rows, rows_json, Row};
use super::spot::{
    action_words, check_hand_up, describe, describe_words, first_words, hand_label, parse_holding,
    replay, Holding, Replayed, Step,
};
use crate::bot::StrategyPlayer;
use crate::policy;
use crate::purify::Purification;
use crate::strategy_file::{BettingFile, MAX_ACTIONS};
use abstraction::betting_tree::{BettingKind, BettingNodes};
use abstraction::bucketing::view::held_by;
use abstraction::bucketing::CardView;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::State;
use anyhow::{bail, Context, Result};

/// What is asked at a spot: `stud query`'s `--hand`, `--play` and `--ranges`.
#[derive(Clone, Copy, Default)]
pub struct Ask<'a> {
    /// The cards of the player to act (`--hand`, see [`super::spot::Holding`]); `None`: every
    /// bucket's row.
    pub hand: Option<&'a str>,
    /// How each row is played (`None`: as stored).
    pub play: Option<Purification>,
    /// The file's player, its rows played as stored, whose ranges `--ranges` adds; `None`:
    /// no ranges.
    pub ranges: Option<&'a StrategyPlayer>,
}

/// Where a queried decision is.
#[derive(Clone, Debug)]
pub struct Spot {
    /// The seat to act (`None`: the first decision, whose seat the door cards decide).
    pub seat: Option<u8>,
    /// Its role on the street (0 acts first).
    pub role: u8,
    /// The street (0-based: third street is 0 in the seven-card games).
    pub street: usize,
    /// The street as players name it (`3rd street`).
    pub street_name: String,
    /// The decision's node in the file's betting tree.
    pub node: u32,
    /// The up cards of the seat to act and of the other seat (none at the first decision).
    pub up: [CardSet; 2],
}

/// What `--ranges` adds: the strategy by hand class and each seat's range (see
/// [`crate::ranges`]), as `--json` writes them.
#[derive(Clone, Debug)]
pub struct Extras {
    /// The mean row of each hand class's holdings ([`crate::ranges::class_chart`]).
    pub chart: serde_json::Value,
    /// Each seat's range reaching the spot ([`crate::ranges::seat_ranges`]).
    pub ranges: serde_json::Value,
}

/// What kind of decision was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The empty spot: the first decision, every bucket as the street's sampled deals fill it.
    First,
    /// Past the strategy's raise cap: its abstract game has called, and so does the strategy
    /// with every hand (one row, of the check or call).
    Capped,
    /// A decision of the strategy: the rows of the hand's bucket or of every bucket.
    Rows,
}

/// `stud query`'s answer at a spot of a betting-tree file.
#[derive(Clone, Debug)]
pub struct Answer {
    /// What kind of decision it is.
    pub kind: Kind,
    /// Where it is.
    pub at: Spot,
    /// The decision's actions as PHH codes (`f`, `cc`, `cbr10`), in the file's order.
    pub codes: Vec<String>,
    /// The same in a player's words (`fold`, `call 5`, `raise to 10`).
    pub names: Vec<String>,
    /// The rows: the hand's (one), or every bucket's.
    pub rows: Vec<Row>,
    /// How the rows are played (`None`: as stored).
    pub play: Option<Purification>,
    /// What `--ranges` adds, when asked.
    pub extras: Option<Extras>,
}

impl Answer {
    /// The answer as `stud query --json` writes it.
    pub fn json(&self) -> serde_json::Value {
        let at = &self.at;
        let mut v = serde_json::json!({
            "seat": at.seat,
            "role": at.role,
            "street": at.street,
            "street_name": at.street_name,
            "node": at.node,
            "capped": self.kind == Kind::Capped,
            "actions": self.codes,
            "action_names": self.names,
            "hands": rows_json(&self.rows),
        });
        if self.kind == Kind::Rows {
            v["play"] = play_json(self.play).into();
        }
        if let Some(e) = &self.extras {
            v["chart"] = e.chart.clone();
            v["ranges"] = e.ranges.clone();
        }
        v
    }
}

/// What each bucket holds at a spot ([`crate::describe::holdings`]).
fn holdings(
    f: &BettingFile,
    street: usize,
    up: CardSet,
    opp_up: CardSet,
) -> Result<Vec<Vec<CardSet>>> {
    crate::describe::holdings(f.bucketing(), street, up, opp_up)
}

/// `stud query`'s answer on a betting-tree file: the spot replayed on the rules engine (down
/// cards unknown), the abstract node located from its betting, the rows of the player's
/// bucket(s), and the ranges when asked.
pub fn answer(f: &BettingFile, ask: Ask<'_>, steps: &[Step]) -> Result<Answer> {
    let def = &f.header().game;
    let holding = ask.hand.map(parse_holding).transpose()?;
    let Replayed { state, bets, empty } = replay(def, steps)?;
    let street = state.street();
    let street_name = def.street_name(street);
    let Some(seat) = state.to_act() else {
        // The empty spot: the first decision, whoever the door cards make first to act.
        if holding.is_some() || ask.ranges.is_some() {
            bail!(
                "{} needs the up cards, to find the holdings' buckets: give the door cards in \
                 the spot, as in `3c 8d`",
                if ask.ranges.is_some() {
                    "--ranges"
                } else {
                    "--hand"
                }
            );
        }
        debug_assert!(empty);
        return first_decision(f, &bets, street);
    };
    let legal = state.legal_actions();
    let d = policy::locate_betting(f, &state, &bets, seat, &legal)?;
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let opp_up: CardSet = state.up_cards(1 - seat).iter().copied().collect();
    let at = Spot {
        seat: Some(seat),
        role: d.actor,
        street,
        street_name,
        node: d.node,
        up: [up, opp_up],
    };
    check_hand_up(ask.hand, holding.as_ref(), up, seat)?;
    if d.capped {
        // Past the cap the abstract game has called: the strategy checks or calls, as its
        // player does in play (see `crate::policy`). An answer, not an error.
        let call = legal[crate::bot::passive(&legal)];
        let extras = match ask.ranges {
            Some(p) => {
                let held = holdings(f, street, up, opp_up)?;
                Some(extras(p, &state, &bets, &held, 1, |_| Some(vec![1.0]))?)
            }
            None => None,
        };
        return Ok(Answer {
            kind: Kind::Capped,
            at,
            codes: vec![call.to_string().replace(' ', "")],
            names: vec![action_words(&state, call)],
            rows: vec![called_row(holding.as_ref(), up)],
            play: ask.play,
            extras,
        });
    }
    // The holdings of each bucket, when every bucket's row is asked (`--ranges` reuses them).
    let (mut rows, held) = match &holding {
        Some(h) => (vec![hand_row(f, &d, &state, seat, h)?], None),
        None => {
            let (rows, hs) = bucket_rows(f, &d, &state, seat)?;
            (rows, Some(hs))
        }
    };
    play_rows(&mut rows, ask.play);
    let (codes, names) = actions_at(f, &d, &state)?;
    let extras = match (ask.ranges, &held) {
        (Some(p), Some(held)) => Some(extras(p, &state, &bets, held, names.len(), |b| {
            rows.get(b).map(|r| r.probs.clone())
        })?),
        _ => None,
    };
    Ok(Answer {
        kind: Kind::Rows,
        at,
        codes,
        names,
        rows,
        play: ask.play,
        extras,
    })
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

/// Computes what `--ranges` adds at the decision `state` (`held`: the player to act's holdings
/// by bucket; `row(bucket)`: the bucket's row, `actions` long).
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
        chart: crate::ranges::class_chart(b, state.street(), up, held, actions, row),
        ranges: crate::ranges::seat_ranges(player, state, bets, Some(held))?,
    })
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
    let about = Some(crate::describe::of_hand(f.bucketing(), street, b, down, up));
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
    let about = crate::describe::at_spot(f.bucketing(), street, up, &held);
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

/// The answer at the empty spot of a betting-tree file: the first decision, whoever the door
/// cards make first to act, every bucket as the street's sampled deals fill it.
fn first_decision(f: &BettingFile, bets: &[(usize, Action)], street: usize) -> Result<Answer> {
    let def = &f.header().game;
    let node = f.locate(bets)?;
    if f.node(node)?.kind != BettingKind::Action as u8 {
        bail!("damaged: the strategy's first node is not a decision");
    }
    let mut rows = Vec::new();
    let mut row = [0.0; MAX_ACTIONS];
    // No up cards: each bucket as the street's sampled deals fill it.
    let about = crate::describe::sampled(f.bucketing(), street)?;
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
    let kids = f.children(node)?;
    Ok(Answer {
        kind: Kind::First,
        at: Spot {
            seat: None,
            role: 0,
            street,
            street_name: def.street_name(street),
            node,
            up: [CardSet::EMPTY; 2],
        },
        codes: kids.iter().map(|k| describe(k.1)).collect(),
        names: kids.iter().map(|k| first_words(def, k.1)).collect(),
        rows,
        play: None,
        extras: None,
    })
}

/// The answer of `stud query FILE SPOT [--hand HAND] [--ranges] --json` on a betting-tree file
/// (`player`'s, played as stored): what `stud explore` serves and the Python package returns,
/// so that both show what the command prints.
pub fn answer_of(
    player: &StrategyPlayer,
    spot: &str,
    hand: Option<&str>,
    ranges: bool,
) -> Result<Answer> {
    if ranges && hand.is_some() {
        bail!("--ranges shows every holding's range: give no --hand with it");
    }
    let steps = super::spot::parse_spot(spot)?;
    let f = (player.file().betting()).context("a public-tree file: no betting answer")?;
    let ask = Ask {
        hand,
        play: None,
        ranges: ranges.then_some(player),
    };
    answer(f, ask, &steps)
}

#[cfg(test)]
mod tests {
    use super::answer_of;
    use crate::bot::StrategyPlayer;
    use crate::purify::Purification;
    use crate::strategy_file::StrategyFile;
    use serde_json::Value;

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
        let before = answer_of(&player, "3c 8d", None, false).unwrap().json();
        assert_eq!(before["actions"][0], "pb");
        let at = answer_of(&player, "3c 8d pb", None, true).unwrap().json();
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
