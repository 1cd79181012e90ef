//! Subgames with public chance below the root ([`Subgame::with_chance`]): their values against
//! a brute-force sum through the rules engine, and the whole game re-solved from its first
//! street against the exact best response.

use super::tests::kings_and_aces_blueprint;
use super::*;
use crate::best_response::{value_in_ranges, Play};
use crate::bot::{most_aggressive, passive, Answer, Bet, Player};
use abstraction::cards::Card;
use abstraction::rules::{Action, GameDef, Next, State};
use abstraction::tree::{Edge, NodeKind};

/// Raises with an ace showing or held more often than without, and mixes everywhere: a range
/// that is not uniform after it acts, and a strategy that reaches every node.
pub(super) struct AceLeaning;

impl Player for AceLeaning {
    fn name(&self) -> &str {
        "ace-leaning"
    }
    fn policy(
        &self,
        state: &State,
        _: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let aces = (state.down_cards(seat).iter().flatten())
            .chain(state.up_cards(seat))
            .filter(|c| c.rank() == abstraction::cards::Rank::ACE)
            .count();
        let strong = 0.2 + 0.3 * aces.min(2) as f64;
        probs.fill(0.1 / legal.len() as f64);
        probs[most_aggressive(legal)] += 0.9 * strong;
        probs[passive(legal)] += 0.9 * (1.0 - strong);
        Ok(Answer::Own)
    }
}

