//! Depth-limited subgames ([`super::depth`], [`super::leaves`]): the leaf values against a
//! brute-force sum through the rules engine, the depth-limited game against the full subgame,
//! and the leaf player's choice against every pure choice.

use super::chance_tests::{brute, yard_hand, AceLeaning};
use super::depth::{root_street_rows, Limited};
use super::leaves::{continuations, Frontier};
use super::*;
use crate::best_response::{value_in_ranges, Play};
use abstraction::tree::{Edge, NodeKind, NONE};

/// Yardstud's second round after a raise and a call (the last round's up cards dealt inside),
/// ranges and blueprint from [`AceLeaning`].
fn second_round() -> (Subgame, Vec<f64>) {
    let (st, bets) = yard_hand("Qc Kd Ah Qd", 1, &[1, 2, 1]);
    let sub = Subgame::with_chance(&AceLeaning, &st, &bets, 1, Options::default()).unwrap();
    let blue = sub.policy_of(&AceLeaning).unwrap();
    (sub, blue)
}

/// Pseudo-random weights in (0, 1] from a seed and an index.
fn weight(seed: u64, i: usize) -> f64 {
    (crate::cfr::mix(seed, i as u64) >> 11) as f64 / (1u64 << 53) as f64 + 1e-3
}

/// `slots` weights: pseudo-random at the root street's rows and the leaf rows after the tree's
/// slots, 0 elsewhere.
fn random_rows(sub: &Subgame, frontier: &Frontier, seed: u64, slots: usize) -> Vec<f64> {
    let mut rows = vec![0.0; slots];
    for (_, first, len) in root_street_rows(&sub.tree, 0, frontier) {
        for (at, w) in rows.iter_mut().enumerate().skip(first).take(len) {
            *w = weight(seed, at);
        }
    }
    for (at, w) in rows.iter_mut().enumerate().skip(sub.tree.num_slots) {
        *w = weight(seed, at);
    }
    rows
}

/// The slots of a depth-limited game of `frontier` on `sub`'s tree.
fn slots(sub: &Subgame, frontier: &Frontier) -> usize {
    sub.tree.num_slots + frontier.leaves * frontier.n * frontier.choices
}

#[test]
fn with_the_blueprint_s_leaves_the_limited_game_is_the_full_subgame() {
    let (sub, blue) = second_round();
    let frontier = Frontier::new(&sub.tree, 0, std::slice::from_ref(&blue)).unwrap();
    assert!(frontier.leaves >= 5, "{} leaves", frontier.leaves);
    let mut limited = Limited::new(&sub.tree, 0, &frontier, sub.ranges.clone(), 1).unwrap();
    let r = [&sub.ranges[0][..], &sub.ranges[1][..]];
    for seed in 0..3 {
        let rows = random_rows(&sub, &frontier, seed, slots(&sub, &frontier));
        // The full subgame: the same rows on the root street, the blueprint below it.
        let mut full = blue.clone();
        for (_, first, len) in root_street_rows(&sub.tree, 0, &frontier) {
            full[first..first + len].copy_from_slice(&rows[first..first + len]);
        }
        for seat in 0..2u8 {
            let want = value_in_ranges(&sub.tree, &full, seat, Play::Follow, r);
            let got = limited.value(&rows, seat, Play::Follow, Play::Follow);
            assert!(
                (got - want).abs() < 1e-9,
                "seed {seed} seat {seat}: {got} {want}"
            );
        }
    }
}

#[test]
fn leaf_values_are_a_brute_force_sum_over_the_cards_to_come() {
    let (sub, blue) = second_round();
    let t = &sub.tree;
    let conts = continuations(t, &blue, 0, sub.street, 4).unwrap();
    // Each bias moves some row of seat 0 below the cut.
    assert!(conts[1..].iter().all(|c| c != &blue));
    let frontier = Frontier::new(t, 0, &conts).unwrap();
    let n = frontier.n;
    let showing = |h: usize| t.bucket_table(t.nodes[0].board, 0)[h] == NONE;
    let mut compared = 0;
    for f in &frontier.nodes {
        let i = f.node as usize;
        // The state at the frontier node: its parent's, after the action leading to it.
        let parent = (0..t.nodes.len())
            .find(|&p| t.nodes[p].kind == NodeKind::Action && t.children(p).any(|c| c == i))
            .unwrap();
        let Edge::Action(a) = t.edges[i] else {
            panic!("node {i}: not reached by an action")
        };
        let mut st = sub.state(parent).unwrap().clone();
        st.apply(a).unwrap();
        for (c, cont) in conts.iter().enumerate().take(f.choices as usize) {
            let m = frontier.matrix(f, c);
            for h0 in (0..n).filter(|&h| !showing(h)) {
                for h1 in (0..n).filter(|&h| h != h0 && !showing(h)) {
                    let mut s = st.clone();
                    s.show(0, &[t.hands[h0]]).unwrap();
                    s.show(1, &[t.hands[h1]]).unwrap();
                    let want = sub.scale * brute(&sub, cont, i, &s, [h0, h1]);
                    let got = m[h0 * n + h1];
                    assert!(
                        (got - want).abs() < 1e-9,
                        "node {i} {c} {h0} {h1}: {got} {want}"
                    );
                    compared += 1;
                }
                assert_eq!(m[h0 * n + h0], 0.0, "a hand against itself");
            }
        }
    }
    assert!(compared >= 600, "{compared} pairs compared");
}

