//! `stud query`: the strategy's action probabilities at a spot.
//!
//! # Spot notation
//! A spot is the public history from the start of the hand: public cards and betting actions in
//! the order they happen, separated by spaces (`|`, `/` and `,` are separators too, for
//! readability). The private cards are not part of the spot: `--hand` names the cards of the
//! player to act, else every hand (or bucket) is listed. An empty spot is the first decision.
//! - A card: `As`, `Td`, `Qc`: the next public card (an up card, seat 0's before seat 1's, or a
//!   community card).
//! - PHH actions: `f`, `cc`, `pb`, `cbr N` (or `cbrN`): fold, check/call, post the bring-in,
//!   complete/bet/raise to N chips this round. A PHH seat prefix (`p1`, `p2`) names the seat of
//!   the card or action after it (a public tree's spot reads past it).
//! - Words: `x`/`k`/`check`, `c`/`call`, `fold`, `bi`/`bring-in`, `b`/`r`/`bet`/`raise`/
//!   `complete` (when one bet size is legal there).
//!
//! The real games (betting-tree files) read the same notation, replayed on the rules engine: the
//! spot gives the up cards as they are dealt (on each street seat 0's, then seat 1's) and the
//! betting; down cards are not in the spot. `--hand` gives the cards of the player to act: its
//! down cards (`"As Kd"`, `AsKd`), or the stud notation with the down cards in brackets and the
//! up cards after them (`"(As Kd) 8d"`: the up cards must be the ones the spot dealt that seat);
//! the answer is the row of their bucket. Without `--hand`, the row of every bucket, each with
//! how many holdings of the player to act fall in it and a few of them, looked up in the
//! bucketing the file embeds. The empty spot gives every bucket's row at the first decision
//! (up cards unknown). Each bucket is described as a stud player would (see
//! [`solver::describe`]): its EHS, and the hand classes of the holdings in it, the commonest
//! first with their share (`pair of aces or kings 62%, two pair 21%`; at the empty spot, of a
//! fixed sample of the street's deals; with `--hand`, the hand's own class).
//!
//! Seven-card stud, third street then fourth: `3c 8d pb cc | Qs 2h x b` (seat 0 shows the 3c and
//! brings in, seat 1 calls; on fourth street seat 0 shows the better hand, Q-3, and checks,
//! seat 1 bets; seat 0 to act).
//!
//! Rows the solve never reached hold the uniform row the file stores for them, and are marked
//! `unreached`. A spot past the strategy's raise cap is answered: the abstract game has called
//! there, and so does the strategy.
//!
//! A multiway file (three to eight seats) reads the same notation for its N seats, the up cards
//! p1's first on each street; a seat prefix (`p3 cc`) is checked against the seat it names on
//! every real game. The answer is the row its player plays there: see `query_multiway.rs`.
//!
//! Examples: Leduc `cbr2 cc | Kd | cbr4` (seat 0 bets, seat 1 calls, the king of diamonds comes,
//! seat 0 bets; seat 1 to act); ministud `Ah Kc pb c Qd As` (up cards Ah for seat 0 and Kc for
//! seat 1, seat 1 brings in, seat 0 calls, fourth-street cards; the best showing hand to act).

use super::action_words;
use abstraction::betting_tree::{BettingKind, BettingNodes};
use abstraction::bucketing::view::held_by;
use abstraction::bucketing::CardView;
use abstraction::cards::{parse_distinct_cards, Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, GameDef, Next, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{anyhow, bail, Context, Result};
use solver::bot::StrategyPlayer;
use solver::describe::Description;
use solver::policy;
use solver::purify::Purification;
use solver::strategy_file::{multiway, BettingFile, PublicFile, StrategyFile, MAX_ACTIONS};
use std::path::PathBuf;

/// Arguments of `stud query`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud query strategies/7stud-hu.strat\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb\" --hand \"(As Kd) 8d\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --hand AsKd --json\n  \
    stud query strategies/razz-hu.strat \"Kc 3d\" --hand \"As 2d\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --ranges\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --play threshold=0.15\n  \
    stud query strategies/7stud-4p.strat:pure \"3c 8d Kh 2s pb\" --hand \"As Ad\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x\" \
--hand \"As Kd 2s\" --resolve --iterations 50\n\n\
    A multiway file (three or more seats; this one from stud solve --game 7stud-3p --abstraction \
    tiny --time 90s --out solves/7stud-3p.strat):\n  \
    stud query solves/7stud-3p.strat \"3c 8d Kh pb\" --hand \"As Ad\"\n  \
    stud query solves/7stud-3p.strat \"p1 3c p2 8d p3 Kh p1 pb p2 f p3 cc | 9h Ts\"\n\n\
    Spot: public cards and actions in order: PHH f, cc, pb, cbr N, or the words x, check, \
    c, call, fold, bi, b, bet, r, raise, complete. Streets are named as players say them (3rd \
    to 7th street). Rows marked `unreached` are the uniform rows of spots the solve never \
    reached. Each bucket of a real game is described by its EHS (its mean pot share) and the \
    hand classes of the holdings in it, the commonest first. See the module docs in \
    solver/src/cli/query.rs.")]
