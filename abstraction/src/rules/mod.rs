//! The exact, unabstracted rules of limit stud and the reference games: game definitions, the
//! state machine, and PHH hand histories.

pub mod game_def;
pub mod notation;
pub mod order;
pub mod pots;
pub mod seat;
pub mod state;

pub use game_def::{
    BetSize, Deal, DeckDef, FirstRound, GameDef, GameDefError, LaterRounds, OutOfCards, Profile,
    Showdown, StreetDef, Variant, MAX_CHIPS, PRESETS,
};
pub use seat::{seat_name, seat_number, SeatName};
pub use state::{showdown_winnings, Action, Next, RulesError, State, MAX_STREETS};

#[cfg(test)]
mod tests;
