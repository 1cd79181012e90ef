//! `stud._stud`, the native half of the `stud` Python package: thin wrappers over the `solver`
//! library (no command-line code, no rules of its own). A [`game::Game`] is a stud game's
//! stakes and rules, a [`player::Player`] anything `stud serve` serves (a bot or a strategy file
//! as its spec plays it), a [`strategy::StrategyFile`] an opened (memory-mapped) strategy file,
//! [`ranges::Ranges`] the seats' ranges at a spot. The pure-Python half (`python/stud/`) adapts
//! PokerKit states and OpenSpiel games to them.
//!
//! Every failure is a `StudError` whose message is the command line's (`stud` prints the same
//! text after `error: `); a history that leads to no decision is a `NoDecisionError`, carrying
//! the protocol's `due` fields.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod game;
mod opened;
mod player;
mod query;
mod ranges;
mod solve;
mod strategy;

create_exception!(
    _stud,
    StudError,
    PyException,
    "A refusal of the stud library, with the command line's message."
);
create_exception!(
    _stud,
    NoDecisionError,
    StudError,
    "A hand history that is valid but leads to no betting decision: `due` says what is due \
     (a card to a seat, or the hand over with its payoffs), as the protocol's reply does."
);

/// `e` with its causes, as the command line prints an error (`error: {e:#}`).
pub(crate) fn stud_error(e: anyhow::Error) -> PyErr {
    StudError::new_err(format!("{e:#}"))
}

/// `value` as the Python object the `json` module reads it as (dicts, lists, numbers, strings,
/// `None`): headers and replies are small, so one text round trip keeps the mapping the json
/// module's.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// The module.
#[pymodule]
fn _stud(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("StudError", py.get_type::<StudError>())?;
    m.add("NoDecisionError", py.get_type::<NoDecisionError>())?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(game::deck, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(query::query, m)?)?;
    m.add_function(wrap_pyfunction!(query::resolve, m)?)?;
    m.add_class::<player::Player>()?;
    m.add_class::<player::Decision>()?;
    m.add_class::<strategy::StrategyFile>()?;
    m.add_class::<ranges::Ranges>()?;
    m.add("BOT_NAMES", solver::bot::BOT_NAMES.to_vec())?;
    Ok(())
}
