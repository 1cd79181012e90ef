//! Nested re-solving: the next street's ranges against a sum hand by hand over the solve's
//! rows, the searching player's seventh street, and a walkable game nested street by street.

use super::nest::{nest_below, next_roots, next_street, NESTED_FLOOR};
use super::tests::{kings_and_aces_blueprint, street_spot};
use super::*;
use crate::bot::tests::PairRaiser;
use crate::bot::{Player, StrategyPlayer};
use abstraction::cards::CardSet;
use abstraction::rules::GameDef;

/// The betting from `sub`'s root to a first decision of the next street, both seats acting on
/// the way: the first such path in child order, as the hand's whole betting.
fn path_to_next_street(sub: &Subgame, bets: &[Bet]) -> Vec<Bet> {
    let t = &sub.tree;
    let mut stack = vec![(0usize, bets.to_vec())];
    while let Some((i, b)) = stack.pop() {
        let node = t.nodes[i];
        if node.kind != NodeKind::Action {
            continue;
        }
        if usize::from(node.street) > sub.street {
            return b;
        }
        for c in t.children(i).rev() {
            if let Edge::Action(a) = t.edges[c] {
                let mut next = b.clone();
                next.push((usize::from(node.street), a));
                stack.push((c, next));
            }
        }
    }
    panic!("no decision of the next street below the root");
}

/// Seven-card stud on five ranks (20 cards), a sixth-street spot of the pair raiser: 66 pairs a
/// seat, 660 hands (which card comes on seventh street), each seventh-street set three of them.
/// The subgame, its solve in 7 iterations, the betting to its root and to a first decision of
/// seventh street below it.
fn five_ranks_sixth_street() -> (Subgame, Resolved, Vec<Bet>, Vec<Bet>) {
    let mut def = GameDef::preset("7stud").unwrap();
    def.deck.ranks = (8..13).map(abstraction::cards::Rank::new).collect();
    let (st, bets) = (0..)
        .find_map(|seed| street_spot(&def, seed, Some(&PairRaiser), 3))
        .unwrap();
    let sub = Subgame::at(&PairRaiser, &st, &bets, Options::default()).unwrap();
    let solved = sub.solve(Budget::Iterations(7), None).unwrap();
    let to_seventh = path_to_next_street(&sub, &bets);
    (sub, solved, bets, to_seventh)
}

#[test]
fn the_next_street_s_ranges_are_the_solve_s_reach_summed_over_each_set_s_orders() {
    let (sub, solved, bets, to_seventh) = five_ranks_sixth_street();
    // Bayes' rule on the solve's rows (the fallback floor is for a range left empty).
    let floor = NESTED_FLOOR;
    let next = next_street(&sub, &solved, &to_seventh, 0.3)
        .unwrap()
        .unwrap()
        .sub;
    assert_eq!(
        (next.street, next.tree.num_hands()),
        (4, 220),
        "C(12, 3) sets"
    );
    assert_eq!(next.root_bets, to_seventh.len());
    // The path's decisions, read by following the bets from the root.
    let mut path = Vec::new();
    let mut node = 0;
    for &(_, a) in &to_seventh[bets.len()..] {
        let c = sub
            .tree
            .children(node)
            .find(|&c| sub.tree.edges[c] == Edge::Action(a))
            .unwrap();
        path.push((node, c - sub.tree.children(node).start));
        node = c;
    }
    assert!(path.len() >= 2);
    for seat in 0..2 {
        // Each set: its three hands (which card came on seventh street), each its range at the
        // root times its row's probability of each of its seat's actions on the way.
        let mut want: Vec<(CardSet, f64)> = Vec::new();
        for h in 0..sub.hands.len() {
            let mut w = sub.ranges[seat][h];
            for &(n, a) in &path {
                if sub.tree.nodes[n].seat as usize == seat {
                    w *= solved.strategy(n, h)[a].max(floor);
                }
            }
            match want.iter_mut().find(|(s, _)| *s == sub.hands[h]) {
                Some(x) => x.1 += w,
                None => want.push((sub.hands[h], w)),
            }
        }
        let total: f64 = want.iter().map(|x| x.1).sum();
        assert_eq!(want.len(), 220);
        for (set, w) in want {
            let i = next.hands.iter().position(|&h| h == set).unwrap();
            let got = next.ranges[seat][i];
            assert!(
                (got - w / total).abs() < 1e-12,
                "p{} {set:?}: {got} {w}",
                seat + 1
            );
        }
    }
}

