//! A spot and a hand as `stud query` reads them: the notation parsed into steps, the spot
//! replayed on the rules engine for any number of seats, and the words and codes of its
//! actions. Shared by every kind of answer (public tree, betting tree, multiway, re-solve), by
//! `stud explore`'s addresses and by the Python package. The notation in full:
//! docs/guide/query.md.

use abstraction::cards::{parse_distinct_cards, Card, CardSet};
use abstraction::rules::notation::{self, Written, SPELLINGS};
use abstraction::rules::state::Action;
use abstraction::rules::{seat_name, seat_number};
use abstraction::rules::{Deal, FirstRound, GameDef, Next, State};
use abstraction::tree::Edge;
use anyhow::{anyhow, bail, Context, Result};

/// A step of a spot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The next public card (an up card, p1's before p2's, or a community card).
    Card(Card),
    /// An exact action (`f`, `cc`, `pb`, `cbr 5` and their words).
    Exact(Action),
    /// `b`/`r`/`bet`/`raise`/`complete`: the only complete/bet/raise of the node.
    AnyRaise,
    /// A PHH seat prefix (`p1` is 0): the seat of the step after it (checked on the real
    /// games; a public tree's spot ignores it).
    Seat(u8),
}

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

/// The state after the spot's betting-tree replay: where it stopped, and what was bet.
pub struct Replayed {
    /// The state at the decision the spot ends at.
    pub state: State,
    /// The betting on the way: each action with its street.
    pub bets: Vec<(usize, Action)>,
    /// Whether the spot dealt no card at all: the first decision, up cards unknown.
    pub empty: bool,
}

/// Door cards for an example spot, one per seat.
const DOORS: [&str; 8] = ["3c", "8d", "Kh", "5s", "Qd", "9c", "2h", "Js"];

/// Replays the spot on the rules engine of `def` (any number of seats), down cards unknown,
/// until it ends at a decision. A seat prefix (`p2 cc`, `p3 Kh`) must name the seat of the
/// action or up card after it.
pub fn replay_betting(def: &GameDef, steps: &[Step]) -> Result<Replayed> {
    let mut state = State::new(def)?;
    let mut bets = Vec::new();
    let steps = with_seats(steps)?;
    let mut steps = steps.into_iter().peekable();
    let empty = steps.peek().is_none();
    loop {
        match state.next() {
            // The community card (the deck run short on the last street) is named as an up
            // card is.
            Next::Deal {
                deal: deal @ (Deal::Up | Deal::Community),
                seat,
            } => {
                let face_up = match deal {
                    Deal::Community => "the community card",
                    _ => "a card face up",
                };
                let whose = seat.map_or(face_up.into(), |s| format!("{}'s up card", seat_name(s)));
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
                check_seat(
                    i,
                    named,
                    Some(seat),
                    &format!("{}'s action", seat_name(seat)),
                )?;
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
pub fn with_seats(steps: &[Step]) -> Result<Vec<(usize, Step, Option<u8>)>> {
    let mut out = Vec::with_capacity(steps.len());
    let mut named = None;
    for (i, &step) in steps.iter().enumerate() {
        match step {
            Step::Seat(s) => {
                if let Some((at, before)) = named.replace((i, s)) {
                    bail!(
                        "step {} ({}): a seat prefix with nothing after it",
                        at + 1,
                        seat_name(before)
                    );
                }
            }
            _ => out.push((i, step, named.take().map(|(_, s)| s))),
        }
    }
    match named {
        Some((_, s)) => bail!(
            "the spot ends with a seat prefix ({}): give its action",
            seat_name(s)
        ),
        None => Ok(out),
    }
}

/// Fails when the prefix `named` before step `i` is not `seat`, whose `what` is due there.
pub fn check_seat(i: usize, named: Option<u8>, seat: Option<u8>, what: &str) -> Result<()> {
    match named {
        Some(n) if Some(n) != seat => bail!(
            "step {} is written for {}, but {what} is due there",
            i + 1,
            seat_name(n)
        ),
        _ => Ok(()),
    }
}

/// The real action a step names where `state` is to act.
pub fn resolve(state: &State, i: usize, step: Step) -> Result<Action> {
    let street = state.def().street_name(state.street());
    match step {
        Step::Exact(a) => Ok(a),
        Step::AnyRaise => (Written::AnyRaise.resolve(&state.legal_actions()))
            .map_err(|e| anyhow!("step {} on {street}: {e}", i + 1)),
        Step::Card(c) => bail!(
            "step {} ({c}): on {street} a betting action is due here",
            i + 1
        ),
        Step::Seat(_) => bail!("step {}: a seat prefix where an action is due", i + 1),
    }
}

/// A step as the spot notation writes it.
pub fn step_name(s: Step) -> String {
    match s {
        Step::Card(c) => c.to_string(),
        Step::Exact(a) => describe(Edge::Action(a)),
        Step::AnyRaise => "a bet or raise".into(),
        Step::Seat(s) => seat_name(s).to_string(),
    }
}

/// An edge as a PHH code (the spot notation, and `--json`'s `actions`).
pub fn describe(e: Edge) -> String {
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
