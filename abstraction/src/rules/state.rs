//! The exact state machine of one hand: chance deals, the seat to act, the legal actions with
//! their amounts, applying an action, and the result.
//!
//! Choices where rules.md is silent (also in `docs/rules-engine.md`; tested in `tests`):
//! - Cards are dealt street by street, each live seat in turn from the dealer's left receiving
//!   all of its cards of the street, then the street's community cards (PokerKit's PHH order).
//! - Burn cards are implicit: the state counts them (one before each street after the first when
//!   `burn_cards`) but never names them, as PokerKit writes none.
//! - Folding when nothing is owed is not an action: it is dominated by checking, and PokerKit
//!   refuses it ("redundant fold"). The bring-in seat cannot fold either: the bring-in is forced.
//! - A bet or raise is the full amount (or all in for less) even when no other player can match
//!   it all; the part nobody matched comes back when the round ends. With nobody able to put in
//!   more than the current bet, no raise is offered (PokerKit: "irrelevant" raise).
//! - An all-in bet or raise for less than a full one (card room, `incomplete_raise_reopens` off)
//!   must be called by everyone, but does not count toward the cap and lets only players who have
//!   not acted since the last full bet raise, a full bet above the last full bet. The forced
//!   bring-in does not count as having acted. With `incomplete_raise_reopens` (PokerKit) it is a
//!   full raise in every way: it reopens, counts, and the next raise goes a full bet above it.
//! - The cap is lifted when only two players are left in the hand at the time of a raise.
//! - The first seat to act is the opener (bring-in or best showing hand) or, if the opener is all
//!   in, the next seat on the left that can act (as PokerKit does).
//! - Out of cards on the last street (card room): the burn cards go back into the stub if that
//!   makes enough, otherwise one community card is turned for every live seat. PokerKit's rule
//!   (`Reshuffle`): whenever the stub is empty, the burns and the folded seats' cards go back.
//!   If even that cannot deal the last street, the community card is turned.

use super::seat::seat_name;
use std::fmt;
use std::sync::Arc;

use rand::Rng;

use super::game_def::{Deal, FirstRound, GameDef, GameDefError, LaterRounds, OutOfCards, Showdown};
use super::order::{best_showing, bring_in_opener};
use super::pots::{award, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::eval::{eval_high, eval_low8, eval_razz, showing_high};

/// Whether the last street is dealt as one community card: `needed` cards (the live seats'
/// own and the street's community cards) against the `stub` left after the street's burn, the
/// `burns` set aside and the `folded` seats' cards not yet shuffled back. Under `rule`, the card
/// room shuffles the burns back, PokerKit's reshuffle the burns and the folded hands; the
/// community card is turned when even that is short. The one decision of the engine, which the
/// sampled multiway deal (`multiway_deal`) also asks.
pub fn runs_short(rule: OutOfCards, needed: u32, stub: u32, burns: u32, folded: u32) -> bool {
    let spare = match rule {
        OutOfCards::CardRoom => burns,
        OutOfCards::Reshuffle => burns + folded,
    };
    needed > stub + spare
}

/// The most cards one seat can hold.
const MAX_CARDS: usize = 8;
/// The most streets a game can have.
pub const MAX_STREETS: usize = 8;
/// A placeholder filling the unused slots of card arrays; never read.
const NO_CARD: Card = Card::from_id(0);

/// A betting action, mirroring PHH: `f`, `cc`, `pb`, `cbr AMOUNT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `f`: give up the hand.
    Fold,
    /// `cc`: check when nothing is owed, else call (all in for less if short).
    CheckCall,
    /// `pb`: post the bring-in (all in for less if short).
    BringIn,
    /// `cbr N`: complete, bet or raise so that the seat's total put in this round is `N`.
    CompleteBetRaise(u64),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fold => f.write_str("f"),
            Action::CheckCall => f.write_str("cc"),
            Action::BringIn => f.write_str("pb"),
            Action::CompleteBetRaise(n) => write!(f, "cbr {n}"),
        }
    }
}

/// What the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// The next card: to `seat` (`None`: a community card), dealt `deal`.
    Deal {
        /// The seat receiving the card, `None` for a community card.
        seat: Option<u8>,
        /// Face down, face up, or community.
        deal: Deal,
    },
    /// A betting decision of `seat`.
    Act {
        /// The seat to act.
        seat: u8,
    },
    /// The hand is finished; payoffs are known (once every live hand is known at a showdown).
    Over,
}