pub struct Args {
    /// The strategy file.
    pub file: PathBuf,
    /// The spot: the public history (empty for the first decision).
    #[arg(default_value = "")]
    pub spot: String,
    /// The cards of the player to act: down cards (`AsKd`, `"As Kd"`), or `"(As Kd) 8d"` with
    /// the up cards after the bracketed down cards (default: every hand or bucket).
    #[arg(long)]
    pub hand: Option<String>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
    /// Re-solve the last street (7th street; 5th in five-card stud), or from a 6th-street spot
    /// the last two (the 7th card private chance), with the real cards, from the ranges the
    /// strategy implies, and print the re-solved policy of `--hand` beside the strategy's (a
    /// real-game file; see docs/resolve.md).
    #[arg(long, requires = "hand")]
    pub resolve: bool,
    /// With --resolve: DCFR iterations of the re-solve (default 100; the same answer every run).
    #[arg(long, requires = "resolve", conflicts_with = "budget_ms")]
    pub iterations: Option<u64>,
    /// With --resolve: re-solve for this many milliseconds instead of a number of iterations.
    #[arg(long, requires = "resolve")]
    pub budget_ms: Option<u64>,
    /// With --resolve: re-solve safely, the opponent entering through the re-solving gadget
    /// with its blueprint counterfactual values (docs/resolve.md).
    #[arg(long, requires = "resolve")]
    pub safe: bool,
    /// With --resolve: the least probability by which an action taken weighs a holding in the
    /// ranges (0: Bayes' rule exactly; the default was measured, docs/resolve.md "The floor").
    #[arg(long, requires = "resolve", default_value_t = solver::resolve::DEFAULT_FLOOR,
          value_parser = solver::resolve::parse_floor)]
    pub floor: f64,
    /// Also print the strategy of the player to act by hand class, and each seat's range
    /// reaching the spot: the probability of the betting so far by hand class and by bucket,
    /// by Bayes' rule on the rows as stored (a real game's file, the up cards given; what
    /// `stud explore` shows).
    #[arg(long, conflicts_with_all = ["hand", "resolve"])]
    pub ranges: bool,
    /// Print each row as a player plays it: `mixed` (the rows as stored, the default),
    /// `threshold=T` (actions below T dropped, the rest scaled to sum 1) or `pure` (only the
    /// most likely action), as `stud match FILE:PLAY` plays the file (docs/solver.md, "Playing
    /// the average strategy"). `FILE:PLAY` says the same.
    #[arg(long, value_name = "PLAY", conflicts_with_all = ["ranges", "resolve"])]
    pub play: Option<Purification>,
}

/// `args` with a `FILE:PLAY` suffix (as `stud match` and `serve` read a player) moved to
/// `--play`: where no file has the name as given and what follows its last `:` is a way of
/// playing (`mixed`, `threshold=T`, `pure`).
fn split_play(mut args: Args) -> Result<Args> {
    if args.file.exists() {
        return Ok(args);
    }
    let Some(given) = args.file.to_str().map(str::to_owned) else {
        return Ok(args);
    };
    let Some((file, play)) = given.rsplit_once(':') else {
        return Ok(args);
    };
    let Ok(play) = play.parse::<Purification>() else {
        return Ok(args);
    };
    if args.play.is_some() {
        bail!("{given}: the way of playing is given twice (FILE:PLAY and --play): give one");
    }
    if args.ranges || args.resolve {
        bail!(
            "{given}: --ranges and --resolve read the rows as stored; drop `:{play}` (or use \
             --play without them)"
        );
    }
    args.file = PathBuf::from(file);
    args.play = Some(play);
    Ok(args)
}

