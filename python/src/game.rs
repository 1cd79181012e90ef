//! `Game`: a stud game's stakes, stacks and rules profile, the frame a hand's PHH actions are
//! replayed in.

use crate::{json_to_py, stud_error, StudError};
use abstraction::phh::HandHistory;
use abstraction::rules::{GameDef, Profile};
use pyo3::prelude::*;

/// A stud game a hand is played in: a preset (`Game.preset("7stud-5p")`) or a variant with its
/// own stakes and stacks (what a PokerKit state says), under the card-room rules or PokerKit's.
#[pyclass(frozen, module = "stud._stud")]
pub struct Game {
    /// The stakes and stacks, no actions: each request's actions are appended to a copy.
    pub(crate) history: HandHistory,
    /// The game the history replays in, which a player is loaded for.
    pub(crate) def: GameDef,
    /// The rules the history is replayed under.
    pub(crate) profile: Profile,
}

/// The rules profile `name` names, as `stud serve --rules` spells it.
fn profile(name: &str) -> PyResult<Profile> {
    match name {
        "card-room" => Ok(Profile::CardRoom),
        "pokerkit" => Ok(Profile::PokerKit),
        other => Err(StudError::new_err(format!(
            "rules `{other}`: expected `card-room` or `pokerkit`"
        ))),
    }
}

impl Game {
    /// The game of `def` under `profile`, or why PHH (and so the protocol) cannot play it.
    fn of_def(def: GameDef, profile: Profile) -> PyResult<Game> {
        let def = def.with_profile(profile);
        let history = HandHistory::for_game(&def).ok_or_else(|| {
            StudError::new_err(format!(
                "the protocol speaks PHH, which cannot record {}: give a stud game",
                def.variant
            ))
        })?;
        Ok(Game {
            history,
            def,
            profile,
        })
    }
}

#[pymethods]
impl Game {
    /// A variant (`7stud`, `stud8`, `razz`, `5stud`) with these stakes and one starting stack
    /// per seat (their number is the number of seats), under `rules` (`card-room` or
    /// `pokerkit`).
    #[new]
    #[pyo3(signature = (variant, *, ante, bring_in, small_bet, big_bet, stacks, rules = "card-room"))]
    fn new(
        variant: &str,
        ante: u64,
        bring_in: u64,
        small_bet: u64,
        big_bet: u64,
        stacks: Vec<u64>,
        rules: &str,
    ) -> PyResult<Game> {
        let profile = profile(rules)?;
        let preset = GameDef::preset(variant).map_err(|e| stud_error(e.into()))?;
        let mut history = Game::of_def(preset, profile)?.history;
        history.antes = vec![ante; stacks.len()];
        history.bring_in = bring_in;
        history.small_bet = small_bet;
        history.big_bet = big_bet;
        history.starting_stacks = stacks;
        let def = history
            .game_def(profile)
            .map_err(|e| stud_error(e.into()))?;
        Ok(Game {
            history,
            def,
            profile,
        })
    }

    /// A preset as `--game` names it (`7stud`, `razz`, `7stud-5p`, …: ante 1, bring-in 2, bets
    /// 5/10, 200 chips a seat), under `rules`.
    #[staticmethod]
    #[pyo3(signature = (name, rules = "card-room"))]
    fn preset(name: &str, rules: &str) -> PyResult<Game> {
        let def = GameDef::preset(name).map_err(|e| stud_error(e.into()))?;
        Game::of_def(def, profile(rules)?)
    }

    /// The number of seats.
    #[getter]
    fn seats(&self) -> u8 {
        self.def.seats
    }

    /// The variant's name (`7stud`, `stud8`, `razz`, `5stud`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.def.variant.name()
    }

    /// The rules profile: `card-room` or `pokerkit`.
    #[getter]
    fn rules(&self) -> &'static str {
        match self.profile {
            Profile::CardRoom => "card-room",
            Profile::PokerKit => "pokerkit",
        }
    }

    /// The whole game definition as a dict (as strategy files record it).
    fn definition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = serde_json::to_value(&self.def).map_err(|e| stud_error(e.into()))?;
        json_to_py(py, &v)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, ante={}, bring_in={}, small_bet={}, big_bet={}, stacks={:?}, rules={:?})",
            self.variant(),
            self.def.ante,
            self.def.bring_in,
            self.def.small_bet,
            self.def.big_bet,
            self.def.starting_stacks,
            self.rules()
        )
    }
}

/// The cards of a preset game's deck, in the library's card order (rank, then suit): OpenSpiel
/// numbers Kuhn's and Leduc's cards in this order.
#[pyfunction]
pub fn deck(game: &str) -> PyResult<Vec<String>> {
    let def = GameDef::preset(game).map_err(|e| stud_error(e.into()))?;
    Ok(def.deck.cards().iter().map(|c| c.to_string()).collect())
}
