//! A spot and a hand as `stud query` reads them: the notation parsed into steps (replayed on
//! the rules engine for any number of seats by [`crate::spot`], which a lock's spot shares),
//! and the words and codes of its actions. Shared by every kind of answer (public tree, betting
//! tree, multiway, re-solve), by `stud explore`'s addresses and by the Python package. The
//! notation in full: docs/guide/query.md.

use abstraction::cards::{parse_distinct_cards, Card, CardSet};
use abstraction::rules::notation::{self, Written, SPELLINGS};
use abstraction::rules::state::Action;
use abstraction::rules::{seat_name, seat_number};
use abstraction::rules::{FirstRound, GameDef};
use abstraction::tree::Edge;
use anyhow::{anyhow, bail, Result};

use crate::spot::action_code;
pub use crate::spot::{replay, step_name, walk, Replayed, Step, Walked};

/// Parses a spot: its tokens split at white space, `|`, `/` and `,`, each an action of
/// [`notation`] (`cbr 5` two tokens), a seat prefix (`p1`) or a card; a token that is none of
/// them is refused with its number.
pub fn parse_spot(spot: &str) -> Result<Vec<Step>> {
    let tokens = notation::tokens(spot);
    let mut steps = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let step = match notation::parse(&tokens[i..])
            .map_err(|e| anyhow!("token {}: {e}", i + 1))?
        {
            Some((written, n)) => {
                i += n;
                match written {
                    Written::Exact(a) => Step::Exact(a),
                    Written::AnyRaise => Step::AnyRaise,
                }
            }
            None if seat_number(t).is_some() => {
                i += 1;
                match seat_number(t) {
                    Some(n @ 1..) => Step::Seat(n - 1),
                    _ => bail!("token {i} {t:?}: seats are numbered from p1"),
                }
            }
            None => {
                i += 1;
                Step::Card(t.parse::<Card>().map_err(|e| {
                    anyhow!("token {i} {t:?} is neither an action ({SPELLINGS}) nor a card: {e}")
                })?)
            }
        };
        steps.push(step);
    }
    Ok(steps)
}

/// `--hand` as written: cards one after another (`AhKh`, `Ah Kh`), or stud's notation with the
/// down cards in brackets and the up cards after them (`(Kh Qh) Ah`). A card written twice, in
/// or out of the brackets, is refused.
#[derive(Debug, PartialEq)]
pub struct Holding {
    /// The down cards.
    pub down: Vec<Card>,
    /// The up cards, when the stud notation gives them.
    pub up: Option<Vec<Card>>,
}

/// Parses `--hand` (see [`Holding`]).
pub fn parse_holding(h: &str) -> Result<Holding> {
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
pub fn cards_text(set: CardSet) -> String {
    let mut v: Vec<Card> = set.iter().collect();
    v.reverse();
    v.iter().map(Card::to_string).collect()
}

/// A hand as a row of the answer names it: its down cards in brackets, then its up cards.
pub fn hand_label(down: CardSet, up: CardSet) -> String {
    format!("({}) {}", cards_text(down), cards_text(up))
}

/// Refuses a `--hand` whose up cards (when it gives them) are not the ones the spot dealt
/// `seat` (`up`).
pub fn check_hand_up(
    hand: Option<&str>,
    holding: Option<&Holding>,
    up: CardSet,
    seat: u8,
) -> Result<()> {
    if let Some(Holding { up: Some(u), .. }) = holding {
        let given: CardSet = u.iter().copied().collect();
        if given != up {
            bail!(
                "--hand {:?}: its up cards ({}) are not the ones the spot dealt {} ({})",
                hand.unwrap_or(""),
                cards_text(given),
                seat_name(seat),
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

/// An edge as a PHH code (the spot notation, and `--json`'s `actions`).
pub fn describe(e: Edge) -> String {
    match e {
        Edge::Action(a) => action_code(a),
        Edge::Card(c) => c.to_string(),
        Edge::Root => "root".into(),
    }
}

/// An edge in words where no state says more (no amount owed is known).
pub fn describe_words(e: Edge) -> String {
    match e {
        Edge::Action(Action::Fold) => "fold".into(),
        Edge::Action(Action::CheckCall) => "check/call".into(),
        Edge::Action(Action::BringIn) => "bring in".into(),
        Edge::Action(Action::CompleteBetRaise(n)) => format!("bet/raise to {n}"),
        Edge::Card(c) => c.to_string(),
        Edge::Root => "root".into(),
    }
}

/// An action of the hand's first decision in words (no up cards known: no state says more).
pub fn first_words(def: &GameDef, e: Edge) -> String {
    match e {
        Edge::Action(Action::BringIn) => format!("bring in for {}", def.bring_in),
        Edge::Action(Action::CompleteBetRaise(x)) if def.first_round == FirstRound::BringIn => {
            format!("complete to {x}")
        }
        Edge::Action(Action::CompleteBetRaise(x)) => format!("bet {x}"),
        e => describe_words(e),
    }
}

pub use abstraction::rules::notation::action_words;
