//! Order of play: who brings in, and whose showing hand opens a later street.
//!
//! Both choose an *opener*; the first seat to act is the opener or, if the opener cannot act
//! (all in), the next seat on its left that can: the bring-in passes to the left (rules.md), and
//! PokerKit passes the first action the same way on later streets.

use crate::cards::Card;
use crate::eval::{bring_in_weight, showing_high, showing_low};

/// The seat whose door card is worst (the lowest card, suits clubs < diamonds < hearts < spades;
/// in razz the highest, ace low). `doors` lists each live seat with its up cards on the first
/// street; a seat with several counts its worst card.
pub fn bring_in_opener<'a>(
    doors: impl Iterator<Item = (u8, &'a [Card])>,
    razz: bool,
) -> Option<u8> {
    let mut top: Option<(u8, u8)> = None; // (weight, seat)
    for (seat, cards) in doors {
        let Some(w) = cards.iter().map(|&c| bring_in_weight(c, razz)).max() else {
            continue;
        };
        if top.is_none_or(|(t, _)| w > t) {
            top = Some((w, seat));
        }
    }
    top.map(|(_, s)| s)
}

/// The seat with the best showing hand (the lowest in razz: `low`), ties to the seat nearest the
/// dealer's left. `hands` lists live seats with their up cards, in seat order.
pub fn best_showing<'a>(hands: impl Iterator<Item = (u8, &'a [Card])>, low: bool) -> Option<u8> {
    let mut top: Option<(u32, u8)> = None; // (strength, seat)
    for (seat, cards) in hands {
        if cards.is_empty() {
            continue;
        }
        let s = if low {
            showing_low(cards)
        } else {
            showing_high(cards)
        };
        // Strictly better only: an equal hand later in seat order does not take the lead.
        if top.is_none_or(|(t, _)| s > t) {
            top = Some((s, seat));
        }
    }
    top.map(|(_, s)| s)
}