impl fmt::Display for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Next::Deal {
                seat: Some(s),
                deal,
            } => write!(
                f,
                "the next card goes to {} ({})",
                seat_name(*s),
                deal_name(*deal)
            ),
            Next::Deal { seat: None, .. } => f.write_str("the next card is a community card"),
            Next::Act { seat } => write!(f, "{} is to act", seat_name(*seat)),
            Next::Over => f.write_str("the hand is over"),
        }
    }
}

fn deal_name(d: Deal) -> &'static str {
    match d {
        Deal::Down => "face down",
        Deal::Up => "face up",
        Deal::Community => "community",
    }
}

/// Why the state refused a deal or an action. Seats are named as PHH names players (`p1` is
/// seat 0), so that a message reads the same beside the PHH line it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The game definition cannot be played.
    #[error("the game cannot be played: {0}")]
    Game(#[from] GameDefError),
    /// The game is beyond what the engine holds (too many streets or cards per seat).
    #[error("the game is not supported: {0}")]
    Unsupported(String),
    /// An action that is not legal now.
    #[error("{} cannot {action}: the legal actions are {legal}", seat_name(*.seat))]
    IllegalAction {
        /// The seat to act.
        seat: u8,
        /// The refused action.
        action: Action,
        /// The legal actions, PHH style.
        legal: String,
    },
    /// An action when no betting decision is pending.
    #[error("cannot {action}: {next}")]
    NotActing {
        /// The refused action.
        action: Action,
        /// What the state waits for instead.
        next: Next,
    },
    /// A deal when no card is due.
    #[error("cannot deal a card: {next}")]
    NotDealing {
        /// What the state waits for instead.
        next: Next,
    },
    /// A card that cannot be dealt.
    #[error("cannot deal {card}: {reason}")]
    BadCard {
        /// The card.
        card: Card,
        /// Why.
        reason: &'static str,
    },
    /// An unknown card where the card must be known.
    #[error("cannot deal an unknown card: {next}; only face-down cards may be unknown")]
    UnknownNotDown {
        /// The card due.
        next: Next,
    },
    /// The stub is empty.
    #[error("the deck has no card left to deal")]
    OutOfCards,
    /// Shown cards that do not fit the seat's hand.
    #[error("{} cannot show those cards: {reason}", seat_name(*.seat))]
    BadShow {
        /// The seat.
        seat: u8,
        /// Why.
        reason: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    Act,
    Over,
}

/// Where a betting round stands: who acts, who folded, who still must act, what each seat has
/// put in on the round, the bet levels and counts. Two states of one hand's street with equal
/// positions have the same betting to come, whatever order of actions reached them, as long as
/// no seat is all in: the one rule left out, that a seat which acted since the last full bet
/// may not raise an incomplete one, only an all-in for less makes ([`State::round_position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundPosition {
    street: usize,
    to_act: u8,
    folded: u16,
    need: u16,
    level: u64,
    full_level: u64,
    count: u8,
    round_bet: [u64; MAX_SEATS],
    open_pair: bool,
    big_made: bool,
    bring_in_pending: bool,
}

/// One hand of a fixed-limit game in progress. Cheap to clone: the definition is shared, every
/// other field is inline.
#[derive(Clone, Debug)]
pub struct State {
    def: Arc<GameDef>,
    n: u8,
    deck: CardSet,
    /// Known cards out of the stub (not reshuffled back): a card dealt twice is refused.
    used: CardSet,
    /// Cards left in the stub.
    stub: u32,
    /// Burn cards set aside since the last reshuffle.
    burns: u32,
    /// Folded seats whose cards went back into the stub (PokerKit's reshuffle).
    recycled: u16,
    street: usize,
    phase: Phase,
    /// The seat being dealt (`n`: the community cards), and the index of its next card.
    deal_seat: u8,
    deal_k: u8,
    /// The last street is dealt as one community card (out of cards).
    short: bool,
    up: [[Card; MAX_CARDS]; MAX_SEATS],
    n_up: [u8; MAX_SEATS],
    down: [[Option<Card>; MAX_CARDS]; MAX_SEATS],
    n_down: [u8; MAX_SEATS],
    community: [Card; MAX_CARDS],
    n_community: u8,
    stack: [u64; MAX_SEATS],
    committed: [u64; MAX_SEATS],
    round_bet: [u64; MAX_SEATS],
    folded: u16,
    to_act: u8,
    /// Seats that still have to act this round.
    need: u16,
    /// Seats that acted since the last full bet or raise (they may not raise an incomplete one).
    acted: u16,
    /// The highest total put in this round, and the level of the last full bet or raise.
    level: u64,
    full_level: u64,
    /// Full bets and raises this round (the completion counts; the bring-in does not).
    count: u8,
    open_pair: bool,
    big_made: bool,
    bring_in_pending: bool,
    bring_in_seat: Option<u8>,
    first_actors: [Option<u8>; MAX_STREETS],
}

