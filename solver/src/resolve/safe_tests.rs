//! Safe re-solving on subgames with public chance below the root: the gadget's alternatives in
//! the units of the walk (against a brute-force sum through the rules engine), no opponent
//! hand gaining over them, and the whole game's exact exploitability never above the strategy
//! replaced, nested or not.

use super::chance_tests::{brute, yard_hand, AceLeaning};
use super::nest::nest_below;
use super::safe::solve_by;
use super::tests::kings_and_aces_blueprint;
use super::*;
use crate::best_response::{counterfactual_values, Play};
use crate::gadget::GadgetKind;

/// The alternative the gadget compares with is the opponent's counterfactual value in the
/// walk's units: following the strategy replaced, each opponent hand's value is the brute-force
/// sum over the re-solved seat's range and every card dealt below (to 1e-9), normalised by the
/// weight of the pairs that do not collide; its best response's value is at least that.
#[test]
fn the_gadget_s_alternatives_are_the_brute_force_counterfactual_values() {
    let (st, bets) = yard_hand("Qc Kd Ah Qd", 1, &[1, 2, 1]);
    let sub = Subgame::with_chance(&AceLeaning, &st, &bets, 1, Options::default()).unwrap();
    let avg = sub.policy_of(&AceLeaning).unwrap();
    let n = sub.hands.len();
    let r0 = &sub.ranges[0];
    let weight: f64 = (0..n)
        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
        .map(|(a, b)| r0[a] * sub.ranges[1][b])
        .sum();
    let follow = counterfactual_values(&sub.tree, &avg, 1, Play::Follow, r0);
    let safety = sub.safety_against(&avg, 0, GadgetKind::Resolve).unwrap();
    let root = sub.state(0).unwrap();
    for h1 in (0..n).filter(|&h| safety.possible[h]) {
        let mut sum = 0.0;
        for h0 in (0..n).filter(|&h0| h0 != h1 && r0[h0] > 0.0) {
            let mut s = root.clone();
            s.show(0, &[sub.tree.hands[h0]]).unwrap();
            s.show(1, &[sub.tree.hands[h1]]).unwrap();
            sum -= r0[h0] * brute(&sub, &avg, 0, &s, [h0, h1]);
        }
        let want = sum / weight;
        assert!(
            (follow[h1] - want).abs() < 1e-9,
            "hand {h1}: {} {want}",
            follow[h1]
        );
        assert!(safety.alternative[h1] >= want - 1e-12, "hand {h1}");
    }
    // The hands showing on the board cannot be held: no gadget chooses them.
    let showing = (0..2).flat_map(|s| st.up_cards(s).to_vec());
    for c in showing {
        let h = sub.tree.hands.iter().position(|&x| x == c).unwrap();
        assert!(!safety.possible[h], "{c} shows");
    }
    // The strategy replaced, measured against its own alternatives, gains nothing: exactly.
    assert!(sub.opponent_gain(&avg, &safety).abs() < 1e-12);
}

/// Every second-street subgame of kings and aces (a 3-iteration blueprint), re-solved safely
/// through either gadget: no opponent hand's best response does better than against the
/// blueprint (to the solve's error), while the unsafe re-solve lets some gain; maxmargin's
/// smallest margin is at least the resolve gadget's.
#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_safe_re_solve_with_chance_below_holds_every_opponent_hand() {
    let (def, tree, player, _) = kings_and_aces_blueprint(3, "safe-holds");
    let (_, roots) = verify::lift_at(&def, &tree, &player, 1).unwrap();
    let options = Options {
        floor: 0.0,
        ..Default::default()
    };
    let budget = Budget::Iterations(400);
    let (mut checked, mut unsafe_gains) = (0, 0);
    for root in roots.iter().step_by(7) {
        let st = &root.state;
        let sub = Subgame::with_chance(&player, st, &root.bets, 1, options).unwrap();
        let seat = st.to_act().unwrap();
        let mut gains = Vec::new();
        for kind in [GadgetKind::Resolve, GadgetKind::Maxmargin] {
            let safety = sub.safety(&player, seat, kind).unwrap();
            let solved = sub.solve(budget, Some(&safety)).unwrap();
            gains.push(sub.opponent_gain(&solved.average(), &safety));
        }
        let safety = sub.safety(&player, seat, GadgetKind::Resolve).unwrap();
        let unsafe_solve = sub.solve(budget, None).unwrap().average();
        unsafe_gains += (sub.opponent_gain(&unsafe_solve, &safety) > 0.05) as usize;
        assert!(gains[0] < 0.01, "resolve: a hand gains {}", gains[0]);
        assert!(gains[1] < 0.01, "maxmargin: a hand gains {}", gains[1]);
        assert!(gains[1] <= gains[0] + 0.01, "{gains:?}");
        checked += 1;
    }
    assert!(checked >= 5, "{checked} subgames");
    assert!(
        unsafe_gains > 0,
        "no unsafe re-solve let a hand gain: the test shows nothing"
    );
}

