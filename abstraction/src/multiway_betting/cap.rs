//! A raise cap for multiway pots ([`MultiwayCap`]): fewer bets a round on a street begun by many
//! live seats, as card rooms cap multiway pots, to make six- to eight-seat abstractions fit.
//!
//! # Why per street and by the seats that began it
//! The street trees of [`super::MultiwayBetting`] are one per (street, live seats entering it),
//! so a cap chosen by the seats that began the street is a cap of whole trees: a tree of
//! `from_live` or more seats is built with at most [`MultiwayCap::bets`] bets a round, the
//! others with the game's own cap. Eight-handed, one later street's betting positions fall from
//! 2.1 million actions at four bets to 59 thousand at two (docs/notes/multiway.md, "A cap for
//! multiway pots"). The real game keeps its own cap: a real raise past the abstract cap is the
//! abstract call and the rest of that street is absorbed, as every raise past a cap is
//! ([`super::MultiwayBetting::locate`]).

use crate::betting_abstraction::BettingAbstraction;

/// At most `bets` bets a round (the opening bet or completion included) on a street begun by
/// `from_live` or more live seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiwayCap {
    /// The most bets a round of a capped street (at least one).
    pub bets: u8,
    /// The fewest live seats entering a street that cap it (2 to 8).
    pub from_live: u8,
}

/// What a strategy file's section that records a cap begins with: `cap 2@6`.
const PREFIX: &str = "cap ";
/// The most seats of a multiway betting abstraction.
const MOST_SEATS: u8 = 8;

impl MultiwayCap {
    /// Reads `BETS@SEATS` (`2@6`: at most two bets a round once six or more seats begin the
    /// street), refusing anything else with the form expected.
    pub fn parse(s: &str) -> Result<MultiwayCap, String> {
        let bad = || {
            format!(
                "{s:?} is not a multiway cap: use BETS@SEATS, e.g. 2@6 (at most 2 bets a round \
                 on a street begun by 6 or more live seats; BETS at least 1, SEATS 2 to \
                 {MOST_SEATS})"
            )
        };
        let (bets, from) = s.trim().split_once('@').ok_or_else(bad)?;
        let bets: u8 = bets.trim().parse().map_err(|_| bad())?;
        let from_live: u8 = from.trim().parse().map_err(|_| bad())?;
        if bets == 0 || !(2..=MOST_SEATS).contains(&from_live) {
            return Err(bad());
        }
        Ok(MultiwayCap { bets, from_live })
    }

    /// Its spelling, as [`MultiwayCap::parse`] reads it (`2@6`).
    pub fn name(&self) -> String {
        format!("{}@{}", self.bets, self.from_live)
    }

    /// In words, for `stud info` and the solve's report.
    pub fn describe(&self) -> String {
        format!(
            "at most {} bet{} a round on a street begun by {} or more live seats",
            self.bets,
            if self.bets == 1 { "" } else { "s" },
            self.from_live
        )
    }

    /// The bytes of a strategy file's section that records it (`cap 2@6`, ASCII).
    pub fn section(&self) -> Vec<u8> {
        format!("{PREFIX}{}", self.name()).into_bytes()
    }

    /// The cap a section holds, if it is a cap's section (`None`: another section); a section
    /// that begins as one but does not read is refused.
    pub fn of_section(bytes: &[u8]) -> Option<Result<MultiwayCap, String>> {
        let rest = bytes.strip_prefix(PREFIX.as_bytes())?;
        Some(
            std::str::from_utf8(rest)
                .map_err(|_| "a cap section that is not ASCII".to_string())
                .and_then(MultiwayCap::parse),
        )
    }

    /// The betting abstraction of a street begun by `live` seats under `game` (the game's own
    /// cap): this cap where it is lower and the street is multiway enough, else `game`.
    pub fn for_street(
        cap: Option<MultiwayCap>,
        game: BettingAbstraction,
        live: u8,
    ) -> BettingAbstraction {
        match cap {
            Some(c) if live >= c.from_live && c.bets < game.max_bets => {
                BettingAbstraction { max_bets: c.bets }
            }
            _ => game,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_reads_back_and_bad_spellings_say_the_form() {
        let c = MultiwayCap::parse("2@6").unwrap();
        assert_eq!(
            c,
            MultiwayCap {
                bets: 2,
                from_live: 6
            }
        );
        assert_eq!(MultiwayCap::parse(&c.name()), Ok(c));
        assert_eq!(MultiwayCap::of_section(&c.section()), Some(Ok(c)));
        assert_eq!(MultiwayCap::of_section(b"position"), None);
        assert!(MultiwayCap::of_section(b"cap x").unwrap().is_err());
        for bad in ["2", "0@6", "2@1", "2@9", "a@6", "2@", "@6"] {
            let e = MultiwayCap::parse(bad).unwrap_err();
            assert!(e.contains("BETS@SEATS"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_street_is_capped_from_its_seats_and_never_above_the_game() {
        let game = BettingAbstraction { max_bets: 4 };
        let c = Some(MultiwayCap {
            bets: 2,
            from_live: 6,
        });
        assert_eq!(MultiwayCap::for_street(c, game, 5), game);
        assert_eq!(MultiwayCap::for_street(c, game, 6).max_bets, 2);
        assert_eq!(MultiwayCap::for_street(c, game, 8).max_bets, 2);
        assert_eq!(MultiwayCap::for_street(None, game, 8), game);
        let high = Some(MultiwayCap {
            bets: 5,
            from_live: 2,
        });
        assert_eq!(MultiwayCap::for_street(high, game, 8), game);
    }
}
