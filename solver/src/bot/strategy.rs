//! A solved strategy file as a player: the adapter between the real game and the abstract tree.
//!
//! Where the spot is in the file's game, which row is read there and which real action each
//! abstract action plays is [`crate::policy`]'s, shared with `stud query`. Before a row is played
//! it goes through the player's [`Purification`] (mixed, thresholded or pure: see
//! [`crate::purify`]).
//!
//! A row that still leaves no weight on any legal action gets the defined fallback, the check
//! or call, answered as [`Answer::Fallback`](super::Answer::Fallback) for the caller to count.

use super::{normalize_or_fall_back, Answer, Bet, Player};
use crate::policy;
use crate::purify::Purification;
use crate::strategy_file::{StrategyFile, MAX_ACTIONS};
use abstraction::rules::{Action, GameDef, Profile, State};
use anyhow::bail;
use std::path::Path;

/// Plays the average strategy of a strategy file: at each decision, the row of its cards at the
/// spot's node of the file's game ([`policy::locate`]).
pub struct StrategyPlayer {
    file: StrategyFile,
    /// The file's path.
    path: String,
    /// The name reports give: the path, and how the rows are played if that was set.
    name: String,
    /// What is done to a row before it is played.
    purification: Purification,
    /// Whether a multiway row its solve reached in no pot class is played by the
    /// hand-strength bot ([`Answer::Unreached`], the default) or as stored (uniform).
    heuristic_where_unreached: bool,
}

impl StrategyPlayer {
    /// Opens the strategy file at `path`, which must have been solved for `def` exactly, or for
    /// the same game under the card-room rules where `def` is it under PokerKit's and the
    /// strategy fits them ([`pokerkit_fits`]); its rows are played as its kind of file is by
    /// default ([`super::default_purification`]).
    pub fn open(path: &str, def: &GameDef) -> anyhow::Result<StrategyPlayer> {
        StrategyPlayer::of_game(StrategyFile::open(Path::new(path))?, path, def)
    }

    /// [`StrategyPlayer::open`] of `file`, opened already from `path`.
    pub fn of_game(
        file: StrategyFile,
        path: &str,
        def: &GameDef,
    ) -> anyhow::Result<StrategyPlayer> {
        let stored = file.game();
        if stored != def && !pokerkit_fits(stored, def) {
            let pokerkit = under_pokerkit(stored, def) == *def;
            if pokerkit {
                bail!(
                    "{path} was solved for {} under the card-room rules; PokerKit's rules are \
                     accepted heads-up with stacks of at least {} (no one all in under the cap), \
                     not here",
                    stored.variant,
                    most_committed(def)
                );
            }
            let why = if stored.variant == def.variant {
                "the same game with other stakes, stacks, seats or rules"
            } else {
                "another game"
            };
            bail!(
                "{path} was solved for {} as stored in it, not for the game asked ({}: {why}): \
                 pass the game it was solved for",
                stored.variant,
                def.variant
            );
        }
        Ok(StrategyPlayer::of_file(file, path))
    }

    /// The player of `file`, opened already from `path` (its name), for the game it was solved
    /// for; its rows played as by [`StrategyPlayer::open`].
    pub fn of_file(file: StrategyFile, path: &str) -> StrategyPlayer {
        StrategyPlayer {
            name: path.to_string(),
            path: path.to_string(),
            purification: match file.header() {
                Some(h) => super::default_purification(h.tree),
                None => super::default_multiway_purification(),
            },
            heuristic_where_unreached: true,
            file,
        }
    }

    /// Plays every row through `purification` instead of the default of its kind of file
    /// ([`super::default_purification`]); the player's name says it (`FILE:threshold=0.15`), so
    /// that reports and written hands tell how the file was played.
    pub fn with_purification(mut self, purification: Purification) -> StrategyPlayer {
        self.name = format!("{}:{purification}", self.path);
        self.purification = purification;
        self
    }

    /// What is done to a row before it is played.
    pub fn purification(&self) -> Purification {
        self.purification
    }

