//! The exact, unabstracted rules of limit stud and the reference games: game definitions, the
//! state machine, and PHH hand histories.

pub mod game_def;

pub use game_def::{
    BetSize, Deal, DeckDef, FirstRound, GameDef, GameDefError, LaterRounds, OutOfCards, Profile,
    Showdown, StreetDef, Variant, PRESETS,
};
