//! What one heads-up stud player knows of the cards, and the shape of the game that says how many
//! cards of each kind a player holds on each street.

use super::BucketError;
use crate::cards::{Card, CardSet};
use crate::rules::{Deal, GameDef, Showdown, State};

/// The card information of one player in heads-up stud: the street, the player's own down and up
/// cards, and the opponent's up cards. Everything else is unknown to the player (heads-up stud
/// has no other dead cards). Up cards are sets: their order changes no showdown and no feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardView {
    /// The street, 0 for the first (third street in seven-card stud).
    pub street: usize,
    /// The player's down (hole) cards.
    pub down: CardSet,
    /// The player's up cards.
    pub up: CardSet,
    /// The opponent's up cards.
    pub opp_up: CardSet,
}

impl CardView {
    /// The view of `seat` in a heads-up state: its own cards (every down card must be known) and
    /// the other seat's up cards, on the state's current street.
    pub fn of_state(state: &State, seat: u8) -> Result<CardView, BucketError> {
        CardView::on_street(state, seat, state.street())
    }

    /// The view `seat` had on `street` (the current street or an earlier one) of a heads-up
    /// state: the cards each seat held then, which are the first ones it holds now.
    pub fn on_street(state: &State, seat: u8, street: usize) -> Result<CardView, BucketError> {
        if state.def().seats != 2 || seat > 1 {
            return Err(BucketError::View(format!(
                "the bucketing is heads-up: seat {seat} of a {}-seat game has no single opponent",
                state.def().seats
            )));
        }
        if street > state.street() {
            return Err(BucketError::View(format!(
                "street {} is not dealt yet (the hand is on street {})",
                street + 1,
                state.street() + 1
            )));
        }
        let (downs, ups) = held_by(state.def(), street);
        let mut down = CardSet::EMPTY;
        for (i, c) in state.down_cards(seat).iter().take(downs).enumerate() {
            let c = c.ok_or_else(|| {
                BucketError::View(format!("seat {seat}'s down card {} is unknown", i + 1))
            })?;
            down.insert(c);
        }
        let set = |cards: &[Card]| cards.iter().take(ups).copied().collect::<CardSet>();
        Ok(CardView {
            street,
            down,
            up: set(state.up_cards(seat)),
            opp_up: set(state.up_cards(1 - seat)),
        })
    }

    /// All the cards the player sees.
    pub fn known(&self) -> CardSet {
        self.down.union(self.up).union(self.opp_up)
    }
}

/// How many down cards and up cards a player of `def` holds by street `street` (counting the
/// street's own deal).
pub fn held_by(def: &GameDef, street: usize) -> (usize, usize) {
    let dealt = def.streets[..=street.min(def.streets.len().saturating_sub(1))]
        .iter()
        .flat_map(|s| &s.deal);
    let (mut down, mut up) = (0, 0);
    for d in dealt {
        match d {
            Deal::Down => down += 1,
            Deal::Up => up += 1,
            Deal::Community => {}
        }
    }
    (down, up)
}

/// How many cards a player holds on each street of a heads-up stud game, its deck and its
/// showdown: all that the features depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The game's name (`7stud`, `razz`, ...).
    pub game: String,
    /// How hands are ranked at showdown.
    pub showdown: Showdown,
    /// The deck.
    pub deck: CardSet,
    /// Down cards held by a player on each street (cumulative).
    pub downs: Vec<u8>,
    /// Up cards held by a player on each street (cumulative).
    pub ups: Vec<u8>,
}

impl Shape {
    /// The shape of `def`, refused unless it is a heads-up game where every card is a player's
    /// own (no community cards) and its showdown can rank the final hands.
    pub fn of(def: &GameDef) -> Result<Shape, BucketError> {
        let game = def.variant.name().to_string();
        let refuse = |why: String| Err(BucketError::Game(format!("{game}: {why}")));
        if def.seats != 2 {
            return refuse(format!(
                "the bucketing is heads-up, not {} seats",
                def.seats
            ));
        }
        let (mut downs, mut ups) = (Vec::new(), Vec::new());
        let (mut d, mut u) = (0u8, 0u8);
        for (i, street) in def.streets.iter().enumerate() {
            for deal in &street.deal {
                match deal {
                    Deal::Down => d += 1,
                    Deal::Up => u += 1,
                    Deal::Community => {
                        return refuse(format!(
                            "street {} deals a community card; the bucketing is for stud games",
                            i + 1
                        ))
                    }
                }
            }
            downs.push(d);
            ups.push(u);
        }
        let total = (d + u) as usize;
        let fits = match def.variant.showdown() {
            Showdown::Showing => (1..=4).contains(&total),
            _ => (5..=7).contains(&total),
        };
        if !fits {
            return refuse(format!(
                "a final hand of {total} cards cannot be ranked by its showdown"
            ));
        }
        if u == 0 || d == 0 {
            return refuse("a player needs both down and up cards".into());
        }
        let deck = def.deck.cards();
        if 2 * total > deck.len() as usize {
            return refuse("the deck cannot deal both hands".into());
        }
        Ok(Shape {
            game,
            showdown: def.variant.showdown(),
            deck,
            downs,
            ups,
        })
    }

    /// The number of streets.
    pub fn streets(&self) -> usize {
        self.downs.len()
    }

    /// Down and up cards a player holds at showdown.
    pub fn final_counts(&self) -> (u8, u8) {
        (*self.downs.last().unwrap(), *self.ups.last().unwrap())
    }

    /// Checks that `v` is a possible view in this game: a street that exists, the right number
    /// of cards of each kind, no card twice, every card in the deck. The error names what is wrong.
    pub fn check(&self, v: &CardView) -> Result<(), BucketError> {
        let bad = |why: String| Err(BucketError::View(why));
        if v.street >= self.streets() {
            return bad(format!(
                "street {} does not exist: {} has streets 0..{}",
                v.street,
                self.game,
                self.streets()
            ));
        }
        let (d, u) = (self.downs[v.street] as u32, self.ups[v.street] as u32);
        for (what, set, want) in [
            ("my down cards", v.down, d),
            ("my up cards", v.up, u),
            ("the opponent's up cards", v.opp_up, u),
        ] {
            if set.len() != want {
                return bad(format!(
                    "{what} ({set}) are {} cards; street {} of {} has {want}",
                    set.len(),
                    v.street,
                    self.game
                ));
            }
            let outside = set.minus(self.deck);
            if !outside.is_empty() {
                return bad(format!("{what}: {outside} not in the {} deck", self.game));
            }
        }
        let twice = v
            .down
            .intersection(v.up)
            .union(v.down.intersection(v.opp_up))
            .union(v.up.intersection(v.opp_up));
        if !twice.is_empty() {
            return bad(format!("{twice} appear more than once"));
        }
        Ok(())
    }

    /// A stable fingerprint of the shape, recorded in cache files so that a file built for
    /// another game is recognised.
    pub fn fingerprint(&self) -> String {
        let streets: Vec<String> = (0..self.streets())
            .map(|s| format!("{}d{}u", self.downs[s], self.ups[s]))
            .collect();
        format!(
            "{} {:?} deck={:013x} {}",
            self.game,
            self.showdown,
            self.deck.0,
            streets.join(",")
        )
    }
}
