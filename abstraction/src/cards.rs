//! Cards, ranks, suits and 64-bit card sets.
//!
//! A card is a dense id `rank * 4 + suit` in `0..52`, so that ordering cards by id orders them by
//! rank and then by suit (clubs < diamonds < hearts < spades), which is exactly the door-card order
//! of the bring-in rule. A [`CardSet`] is a bit set over those ids.

use std::fmt;
use std::str::FromStr;

/// A rank, `Two` (0) to `Ace` (12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

/// A suit, in bring-in tie-break order: clubs < diamonds < hearts < spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♣, the lowest suit for the bring-in.
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠, the highest suit for the bring-in.
    Spades = 3,
}

/// One card of a 52-card deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// A set of cards as a 64-bit mask (bit `i` is the card with id `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

/// Why a piece of text is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a card: {reason}")]
pub struct CardParseError {
    /// The offending text.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"cdhs";

impl Rank {
    /// The deuce.
    pub const TWO: Rank = Rank(0);
    /// The ten.
    pub const TEN: Rank = Rank(8);
    /// The jack.
    pub const JACK: Rank = Rank(9);
    /// The queen.
    pub const QUEEN: Rank = Rank(10);
    /// The king.
    pub const KING: Rank = Rank(11);
    /// The ace (high; low-hand evaluators treat it as low themselves).
    pub const ACE: Rank = Rank(12);

    /// All ranks, deuce to ace.
    pub fn all() -> impl Iterator<Item = Rank> {
        (0..13).map(Rank)
    }

    /// The rank with index `i` (0 = deuce, 12 = ace).
    ///
    /// # Panics
    /// If `i > 12`.
    pub const fn new(i: u8) -> Rank {
        assert!(i < 13, "rank index out of range");
        Rank(i)
    }

    /// Index 0 (deuce) to 12 (ace).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Index in ace-low order: ace 0, deuce 1, ..., king 12 (razz and the eight-or-better low).
    pub const fn low_index(self) -> u8 {
        if self.0 == 12 {
            0
        } else {
            self.0 + 1
        }
    }

    /// The usual one-letter name: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn to_char(self) -> char {
        RANK_CHARS[self.0 as usize] as char
    }

    /// Parses `2`..`9`, `T`/`t`, `10`, `J`, `Q`, `K`, `A` in any case.
    pub fn parse(s: &str) -> Option<Rank> {
        if s == "10" {
            return Some(Rank(8));
        }
        let b = s.as_bytes();
        if b.len() != 1 {
            return None;
        }
        let c = b[0].to_ascii_uppercase();
        RANK_CHARS
            .iter()
            .position(|&r| r == c)
            .map(|i| Rank(i as u8))
    }
}

/// A rank is written as its one-letter name, as a string both ways, so that self-describing
/// formats (TOML, JSON) and bincode read back exactly what they wrote.
impl serde::Serialize for Rank {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.to_char().encode_utf8(&mut buf))
    }
}

impl<'de> serde::Deserialize<'de> for Rank {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let s = String::deserialize(d)?;
        Rank::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{s:?} is not a rank: one of 2-9, T (or 10), J, Q, K, A"
            ))
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl Suit {
    /// All suits in bring-in order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Index 0 (clubs) to 3 (spades).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The suit with index `i` (`i & 3`).
    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    /// `c`, `d`, `h` or `s`.
    pub fn to_char(self) -> char {
        SUIT_CHARS[self as usize] as char
    }

    /// Parses `c`, `d`, `h`, `s` in any case.
    pub fn parse(c: char) -> Option<Suit> {
        let c = c.to_ascii_lowercase() as u8;
        SUIT_CHARS
            .iter()
            .position(|&s| s == c)
            .map(|i| Suit::from_index(i as u8))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl Card {
    /// The card of a rank and a suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank.0 * 4 + suit as u8)
    }

    /// The card with dense id `id` (`0..52`).
    ///
    /// # Panics
    /// If `id >= 52`.
    pub const fn from_id(id: u8) -> Card {
        assert!(id < 52, "card id out of range");
        Card(id)
    }

    /// Dense id `rank * 4 + suit`, in `0..52`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The rank.
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 2)
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 & 3)
    }

    /// The 52 cards in id order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit())
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let err = |reason| CardParseError {
            text: s.to_string(),
            reason,
        };
        let mut chars = s.chars();
        let suit_char = chars.next_back().ok_or_else(|| err("it is empty"))?;
        let rank_text = chars.as_str();
        if rank_text.is_empty() {
            return Err(err("expected a rank then a suit, like As, Td or 10d"));
        }
        let rank = Rank::parse(rank_text)
            .ok_or_else(|| err("the rank must be one of 2-9, T (or 10), J, Q, K, A"))?;
        let suit =
            Suit::parse(suit_char).ok_or_else(|| err("the suit must be one of c, d, h, s"))?;
        Ok(Card::new(rank, suit))
    }
}