impl State {
    /// A new hand: antes posted (all in for less if short), nothing dealt.
    pub fn new(def: &GameDef) -> Result<State, RulesError> {
        State::with_def(Arc::new(def.clone()))
    }

    /// A new hand on a shared definition (cheap when dealing many hands).
    pub fn with_def(def: Arc<GameDef>) -> Result<State, RulesError> {
        def.validate()?;
        if def.streets.len() > MAX_STREETS {
            return Err(RulesError::Unsupported(format!(
                "{} streets: at most {MAX_STREETS}",
                def.streets.len()
            )));
        }
        let community = def
            .streets
            .iter()
            .flat_map(|s| &s.deal)
            .filter(|d| **d == Deal::Community)
            .count();
        if def.cards_per_player() > MAX_CARDS || community + 1 > MAX_CARDS {
            return Err(RulesError::Unsupported(format!(
                "{} cards per player and {community} community cards: at most {MAX_CARDS} per player",
                def.cards_per_player()
            )));
        }
        // The evaluators take 5 to 7 cards for a showdown, 1 to 4 for a showing hand.
        let (cards, ups) = (def.cards_per_player() + community, max_up_cards(&def));
        let fits = match def.variant.showdown() {
            Showdown::Showing => (1..=4).contains(&cards),
            _ => (5..=7).contains(&cards),
        };
        if !fits || ups > 4 {
            return Err(RulesError::Unsupported(format!(
                "{cards} cards per hand with {ups} up: a {} showdown ranks {}, and a showing hand \
                 has at most 4 up cards",
                def.variant,
                if def.variant.showdown() == Showdown::Showing {
                    "1 to 4"
                } else {
                    "5 to 7"
                }
            )));
        }
        let n = def.seats;
        let deck = def.deck.cards();
        let mut st = State {
            n,
            deck,
            used: CardSet::EMPTY,
            stub: deck.len(),
            burns: 0,
            recycled: 0,
            street: 0,
            phase: Phase::Deal,
            deal_seat: 0,
            deal_k: 0,
            short: false,
            up: [[NO_CARD; MAX_CARDS]; MAX_SEATS],
            n_up: [0; MAX_SEATS],
            down: [[None; MAX_CARDS]; MAX_SEATS],
            n_down: [0; MAX_SEATS],
            community: [NO_CARD; MAX_CARDS],
            n_community: 0,
            stack: [0; MAX_SEATS],
            committed: [0; MAX_SEATS],
            round_bet: [0; MAX_SEATS],
            folded: 0,
            to_act: 0,
            need: 0,
            acted: 0,
            level: 0,
            full_level: 0,
            count: 0,
            open_pair: false,
            big_made: false,
            bring_in_pending: false,
            bring_in_seat: None,
            first_actors: [None; MAX_STREETS],
            def,
        };
        for i in 0..n as usize {
            let ante = st.def.ante.min(st.def.starting_stacks[i]);
            st.stack[i] = st.def.starting_stacks[i] - ante;
            st.committed[i] = ante;
        }
        st.begin_street(0);
        Ok(st)
    }

    /// The game being played.
    pub fn def(&self) -> &GameDef {
        &self.def
    }

    /// What the state waits for.
    pub fn next(&self) -> Next {
        match self.phase {
            Phase::Over => Next::Over,
            Phase::Act => Next::Act { seat: self.to_act },
            Phase::Deal => {
                if self.deal_seat < self.n {
                    Next::Deal {
                        seat: Some(self.deal_seat),
                        deal: self.player_deal(self.deal_k as usize),
                    }
                } else {
                    Next::Deal {
                        seat: None,
                        deal: Deal::Community,
                    }
                }
            }
        }
    }

    /// The current street (0 = the first); the last street once the hand is over.
    pub fn street(&self) -> usize {
        self.street
    }

    /// The seat to act, if a betting decision is pending.
    pub fn to_act(&self) -> Option<u8> {
        (self.phase == Phase::Act).then_some(self.to_act)
    }

    /// Where the current betting round stands, without the order of actions that reached it.
    pub fn round_position(&self) -> RoundPosition {
        RoundPosition {
            street: self.street,
            to_act: self.to_act,
            folded: self.folded,
            need: self.need,
            level: self.level,
            full_level: self.full_level,
            count: self.count,
            round_bet: self.round_bet,
            open_pair: self.open_pair,
            big_made: self.big_made,
            bring_in_pending: self.bring_in_pending,
        }
    }

