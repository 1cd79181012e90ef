//! One sampled deal of a heads-up stud game, and what a deal-sampled solver needs of it
//! ([`DealFacts`]): who acts first on each street, each seat's bucket on each street, and seat
//! 0's share of the pot at a showdown.
//!
//! Everything comes from the rules engine and the bucketing: the deal is played through a
//! [`State`] with checks and calls (the first actor of a street depends on the up cards only),
//! each seat's [`CardView`] is bucketed at the first decision of every street, and the showdown
//! is scored by [`showdown_winnings`].

use crate::rules::seat_name;
use std::sync::Arc;

use rand::Rng;

use crate::bucketing::{BucketError, Bucketing, CardView};
use crate::cards::Card;
use crate::rules::game_def::GameDef;
use crate::rules::state::{showdown_winnings, Action, Next, RulesError, State, MAX_STREETS};

/// The most cards one seat gets in the games a [`HeadsUpDeal`] holds.
pub const MAX_SEAT_CARDS: usize = 8;

/// Why a deal cannot be sampled or its facts computed.
#[derive(Debug, thiserror::Error)]
pub enum DealError {
    /// The game is not a heads-up game whose deals fit.
    #[error("cannot deal {0}")]
    Unsupported(String),
    /// The rules engine refused the deal (a bug in one of the two).
    #[error("rules engine: {0}")]
    Rules(#[from] RulesError),
    /// The bucketing refused a view: it was built for another game.
    #[error("card abstraction: {0}")]
    Cards(#[from] BucketError),
}

/// Every card each seat of a heads-up hand gets, in the order it gets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadsUpDeal {
    cards: [[Card; MAX_SEAT_CARDS]; 2],
    len: u8,
}

/// What a deal-sampled solver needs of one deal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DealFacts {
    /// Per street, the seat acting first there (role 0 of the betting tree).
    pub first: [u8; MAX_STREETS],
    /// Per street and seat, the bucket of the seat's view at the street's first decision.
    pub buckets: [[u32; 2]; MAX_STREETS],
    /// Seat 0's share of the pot at a showdown: 1, 0, 0.5, and quarters in hi-lo.
    pub share0: f32,
}

impl HeadsUpDeal {
    /// Draws a uniformly random deal of the heads-up game `def` from `rng` (a partial
    /// Fisher-Yates shuffle of the deck: `2 × cards per seat` draws).
    pub fn sample<R: Rng + ?Sized>(def: &GameDef, rng: &mut R) -> Result<HeadsUpDeal, DealError> {
        let per_seat = def.cards_per_player();
        let mut deck = [Card::from_id(0); 64];
        let mut m = 0;
        for c in def.deck.cards().iter() {
            deck[m] = c;
            m += 1;
        }
        if def.seats != 2 || per_seat > MAX_SEAT_CARDS || 2 * per_seat > m {
            return Err(DealError::Unsupported(format!(
                "{}: a deal is two seats of at most {MAX_SEAT_CARDS} cards from the deck ({} \
                 seats of {per_seat} cards from {m})",
                def.variant, def.seats
            )));
        }
        for i in 0..2 * per_seat {
            let j = i + crate::draw::below(rng, m - i);
            deck.swap(i, j);
        }
        let mut cards = [[Card::from_id(0); MAX_SEAT_CARDS]; 2];
        for k in 0..per_seat {
            cards[0][k] = deck[2 * k];
            cards[1][k] = deck[2 * k + 1];
        }
        Ok(HeadsUpDeal {
            cards,
            len: per_seat as u8,
        })
    }

    /// A deal of the given cards (each seat's, in the order dealt). Refuses a repeated card or
    /// seats of different sizes.
    pub fn of_cards(seat0: &[Card], seat1: &[Card]) -> Result<HeadsUpDeal, DealError> {
        let all: crate::cards::CardSet = seat0.iter().chain(seat1).copied().collect();
        if seat0.len() != seat1.len()
            || seat0.len() > MAX_SEAT_CARDS
            || all.len() as usize != 2 * seat0.len()
        {
            return Err(DealError::Unsupported(format!(
                "seats of {} and {} cards with {} distinct: two seats of the same count, at most \
                 {MAX_SEAT_CARDS}, no card twice",
                seat0.len(),
                seat1.len(),
                all.len()
            )));
        }
        let mut cards = [[Card::from_id(0); MAX_SEAT_CARDS]; 2];
        cards[0][..seat0.len()].copy_from_slice(seat0);
        cards[1][..seat1.len()].copy_from_slice(seat1);
        Ok(HeadsUpDeal {
            cards,
            len: seat0.len() as u8,
        })
    }

    /// The cards of `seat` (0 or 1) in the order dealt.
    pub fn cards(&self, seat: u8) -> &[Card] {
        &self.cards[seat as usize & 1][..self.len as usize]
    }

    /// Deals the cards due now in `state` (until a decision or the end): the next card of a
    /// seat is its card number `cards it holds`.
    pub fn deal_into(&self, state: &mut State) -> Result<(), DealError> {
        while let Next::Deal { seat, .. } = state.next() {
            let Some(s) = seat.filter(|&s| s < 2) else {
                return Err(DealError::Unsupported(
                    "a community card: the games of a deal have none".into(),
                ));
            };
            let held = state.up_cards(s).len() + state.down_cards(s).len();
            let c = *self.cards(s).get(held).ok_or_else(|| {
                DealError::Unsupported(format!(
                    "{} needs card {} of a deal of {}",
                    seat_name(s),
                    held + 1,
                    self.len
                ))
            })?;
            state.deal(c)?;
        }
        Ok(())
    }

    /// The deal's facts in `def` (whose definition the bucketing was built for): the hand is
    /// played with checks and calls (and the bring-in), bucketing both views at the first
    /// decision of every street, and scored at the showdown.
    pub fn facts(&self, def: &Arc<GameDef>, bucketing: &Bucketing) -> Result<DealFacts, DealError> {
        let mut st = State::with_def(def.clone())?;
        let mut facts = DealFacts {
            first: [0; MAX_STREETS],
            buckets: [[0; 2]; MAX_STREETS],
            share0: 0.0,
        };
        let mut seen = usize::MAX;
        loop {
            self.deal_into(&mut st)?;
            match st.next() {
                Next::Act { seat } => {
                    let street = st.street();
                    if street != seen {
                        seen = street;
                        facts.first[street] = seat;
                        for s in 0..2u8 {
                            facts.buckets[street][s as usize] =
                                bucketing.bucket(&CardView::of_state(&st, s)?)?;
                        }
                    }
                    let pending = street == 0 && st.round_bet(seat) == 0;
                    let a = if pending && st.bring_in_seat() == Some(seat) {
                        Action::BringIn
                    } else {
                        Action::CheckCall
                    };
                    st.apply(a)?;
                }
                Next::Over => break,
                // Not reached: `deal_into` deals every card due.
                Next::Deal { .. } => {}
            }
        }
        let hands = [st.hand(0), st.hand(1)];
        // Two chips each: halves and quarters of the pot of four are whole chips.
        let won = showdown_winnings(def.variant.showdown(), &[2, 2], &hands);
        facts.share0 = won[0] as f32 / 4.0;
        Ok(facts)
    }
}

#[cfg(test)]
mod tests;
