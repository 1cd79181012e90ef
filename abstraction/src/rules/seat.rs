//! How a seat is named to a player: `p1` .. `pN`, as PHH hand histories write it and every
//! command's output and error names it. Inside, seats are numbered from 0; this is the one
//! place that turns the number into the name and the name back into the number.

use std::fmt;

/// A seat's name (`p1` for seat 0): `Display` writes it without allocating, so that it goes
/// into a `format!` or `write!` as is; `.to_string()` where a `String` is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatName(pub usize);

impl fmt::Display for SeatName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0 + 1)
    }
}

/// The name of seat `seat` (numbered from 0): `p1` for seat 0.
pub fn seat_name(seat: impl Into<usize>) -> SeatName {
    SeatName(seat.into())
}

/// The number a seat's name gives (`p3` and `P3`: 3), as written: a `p` in either case and a
/// number up to 255, checked by the caller against its table (`p0` reads as 0); `None` where
/// the word is not a seat's name.
pub fn seat_number(word: &str) -> Option<u8> {
    let rest = word.strip_prefix(['p', 'P'])?;
    if rest.is_empty() {
        return None;
    }
    rest.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(seat_name(0u8).to_string(), "p1");
        assert_eq!(seat_name(7usize).to_string(), "p8");
        assert_eq!(format!("{}'s up card", seat_name(2u16)), "p3's up card");
        assert_eq!(seat_number("p3"), Some(3));
        assert_eq!(seat_number("P8"), Some(8));
        assert_eq!(seat_number("p0"), Some(0));
        for not in ["p", "", "3", "px", "p300", "q1", "p-1"] {
            assert_eq!(seat_number(not), None, "{not:?}");
        }
        for seat in 0..8u8 {
            assert_eq!(seat_number(&seat_name(seat).to_string()), Some(seat + 1));
        }
    }
}
