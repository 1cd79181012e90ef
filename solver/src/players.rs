//! The player a command line names, of any kind: a built-in bot, a heads-up or multiway
//! strategy file played as its spec says, or a file whose last street is re-solved at play time.
//! It sits above the bots and re-solving because it names them all; a player's own module
//! knows only itself.

use crate::bot::{
    AlwaysCall, AlwaysRaise, Heuristic, MultiwayPlayer, Player, StrategyPlayer, Uniform, BOT_NAMES,
};
use crate::purify::Purification;
use crate::resolve::{resolve_spec, ResolvingPlayer};
use crate::strategy_file::multiway::is_multiway_file;
use abstraction::rules::GameDef;
use std::path::Path;

/// The player a command line names: a built-in bot (`random`, `call`, `raise`, `heuristic`) or
/// a strategy file (heads-up or multiway) solved for `def`, optionally followed by how its rows are played
/// (`FILE:mixed`, `FILE:pure`, `FILE:threshold=T`; see [`strategy_spec`]), then optionally by
/// `:resolve` (`:resolve=N` iterations, `:resolve=Nms`; `:resolve-safe…` the safe re-solve;
/// `,floor=F` after any of them, the ranges' floor):
/// its last street re-solved at play time ([`ResolvingPlayer`]).
pub fn load(spec: &str, def: &GameDef) -> anyhow::Result<Box<dyn Player>> {
    Ok(match spec {
        "random" => Box::new(Uniform),
        "call" => Box::new(AlwaysCall),
        "raise" => Box::new(AlwaysRaise),
        "heuristic" => Box::new(Heuristic::default()),
        _ if is_multiway_spec(spec) => Box::new(open_multiway(spec, def)?),
        _ if Path::new(spec).exists() => Box::new(open_strategy(spec, def)?),
        _ => match resolve_spec(spec) {
            Some(parsed) => {
                let (blueprint, budget, options) = parsed?;
                Box::new(ResolvingPlayer::new(
                    open_strategy(blueprint, def)?,
                    budget,
                    options,
                ))
            }
            None => Box::new(open_strategy(spec, def)?),
        },
    })
}

/// The strategy player `spec` names (a strategy file, optionally `:mixed`, `:pure` or
/// `:threshold=T`), solved for `def`.
pub fn open_strategy(spec: &str, def: &GameDef) -> anyhow::Result<StrategyPlayer> {
    if !Path::new(spec).exists() && resolve_spec(spec).is_some() {
        anyhow::bail!(
            "`{spec}`: a re-solving player plays in match, serve and play; give the strategy \
             file here without `:resolve`"
        );
    }
    let (path, purification) = strategy_spec(spec)?;
    let player = StrategyPlayer::open(path, def)?;
    Ok(match purification {
        Some(p) => player.with_purification(p),
        None => player,
    })
}

/// Whether `spec` names a multiway strategy file, played as written after it or not.
fn is_multiway_spec(spec: &str) -> bool {
    strategy_spec(spec).is_ok_and(|(path, _)| is_multiway_file(Path::new(path)))
}

/// The player of a multiway strategy file `spec` names (the file, optionally `:mixed`,
/// `:pure` or `:threshold=T`, read by [`strategy_spec`] as a heads-up file's spec is), solved
/// for `def`.
pub fn open_multiway(spec: &str, def: &GameDef) -> anyhow::Result<MultiwayPlayer> {
    if !Path::new(spec).exists() && resolve_spec(spec).is_some() {
        anyhow::bail!(
            "`{spec}`: re-solving is heads-up; a multiway strategy file plays without `:resolve`"
        );
    }
    let (path, purification) = strategy_spec(spec)?;
    let player = MultiwayPlayer::open(path)?.playing(def)?;
    Ok(match purification {
        Some(p) => player.with_purification(p),
        None => player,
    })
}

/// Splits a strategy spec into its file and the purification written after the last `:`, if
/// any: a path that exists is taken whole (a file name may hold a colon).
pub fn strategy_spec(spec: &str) -> anyhow::Result<(&str, Option<Purification>)> {
    let exists = |p: &str| Path::new(p).exists();
    if exists(spec) {
        return Ok((spec, None));
    }
    // `FILE...:resolve`: the file and purification before it (the game is the file's); a bad
    // budget or floor is refused for what it is, not as a way to play the file.
    if let Some(parsed) = resolve_spec(spec) {
        return strategy_spec(parsed?.0);
    }
    match spec.rsplit_once(':') {
        Some((path, rule)) if exists(path) => Ok((path, Some(rule.parse()?))),
        _ => anyhow::bail!(
            "`{spec}` is neither a bot ({}) nor a strategy file",
            BOT_NAMES.join(", ")
        ),
    }
}
