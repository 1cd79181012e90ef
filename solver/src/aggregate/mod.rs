//! A whole street of a heads-up strategy at once, across deals (`stud aggregate`): third
//! street by door card against door card ([`third`], every holding of every pair of doors),
//! and the later streets by the acting player's hand class against the opponent's board
//! ([`later`], over sampled deals that both seats play by the file).

mod board;
pub mod later;
pub mod third;

pub use board::Boards;
pub use third::*;
