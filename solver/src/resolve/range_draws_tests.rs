//! A re-solving player whose ranges read estimated classes (`FILE:resolve,range-draws=N`,
//! [`super::Options::range_draws`]): read from its spec, refused where the file cannot give
//! them, the exact player's answers at the file's own budget, and other ranges below it.

use super::{resolve_spec, Budget, Options, ResolvingPlayer, DEFAULT_PLAYER_ITERATIONS};
use crate::bot::{Bet, Player, StrategyPlayer};
use abstraction::rules::{GameDef, Next, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut st = State::new(def).unwrap();
        let mut bets: Vec<Bet> = Vec::new();
        loop {
            match st.next() {
                Next::Over => break,
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                    continue;
                }
                Next::Act { .. } => {}
            }
            let (seat, legal) = (st.to_act().unwrap(), st.legal_actions());
            let (mut p, mut q) = (vec![0.0; legal.len()], vec![0.0; legal.len()]);
            a.policy(&st, &bets, seat, &legal, &mut p).unwrap();
            b.policy(&st, &bets, seat, &legal, &mut q).unwrap();
            assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{q:?}");
            if same || st.street() < last {
                // Before the last street both play the blueprint with its exact classes.
                assert_eq!(p, q, "seed {seed}, street {}", st.street());
            } else {
                reached += 1;
                differ |= p != q;
            }
            let mut probs = [0.0; 8];
            let action = crate::bot::choose(a, &st, &bets, &legal, &mut probs, &mut rng)
                .unwrap()
                .0;
            bets.push((st.street(), action));
            st.apply(action).unwrap();
        }
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