    /// The seat's face-up cards, in the order dealt (none for a seat not at the table).
    pub fn up_cards(&self, seat: u8) -> &[Card] {
        match (self.up.get(seat as usize), self.n_up.get(seat as usize)) {
            (Some(cards), Some(&n)) => &cards[..n as usize],
            _ => &[],
        }
    }

    /// The seat's face-down cards, in the order dealt; `None` for a card nobody knows (none for a
    /// seat not at the table).
    pub fn down_cards(&self, seat: u8) -> &[Option<Card>] {
        match (self.down.get(seat as usize), self.n_down.get(seat as usize)) {
            (Some(cards), Some(&n)) => &cards[..n as usize],
            _ => &[],
        }
    }

    /// The community cards (Leduc's public card, or the card turned when the stub runs out).
    pub fn community_cards(&self) -> &[Card] {
        &self.community[..self.n_community as usize]
    }

    /// The first seat to act on `street`, if that street had a betting decision yet.
    pub fn first_actor(&self, street: usize) -> Option<u8> {
        self.first_actors.get(street).copied().flatten()
    }

    /// The seat that must post the bring-in (while it is due), or that posted it or completed
    /// instead; `None` in a game without a bring-in or before the first betting round.
    pub fn bring_in_seat(&self) -> Option<u8> {
        if self.bring_in_pending {
            Some(self.to_act)
        } else {
            self.bring_in_seat
        }
    }

    /// Whether the seat has folded.
    pub fn folded(&self, seat: u8) -> bool {
        self.folded & bit(seat) != 0
    }

    /// The chips the seat has behind (not yet put in); 0 for a seat not at the table.
    pub fn stack(&self, seat: u8) -> u64 {
        self.stack.get(seat as usize).copied().unwrap_or(0)
    }

    /// Everything the seat has put in this hand, antes included, uncalled bets returned; 0 for a
    /// seat not at the table.
    pub fn committed(&self, seat: u8) -> u64 {
        self.committed.get(seat as usize).copied().unwrap_or(0)
    }

    /// What the seat has put in during the current betting round; 0 for a seat not at the table.
    pub fn round_bet(&self, seat: u8) -> u64 {
        self.round_bet.get(seat as usize).copied().unwrap_or(0)
    }

    /// The most any seat has put in during the current betting round: what a call matches.
    pub fn level(&self) -> u64 {
        self.level
    }

    /// What the seat must put in to call: the round's [`level`](State::level) above its own
    /// bet, at most its stack (all in for less); 0 when nothing is owed.
    pub fn owed(&self, seat: u8) -> u64 {
        (self.level.saturating_sub(self.round_bet(seat))).min(self.stack(seat))
    }

    /// All the chips put in this hand.
    pub fn pot(&self) -> u64 {
        self.committed[..self.n as usize].iter().sum()
    }

    /// Seats not folded, as a mask (bit `i` = seat `i`).
    pub fn live(&self) -> u16 {
        self.all() & !self.folded
    }

    /// The cards of the deck not known to be out: the candidates for the next card (burns and
    /// unknown cards are not named, so they are not excluded).
    pub fn unseen(&self) -> CardSet {
        self.deck.minus(self.used)
    }

    /// Whether the last street is dealt as one community card because the stub ran short.
    pub fn short_of_cards(&self) -> bool {
        self.short
    }

    fn all(&self) -> u16 {
        (1u16 << self.n) - 1
    }

    /// Live seats with chips behind: the ones who can still act.
    fn active(&self) -> u16 {
        let mut m = 0;
        for i in 0..self.n as usize {
            if self.stack[i] > 0 {
                m |= 1 << i;
            }
        }
        m & self.live()
    }

    /// The seats of `mask` in order, starting at `from` and going round to the left.
    fn first_from(&self, mask: u16, from: u8) -> Option<u8> {
        (0..self.n)
            .map(|k| (from + k) % self.n)
            .find(|&s| mask & (1 << s) != 0)
    }

    // ---- dealing -------------------------------------------------------------------------

    /// The `k`-th card each seat gets this street (community cards excluded).
    fn player_deal(&self, k: usize) -> Deal {
        self.def.streets[self.street]
            .deal
            .iter()
            .copied()
            .filter(|d| *d != Deal::Community)
            .nth(k)
            .unwrap_or(Deal::Up)
    }

    /// Cards per seat and community cards on the current street.
    fn street_counts(&self) -> (u8, u8) {
        if self.short {
            return (0, 1);
        }
        let deal = &self.def.streets[self.street].deal;
        let c = deal.iter().filter(|d| **d == Deal::Community).count() as u8;
        (deal.len() as u8 - c, c)
    }

