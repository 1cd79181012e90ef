//! One sampled deal of an N-seat stud game, and what a sampling solver needs of it as it walks
//! ([`MultiwayFacts`]): who acts first on a street given the seats still in, the bucket of a
//! seat's view, and each seat's share of the pot at a showdown of any set of seats.
//!
//! # The card abstraction of an N-seat view
//! A seat's view is bucketed with the heads-up bucketing of the game: its own cards against
//! the up cards of *one* opponent, the live opponent with the best showing hand (the one the
//! rules engine would make act first among them). What becomes of the other seats' up cards
//! (the other live opponents' and the folded seats') is the [`MultiwayView`]: left out of the
//! view ([`MultiwayView::BestOpponent`], the first multiway files), or in it
//! ([`MultiwayView::Table`]: a [`TableView`], bucketed by a bucketing of its own per number
//! of live seats, [`MultiwayBuckets`]). docs/notes/multiway.md measures both.
//!
//! # Cheap per deal
//! Every seat is dealt all its cards up front (a partial shuffle of the deck); a seat that folds
//! in the real game receives no more cards, but the live seats' cards are uniformly random
//! either way. First actors, opponents and buckets are computed when first asked and kept in
//! fixed arrays for the deal (a bucket lookup is the costly part: only the views the walk
//! reaches are bucketed). The showdown shares of every set of two or more seats are scored by
//! the rules engine's [`showdown_winnings`] when the deal is drawn, before any walk.

use rand::Rng;

use crate::bucketing::{BucketError, Bucketing, CardView, Table, TableView};
use crate::cards::{Card, CardSet};
use crate::deal::DealError;
use crate::named::Named;
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

/// How a seat's cards are seen for its bucket in an N-seat deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiwayView {
    /// The heads-up bucketing's view of the seat's cards against the best showing live
    /// opponent's up cards; the other seats' cards are not seen (the rollouts deal them as if
    /// they were still in the deck).
    BestOpponent,
    /// A [`TableView`]: the same opponent, every other live opponent's up cards (their hands
    /// dealt in the rollouts, the pot shared against all) and the folded seats' up cards
    /// (dead), bucketed by the bucketing of the number of live seats.
    Table,
}

impl Named for MultiwayView {
    const ALL: &'static [(&'static str, MultiwayView)] = &[
        ("best-opponent", MultiwayView::BestOpponent),
        ("table", MultiwayView::Table),
    ];
    const WHAT: &'static str = "a view";
}

impl MultiwayView {
    /// The view in words, as a card abstraction's name carries it (strategy files and
    /// checkpoints).
    pub fn describe(self) -> &'static str {
        match self {
            MultiwayView::BestOpponent => "against the best showing live opponent",
            MultiwayView::Table => {
                "against every live opponent, the folded seats' up cards dead, a bucketing per \
                 number of live seats"
            }
        }
    }
}

/// The card abstraction of an N-seat game as a sampled solve sees it: the heads-up bucketing
/// of the variant, and with [`MultiwayView::Table`] one bucketing per number of live seats.
#[derive(Clone, Debug)]
pub struct MultiwayBuckets {
    /// How seats' cards are seen.
    pub view: MultiwayView,
    /// The heads-up bucketing (every bucketing here has its bucket counts).
    pub heads_up: Bucketing,
    /// With [`MultiwayView::Table`], for `L` = 2 to N live seats (index `L - 2`), the bucketing
    /// of views with `L - 2` other live opponents and `N - L` folded seats; empty otherwise.
    pub by_live: Vec<Bucketing>,
}

impl MultiwayBuckets {
    /// The view against the best showing live opponent alone.
    pub fn best_opponent(heads_up: Bucketing) -> MultiwayBuckets {
        MultiwayBuckets {
            view: MultiwayView::BestOpponent,
            heads_up,
            by_live: Vec::new(),
        }
    }

    /// The other seats of a view with `live` seats in of an N-seat game: the bucketing
    /// [`MultiwayBuckets::table`] needs for it.
    pub fn table_of(seats: usize, live: usize) -> Table {
        Table {
            live: (live - 2) as u8,
            folded: (seats - live) as u8,
        }
    }

    /// The table view of a game of `seats` seats: `by_live` the bucketings of
    /// [`MultiwayBuckets::table_of`] for 2 to `seats` live seats, each of the heads-up
    /// bucketing's size and bucket counts.
    pub fn table(
        heads_up: Bucketing,
        by_live: Vec<Bucketing>,
        seats: usize,
    ) -> Result<MultiwayBuckets, BucketError> {
        if by_live.len() + 1 != seats {
            return Err(BucketError::Size(format!(
                "{} bucketings for 2 to {seats} live seats",
                by_live.len()
            )));
        }
        for (i, b) in by_live.iter().enumerate() {
            let want = MultiwayBuckets::table_of(seats, i + 2);
            let counts = |b: &Bucketing| {
                (0..b.shape().streets())
                    .map(|s| b.buckets(s))
                    .collect::<Vec<_>>()
            };
            if b.shape().table != want
                || counts(b) != counts(&heads_up)
                || b.shape().game != heads_up.shape().game
            {
                return Err(BucketError::Size(format!(
                    "the bucketing of {} live seats is of {:?} with {:?} buckets; it must be of \
                     {want:?} with the heads-up {:?}",
                    i + 2,
                    b.shape().table,
                    counts(b),
                    counts(&heads_up)
                )));
            }
        }
        Ok(MultiwayBuckets {
            view: MultiwayView::Table,
            heads_up,
            by_live,
        })
    }