    /// Plays every row as stored, a multiway row its solve never reached (uniform) included:
    /// the strategy an exact measure lifts and checks ([`crate::multiway::lift`]), where by
    /// default such a row is the hand-strength bot's ([`Answer::Unreached`]).
    pub fn rows_as_stored(mut self) -> StrategyPlayer {
        self.heuristic_where_unreached = false;
        self
    }
}

/// Whether a strategy solved for `stored` (the card-room rules) plays `asked`: the same game
/// under PokerKit's house rules, heads-up, every stack deep enough that no one is all in under
/// the cap. Then every betting a PokerKit dealer deals is one the card room allows (PokerKit's
/// rules only take options away: raises past the cap heads-up, the open-pair big bet), no
/// all-in raise for less can happen (where PokerKit reopens the betting), and heads-up the deck
/// never runs out; a strategy file's abstraction caps the betting anyway.
pub fn pokerkit_fits(stored: &GameDef, asked: &GameDef) -> bool {
    asked.seats == 2 && pokerkit_fits_table(stored, asked)
}

/// [`pokerkit_fits`] at any number of seats (a multiway file's): the same game under PokerKit's
/// house rules, every stack deep enough that no one is all in under the cap, and a deck that
/// deals every seat all its cards and every burn, so that PokerKit never reshuffles (its
/// reshuffle redeals folded seats' cards, seen ones among them, which no view of the card
/// abstraction holds twice).
///
/// The stacks may differ from the file's: a stack that no one can run out of under the cap
/// never changes the game, so any such stacks play a file solved with such stacks (a PokerKit
/// table of 1,000 chips a seat plays the shipped files of 200).
pub fn pokerkit_fits_table(stored: &GameDef, asked: &GameDef) -> bool {
    let burns = if asked.burn_cards {
        asked.streets.len().saturating_sub(1)
    } else {
        0
    };
    let deep = |def: &GameDef| {
        let most = most_committed(def);
        def.starting_stacks.iter().all(|&s| s >= most)
    };
    stored.clone().with_profile(Profile::CardRoom) == *stored
        && under_pokerkit(stored, asked) == *asked
        && asked.seats as usize * asked.cards_per_player() + burns
            <= asked.deck.cards().len() as usize
        && deep(stored)
        && deep(asked)
}

/// `stored` under PokerKit's rules with the stacks of `asked` (what `asked` must be for the
/// file of `stored` to play it, stacks deep enough aside).
fn under_pokerkit(stored: &GameDef, asked: &GameDef) -> GameDef {
    let mut def = stored.clone().with_profile(Profile::PokerKit);
    def.starting_stacks.clone_from(&asked.starting_stacks);
    def
}

/// The most one seat can put in a hand of `def` with the cap never lifted: the ante and the
/// cap's bets on every street.
fn most_committed(def: &GameDef) -> u64 {
    def.ante
        + def
            .streets
            .iter()
            .map(|s| u64::from(def.max_bets) * def.bet_amount(s.bet))
            .sum::<u64>()
}

impl StrategyPlayer {
    /// The file.
    pub fn file(&self) -> &StrategyFile {
        &self.file
    }

    /// Lets first-street bucket lookups use a precomputed table (seconds at the `default` size):
    /// for long matches and servers. See [`BettingFile::precompute_first_street`]; a
    /// public-tree file has no bucketing, a multiway file no such table (0).
    ///
    /// [`BettingFile::precompute_first_street`]: crate::strategy_file::BettingFile::precompute_first_street
    pub fn precompute_first_street(&mut self) -> usize {
        match &mut self.file {
            StrategyFile::Betting(f) => f.precompute_first_street(),
            StrategyFile::Public(_) | StrategyFile::Multiway(_) => 0,
        }
    }

