//! `Ranges`: each seat's range reaching a spot of a heads-up real game's strategy file, what
//! `stud query --ranges` adds (`solver::ranges::seat_ranges`), at a spot written as PHH actions.

use crate::game::Game;
use crate::player::Refused;
use crate::{json_to_py, stud_error};
use pyo3::prelude::*;
use solver::bot::protocol::spot;
use solver::bot::StrategyPlayer;
use solver::players::open_strategy;
use solver::ranges::seat_ranges;

/// A heads-up betting-tree strategy file (a real game's) opened for its ranges in `game`: the
/// file's rows as stored (mixed), replayed along a hand as LBR and re-solving replay them.
#[pyclass(frozen, module = "stud._stud")]
pub struct Ranges {
    /// The file's player, its rows played as stored.
    player: StrategyPlayer,
    /// The game the spots are asked in.
    game: Py<Game>,
}

#[pymethods]
impl Ranges {
    /// Opens the heads-up strategy file at `path` for the spots of `game` (the file's own, or
    /// the same under PokerKit's rules where it fits).
    #[new]
    fn new(py: Python<'_>, path: &str, game: Py<Game>) -> PyResult<Ranges> {
        let def = &game.get().def;
        let spec = format!("{path}:mixed");
        let player = py
            .detach(|| open_strategy(&spec, def))
            .map_err(stud_error)?;
        Ok(Ranges { player, game })
    }

    /// Each seat's range reaching the decision `actions` (PHH action strings, deals included)
    /// lead to, as `stud query --ranges --json` gives it: a list of two dicts (seat 0's, then
    /// seat 1's) with the holdings, the reach (the probability of the betting so far), and per
    /// hand class and per bucket of the street the holdings, reach and share of the range.
    fn at<'py>(&self, py: Python<'py>, actions: Vec<String>) -> PyResult<Bound<'py, PyAny>> {
        let game = self.game.get();
        let value = py.detach(|| -> Result<serde_json::Value, Refused> {
            let spot = spot(game.history.clone(), &actions, game.profile)?;
            seat_ranges(&self.player, &spot.state, &spot.bets, None).map_err(Refused::Player)
        });
        json_to_py(py, &value.map_err(|e| e.into_py(py))?)
    }
}