/// Rewrites each row of the answer as `play` plays it (`None`: as stored).
pub(super) fn play_rows(rows: &mut [Row], play: Option<Purification>) {
    if let Some(p) = play {
        for r in rows {
            p.apply(&mut r.probs);
        }
    }
}

/// The answer's JSON `play`: how its rows are played (`mixed`: as stored).
pub(super) fn play_json(play: Option<Purification>) -> String {
    play.unwrap_or(Purification::Mixed).to_string()
}

/// The text answer's line saying how its rows are played, where they are not as stored.
pub(super) fn print_play(play: Option<Purification>) {
    if let Some(p) = play.filter(|&p| p != Purification::Mixed) {
        println!("played {p}: each row as `stud match FILE:{p}` plays it (the file stores the average as solved)");
    }
}

/// A step of a spot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Step {
    Card(Card),
    Exact(Action),
    /// `b`/`r`/`bet`/`raise`/`complete`: the only complete/bet/raise of the node.
    AnyRaise,
    /// A PHH seat prefix (`p1` is 0): the seat of the step after it (checked on the real
    /// games; a public tree's spot ignores it).
    Seat(u8),
}

pub(super) fn parse_spot(spot: &str) -> Result<Vec<Step>> {
    let tokens: Vec<&str> = spot
        .split(|c: char| c.is_whitespace() || "|/,".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let lower = t.to_ascii_lowercase();
        i += 1;
        let step = match lower.as_str() {
            "f" | "fold" => Step::Exact(Action::Fold),
            "cc" | "x" | "k" | "check" | "c" | "call" => Step::Exact(Action::CheckCall),
            "pb" | "bi" | "bring-in" => Step::Exact(Action::BringIn),
            "b" | "r" | "bet" | "raise" | "complete" => Step::AnyRaise,
            "cbr" => {
                let n = tokens
                    .get(i)
                    .and_then(|x| x.parse().ok())
                    .with_context(|| format!("`cbr` at token {i} needs an amount: `cbr 4`"))?;
                i += 1;
                Step::Exact(Action::CompleteBetRaise(n))
            }
            _ if lower.starts_with("cbr") => Step::Exact(Action::CompleteBetRaise(
                lower[3..]
                    .parse()
                    .with_context(|| format!("{t:?} (token {i}): `cbr` takes a number of chips"))?,
            )),
            _ if lower.len() >= 2 && lower.starts_with('p') && lower[1..].parse::<u8>().is_ok() => {
                match lower[1..].parse::<u8>() {
                    Ok(n @ 1..) => Step::Seat(n - 1),
                    _ => bail!("token {i} {t:?}: seats are numbered from p1"),
                }
            }
            _ => Step::Card(t.parse::<Card>().map_err(|e| {
                anyhow::anyhow!("token {i} {t:?} is neither an action (f, cc, pb, cbr N, x, c, b, r) nor a card: {e}")
            })?),
        };
        steps.push(step);
    }
    Ok(steps)
}

/// `--hand` as written: cards one after another (`AhKh`, `Ah Kh`), or stud's notation with the
/// down cards in brackets and the up cards after them (`(Kh Qh) Ah`). A card written twice, in
/// or out of the brackets, is refused.
#[derive(Debug, PartialEq)]
pub(super) struct Holding {
    pub(super) down: Vec<Card>,
    /// The up cards, when the stud notation gives them.
    pub(super) up: Option<Vec<Card>>,
}

pub(super) fn parse_holding(h: &str) -> Result<Holding> {
    let bad = |e: String| anyhow!("--hand {h:?}: {e}");
    let cards = |s: &str| parse_distinct_cards(s).map_err(|e| bad(e.to_string()));
    let Some(open) = h.find('(') else {
        if h.contains(')') {
            return Err(bad("a `)` without its `(`".into()));
        }
        return Ok(Holding {
            down: cards(h)?,
            up: None,
        });
    };
    let close = h
        .find(')')
        .filter(|&c| c > open)
        .ok_or_else(|| bad("a `(` without its `)`".into()))?;
    if !h[..open].trim().is_empty() || h[close + 1..].contains(['(', ')']) {
        return Err(bad(
            "write the down cards in brackets, then the up cards: `(Kh Qh) Ah`".into(),
        ));
    }
    let (down, up) = (&h[open + 1..close], &h[close + 1..]);
    // Both parts together, so that a card both down and up is refused too.
    cards(&format!("{down} {up}"))?;
    Ok(Holding {
        down: cards(down)?,
        up: Some(cards(up)?),
    })
}

