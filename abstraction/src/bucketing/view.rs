//! What one heads-up stud player knows of the cards, and the shape of the game that says how many
//! cards of each kind a player holds on each street.

use super::BucketError;
use crate::cards::{Card, CardSet};
use crate::rules::seat_name;
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
                "the bucketing is heads-up: {} of a {}-seat game has no single opponent",
                seat_name(seat),
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
                BucketError::View(format!(
                    "{}'s down card {} is unknown",
                    seat_name(seat),
                    i + 1
                ))
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
    /// The seats beside the player and its opponent, for an N-seat view ([`TableView`]);
    /// none heads-up.
    pub table: Table,
}

/// The seats of an N-seat view beside the player and the opponent it is measured against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Table {
    /// Other live opponents: their up cards are seen, their down cards dealt in the rollouts,
    /// and the player's share of the pot is against all of them.
    pub live: u8,
    /// Folded seats: their up cards are dead (out of the rollouts' deck). A training view
    /// gives each the street's up cards; a looked-up view has what each showed.
    pub folded: u8,
}

/// The most live opponents of an N-seat view beside the one it is measured against.
pub const MAX_OTHERS: usize = 6;

/// What one player of an N-seat table knows of the cards: its [`CardView`] against the live
/// opponent it is measured against (the best showing), the up cards of the other live
/// opponents, and the up cards of the folded seats (dead cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableView {
    /// The view against the measured opponent.
    pub view: CardView,
    /// The other live opponents' up cards: the first `live` entries.
    pub others: [CardSet; MAX_OTHERS],
    /// How many other live opponents.
    pub live: u8,
    /// The folded seats' up cards.
    pub dead: CardSet,
}

impl TableView {
    /// The view of a heads-up player: no other seat.
    pub fn heads_up(view: CardView) -> TableView {
        TableView {
            view,
            others: [CardSet::EMPTY; MAX_OTHERS],
            live: 0,
            dead: CardSet::EMPTY,
        }
    }

    /// The view of a player at a table: `view` against the best showing live opponent, and
    /// each other seat's up cards, `true` if that seat is live (a folded seat's cards are dead).
    ///
    /// # Panics
    /// With more than [`MAX_OTHERS`] other live seats.
    pub fn at_table(
        view: CardView,
        others: impl IntoIterator<Item = (CardSet, bool)>,
    ) -> TableView {
        let mut t = TableView::heads_up(view);
        for (up, live) in others {
            if live {
                t.others[t.live as usize] = up;
                t.live += 1;
            } else {
                t.dead = t.dead.union(up);
            }
        }
        t
    }

    /// The other live opponents' up cards.
    pub fn others(&self) -> &[CardSet] {
        &self.others[..self.live as usize]
    }

    /// Every card the player sees.
    pub fn known(&self) -> CardSet {
        let others = self
            .others()
            .iter()
            .fold(CardSet::EMPTY, |a, &o| a.union(o));
        self.view.known().union(others).union(self.dead)
    }
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
            table: Table::default(),
        })
    }

    /// The shape of an N-seat view of the stud game `def` (played at any number of seats):
    /// the heads-up shape of its variant with `table`'s other seats, refused unless the deck
    /// deals every live seat's hand and the folded seats' up cards.
    pub fn of_table(def: &GameDef, table: Table) -> Result<Shape, BucketError> {
        let mut shape = Shape::of(&def.clone().with_seats(2, def.starting_stacks[0]))?;
        if table.live as usize > MAX_OTHERS {
            return Err(BucketError::Game(format!(
                "{} other live opponents: at most {MAX_OTHERS}",
                table.live
            )));
        }
        let (d, u) = shape.final_counts();
        let cards = (2 + table.live as u32) * (d + u) as u32 + table.folded as u32 * u as u32;
        if cards > shape.deck.len() {
            return Err(BucketError::Game(format!(
                "{}: {} live seats and {} folded need {cards} cards, the deck has {}",
                shape.game,
                2 + table.live,
                table.folded,
                shape.deck.len()
            )));
        }
        shape.table = table;
        Ok(shape)
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

    /// [`Shape::check`] of an N-seat view: its other live opponents as many as the shape's,
    /// each showing the street's up cards, and no card of the table twice or outside the deck.
    pub fn check_table(&self, t: &TableView) -> Result<(), BucketError> {
        self.check(&t.view)?;
        let bad = |why: String| Err(BucketError::View(why));
        if t.live != self.table.live {
            return bad(format!(
                "{} other live opponents; this bucketing is of {}",
                t.live, self.table.live
            ));
        }
        let u = self.ups[t.view.street] as u32;
        let mut seen = t.view.known();
        for (i, &o) in t.others().iter().enumerate() {
            if o.len() != u {
                return bad(format!(
                    "live opponent {} shows {o}: {} cards, street {} has {u}",
                    i + 2,
                    o.len(),
                    t.view.street
                ));
            }
            if !o.intersection(seen).is_empty() {
                return bad(format!("{} appear more than once", o.intersection(seen)));
            }
            seen = seen.union(o);
        }
        if !t.dead.intersection(seen).is_empty() || !t.dead.minus(self.deck).is_empty() {
            return bad(format!(
                "dead cards {}: {} seen elsewhere, {} not in the {} deck",
                t.dead,
                t.dead.intersection(seen),
                t.dead.minus(self.deck),
                self.game
            ));
        }
        if t.dead.len() > self.table.folded as u32 * u {
            return bad(format!(
                "{} dead cards: {} folded seats show at most {}",
                t.dead.len(),
                self.table.folded,
                self.table.folded as u32 * u
            ));
        }
        Ok(())
    }

    /// A stable fingerprint of the shape, recorded in cache files so that a file built for
    /// another game is recognised.
    pub fn fingerprint(&self) -> String {
        let streets: Vec<String> = (0..self.streets())
            .map(|s| format!("{}d{}u", self.downs[s], self.ups[s]))
            .collect();
        let mut f = format!(
            "{} {:?} deck={:013x} {}",
            self.game,
            self.showdown,
            self.deck.0,
            streets.join(",")
        );
        // Heads-up shapes keep the fingerprint they always had.
        if self.table != Table::default() {
            f += &format!(" table={}live,{}folded", self.table.live, self.table.folded);
        }
        f
    }
}