    fn begin_street(&mut self, street: usize) {
        self.street = street;
        self.phase = Phase::Deal;
        if street > 0 && self.def.burn_cards {
            self.refill();
            if self.stub > 0 {
                self.stub -= 1;
                self.burns += 1;
            }
        }
        if street + 1 == self.def.streets.len() {
            let (k, c) = self.street_counts();
            let needed = u32::from(k) * self.live().count_ones() + u32::from(c);
            let rule = self.def.out_of_cards;
            if needed > self.stub {
                if !runs_short(rule, needed, self.stub, self.burns, self.folded_cards()) {
                    if rule == OutOfCards::CardRoom {
                        self.stub += self.burns;
                        self.burns = 0;
                    }
                } else {
                    self.short = true;
                    if self.stub == 0 {
                        // The burns are all that is left: the community card comes from them.
                        self.stub += self.burns;
                        self.burns = 0;
                    }
                }
            }
        }
        let (k, _) = self.street_counts();
        self.deal_k = 0;
        self.deal_seat = if k == 0 {
            self.n
        } else {
            self.first_from(self.live(), 0).unwrap_or(self.n)
        };
        self.settle_deal();
    }

    /// Cards held by folded seats that have not gone back into the stub.
    fn folded_cards(&self) -> u32 {
        (0..self.n as usize)
            .filter(|&i| (self.folded & !self.recycled) & (1 << i) != 0)
            .map(|i| u32::from(self.n_up[i] + self.n_down[i]))
            .sum()
    }

    /// PokerKit's reshuffle: burns and folded hands go back into the stub.
    fn reshuffle(&mut self) {
        self.stub += self.burns + self.folded_cards();
        self.burns = 0;
        for i in 0..self.n as usize {
            if (self.folded & !self.recycled) & (1 << i) != 0 {
                for &c in &self.up[i][..self.n_up[i] as usize] {
                    self.used.remove(c);
                }
                for c in self.down[i][..self.n_down[i] as usize].iter().flatten() {
                    self.used.remove(*c);
                }
            }
        }
        self.recycled |= self.folded;
    }

    /// Starts the betting once the street's cards are all dealt.
    fn settle_deal(&mut self) {
        let (_, c) = self.street_counts();
        if self.deal_seat >= self.n && self.deal_k >= c {
            self.begin_round();
        }
    }

    fn expect_deal(&self) -> Result<(), RulesError> {
        if self.phase != Phase::Deal {
            return Err(RulesError::NotDealing { next: self.next() });
        }
        Ok(())
    }

    /// PokerKit's rule: an empty stub takes back the burns and the folded hands.
    fn refill(&mut self) {
        if self.stub == 0 && self.def.out_of_cards == OutOfCards::Reshuffle {
            self.reshuffle();
        }
    }

    fn take_from_stub(&mut self) -> Result<(), RulesError> {
        self.refill();
        if self.stub == 0 {
            return Err(RulesError::OutOfCards);
        }
        self.stub -= 1;
        Ok(())
    }

    /// Deals the next card (see [`State::next`]). Refuses a card not in the game's deck or
    /// already dealt.
    pub fn deal(&mut self, card: Card) -> Result<(), RulesError> {
        self.expect_deal()?;
        self.refill();
        if !self.deck.contains(card) {
            return Err(RulesError::BadCard {
                card,
                reason: "it is not in this game's deck",
            });
        }
        if self.used.contains(card) {
            return Err(RulesError::BadCard {
                card,
                reason: "it has already been dealt",
            });
        }
        self.take_from_stub()?;
        self.used.insert(card);
        self.place(Some(card));
        Ok(())
    }

    /// Deals the next card face down without naming it (PHH `??`; the solver deals private
    /// cards this way). Only for face-down cards.
    pub fn deal_unknown(&mut self) -> Result<(), RulesError> {
        self.expect_deal()?;
        let next = self.next();
        if !matches!(
            next,
            Next::Deal {
                deal: Deal::Down,
                ..
            }
        ) {
            return Err(RulesError::UnknownNotDown { next });
        }
        self.take_from_stub()?;
        self.place(None);
        Ok(())
    }

    /// Deals the next card at random from the cards not yet dealt, and returns it.
    pub fn deal_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<Card, RulesError> {
        self.expect_deal()?;
        self.refill();
        let avail = self.unseen();
        if avail.is_empty() || self.stub == 0 {
            return Err(RulesError::OutOfCards);
        }
        let k = crate::draw::index(rng, avail.len() as usize);
        let card = avail.iter().nth(k).ok_or(RulesError::OutOfCards)?;
        self.deal(card)?;
        Ok(card)
    }