/// Cards as a player writes them, best first: `AsKd`.
pub(super) fn cards_text(set: CardSet) -> String {
    let mut v: Vec<Card> = set.iter().collect();
    v.reverse();
    v.iter().map(Card::to_string).collect()
}

/// Refuses a `--hand` whose up cards (when it gives them) are not the ones the spot dealt
/// `seat` (`up`).
pub(super) fn check_hand_up(
    args: &Args,
    holding: Option<&Holding>,
    up: CardSet,
    seat: u8,
) -> Result<()> {
    if let Some(Holding { up: Some(u), .. }) = holding {
        let given: CardSet = u.iter().copied().collect();
        if given != up {
            bail!(
                "--hand {:?}: its up cards ({}) are not the ones the spot dealt p{} ({})",
                args.hand.as_deref().unwrap_or(""),
                cards_text(given),
                seat + 1,
                if up == CardSet::EMPTY {
                    "none".into()
                } else {
                    cards_text(up)
                }
            );
        }
    }
    Ok(())
}

/// The one row of a decision past the cap, where the abstract street has called: `--hand`'s
/// hand (if given) calling for sure.
pub(super) fn called_row(holding: Option<&Holding>, up: CardSet) -> Row {
    Row {
        hand: holding.map(|h| hand_label(h.down.iter().copied().collect(), up)),
        bucket: None,
        probs: vec![1.0],
        unreached: false,
        holds: None,
        about: None,
    }
}

/// A hand as a row of the answer names it: its down cards in brackets, then its up cards.
pub(super) fn hand_label(down: CardSet, up: CardSet) -> String {
    format!("({}) {}", cards_text(down), cards_text(up))
}

/// A row of the answer.
pub(super) struct Row {
    /// The hand (`As Kd`, or the card of a public-tree game), or `None` for a bucket's row.
    pub(super) hand: Option<String>,
    pub(super) bucket: Option<u32>,
    pub(super) probs: Vec<f64>,
    pub(super) unreached: bool,
    /// How many holdings of the player to act fall in the bucket here, and a few of them.
    pub(super) holds: Option<(usize, Vec<String>)>,
    /// A bucket's hand classes and EHS (a `--hand` row: the hand's own class).
    pub(super) about: Option<Description>,
}

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

/// Up to three of a bucket's holdings, spread from its best to its worst.
pub(super) fn examples(hands: &[CardSet]) -> Vec<String> {
    let n = hands.len();
    let picks: Vec<usize> = match n {
        0..=3 => (0..n).collect(),
        _ => vec![0, n / 2, n - 1],
    };
    picks.into_iter().map(|i| cards_text(hands[i])).collect()
}

/// Prints a decision's rows: the one of `--hand`, or every bucket's (`every`) with how many of
/// `seat`'s holdings each holds here, leaving out the buckets that hold none.
pub(super) fn print_rows(names: &[String], rows: Vec<Row>, seat: u8, every: bool) {
    if every {
        println!(
            "each bucket: how many down cards of p{} it holds here, and some of them",
            seat + 1
        );
    }
    // A bucket none of the player's holdings falls in here says nothing about this spot.
    let (shown, none): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| r.holds.as_ref().is_none_or(|h| h.0 > 0));
    print_table(names, &shown);
    if !none.is_empty() {
        println!(
            "({} buckets hold none of p{}'s hands here)",
            none.len(),
            seat + 1
        );
    }
}