/// Parses cards written one after another with optional spaces or commas: `AsKs7h`, `As Ks 7h`,
/// `10d 9c`. Errors name the first piece that is not a card.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, CardParseError> {
    let mut out = Vec::new();
    for word in s.split(|c: char| c.is_whitespace() || c == ',') {
        let mut rest = word;
        while !rest.is_empty() {
            // A card is a rank (one char, or "10") followed by one suit char.
            let len = if rest.starts_with("10") { 3 } else { 2 };
            let end = rest.char_indices().nth(len).map_or(rest.len(), |(i, _)| i);
            out.push(rest[..end].parse()?);
            rest = &rest[end..];
        }
    }
    Ok(out)
}

/// Why a piece of text is not a list of distinct cards.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardsParseError {
    /// A piece is not a card.
    #[error(transparent)]
    Card(#[from] CardParseError),
    /// A card is written more than once.
    #[error("{0} appears twice")]
    Repeated(Card),
}

/// [`parse_cards`] for cards that must all differ (a hand, a player's cards): a repeated card is
/// an error naming it, not a card silently counted once.
pub fn parse_distinct_cards(s: &str) -> Result<Vec<Card>, CardsParseError> {
    let cards = parse_cards(s)?;
    let mut seen = CardSet::EMPTY;
    for &c in &cards {
        if seen.contains(c) {
            return Err(CardsParseError::Repeated(c));
        }
        seen.insert(c);
    }
    Ok(cards)
}

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet((1u64 << 52) - 1);

    /// The set holding one card.
    pub const fn single(c: Card) -> CardSet {
        CardSet(1u64 << c.0)
    }

    /// Whether `c` is in the set.
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }

    /// Adds `c`.
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1u64 << c.0;
    }

    /// Removes `c`.
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1u64 << c.0);
    }

    /// The number of cards.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Set union.
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    /// Set intersection.
    pub const fn intersection(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    /// The cards of `self` not in `o`.
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    /// The cards in id order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterates a [`CardSet`] from the lowest id up.
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_usual_notation_in_any_case() {
        for (s, want) in [
            ("As", "As"),
            ("td", "Td"),
            ("10d", "Td"),
            ("7C", "7c"),
            ("qH", "Qh"),
        ] {
            assert_eq!(s.parse::<Card>().unwrap().to_string(), want);
        }
    }

    #[test]
    fn refuses_what_is_not_a_card() {
        for s in ["Xq", "A", "", "Ax", "11d", "1s", "Ass"] {
            let e = s.parse::<Card>().unwrap_err();
            assert!(
                e.to_string().starts_with(&format!("{s:?} is not a card: ")),
                "{e}"
            );
        }
    }

    #[test]
    fn parses_runs_of_cards() {
        let v = parse_cards("AsKs7h 10d,2c").unwrap();
        let s: Vec<String> = v.iter().map(|c| c.to_string()).collect();
        assert_eq!(s, ["As", "Ks", "7h", "Td", "2c"]);
        assert_eq!(parse_cards("AsXq").unwrap_err().text, "Xq");
    }

    #[test]
    fn distinct_cards_refuse_a_repeat_by_name() {
        assert_eq!(parse_distinct_cards("As Kd").unwrap().len(), 2);
        let e = parse_distinct_cards("Kc Kc Kc Kc").unwrap_err();
        assert_eq!(e.to_string(), "Kc appears twice");
        let e = parse_distinct_cards("As Xq").unwrap_err();
        assert!(e.to_string().contains("\"Xq\" is not a card"), "{e}");
    }

    #[test]
    fn ids_order_by_rank_then_bring_in_suit_order() {
        let c2: Card = "2c".parse().unwrap();
        let d2: Card = "2d".parse().unwrap();
        let s2: Card = "2s".parse().unwrap();
        let c3: Card = "3c".parse().unwrap();
        assert!(c2 < d2 && d2 < s2 && s2 < c3);
        assert_eq!(Card::deck().count(), 52);
        assert_eq!(CardSet::FULL.len(), 52);
        assert_eq!(Rank::ACE.low_index(), 0);
        assert_eq!(Rank::TWO.low_index(), 1);
    }

    #[test]
    fn ranks_round_trip_through_bincode_and_json() {
        let ranks: Vec<Rank> = Rank::all().collect();
        let cfg = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(&ranks, cfg).unwrap();
        let (back, _): (Vec<Rank>, usize) = bincode::serde::decode_from_slice(&bytes, cfg).unwrap();
        assert_eq!(back, ranks);
        let json = serde_json::to_string(&ranks).unwrap();
        assert_eq!(serde_json::from_str::<Vec<Rank>>(&json).unwrap(), ranks);
    }

    #[test]
    fn card_sets() {
        let set: CardSet = parse_cards("As 2c Kd").unwrap().into_iter().collect();
        assert_eq!(set.len(), 3);
        assert_eq!(set.to_string(), "2c Kd As");
        assert!(set.contains("Kd".parse().unwrap()));
    }
}