    fn place(&mut self, card: Option<Card>) {
        if self.deal_seat < self.n {
            let s = self.deal_seat as usize;
            match self.player_deal(self.deal_k as usize) {
                Deal::Down => {
                    self.down[s][self.n_down[s] as usize] = card;
                    self.n_down[s] += 1;
                }
                _ => {
                    self.up[s][self.n_up[s] as usize] = card.unwrap_or(NO_CARD);
                    self.n_up[s] += 1;
                }
            }
            let (k, _) = self.street_counts();
            self.deal_k += 1;
            if self.deal_k == k {
                self.deal_k = 0;
                let live = self.live();
                self.deal_seat = (self.deal_seat + 1..self.n)
                    .find(|&s| live & (1 << s) != 0)
                    .unwrap_or(self.n);
            }
        } else {
            self.community[self.n_community as usize] = card.unwrap_or(NO_CARD);
            self.n_community += 1;
            self.deal_k += 1;
        }
        self.settle_deal();
    }

    /// Reveals a seat's face-down cards at showdown (PHH `sm`): `down` lists all of them in the
    /// order dealt; known ones must match, unknown ones are filled in.
    pub fn show(&mut self, seat: u8, down: &[Card]) -> Result<(), RulesError> {
        let bad = |reason: String| RulesError::BadShow { seat, reason };
        if seat >= self.n {
            return Err(bad(format!("the table has {} seats", self.n)));
        }
        let s = seat as usize;
        if down.len() != self.n_down[s] as usize {
            return Err(bad(format!(
                "{} cards shown for {} face-down cards",
                down.len(),
                self.n_down[s]
            )));
        }
        let mut fresh = CardSet::EMPTY;
        for (i, &c) in down.iter().enumerate() {
            match self.down[s][i] {
                Some(k) if k != c => return Err(bad(format!("card {} is {k}, not {c}", i + 1))),
                Some(_) => {}
                None if !self.deck.contains(c) || self.used.contains(c) || fresh.contains(c) => {
                    return Err(bad(format!("{c} is not in the deck or already dealt")))
                }
                None => fresh.insert(c),
            }
        }
        for (i, &c) in down.iter().enumerate() {
            self.down[s][i] = Some(c);
        }
        self.used = self.used.union(fresh);
        Ok(())
    }

    // ---- betting -------------------------------------------------------------------------

    fn begin_round(&mut self) {
        self.round_bet = [0; MAX_SEATS];
        self.level = 0;
        self.full_level = 0;
        self.count = 0;
        self.acted = 0;
        self.big_made = false;
        self.bring_in_pending = false;
        let live = self.live();
        self.open_pair = self.def.open_pair_big_bet
            && self.street == 1
            && (0..self.n).any(|s| live & (1 << s) != 0 && has_pair(self.up_cards(s)));
        let active = self.active();
        if active.count_ones() < 2 {
            // Nobody left to bet against: the cards run out without betting.
            return self.end_round();
        }
        let seats = || (0..self.n).filter(move |&s| live & (1 << s) != 0);
        let low = self.def.variant.is_low();
        let opener = if self.street == 0 {
            match self.def.first_round {
                FirstRound::BringIn => {
                    self.bring_in_pending = true;
                    bring_in_opener(seats().map(|s| (s, self.up_cards(s))), low)
                }
                FirstRound::HighCard => best_showing(seats().map(|s| (s, self.up_cards(s))), low),
                FirstRound::Seat0 => Some(0),
            }
        } else {
            match self.def.later_rounds {
                LaterRounds::BestShowing => {
                    best_showing(seats().map(|s| (s, self.up_cards(s))), low)
                }
                LaterRounds::Seat0 => Some(0),
            }
        };
        let first = self.first_from(active, opener.unwrap_or(0)).unwrap_or(0);
        self.first_actors[self.street] = Some(first);
        self.need = active;
        self.to_act = first;
        self.phase = Phase::Act;
    }

    fn end_round(&mut self) {
        self.return_uncalled();
        if self.street + 1 < self.def.streets.len() {
            self.begin_street(self.street + 1);
        } else {
            self.phase = Phase::Over;
        }
    }