/// Prints the answer's table, every column as wide as its widest cell, numbers right-aligned.
pub(super) fn print_table(actions: &[String], rows: &[Row]) {
    let mut head: Vec<String> = Vec::new();
    let hands = rows.iter().any(|r| r.hand.is_some());
    let buckets = rows.iter().any(|r| r.bucket.is_some());
    let holds = rows.iter().any(|r| r.holds.is_some());
    if hands {
        head.push("hand".into());
    }
    if buckets {
        head.push("bucket".into());
    }
    if holds {
        head.extend(["holds".into(), "e.g.".into()]);
    }
    let about = rows.iter().any(|r| r.about.is_some());
    if about {
        head.extend(["EHS".into(), "hand classes".into()]);
    }
    let text_cols = head.len();
    head.extend(actions.iter().cloned());
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut c = Vec::new();
            if hands {
                c.push(r.hand.clone().unwrap_or_default());
            }
            if buckets {
                c.push(r.bucket.map_or(String::new(), |b| b.to_string()));
            }
            if let Some((n, e)) = &r.holds {
                c.extend([n.to_string(), e.join(", ")]);
            } else if holds {
                c.extend([String::new(), String::new()]);
            }
            if about {
                let a = r.about.as_ref();
                c.push(a.map_or(String::new(), |a| format!("{:.3}", a.ehs)));
                c.push(a.map_or(String::new(), Description::text));
            }
            c.extend(r.probs.iter().map(|p| format!("{p:.3}")));
            c
        })
        .collect();
    let widths = column_widths(head.as_slice(), &cells);
    // The hand and the examples read left to right; counts and probabilities line up right.
    let left =
        |i: usize| i < text_cols && ["hand", "e.g.", "hand classes"].contains(&head[i].as_str());
    let line = |c: &[String], note: &str| {
        let mut s = String::new();
        for (i, x) in c.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = widths[i];
            if left(i) {
                s.push_str(&format!("{x:<w$}"));
            } else {
                s.push_str(&format!("{x:>w$}"));
            }
        }
        s.push_str(note);
        println!("{}", s.trim_end());
    };
    line(&head, "");
    for (r, c) in rows.iter().zip(&cells) {
        line(c, if r.unreached { "  unreached" } else { "" });
    }
}

/// The JSON of the answer's rows.
pub(super) fn rows_json(rows: &[Row]) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            let mut v = serde_json::json!({
                "hand": r.hand,
                "bucket": r.bucket,
                "probabilities": r.probs,
                "unreached": r.unreached,
            });
            if let Some((n, e)) = &r.holds {
                v["holdings"] = (*n).into();
                v["examples"] = e.clone().into();
            }
            if let Some(a) = &r.about {
                v["description"] = a.text().into();
                v["ehs"] = a.ehs.into();
                v["classes"] = serde_json::to_value(&a.classes).unwrap_or_default();
                if let Some(low) = a.low {
                    v["low_chance"] = low.into();
                }
            }
            v
        })
        .collect()
}

/// The state after the spot's betting-tree replay: where it stopped, and what was bet.
pub(super) struct Replayed {
    pub(super) state: State,
    pub(super) bets: Vec<(usize, Action)>,
    /// Whether the spot dealt no card at all: the first decision, up cards unknown.
    pub(super) empty: bool,
}

/// Door cards for an example spot, one per seat.
const DOORS: [&str; 8] = ["3c", "8d", "Kh", "5s", "Qd", "9c", "2h", "Js"];

/// Replays the spot on the rules engine of `def` (any number of seats), down cards unknown,
/// until it ends at a decision. A seat prefix (`p2 cc`, `p3 Kh`) must name the seat of the
/// action or up card after it.
pub(super) fn replay_betting(def: &GameDef, steps: &[Step]) -> Result<Replayed> {
    let mut state = State::new(def)?;
    let mut bets = Vec::new();
    let steps = with_seats(steps)?;
    let mut steps = steps.into_iter().peekable();
    let empty = steps.peek().is_none();
    loop {
        match state.next() {
            Next::Deal {
                deal: Deal::Up,
                seat,
            } => {
                let whose =
                    seat.map_or("a card face up".into(), |s| format!("p{}'s up card", s + 1));
                let Some((i, step, named)) = steps.next() else {
                    if empty {
                        break;
                    }
                    bail!(
                        "the spot stops before {whose} on {}: give it, as in `{}` for the door \
                         cards, p1's first",
                        def.street_name(state.street()),
                        DOORS[..usize::from(def.seats).min(DOORS.len())].join(" ")
                    );
                };
                let Step::Card(c) = step else {
                    bail!(
                        "step {} ({}): {whose} on {} is dealt here: give the card",
                        i + 1,
                        step_name(step),
                        def.street_name(state.street()),
                    );
                };
                check_seat(i, named, seat, &whose)?;
                state
                    .deal(c)
                    .with_context(|| format!("step {} ({c})", i + 1))?;
            }
            Next::Deal { .. } => state.deal_unknown()?,
            Next::Act { seat } => {
                let Some((i, step, named)) = steps.next() else {
                    break;
                };
                check_seat(i, named, Some(seat), &format!("p{}'s action", seat + 1))?;
                let a = resolve(&state, i, step)?;
                bets.push((state.street(), a));
                state
                    .apply(a)
                    .with_context(|| format!("step {} ({a})", i + 1))?;
            }
            Next::Over => {
                if let Some((i, _, _)) = steps.next() {
                    bail!("step {}: the hand is over before it", i + 1);
                }
                bail!("the spot ends where the hand is over: no one decides");
            }
        }
    }
    Ok(Replayed { state, bets, empty })
}

