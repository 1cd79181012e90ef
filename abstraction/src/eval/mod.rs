//! Hand evaluators for the stud family: high hands (seven-card stud, five-card stud, the high half
//! of hi-lo), ace-to-five lows (razz), eight-or-better lows (the low half of hi-lo), the ranking
//! of partial up-card hands that decides who acts first, and the bring-in order of door cards.
//!
//! Every strength is "higher wins, equal ties", lows included. Evaluation allocates nothing: a
//! card set's key is the sum of seven byte-table loads, and three more loads give the strength
//! (see `tables.rs`). [`PartialHand`] carries the key as cards are added, so that a nested
//! enumeration pays one addition per card; [`eval_high_batch`] evaluates many hands at once with
//! SIMD where the CPU has it. The tables are built on first use, in about 12 ms.

mod batch;
mod showing;
mod tables;

pub use batch::eval_high_batch;
pub use showing::{bring_in_weight, showing_high, showing_low};

use crate::cards::{Card, CardSet, Rank};
use std::fmt;
use tables::{tables, Tables};

/// The category of a high hand, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// No pair.
    HighCard,
    /// One pair.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three of a kind (trips).
    ThreeOfAKind,
    /// Five ranks in sequence (A-2-3-4-5 is the lowest).
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four of a kind (quads).
    FourOfAKind,
    /// A straight in one suit.
    StraightFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The human name, e.g. `full house`.
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The strength of a high hand: higher wins, equal ties. The value is dense, `1..=7462`, one per
/// class of equivalent five-card hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HighStrength(u32);

/// The number of distinct five-card high strengths.
pub const HIGH_CLASSES: u32 = 7462;

impl HighStrength {
    /// The dense value, `1..=7462` (higher wins).
    pub const fn value(self) -> u32 {
        self.0
    }

    /// The category.
    pub fn category(self) -> Category {
        Category::ALL[(tables().high_codes[self.0 as usize] >> tables::CAT_SHIFT) as usize]
    }

    /// The five ranks of the hand, most significant first (`K K K Q Q`; a wheel is `5 4 3 2 A`).
    pub fn ranks(self) -> [Rank; 5] {
        let code = tables().high_codes[self.0 as usize];
        std::array::from_fn(|i| Rank::new((code >> (16 - 4 * i) & 15) as u8 - 1))
    }
}

impl fmt::Display for HighStrength {
    /// `full house (K K K Q Q)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.ranks();
        write!(
            f,
            "{} ({} {} {} {} {})",
            self.category(),
            r[0],
            r[1],
            r[2],
            r[3],
            r[4]
        )
    }
}

/// The strength of an ace-to-five low: HIGHER IS THE BETTER LOW (so "higher wins" everywhere).
/// Unpaired lows beat paired ones; the value is dense, one per five-card rank multiset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LowStrength(u32);

impl LowStrength {
    /// The dense value (higher is the better low).
    pub const fn value(self) -> u32 {
        self.0
    }

    /// The five ranks, most significant first: the highest card first for an unpaired low
    /// (`7 5 4 2 A`), the pairs first for a paired one (`8 8 5 3 2`).
    pub fn ranks(self) -> [Rank; 5] {
        let code = !tables().low_codes[self.0 as usize];
        std::array::from_fn(|i| match code >> (16 - 4 * i) & 15 {
            1 => Rank::ACE,
            v => Rank::new(v as u8 - 2),
        })
    }

    /// Whether this low qualifies in eight-or-better: five distinct ranks, eight or lower.
    pub fn is_eight_or_better(self) -> bool {
        self.0 >= tables().low8_min as u32
    }
}

impl fmt::Display for LowStrength {
    /// `7-5-4-2-A`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.ranks();
        write!(f, "{}-{}-{}-{}-{}", r[0], r[1], r[2], r[3], r[4])
    }
}

/// The key of a card set: the sum of its cards' keys, seven loads and no loop.
#[inline]
fn key_of(cards: CardSet) -> u64 {
    let m = cards.0;
    let t = &tables::BYTE_KEYS;
    tables::KEY_INIT
        + t[0][(m & 0xff) as usize]
        + t[1][(m >> 8 & 0xff) as usize]
        + t[2][(m >> 16 & 0xff) as usize]
        + t[3][(m >> 24 & 0xff) as usize]
        + t[4][(m >> 32 & 0xff) as usize]
        + t[5][(m >> 40 & 0xff) as usize]
        + t[6][(m >> 48 & 0xff) as usize]
}

/// The dense index of a key's rank multiset.
#[inline]
fn multiset_index(t: &Tables, key: u64) -> usize {
    (t.even_base[(key & tables::EVEN_MASK) as usize]
        + t.odd_id[(key >> tables::ODD_SHIFT & tables::ODD_MASK) as usize] as u32) as usize
}