#[test]
fn the_rows_a_nested_re_solve_replaces_mix_each_set_s_orders_by_their_reach() {
    // Each seventh-street set is three hands of the sixth-street solve (which card came last),
    // each with its own rows there.
    let (sub, solved, bets, to_seventh) = five_ranks_sixth_street();
    let nested = next_street(&sub, &solved, &to_seventh, 0.3)
        .unwrap()
        .unwrap();
    let replaced = nested.replaced(&sub, &solved.solver.average).unwrap();
    let (t, next) = (&sub.tree, &nested.sub.tree);
    let step = |node: usize, a: Action| {
        let c = t.children(node).find(|&c| t.edges[c] == Edge::Action(a));
        (node, c.unwrap() - t.children(node).start)
    };
    let mut path = Vec::new();
    for &(_, a) in &to_seventh[bets.len()..] {
        let (node, i) = step(
            path.last()
                .map_or(0, |&(n, i)| t.children(n).nth(i).unwrap()),
            a,
        );
        path.push((node, i));
    }
    let at = path
        .last()
        .map(|&(n, i)| t.children(n).nth(i).unwrap())
        .unwrap();
    // Each decision below the root, walked in both trees with the path to it in the one above.
    let (mut checked, mut apart) = (0, 0.0f64);
    let mut stack = vec![(at, 0, path)];
    while let Some((p, q, path)) = stack.pop() {
        if next.nodes[q].kind != NodeKind::Action {
            continue;
        }
        let n = next.nodes[q];
        let seat = usize::from(n.seat);
        let k = usize::from(n.num_children);
        for (y, &b) in next.bucket_table(n.board, n.seat).iter().enumerate() {
            if b == NONE {
                continue;
            }
            let (mut want, mut total, mut alike) = (vec![0.0; k], 0.0, vec![0.0; k]);
            let twins: Vec<usize> = (0..sub.hands.len())
                .filter(|&h| sub.hands[h] == nested.sub.hands[y])
                .collect();
            assert_eq!(twins.len(), 3);
            for &h in &twins {
                let mut w = sub.ranges[seat][h];
                for &(m, a) in path
                    .iter()
                    .filter(|(m, _)| usize::from(t.nodes[*m].seat) == seat)
                {
                    w *= solved.strategy(m, h)[a];
                }
                let row = solved.strategy(p, h);
                for j in 0..k {
                    want[j] += w * row[j];
                    alike[j] += row[j] / 3.0;
                }
                total += w;
            }
            let at = n.first_slot() as usize + b as usize * k;
            for j in 0..k {
                let want = if total > 0.0 {
                    want[j] / total
                } else {
                    alike[j]
                };
                assert!((replaced[at + j] - want).abs() < 1e-12, "{y} {j}");
                apart = apart.max((want - alike[j]).abs());
            }
            checked += 1;
        }
        for (i, (c, d)) in t.children(p).zip(next.children(q)).enumerate() {
            let mut path = path.clone();
            path.push((p, i));
            stack.push((c, d, path));
        }
    }
    assert!(checked > 220, "{checked}");
    assert!(
        apart > 1e-3,
        "each order weighed alike would pass too: {apart}"
    );
}