/// The steps with their index in the spot and the seat a prefix before them names.
fn with_seats(steps: &[Step]) -> Result<Vec<(usize, Step, Option<u8>)>> {
    let mut out = Vec::with_capacity(steps.len());
    let mut named = None;
    for (i, &step) in steps.iter().enumerate() {
        match step {
            Step::Seat(s) => {
                if let Some((at, before)) = named.replace((i, s)) {
                    bail!(
                        "step {} (p{}): a seat prefix with nothing after it",
                        at + 1,
                        before + 1
                    );
                }
            }
            _ => out.push((i, step, named.take().map(|(_, s)| s))),
        }
    }
    match named {
        Some((_, s)) => bail!(
            "the spot ends with a seat prefix (p{}): give its action",
            s + 1
        ),
        None => Ok(out),
    }
}

/// Fails when the prefix `named` before step `i` is not `seat`, whose `what` is due there.
fn check_seat(i: usize, named: Option<u8>, seat: Option<u8>, what: &str) -> Result<()> {
    match named {
        Some(n) if Some(n) != seat => bail!(
            "step {} is written for p{}, but {what} is due there",
            i + 1,
            n + 1
        ),
        _ => Ok(()),
    }
}

/// The real action a step names where `state` is to act.
fn resolve(state: &State, i: usize, step: Step) -> Result<Action> {
    let street = state.def().street_name(state.street());
    match step {
        Step::Exact(a) => Ok(a),
        Step::AnyRaise => {
            let raises: Vec<Action> = state
                .legal_actions()
                .into_iter()
                .filter(|a| matches!(a, Action::CompleteBetRaise(_)))
                .collect();
            match raises[..] {
                [a] => Ok(a),
                [] => bail!("step {} on {street}: no bet or raise is legal here", i + 1),
                _ => bail!(
                    "step {} on {street}: several bet sizes are legal here: say which with cbr N",
                    i + 1
                ),
            }
        }
        Step::Card(c) => bail!(
            "step {} ({c}): on {street} a betting action is due here",
            i + 1
        ),
        Step::Seat(_) => bail!("step {}: a seat prefix where an action is due", i + 1),
    }
}

