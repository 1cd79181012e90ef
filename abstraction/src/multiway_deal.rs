//! One sampled deal of an N-seat stud game, and what a sampling solver needs of it as it walks
//! ([`MultiwayFacts`]): who acts first on a street given the seats still in, the bucket of a
//! seat's view, and each seat's share of the pot at a showdown of any set of seats.
//!
//! # The card abstraction of an N-seat view
//! A seat's view is bucketed with the heads-up bucketing of the game: its own cards against
//! the up cards of *one* opponent, the live opponent with the best showing hand (the one the
//! rules engine would make act first among them). The other live opponents' up cards and the
//! folded seats' up cards (dead cards) are not in the view: the bucket is the heads-up table's
//! bucket of the strongest-looking duel. docs/multiway.md says what that misses.
//!
//! # Cheap per deal
//! Every seat is dealt all its cards up front (a partial shuffle of the deck); a seat that folds
//! in the real game receives no more cards, but the live seats' cards are uniformly random
//! either way. First actors, opponents and buckets are computed when first asked and kept in
//! fixed arrays for the deal (a bucket lookup is the costly part: only the views the walk
//! reaches are bucketed). The showdown shares of every set of two or more seats are scored by
//! the rules engine's [`showdown_winnings`] when the deal is drawn, before any walk.

use rand::Rng;

use crate::bucketing::{Bucketing, CardView};
use crate::cards::{Card, CardSet};
use crate::deal::DealError;
use crate::rules::game_def::{Deal, FirstRound, GameDef, LaterRounds};
use crate::rules::order::{best_showing, bring_in_opener};
use crate::rules::state::showdown_winnings;

/// The most seats of a multiway deal.
pub const MAX_DEAL_SEATS: usize = 8;
/// The most cards one seat gets.
const MAX_CARDS: usize = 8;
/// Not computed yet.
const UNKNOWN: u8 = u8::MAX;
/// Chips each live seat is scored with at a showdown: divisible by every number of winners of
/// either half of the pot, so that the shares are exact fractions.
const SHOWDOWN_CHIPS: u64 = 1680;

/// A deal and its facts for one N-seat game: sized once, refilled for every deal.
#[derive(Clone, Debug)]
pub struct MultiwayFacts {
    seats: usize,
    streets: usize,
    low: bool,
    first_round: FirstRound,
    later_rounds: LaterRounds,
    /// Down and up cards held by a seat on each street (cumulative).
    held: Vec<(u8, u8)>,
    /// Each seat's down and up cards, in the order dealt.
    downs: [[Card; MAX_CARDS]; MAX_DEAL_SEATS],
    ups: [[Card; MAX_CARDS]; MAX_DEAL_SEATS],
    /// Per street and set of seats: the first actor.
    first: Vec<u8>,
    /// Per street, set of seats and seat: the opponent of its view.
    opponent: Vec<u8>,
    /// Per street, seat and opponent: the bucket (`u32::MAX`: not yet).
    bucket: Vec<u32>,
    /// Per set of seats and seat: its share of the pot at their showdown.
    share: Vec<f32>,
    /// The deck in its order, and a copy shuffled for a deal: every deal starts from the deck's
    /// order, so that a deal depends on its own draws only (a resumed solve deals the same).
    order: Vec<Card>,
    deck: Vec<Card>,
    /// Which of a seat's cards (in order) are face down.
    down_at: Vec<bool>,
}