#[test]
fn a_searching_player_re_solves_seventh_street_from_its_sixth_street_rows() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-hu.strat");
    let def = GameDef::preset("7stud").unwrap();
    let blueprint = StrategyPlayer::open(path, &def).unwrap();
    let (st, bets) = (0..)
        .find_map(|seed| street_spot(&def, seed, Some(&blueprint), 4))
        .unwrap();
    let (_, budget, options) = resolve_spec("f.strat:search=2").unwrap().unwrap();
    assert!(options.two_streets && options.nested);
    let player =
        ResolvingPlayer::new(StrategyPlayer::open(path, &def).unwrap(), budget, options).unwrap();
    assert!(player.name().ends_with(":search=2"), "{}", player.name());
    let seat = st.to_act().unwrap();
    let legal = st.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    let (_, report) = player
        .policy_within((budget, &Stop::NEVER), &st, &bets, seat, &legal, &mut probs)
        .unwrap();
    assert_eq!(
        report.unwrap().street,
        4,
        "seventh street's own solve answers"
    );
    // The same as the sixth-street solve's implied subgame solved by hand.
    let sixth = Subgame::at_street(&blueprint, &st, &bets, 3, options).unwrap();
    let solved = sixth.solve(budget, None).unwrap();
    let next = next_street(&sixth, &solved, &bets, options.floor)
        .unwrap()
        .unwrap()
        .sub;
    let again = next.solve(budget, None).unwrap();
    let mut want = vec![0.0; legal.len()];
    player::play_row(&next, &again, &st, &bets, seat, &legal, &mut want).unwrap();
    assert_eq!(probs, want);
    // Searching safely: seventh street's re-solve of the seat bounded by what each opponent
    // hand got against the sixth-street solve's rows, falling back to them where it lets one
    // gain.
    let spec = "f.strat:search-safe=2,fallback";
    let (_, budget, options) = resolve_spec(spec).unwrap().unwrap();
    let player =
        ResolvingPlayer::new(StrategyPlayer::open(path, &def).unwrap(), budget, options).unwrap();
    assert!(
        player.name().ends_with(":search-safe=2,fallback"),
        "{}",
        player.name()
    );
    let (_, report) = player
        .policy_within((budget, &Stop::NEVER), &st, &bets, seat, &legal, &mut probs)
        .unwrap();
    assert_eq!(report.unwrap().street, 4);
    let nested = next_street(&sixth, &solved, &bets, options.floor)
        .unwrap()
        .unwrap();
    let replaced = nested.replaced(&sixth, &solved.solver.average).unwrap();
    let safety = (nested.sub)
        .safety_against(&replaced, seat, Method::Safe.gadget().unwrap())
        .unwrap();
    let mut again = nested.sub.solve(budget, Some(&safety)).unwrap();
    super::safe::keep_bound(&nested.sub, &mut again, &replaced);
    player::play_row(&nested.sub, &again, &st, &bets, seat, &legal, &mut want).unwrap();
    assert_eq!(probs, want);
}

#[test]
fn a_walkable_game_re_solved_from_its_first_street_and_nested_stays_solved() {
    // Kings and aces from the first street: each subgame is the whole game given the door
    // cards, so its re-solve is near an equilibrium; the next street re-solved again from the
    // ranges its rows imply is then near one too, and each row lands on its (node, hand):
    // the same as the next street's subgame built and solved alone.
    let (def, tree, player, _) = kings_and_aces_blueprint(3, "nested");
    let (_, roots) = verify::lift_at(&def, &tree, &player, 0).unwrap();
    let root = &roots[0];
    let options = Options::default();
    let sub = Subgame::with_chance(&player, &root.state, &root.bets, 0, options).unwrap();
    let budget = Budget::Iterations(200);
    let mut average = sub.solve(budget, None).unwrap().average();
    let before = average.clone();
    let (made, _) = nest_below(&sub, &mut average, budget, Method::Unsafe, false).unwrap();
    let nexts = next_roots(&sub.tree, 0, &before, &sub.ranges, NESTED_FLOOR);
    assert_eq!(made, nexts.len());
    for (node, reach) in nexts {
        let st = sub.state(node).unwrap();
        let child = Subgame::with_chance_given(st, &sub.bets[node], reach).unwrap();
        let rows = child.solve(budget, None).unwrap().average();
        let n = sub.tree.nodes[node];
        let k = n.num_children as usize;
        let (ta, tb) = (
            sub.tree.bucket_table(n.board, n.seat),
            child.tree.bucket_table(child.tree.nodes[0].board, n.seat),
        );
        for (&a, &b) in ta.iter().zip(tb).filter(|(a, _)| **a != NONE) {
            let at = n.first_slot() as usize + a as usize * k;
            let from = child.tree.nodes[0].first_slot() as usize + b as usize * k;
            assert_eq!(average[at..at + k], rows[from..from + k]);
        }
    }
    // Near an equilibrium still (unnested, the whole game is below 0.01 chips at 400
    // iterations: `re_solving_from_the_first_street_solves_the_whole_game`).
    let (nested, _) = sub.exploitability(&average);
    assert!(nested > 0.0 && nested < 0.05, "{nested}");
}
