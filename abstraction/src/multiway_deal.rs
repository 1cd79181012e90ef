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
//!
//! # When the deck runs short
//! Seven or eight seats of seven-card stud need more cards than the deck holds if every seat
//! stays in. The rules engine then turns one community card on the last street, which every
//! live seat uses as its seventh card, or, if enough seats folded early, deals every live seat
//! its own: the decision is the engine's [`runs_short`], asked with the cards dealt (the folded
//! seats' as far as they got), the burns and the seats live when the last street is dealt. Such
//! a deal ([`MultiwayFacts::runs_short`]) is a whole shuffled deck: each seat's cards but the
//! last at fixed places, the rest of the deck after them. The walk calls
//! [`MultiwayFacts::enter_last_street`] as it enters the last street with the seats live and
//! the up cards the folded seats showed; the last cards are then the engine's for that path:
//! the first card of the rest as the community card, or, in seat order, each live seat the next
//! card not dealt on that path (the rest first, then the folded seats' cards they never got, in
//! seat and card order). Every card not seen on a path is equally likely at each of these
//! places, so each path's last cards are uniform, as the engine deals them. The showdown shares
//! are then scored when first asked, memoised per path. In the card abstraction a seat sees the
//! community card as its own last card (its bucket on the last street is the view of its own
//! six cards and that one, against the others' up cards): the bucketing's views have no shared
//! card. A deal the deck always covers is drawn and scored as before.

use rand::Rng;

use crate::bucketing::{BucketError, Bucketing, CardView, Table, TableView};
use crate::cards::{Card, CardSet};
use crate::deal::DealError;
use crate::named::Named;
use crate::rules::game_def::OutOfCards;
use crate::rules::game_def::{Deal, FirstRound, GameDef, LaterRounds};
use crate::rules::order::{best_showing, bring_in_opener};
use crate::rules::state::{runs_short, showdown_winnings, State};

