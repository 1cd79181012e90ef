//! Partial up-card hands (who acts first from fourth street on) and door cards (who brings in).

use super::tables::{by_groups, nibbles};
use crate::cards::Card;

/// The code of 1 to 4 up cards valued `1..=13` by `value` (higher = higher for the game at
/// hand): a category (0 high cards, 1 pair, 2 two pair, 3 trips, 4 quads) above the values ordered
/// by multiplicity then value, padded with zeros, so a missing card ranks below any card.
fn showing_code(up: &[Card], value: impl Fn(Card) -> u8) -> u32 {
    assert!(
        (1..=4).contains(&up.len()),
        "a showing hand has 1 to 4 up cards"
    );
    let mut vals = [0u8; 4];
    for (v, &c) in vals.iter_mut().zip(up) {
        *v = value(c);
    }
    let (ord, pat) = by_groups(&vals[..up.len()]);
    let cat = match (pat[0], pat[1]) {
        (4, _) => 4,
        (3, _) => 3,
        (2, 2) => 2,
        (2, _) => 1,
        _ => 0,
    };
    cat << 16 | nibbles(&ord[..4])
}

/// The strength of 1 to 4 up cards in the high games (seven-card stud, hi-lo, five-card stud):
/// quads > trips > two pair > pair > high cards, by rank, kickers compared rank by rank;
/// straights, flushes and suits never count. Higher is better: from fourth street on the seat
/// with the largest value acts first (ties go to the seat nearest the dealer's left).
///
/// Comparing the showing of {private, public} also orders Leduc hands (a pair wins, else the
/// higher private card), and of a single card, Kuhn hands.
///
/// # Panics
/// If `up` has no card or more than four.
pub fn showing_high(up: &[Card]) -> u32 {
    showing_code(up, |c| c.rank().index() + 1)
}

/// The strength of 1 to 4 up cards in razz: the lowest hand is the best (ace low, pairs bad,
/// quads worst; straights, flushes and suits never count). Higher is better, as in
/// [`showing_high`]: the seat with the largest value acts first.
///
/// # Panics
/// If `up` has no card or more than four.
pub fn showing_low(up: &[Card]) -> u32 {
    // The code orders from the best low to the worst; flip it so that higher is better.
    (1 << 19) - 1 - showing_code(up, |c| c.rank().low_index() + 1)
}

/// The bring-in weight of a door card: the seat with the LARGEST weight posts the bring-in.
///
/// High games: the lowest card, by rank then suit (clubs < diamonds < hearts < spades), so the
/// 2c (51) brings in before the 2d (50). Razz: the highest card with the ace low, the higher suit
/// bringing in on a tie, so the Ks (51) before the Kc (48) and the Ac (0) is the best door card.
/// The razz suit rule is PokerKit's: in the razz hands of `testdata/pokerkit/fr` every tie
/// of door ranks (7h/7c, Ks/Kc, Jh/Jc, Kd/Kc) put the bring-in on the higher suit.
pub fn bring_in_weight(door: Card, razz: bool) -> u8 {
    if razz {
        door.rank().low_index() * 4 + door.suit().index()
    } else {
        51 - door.id()
    }
}
