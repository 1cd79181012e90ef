//! A cold re-solving player (`FILE:resolve,cold`, [`super::Options::cold`]): read from its spec,
//! and the same answers as the warm one without a class looked up before the last street.

use super::{resolve_spec, Budget, Options, ResolvingPlayer, DEFAULT_PLAYER_ITERATIONS};
use crate::bot::{Player, StrategyPlayer};
use abstraction::rules::GameDef;

#[test]
fn cold_is_read_after_the_budget_with_or_without_a_floor_and_once() {
    let parse = |s| resolve_spec(s).map(|r| r.map_err(|e| e.to_string()));
    let cold = |floor| Options {
        cold: true,
        floor,
        ..Default::default()
    };
    let default = Budget::Iterations(DEFAULT_PLAYER_ITERATIONS);
    let floor = super::DEFAULT_FLOOR;
    assert_eq!(
        parse("f.strat:resolve,cold"),
        Some(Ok(("f.strat", default, cold(floor))))
    );
    for spec in [
        "f.strat:resolve=30,floor=0.2,cold",
        "f.strat:resolve=30,cold,floor=0.2",
    ] {
        assert_eq!(
            parse(spec),
            Some(Ok(("f.strat", Budget::Iterations(30), cold(0.2)))),
            "{spec}"
        );
    }
    for bad in ["cold,cold", "floor=0.2,floor=0.3", "cold,", "warm"] {
        let spec = format!("f.strat:resolve,{bad}");
        let e = resolve_spec(&spec).unwrap().unwrap_err().to_string();
        assert!(
            e.contains(",cold") && e.contains("at most once"),
            "{spec}: {e}"
        );
    }
}

#[test]
fn a_cold_player_answers_as_the_warm_one_and_looks_no_class_up_before_the_last_street() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let def = GameDef::preset("5stud").unwrap();
    let player = |cold| {
        let options = Options {
            cold,
            ..Default::default()
        };
        let blueprint = StrategyPlayer::open(path, &def).unwrap();
        ResolvingPlayer::new(blueprint, Budget::Iterations(10), options).unwrap()
    };
    let (warm, cold) = (player(false), player(true));
    assert_eq!(cold.name(), format!("{path}:resolve=10,cold"));
    let (_, _, options) = resolve_spec(cold.name()).unwrap().unwrap();
    assert!(options.cold, "the name reads back as a cold player");
    let last = def.streets.len() - 1;
    let mut reached = 0;
    for seed in 0..6 {
        super::tests::rows_side_by_side(&def, seed, &warm, &cold, |st, a, b| {
            assert_eq!(a, b, "seed {seed}, street {}", st.street());
            let kept = cold.class_cache().len().unwrap();
            if st.street() < last {
                assert_eq!(kept, 0, "a class looked up on street {}", st.street());
                assert!(warm.class_cache().len().unwrap() > 0);
            } else {
                assert!(kept > 0, "the last street's replay keeps its classes");
                reached += 1;
            }
        });
        // A hand that ended sooner left the cold player's cache empty: the next one is tried.
        if reached > 0 {
            return;
        }
    }
    panic!("no hand reached the last street");
}
