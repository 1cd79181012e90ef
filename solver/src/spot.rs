//! A spot in `stud query`'s notation (the up cards as they are dealt, p1's first on each
//! street, and the betting; seat prefixes naming whose card or action follows) as steps, and
//! their one replay on the rules engine, down cards unknown, to the decision the spot ends at.
//! Below both of its readers: `stud query`'s answers (`query::spot`, which parses the
//! notation) and a lock file's rules (`lock::spot`).

use abstraction::cards::Card;
use abstraction::rules::notation::Written;
use abstraction::rules::seat_name;
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, GameDef, Next, State};
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

/// The state after a spot's replay: where it stopped, and what was bet.
pub struct Replayed {
    /// The state at the decision the spot ends at (or, for the empty spot of a game that deals
    /// up cards, before the first of them).
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
/// action or up card after it. The empty spot stops before the first up card; any other spot
/// that stops before one, a card where an action is due or the reverse, an illegal action and
/// a spot past the end of the hand are refused, naming the step.
pub fn replay(def: &GameDef, steps: &[Step]) -> Result<Replayed> {
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

/// An action as a PHH code, without a space (`cbr5`): the spot notation's and `--json`'s.
pub fn action_code(a: Action) -> String {
    match a {
        Action::CompleteBetRaise(n) => format!("cbr{n}"),
        a => a.to_string(),
    }
}

/// A step as the spot notation writes it.
pub fn step_name(s: Step) -> String {
    match s {
        Step::Card(c) => c.to_string(),
        Step::Exact(a) => action_code(a),
        Step::AnyRaise => "a bet or raise".into(),
        Step::Seat(s) => seat_name(s).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::parse_spot;

    fn at(spot: &str) -> Result<Replayed> {
        let def = GameDef::preset("7stud-3p").unwrap();
        replay(&def, &parse_spot(spot).unwrap())
    }

    #[test]
    fn a_spot_ends_at_its_decision_with_the_betting_on_the_way() {
        let r = at("3c 8d Kh pb").unwrap();
        assert_eq!(r.state.to_act(), Some(1));
        assert_eq!(r.bets, vec![(0, Action::BringIn)]);
        assert!(!r.empty);
        let r = at("p1 3c p2 8d p3 Kh p1 pb p2 cc").unwrap();
        assert_eq!(r.state.to_act(), Some(2));
        // The empty spot stops before the first up card, none dealt.
        let r = at("").unwrap();
        assert!(r.empty && r.state.to_act().is_none() && r.bets.is_empty());
    }

    #[test]
    fn a_bad_spot_is_refused_naming_the_step_and_why() {
        for (spot, says) in [
            ("3c 8d", "the spot stops before p3's up card on 3rd street"),
            (
                "pb",
                "step 1 (pb): p1's up card on 3rd street is dealt here",
            ),
            (
                "3c 8d Kh 9h",
                "step 4 (9h): on 3rd street a betting action is due",
            ),
            (
                "3c 8d Kh p2 pb",
                "step 5 is written for p2, but p1's action",
            ),
            (
                "p2 3c 8d Kh pb",
                "step 2 is written for p2, but p1's up card",
            ),
            ("3c 8d Kh pb pb", "step 5 (pb)"),
            ("3c 8d Kh pb f f", "the spot ends where the hand is over"),
            ("3c 8d Kh pb f f cc", "step 7: the hand is over before it"),
        ] {
            let e = format!("{:#}", at(spot).err().expect(spot));
            assert!(e.contains(says), "{spot}: {e}");
        }
        // What the parsers refuse before a replay, refused by it too.
        let def = GameDef::preset("7stud-3p").unwrap();
        let card = Step::Card("3c".parse().unwrap());
        for (steps, says) in [
            (vec![card, Step::Seat(1)], "ends with a seat prefix (p2)"),
            (
                vec![Step::Seat(0), Step::Seat(1), card],
                "step 1 (p1): a seat prefix with",
            ),
        ] {
            let e = replay(&def, &steps).err().unwrap().to_string();
            assert!(e.contains(says), "{steps:?}: {e}");
        }
    }
}
