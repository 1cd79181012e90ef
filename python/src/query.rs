//! `query`: `stud query`'s answer at a spot of a strategy file (a real game's, heads-up or
//! multiway, or a walkable game's), from the library's dispatch that answers the command
//! ([`solver::query::file`]), as the dicts `stud query --json` and `stud query --values
//! --json` print.

use crate::opened::Opened;
use crate::{json_to_py, stud_error};
use anyhow::bail;
use pyo3::prelude::*;
use solver::bot::BOT_NAMES;
use solver::players::strategy_spec;
use solver::query::file::{self, Ask};
use solver::query::resolve::{self as resolving, DEFAULT_ITERATIONS};
use solver::query::spot::parse_spot;
use solver::resolve::{Budget, DEFAULT_FLOOR, MAX_ITERATIONS};
use solver::values::{default_samples, Options, MAX_SAMPLES, MIN_SAMPLES};
use std::path::Path;

/// `stud query SPEC SPOT [--hand HAND] [--ranges] --json` as a dict: `spec` a strategy file (a
/// real game's betting-tree or multiway file, or a walkable game's public-tree file), optionally with how its rows are played
/// (`FILE:pure`, `FILE:threshold=0.15`: `--play`), `spot` the command's spot notation
/// (`"3c 8d pb cc | Qs 2h x b"`), `hand` the cards of the player to act (`"As Kd"`, `"(As Kd)
/// 8d"`; default every bucket), `ranges` each seat's range reaching the spot and the
/// strategy by hand class (the rows as stored; without `hand`; a real game's, heads-up or
/// multiway: each live seat's). `values`: also `stud query --values
/// --json`'s answer (the value of each legal action, for `hand` and by hand class; `samples`
/// deals of the unknown cards from `seed` where estimated, by default 2000 heads-up and at
/// three seats, 2000 × 9 / seats² at a bigger table), returned second (else `None`).
#[pyfunction]
#[pyo3(signature = (spec, spot = "", *, hand = None, ranges = false, values = false,
                    samples = None, seed = 1))]
#[allow(clippy::too_many_arguments)]
pub fn query<'py>(
    py: Python<'py>,
    spec: &str,
    spot: &str,
    hand: Option<&str>,
    ranges: bool,
    values: bool,
    samples: Option<usize>,
    seed: u64,
) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    let values = values.then_some((samples, seed));
    let (answer, values) = py
        .detach(|| answer_json(spec, spot, hand, ranges, values))
        .map_err(stud_error)?;
    let values = values.map(|v| json_to_py(py, &v)).transpose()?;
    Ok((json_to_py(py, &answer)?, values))
}

/// The answer of [`query`], as `stud query --json` writes it, and `--values`' when asked.
fn answer_json(
    spec: &str,
    spot: &str,
    hand: Option<&str>,
    ranges: bool,
    values: Option<(Option<usize>, u64)>,
) -> anyhow::Result<(serde_json::Value, Option<serde_json::Value>)> {
    if BOT_NAMES.contains(&spec) {
        bail!("`{spec}` is a bot: it has no strategy file to query");
    }
    let (path, play) = strategy_spec(spec)?;
    if ranges && hand.is_some() {
        bail!("ranges=True shows every holding's range: give no hand with it");
    }
    if let (true, Some(p)) = (ranges || values.is_some(), play) {
        bail!("{spec}: the ranges and the values read the rows as stored; drop `:{p}`");
    }
    if let Some((Some(n), _)) = values {
        if !(MIN_SAMPLES..=MAX_SAMPLES).contains(&n) {
            bail!("samples={n}: from {MIN_SAMPLES} to {MAX_SAMPLES}");
        }
    }
    let steps = parse_spot(spot)?;
    let opened = crate::opened::open(path)?;
    // A real game's file is kept as its player, which the ranges and the values both read.
    let player = match &*opened {
        Opened::Player(player) => Some(player),
        Opened::File(_) => None,
    };
    let (file, path) = (opened.file(), Path::new(path));
    let ask = Ask { hand, play, ranges };
    let rows = file::answer(file, path, player, ask, &steps)?.json();
    // Unless asked, a table's estimate takes fewer samples, as `stud query --values` does.
    let seats = usize::from(file.game().seats);
    let values = values
        .map(|(samples, seed)| Options {
            samples: samples.unwrap_or_else(|| default_samples(seats)),
            seed,
        })
        .map(|o| file::values(file, path, player, &steps, hand, o, &|_, _, _| {}))
        .transpose()?;
    Ok((rows, values))
}

/// `stud query SPEC SPOT --hand HAND --resolve [--iterations N] [--safe] --json` as a dict:
/// the last street (or, from the street before it, the last two) re-solved at the spot from
/// the ranges the heads-up real game's strategy file `spec` implies, `hand`'s re-solved policy
/// beside the strategy's row, and what the re-solve reports.
#[pyfunction]
#[pyo3(signature = (spec, spot, hand, *, iterations = DEFAULT_ITERATIONS, safe = false))]
pub fn resolve<'py>(
    py: Python<'py>,
    spec: &str,
    spot: &str,
    hand: &str,
    iterations: u64,
    safe: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let answer = py
        .detach(|| resolve_json(spec, spot, hand, iterations, safe))
        .map_err(stud_error)?;
    json_to_py(py, &answer)
}

/// The answer of [`resolve`], as `stud query --resolve --json` writes it.
fn resolve_json(
    spec: &str,
    spot: &str,
    hand: &str,
    iterations: u64,
    safe: bool,
) -> anyhow::Result<serde_json::Value> {
    if BOT_NAMES.contains(&spec) {
        bail!("`{spec}` is a bot: it has no strategy file to query");
    }
    let (path, play) = strategy_spec(spec)?;
    if let Some(p) = play {
        bail!("{spec}: a re-solve reads the rows as stored; drop `:{p}`");
    }
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        bail!("iterations={iterations}: from 1 to {MAX_ITERATIONS}");
    }
    let steps = parse_spot(spot)?;
    let opened = crate::opened::open(path)?;
    let (file, path) = (opened.file(), Path::new(path));
    let ask = resolving::Ask {
        hand,
        budget: Budget::Iterations(iterations),
        safe,
        floor: DEFAULT_FLOOR,
    };
    Ok(resolving::answer(file, path, ask, &steps)?.json())
}
