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

use super::{
    class_lines, deal_jointly, sample_rng, sum_samples, Drawn, Line, Method, Options, Playouts,
    Values,
};
use crate::bot::range::replay_seats;
use crate::bot::{Bet, StrategyPlayer};
use crate::describe::Classes;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, State};
use anyhow::{ensure, Context, Result};
use rand_chacha::ChaCha8Rng;

/// What every sample shares: the spot, every seat's range, the actions.
struct Table<'a> {
    player: &'a StrategyPlayer,
    base: State,
    bets: &'a [Bet],
    seat: u8,
    actions: Vec<Action>,
    /// Per seat: its range (the player's own: its hand alone when given), or `None` for a seat
    /// without down cards.
    ranges: Vec<Option<Drawn>>,
    seen: CardSet,
    deck: CardSet,
    classes: Option<&'a Classes>,
    up: CardSet,
    seed: u64,
    /// Tests only: draw each seat's holding as if its betting had said nothing (uniformly from
    /// those it could hold), a biased estimator the exact check must catch.
    #[cfg(test)]
    uniform: bool,
}

impl Table<'_> {
    /// Every seat's holding drawn together ([`deal_jointly`]): an index into each range.
    fn deal(&self, rng: &mut ChaCha8Rng, out: &mut [usize]) -> Result<CardSet> {
        deal_jointly(&self.ranges, rng, out, |r, rng| self.pick(r, rng))
    }

    /// A holding of the range `r` drawn by weight.
    fn pick(&self, r: &Drawn, rng: &mut ChaCha8Rng) -> usize {
        #[cfg(test)]
        if self.uniform {
            return abstraction::draw::below(rng, r.sets.len());
        }
        r.draw(rng)
    }

    /// Sample `i`: the player's values of every action, and its holding's class.
    fn sample(&self, i: usize, held: &mut [usize], out: &mut [f64]) -> Result<usize> {
        let mut rng = sample_rng(self.seed, i);
        let taken = self.deal(&mut rng, held)?;
        let mut start = self.base.clone();
        for (s, r) in self.ranges.iter().enumerate() {
            if let Some(r) = r {
                start.show(s as u8, &r.cards[held[s]])?;
            }
        }
        let playouts = Playouts {
            player: self.player,
            start: &start,
            bets: self.bets,
            seat: self.seat,
        };
        let left = (self.deck.minus(self.seen)).minus(taken);
        playouts.play_each(&self.actions, left, &mut rng, out)?;
        let mine = match &self.ranges[self.seat as usize] {
            Some(r) => r.sets[held[self.seat as usize]],
            None => CardSet::EMPTY,
        };
        Ok(self.classes.map_or(0, |c| c.classify(mine, self.up)))
    }
}

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
            // The player's own holding, alone: its weight in the range does not matter.
            Some(h) if s == seat as usize => Some(Drawn {
                cards: vec![h.to_vec()],
                sets: vec![mine],
                cumulative: vec![1.0],
            }),
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

/// The samples of `spot` summed ([`sum_samples`]), and the lines made of them.
fn estimate_with(
    spot: Table<'_>,
    state: &State,
    given: bool,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let total = options.samples;
    let (all, by) = sum_samples(
        spot.actions.len(),
        spot.classes.map_or(1, |c| c.names.len()),
        total,
        progress,
        || vec![0; spot.ranges.len()],
        |i, held, out| spot.sample(i, held, out),
    )?;
    let line: Line = all.line().context("fewer than two samples")?;
    let (range, hand) = match given {
        true => (None, Some(line)),
        false => (Some(line), None),
    };
    let seat = spot.seat as usize;
    let (lines, unsampled) = match (spot.classes, &spot.ranges[seat], given) {
        (Some(c), Some(r), false) => class_lines(c, &by, &r.sets, spot.up, total),
        _ => (Vec::new(), 0),
    };
    Ok(Values {
        method: Method::Estimate,
        seat: spot.seat,
        actions: spot.actions,
        committed: state.committed(spot.seat),
        pot: state.pot(),
        big_bet: state.def().big_bet,
        hand,
        range,
        classes: lines,
        classes_unsampled: unsampled,
        millis: 0.0,
    })
}

#[cfg(test)]
mod tests;