    /// Lets bucket lookups answer a view asked lately from memory: about `slots` views (32
    /// bytes each). A player is asked the same view at each of its decisions on a street, and
    /// a re-solve's ranges every holding around the same up cards. See
    /// [`BettingFile::remember_recent`]; other files have no such memory (0). Returns the
    /// bytes taken.
    ///
    /// [`BettingFile::remember_recent`]: crate::strategy_file::BettingFile::remember_recent
    pub fn remember_recent(&mut self, slots: usize) -> usize {
        match &mut self.file {
            StrategyFile::Betting(f) => f.remember_recent(slots),
            StrategyFile::Public(_) | StrategyFile::Multiway(_) => 0,
        }
    }

    /// [`Player::policy`], with the seat's row key when it is known (else from the seat's
    /// cards).
    fn policy_at(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        key: Option<u32>,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let f = &self.file;
        probs.fill(0.0);
        let d = policy::locate(f, state, bets, seat, legal)?;
        if d.capped {
            // A raise past the cap closed this street in the abstract game: it has called.
            probs[super::passive(legal)] = 1.0;
            return Ok(Answer::Own);
        }
        let key = match key {
            Some(k) => k,
            None => d.key(f, state, seat)?,
        };
        let mut row = [0.0; MAX_ACTIONS];
        let k = d.row(f, key, &mut row)?;
        if self.heuristic_where_unreached
            && matches!(f, StrategyFile::Multiway(_))
            && crate::strategy_file::multiway::is_unreached(&row[..k])
        {
            // A multiway file's row reached in no pot class reads back uniform: nothing to play.
            super::heuristic::Heuristic::default().policy(state, bets, seat, legal, probs)?;
            return Ok(Answer::Unreached);
        }
        self.purification.apply(&mut row[..k]);
        d.onto_legal(&row[..k], legal, probs);
        Ok(normalize_or_fall_back(legal, probs))
    }
}

impl Player for StrategyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        self.policy_at(state, bets, seat, None, legal, probs)
    }

    /// A betting-tree file's bucket of the seat's view; a public-tree or multiway file has no
    /// classes (LBR, which asks for them, is heads-up).
    fn card_class(&self, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        match &self.file {
            StrategyFile::Betting(f) => Ok(Some(f.key_of(state, seat)?)),
            StrategyFile::Public(_) | StrategyFile::Multiway(_) => Ok(None),
        }
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
        match self.file {
            StrategyFile::Betting(_) => {}
            StrategyFile::Public(_) => {
                bail!("a public-tree strategy reads its card without classes")
            }
            StrategyFile::Multiway(_) => {
                bail!("a multiway strategy reads its cards without classes")
            }
        }
        // LBR weighs each holding by these probabilities: a fallback is a probability too.
        self.policy_at(state, bets, seat, Some(class), legal, probs)?;
        Ok(())
    }
}

#[cfg(test)]
mod pokerkit_tests {
    use super::*;

    /// PokerKit's rules fit a card-room table file with deep stacks where its deck never
    /// reshuffles: up to six seats of seven-card stud (42 cards and 4 burns), not seven (49 and
    /// 4 of 52), nor short stacks, nor the card room's game itself under another profile.
    #[test]
    fn pokerkit_fits_a_table_with_deep_stacks_and_no_reshuffle() {
        let fits = |seats: u8, stack: u64| {
            let stored =
                GameDef::stud(abstraction::rules::Variant::SevenStud).with_seats(seats, stack);
            let asked = stored.clone().with_profile(Profile::PokerKit);
            pokerkit_fits_table(&stored, &asked)
        };
        assert!(fits(3, 1000) && fits(5, 1000) && fits(6, 1000));
        assert!(!fits(7, 1000) && !fits(8, 1000));
        assert!(!fits(5, 20), "all in under the cap");
        // Other stacks than the file's, both deep enough: the same game.
        let hu = GameDef::preset("7stud").unwrap();
        let deeper = hu
            .clone()
            .with_profile(Profile::PokerKit)
            .with_seats(2, 1000);
        assert!(pokerkit_fits(&hu, &deeper));
        assert!(!pokerkit_fits(&hu, &deeper.clone().with_seats(2, 100)));
        let five = GameDef::preset("7stud-5p").unwrap();
        assert!(!pokerkit_fits_table(
            &five,
            &five.clone().with_seats(4, 1000)
        ));
    }
}
