//! `Player`: a bot or a strategy file, asked for its policy at the decision a hand's PHH
//! actions lead to, as `stud serve` answers a request (`solver::bot::protocol::spot`, then the
//! player's own policy).

use crate::game::Game;
use crate::{json_to_py, stud_error, NoDecisionError, StudError};
use abstraction::cards::Card;
use abstraction::rules::{Action, GameDef, Next, State};
use anyhow::{bail, Context};
use pyo3::prelude::*;
use solver::bot::protocol::{due, spot, NoDecision};
use solver::bot::{Answer, AveragePlayer, Bet, Player as Plays, BOT_NAMES};
use solver::players::{load, load_own};
use solver::resolve::verify::exploitability_of;
use std::sync::{Arc, RwLock};

/// A player as the command line names it: a bot (`random`, `call`, `raise`, `heuristic`) or a
/// strategy file, optionally with how its rows are played (`FILE:mixed`, `FILE:pure`,
/// `FILE:threshold=T`, `FILE:resolve`, …: docs/guide/bots.md). Safe to share between threads:
/// a decision runs without the GIL.
#[pyclass(frozen, module = "stud._stud")]
pub struct Player {
    /// The spec it was made from.
    spec: String,
    /// Its name in reports (the spec as `players::load` names it).
    name: String,
    /// The player loaded for each game asked so far: a strategy file is checked against a game
    /// once, when first asked in it (a handful of games at most: a linear search, no hashing).
    loaded: RwLock<Vec<(GameDef, Arc<dyn Plays>)>>,
    /// Made in memory, not from a spec: it plays its one game only (a solve's average).
    fixed: bool,
}

impl Player {
    /// The player of a walked solve's unrounded average (see `solve`), which plays the game
    /// solved and no other.
    pub(crate) fn of_average(player: AveragePlayer) -> Player {
        let def = player.average().game.clone();
        let name = player.name().to_string();
        Player {
            spec: name.clone(),
            name,
            loaded: RwLock::new(vec![(def, Arc::new(player))]),
            fixed: true,
        }
    }

    /// The player loaded for `def`, loading it the first time.
    fn for_game(&self, def: &GameDef) -> anyhow::Result<Arc<dyn Plays>> {
        let found = |v: &Vec<(GameDef, Arc<dyn Plays>)>| {
            v.iter().find(|(d, _)| d == def).map(|(_, p)| Arc::clone(p))
        };
        if let Some(p) = found(
            &self
                .loaded
                .read()
                .expect("never poisoned: no panic holds it"),
        ) {
            return Ok(p);
        }
        if self.fixed {
            bail!("{} plays the game it solved only", self.name);
        }
        let player: Arc<dyn Plays> = Arc::from(load(&self.spec, def)?);
        let mut loaded = self
            .loaded
            .write()
            .expect("never poisoned: no panic holds it");
        if let Some(p) = found(&loaded) {
            return Ok(p);
        }
        loaded.push((def.clone(), Arc::clone(&player)));
        Ok(player)
    }
}

#[pymethods]
impl Player {
    /// Loads the player `spec` names; a strategy file is opened (memory-mapped, every byte
    /// checked) now, so that a bad spec fails here.
    /// `warm` computes a heads-up file's 3rd-street bucket table first (about 10 s for a
    /// seven-card file on 2 cores; then 3rd-street decisions look their bucket up: the same answers).
    #[new]
    #[pyo3(signature = (spec, warm = false))]
    fn new(py: Python<'_>, spec: String, warm: bool) -> PyResult<Player> {
        let (name, loaded) = py
            .detach(|| -> anyhow::Result<_> {
                // A bot plays any game: it is loaded for each game asked (for nothing). A
                // strategy file is opened once, in its own game.
                let Some((def, player)) = load_own(&spec, warm)? else {
                    return Ok((spec.clone(), Vec::new()));
                };
                let player: Arc<dyn Plays> = Arc::from(player);
                Ok((player.name().to_string(), vec![(def, player)]))
            })
            .map_err(stud_error)?;
        Ok(Player {
            spec,
            name,
            loaded: RwLock::new(loaded),
            fixed: false,
        })
    }