/// `stud query` on a betting-tree file: the spot replayed on the rules engine (down cards
/// unknown), the abstract node located from its betting, the rows of the player's bucket(s).
///
/// `player`: the file's strategy played as stored, for `--ranges`.
fn run_betting(
    f: &BettingFile,
    args: &Args,
    steps: &[Step],
    player: Option<&StrategyPlayer>,
) -> Result<Option<serde_json::Value>> {
    let def = &f.header().game;
    let player = match (args.ranges, player) {
        (true, None) => bail!("--ranges reads a real game's strategy (a betting-tree file)"),
        (true, p) => p,
        (false, _) => None,
    };
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
    check_hand_up(args, holding.as_ref(), up, seat)?;
    let whose = format!(
        "p{} to act on {street_name} ({} to act on this street; showing {}, the opponent {})",
        seat + 1,
        if role == 0 { "first" } else { "second" },
        cards_text(up),
        cards_text(opp_up)
    );
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
    let mut held = None;
    let mut rows = match &holding {
        Some(h) => vec![hand_row(f, &d, &state, seat, h)?],
        None => {
            let (rows, hs) = bucket_rows(f, &d, &state, seat)?;
            held = Some(hs);
            rows
        }
    };
    play_rows(&mut rows, args.play);
    let kids = f.children(d.node)?;
    let codes: Vec<String> = kids.iter().map(|k| describe(k.1)).collect();
    let names: Vec<String> = kids
        .iter()
        .zip(d.actions())
        .map(|(kid, a)| match a {
            Some(a) => action_words(&state, *a),
            None => describe_words(kid.1),
        })
        .collect();
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

/// The width of each column of a table: its widest cell, the heading included.
fn column_widths(head: &[String], cells: &[Vec<String>]) -> Vec<usize> {
    (0..head.len())
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([head[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Prints a table, every column as wide as its widest cell: the columns `left` aligned left,
/// the others (counts and probabilities) right.
fn print_aligned(head: &[String], cells: &[Vec<String>], left: &[usize]) {
    let widths = column_widths(head, cells);
    for c in std::iter::once(head).chain(cells.iter().map(|c| &c[..])) {
        let line: Vec<String> = c
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let w = widths[i];
                if left.contains(&i) {
                    format!("{x:<w$}")
                } else {
                    format!("{x:>w$}")
                }
            })
            .collect();
        println!("{}", line.join("  ").trim_end());
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

/// An action of the hand's first decision in words (no up cards known: no state says more).
pub(super) fn first_words(def: &GameDef, e: Edge) -> String {
    match e {
        Edge::Action(Action::BringIn) => format!("bring in for {}", def.bring_in),
        Edge::Action(Action::CompleteBetRaise(x))
            if def.first_round == abstraction::rules::FirstRound::BringIn =>
        {
            format!("complete to {x}")
        }
        Edge::Action(Action::CompleteBetRaise(x)) => format!("bet {x}"),
        e => describe_words(e),
    }
}

/// A step as the spot notation writes it.
fn step_name(s: Step) -> String {
    match s {
        Step::Card(c) => c.to_string(),
        Step::Exact(a) => describe(Edge::Action(a)),
        Step::AnyRaise => "a bet or raise".into(),
        Step::Seat(s) => format!("p{}", s + 1),
    }
}

/// An edge as a PHH code (the spot notation, and `--json`'s `actions`).
pub(super) fn describe(e: Edge) -> String {
    match e {
        Edge::Action(Action::Fold) => "f".into(),
        Edge::Action(Action::CheckCall) => "cc".into(),
        Edge::Action(Action::BringIn) => "pb".into(),
        Edge::Action(Action::CompleteBetRaise(n)) => format!("cbr{n}"),
        Edge::Card(c) => c.to_string(),
        Edge::Root => "root".into(),
    }
}

/// An edge in words where no state says more (no amount owed is known).
fn describe_words(e: Edge) -> String {
    match e {
        Edge::Action(Action::Fold) => "fold".into(),
        Edge::Action(Action::CheckCall) => "check/call".into(),
        Edge::Action(Action::BringIn) => "bring in".into(),
        Edge::Action(Action::CompleteBetRaise(n)) => format!("bet/raise to {n}"),
        Edge::Card(c) => c.to_string(),
        Edge::Root => "root".into(),
    }
}

/// Runs `stud query`.
pub fn run(args: Args) -> Result<()> {
    let args = split_play(args)?;
    let steps = parse_spot(&args.spot)?;
    if multiway::is_multiway_file(&args.file) {
        return super::query_multiway::run(&args, &steps);
    }
    let f = StrategyFile::open(&args.file)?;
    if args.resolve {
        return super::query_resolve::run(&f, &args, &steps);
    }
    match &f {
        StrategyFile::Betting(betting) => {
            // --ranges replays the strategy as stored, through a player of the file.
            let player = match args.ranges {
                true => {
                    let path = args.file.to_str().context("the file's path is not UTF-8")?;
                    Some(
                        StrategyPlayer::open(path, &f.header().game)?
                            .with_purification(Purification::Mixed),
                    )
                }
                false => None,
            };
            if let Some(v) = run_betting(betting, &args, &steps, player.as_ref())? {
                println!("{v}");
            }
            Ok(())
        }
        StrategyFile::Public(_) if args.ranges => bail!(
            "--ranges reads a real game's strategy (a betting-tree file); {} is a public tree: \
             every private hand has its own row already",
            args.file.display()
        ),
        StrategyFile::Public(public) => run_public(public, &args, &steps),
    }
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

/// Deals the unknown down cards due before the next public event of `state`.
fn settle(state: &mut State) -> Result<()> {
    while let Next::Deal {
        deal: Deal::Down, ..
    } = state.next()
    {
        state.deal_unknown()?;
    }
    Ok(())
}

/// `stud query` on a public-tree file: the spot walked along the file's tree (and on the rules
/// engine beside it, for the actions in words), the rows of every private card or `--hand`'s.
fn run_public(f: &PublicFile, args: &Args, steps: &[Step]) -> Result<()> {
    let def = &f.header().game;
    let mut state = State::new(def)?;
    let mut node = 0u32;
    let mut public = CardSet::EMPTY;
    for (i, step) in steps.iter().enumerate() {
        let kids = f.children(node)?;
        let kind = f.node(node)?.kind;
        let choices = || {
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let found = match *step {
            Step::Card(c) => kids.iter().find(|k| k.1 == Edge::Card(c)),
            Step::Exact(a) => kids.iter().find(|k| k.1 == Edge::Action(a)),
            // A public tree's node says whose turn it is: a prefix is read past.
            Step::Seat(_) => continue,
            Step::AnyRaise => {
                let raises: Vec<_> = kids
                    .iter()
                    .filter(|k| matches!(k.1, Edge::Action(Action::CompleteBetRaise(_))))
                    .collect();
                if raises.len() > 1 {
                    bail!(
                        "step {}: several bet sizes here ({}): say which with cbr N",
                        i + 1,
                        choices()
                    );
                }
                raises.first().copied()
            }
        };
        let Some(&(child, edge)) = found else {
            let at = if kind == NodeKind::Chance as u8 {
                "a public card is dealt here"
            } else if kids.is_empty() {
                "the hand is over here"
            } else {
                "a betting decision is made here"
            };
            bail!(
                "step {} ({}) is not in the abstract game: {at}; the choices are: {}",
                i + 1,
                step_name(*step),
                if kids.is_empty() {
                    "none".into()
                } else {
                    choices()
                }
            );
        };
        settle(&mut state)?;
        match edge {
            Edge::Card(c) => {
                public.insert(c);
                state.deal(c)
            }
            Edge::Action(a) => state.apply(a),
            Edge::Root => Ok(()),
        }
        .with_context(|| format!("step {} ({}) on the rules engine", i + 1, step_name(*step)))?;
        node = child;
    }
    settle(&mut state)?;
    let n = f.node(node)?;
    if n.kind != NodeKind::Action as u8 {
        if n.kind != NodeKind::Chance as u8 {
            bail!("the spot ends where the hand is over: no one decides");
        }
        let kids = f.children(node)?;
        bail!(
            "the spot ends before a public card on {}: continue it with one of {}",
            def.street_name(state.street()),
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let deck: Vec<Card> = def.deck.cards().iter().collect();
    let hands: Vec<(u32, Card)> = match &args.hand {
        Some(h) => {
            let held = parse_holding(h)?;
            let [c] = held.down[..] else {
                bail!("--hand {h:?}: this game deals each player one private card: give one");
            };
            if held.up.is_some_and(|u| !u.is_empty()) {
                bail!("--hand {h:?}: this game deals no up cards of a player's own");
            }
            let i = deck
                .iter()
                .position(|&d| d == c)
                .with_context(|| format!("--hand {c}: not a card of this game's deck"))?;
            if public.contains(c) {
                bail!("--hand {c}: that card is already dealt face up in the spot");
            }
            vec![(i as u32, c)]
        }
        None => deck
            .iter()
            .enumerate()
            .filter(|(_, c)| !public.contains(**c))
            .map(|(i, &c)| (i as u32, c))
            .collect(),
    };
    let kids = f.children(node)?;
    let codes: Vec<String> = kids.iter().map(|k| describe(k.1)).collect();
    let names: Vec<String> = kids
        .iter()
        .map(|k| match k.1 {
            Edge::Action(a) => action_words(&state, a),
            e => describe_words(e),
        })
        .collect();
    let width = f.header().width;
    let mut rows = Vec::new();
    for (i, c) in hands {
        let probs = f.probabilities(node, i)?;
        rows.push(Row {
            hand: Some(c.to_string()),
            bucket: None,
            unreached: width.is_unreached(&probs),
            probs,
            holds: None,
            about: None,
        });
    }
    play_rows(&mut rows, args.play);
    let street_name = def.street_name(n.street as usize);
    if args.output.json {
        let v = serde_json::json!({
            "seat": n.seat,
            "street": n.street,
            "street_name": street_name,
            "actions": codes,
            "action_names": names,
            "play": play_json(args.play),
            "hands": rows_json(&rows),
        });
        println!("{v}");
    } else {
        println!("p{} to act on {street_name}", n.seat + 1);
        print_play(args.play);
        print_table(&names, &rows);
    }
    Ok(())
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
            .header()
            .game
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
