//! The reference games against OpenSpiel: CFR+ curves and game values (the figures),
//! and CFR / DCFR curves measured with open-spiel 1.x from PyPI (`pyspiel.CFRSolver`,
//! `open_spiel.python.algorithms.discounted_cfr.DCFRSolver`), exploitability = NashConv / 2.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::card_abstraction::Lossless;
use abstraction::rules::GameDef;
use abstraction::tree::{Budget, Tree};
use solver::best_response::exploitability;
use solver::cfr::{Algorithm, Solver};

fn solver(def: &GameDef, alg: Algorithm) -> Solver {
    let tree = Tree::build(
        def,
        &Lossless,
        BettingAbstraction::for_game(def),
        Budget::nodes(200_000_000),
    )
    .unwrap();
    Solver::new(tree, alg)
}

fn curve(def: &GameDef, alg: Algorithm, checkpoints: &[u64]) -> Vec<f64> {
    let mut s = solver(def, alg);
    checkpoints
        .iter()
        .map(|&c| {
            while s.iterations < c {
                s.iterate();
            }
            exploitability(&s.tree, &s.average).chips
        })
        .collect()
}

fn assert_close(got: &[f64], want: &[f64], rel: f64) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() / w < rel, "got {got:?}, want {want:?}");
    }
}

#[test]
fn kuhn_cfr_plus_matches_openspiel() {
    let got = curve(&GameDef::kuhn(), Algorithm::CfrPlus, &[10, 100, 1000]);
    assert_close(&got, &[0.0327, 0.00119, 0.0000874], 0.01);
}

#[test]
fn leduc_cfr_plus_matches_openspiel() {
    let got = curve(&GameDef::leduc(), Algorithm::CfrPlus, &[10, 100, 1000]);
    // OpenSpiel 1.x measures 0.000257152 at 1000; ours is 0.000258198 (0.4% apart).
    assert_close(&got, &[0.610, 0.0134, 0.000257], 0.01);
}

#[test]
fn game_values() {
    let mut s = solver(&GameDef::kuhn(), Algorithm::CfrPlus);
    for _ in 0..2000 {
        s.iterate();
    }
    let e = exploitability(&s.tree, &s.average);
    assert!((e.value_0 + 1.0 / 18.0).abs() < 1e-4, "{e:?}");
    let mut s = solver(&GameDef::leduc(), Algorithm::CfrPlus);
    for _ in 0..2000 {
        s.iterate();
    }
    let e = exploitability(&s.tree, &s.average);
    assert!((e.value_0 + 0.085606).abs() < 1e-4, "{e:?}");
}

#[test]
fn dcfr_matches_openspiel() {
    // OpenSpiel's DCFRSolver (alpha 1.5, beta 0, gamma 2, alternating updates) on Kuhn.
    let got = curve(&GameDef::kuhn(), Algorithm::DCFR, &[10, 100, 1000]);
    assert_close(
        &got,
        &[
            0.0227787839257636,
            0.0016663419703252247,
            0.00014650022811529828,
        ],
        1e-6,
    );
}

#[test]
fn vanilla_cfr_matches_openspiel() {
    // pyspiel.CFRSolver (regret matching, alternating updates, uniform averaging) on Leduc.
    let got = curve(&GameDef::leduc(), Algorithm::Cfr, &[10, 100, 1000]);
    assert_close(
        &got,
        &[0.888578983168769, 0.09571635300459762, 0.011817810259786288],
        1e-3,
    );
    // On Kuhn, OpenSpiel measures 0.0687, 0.00823, 0.000938. Ours takes another trajectory:
    // some regret increments are exactly 0 in OpenSpiel's history-by-history sums but +-1e-17 in
    // our hand-vector sums, and plain regret matching turns a 1e-17 regret into a pure action.
    // Rounding increments below 1e-13 to zero reproduces OpenSpiel's three figures to 12
    // digits (checked by hand); we keep exact arithmetic, and check convergence instead.
    let got = curve(&GameDef::kuhn(), Algorithm::Cfr, &[10, 100, 1000]);
    assert!(
        got[0] < 0.07 && got[1] < 0.009 && got[2] < 0.0013,
        "{got:?}"
    );
}
