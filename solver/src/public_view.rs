//! The public view of a real hand: its up cards, community cards and actions replayed from the
//! start with every down card unknown, as anyone at the table saw it. What a drill shows of a
//! spot and what a review asks the strategy at each of the hero's decisions.

use crate::bot::Bet;
use abstraction::cards::Card;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, Next, State};
use anyhow::{bail, ensure, Context, Result};

/// What everyone saw of a hand, in order: an up or community card, or an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A card dealt face up (to a seat, or to the board).
    Card(Card),
    /// An action.
    Action(Action),
}

/// Replays `bets` from the start of the hand `real` belongs to (the up and community cards
/// read from `real`, every down card unknown), calling `at(view, i)` at each decision before
/// `bets[i]` is applied to it and writing what was seen, in order, to `seen`. It stops right
/// after the last bet, or with `to_decision` at the next decision (or the hand's end) after it.
pub fn replay(
    real: &State,
    bets: &[Bet],
    to_decision: bool,
    seen: &mut Vec<Seen>,
    mut at: impl FnMut(&State, usize) -> Result<()>,
) -> Result<State> {
    let def = real.def();
    let mut view = State::new(def)?;
    let mut ups = vec![0usize; usize::from(def.seats)];
    let (mut board, mut acted) = (0usize, 0usize);
    loop {
        let done = acted == bets.len();
        if done && !to_decision {
            return Ok(view);
        }
        match view.next() {
            Next::Act { .. } | Next::Over if done => return Ok(view),
            Next::Over => bail!("the hand ends before its actions do"),
            Next::Deal {
                deal: Deal::Down, ..
            } => view.deal_unknown()?,
            Next::Deal {
                deal: Deal::Up,
                seat: Some(s),
            } => {
                let i = &mut ups[usize::from(s)];
                let c = *(real.up_cards(s).get(*i))
                    .with_context(|| format!("{}'s up card {} is missing", seat_name(s), *i + 1))?;
                *i += 1;
                view.deal(c)?;
                seen.push(Seen::Card(c));
            }
            Next::Deal { .. } => {
                let c = *(real.community_cards().get(board))
                    .with_context(|| format!("community card {} is missing", board + 1))?;
                board += 1;
                view.deal(c)?;
                seen.push(Seen::Card(c));
            }
            Next::Act { .. } => {
                at(&view, acted)?;
                let (_, a) = bets[acted];
                view.apply(a)
                    .with_context(|| format!("action {} ({a})", acted + 1))?;
                acted += 1;
                seen.push(Seen::Action(a));
            }
        }
    }
}

/// `state` (real cards, every seat's known) at a decision, as its public view: the same up
/// cards, community cards and actions (`bets`), every down card unknown (what the values'
/// replay of the ranges reads), and what was seen on the way, in order (a spot as `stud query`
/// writes it).
pub fn public_view(state: &State, bets: &[Bet]) -> Result<(State, Vec<Seen>)> {
    let mut seen = Vec::new();
    let view = replay(state, bets, true, &mut seen, |_, _| Ok(()))?;
    if view.to_act().is_none() {
        bail!("the hand is over: no decision to drill");
    }
    let same = (0..state.def().seats).all(|s| view.up_cards(s) == state.up_cards(s))
        && view.to_act() == state.to_act()
        && view.pot() == state.pot();
    ensure!(same, "the actions given stop short of the state's decision");
    Ok((view, seen))
}
