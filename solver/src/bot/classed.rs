//! A player whose card classes come from elsewhere ([`ClassSource`]): a cache of the classes
//! already looked up, or an estimate of them. Every other answer is the player's own, so a
//! range replayed through it weighs each class by the player's rows.

use super::{Answer, Bet, Player};
use abstraction::rules::{Action, State};

/// Where a [`Classed`] player's [`Player::card_class`] answers come from.
pub trait ClassSource: Sync {
    /// `seat`'s class at `state` for `player` (its own [`Player::card_class`] where this source
    /// has none of its own to give).
    fn class(&self, player: &dyn Player, state: &State, seat: u8) -> anyhow::Result<Option<u32>>;
}

/// `player` with its classes from `classes`; its policies are its own (a class's row is the
/// player's row of that class).
pub struct Classed<'a, C> {
    /// The player.
    pub player: &'a dyn Player,
    /// Where its classes come from.
    pub classes: &'a C,
}

impl<C: ClassSource> Player for Classed<'_, C> {
    fn name(&self) -> &str {
        self.player.name()
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        self.player.policy(state, bets, seat, legal, probs)
    }

    fn card_class(&self, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        self.classes.class(self.player, state, seat)
    }

    fn class_policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        class: u32,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        self.player
            .class_policy(state, bets, seat, class, legal, probs)
    }

    fn walkable(&self) -> bool {
        self.player.walkable()
    }
}