    /// The bucket count of `street`.
    pub fn buckets(&self, street: usize) -> u32 {
        self.heads_up.buckets(street)
    }

    /// The bucketing of a view with `live` seats in.
    pub fn for_live(&self, live: usize) -> &Bucketing {
        match self.view {
            MultiwayView::BestOpponent => &self.heads_up,
            MultiwayView::Table => &self.by_live[live - 2],
        }
    }
}

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
    /// Per street, seat and opponent: the last bucket asked and the key of its view (the live
    /// seats and the folded seats' up cards; `u32::MAX`: none yet). Other views' buckets are in
    /// `more_buckets`.
    bucket: Vec<(u128, u32)>,
    /// The buckets of views other than the last asked, by key: a short list, searched in order.
    more_buckets: Vec<(u128, u32)>,
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
            bucket: vec![(0, u32::MAX); streets * seats * seats],
            more_buckets: Vec::new(),
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
        self.bucket.fill((0, u32::MAX));
        self.more_buckets.clear();
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

    /// `seat`'s view on `street` against `opponent`, the seats of `set` in and each seat
    /// showing the first `shown[s]` of its up cards (a folded seat, what it was dealt before it
    /// folded): with [`MultiwayView::Table`] the other live seats' up cards (in seat order)
    /// and the folded seats' as dead cards; with [`MultiwayView::BestOpponent`] neither.
    pub fn table_view(
        &self,
        view: MultiwayView,
        street: usize,
        (seat, opponent): (u8, u8),
        set: u16,
        shown: &[u8; MAX_DEAL_SEATS],
    ) -> TableView {
        let cards = |c: &[Card]| c.iter().copied().collect::<CardSet>();
        let duel = CardView {
            street,
            down: cards(self.down_cards(seat as usize, street)),
            up: cards(self.up_cards(seat as usize, street)),
            opp_up: cards(self.up_cards(opponent as usize, street)),
        };
        if view != MultiwayView::Table {
            return TableView::heads_up(duel);
        }
        let others = (0..self.seats)
            .filter(|&s| s != seat as usize && s != opponent as usize)
            .map(|s| (cards(&self.ups[s][..shown[s] as usize]), set >> s & 1 == 1));
        TableView::at_table(duel, others)
    }

    /// The up cards each seat shows on `street` when the seats of `set` are in it: the street's
    /// count for them, `before`'s (what they showed when they folded) for the others.
    pub fn shown(
        &self,
        street: usize,
        set: u16,
        before: &[u8; MAX_DEAL_SEATS],
    ) -> [u8; MAX_DEAL_SEATS] {
        let mut shown = *before;
        for (s, n) in shown.iter_mut().enumerate().take(self.seats) {
            if set >> s & 1 == 1 {
                *n = self.held[street].1;
            }
        }
        shown
    }

    /// The bucket of `seat`'s view on `street` against `opponent` in `buckets`, the seats of
    /// `set` in, the others showing `shown` up cards ([`MultiwayFacts::table_view`]).
    pub fn bucket(
        &mut self,
        buckets: &MultiwayBuckets,
        street: usize,
        (seat, opponent): (u8, u8),
        set: u16,
        shown: &[u8; MAX_DEAL_SEATS],
    ) -> Result<u32, DealError> {
        let i = (street * self.seats + seat as usize) * self.seats + opponent as usize;
        // The view is its street, seat and opponent (`i`), the live seats and the folded
        // seats' up cards: a card mask has 52 bits.
        let key = match buckets.view {
            MultiwayView::BestOpponent => i as u128,
            MultiwayView::Table => {
                let mut dead = 0u64;
                for s in (0..self.seats).filter(|&s| set >> s & 1 == 0) {
                    for &c in &self.ups[s][..shown[s] as usize] {
                        dead |= 1 << c.id();
                    }
                }
                i as u128 | (set as u128) << 16 | (dead as u128) << 32
            }
        };
        let (last_key, last) = self.bucket[i];
        if last != u32::MAX && last_key == key {
            return Ok(last);
        }
        let found = self.more_buckets.iter().find(|&&(k, _)| k == key);
        let b = match found {
            Some(&(_, b)) => b,
            None => {
                let t = self.table_view(buckets.view, street, (seat, opponent), set, shown);
                let live = set.count_ones() as usize;
                let b = buckets.for_live(live).bucket_table(&t)?;
                self.more_buckets.push((key, b));
                b
            }
        };
        self.bucket[i] = (key, b);
        Ok(b)
    }

    /// The streets of the game.
    pub fn streets(&self) -> usize {
        self.streets
    }
}

#[cfg(test)]
mod tests;
