//! Everything about the game of limit stud and its abstraction: cards, hand evaluators, the rules
//! engine and hand histories, and the card and betting abstractions the solver plays on.
//!
//! This crate knows nothing of CFR, strategy files or the command line.
#![warn(missing_docs)]

pub mod betting_abstraction;
pub mod betting_tree;
pub mod bucketing;
pub mod card_abstraction;
pub mod cards;
pub mod deal;
pub mod draw;
pub mod eval;
pub mod fnv;
pub mod history_tree;
pub mod multiway_betting;
pub mod multiway_deal;
pub mod named;
pub mod phh;
pub mod recall;
pub mod rules;
pub mod tree;