/// The whole game's exact exploitability, kings and aces re-solved from its first street (the
/// last street's cards dealt inside each subgame, and below them the roots a nested re-solve
/// starts from): safe (either gadget) never above the blueprint's, and every safe first
/// re-solve holding each opponent hand to its alternative; the next street nested safely never
/// above the re-solve it nests below (unsafe or safe), where nesting unsafely may be.
#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn safe_and_safely_nested_re_solves_are_never_more_exploitable() {
    let (def, tree, player, _) = kings_and_aces_blueprint(3, "safe-whole");
    let measure = |method, nested, nested_method| {
        let options = Options {
            method,
            nested,
            nested_method,
            floor: 0.0,
            ..Default::default()
        };
        let budget = Budget::Iterations(300);
        verify::measure_from(&def, &tree, &player, 0, budget, options, &|_, _| {}).unwrap()
    };
    let (u, s, m) = (Method::Unsafe, Method::Safe, Method::Maxmargin);
    let plain = measure(u, false, u);
    let (blueprint, unsafe_first) = (plain.blueprint.chips, plain.resolved.chips);
    assert_eq!((plain.safe_solves, plain.max_opponent_gain), (0, None));
    let tolerance = 2e-3;
    for method in [s, m] {
        let safe = measure(method, false, u);
        let first = safe.resolved.chips;
        assert!(
            first <= blueprint + tolerance,
            "{method:?}: {first} > {blueprint}"
        );
        // One safe re-solve per seat and subgame, each opponent hand held to its alternative.
        assert_eq!(safe.safe_solves, 2 * safe.subgames);
        let gain = safe.max_opponent_gain.unwrap();
        assert!(gain < 0.01, "{method:?}: a hand gains {gain}");
        let nested = measure(method, true, method).resolved.chips;
        assert!(
            nested <= first + tolerance,
            "{method:?} nested: {nested} > {first}"
        );
    }
    for method in [s, m] {
        let nested = measure(u, true, method).resolved.chips;
        assert!(
            nested <= unsafe_first + tolerance,
            "unsafe, nested {method:?}: {nested} > {unsafe_first}"
        );
    }
}

/// A nested safe re-solve below a solve it cannot improve keeps its figure: nesting an
/// equilibrium of the subgame (400 iterations) safely leaves the subgame's exploitability
/// where it was, to the solves' error.
#[test]
fn nesting_safely_below_a_near_equilibrium_keeps_it() {
    let (def, tree, player, _) = kings_and_aces_blueprint(3, "safe-nest");
    let (_, roots) = verify::lift_at(&def, &tree, &player, 0).unwrap();
    let sub = Subgame::with_chance(
        &player,
        &roots[0].state,
        &roots[0].bets,
        0,
        Options::default(),
    )
    .unwrap();
    let budget = Budget::Iterations(400);
    let mut average = solve_by(&sub, budget, Method::Unsafe, &[], false)
        .unwrap()
        .average;
    let before = sub.exploitability(&average).0;
    let (made, _) = nest_below(&sub, &mut average, budget, Method::Safe, false).unwrap();
    assert!(made > 0);
    let after = sub.exploitability(&average).0;
    assert!(after <= before + 2e-3, "{after} > {before}");
}

/// The safe fallback keeps the bound: re-solves of one to five iterations, some letting an
/// opponent hand gain, kept by `keep_bound` (mixed with the strategy replaced or replaced by
/// it) let none gain beyond the rows' single precision; and a strategy's realization weights,
/// read back row by row, are the strategy.
#[test]
fn the_fallback_keeps_every_opponent_hand_to_its_alternative() {
    use super::safe::{keep_bound, realization, Kept};
    let (st, bets) = yard_hand("Qc Kd Ah Qd", 1, &[1, 2, 1]);
    let options = Options {
        floor: 0.0,
        ..Default::default()
    };
    let sub = Subgame::with_chance(&AceLeaning, &st, &bets, 1, options).unwrap();
    let replaced = sub.policy_of(&AceLeaning).unwrap();
    let mut kept = Vec::new();
    for seat in 0..2 {
        let safety = sub
            .safety_against(&replaced, seat, GadgetKind::Resolve)
            .unwrap();
        for iterations in [1, 2, 5] {
            let budget = Budget::Iterations(iterations);
            let mut solved = sub.solve(budget, Some(&safety)).unwrap();
            let raw = solved.opponent_gain(&sub).unwrap();
            let how = keep_bound(&sub, &mut solved, &replaced);
            let gain = sub.opponent_gain(&solved.average(), &safety);
            assert!(
                gain <= 1e-6,
                "seat {seat}, {iterations}: {how:?} gains {gain}"
            );
            assert_eq!(how == Kept::Alone, raw <= GAIN_TOLERANCE, "{raw}");
            kept.push(how);
        }
        let real = realization(&sub.tree, &replaced, seat);
        for node in sub.tree.nodes.iter().filter(|n| n.kind == NodeKind::Action) {
            let k = node.num_children as usize;
            for b in 0..sub.tree.num_buckets[node.street as usize] as usize {
                let at = node.first_slot() as usize + b * k;
                let total: f64 = real[at..at + k].iter().sum();
                let row: f64 = replaced[at..at + k].iter().sum();
                if node.seat != seat || total <= 0.0 || row <= 0.0 {
                    continue;
                }
                for a in at..at + k {
                    assert!((real[a] / total - replaced[a] / row).abs() < 1e-12);
                }
            }
        }
    }
    assert!(
        kept.iter().any(|&k| k != Kept::Alone),
        "no re-solve needed the fallback: the test shows nothing"
    );
}
