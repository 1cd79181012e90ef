//! `GameDef`: everything that defines one fixed-limit game, with the presets and a TOML loader.
//!
//! The stud family and the reference games (Kuhn, Leduc, and the walkable `ministud`) share one
//! definition, so that one rules engine, one tree builder and one solver serve them all.

use super::seat::seat_name;
use crate::cards::{Card, CardSet, Rank, Suit};
use serde::Deserialize;
use std::fmt;

/// Which game family a definition belongs to: decides the bring-in direction, the first actor
/// on later streets, and how showdowns are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Seven-card stud, high only (PHH `F7S`).
    #[serde(rename = "7stud")]
    SevenStud,
    /// Seven-card stud hi-lo, eight or better (PHH `F7S/8`).
    #[serde(rename = "stud8")]
    StudHiLo,
    /// Razz: seven-card stud for the ace-to-five low (PHH `FR`).
    Razz,
    /// Five-card stud, high (PHH extension code `F5S`).
    #[serde(rename = "5stud")]
    FiveStud,
    /// Kuhn poker as OpenSpiel defines it.
    Kuhn,
    /// Leduc hold'em as OpenSpiel defines it.
    Leduc,
    /// A small stud game that can be solved exactly (see [`GameDef::ministud`]).
    Ministud,
    /// The yardstick: the smallest stud game with the real games' structure of three streets
    /// that can still be solved exactly (see [`GameDef::yardstud`]).
    Yardstud,
}

impl Variant {
    /// The lower-case name used by presets and files.
    pub fn name(self) -> &'static str {
        match self {
            Variant::SevenStud => "7stud",
            Variant::StudHiLo => "stud8",
            Variant::Razz => "razz",
            Variant::FiveStud => "5stud",
            Variant::Kuhn => "kuhn",
            Variant::Leduc => "leduc",
            Variant::Ministud => "ministud",
            Variant::Yardstud => "yardstud",
        }
    }

    /// How hands are ranked at showdown.
    pub fn showdown(self) -> Showdown {
        match self {
            Variant::SevenStud | Variant::FiveStud => Showdown::High,
            Variant::StudHiLo => Showdown::HiLo8,
            Variant::Razz => Showdown::Razz,
            Variant::Kuhn | Variant::Leduc | Variant::Ministud | Variant::Yardstud => {
                Showdown::Showing
            }
        }
    }

    /// Whether the lowest showing hand (not the highest) acts first, and the highest door card
    /// (ace low) brings in.
    pub fn is_low(self) -> bool {
        self == Variant::Razz
    }

    /// Whether a split pot is shared exactly, fractions of a chip included, as OpenSpiel's
    /// Kuhn and Leduc share it, rather than with the card room's odd chip. Chips are integers
    /// in the rules engine, so only the exact solvers' payoffs (`history_tree`) read this.
    pub fn splits_exactly(self) -> bool {
        matches!(self, Variant::Kuhn | Variant::Leduc)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a showdown ranks hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
pub enum Showdown {
    /// Best five cards, high (`eval::eval_high`).
    High,
    /// Best five cards, ace-to-five low (`eval::eval_razz`).
    Razz,
    /// Half to the best high, half to the best eight-or-better low if any qualifies.
    HiLo8,
    /// All of a player's cards ranked as a showing hand (`eval::showing_high`): pairs and trips
    /// over high cards, no straights or flushes. For games of fewer than five cards.
    Showing,
}

/// How a card is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Deal {
    /// Face down to each player: seen only by its owner.
    Down,
    /// Face up to each player: seen by all.
    Up,
    /// One face-up card in the middle that every player uses (Leduc's public card).
    Community,
}

/// Which of the two bet sizes a betting round uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BetSize {
    /// The small bet.
    Small,
    /// The big bet.
    Big,
}

/// One street: the cards dealt, then one betting round.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreetDef {
    /// The cards dealt at the start of the street, in order.
    pub deal: Vec<Deal>,
    /// The bet size of the street's betting round.
    pub bet: BetSize,
}

/// Who acts first on the first betting round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstRound {
    /// The worst door card posts a bring-in and acts first (the stud rule).
    BringIn,
    /// No bring-in: the best door card acts first and may check (a five-card stud option).
    HighCard,
    /// No bring-in: seat 0 acts first (Kuhn, Leduc).
    Seat0,
}

/// Who acts first on the later betting rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LaterRounds {
    /// The best showing hand (the lowest in razz); ties to the seat nearest the dealer's left.
    BestShowing,
    /// Seat 0 (Kuhn, Leduc).
    Seat0,
}

/// What happens when the stub cannot give every remaining player their last card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutOfCards {
    /// The card-room rule: shuffle the burn cards into the stub if that makes enough, otherwise
    /// turn one community card that every remaining player uses.
    CardRoom,
    /// PokerKit's rule: shuffle every card not in a live hand (burns and mucked cards) back.
    Reshuffle,
}

/// A rules profile: the card-room rules, or the house rules of PokerKit (to replay its hands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// WSOP / Robert's rules: the default.
    CardRoom,
    /// PokerKit: the cap is never lifted heads-up, no open-pair big bet, reshuffle when out of
    /// cards, and an all-in raise for less reopens the betting like a full one.
    #[serde(rename = "pokerkit")]
    PokerKit,
}