/// The most seats of a multiway deal.
pub const MAX_DEAL_SEATS: usize = 8;
/// The most cards one seat gets.
const MAX_CARDS: usize = 8;
/// Not computed yet.
const UNKNOWN: u8 = u8::MAX;
/// The end of a chain of `MultiwayFacts::more_buckets`.
const NO_ENTRY: u32 = u32::MAX;
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

    /// Whether the table view of `def` can be bucketed: its rollouts deal every live seat's
    /// hand around the folded seats' up cards, which the deck cannot at every table (seven
    /// live seats and one folded of seven-card stud need 53 cards): the first number of live
    /// seats it cannot, refused.
    pub fn table_fits(def: &GameDef) -> Result<(), BucketError> {
        let seats = def.seats as usize;
        let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
        for live in 2..=seats {
            crate::bucketing::view::Shape::of_table(
                &heads_up,
                MultiwayBuckets::table_of(seats, live),
            )?;
        }
        Ok(())
    }

    /// The view of `def` by default: the table view where it can be bucketed
    /// ([`MultiwayBuckets::table_fits`]), else the best showing opponent's.
    pub fn default_view(def: &GameDef) -> MultiwayView {
        match MultiwayBuckets::table_fits(def) {
            Ok(()) => MultiwayView::Table,
            Err(_) => MultiwayView::BestOpponent,
        }
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

    /// The opponent `seat`'s view is taken against at a real `state`: the live opponent with
    /// the best showing hand (the solver's, [`MultiwayFacts::opponent`]); `None` when no
    /// opponent is live.
    pub fn opponent_at(state: &State, seat: u8) -> Option<u8> {
        let low = state.def().variant.is_low();
        let live = state.live();
        let others = (0..state.def().seats).filter(|&s| s != seat && live >> s & 1 == 1);
        best_showing(others.map(|s| (s, state.up_cards(s))), low)
    }

    /// `seat`'s view at a real `state` with the down cards `down`, as the solver sees it
    /// ([`MultiwayFacts::table_view`]): its cards against its [`MultiwayBuckets::opponent_at`]'s
    /// up cards, and with the table view the other live seats' up cards (in seat order) and
    /// the folded seats' (dead). The community card turned when the deck runs short is seen
    /// as the seat's own last card. `None` when no opponent is live.
    pub fn view_at(&self, state: &State, seat: u8, down: CardSet) -> Option<TableView> {
        let opponent = MultiwayBuckets::opponent_at(state, seat)?;
        let down = state.community_cards().iter().fold(down, |mut d, &c| {
            d.insert(c);
            d
        });
        let set = |cards: &[Card]| cards.iter().copied().collect();
        let view = CardView {
            street: state.street(),
            down,
            up: set(state.up_cards(seat)),
            opp_up: set(state.up_cards(opponent)),
        };
        if self.view != MultiwayView::Table {
            return Some(TableView::heads_up(view));
        }
        let live = state.live();
        let others = (0..state.def().seats)
            .filter(|&s| s != seat && s != opponent)
            .map(|s| (set(state.up_cards(s)), live >> s & 1 == 1));
        Some(TableView::at_table(view, others))
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
    /// The buckets of views other than the last asked: (key, bucket, the entry asked before it
    /// of the same street, seat and opponent or [`NO_ENTRY`]), one chain per street, seat and
    /// opponent starting at `more_head`. A deal buckets hundreds of views five-handed: one list
    /// of them all, searched in order, cost a tenth of a traversal.
    more_buckets: Vec<(u128, u32, u32)>,
    /// Per street, seat and opponent: its newest entry of `more_buckets`, or [`NO_ENTRY`].
    more_head: Vec<u32>,
    /// Per set of seats and seat: its share of the pot at their showdown.
    share: Vec<f32>,
    /// The deck in its order, and a copy shuffled for a deal: every deal starts from the deck's
    /// order, so that a deal depends on its own draws only (a resumed solve deals the same).
    order: Vec<Card>,
    deck: Vec<Card>,
    /// Which of a seat's cards (in order) are face down.
    down_at: Vec<bool>,
    /// The deck may run short on the last street ([`MultiwayFacts::runs_short`]); then what
    /// deals it.
    short: Option<Box<ShortDeck>>,
}

/// The last street of a deal whose deck may run short.
#[derive(Clone, Debug)]
struct ShortDeck {
    out_of_cards: OutOfCards,
    /// Cards burned before the last street is dealt.
    burns: u32,
    /// Own cards each live seat gets on the last street (1) and its community cards (0).
    last_own: u32,
    last_community: u32,
    /// Cards a seat that folded showing `u` up cards was dealt (index `u`).
    dealt_showing: [u8; MAX_CARDS + 1],
    /// Each seat's cards before the last, in the order dealt.
    cards: [[Card; MAX_CARDS]; MAX_DEAL_SEATS],
    /// The rest of the deck, in its shuffled order.
    rest: Vec<Card>,
    /// The last street being walked: its key (the live seats and what each showed), whether it
    /// is the community card, and each seat's last card.
    entered: u64,
    community: bool,
    last: [Card; MAX_DEAL_SEATS],
    /// Showdown shares of the paths walked, by the key of the last street and the set of seats
    /// at the showdown: a short list, searched in order.
    shares: Vec<(u64, [f32; MAX_DEAL_SEATS])>,
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
        let held: Vec<(u8, u8)> = (0..def.streets.len())
            .map(|s| {
                let (d, u) = crate::bucketing::view::held_by(def, s);
                (d as u8, u as u8)
            })
            .collect();
        let streets = def.streets.len();
        let short = if seats * per_seat > deck.len() {
            Some(Box::new(ShortDeck::new(def, &held, deck.len())?))
        } else {
            None
        };
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
            more_head: vec![NO_ENTRY; streets * seats * seats],
            share: vec![0.0; sets * seats],
            order: deck.clone(),
            deck,
            down_at,
            short,
        })
    }

    /// Whether the deck may run short on the last street (more seats × cards than the deck):
    /// then the walk tells the facts of each last street it enters
    /// ([`MultiwayFacts::enter_last_street`]). A deal the deck always covers never runs short
    /// under either rule (the seats dealt fewer cards than their all leave it enough). Only the
    /// card room's rule is sampled when it may ([`OutOfCards::CardRoom`]).
    pub fn runs_short(&self) -> bool {
        self.short.is_some()
    }

    /// Draws a uniformly random deal from `rng` (a partial Fisher-Yates shuffle: `seats × cards
    /// per seat` draws), forgets the last deal's facts and scores every showdown of the new one
    /// with `def`'s showdown.
    pub fn sample<R: Rng + ?Sized>(&mut self, def: &GameDef, rng: &mut R) {
        let per_seat = self.down_at.len();
        let m = self.deck.len();
        self.deck.copy_from_slice(&self.order);
        // A deck that may run short is shuffled whole: the seats' cards but the last, then the
        // rest that deals the last street.
        let (own, draws) = match self.short {
            None => (per_seat, self.seats * per_seat),
            Some(_) => (per_seat - 1, m - 1),
        };
        for i in 0..draws {
            let j = i + crate::draw::below(rng, m - i);
            self.deck.swap(i, j);
        }
        let mut cards = [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS];
        for (k, row) in cards.iter_mut().take(self.seats).enumerate() {
            for (c, slot) in row.iter_mut().take(own).enumerate() {
                *slot = self.deck[c * self.seats + k];
            }
        }
        let deck = std::mem::take(&mut self.deck);
        self.set_with_rest(def, &cards, &deck[own * self.seats..]);
        self.deck = deck;
    }

    /// [`MultiwayFacts::set`] for a deck that may run short ([`MultiwayFacts::runs_short`]):
    /// each seat's cards but the last, and `rest` the rest of the deck in order, which deals
    /// the last street ([`MultiwayFacts::enter_last_street`]). Otherwise `rest` is not read.
    pub fn set_with_rest(
        &mut self,
        def: &GameDef,
        cards: &[[Card; MAX_CARDS]; MAX_DEAL_SEATS],
        rest: &[Card],
    ) {
        let Some(short) = self.short.as_mut() else {
            return self.set(def, cards);
        };
        short.cards = *cards;
        short.rest.clear();
        short.rest.extend_from_slice(rest);
        short.shares.clear();
        short.entered = u64::MAX;
        self.set_cards(cards, self.down_at.len() - 1);
        self.first.fill(UNKNOWN);
        self.opponent.fill(UNKNOWN);
        self.bucket.fill((0, u32::MAX));
        self.more_buckets.clear();
        self.more_head.fill(NO_ENTRY);
    }

    /// Puts each seat's first `n` cards in its down and up cards.
    fn set_cards(&mut self, cards: &[[Card; MAX_CARDS]; MAX_DEAL_SEATS], n: usize) {
        for (s, seat_cards) in cards.iter().enumerate().take(self.seats) {
            let (mut d, mut u) = (0, 0);
            for (&card, &down) in seat_cards.iter().zip(&self.down_at).take(n) {
                if down {
                    self.downs[s][d] = card;
                    d += 1;
                } else {
                    self.ups[s][u] = card;
                    u += 1;
                }
            }
        }
    }

    /// Enters the last street with the seats of `set` live, each other seat having shown the
    /// up cards of `shown` when it folded (a deck that may run short; otherwise nothing to do):
    /// decides, as the rules engine does, whether the street is one community card, and deals
    /// each live seat its last card (that card or its own).
    pub fn enter_last_street(&mut self, set: u16, shown: &[u8; MAX_DEAL_SEATS]) {
        let seats = self.seats;
        let Some(short) = self.short.as_mut() else {
            return;
        };
        let mut key = set as u64;
        for (s, &n) in shown.iter().enumerate().take(seats) {
            if set >> s & 1 == 0 {
                key |= (n as u64 + 1) << (16 + 4 * s);
            }
        }
        if key == short.entered {
            return;
        }
        short.entered = key;
        let own = self.down_at.len() - 1;
        let (mut dealt, mut folded) = (0u32, 0u32);
        let mut got = [0usize; MAX_DEAL_SEATS];
        for (s, g) in got.iter_mut().enumerate().take(seats) {
            *g = if set >> s & 1 == 1 {
                own
            } else {
                short.dealt_showing[shown[s] as usize] as usize
            };
            dealt += *g as u32;
            if set >> s & 1 == 0 {
                folded += *g as u32;
            }
        }
        let deck = (own * seats + short.rest.len()) as u32;
        let needed = short.last_own * set.count_ones() + short.last_community;
        let stub = deck - dealt - short.burns;
        short.community = runs_short(short.out_of_cards, needed, stub, short.burns, folded);
        if short.community {
            short.last = [short.rest[0]; MAX_DEAL_SEATS];
        } else {
            // The cards no seat got on this path: the rest, then the folded seats' unseen.
            let unseen = short.rest.iter().chain(
                (0..seats)
                    .filter(|&s| set >> s & 1 == 0)
                    .flat_map(|s| &short.cards[s][got[s]..own]),
            );
            let live = (0..seats).filter(|&s| set >> s & 1 == 1);
            for (s, &c) in live.zip(unseen) {
                short.last[s] = c;
            }
        }
        let (d, u) = *self.held.last().expect("a game has streets");
        for s in (0..seats).filter(|&s| set >> s & 1 == 1) {
            if self.down_at[own] {
                self.downs[s][d as usize - 1] = short.last[s];
            } else {
                self.ups[s][u as usize - 1] = short.last[s];
            }
        }
    }

    /// The last street entered ([`MultiwayFacts::enter_last_street`]): whether it is the
    /// community card, and each live seat's last card (that card when it is); `None` for a deck
    /// that cannot run short.
    pub fn last_street(&self) -> Option<(bool, [Card; MAX_DEAL_SEATS])> {
        self.short.as_ref().map(|s| (s.community, s.last))
    }

    /// Sets the deal to `cards` (each seat's cards in the order dealt; the caller checks that
    /// no card repeats) and scores its showdowns.
    pub fn set(&mut self, def: &GameDef, cards: &[[Card; MAX_CARDS]; MAX_DEAL_SEATS]) {
        self.set_cards(cards, self.down_at.len());
        self.first.fill(UNKNOWN);
        self.opponent.fill(UNKNOWN);
        self.bucket.fill((0, u32::MAX));
        self.more_buckets.clear();
        self.more_head.fill(NO_ENTRY);
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

    /// The share of the pot `seat` wins at a showdown of the seats of `set` (0 if not in it);
    /// a deck that may run short, on the last street entered (`def` scores it).
    #[inline]
    pub fn share(&mut self, def: &GameDef, set: u16, seat: usize) -> f32 {
        if self.short.is_none() {
            return self.share[set as usize * self.seats + seat];
        }
        if set >> seat & 1 == 0 {
            return 0.0;
        }
        self.short_share(def, set)[seat]
    }

    /// The shares of a showdown of `set` on the last street entered, scored when first asked.
    fn short_share(&mut self, def: &GameDef, set: u16) -> [f32; MAX_DEAL_SEATS] {
        let short = self.short.as_ref().expect("a deck that may run short");
        let key = short.entered | (set as u64) << 48;
        if let Some(&(_, row)) = short.shares.iter().find(|(k, _)| *k == key) {
            return row;
        }
        let mut committed = [0u64; MAX_DEAL_SEATS];
        let mut hands = [None; MAX_DEAL_SEATS];
        for s in (0..self.seats).filter(|&s| set >> s & 1 == 1) {
            committed[s] = SHOWDOWN_CHIPS;
            hands[s] = Some(self.hand(s));
        }
        let showdown = def.variant.showdown();
        let won = showdown_winnings(showdown, &committed[..self.seats], &hands[..self.seats]);
        let pot = (SHOWDOWN_CHIPS * set.count_ones() as u64) as f32;
        let mut row = [0f32; MAX_DEAL_SEATS];
        for (share, &w) in row.iter_mut().zip(&won) {
            *share = w as f32 / pot;
        }
        let short = self.short.as_mut().expect("a deck that may run short");
        short.shares.push((key, row));
        row
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
        // A deck that may run short: the seat's last card is the path's.
        let key = match &self.short {
            Some(short) if street + 1 == self.streets => {
                key | (short.last[seat as usize].id() as u128 + 1) << 96
            }
            _ => key,
        };
        let (last_key, last) = self.bucket[i];
        if last != u32::MAX && last_key == key {
            return Ok(last);
        }
        let mut at = self.more_head[i];
        let mut found = None;
        while at != NO_ENTRY {
            let (k, b, before) = self.more_buckets[at as usize];
            if k == key {
                found = Some(b);
                break;
            }
            at = before;
        }
        let b = match found {
            Some(b) => b,
            None => {
                let t = self.table_view(buckets.view, street, (seat, opponent), set, shown);
                let live = set.count_ones() as usize;
                let b = buckets.for_live(live).bucket_table(&t)?;
                self.more_buckets.push((key, b, self.more_head[i]));
                self.more_head[i] = (self.more_buckets.len() - 1) as u32;
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

impl ShortDeck {
    /// The last street of `def`, whose seats' cards (each seat holding `held` on each street)
    /// outnumber its deck of `deck` cards. Refused unless the deck deals every street but the
    /// last to every seat, with a card to burn before each (so that the stub is first short on
    /// the last street), the rule is the card room's, the last street is one face-down card per
    /// seat, and a folded seat's up cards tell how many cards it was dealt.
    fn new(def: &GameDef, held: &[(u8, u8)], deck: usize) -> Result<ShortDeck, DealError> {
        let seats = def.seats as usize;
        let streets = held.len();
        let before = held[..streets - 1]
            .last()
            .map_or(0, |&(d, u)| (d + u) as usize);
        let burns = if def.burn_cards {
            streets as u32 - 1
        } else {
            0
        };
        let last = &def.streets[streets - 1].deal;
        let refuse = |why: &str| {
            Err(DealError::Unsupported(format!(
                "{seats} seats of {} cards need {} cards; the deck has {deck}, and {why}",
                def.cards_per_player(),
                seats * def.cards_per_player()
            )))
        };
        if seats * before + burns as usize > deck {
            return refuse("it cannot deal every street before the last");
        }
        if def.out_of_cards != OutOfCards::CardRoom {
            // PokerKit's reshuffle deals the last cards from the folded seats' cards too, seen
            // ones among them, once the stub is empty: a draw the fixed places cannot make.
            return refuse("the sampled game deals the card room's rule when it runs short, not PokerKit's reshuffle");
        }
        if last.as_slice() != [Deal::Down] {
            return refuse("a last street of other than one down card is not sampled");
        }
        let mut dealt_showing = [0u8; MAX_CARDS + 1];
        for w in held[..streets - 1].windows(2) {
            if w[1].1 <= w[0].1 {
                return refuse("a street before the last deals no up card");
            }
        }
        for &(d, u) in &held[..streets - 1] {
            dealt_showing[u as usize] = d + u;
        }
        Ok(ShortDeck {
            out_of_cards: def.out_of_cards,
            burns,
            last_own: 1,
            last_community: 0,
            dealt_showing,
            cards: [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS],
            rest: Vec::with_capacity(deck),
            entered: u64::MAX,
            community: false,
            last: [Card::from_id(0); MAX_DEAL_SEATS],
            shares: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests;
