//! The hand classes of third street in the seven-card games, as `stud report`'s chart and `stud
//! query` name them: three cards (two down, the door) read as a stud player reads them. Here,
//! beside the later streets' classes, rather than in the chart's module: a lock file names them
//! too (`crate::lock`), below the players.

use abstraction::cards::{Card, Rank};

/// The hand classes of the high games (seven-card stud, hi-lo), as a stud player reads three
/// cards: the first that fits. "Buried": the pair is in the hole; "split": the door pairs a
/// hole card.
pub const HIGH_CLASSES: [&str; 10] = [
    "rolled-up trips",
    "buried pair T-A",
    "split pair T-A",
    "buried pair 2-9",
    "split pair 2-9",
    "three to a flush",
    "three to a straight",
    "three low (8 or under)",
    "two cards T or higher",
    "other",
];

/// The hand classes of razz (ace low): unpaired hands by their highest card, then pairs.
pub const RAZZ_CLASSES: [&str; 9] = [
    "three to a 5",
    "three to a 6",
    "three to a 7",
    "three to an 8",
    "three to a 9 or T",
    "three to a J, Q or K",
    "pair of 8 or under",
    "pair of 9 or higher",
    "rolled-up trips",
];
/// A rank counted ace low (ace 1, deuce 2, ..., king 13).
fn low(r: Rank) -> u8 {
    if r == Rank::ACE {
        1
    } else {
        r.index() + 2
    }
}

/// The class (an index into [`HIGH_CLASSES`]) of hole cards `h` and door card `d`.
pub fn high_class(h: [Card; 2], d: Card) -> usize {
    let r = [h[0].rank(), h[1].rank(), d.rank()];
    let big = |x: Rank| x >= Rank::TEN;
    if r[0] == r[1] && r[1] == r[2] {
        return 0;
    }
    let pair = if r[0] == r[1] {
        Some((r[0], true))
    } else if r[2] == r[0] || r[2] == r[1] {
        Some((r[2], false))
    } else {
        None
    };
    if let Some((p, buried)) = pair {
        return match (big(p), buried) {
            (true, true) => 1,
            (true, false) => 2,
            (false, true) => 3,
            (false, false) => 4,
        };
    }
    if h[0].suit() == h[1].suit() && h[1].suit() == d.suit() {
        return 5;
    }
    // Three distinct ranks within a span of five, the ace high or low.
    let span = |v: [u8; 3]| v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0);
    let hi = r.map(|x| x.index());
    let lo = r.map(low);
    if span(hi) <= 4 || span(lo) <= 4 {
        return 6;
    }
    if lo.iter().all(|&x| x <= 8) {
        return 7;
    }
    if r.iter().filter(|&&x| big(x)).count() >= 2 {
        return 8;
    }
    9
}

/// The class (an index into [`RAZZ_CLASSES`]) of hole cards `h` and door card `d`.
pub fn razz_class(h: [Card; 2], d: Card) -> usize {
    let mut v = [h[0].rank(), h[1].rank(), d.rank()].map(low);
    v.sort_unstable();
    if v[0] == v[2] {
        return 8;
    }
    if v[0] == v[1] || v[1] == v[2] {
        return if v[1] <= 8 { 6 } else { 7 };
    }
    match v[2] {
        0..=5 => 0,
        6 => 1,
        7 => 2,
        8 => 3,
        9 | 10 => 4,
        _ => 5,
    }
}