/// The deck: the ranks in play and the number of suits (clubs first).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckDef {
    /// The ranks in the deck (each once), e.g. all thirteen, or J Q K for Kuhn.
    pub ranks: Vec<Rank>,
    /// How many suits, 1 to 4, taken in the order clubs, diamonds, hearts, spades.
    pub suits: u8,
}

impl DeckDef {
    /// The standard 52-card deck.
    pub fn standard() -> DeckDef {
        DeckDef {
            ranks: Rank::all().collect(),
            suits: 4,
        }
    }

    /// The cards of the deck as a set.
    pub fn cards(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for &r in &self.ranks {
            for &suit in &Suit::ALL[..self.suits as usize] {
                s.insert(Card::new(r, suit));
            }
        }
        s
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.ranks.len() * self.suits as usize
    }

    /// Whether the deck has no cards (never true of a valid definition).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A complete definition of one fixed-limit game. Chips are whole units; antes, bring-in and bets
/// are per player.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
pub struct GameDef {
    /// The game family.
    pub variant: Variant,
    /// Number of players, seated 0.. clockwise from the dealer's left.
    pub seats: u8,
    /// The deck.
    pub deck: DeckDef,
    /// The ante each player posts before the deal.
    pub ante: u64,
    /// The bring-in (0 when the first round has none).
    pub bring_in: u64,
    /// The small bet (third and fourth street in seven-card stud).
    pub small_bet: u64,
    /// The big bet (fifth street on).
    pub big_bet: u64,
    /// Each seat's stack at the start of the hand, antes included (table stakes).
    pub starting_stacks: Vec<u64>,
    /// The most bets in one round, the opening bet (or completion) included: 4 is a bet and three
    /// raises.
    pub max_bets: u8,
    /// Whether the cap is lifted when only two players are left in the hand (card-room rule).
    pub uncapped_heads_up: bool,
    /// Whether an all-in bet or raise for less than a full one counts as full: it reopens the
    /// betting to everyone, counts toward the cap, and the next raise goes a full bet above it
    /// (PokerKit). Off (the card room): it must be called, but only players who have not acted
    /// since the last full bet may raise, a full bet above that last full bet.
    #[serde(default)]
    pub incomplete_raise_reopens: bool,
    /// Whether an open pair on the second betting round (fourth street in seven-card stud) lets a
    /// player bet the big bet.
    pub open_pair_big_bet: bool,
    /// Who acts first on the first round.
    pub first_round: FirstRound,
    /// Who acts first on later rounds.
    pub later_rounds: LaterRounds,
    /// What happens when the stub runs out.
    pub out_of_cards: OutOfCards,
    /// Whether a card is burned before each street after the first.
    pub burn_cards: bool,
    /// The streets, in order.
    pub streets: Vec<StreetDef>,
}

/// A definition that cannot be played, naming the key at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameDefError {
    /// A value out of range or inconsistent with another.
    #[error("`{key}`: {reason}")]
    Invalid {
        /// The key at fault (as written in a TOML game file).
        key: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// No preset of that name.
    #[error("unknown game {0:?}: the presets are {PRESETS} (any -Np for 2 to 8 players)")]
    UnknownPreset(String),
    /// The TOML text could not be read (unknown key, wrong type, syntax).
    #[error("game file: {0}")]
    Toml(String),
}

/// The preset names, for messages and `--help` (the `-3p` ones stand for every `-Np`, N = 2 to 8).
pub const PRESETS: &str =
    "7stud, stud8, razz, 5stud, kuhn, leduc, ministud, yardstud, tristud, doorstud, kuhn-3p, leduc-3p, 7stud-3p, stud8-3p, razz-3p, 5stud-3p";

/// The most chips a game may hold: the starting stacks together, and the ante, the bring-in and
/// each bet on their own, are at most 2^53.
///
/// Why this bounds every sum: play is table stakes, so a seat never puts in more than its
/// stack, and a pot is at most the sum of the stacks however many bets are made (at most
/// `max_bets` per street × streets × seats when capped, any number heads-up where the cap is
/// lifted: the stacks bound them all). The engine forms at most a stack or bet level plus one
/// bet before it clamps to the stack: below 2^54. A payoff (chips won minus chips put in) lies
/// within ±2^53, a duplicate pair of hands within ±2^54, so that a match's sum over pairs always
/// fits an `i64` below 2^9 deals (and is checked beyond). And 2^53 keeps
/// every amount exact in an `f64` (the solver's values, JSON readers, PHH's floats).
pub const MAX_CHIPS: u64 = 1 << 53;

/// A preset name's seat count, `kuhn-3p` → (`kuhn`, 3).
fn seats_suffix(name: &str) -> Option<(&str, usize)> {
    let (base, seats) = name.strip_suffix('p')?.rsplit_once('-')?;
    Some((base, seats.parse().ok()?))
}

/// OpenSpiel's N-player Kuhn and Leduc deck: `seats + 1` ranks, here the ones up to the king.
fn openspiel_ranks(seats: usize) -> Result<Vec<Rank>, GameDefError> {
    GameDef::check_seats(Variant::Kuhn, seats)?;
    let top = Rank::KING.index();
    Ok((top - seats as u8..=top).map(Rank::new).collect())
}

fn seven_card_streets() -> Vec<StreetDef> {
    use BetSize::*;
    use Deal::*;
    vec![
        StreetDef {
            deal: vec![Down, Down, Up],
            bet: Small,
        },
        StreetDef {
            deal: vec![Up],
            bet: Small,
        },
        StreetDef {
            deal: vec![Up],
            bet: Big,
        },
        StreetDef {
            deal: vec![Up],
            bet: Big,
        },
        StreetDef {
            deal: vec![Down],
            bet: Big,
        },
    ]
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st (the streets' names, a seat's
/// place in the order of play).
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl GameDef {
    /// A preset by name: `7stud`, `stud8`, `razz`, `5stud` (heads-up, ante 1, bring-in 2, bets
    /// 5/10, 200 chips each, card-room rules), `kuhn`, `leduc`, `ministud`, `yardstud`.
    /// `kuhn-Np` and `leduc-Np` (N = 2 to 8) are OpenSpiel's N-player Kuhn and Leduc
    /// ([`GameDef::kuhn_for`], [`GameDef::leduc_for`]); `tristud` is the walkable three-player
    /// stud game ([`GameDef::tristud`]), `doorstud` the one the sampling solver also plays
    /// ([`GameDef::doorstud`]). `7stud-Np`, `stud8-Np`, `razz-Np` and `5stud-Np` are
    /// the card-room games for N players (2 to 8; 5stud to 10), the cap of a bet and three
    /// raises kept when more than two play.
    pub fn preset(name: &str) -> Result<GameDef, GameDefError> {
        let lower = name.to_ascii_lowercase();
        if let Some((base, seats)) = seats_suffix(&lower) {
            return match base {
                "kuhn" => GameDef::kuhn_for(seats),
                "leduc" => GameDef::leduc_for(seats),
                "7stud" | "stud8" | "razz" | "5stud" => {
                    let g = GameDef::preset(base)?;
                    GameDef::check_seats(g.variant, seats)?;
                    let stack = g.starting_stacks[0];
                    Ok(g.with_seats(seats as u8, stack))
                }
                _ => Err(GameDefError::UnknownPreset(name.to_string())),
            };
        }
        let g = match lower.as_str() {
            "7stud" | "f7s" => GameDef::stud(Variant::SevenStud),
            "stud8" | "f7s/8" => GameDef::stud(Variant::StudHiLo),
            "razz" | "fr" => GameDef::stud(Variant::Razz),
            "5stud" | "f5s" => GameDef::stud(Variant::FiveStud),
            "kuhn" => GameDef::kuhn(),
            "leduc" => GameDef::leduc(),
            "ministud" => GameDef::ministud(),
            "yardstud" => GameDef::yardstud(),
            "tristud" => GameDef::tristud(),
            "doorstud" => GameDef::doorstud(),
            _ => return Err(GameDefError::UnknownPreset(name.to_string())),
        };
        Ok(g)
    }

    /// A heads-up stud game of the family with the card-room rules: ante 1, bring-in 2, small
    /// bet 5, big bet 10, 200 chips each (20 big bets), cap of a bet and three raises lifted
    /// heads-up, the open-pair big bet where the card room allows it.
    pub fn stud(variant: Variant) -> GameDef {
        let streets = match variant {
            Variant::FiveStud => {
                use BetSize::*;
                use Deal::*;
                vec![
                    StreetDef {
                        deal: vec![Down, Up],
                        bet: Small,
                    },
                    StreetDef {
                        deal: vec![Up],
                        bet: Small,
                    },
                    StreetDef {
                        deal: vec![Up],
                        bet: Big,
                    },
                    StreetDef {
                        deal: vec![Up],
                        bet: Big,
                    },
                ]
            }
            _ => seven_card_streets(),
        };
        GameDef {
            variant,
            seats: 2,
            deck: DeckDef::standard(),
            ante: 1,
            bring_in: 2,
            small_bet: 5,
            big_bet: 10,
            starting_stacks: vec![200; 2],
            max_bets: 4,
            uncapped_heads_up: true,
            incomplete_raise_reopens: false,
            open_pair_big_bet: matches!(variant, Variant::SevenStud | Variant::FiveStud),
            first_round: FirstRound::BringIn,
            later_rounds: LaterRounds::BestShowing,
            out_of_cards: OutOfCards::CardRoom,
            burn_cards: true,
            streets,
        }
    }

    /// OpenSpiel's `kuhn_poker(players=N)`: [`GameDef::kuhn`] for `seats` players, with a deck
    /// of `seats + 1` cards (the ranks up to the king: J Q K heads-up, T J Q K three-handed).
    pub fn kuhn_for(seats: usize) -> Result<GameDef, GameDefError> {
        let mut g = GameDef::kuhn();
        g.deck.ranks = openspiel_ranks(seats)?;
        Ok(g.with_seats(seats as u8, 100))
    }

    /// OpenSpiel's `leduc_poker(players=N)`: [`GameDef::leduc`] for `seats` players, with
    /// `seats + 1` ranks in two suits (the ranks up to the king, as [`GameDef::kuhn_for`]).
    pub fn leduc_for(seats: usize) -> Result<GameDef, GameDefError> {
        let mut g = GameDef::leduc();
        g.deck.ranks = openspiel_ranks(seats)?;
        Ok(g.with_seats(seats as u8, 100))
    }

    /// `tristud`: a three-player stud game whose whole game tree (every deal apart) can be
    /// walked, for the exact NashConv of multiway solves. J Q K A in two suits (8 cards), ante
    /// 1, bring-in 1, bets 2 and 4, one bet a round (the completion or the bet, no raise); a
    /// down card and an up card with a
    /// round at the small bet (the lowest door card brings in), then — the deck cannot give
    /// three players another card each — one community card and a round at the big bet, the
    /// best showing hand first; showdown ranks all three cards (trips > pair > high cards).
    pub fn tristud() -> GameDef {
        GameDef {
            deck: DeckDef {
                ranks: vec![Rank::JACK, Rank::QUEEN, Rank::KING, Rank::ACE],
                suits: 2,
            },
            max_bets: 1,
            streets: vec![
                StreetDef {
                    deal: vec![Deal::Down, Deal::Up],
                    bet: BetSize::Small,
                },
                StreetDef {
                    deal: vec![Deal::Community],
                    bet: BetSize::Big,
                },
            ],
            ..GameDef::ministud()
        }
        .with_seats(3, 100)
    }

    /// `doorstud`: the walkable three-player stud game that the sampling multiway solver plays
    /// unchanged (every card a seat's own, no community card: `tristud`'s is not in the
    /// sampled game), for the exact NashConv of its lifted strategy. [`GameDef::tristud`]'s
    /// deck, stakes and cap (J Q K A in two suits, ante 1, bring-in 1, bets 2 and 4, one bet a
    /// round), two cards each: the door card with a round at the small bet (the lowest door
    /// card brings in), then a down card with a round at the big bet (the best showing door
    /// card first). A third card each would deal the whole deck; with the down card first the
    /// first street would have no door card to order it by.
    pub fn doorstud() -> GameDef {
        GameDef {
            streets: vec![
                StreetDef {
                    deal: vec![Deal::Up],
                    bet: BetSize::Small,
                },
                StreetDef {
                    deal: vec![Deal::Down],
                    bet: BetSize::Big,
                },
            ],
            ..GameDef::tristud()
        }
    }

    /// Kuhn poker as in OpenSpiel: J Q K, ante 1, one card each, one round where a bet is 1 and
    /// at most one bet is made; seat 0 acts first.
    pub fn kuhn() -> GameDef {
        GameDef {
            variant: Variant::Kuhn,
            seats: 2,
            deck: DeckDef {
                ranks: vec![Rank::JACK, Rank::QUEEN, Rank::KING],
                suits: 1,
            },
            ante: 1,
            bring_in: 0,
            small_bet: 1,
            big_bet: 1,
            starting_stacks: vec![100; 2],
            max_bets: 1,
            uncapped_heads_up: false,
            incomplete_raise_reopens: false,
            open_pair_big_bet: false,
            first_round: FirstRound::Seat0,
            later_rounds: LaterRounds::Seat0,
            out_of_cards: OutOfCards::CardRoom,
            burn_cards: false,
            streets: vec![StreetDef {
                deal: vec![Deal::Down],
                bet: BetSize::Small,
            }],
        }
    }

    /// Leduc hold'em as in OpenSpiel: J Q K in two suits, ante 1, one private card, a round of
    /// bets of 2, one public card, a round of bets of 4, at most two bets (a bet and a raise) per
    /// round; seat 0 acts first in both rounds. A pair with the public card wins, else the higher
    /// private card.
    pub fn leduc() -> GameDef {
        GameDef {
            variant: Variant::Leduc,
            seats: 2,
            deck: DeckDef {
                ranks: vec![Rank::JACK, Rank::QUEEN, Rank::KING],
                suits: 2,
            },
            ante: 1,
            bring_in: 0,
            small_bet: 2,
            big_bet: 4,
            starting_stacks: vec![100; 2],
            max_bets: 2,
            uncapped_heads_up: false,
            incomplete_raise_reopens: false,
            open_pair_big_bet: false,
            first_round: FirstRound::Seat0,
            later_rounds: LaterRounds::Seat0,
            out_of_cards: OutOfCards::CardRoom,
            burn_cards: false,
            streets: vec![
                StreetDef {
                    deal: vec![Deal::Down],
                    bet: BetSize::Small,
                },
                StreetDef {
                    deal: vec![Deal::Community],
                    bet: BetSize::Big,
                },
            ],
        }
    }

    /// `ministud`: a stud game small enough to solve exactly. Heads-up, a deck of the ranks
    /// Q K A in four suits (12 cards), ante 1, bring-in 1, bets 2 and 4; a down card and an
    /// up card (the door card decides the bring-in), a round at the small bet, then one more up
    /// card and a round at the big bet where the best showing hand acts first; a bet and two
    /// raises at most; showdown ranks all three cards (trips > pair > high cards).
    pub fn ministud() -> GameDef {
        GameDef {
            variant: Variant::Ministud,
            seats: 2,
            deck: DeckDef {
                // 12 cards: the full-width public tree has 1.8M nodes and 13M infoset-actions,
                // solved below 0.1% of the ante in minutes; T-A (20 cards) has 17M nodes and
                // had 326M infoset-actions before colliding hands lost their slots (6 GB, 8 s
                // per CFR+ iteration).
                ranks: vec![Rank::QUEEN, Rank::KING, Rank::ACE],
                suits: 4,
            },
            ante: 1,
            bring_in: 1,
            small_bet: 2,
            big_bet: 4,
            starting_stacks: vec![100; 2],
            max_bets: 3,
            uncapped_heads_up: false,
            incomplete_raise_reopens: false,
            open_pair_big_bet: false,
            first_round: FirstRound::BringIn,
            later_rounds: LaterRounds::BestShowing,
            out_of_cards: OutOfCards::CardRoom,
            burn_cards: false,
            streets: vec![
                StreetDef {
                    deal: vec![Deal::Down, Deal::Up],
                    bet: BetSize::Small,
                },
                StreetDef {
                    deal: vec![Deal::Up],
                    bet: BetSize::Big,
                },
            ],
        }
    }

    /// `yardstud`: the yardstick of the real games' abstraction, the smallest game with their
    /// structure (several streets of up cards after a down card, the bring-in by the door
    /// card, the best showing hand first on later streets, small then big bets) whose exact
    /// best response is still computable. Heads-up, Q K A in three suits (9 cards), ante 1,
    /// bring-in 1, bets 2 and 4; a down card and an up card with a round at the small bet, an up
    /// card with a round at the small bet, an up card with a round at the big bet; a bet and two
    /// raises at most; showdown ranks all four cards (trips > two pair > pair > high cards).
    /// docs/notes/ladder.md says why this deck and cap: the public tree grows with the sixth power of
    /// the deck and the cube of the betting per street.
    pub fn yardstud() -> GameDef {
        let street = |deal: Vec<Deal>, bet| StreetDef { deal, bet };
        GameDef {
            variant: Variant::Yardstud,
            deck: DeckDef {
                ranks: vec![Rank::QUEEN, Rank::KING, Rank::ACE],
                suits: 3,
            },
            streets: vec![
                street(vec![Deal::Down, Deal::Up], BetSize::Small),
                street(vec![Deal::Up], BetSize::Small),
                street(vec![Deal::Up], BetSize::Big),
            ],
            ..GameDef::ministud()
        }
    }

    /// Applies a rules profile. `PokerKit` never lifts the cap heads-up, has no open-pair big
    /// bet, reshuffles when out of cards, and lets an all-in raise for less reopen the betting.
    pub fn with_profile(mut self, profile: Profile) -> GameDef {
        match profile {
            Profile::CardRoom => {
                self.uncapped_heads_up = true;
                self.incomplete_raise_reopens = false;
                self.open_pair_big_bet =
                    matches!(self.variant, Variant::SevenStud | Variant::FiveStud);
                self.out_of_cards = OutOfCards::CardRoom;
            }
            Profile::PokerKit => {
                self.uncapped_heads_up = false;
                self.incomplete_raise_reopens = true;
                self.open_pair_big_bet = false;
                self.out_of_cards = OutOfCards::Reshuffle;
            }
        }
        self
    }

    /// Sets the number of seats, every stack equal to `stack`.
    pub fn with_seats(mut self, seats: u8, stack: u64) -> GameDef {
        self.seats = seats;
        self.starting_stacks = vec![stack; seats as usize];
        self
    }

    /// The cards each player is dealt over the hand (community cards excluded).
    pub fn cards_per_player(&self) -> usize {
        self.streets
            .iter()
            .flat_map(|s| &s.deal)
            .filter(|d| **d != Deal::Community)
            .count()
    }

    /// The community cards the game deals (not counting one turned when the stub runs short).
    pub fn community_cards(&self) -> usize {
        self.streets
            .iter()
            .flat_map(|s| &s.deal)
            .filter(|d| **d == Deal::Community)
            .count()
    }

    /// The street (0-based) that `name` says, the inverse of [`street_name`](Self::street_name)
    /// in every spelling players use: the name (`3rd street`, `round 1`), without `street`
    /// (`3rd`), or the number of cards alone (`3`); any case. `None` where no street of the
    /// game is so called.
    pub fn street_named(&self, name: &str) -> Option<usize> {
        let t = name.trim().to_lowercase();
        let n = self.streets.len();
        let named = |i: usize| {
            let s = self.street_name(i);
            s == t || s.strip_suffix(" street") == Some(t.as_str())
        };
        if let Some(i) = (0..n).find(|&i| named(i)) {
            return Some(i);
        }
        let t = t.strip_suffix("street").unwrap_or(&t).trim();
        let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let k = digits.parse::<u32>().ok()?;
        (0..n).find(|&i| self.street_name(i).starts_with(&format!("{k}")))
    }

    /// Street `street` (0-based) as players say it: in a stud game the number of cards each
    /// player holds once it is dealt ("3rd street" to "7th street" in seven-card stud, "2nd
    /// street" to "5th street" in five-card stud); in a game with community cards or no up
    /// cards (Kuhn, Leduc), where that count means nothing, "round 1", "round 2".
    pub fn street_name(&self, street: usize) -> String {
        let deals = || self.streets.iter().flat_map(|s| &s.deal);
        let stud = deals().any(|d| *d == Deal::Up) && !deals().any(|d| *d == Deal::Community);
        if !stud {
            return format!("round {}", street + 1);
        }
        let held: usize = self
            .streets
            .iter()
            .take(street + 1)
            .map(|s| s.deal.len())
            .sum();
        format!("{} street", ordinal(held))
    }

    /// The size of a bet of kind `b`.
    pub fn bet_amount(&self, b: BetSize) -> u64 {
        match b {
            BetSize::Small => self.small_bet,
            BetSize::Big => self.big_bet,
        }
    }

    /// Checks that `players` can play `variant`. It takes the count as read (the number of
    /// stacks of a hand history, say), before it is stored in the `u8` of [`GameDef::seats`]:
    /// 258 players must be reported as 258, not as the 255 (or 2) a cast leaves.
    pub fn check_seats(variant: Variant, players: usize) -> Result<(), GameDefError> {
        let max_seats = match variant {
            Variant::SevenStud | Variant::StudHiLo | Variant::Razz => 8,
            Variant::FiveStud => 10,
            // OpenSpiel's Kuhn and Leduc grow their decks with the players.
            Variant::Kuhn | Variant::Leduc => 8,
            Variant::Ministud => 3,
            Variant::Yardstud => 2,
        };
        if (2..=max_seats).contains(&players) {
            return Ok(());
        }
        Err(GameDefError::Invalid {
            key: "seats",
            reason: format!("{players} players cannot play {variant}: it takes 2 to {max_seats}"),
        })
    }

    /// Checks that the game can be played; the error names the key at fault.
    pub fn validate(&self) -> Result<(), GameDefError> {
        GameDef::check_seats(self.variant, self.seats as usize)?;
        self.check_deck()?;
        self.check_bets()?;
        self.check_stacks()?;
        self.check_streets()
    }

    /// The deck: 1 to 4 suits, distinct ranks.
    fn check_deck(&self) -> Result<(), GameDefError> {
        if self.deck.suits == 0 || self.deck.suits > 4 {
            return invalid(
                "deck.suits",
                format!("{} suits: must be 1 to 4", self.deck.suits),
            );
        }
        let mut ranks = self.deck.ranks.clone();
        ranks.sort();
        ranks.dedup();
        if ranks.len() != self.deck.ranks.len() || ranks.is_empty() {
            return invalid("deck.ranks", "ranks must be distinct and not empty".into());
        }
        Ok(())
    }

    /// The bets: a small bet of at least 1, a big bet not below it, a bring-in below it in a
    /// bring-in game only, at least one bet a round.
    fn check_bets(&self) -> Result<(), GameDefError> {
        if self.small_bet == 0 {
            return invalid("small_bet", "must be at least 1".into());
        }
        if self.big_bet < self.small_bet {
            return invalid(
                "big_bet",
                format!(
                    "the big bet {} is below the small bet {}",
                    self.big_bet, self.small_bet
                ),
            );
        }
        if self.first_round == FirstRound::BringIn {
            if self.bring_in == 0 {
                return invalid(
                    "bring_in",
                    "a bring-in game needs a bring-in of at least 1".into(),
                );
            }
            if self.bring_in >= self.small_bet {
                return invalid(
                    "bring_in",
                    format!(
                        "the bring-in {} must be below the small bet {}",
                        self.bring_in, self.small_bet
                    ),
                );
            }
        } else if self.bring_in != 0 {
            return invalid(
                "bring_in",
                "only a game whose first round is `bring-in` has a bring-in".into(),
            );
        }
        if self.max_bets == 0 {
            return invalid("max_bets", "at least one bet per round".into());
        }
        Ok(())
    }

    /// The stacks: one per seat, none empty, and no sum of chips that could overflow.
    fn check_stacks(&self) -> Result<(), GameDefError> {
        if self.starting_stacks.len() != self.seats as usize {
            return invalid(
                "starting_stacks",
                format!(
                    "{} stacks for {} seats",
                    self.starting_stacks.len(),
                    self.seats
                ),
            );
        }
        if let Some(i) = self.starting_stacks.iter().position(|&s| s == 0) {
            return invalid(
                "starting_stacks",
                format!("{} (entry {}) has no chips", seat_name(i), i + 1),
            );
        }
        let chips: u128 = self.starting_stacks.iter().map(|&s| s as u128).sum();
        if chips > MAX_CHIPS as u128 {
            return invalid(
                "starting_stacks",
                format!(
                    "{chips} chips in play: the stacks together may hold at most 2^53 = \
                     {MAX_CHIPS}, so that no pot or payoff can overflow"
                ),
            );
        }
        for (key, amount) in [
            ("ante", self.ante),
            ("bring_in", self.bring_in),
            ("small_bet", self.small_bet),
            ("big_bet", self.big_bet),
        ] {
            if amount > MAX_CHIPS {
                return invalid(
                    key,
                    format!(
                        "{amount} chips: at most 2^53 = {MAX_CHIPS}, so that no sum of chips can \
                         overflow"
                    ),
                );
            }
        }
        Ok(())
    }

    /// The streets: at least one, a door card where it decides who acts, cards for the players,
    /// and every street but the last within the deck.
    fn check_streets(&self) -> Result<(), GameDefError> {
        if self.streets.is_empty() {
            return invalid("streets", "a game needs at least one street".into());
        }
        let first = &self.streets[0].deal;
        let door_needed = matches!(self.first_round, FirstRound::BringIn | FirstRound::HighCard)
            || self.later_rounds == LaterRounds::BestShowing;
        if door_needed && !first.contains(&Deal::Up) {
            return invalid(
                "streets",
                "the first street must deal an up card: the door card decides who acts first"
                    .into(),
            );
        }
        let per_player = self.cards_per_player();
        let community = self
            .streets
            .iter()
            .flat_map(|s| &s.deal)
            .filter(|d| **d == Deal::Community)
            .count();
        if per_player == 0 {
            return invalid("streets", "no cards are dealt to the players".into());
        }
        // The last street may run short with many players (then burns are reshuffled or one
        // community card is turned); every earlier street, with its burn, must fit in the deck.
        let last = self.streets.last().map_or(0, |s| s.deal.len());
        let burns = if self.burn_cards {
            self.streets.len().saturating_sub(2)
        } else {
            0
        };
        let before_last = (per_player - last) * self.seats as usize + community + burns;
        if before_last + 1 > self.deck.len() {
            return invalid(
                "seats",
                format!(
                    "a deck of {} cards cannot deal {} players",
                    self.deck.len(),
                    self.seats
                ),
            );
        }
        Ok(())
    }

    /// Reads a game from TOML: either a full definition, or `preset = "7stud"` followed by the
    /// keys to override. Unknown keys are refused.
    ///
    /// ```toml
    /// preset = "razz"
    /// seats = 6
    /// starting_stacks = 500   # one number for every seat, or a list
    /// small_bet = 10
    /// big_bet = 20
    /// ```
    pub fn from_toml(text: &str) -> Result<GameDef, GameDefError> {
        let file: GameFile = toml::from_str(text).map_err(|e| GameDefError::Toml(e.to_string()))?;
        let mut g = match &file.preset {
            Some(p) => GameDef::preset(p)?,
            None => GameDef {
                variant: file.variant.ok_or(GameDefError::Invalid {
                    key: "variant",
                    reason: "missing: give `variant` or `preset`".into(),
                })?,
                ..GameDef::stud(Variant::SevenStud)
            },
        };
        if let (Some(_), Some(v)) = (&file.preset, file.variant) {
            g.variant = v;
        }
        if let Some(p) = file.profile {
            g = g.with_profile(p);
        }
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = file.$f { g.$f = v; } )* };
        }
        set!(
            seats,
            deck,
            ante,
            bring_in,
            small_bet,
            big_bet,
            max_bets,
            uncapped_heads_up,
            incomplete_raise_reopens,
            open_pair_big_bet,
            first_round,
            later_rounds,
            out_of_cards,
            burn_cards,
            streets
        );
        g.starting_stacks = match file.starting_stacks {
            Some(Stacks::Each(s)) => vec![s; g.seats as usize],
            Some(Stacks::List(v)) => v,
            None => {
                let s = g.starting_stacks.first().copied().unwrap_or(200);
                vec![s; g.seats as usize]
            }
        };
        g.validate()?;
        Ok(g)
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Stacks {
    Each(u64),
    List(Vec<u64>),
}

/// The shape of a TOML game file: every key optional over a preset.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    preset: Option<String>,
    variant: Option<Variant>,
    profile: Option<Profile>,
    seats: Option<u8>,
    deck: Option<DeckDef>,
    ante: Option<u64>,
    bring_in: Option<u64>,
    small_bet: Option<u64>,
    big_bet: Option<u64>,
    starting_stacks: Option<Stacks>,
    max_bets: Option<u8>,
    uncapped_heads_up: Option<bool>,
    incomplete_raise_reopens: Option<bool>,
    open_pair_big_bet: Option<bool>,
    first_round: Option<FirstRound>,
    later_rounds: Option<LaterRounds>,
    out_of_cards: Option<OutOfCards>,
    burn_cards: Option<bool>,
    streets: Option<Vec<StreetDef>>,
}

/// The error of key `key` at fault, for `reason`.
fn invalid(key: &'static str, reason: String) -> Result<(), GameDefError> {
    Err(GameDefError::Invalid { key, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openspiels_games_take_a_seat_count() {
        let k3 = GameDef::preset("kuhn-3p").unwrap();
        assert_eq!((k3.seats, k3.deck.len()), (3, 4));
        assert_eq!(k3.deck.ranks[0], Rank::TEN);
        assert_eq!(GameDef::preset("kuhn-2p").unwrap(), GameDef::kuhn());
        assert_eq!(GameDef::preset("leduc-2p").unwrap(), GameDef::leduc());
        assert_eq!(GameDef::preset("Leduc-8p").unwrap().deck.len(), 18);
        assert!(GameDef::preset("leduc-9p")
            .unwrap_err()
            .to_string()
            .contains("9 players"));
        assert!(matches!(
            GameDef::preset("ministud-3p"),
            Err(GameDefError::UnknownPreset(_))
        ));
        let t = GameDef::tristud();
        t.validate().unwrap();
        assert_eq!((t.seats, t.deck.len()), (3, 8));
        let d = GameDef::preset("doorstud").unwrap();
        d.validate().unwrap();
        assert_eq!((d.seats, d.cards_per_player()), (3, 2));
    }

    #[test]
    fn the_card_room_games_take_a_seat_count() {
        for (name, base) in [
            ("7stud", "7stud"),
            ("stud8", "stud8"),
            ("razz", "razz"),
            ("5stud", "5stud"),
        ] {
            let heads_up = GameDef::preset(base).unwrap();
            assert_eq!(GameDef::preset(&format!("{name}-2p")).unwrap(), heads_up);
            let six = GameDef::preset(&format!("{name}-6p")).unwrap();
            six.validate().unwrap();
            assert_eq!(six.seats, 6);
            assert_eq!(six.starting_stacks, vec![heads_up.starting_stacks[0]; 6]);
            assert_eq!(six.streets, heads_up.streets);
        }
        GameDef::preset("5stud-10p").unwrap().validate().unwrap();
        let err = GameDef::preset("7stud-9p").unwrap_err().to_string();
        assert!(err.contains("9 players"), "{err}");
    }

    #[test]
    fn streets_are_named_as_players_say_them() {
        let seven = GameDef::preset("7stud").unwrap();
        let names: Vec<String> = (0..5).map(|s| seven.street_name(s)).collect();
        assert_eq!(
            names,
            [
                "3rd street",
                "4th street",
                "5th street",
                "6th street",
                "7th street"
            ]
        );
        let five = GameDef::preset("5stud").unwrap();
        assert_eq!(five.street_name(0), "2nd street");
        assert_eq!(five.street_name(3), "5th street");
        assert_eq!(GameDef::ministud().street_name(1), "3rd street");
        assert_eq!(GameDef::leduc().street_name(0), "round 1");
        assert_eq!(GameDef::leduc().street_name(1), "round 2");
        assert_eq!(GameDef::kuhn().street_name(0), "round 1");
    }

    #[test]
    fn ordinals_take_their_suffix_from_the_last_digits() {
        let words: Vec<String> = [1, 2, 3, 4, 8, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "8th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }

    #[test]
    fn every_preset_is_valid() {
        for name in PRESETS.split(", ") {
            let g = GameDef::preset(name).unwrap();
            g.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(GameDef::preset("7stud").unwrap().cards_per_player(), 7);
        assert_eq!(GameDef::preset("5stud").unwrap().cards_per_player(), 5);
        assert_eq!(GameDef::kuhn().deck.len(), 3);
        assert_eq!(GameDef::leduc().deck.len(), 6);
        let yard = GameDef::preset("yardstud").unwrap();
        assert_eq!((yard.deck.len(), yard.cards_per_player()), (9, 4));
        assert_eq!(yard.variant.showdown(), Showdown::Showing);
        // Eight players need the community-card rule on seventh street, but are allowed.
        let eight = GameDef::stud(Variant::SevenStud).with_seats(8, 100);
        eight.validate().unwrap();
    }

    #[test]
    fn toml_overrides_a_preset() {
        let g = GameDef::from_toml(
            "preset = \"razz\"\nseats = 6\nstarting_stacks = 500\nprofile = \"pokerkit\"",
        )
        .unwrap();
        assert_eq!(g.variant, Variant::Razz);
        assert_eq!(g.starting_stacks, vec![500; 6]);
        assert!(!g.uncapped_heads_up);
        assert_eq!(g.out_of_cards, OutOfCards::Reshuffle);
    }

    #[test]
    fn toml_refuses_unknown_keys_and_impossible_values() {
        let e = GameDef::from_toml("preset = \"7stud\"\nbigbet = 3").unwrap_err();
        assert!(e.to_string().contains("bigbet"), "{e}");
        let e = GameDef::from_toml("preset = \"7stud\"\nbig_bet = 3").unwrap_err();
        assert!(e.to_string().starts_with("`big_bet`"), "{e}");
        let e = GameDef::from_toml("preset = \"7stud\"\nseats = 9").unwrap_err();
        assert!(e.to_string().starts_with("`seats`"), "{e}");
        let e = GameDef::from_toml("preset = \"5stud\"\nseats = 10").unwrap();
        assert_eq!(e.seats, 10);
        let e = GameDef::from_toml("preset = \"7stud\"\nbring_in = 5").unwrap_err();
        assert!(e.to_string().starts_with("`bring_in`"), "{e}");
        let e = GameDef::from_toml("preset = \"chess\"").unwrap_err();
        assert!(e.to_string().contains("chess"), "{e}");
    }

    #[test]
    fn chips_beyond_the_bound_are_refused_and_play_at_the_bound_is_exact() {
        let at = |stack: u64, bet: u64| {
            let mut g = GameDef::stud(Variant::SevenStud).with_seats(2, stack);
            g.small_bet = bet;
            g.big_bet = bet;
            g
        };
        let half = MAX_CHIPS / 2;
        at(half, MAX_CHIPS).validate().unwrap();
        let e = at(half + 1, 5).validate().unwrap_err().to_string();
        assert!(
            e.starts_with("`starting_stacks`") && e.contains("2^53"),
            "{e}"
        );
        let e = at(u64::MAX, 5).validate().unwrap_err().to_string();
        assert!(e.starts_with("`starting_stacks`"), "{e}");
        let e = at(100, MAX_CHIPS + 1).validate().unwrap_err().to_string();
        assert!(e.starts_with("`small_bet`"), "{e}");
        let mut g = at(100, 5);
        g.ante = u64::MAX;
        let e = g.validate().unwrap_err().to_string();
        assert!(e.starts_with("`ante`"), "{e}");
        let e = GameDef::from_toml("preset = \"7stud\"\nstarting_stacks = 9223372036854775000")
            .unwrap_err();
        assert!(e.to_string().starts_with("`starting_stacks`"), "{e}");
        // At the bound, every seat all in: the payoffs are exact and sum to zero.
        let mut st = crate::rules::State::new(&at(half, half / 4)).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        loop {
            match st.next() {
                crate::rules::Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                crate::rules::Next::Act { .. } => {
                    // The largest raise (or the call once none is left).
                    let legal = st.legal_actions();
                    st.apply(*legal.last().unwrap()).unwrap();
                }
                crate::rules::Next::Over => break,
            }
        }
        let p = st.payoffs().unwrap();
        assert_eq!(p[0] + p[1], 0);
        assert!(
            p.iter().all(|&x| x == 0 || x.unsigned_abs() == half),
            "{p:?}"
        );
    }
}