/// A yardstud hand dealt `up` (the up cards in the engine's order, down cards unknown), each
/// decision taking the action `pick` chooses from the legal ones, stopped at the first decision
/// of `street`; and its betting.
pub(super) fn yard_hand(up: &str, street: usize, pick: &[usize]) -> (State, Vec<Bet>) {
    let def = GameDef::yardstud();
    let mut st = State::new(&def).unwrap();
    let mut up = abstraction::cards::parse_cards(up).unwrap().into_iter();
    let mut bets = Vec::new();
    loop {
        match st.next() {
            Next::Deal {
                deal: abstraction::rules::Deal::Down,
                ..
            } => st.deal_unknown().unwrap(),
            Next::Deal { .. } => st.deal(up.next().unwrap()).unwrap(),
            Next::Act { .. } if st.street() == street => return (st, bets),
            Next::Act { .. } => {
                let legal = st.legal_actions();
                let a = legal[pick[bets.len() % pick.len()].min(legal.len() - 1)];
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            Next::Over => panic!("the hand ended before street {street}"),
        }
    }
}

/// Seat 0's value below `node` of `sub`'s tree (state `st`, both down cards known) when both
/// seats play the slot weights `avg`, each public card dealt uniformly from the cards neither
/// holds nor shows, each terminal's chips from the rules engine.
pub(super) fn brute(sub: &Subgame, avg: &[f64], node: usize, st: &State, hands: [usize; 2]) -> f64 {
    let t = &sub.tree;
    let n = t.nodes[node];
    match n.kind {
        NodeKind::Fold | NodeKind::Showdown => st.payoffs().unwrap()[0] as f64,
        NodeKind::Chance => {
            let kids: Vec<usize> = t
                .children(node)
                .filter(|&c| match t.edges[c] {
                    Edge::Card(card) => hands.iter().all(|&h| t.hands[h] != card),
                    _ => false,
                })
                .collect();
            let mut sum = 0.0;
            for &c in &kids {
                let Edge::Card(card) = t.edges[c] else {
                    unreachable!()
                };
                let mut next = st.clone();
                next.deal(card).unwrap();
                sum += brute(sub, avg, c, &next, hands);
            }
            sum / kids.len() as f64
        }
        NodeKind::Action => {
            let k = n.num_children as usize;
            let b = t.bucket_table(n.board, n.seat)[hands[n.seat as usize]] as usize;
            let at = n.first_slot() as usize + b * k;
            let mut row = avg[at..at + k].to_vec();
            crate::kernel::normalize(&mut row);
            let mut sum = 0.0;
            for (c, p) in t.children(node).zip(row) {
                let Edge::Action(a) = t.edges[c] else {
                    unreachable!()
                };
                let mut next = st.clone();
                next.apply(a).unwrap();
                sum += p * brute(sub, avg, c, &next, hands);
            }
            sum
        }
    }
}

#[test]
fn values_with_public_chance_are_a_brute_force_sum_over_hands_and_cards() {
    // Yardstud's second round (3rd street), after a raise and a call on the first: the last
    // street's up cards are public chance inside the subgame.
    let (st, bets) = yard_hand("Qc Kd Ah Qd", 1, &[1, 2, 1]);
    assert!(!bets.is_empty());
    let sub = Subgame::with_chance(&AceLeaning, &st, &bets, 1, Options::default()).unwrap();
    assert!(sub.tree.nodes.iter().any(|n| n.kind == NodeKind::Chance));
    // The ranges are not uniform, and weigh no card showing.
    let showing: Vec<Card> = (0..2).flat_map(|s| st.up_cards(s).to_vec()).collect();
    for r in &sub.ranges {
        assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (h, &w) in r.iter().enumerate() {
            assert_eq!(w == 0.0, showing.contains(&sub.tree.hands[h]), "{h}");
        }
    }
    assert!(sub.ranges[0] != sub.ranges[1]);
    let avg = sub.policy_of(&AceLeaning).unwrap();
    let fast = value_in_ranges(
        &sub.tree,
        &avg,
        0,
        Play::Follow,
        [&sub.ranges[0], &sub.ranges[1]],
    );
    let root = sub.state(0).unwrap();
    let (mut sum, mut weight) = (0.0, 0.0);
    let n = sub.hands.len();
    for h0 in 0..n {
        for h1 in (0..n).filter(|&h1| h1 != h0) {
            let w = sub.ranges[0][h0] * sub.ranges[1][h1];
            if w == 0.0 {
                continue;
            }
            let mut s = root.clone();
            s.show(0, &[sub.tree.hands[h0]]).unwrap();
            s.show(1, &[sub.tree.hands[h1]]).unwrap();
            sum += w * brute(&sub, &avg, 0, &s, [h0, h1]);
            weight += w;
        }
    }
    let want = sum / weight;
    assert!((fast - want).abs() < 1e-9, "tree {fast} brute force {want}");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_rows_below_a_chance_node_are_the_player_s_own() {
    let (def, tree, player, _) = kings_and_aces_blueprint(30, "chance-rows");
    let (lifted, roots) = verify::lift_at(&def, &tree, &player, 0).unwrap();
    // Every door-card board: 8 × 7.
    assert_eq!(roots.len(), 56);
    let mut compared = 0;
    for root in roots.iter().step_by(7) {
        let sub =
            Subgame::with_chance(&player, &root.state, &root.bets, 0, Options::default()).unwrap();
        let blue = sub.policy_of(&player).unwrap();
        for (at, sub_at, k) in verify::row_pairs(&tree, root.node, &sub).unwrap() {
            for a in 0..k {
                assert!((lifted[at + a] - blue[sub_at + a]).abs() < 1e-12);
            }
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared} rows compared");
}

#[test]
fn re_solving_from_the_first_street_solves_the_whole_game() {
    // From the first decision of the first street, each subgame is the whole game given the
    // door cards, entered with the uniform ranges of the deal: re-solving every one makes the
    // whole game's strategy an equilibrium, however weak the blueprint, and the whole game's
    // exact exploitability is then the subgames' own (the door cards are public, and every
    // board is as likely).
    let (def, tree, player, solved) = kings_and_aces_blueprint(3, "chance-whole");
    let m = verify::measure_from(
        &def,
        &tree,
        &player,
        0,
        Budget::Iterations(400),
        Options::default(),
        &|_, _| {},
    )
    .unwrap();
    assert!((m.blueprint.chips - solved).abs() < 1e-3, "{m:?}");
    assert_eq!(m.subgames, 56);
    assert!(m.blueprint.chips > 0.1, "{m:?}");
    assert!(m.mean_subgame_resolved < 0.01, "{m:?}");
    assert!(
        (m.resolved.chips - m.mean_subgame_resolved).abs() < 1e-6,
        "{m:?}"
    );
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_subgame_solved_long_is_worth_what_the_exact_solve_gives_it() {
    // A near-equilibrium lossless solve: below each door-card board its rows are near an
    // equilibrium of the subgame there, whose value is unique; a long re-solve finds it.
    let (def, tree, player, solved) = kings_and_aces_blueprint(400, "chance-value");
    assert!(solved < 0.005, "{solved}");
    let (_, roots) = verify::lift_at(&def, &tree, &player, 0).unwrap();
    let mut total = 0.0;
    for (i, root) in roots.iter().enumerate() {
        let options = Options {
            floor: 0.0,
            ..Default::default()
        };
        let sub = Subgame::with_chance(&player, &root.state, &root.bets, 0, options).unwrap();
        let blue = sub.policy_of(&player).unwrap();
        let r = [&sub.ranges[0][..], &sub.ranges[1][..]];
        let v_blue = value_in_ranges(&sub.tree, &blue, 0, Play::Follow, r);
        total += v_blue;
        // A sample of the boards re-solved (each is some seconds of the test's time).
        if i % 9 != 0 {
            continue;
        }
        let solve = sub.solve(Budget::Iterations(300), None).unwrap();
        let report = solve.report(&sub);
        assert!(report.exploitability < 0.01, "{report:?}");
        // Each board's value within the two strategies' exploitability of each other.
        let (e_blue, _) = sub.exploitability(&blue);
        let slack = 2.0 * (e_blue + report.exploitability) + 1e-6;
        assert!(
            (report.value_0 - v_blue).abs() < slack,
            "board {}: re-solved {} exact solve {v_blue}",
            root.node,
            report.value_0
        );
    }
    // The boards are alike likely: their mean is the game's value.
    let whole =
        crate::best_response::exploitability(&tree, &verify::lift(&def, &tree, &player).unwrap().0);
    assert!(
        (total / roots.len() as f64 - whole.value_0).abs() < 1e-9,
        "{} {}",
        total / roots.len() as f64,
        whole.value_0
    );
}
