//! The vector-form best response against an independent brute force on Kuhn poker: every pure
//! strategy of the responder, played out hand by hand through the rules engine's own payoffs.

use abstraction::cards::Card;
use abstraction::rules::state::{Next, State};
use abstraction::rules::GameDef;
use abstraction::tree::{Edge, NodeKind, Tree};
use solver::best_response::{exploitability, value, Play};
use solver::cfr::{Algorithm, Solver};
use solver::session::{new_solver, Abstractions};

fn kuhn(iterations: u64) -> (GameDef, Solver) {
    let def = GameDef::kuhn();
    let mut s = new_solver(
        &def,
        &Abstractions::for_game(&def),
        Algorithm::CfrPlus,
        None,
    )
    .unwrap();
    for _ in 0..iterations {
        s.iterate();
    }
    (def, s)
}

/// The average strategy's probability of child `a` at node `node` for hand `h`.
fn prob(tree: &Tree, avg: &[f64], node: usize, h: usize, a: usize) -> f64 {
    let n = &tree.nodes[node];
    let k = n.num_children as usize;
    let row = &avg[n.first_slot() as usize + h * k..n.first_slot() as usize + h * k + k];
    let sum: f64 = row.iter().sum();
    if sum > 0.0 {
        row[a] / sum
    } else {
        1.0 / k as f64
    }
}

/// Expected payoff of `seat` playing the pure strategy `choice(node, hand) -> child` against the
/// average strategy, over the deal `cards` (seat 0's card, seat 1's card).
fn play(
    tree: &Tree,
    avg: &[f64],
    state: State,
    node: usize,
    cards: [Card; 2],
    seat: u8,
    choice: &dyn Fn(usize, usize) -> usize,
) -> f64 {
    let hand = |s: u8| {
        tree.hands
            .iter()
            .position(|&c| c == cards[s as usize])
            .unwrap()
    };
    match state.next() {
        Next::Deal { seat: Some(s), .. } => {
            let mut st = state.clone();
            st.deal(cards[s as usize]).unwrap();
            play(tree, avg, st, node, cards, seat, choice)
        }
        Next::Deal { .. } => unreachable!("Kuhn deals no public card"),
        Next::Act { seat: actor } => {
            assert_eq!(tree.nodes[node].kind, NodeKind::Action);
            let kids: Vec<usize> = tree.children(node).collect();
            let child_value = |a: usize| {
                let Edge::Action(act) = tree.edges[kids[a]] else {
                    unreachable!()
                };
                let mut st = state.clone();
                st.apply(act).unwrap();
                play(tree, avg, st, kids[a], cards, seat, choice)
            };
            if actor == seat {
                child_value(choice(node, hand(actor)))
            } else {
                (0..kids.len())
                    .map(|a| prob(tree, avg, node, hand(actor), a) * child_value(a))
                    .sum()
            }
        }
        Next::Over => state.payoffs().unwrap()[seat as usize] as f64,
    }
}

/// The best pure-strategy value of `seat` against the average strategy, by enumeration.
fn brute_force_best_response(def: &GameDef, tree: &Tree, avg: &[f64], seat: u8) -> f64 {
    let infosets: Vec<(usize, usize)> = (0..tree.nodes.len())
        .filter(|&i| tree.nodes[i].kind == NodeKind::Action && tree.nodes[i].seat == seat)
        .flat_map(|i| (0..tree.num_hands()).map(move |h| (i, h)))
        .collect();
    assert!(infosets
        .iter()
        .all(|&(i, _)| tree.nodes[i].num_children == 2));
    let mut best = f64::NEG_INFINITY;
    for mask in 0u32..1 << infosets.len() {
        let choice = |node: usize, h: usize| {
            let k = infosets.iter().position(|&x| x == (node, h)).unwrap();
            (mask >> k & 1) as usize
        };
        let mut v = 0.0;
        for &a in &tree.hands {
            for &b in &tree.hands {
                if a != b {
                    let s = State::new(def).unwrap();
                    v += play(tree, avg, s, 0, [a, b], seat, &choice) / 6.0;
                }
            }
        }
        best = best.max(v);
    }
    best
}

#[test]
fn best_response_matches_brute_force_on_a_flawed_strategy() {
    let (def, s) = kuhn(200);
    let mut avg = s.average.clone();
    // The flaw: seat 1 folds every king to a bet (the node after seat 0 bets).
    let tree = &s.tree;
    let bet = tree
        .children(0)
        .find(|&c| {
            matches!(
                tree.edges[c],
                Edge::Action(abstraction::rules::state::Action::CompleteBetRaise(_))
            )
        })
        .unwrap();
    let n = tree.nodes[bet];
    let king = tree
        .hands
        .iter()
        .position(|c| c.to_string() == "Kc")
        .unwrap();
    let row = n.first_slot() as usize + king * n.num_children as usize;
    avg[row] = 1.0; // fold
    avg[row + 1] = 0.0; // call
    for seat in 0..2u8 {
        let fast = value(tree, &avg, seat, Play::Best);
        let slow = brute_force_best_response(&def, tree, &avg, seat);
        assert!((fast - slow).abs() < 1e-12, "seat {seat}: {fast} vs {slow}");
    }
    let flawed = exploitability(tree, &avg);
    let sound = exploitability(tree, &s.average);
    assert!(flawed.chips > sound.chips + 0.01, "{flawed:?} vs {sound:?}");
    // Seat 0 gains by bluffing more: a king never calls.
    assert!(flawed.best_response_0 > -1.0 / 18.0 + 0.02, "{flawed:?}");
}

#[test]
fn best_response_matches_brute_force_on_the_uniform_strategy() {
    let (def, s) = kuhn(0);
    for seat in 0..2u8 {
        let fast = value(&s.tree, &s.average, seat, Play::Best);
        let slow = brute_force_best_response(&def, &s.tree, &s.average, seat);
        assert!((fast - slow).abs() < 1e-12, "seat {seat}: {fast} vs {slow}");
    }
}
