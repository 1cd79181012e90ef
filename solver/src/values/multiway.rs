//! The values of actions at a table of three to eight seats (a multiway strategy file), always
//! estimated: no walk of the rest of the hand over every seat's holdings fits.
//!
//! Every seat's range reaching the decision is the replay `stud query --ranges` shows
//! ([`replay_seats`] on the player's rows, a floor of 0: Bayes' rule exactly), folded seats'
//! too (what they folded is dead, out of the cards to come). Each sample draws every seat's
//! down cards at once, each from its own range, and draws them again until no two share a
//! card: a draw of the whole table in proportion to the product of the ranges' weights, the
//! deal's own chance of them (every seat's holdings given the betting). Without a hand given,
//! the player's own holding is drawn with them. The cards to come are the rest of the deck,
//! shuffled; every action is then played from the same cards and the same draws of every
//! seat's mixed actions (common random numbers, as heads-up), every seat playing the file to
//! the end. The value is the mean, with a 95% interval.

use super::{estimate_with, Drawn, Options, Table, Values};
use crate::bot::range::replay_seats;
use crate::bot::{Bet, StrategyPlayer};
use crate::describe::Classes;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::seat_name;
use abstraction::rules::State;
use anyhow::{ensure, Context, Result};

/// The estimated values at a table (see the module): the counterpart of the heads-up
/// `estimate`, with the same lines.
pub(super) fn estimate(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    classes: Option<&Classes>,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    estimate_with(
        table(player, state, bets, hand, classes, options)?,
        state,
        hand.is_some(),
        options,
        progress,
    )
}

/// The spot's table: every seat's range replayed, the player's hand alone when given.
fn table<'a>(
    player: &'a StrategyPlayer,
    state: &State,
    bets: &'a [Bet],
    hand: Option<&[Card]>,
    classes: Option<&'a Classes>,
    options: Options,
) -> Result<Table<'a>> {
    let seat = state.to_act().context("no one to act")?;
    let seats = state.def().seats;
    let every = (1u16 << seats) - 1;
    let r = replay_seats(player, state, bets, 0.0, every, |_| false)?;
    ensure!(
        r.read == bets.len() && r.state.to_act() == Some(seat),
        "the ranges' replay stopped before the spot"
    );
    let mine: CardSet = hand.map_or(CardSet::EMPTY, |h| h.iter().copied().collect());
    let mut ranges = Vec::with_capacity(seats as usize);
    for (s, range) in r.ranges.iter().enumerate() {
        let range = range.as_ref().context("a seat's range was not followed")?;
        ranges.push(match hand {
            _ if range.n() == 0 => None,
            Some(h) if s == seat as usize => Some(Drawn::alone(h)),
            _ => Some(
                Drawn::of(range, mine)
                    .with_context(|| format!("{}'s range beside the hand", seat_name(s)))?,
            ),
        });
    }
    Ok(Table {
        player,
        actions: r.state.legal_actions(),
        base: r.state,
        bets,
        seat,
        ranges,
        seen: r.seen,
        deck: state.def().deck.cards(),
        classes,
        up: state.up_cards(seat).iter().copied().collect(),
        seed: options.seed,
        #[cfg(test)]
        uniform: false,
    })
}

#[cfg(test)]
mod tests;
