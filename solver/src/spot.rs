//! A spot in `stud query`'s notation (the up cards as they are dealt, p1's first on each
//! street, and the betting; seat prefixes naming whose card or action follows) as steps, and
//! their one walk on the rules engine, down cards unknown, to where the spot ends. Below all of
//! its readers: `stud query`'s answers (`query::spot`, which parses the notation), a lock
//! file's rules (`lock::spot`) and `stud explore`'s walk of a hand.

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

/// What one step of a spot did, as [`walk`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Walked {
    /// A card dealt face up.
    Card {
        /// Whose up card: none for the community card, where the deck ran short.
        seat: Option<u8>,
        /// The card.
        card: Card,
    },
    /// A seat's action.
    Action {
        /// Who acts.
        seat: u8,
        /// The real action the step named.
        action: Action,
    },
}

/// Replays the steps on the rules engine of `def` (any number of seats) from the deal, the
/// down cards unknown, and stops where they run out: at a decision, before a card dealt face
/// up, or at the end of the hand. `each` sees each step with the state it is taken from, before
/// it is taken (a step then refused fails the walk). A seat prefix (`p2 cc`, `p3 Kh`) must name
/// the seat of the action or card after it; a card where an action is due or the reverse, an
/// illegal action, a card dealt twice and a step past the end of the hand are refused, naming
/// the step. Below [`replay`] and `stud explore`'s walk, which may stop anywhere.
pub fn walk(def: &GameDef, steps: &[Step], mut each: impl FnMut(&State, Walked)) -> Result<State> {
    let mut state = State::new(def)?;
    let mut steps = with_seats(steps)?.into_iter();
    loop {
        match state.next() {
            Next::Deal {
                deal: deal @ (Deal::Up | Deal::Community),
                seat,
            } => {
                let Some((i, step, named)) = steps.next() else {
                    return Ok(state);
                };
                let whose = face_up(deal, seat);
                let Step::Card(card) = step else {
                    bail!(
                        "step {} ({}): {whose} on {} is dealt here: give the card",
                        i + 1,
                        step_name(step),
                        def.street_name(state.street()),
                    );
                };
                check_seat(i, named, seat, &whose)?;
                each(&state, Walked::Card { seat, card });
                state
                    .deal(card)
                    .with_context(|| format!("step {} ({card})", i + 1))?;
            }
            Next::Deal { .. } => state.deal_unknown()?,
            Next::Act { seat } => {
                let Some((i, step, named)) = steps.next() else {
                    return Ok(state);
                };
                check_seat(
                    i,
                    named,
                    Some(seat),
                    &format!("{}'s action", seat_name(seat)),
                )?;
                let action = resolve(&state, i, step)?;
                each(&state, Walked::Action { seat, action });
                state
                    .apply(action)
                    .with_context(|| format!("step {} ({action})", i + 1))?;
            }
            Next::Over => match steps.next() {
                Some((i, _, _)) => bail!("step {}: the hand is over before it", i + 1),
                None => return Ok(state),
            },
        }
    }
}

/// A card dealt face up as a player names it: `p2's up card`, or the community card (the deck
/// run short on the last street, named as an up card is).
fn face_up(deal: Deal, seat: Option<u8>) -> String {
    match (deal, seat) {
        (Deal::Community, _) => "the community card".into(),
        (_, Some(s)) => format!("{}'s up card", seat_name(s)),
        (_, None) => "a card face up".into(),
    }
}

/// Replays the spot on the rules engine of `def` (any number of seats), down cards unknown,
/// until it ends at a decision ([`walk`]). The empty spot stops before the first up card; any
/// other spot that stops before one, or where the hand is over, is refused as the walk's own
/// refusals are, naming the step.
pub fn replay(def: &GameDef, steps: &[Step]) -> Result<Replayed> {
    let mut bets = Vec::new();
    let state = walk(def, steps, |state, step| {
        if let Walked::Action { action, .. } = step {
            bets.push((state.street(), action));
        }
    })?;
    let empty = steps.is_empty();
    match state.next() {
        Next::Deal { deal, seat } if !empty => bail!(
            "the spot stops before {} on {}: give it, as in `{}` for the door cards, p1's first",
            face_up(deal, seat),
            def.street_name(state.street()),
            DOORS[..usize::from(def.seats).min(DOORS.len())].join(" ")
        ),
        Next::Over => bail!("the spot ends where the hand is over: no one decides"),
        _ => Ok(Replayed { state, bets, empty }),
    }
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

    /// Eight seats who call to seventh street leave four cards for eight: the community card is
    /// a step of the spot as an up card is, reported without a seat, and a spot that stops
    /// before it is refused by its name.
    #[test]
    fn eight_seats_walk_to_the_community_card() {
        let def = GameDef::preset("7stud-8p").unwrap();
        let doors = ["3c", "8d", "Kh", "5s", "Qd", "9c", "2h", "Js"];
        let deck = def.deck.cards();
        let mut rest = (deck.iter().map(|c| c.to_string())).filter(|c| !doors.contains(&&c[..]));
        let mut spot = format!("{} pb {}", doors.join(" "), ["cc"; 7].join(" "));
        for _ in 4..=6 {
            for _ in 0..8 {
                spot = format!("{spot} {}", rest.next().unwrap());
            }
            spot = format!("{spot} {}", ["cc"; 8].join(" "));
        }
        let e = format!(
            "{:#}",
            replay(&def, &parse_spot(&spot).unwrap()).err().unwrap()
        );
        assert!(
            e.contains("the spot stops before the community card on 7th street"),
            "{e}"
        );
        let last = rest.next().unwrap();
        let steps = parse_spot(&format!("{spot} {last}")).unwrap();
        let mut seen = Vec::new();
        let state = walk(&def, &steps, |_, step| seen.push(step)).unwrap();
        assert_eq!(seen.len(), steps.len());
        let card: Card = last.parse().unwrap();
        assert_eq!(seen.last(), Some(&Walked::Card { seat: None, card }));
        assert_eq!(state.community_cards(), &[card]);
        assert!(matches!(state.next(), Next::Act { .. }));
        let r = replay(&def, &steps).unwrap();
        assert_eq!(r.bets.len(), 8 + 3 * 8);
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