impl MultiwayFacts {
    /// The facts of deals of `def` (2 to 8 seats, every card a seat's own, enough cards for
    /// every seat to get all of its own).
    pub fn new(def: &GameDef) -> Result<MultiwayFacts, DealError> {
        let seats = def.seats as usize;
        let per_seat = def.cards_per_player();
        let deck: Vec<Card> = def.deck.cards().iter().collect();
        let down_at: Vec<bool> = def
            .streets
            .iter()
            .flat_map(|s| &s.deal)
            .filter(|d| **d != Deal::Community)
            .map(|d| *d == Deal::Down)
            .collect();
        let mut deals = def.streets.iter().flat_map(|s| &s.deal);
        if !(2..=MAX_DEAL_SEATS).contains(&seats)
            || deals.any(|d| *d == Deal::Community)
            || per_seat > MAX_CARDS
            || down_at.len() != per_seat
        {
            return Err(DealError::Unsupported(format!(
                "{}: a multiway deal is 2 to {MAX_DEAL_SEATS} seats of at most {MAX_CARDS} cards, \
                 no community card ({} seats of {per_seat})",
                def.variant, seats
            )));
        }
        if seats * per_seat > deck.len() {
            return Err(DealError::Unsupported(format!(
                "{} seats of {per_seat} cards need {} cards; the deck has {} (the card room's \
                 community card when the deck runs short is not in the sampled game)",
                seats,
                seats * per_seat,
                deck.len()
            )));
        }
        let held = (0..def.streets.len())
            .map(|s| {
                let (d, u) = crate::bucketing::view::held_by(def, s);
                (d as u8, u as u8)
            })
            .collect();
        let streets = def.streets.len();
        let sets = 1usize << seats;
        Ok(MultiwayFacts {
            seats,
            streets,
            low: def.variant.is_low(),
            first_round: def.first_round,
            later_rounds: def.later_rounds,
            held,
            downs: [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS],
            ups: [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS],
            first: vec![UNKNOWN; streets * sets],
            opponent: vec![UNKNOWN; streets * sets * seats],
            bucket: vec![u32::MAX; streets * seats * seats],
            share: vec![0.0; sets * seats],
            order: deck.clone(),
            deck,
            down_at,
        })
    }

    /// Draws a uniformly random deal from `rng` (a partial Fisher-Yates shuffle: `seats × cards
    /// per seat` draws), forgets the last deal's facts and scores every showdown of the new one
    /// with `def`'s showdown.
    pub fn sample<R: Rng + ?Sized>(&mut self, def: &GameDef, rng: &mut R) {
        let per_seat = self.down_at.len();
        let m = self.deck.len();
        self.deck.copy_from_slice(&self.order);
        for i in 0..self.seats * per_seat {
            let j = i + crate::draw::below(rng, m - i);
            self.deck.swap(i, j);
        }
        let mut cards = [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS];
        for (k, row) in cards.iter_mut().take(self.seats).enumerate() {
            for (c, slot) in row.iter_mut().take(per_seat).enumerate() {
                *slot = self.deck[c * self.seats + k];
            }
        }
        self.set(def, &cards);
    }

    /// Sets the deal to `cards` (each seat's cards in the order dealt; the caller checks that
    /// no card repeats) and scores its showdowns.
    pub fn set(&mut self, def: &GameDef, cards: &[[Card; MAX_CARDS]; MAX_DEAL_SEATS]) {
        for (s, seat_cards) in cards.iter().enumerate().take(self.seats) {
            let (mut d, mut u) = (0, 0);
            for (&card, &down) in seat_cards.iter().zip(&self.down_at) {
                if down {
                    self.downs[s][d] = card;
                    d += 1;
                } else {
                    self.ups[s][u] = card;
                    u += 1;
                }
            }
        }
        self.first.fill(UNKNOWN);
        self.opponent.fill(UNKNOWN);
        self.bucket.fill(u32::MAX);
        let showdown = def.variant.showdown();
        let mut committed = [0u64; MAX_DEAL_SEATS];
        let mut hands = [None; MAX_DEAL_SEATS];
        for set in 0..1usize << self.seats {
            if set.count_ones() < 2 {
                continue;
            }
            for s in 0..self.seats {
                let live = set >> s & 1 == 1;
                committed[s] = if live { SHOWDOWN_CHIPS } else { 0 };
                hands[s] = live.then(|| self.hand(s));
            }
            let won = showdown_winnings(showdown, &committed[..self.seats], &hands[..self.seats]);
            let pot = (SHOWDOWN_CHIPS * set.count_ones() as u64) as f32;
            let row = &mut self.share[set * self.seats..(set + 1) * self.seats];
            for (share, &w) in row.iter_mut().zip(&won) {
                *share = w as f32 / pot;
            }
        }
    }

