//! The values checked against the exact solver's walk of the whole game: kings-and-aces
//! ministud (eight cards), its lossless public tree and a strategy file solved on it. At a
//! decision, the counterfactual value of each action (the best-response walk following the
//! strategy, from the opponent's reach there) divided by the chance of the public cards and
//! the opponent's reach on the cards that do not collide is the expected value given the hand;
//! the values must equal it where exact, and their intervals must cover it where estimated.

use super::*;
use crate::resolve::tests::kings_and_aces_blueprint;
use abstraction::tree::Tree;

/// A decision of the public tree and what reaching it took.
struct At {
    node: usize,
    state: State,
    bets: Vec<Bet>,
    /// Each seat's reach per hand: its own probabilities of the actions on the way (0 for a
    /// hand holding a public card).
    reach: [Vec<f64>; 2],
    /// The chance of the public cards on the way times the private deal's (the tree's terminal
    /// values carry it).
    chance: f64,
}

/// Every decision at or below `at` (its node, the state there with the down cards dealt
/// unknown or still to deal), `rows` the strategy lifted onto `tree`.
fn decisions(tree: &Tree, rows: &[f64], mut at: At, out: &mut Vec<At>) {
    while let Next::Deal {
        deal: Deal::Down, ..
    } = at.state.next()
    {
        at.state.deal_unknown().unwrap();
    }
    let n = tree.nodes[at.node];
    let k = n.num_children as usize;
    for (a, c) in tree.children(at.node).enumerate() {
        let mut next = At {
            node: c,
            state: at.state.clone(),
            bets: at.bets.clone(),
            reach: at.reach.clone(),
            chance: at.chance,
        };
        match tree.edges[c] {
            Edge::Action(act) => {
                let table = tree.bucket_table(n.board, n.seat);
                for (h, &b) in table.iter().enumerate() {
                    let p = if b == NONE {
                        0.0
                    } else {
                        let row = &rows[n.first_slot() as usize + b as usize * k..][..k];
                        row[a] / row.iter().sum::<f64>()
                    };
                    next.reach[n.seat as usize][h] *= p;
                }
                next.state.apply(act).unwrap();
                next.bets.push((n.street as usize, act));
            }
            Edge::Card(card) => {
                for (h, &x) in tree.hands.iter().enumerate() {
                    if x == card {
                        next.reach[0][h] = 0.0;
                        next.reach[1][h] = 0.0;
                    }
                }
                next.state.deal(card).unwrap();
                next.chance /= (k - 2) as f64;
            }
            Edge::Root => unreachable!(),
        }
        decisions(tree, rows, next, out);
    }
    if n.kind == NodeKind::Action {
        out.push(at);
    }
}

/// The exact value from `at` on of each action (in the order of `actions`) for the acting
/// seat holding hand `h` of the tree, and over its range there.
fn exact_values(
    tree: &Tree,
    rows: &[f64],
    at: &At,
    actions: &[Action],
    h: usize,
) -> (Vec<f64>, Vec<f64>) {
    let seat = tree.nodes[at.node].seat;
    let opp = &at.reach[1 - seat as usize];
    let own = &at.reach[seat as usize];
    let committed = at.state.committed(seat) as f64;
    let total: f64 = opp.iter().sum();
    // One private card each: the opponent's cards beside hand `g` are all but `g`.
    let disjoint = |g: usize| total - opp[g];
    let mut hand = Vec::new();
    let mut range = Vec::new();
    for &a in actions {
        let c = tree
            .children(at.node)
            .find(|&c| tree.edges[c] == Edge::Action(a))
            .unwrap();
        let cfv = counterfactual_values_below(tree, rows, seat, Play::Follow, opp, c);
        hand.push(cfv[h] / (at.chance * disjoint(h)) + committed);
        let num: f64 = (0..cfv.len()).map(|g| own[g] * cfv[g]).sum();
        let den: f64 = (0..cfv.len()).map(|g| own[g] * disjoint(g)).sum();
        range.push(num / (at.chance * den) + committed);
    }
    (hand, range)
}

