//! What a player sees of its opponent's hand after third street: the opponent's up cards
//! summarized in a class ("pair showing", "three to a flush showing"), strongest first, the
//! first that fits. The high games read made hands then draws then the top card; razz and
//! hi-lo read how many of the up cards are low (8 or under, the ace low), a pair first.

use abstraction::cards::{Card, Rank};
use abstraction::rules::Showdown;

/// The board classes of the high games.
const HIGH: [&str; 8] = [
    "trips or better showing",
    "two pair showing",
    "pair showing",
    "four to a flush showing",
    "three to a flush showing",
    "four to a straight showing",
    "ace or king high showing",
    "queen high or less showing",
];

/// The board classes of the low games (razz, hi-lo): a pair, then the count of high cards.
const LOW: [&str; 4] = [
    "pair showing",
    "all 8 or under showing",
    "one 9 or over showing",
    "two or more 9 or over showing",
];

/// The board classes of a game: their names, and how up cards are classed.
#[derive(Clone, Copy, Debug)]
pub struct Boards {
    low: bool,
}

impl Boards {
    /// The board classes of a game with this showdown.
    pub fn of(showdown: Showdown) -> Boards {
        Boards {
            low: matches!(showdown, Showdown::Razz | Showdown::HiLo8),
        }
    }

    /// The class names, strongest first, in the order of their indices.
    pub fn names(&self) -> &'static [&'static str] {
        if self.low {
            &LOW
        } else {
            &HIGH
        }
    }

    /// The class (an index into [`Boards::names`]) of a player's up cards (at most 4 in a
    /// seven-card game, 4 in five-card stud).
    pub fn classify(&self, up: &[Card]) -> usize {
        let mut count = [0u8; 13];
        for c in up {
            count[c.rank().index() as usize] += 1;
        }
        let most = count.iter().copied().max().unwrap_or(0);
        let pairs = count.iter().filter(|&&n| n >= 2).count();
        if self.low {
            let high = up.iter().filter(|c| !is_low(c.rank())).count();
            return if most >= 2 { 0 } else { 1 + high.min(2) };
        }
        let mut suits = [0u8; 4];
        for c in up {
            suits[c.suit().index() as usize] += 1;
        }
        let flush = suits.iter().copied().max().unwrap_or(0);
        let top = up.iter().map(|c| c.rank()).max();
        match () {
            _ if most >= 3 => 0,
            _ if pairs >= 2 => 1,
            _ if pairs == 1 => 2,
            _ if flush >= 4 => 3,
            _ if flush == 3 => 4,
            _ if four_to_straight(&count) => 5,
            _ if top >= Some(Rank::KING) => 6,
            _ => 7,
        }
    }
}

/// Whether a rank counts low (8 or under, the ace low).
fn is_low(r: Rank) -> bool {
    r == Rank::ACE || r.index() <= 6
}

/// Whether four distinct ranks of `count` (unpaired) fit in five consecutive ranks, the ace
/// also below the deuce.
fn four_to_straight(count: &[u8; 13]) -> bool {
    // Ranks ace-low to ace-high: index 0 the ace as one, then deuce to ace.
    let mut line = [false; 14];
    line[0] = count[12] > 0;
    for (i, &n) in count.iter().enumerate() {
        line[i + 1] = n > 0;
    }
    line.windows(5)
        .any(|w| w.iter().filter(|&&b| b).count() >= 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use abstraction::cards::parse_cards;

    fn class(showdown: Showdown, up: &str) -> &'static str {
        let b = Boards::of(showdown);
        b.names()[b.classify(&parse_cards(up).unwrap())]
    }

    #[test]
    fn high_boards_read_made_hands_then_draws_then_the_top_card() {
        let h = Showdown::High;
        assert_eq!(class(h, "Ks Kd Kh"), "trips or better showing");
        assert_eq!(class(h, "Ks Kd 2h 2c"), "two pair showing");
        assert_eq!(class(h, "7s 7d 9h 9s"), "two pair showing");
        assert_eq!(class(h, "7s 7d 9s 2s"), "pair showing");
        assert_eq!(class(h, "7s 8s 9s 2s"), "four to a flush showing");
        assert_eq!(class(h, "7s 8s 2s"), "three to a flush showing");
        assert_eq!(class(h, "As 2d 3h 5c"), "four to a straight showing");
        assert_eq!(class(h, "Ts Jd Qh Ac"), "four to a straight showing");
        assert_eq!(class(h, "As 2d 3h 6c"), "ace or king high showing");
        assert_eq!(class(h, "Qs 2d"), "queen high or less showing");
    }

    #[test]
    fn low_boards_read_a_pair_then_the_high_cards() {
        for s in [Showdown::Razz, Showdown::HiLo8] {
            assert_eq!(class(s, "As Ad"), "pair showing");
            assert_eq!(class(s, "As 8d 3c"), "all 8 or under showing");
            assert_eq!(class(s, "As 9d 3c"), "one 9 or over showing");
            assert_eq!(class(s, "Ks 9d 3c 2h"), "two or more 9 or over showing");
        }
    }
}