    /// Returns the part of the top bet of the round that nobody matched.
    fn return_uncalled(&mut self) {
        let n = self.n as usize;
        if let Some(top) = (0..n).max_by_key(|&i| self.round_bet[i]) {
            let second = (0..n)
                .filter(|&i| i != top)
                .map(|i| self.round_bet[i])
                .max()
                .unwrap_or(0);
            let excess = self.round_bet[top].saturating_sub(second);
            self.round_bet[top] -= excess;
            self.committed[top] -= excess;
            self.stack[top] += excess;
        }
    }

    /// The bet sizes a bet or raise may use now: the street's, or small and big on an open pair.
    fn sizes(&self) -> ([u64; 2], usize) {
        let (small, big) = (self.def.small_bet, self.def.big_bet);
        if self.open_pair {
            if self.big_made || small == big {
                ([big, big], 1)
            } else {
                ([small, big], 2)
            }
        } else {
            let b = self.def.bet_amount(self.def.streets[self.street].bet);
            ([b, b], 1)
        }
    }

    /// The total this round a full bet or raise of `size` reaches.
    fn target(&self, size: u64) -> u64 {
        if self.count == 0 {
            size
        } else if self.def.incomplete_raise_reopens {
            self.level + size
        } else {
            self.full_level + size
        }
    }

    /// The most any other live seat can have in this round.
    fn max_other(&self, seat: u8) -> u64 {
        (0..self.n as usize)
            .filter(|&i| i != seat as usize && self.live() & (1 << i) != 0)
            .map(|i| self.stack[i] + self.round_bet[i])
            .max()
            .unwrap_or(0)
    }

    /// The amounts the seat to act may complete, bet or raise to (ascending, at most two).
    fn raise_amounts(&self) -> ([u64; 2], usize) {
        let s = self.to_act;
        let me = s as usize;
        let mut out = ([0; 2], 0);
        let owed = self.level - self.round_bet[me];
        let cap = if self.def.uncapped_heads_up && self.live().count_ones() == 2 {
            u8::MAX
        } else {
            self.def.max_bets
        };
        let max_other = self.max_other(s);
        if self.stack[me] <= owed
            || self.acted & (1 << s) != 0
            || self.count >= cap
            || max_other <= self.level
        {
            return out;
        }
        let total = self.stack[me] + self.round_bet[me];
        let (sizes, k) = self.sizes();
        for &size in &sizes[..k] {
            let amount = self.target(size).min(total);
            if amount > self.level && (out.1 == 0 || out.0[out.1 - 1] < amount) {
                out.0[out.1] = amount;
                out.1 += 1;
            }
        }
        out
    }