    /// The player's name, as matches report it.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The game a strategy file was solved for (`None` for a bot, which plays any).
    #[getter]
    fn game<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let loaded = self
            .loaded
            .read()
            .expect("never poisoned: no panic holds it");
        let bot = BOT_NAMES.contains(&self.spec.as_str()) && !self.fixed;
        match (bot, loaded.first()) {
            (false, Some((def, _))) => {
                let v = serde_json::to_value(def).map_err(|e| stud_error(e.into()))?;
                Ok(Some(json_to_py(py, &v)?))
            }
            _ => Ok(None),
        }
    }

    /// The player's policy at the decision `actions` (PHH action strings, deals included: `d
    /// dh p1 AsKs7h`, `p2 pb`, `p1 cbr 5`, `??` for an unseen card) lead to in `game`. Raises
    /// `NoDecisionError` when no decision is due, `StudError` when the history does not replay
    /// or the player cannot answer (a strategy file asked in another game).
    fn decide(&self, py: Python<'_>, game: &Game, actions: Vec<String>) -> PyResult<Decision> {
        let result = py.detach(|| -> Result<Decision, Refused> {
            let player = self.for_game(&game.def).map_err(Refused::Player)?;
            let spot = spot(game.history.clone(), &actions, game.profile)?;
            let mut probs = vec![0.0; spot.legal.len()];
            let answer = player
                .policy(&spot.state, &spot.bets, spot.seat, &spot.legal, &mut probs)
                .map_err(|e| Refused::Player(e.context(player.name().to_string())))?;
            Ok(Decision {
                seat: spot.seat,
                street: spot.state.street(),
                legal: spot.legal.iter().map(ToString::to_string).collect(),
                probs,
                fallback: answer == Answer::Fallback,
                unreached: answer == Answer::Unreached,
            })
        });
        result.map_err(|e| e.into_py(py))
    }

    /// The player's policy in any preset game (`kuhn`, `leduc`, the walkable stud games as
    /// well as the real ones), at the decision `events` lead to from the deal: each event a
    /// card (`Kc`, dealt where the rules deal next: `deck(game)` lists the game's cards) or the
    /// seat to act's action (`f`, `cc`, `pb`, `cbr 2`, or `cbr` for the one completion, bet or
    /// raise a fixed-limit spot allows). What OpenSpiel's Kuhn and Leduc are walked with.
    fn decide_events(&self, py: Python<'_>, game: &str, events: Vec<String>) -> PyResult<Decision> {
        let def = GameDef::preset(game).map_err(|e| stud_error(e.into()))?;
        let result = py.detach(|| -> Result<Decision, Refused> {
            let player = self.for_game(&def).map_err(Refused::Player)?;
            let (state, bets) = walk(&def, &events).map_err(Refused::Player)?;
            let seat = match state.next() {
                Next::Act { seat } => seat,
                other => {
                    let due = due(&other, state.payoffs());
                    let msg = format!("no decision is due: {other}");
                    return Err(Refused::History(NoDecision::NotDue(msg, due)));
                }
            };
            let legal = state.legal_actions();
            let mut probs = vec![0.0; legal.len()];
            let answer = player
                .policy(&state, &bets, seat, &legal, &mut probs)
                .map_err(|e| Refused::Player(e.context(player.name().to_string())))?;
            Ok(Decision {
                seat,
                street: state.street(),
                legal: legal.iter().map(ToString::to_string).collect(),
                probs,
                fallback: answer == Answer::Fallback,
                unreached: answer == Answer::Unreached,
            })
        });
        result.map_err(|e| e.into_py(py))
    }

    /// The player's exact exploitability in the walkable heads-up game `game` (`kuhn`,
    /// `leduc`, `ministud`, …), as the library's best response measures its policy lifted onto
    /// the game's whole public tree: a dict of `chips` (per game, what OpenSpiel calls
    /// exploitability), `mbb`, `best_response_0`, `best_response_1` and `value_0`.
    fn exploitability<'py>(&self, py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyAny>> {
        let def = GameDef::preset(game).map_err(|e| stud_error(e.into()))?;
        let measured = py
            .detach(|| -> anyhow::Result<serde_json::Value> {
                let player = self.for_game(&def)?;
                let e = exploitability_of(&def, &*player)?;
                Ok(serde_json::to_value(e)?)
            })
            .map_err(stud_error)?;
        json_to_py(py, &measured)
    }

    fn __repr__(&self) -> String {
        format!("Player({:?})", self.spec)
    }
}