    /// All of a seat's cards.
    fn hand(&self, seat: usize) -> CardSet {
        let (d, u) = *self.held.last().expect("a game has streets");
        let downs = self.downs[seat][..d as usize].iter();
        downs
            .chain(&self.ups[seat][..u as usize])
            .copied()
            .collect()
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The up cards `seat` shows on `street`.
    pub fn up_cards(&self, seat: usize, street: usize) -> &[Card] {
        &self.ups[seat][..self.held[street].1 as usize]
    }

    /// The down cards `seat` holds on `street`.
    pub fn down_cards(&self, seat: usize, street: usize) -> &[Card] {
        &self.downs[seat][..self.held[street].0 as usize]
    }

    /// The share of the pot `seat` wins at a showdown of the seats of `set` (0 if not in it).
    #[inline]
    pub fn share(&self, set: u16, seat: usize) -> f32 {
        self.share[set as usize * self.seats + seat]
    }

    /// The seats of `set` in street `street`'s order of play (role 0, the first actor, first;
    /// then each live seat on its left) and how many there are.
    pub fn order(&mut self, street: usize, set: u16) -> ([u8; MAX_DEAL_SEATS], usize) {
        let seats = self.seats as u8;
        let first = self.first_actor(street, set);
        let mut order = [0u8; MAX_DEAL_SEATS];
        let mut live = 0;
        for k in 0..seats {
            let s = (first + k) % seats;
            if set >> s & 1 == 1 {
                order[live] = s;
                live += 1;
            }
        }
        (order, live)
    }

    /// The seat acting first on `street` when the seats of `set` are in: the rules engine's
    /// opener (the bring-in by the door cards, then the best showing hand; ties to the seat
    /// nearest the dealer's left), which is the first actor since no seat is all in.
    pub fn first_actor(&mut self, street: usize, set: u16) -> u8 {
        let i = street << self.seats | set as usize;
        if self.first[i] == UNKNOWN {
            let seats = (0..self.seats as u8).filter(|&s| set >> s & 1 == 1);
            let hands = seats
                .clone()
                .map(|s| (s, self.up_cards(s as usize, street)));
            let opener = match (street, self.first_round, self.later_rounds) {
                (0, FirstRound::BringIn, _) => bring_in_opener(hands, self.low),
                (0, FirstRound::Seat0, _) => None,
                (0, FirstRound::HighCard, _) | (_, _, LaterRounds::BestShowing) => {
                    best_showing(hands, self.low)
                }
                _ => None,
            };
            // A game opening at seat 0 opens at the first seat in from there.
            self.first[i] = opener.or_else(|| seats.clone().next()).unwrap_or(0);
        }
        self.first[i]
    }

    /// The opponent of `seat`'s view on `street` when the seats of `set` are in: the one of
    /// them with the best showing hand.
    pub fn opponent(&mut self, street: usize, set: u16, seat: u8) -> u8 {
        let i = (street << self.seats | set as usize) * self.seats + seat as usize;
        if self.opponent[i] == UNKNOWN {
            let others = (0..self.seats as u8).filter(|&s| s != seat && set >> s & 1 == 1);
            let hands = others.map(|s| (s, self.up_cards(s as usize, street)));
            self.opponent[i] = best_showing(hands, self.low).unwrap_or(seat);
        }
        self.opponent[i]
    }

    /// The bucket of `seat`'s cards against `opponent`'s up cards on `street`, in `bucketing`
    /// (the game's heads-up bucketing).
    pub fn bucket(
        &mut self,
        bucketing: &Bucketing,
        street: usize,
        seat: u8,
        opponent: u8,
    ) -> Result<u32, DealError> {
        let i = (street * self.seats + seat as usize) * self.seats + opponent as usize;
        if self.bucket[i] == u32::MAX {
            let set = |cards: &[Card]| cards.iter().copied().collect::<CardSet>();
            let view = CardView {
                street,
                down: set(self.down_cards(seat as usize, street)),
                up: set(self.up_cards(seat as usize, street)),
                opp_up: set(self.up_cards(opponent as usize, street)),
            };
            self.bucket[i] = bucketing.bucket(&view)?;
        }
        Ok(self.bucket[i])
    }

    /// The streets of the game.
    pub fn streets(&self) -> usize {
        self.streets
    }
}

#[cfg(test)]
mod tests;
