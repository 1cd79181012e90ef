//! The depth-limited searching player ([`super::depth_player`]): its spec, and that it plays
//! what `stud eval resolve --leaves K` measures.

use super::depth_player::{depth_spec, DepthPlayer, DepthSpec};
use super::depth_verify::{measure_limited, Depth};
use super::tests::kings_and_aces_blueprint;
use super::*;

#[test]
fn depth_specs_name_the_leaves_the_street_and_the_options() {
    let parse = |s| depth_spec(s).map(|r| r.map_err(|e| e.to_string()));
    let spec = |leaves, from: &str, nested, iterations, floor| DepthSpec {
        leaves,
        from: from.to_string(),
        nested,
        iterations,
        floor,
    };
    assert_eq!(
        parse("m.strat:depth=4,from=2nd").unwrap().unwrap(),
        (
            "m.strat",
            spec(4, "2nd", false, DEFAULT_PLAYER_ITERATIONS, DEFAULT_FLOOR)
        )
    );
    assert_eq!(
        parse("m.strat:mixed:depth=1,nested,from=3rd street,iterations=7,floor=0")
            .unwrap()
            .unwrap(),
        ("m.strat:mixed", spec(1, "3rd street", true, 7, 0.0))
    );
    assert!(parse("m.strat:resolve").is_none());
    assert!(parse("m.strat").is_none());
    for (bad, says) in [
        ("m.strat:depth=5,from=2nd", "1 to 4"),
        ("m.strat:depth=x,from=2nd", "1 to 4"),
        ("m.strat:depth=2", "say the street"),
        ("m.strat:depth=2,from=2nd,nested,nested", "not `nested`"),
        ("m.strat:depth=2,from=2nd,iterations=0", "iterations=N"),
        ("m.strat:depth=2,from=2nd,floor=2", "floor"),
        ("m.strat:depth=2,from=2nd,deep", "not `deep`"),
    ] {
        let e = parse(bad).unwrap().unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn a_depth_player_refuses_the_last_street_and_unknown_streets() {
    let (def, _, player, _) = kings_and_aces_blueprint(3, "depth-refuse");
    let spec = depth_spec("x:depth=2,from=3rd").unwrap().unwrap().1;
    let e = DepthPlayer::new(player, &def, &spec)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("before the last street"), "{e}");
    let (_, _, player, _) = kings_and_aces_blueprint(3, "depth-refuse-2");
    let spec = depth_spec("x:depth=2,from=9th").unwrap().unwrap().1;
    let e = DepthPlayer::new(player, &def, &spec)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("2nd street to 3rd street"), "{e}");
}

/// The player lifted onto kings and aces (ministud with two ranks: its every decision asked,
/// hand by hand) is exactly as exploitable as the evaluator's re-solved strategy, so each row
/// it plays is the evaluator's; and the search changed the blueprint.
fn plays_what_the_evaluator_measures(leaves: usize, nested: bool, name: &str) {
    let (def, tree, blueprint, _) = kings_and_aces_blueprint(3, name);
    let m = measure_limited(
        &def,
        &tree,
        &blueprint,
        0,
        Budget::Iterations(10),
        Options::default(),
        Depth { leaves, nested },
        &|_, _| {},
    )
    .unwrap();
    let spec = depth_spec(&format!("x:depth={leaves},from=2nd,iterations=10"))
        .unwrap()
        .unwrap()
        .1;
    let spec = DepthSpec { nested, ..spec };
    let player = DepthPlayer::new(blueprint, &def, &spec).unwrap();
    let played = verify::exploitability_of(&def, &player).unwrap();
    assert!(
        (played.chips - m.resolved.chips).abs() < 1e-9,
        "{leaves}, {nested}: played {played:?}, measured {m:?}"
    );
    assert!((m.resolved.chips - m.blueprint.chips).abs() > 1e-6, "{m:?}");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_depth_player_plays_what_the_evaluator_measures() {
    plays_what_the_evaluator_measures(4, false, "depth-eval");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_nested_depth_player_plays_what_the_evaluator_measures() {
    plays_what_the_evaluator_measures(2, true, "depth-eval-nested");
}
