//! A rule's spot on a real game at a table of three or more: the spot notation of `stud query`
//! for a multiway file (the up cards as they are dealt, seat by seat on each street, p1's
//! first; then the betting) replayed on the rules engine, down cards unknown, to the decision
//! it ends at. The multiway sampled solver's lock finds that decision in its betting
//! abstraction (`multiway::sampled::lock`), the exact multiway solver's lock every information
//! set of its actor there (`multiway::lock`). A seat prefix (`p3 cc`, `p2 Kh`) must name the
//! seat whose action or up card follows, as `stud query` reads it.

use super::Step;
use abstraction::rules::notation::Written;
use abstraction::rules::seat_name;
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, GameDef, Next, State};
use anyhow::{anyhow, bail, Context, Result};

/// Where a rule's spot ends: the state at its decision and the actions of its street so far.
pub(crate) struct AtSpot {
    /// The state, a seat to act.
    pub state: State,
    /// The current street's actions, in order.
    pub bets: Vec<Action>,
}

/// Replays `steps` on the rules engine of `def` until they end at a decision. Refuses a spot
/// that stops before an up card (naming whose), a card where an action is due or the reverse,
/// an illegal action, and a spot past the end of the hand.
pub(crate) fn replay(def: &GameDef, steps: &[Step]) -> Result<AtSpot> {
    let mut state = State::new(def)?;
    let mut bets: Vec<(usize, Action)> = Vec::new();
    super::check_prefixes(def, steps)?;
    let mut steps = Prefixed(steps.iter().copied().enumerate());
    loop {
        match state.next() {
            Next::Deal {
                deal: Deal::Up | Deal::Community,
                seat,
            } => {
                let whose = seat.map_or("the community card".into(), |s| {
                    format!("{}'s up card", seat_name(s))
                });
                let street = def.street_name(state.street());
                let Some((i, step, named)) = steps.next() else {
                    bail!(
                        "`spot`: it stops before {whose} on {street}: a spot at a table gives \
                         the up cards as they are dealt, p1's first (`3c 8d Kh pb` for three \
                         seats)"
                    );
                };
                check_seat(i, named, seat, &whose)?;
                let Step::Card(c) = step else {
                    bail!("`spot`, step {}: {whose} on {street} is dealt here", i + 1);
                };
                state
                    .deal(c)
                    .with_context(|| format!("`spot`, step {} ({c})", i + 1))?;
            }
            Next::Deal { .. } => state.deal_unknown()?,
            Next::Act { seat } => {
                let Some((i, step, named)) = steps.next() else {
                    let street = state.street();
                    let bets = bets.iter().filter(|b| b.0 == street).map(|b| b.1);
                    let bets = bets.collect();
                    return Ok(AtSpot { state, bets });
                };
                let street = def.street_name(state.street());
                check_seat(
                    i,
                    named,
                    Some(seat),
                    &format!("{}'s action", seat_name(seat)),
                )?;
                let a = match step {
                    Step::Action(a) => a,
                    Step::AnyRaise => (Written::AnyRaise.resolve(&state.legal_actions()))
                        .map_err(|e| anyhow!("`spot`, step {} on {street}: {e}", i + 1))?,
                    Step::Card(c) => {
                        bail!("`spot`, step {} ({c}): on {street} an action is due", i + 1)
                    }
                    Step::Seat(_) => unreachable!("Prefixed reads the prefixes"),
                };
                bets.push((state.street(), a));
                state
                    .apply(a)
                    .with_context(|| format!("`spot`, step {} ({a})", i + 1))?;
            }
            Next::Over => bail!("`spot`: the hand is over before it ends: no one decides there"),
        }
    }
}

/// The steps of a spot with the seat each prefix names folded into the step after it (`parse_spot`
/// put a card or an action after every prefix): (index, step, the seat named).
struct Prefixed<I>(I);

impl<I: Iterator<Item = (usize, Step)>> Iterator for Prefixed<I> {
    type Item = (usize, Step, Option<u8>);

    fn next(&mut self) -> Option<Self::Item> {
        match self.0.next()? {
            (_, Step::Seat(s)) => self.0.next().map(|(i, step)| (i, step, Some(s))),
            (i, step) => Some((i, step, None)),
        }
    }
}

/// Refuses a prefix `named` before step `i` that is not `seat`, whose `what` is due there.
fn check_seat(i: usize, named: Option<u8>, seat: Option<u8>, what: &str) -> Result<()> {
    match named {
        Some(n) if Some(n) != seat => bail!(
            "`spot`, step {}: written for p{}, but {what} is due there",
            i + 1,
            n + 1
        ),
        _ => Ok(()),
    }
}
