use super::*;
use abstraction::rules::GameDef;
use abstraction::tree::Budget;

fn solver(def: &GameDef, alg: Algorithm) -> Solver {
    Solver::new(
        HistoryTree::build(def, Budget::nodes(1 << 26)).unwrap(),
        alg,
    )
}

/// NashConv after each of `points` iterations.
fn curve(def: &GameDef, alg: Algorithm, points: &[u64]) -> Vec<f64> {
    let mut s = solver(def, alg);
    points
        .iter()
        .map(|&t| {
            while s.iterations < t {
                s.iterate();
            }
            nash_conv(&s.tree, &s.average_strategy()).total()
        })
        .collect()
}

fn assert_close(got: &[f64], want: &[f64], rel: f64) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= rel * w.abs(), "got {got:?}, want {want:?}");
    }
}

#[test]
fn heads_up_kuhn_matches_the_heads_up_solver() {
    // The heads-up figures of tests/reference_games.rs (OpenSpiel's CFR+ exploitability,
    // NashConv / 2), reached here by the other code path.
    let got = curve(&GameDef::kuhn(), Algorithm::CfrPlus, &[10, 100, 1000]);
    let half: Vec<f64> = got.iter().map(|g| g / 2.0).collect();
    assert_close(&half, &[0.0327, 0.00119, 0.0000874], 0.01);
}

#[test]
fn three_player_kuhn_cfr_plus_matches_openspiel() {
    // pyspiel.CFRPlusSolver on kuhn_poker(players=3), pyspiel.nash_conv of its average policy
    // (open_spiel 2.0.2 from PyPI; scripts/openspiel-multiway.py).
    let got = curve(
        &GameDef::kuhn_for(3).unwrap(),
        Algorithm::CfrPlus,
        &[10, 100, 1000],
    );
    assert_close(
        &got,
        &[
            0.14933017560455653,
            0.002954993635341685,
            3.202847659847241e-05,
        ],
        0.01,
    );
}

#[test]
fn three_player_kuhn_cfr_matches_openspiel() {
    // pyspiel.CFRSolver, as above.
    let got = curve(
        &GameDef::kuhn_for(3).unwrap(),
        Algorithm::Cfr,
        &[10, 100, 1000],
    );
    assert_close(
        &got,
        &[
            0.3124812059300961,
            0.03701562416744547,
            0.003922335433862945,
        ],
        0.01,
    );
}

#[test]
fn best_responses_gain_and_values_sum_to_zero() {
    // The uniform profile: no seat loses by best-responding, and the game is zero-sum.
    // deviation gains nothing against a profile that already contains the best response.
    let s = solver(&GameDef::kuhn_for(3).unwrap(), Algorithm::CfrPlus);
    let uniform = s.average_strategy();
    let nc = nash_conv(&s.tree, &uniform);
    for (b, v) in nc.best_response.iter().zip(&nc.on_policy) {
        assert!(b >= v, "{nc:?}");
    }
    assert!(nc.on_policy.iter().sum::<f64>().abs() < 1e-12);
}