/// The rules engine's state after `events` (cards dealt where the rules deal next, and the
/// actions of the seat to act) from the deal of `def`, and the betting on the way.
fn walk(def: &GameDef, events: &[String]) -> anyhow::Result<(State, Vec<Bet>)> {
    let mut state = State::new(def)?;
    let mut bets = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let at = || format!("events[{i}] `{e}`");
        if let Ok(card) = e.parse::<Card>() {
            state.deal(card).with_context(at)?;
            continue;
        }
        if state.to_act().is_none() {
            bail!("{}: no decision is due: {}", at(), state.next());
        }
        let legal = state.legal_actions();
        let named = |a: &&Action| {
            a.to_string() == *e || (e == "cbr" && matches!(a, Action::CompleteBetRaise(_)))
        };
        let Some(&action) = legal.iter().find(named) else {
            let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
            bail!("{}: not a legal action here ({})", at(), legal.join(", "));
        };
        bets.push((state.street(), action));
        state.apply(action).with_context(at)?;
    }
    Ok((state, bets))
}

/// Why a decision was not answered (built without the GIL, raised with it).
pub(crate) enum Refused {
    /// The history leads to no decision, or does not replay.
    History(NoDecision),
    /// The player could not be loaded for the game or could not answer.
    Player(anyhow::Error),
}

impl From<NoDecision> for Refused {
    fn from(no: NoDecision) -> Refused {
        Refused::History(no)
    }
}

impl Refused {
    /// The Python exception: `NoDecisionError` with its `due` dict, else `StudError`.
    pub(crate) fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Refused::Player(e) => stud_error(e),
            Refused::History(NoDecision::Refused(msg)) => StudError::new_err(msg),
            Refused::History(NoDecision::NotDue(msg, due)) => {
                let err = NoDecisionError::new_err(msg);
                let due = json_to_py(py, &due).and_then(|d| err.value(py).setattr("due", d));
                match due {
                    Ok(()) => err,
                    Err(e) => e,
                }
            }
        }
    }
}

/// A player's answer at a decision: who acts, the legal actions (PHH: `f`, `cc`, `pb`, `cbr
/// 10`) and the probability of each.
#[pyclass(frozen, module = "stud._stud")]
pub struct Decision {
    /// The seat to act (0-based: `p1` is seat 0).
    #[pyo3(get)]
    seat: u8,
    /// The betting round, 0 for the first (third street in seven-card games).
    #[pyo3(get)]
    street: usize,
    /// Every legal action, PHH style, in the rules engine's order.
    #[pyo3(get)]
    legal: Vec<String>,
    /// The player's probability of each legal action (same order, summing to 1).
    #[pyo3(get)]
    probs: Vec<f64>,
    /// Whether the player's own policy gave no weight to any legal action and the answer is the
    /// defined fallback (all on the check or call), as the protocol marks it.
    #[pyo3(get)]
    fallback: bool,
    /// Whether a multiway file's row here was reached by its solve in no pot class, so the
    /// answer is the hand-strength bot's (as the protocol marks it: `unreached`).
    #[pyo3(get)]
    unreached: bool,
}

#[pymethods]
impl Decision {
    fn __repr__(&self) -> String {
        format!(
            "Decision(seat={}, street={}, legal={:?}, probs={:?}, fallback={}, unreached={})",
            self.seat,
            self.street,
            self.legal,
            self.probs,
            if self.fallback { "True" } else { "False" },
            if self.unreached { "True" } else { "False" }
        )
    }
}