/// The 13-bit rank mask of suit `suit` (ids `rank * 4 + suit`): gathers every fourth bit.
#[inline]
fn suit_ranks(cards: u64, suit: u32) -> usize {
    let mut x = cards >> suit & 0x1_1111_1111_1111;
    x = (x | x >> 3) & 0x0303_0303_0303_0303;
    x = (x | x >> 6) & 0x000f_000f_000f_000f;
    x = (x | x >> 12) & 0x0000_00ff_0000_00ff;
    ((x | x >> 24) & 0x1fff) as usize
}

#[inline]
fn high_of(t: &Tables, key: u64, cards: CardSet) -> HighStrength {
    let flush = key & tables::FLUSH_BITS;
    if flush != 0 {
        return flush_of(t, flush, cards);
    }
    HighStrength(t.high[multiset_index(t, key)] as u32)
}

/// Rare (about 3% of 7-card hands), so kept out of the hot path: with at most seven cards a
/// flush beats anything its other cards make, and the flush table knows its straight flushes.
#[cold]
#[inline(never)]
fn flush_of(t: &Tables, flush: u64, cards: CardSet) -> HighStrength {
    let suit = (flush.trailing_zeros() - tables::SUIT_SHIFT - 3) / 4;
    HighStrength(t.flush[suit_ranks(cards.0, suit)] as u32)
}

/// Bit `4 r` for each rank `r` that can play in an eight-or-better low: deuce (0) to eight (6)
/// and the ace (12).
const LOW8_RANKS: u64 = 0x0001_0000_0111_1111;

/// How many distinct ranks of an eight-or-better low `cards` hold: a card's id is `rank * 4 +
/// suit`, so folding each rank's four suit bits onto its lowest gives one bit a rank.
#[inline]
fn low_ranks(cards: CardSet) -> u32 {
    let x = cards.0;
    ((x | x >> 1 | x >> 2 | x >> 3) & LOW8_RANKS).count_ones()
}

/// The best five-card high hand in `cards` (5, 6 or 7 cards).
#[inline]
pub fn eval_high(cards: CardSet) -> HighStrength {
    PartialHand::of(cards).high()
}

/// The best ace-to-five low in `cards` (5, 6 or 7 cards): straights and flushes ignored, the ace
/// low, pairs making a low worse (so paired hands are ordered too).
#[inline]
pub fn eval_razz(cards: CardSet) -> LowStrength {
    PartialHand::of(cards).razz()
}

/// The best eight-or-better low in `cards` (5, 6 or 7 cards), or `None` if there is none. The
/// same scale as [`eval_razz`]: a qualifying low is the hand's best razz low.
#[inline]
pub fn eval_low8(cards: CardSet) -> Option<LowStrength> {
    PartialHand::of(cards).low8()
}

/// A hand being built card by card, carrying the evaluator's key: adding a card is one addition,
/// so an enumeration that nests one loop per card evaluates each hand with a few loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialHand {
    key: u64,
    cards: CardSet,
}

impl Default for PartialHand {
    fn default() -> Self {
        PartialHand::EMPTY
    }
}

impl PartialHand {
    /// No cards yet.
    pub const EMPTY: PartialHand = PartialHand {
        key: tables::KEY_INIT,
        cards: CardSet::EMPTY,
    };

    /// The hand of these cards.
    #[inline]
    pub fn of(cards: CardSet) -> PartialHand {
        PartialHand {
            key: key_of(cards),
            cards,
        }
    }

    /// This hand plus `card` (which must not be in it already).
    #[inline]
    pub const fn add(self, card: Card) -> PartialHand {
        PartialHand {
            key: self.key + tables::CARD_KEYS[card.id() as usize],
            cards: CardSet(self.cards.0 | 1 << card.id()),
        }
    }

    /// The cards so far.
    pub const fn cards(self) -> CardSet {
        self.cards
    }

    /// As [`eval_high`] (5 to 7 cards).
    #[inline]
    pub fn high(self) -> HighStrength {
        debug_assert!(
            (5..=7).contains(&self.cards.len()),
            "a high hand needs 5..=7 cards"
        );
        high_of(tables(), self.key, self.cards)
    }

    /// As [`eval_razz`] (5 to 7 cards).
    #[inline]
    pub fn razz(self) -> LowStrength {
        debug_assert!(
            (5..=7).contains(&self.cards.len()),
            "a low needs 5..=7 cards"
        );
        let t = tables();
        LowStrength(t.razz[multiset_index(t, self.key)] as u32)
    }

    /// Whether [`PartialHand::low8`] is a low: five distinct ranks of eight or lower, counted
    /// without the table.
    #[inline]
    pub fn has_low8(self) -> bool {
        low_ranks(self.cards) >= 5
    }

    /// As [`eval_low8`] (5 to 7 cards).
    #[inline]
    pub fn low8(self) -> Option<LowStrength> {
        // Five distinct ranks of eight or lower, counted on the card bits, decide whether a low
        // qualifies; a hand without one (about half of seven-card hands) skips the table load.
        if !self.has_low8() {
            return None;
        }
        let razz = self.razz();
        debug_assert!(razz.is_eight_or_better());
        Some(razz)
    }
}

#[cfg(test)]
mod tests;