    /// Every legal action of the seat to act, with its amount; empty when no decision is due.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::with_capacity(4);
        if self.phase != Phase::Act {
            return v;
        }
        let me = self.to_act as usize;
        if self.bring_in_pending {
            v.push(Action::BringIn);
            let posted = self.def.bring_in.min(self.stack[me]);
            let (amounts, k) = self.raise_amounts();
            v.extend(
                amounts[..k]
                    .iter()
                    .filter(|&&a| a > posted)
                    .map(|&a| Action::CompleteBetRaise(a)),
            );
            return v;
        }
        if self.level > self.round_bet[me] {
            v.push(Action::Fold);
        }
        v.push(Action::CheckCall);
        let (amounts, k) = self.raise_amounts();
        v.extend(amounts[..k].iter().map(|&a| Action::CompleteBetRaise(a)));
        v
    }

    fn pay(&mut self, seat: usize, chips: u64) {
        let chips = chips.min(self.stack[seat]);
        self.stack[seat] -= chips;
        self.round_bet[seat] += chips;
        self.committed[seat] += chips;
    }

    /// Applies the seat to act's action. Refuses an illegal one, naming it and the legal ones.
    pub fn apply(&mut self, action: Action) -> Result<(), RulesError> {
        if self.phase != Phase::Act {
            return Err(RulesError::NotActing {
                action,
                next: self.next(),
            });
        }
        let legal = self.legal_actions();
        if !legal.contains(&action) {
            return Err(RulesError::IllegalAction {
                seat: self.to_act,
                action,
                legal: legal
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let s = self.to_act;
        let me = s as usize;
        let bit = 1u16 << s;
        match action {
            Action::Fold => self.folded |= bit,
            Action::CheckCall => self.pay(me, self.level - self.round_bet[me]),
            Action::BringIn => {
                self.pay(me, self.def.bring_in);
                self.level = self.level.max(self.round_bet[me]);
                self.bring_in_pending = false;
                self.bring_in_seat = Some(s);
            }
            Action::CompleteBetRaise(to) => {
                if self.bring_in_pending {
                    self.bring_in_pending = false;
                    self.bring_in_seat = Some(s);
                }
                let (sizes, _) = self.sizes();
                let small_target = self.target(sizes[0]);
                self.pay(me, to - self.round_bet[me]);
                let full = self.def.incomplete_raise_reopens || to >= small_target;
                if self.open_pair && to > small_target {
                    self.big_made = true;
                }
                self.level = to;
                self.need = self.all() & !bit;
                if full {
                    self.count += 1;
                    self.full_level = to;
                    self.acted = 0;
                }
            }
        }
        // The forced bring-in is not a voluntary action: it keeps the right to raise.
        if action != Action::BringIn {
            self.acted |= bit;
        }
        self.need &= !bit & self.active();
        if self.live().count_ones() == 1 {
            self.return_uncalled();
            self.phase = Phase::Over;
            return Ok(());
        }
        match self.first_from(self.need, (s + 1) % self.n) {
            Some(next) => self.to_act = next,
            None => self.end_round(),
        }
        Ok(())
    }

    // ---- result --------------------------------------------------------------------------

    /// All of a seat's cards (community included), or `None` if one is unknown.
    pub fn hand(&self, seat: u8) -> Option<CardSet> {
        let mut h: CardSet = self
            .up_cards(seat)
            .iter()
            .chain(self.community_cards())
            .copied()
            .collect();
        for c in self.down_cards(seat) {
            h.insert((*c)?);
        }
        Some(h)
    }

    /// The net result per seat once the hand is over (chips won minus chips put in); `None`
    /// before that, or when a live hand at showdown is not known (see [`State::show`]).
    pub fn payoffs(&self) -> Option<Vec<i64>> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.n as usize;
        let committed = &self.committed[..n];
        let live = self.live();
        let won = if live.count_ones() == 1 {
            let mut won = vec![0; n];
            won[live.trailing_zeros() as usize] = self.pot();
            won
        } else {
            let mut hands = [None; MAX_SEATS];
            for (i, h) in hands.iter_mut().enumerate().take(n) {
                if live & (1 << i) != 0 {
                    *h = Some(self.hand(i as u8)?);
                }
            }
            showdown_winnings(self.def.variant.showdown(), committed, &hands[..n])
        };
        Some(
            won.iter()
                .zip(committed)
                .map(|(&w, &c)| w as i64 - c as i64)
                .collect(),
        )
    }

    /// Each seat's chips at the end of the hand (starting stack plus payoff), once known.
    pub fn final_stacks(&self) -> Option<Vec<u64>> {
        let p = self.payoffs()?;
        Some(
            p.iter()
                .zip(&self.def.starting_stacks)
                .map(|(&p, &s)| (s as i64 + p) as u64)
                .collect(),
        )
    }
}

/// The chips each seat wins at a showdown of `hands` (`None`: folded) after putting in
/// `committed`: the pots split by the variant's showdown, side pots included. The one place the
/// showdown is scored: [`State::payoffs`] uses it, and so do bots estimating their equity.
pub fn showdown_winnings(
    showdown: Showdown,
    committed: &[u64],
    hands: &[Option<CardSet>],
) -> Vec<u64> {
    let no_low: &[Option<u8>] = &[];
    match showdown {
        Showdown::High => award(committed, &map(hands, eval_high), no_low),
        Showdown::Razz => award(committed, &map(hands, eval_razz), no_low),
        Showdown::HiLo8 => {
            let lows: Vec<_> = hands.iter().map(|h| h.and_then(eval_low8)).collect();
            award(committed, &map(hands, eval_high), &lows)
        }
        Showdown::Showing => {
            let showing = |h: CardSet| showing_high(&h.iter().collect::<Vec<_>>());
            award(committed, &map(hands, showing), no_low)
        }
    }
}

/// The most face-up cards a seat gets over the hand.
fn max_up_cards(def: &GameDef) -> usize {
    def.streets
        .iter()
        .flat_map(|s| &s.deal)
        .filter(|d| **d == Deal::Up)
        .count()
}

fn map<K>(hands: &[Option<CardSet>], f: impl Fn(CardSet) -> K) -> Vec<Option<K>> {
    hands.iter().map(|h| h.map(&f)).collect()
}

/// The mask bit of a seat (0 for a seat beyond the mask).
fn bit(seat: u8) -> u16 {
    1u16.checked_shl(u32::from(seat)).unwrap_or(0)
}

/// Whether two cards share a rank.
fn has_pair(cards: &[Card]) -> bool {
    let mut seen = 0u16;
    for c in cards {
        let bit = 1 << c.rank().index();
        if seen & bit != 0 {
            return true;
        }
        seen |= bit;
    }
    false
}
