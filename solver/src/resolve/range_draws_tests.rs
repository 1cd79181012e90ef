//! A re-solving player whose ranges read estimated classes (`FILE:resolve,range-draws=N`,
//! [`super::Options::range_draws`]): read from its spec, refused where the file cannot give
//! them, the exact player's answers at the file's own budget, and other ranges below it.

use super::{resolve_spec, Budget, Options, ResolvingPlayer, DEFAULT_PLAYER_ITERATIONS};
use crate::bot::{Player, StrategyPlayer};
use abstraction::rules::GameDef;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");

#[test]
fn range_draws_are_read_after_the_budget_once_and_positive() {
    let parse = |s| resolve_spec(s).map(|r| r.map_err(|e| e.to_string()));
    let drawn = |n, cold| Options {
        range_draws: Some(n),
        cold,
        ..Default::default()
    };
    let default = Budget::Iterations(DEFAULT_PLAYER_ITERATIONS);
    assert_eq!(
        parse("f.strat:resolve,range-draws=16"),
        Some(Ok(("f.strat", default, drawn(16, false))))
    );
    assert_eq!(
        parse("f.strat:resolve=30,cold,range-draws=8"),
        Some(Ok(("f.strat", Budget::Iterations(30), drawn(8, true))))
    );
    for bad in ["range-draws=0", "range-draws=x", "range-draws="] {
        let spec = format!("f.strat:resolve,{bad}");
        let e = resolve_spec(&spec).unwrap().unwrap_err().to_string();
        assert!(e.contains("positive number of outer draws"), "{spec}: {e}");
    }
    let twice = "f.strat:resolve,range-draws=8,range-draws=8";
    let e = resolve_spec(twice).unwrap().unwrap_err().to_string();
    assert!(e.contains("at most once"), "{e}");
}

fn player(def: &GameDef, range_draws: Option<u32>) -> anyhow::Result<ResolvingPlayer> {
    let options = Options {
        cold: true,
        range_draws,
        ..Default::default()
    };
    let blueprint = StrategyPlayer::open(FILE, def)?;
    ResolvingPlayer::new(blueprint, Budget::Iterations(10), options)
}

#[test]
fn more_draws_than_the_file_rolls_out_are_refused_naming_the_file() {
    let def = GameDef::preset("5stud").unwrap();
    let built = match StrategyPlayer::open(FILE, &def).unwrap().file() {
        crate::strategy_file::StrategyFile::Betting(f) => f.bucketing().outer_draws(),
        _ => panic!("a betting-tree file"),
    };
    let e = player(&def, Some(built + 1)).err().unwrap().to_string();
    assert!(
        e.contains(FILE) && e.contains(&format!("1 to {built}")),
        "{e}"
    );
}

/// Plays hands of five-card stud with `a` in seat 0's seat and compares `a`'s and `b`'s rows
/// at every decision: `same` says whether they must be equal everywhere or differ somewhere
/// on the last street. Returns the last-street decisions compared.
fn compare(def: &GameDef, a: &ResolvingPlayer, b: &ResolvingPlayer, same: bool) -> usize {
    let last = def.streets.len() - 1;
    let (mut reached, mut differ) = (0, false);
    for seed in 0..12 {
        super::tests::rows_side_by_side(def, seed, a, b, |st, p, q| {
            if same || st.street() < last {
                // Before the last street both play the blueprint with its exact classes.
                assert_eq!(p, q, "seed {seed}, street {}", st.street());
            } else {
                reached += 1;
                differ |= p != q;
            }
        });
    }
    assert!(
        same || differ,
        "estimated ranges never moved a last-street row"
    );
    reached
}

#[test]
fn at_the_files_own_draws_the_ranges_are_exact_and_fewer_draws_change_only_the_last_street() {
    let def = GameDef::preset("5stud").unwrap();
    let exact = player(&def, None).unwrap();
    let built = match exact.blueprint().file() {
        crate::strategy_file::StrategyFile::Betting(f) => f.bucketing().outer_draws(),
        _ => panic!("a betting-tree file"),
    };
    let full = player(&def, Some(built)).unwrap();
    assert_eq!(
        full.name(),
        format!("{FILE}:resolve=10,cold,range-draws={built}")
    );
    let (_, _, options) = resolve_spec(full.name()).unwrap().unwrap();
    assert_eq!(options.range_draws, Some(built), "the name reads back");
    compare(&def, &exact, &full, true);
    let cheap = player(&def, Some(2)).unwrap();
    assert!(compare(&def, &exact, &cheap, false) > 0);
}