#[test]
fn the_leaf_player_s_choice_is_a_best_response_among_the_continuations() {
    let (sub, blue) = second_round();
    let t = &sub.tree;
    let leaf_seat = 1u8;
    let conts = continuations(t, &blue, leaf_seat, sub.street, 2).unwrap();
    let frontier = Frontier::new(t, 0, &conts).unwrap();
    // The leaf player's range on two hands: 2 choices at 2 hands of every leaf, few enough to
    // try every pure choice.
    let mut ranges = sub.ranges.clone();
    let held: Vec<usize> = (0..frontier.n)
        .filter(|&h| ranges[1][h] > 0.0)
        .take(2)
        .collect();
    for (h, w) in ranges[1].iter_mut().enumerate() {
        *w = if held.contains(&h) { 0.5 } else { 0.0 };
    }
    let mut limited = Limited::new(t, 0, &frontier, ranges, leaf_seat).unwrap();
    let total = slots(&sub, &frontier);
    let rows = random_rows(&sub, &frontier, 7, total);
    let best = limited.value(&rows, leaf_seat, Play::Follow, Play::BestReal);
    let infosets: Vec<usize> = (0..frontier.leaves)
        .flat_map(|l| {
            held.iter()
                .map(move |&h| t.num_slots + (l * frontier.n + h) * 2)
        })
        .collect();
    assert!(infosets.len() >= 10, "{} choices", infosets.len());
    let mut most = f64::NEG_INFINITY;
    let mut pure = rows.clone();
    for bits in 0..1u32 << infosets.len() {
        for (j, &at) in infosets.iter().enumerate() {
            let c = (bits >> j & 1) as usize;
            pure[at..at + 2].copy_from_slice(&[(c == 0) as u8 as f64, c as f64]);
        }
        most = most.max(limited.value(&pure, leaf_seat, Play::Follow, Play::Follow));
    }
    assert!(
        (best - most).abs() < 1e-12,
        "best response {best}, best pure choice {most}"
    );
    // And no mixed choice does better.
    for seed in 0..20 {
        let mixed = random_rows(&sub, &frontier, 100 + seed, total);
        let mut r = rows.clone();
        r[t.num_slots..].copy_from_slice(&mixed[t.num_slots..]);
        assert!(limited.value(&r, leaf_seat, Play::Follow, Play::Follow) <= best + 1e-12);
    }
}

#[test]
fn a_depth_limited_solve_converges_in_its_game() {
    let (sub, blue) = second_round();
    let t = &sub.tree;
    let conts = continuations(t, &blue, 1, sub.street, 4).unwrap();
    let frontier = Frontier::new(t, 0, &conts).unwrap();
    let mut limited = Limited::new(t, 0, &frontier, sub.ranges.clone(), 1).unwrap();
    let exploitability = |l: &mut Limited, rows: &[f64]| {
        let br0 = l.value(rows, 0, Play::BestReal, Play::BestReal);
        let br1 = l.value(rows, 1, Play::BestReal, Play::BestReal);
        (br0 + br1) / 2.0
    };
    for _ in 0..10 {
        limited.iterate();
    }
    let avg = limited.average().to_vec();
    let early = exploitability(&mut limited, &avg);
    for _ in 10..300 {
        limited.iterate();
    }
    let avg = limited.average().to_vec();
    let late = exploitability(&mut limited, &avg);
    assert!(
        late < early / 4.0 && late < 0.01,
        "after 10: {early}, after 300: {late}"
    );
}

#[test]
fn a_depth_limited_measure_writes_each_subgame_s_rows_where_they_belong() {
    // From the first street of kings and aces each subgame is the whole game given the door
    // cards, so the whole game's exploitability of the re-solved strategy is the subgames' own
    // (as measured inside each, at full depth): the depth-limited rows, and the blueprint's
    // below the cut, went to the public tree's slots of the same decisions and hands.
    let (def, tree, player, _) = super::tests::kings_and_aces_blueprint(3, "depth-whole");
    for (leaves, nested) in [(1, false), (4, true)] {
        let m = super::depth_verify::measure_limited(
            &def,
            &tree,
            &player,
            0,
            Budget::Iterations(10),
            Options::default(),
            super::depth_verify::Depth { leaves, nested },
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(m.subgames, 56);
        assert!(
            (m.resolved.chips - m.mean_subgame_resolved).abs() < 1e-6,
            "{leaves}: {m:?}"
        );
        assert!(m.mean_subgame_resolved != m.mean_subgame_blueprint, "{m:?}");
    }
}
