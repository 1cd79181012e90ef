//! The betting abstraction: which of the legal actions the abstract game keeps.
//!
//! Legal actions always come from the rules engine; this layer only removes some. Here it is the
//! raise cap: heads-up stud is uncapped by the card-room rule, so a solver must cap it itself.

use crate::rules::game_def::GameDef;
use crate::rules::state::Action;
use serde::{Deserialize, Serialize};

/// Which legal actions the abstract game keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BettingAbstraction {
    /// The most bets (the opening bet or completion included; the bring-in is not a bet) the
    /// abstract game allows in one betting round. Actions past it are dropped even where the
    /// rules would allow them (heads-up stud, which is uncapped).
    pub max_bets: u8,
}

impl BettingAbstraction {
    /// The game's own cap (`GameDef::max_bets`), applied even when the rules lift it heads-up.
    pub fn for_game(def: &GameDef) -> BettingAbstraction {
        BettingAbstraction {
            max_bets: def.max_bets,
        }
    }

    /// Whether the abstract game keeps action `a` when `bets` bets have been made this round.
    pub fn keeps(&self, a: Action, bets: u8) -> bool {
        !matches!(a, Action::CompleteBetRaise(_)) || bets < self.max_bets
    }

    /// A short description recorded in strategy files.
    pub fn describe(&self) -> String {
        format!("cap {} bets per round", self.max_bets)
    }
}