/// The blueprint, its tree and rows, and every decision of the tree.
/// `name` names the file's folder: one per test, which run at once.
fn game(name: &str) -> (StrategyPlayer, Tree, Vec<f64>, Vec<At>) {
    let (def, tree, player, _) = kings_and_aces_blueprint(100, name);
    let (rows, _) = crate::resolve::verify::lift(&def, &tree, &player).unwrap();
    let n = tree.num_hands();
    let prior = 1.0 / (n * (n - 1)) as f64;
    let root = At {
        node: 0,
        state: State::new(&def).unwrap(),
        bets: Vec::new(),
        reach: [vec![1.0; n], vec![1.0; n]],
        chance: prior,
    };
    let mut at = Vec::new();
    decisions(&tree, &rows, root, &mut at);
    (player, tree, rows, at)
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn exact_values_are_the_whole_game_s_counterfactual_values_normalised() {
    let (player, tree, rows, all) = game("values-exact");
    let last: Vec<&At> = all.iter().filter(|a| a.state.street() == 1).collect();
    assert!(last.len() > 200, "{} last-street decisions", last.len());
    let (mut compared, mut deeper) = (0, 0);
    for at in last.iter().step_by(9) {
        assert!(walkable(&at.state));
        let seat = tree.nodes[at.node].seat;
        let public: CardSet = [0, 1]
            .iter()
            .flat_map(|&s| at.state.up_cards(s).to_vec())
            .collect();
        for (h, &card) in tree.hands.iter().enumerate() {
            if public.contains(card) {
                continue;
            }
            let v = values(
                &player,
                &at.state,
                &at.bets,
                Some(&[card]),
                Options::default(),
                &|_, _| {},
            )
            .unwrap();
            assert_eq!(v.method, Method::Exact);
            assert_eq!(v.seat, seat);
            let (hand, range) = exact_values(&tree, &rows, at, &v.actions, h);
            let got = &v.hand.as_ref().unwrap().chips;
            for a in 0..hand.len() {
                assert!(
                    (got[a] - hand[a]).abs() < 1e-9,
                    "node {} hand {card}: {got:?} vs {hand:?}",
                    at.node
                );
                assert!(
                    (v.range.as_ref().unwrap().chips[a] - range[a]).abs() < 1e-9,
                    "node {}: range {:?} vs {range:?}",
                    at.node,
                    v.range.as_ref().unwrap().chips
                );
            }
            if v.actions[0] == Action::Fold {
                assert!(got[0].abs() < 1e-9, "a fold from here is worth 0: {got:?}");
            }
            compared += 1;
        }
        // Decisions below the street's first: the reach along its betting counts.
        deeper += at.bets.last().is_some_and(|b| b.0 == 1) as usize;
    }
    assert!(
        compared > 100 && deeper > 5,
        "{compared} values compared, {deeper} decisions after an action on the street"
    );
}

#[test]
fn estimated_values_cover_the_exact_ones_with_their_intervals() {
    let (player, tree, rows, all) = game("values-estimate");
    let first: Vec<&At> = all.iter().filter(|a| a.state.street() == 0).collect();
    let (mut compared, mut covered) = (0, 0);
    for (i, at) in first.iter().step_by(first.len() / 6).enumerate() {
        let public: CardSet = [0, 1]
            .iter()
            .flat_map(|&s| at.state.up_cards(s).to_vec())
            .collect();
        for (h, &card) in tree
            .hands
            .iter()
            .enumerate()
            .filter(|(_, c)| !public.contains(**c))
            .step_by(3)
        {
            let options = Options {
                samples: 3000,
                seed: i as u64,
            };
            let v = values(
                &player,
                &at.state,
                &at.bets,
                Some(&[card]),
                options,
                &|_, _| {},
            )
            .unwrap();
            assert_eq!(v.method, Method::Estimate);
            let (hand, _) = exact_values(&tree, &rows, at, &v.actions, h);
            let line = v.hand.as_ref().unwrap();
            let pm = line.plus_minus.as_ref().unwrap();
            assert_eq!(line.samples, 3000);
            for a in 0..hand.len() {
                let miss = (line.chips[a] - hand[a]).abs();
                // Far outside the interval is a wrong value, not bad luck.
                assert!(
                    miss <= 3.0 * pm[a] + 1e-9,
                    "node {} hand {card} action {a}: {} ±{} vs exact {}",
                    at.node,
                    line.chips[a],
                    pm[a],
                    hand[a]
                );
                covered += (miss <= pm[a] + 1e-9) as usize;
                compared += 1;
            }
        }
    }
    // A 95% interval: about 19 in 20 cover; far fewer is a biased estimate.
    assert!(compared >= 30, "{compared} values compared");
    assert!(
        covered as f64 >= 0.85 * compared as f64,
        "{covered} of {compared} intervals cover the exact value"
    );
}

#[test]
fn a_difference_interval_is_the_differences_own_spread() {
    // Three actions over five draws, summed in two parts: each difference's interval is 1.96
    // standard errors of the per-draw differences, computed here directly.
    let draws = [
        [1.0, 2.0, -1.0],
        [3.0, 2.5, 0.0],
        [-2.0, -1.0, 4.0],
        [0.5, 1.5, 1.0],
        [4.0, 3.0, -2.0],
    ];
    let (mut x, mut y) = (Sums::new(3), Sums::new(3));
    draws[..2].iter().for_each(|d| x.add(d));
    draws[2..].iter().for_each(|d| y.add(d));
    x.merge(&y);
    let line = x.line().unwrap();
    let d = line.difference_plus_minus.unwrap();
    let n = draws.len() as f64;
    for a in 0..3 {
        for b in 0..3 {
            let diffs: Vec<f64> = draws.iter().map(|r| r[a] - r[b]).collect();
            let mean = diffs.iter().sum::<f64>() / n;
            let var = diffs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let want = 1.96 * (var / n).sqrt();
            assert!((d[a * 3 + b] - want).abs() < 1e-9, "{a} {b}");
        }
        assert_eq!(d[a * 3 + a], 0.0);
    }
    // Draws that move together: their difference is known more sharply than either value.
    assert!(d[1] < line.plus_minus.as_ref().unwrap()[0]);
}

/// The holdings of the estimate are drawn jointly: the player's range {A, B} (even) and the
/// opponent's {X, Y} (9 to 1), X sharing a card with A. The pairs' chances are the products of
/// the weights over the pairs that can be dealt together: (A, Y) 1/11, (B, X) 9/11, (B, Y)
/// 1/11. Drawing the player first and then the opponent apart from it deals (A, Y) half the
/// time (A forces Y): this test catches it.
#[test]
fn the_seats_holdings_are_drawn_jointly() {
    let card = |c: &str| c.parse::<Card>().unwrap();
    let range = |holdings: &[(&str, f64)]| {
        let mut total = 0.0;
        let mut d = Drawn {
            cards: Vec::new(),
            sets: Vec::new(),
            cumulative: Vec::new(),
        };
        for &(c, w) in holdings {
            total += w;
            d.cards.push(vec![card(c)]);
            d.sets.push([card(c)].into_iter().collect());
            d.cumulative.push(total);
        }
        Some(d)
    };
    // p1's A = As, B = Kd; p2's X = As (the card A holds), Y = 2c.
    let ranges = [
        range(&[("As", 1.0), ("Kd", 1.0)]),
        range(&[("As", 9.0), ("2c", 1.0)]),
    ];
    let n = 20_000;
    let mut counts = [[0usize; 2]; 2];
    let mut held = [0usize; 2];
    for i in 0..n {
        let mut rng = sample_rng(11, i);
        deal_jointly(&ranges, &mut rng, &mut held, Drawn::draw).unwrap();
        counts[held[0]][held[1]] += 1;
    }
    let share = |a: usize, b: usize| counts[a][b] as f64 / n as f64;
    assert_eq!(counts[0][0], 0, "A and X share a card");
    for (a, b, want) in [(0, 1, 1.0 / 11.0), (1, 0, 9.0 / 11.0), (1, 1, 1.0 / 11.0)] {
        // Four standard errors of a share of 20,000 draws: under 0.009.
        assert!(
            (share(a, b) - want).abs() < 0.009,
            "({a}, {b}): {} not {want}",
            share(a, b)
        );
    }
}
