//! `stud query F.json SPOT --values` on the exact multiway solver's policy (docs/notes/values.md,
//! "The exact multiway solver's policies"): on kuhn-3p and leduc-3p, every value (a hand's and a
//! range's) equals the exact solver's own sums over the whole game tree of the same profile
//! (`multiway::reach_and_values`: the other seats' and chance's reach of each history of the
//! information set times its child's value, over their reach) to 1e-9.

use crate::common;

use abstraction::cards::Card;
use abstraction::history_tree::{Event, HistoryKind, HistoryTree, Move, Seen};
use abstraction::rules::{Deal, GameDef, Next, State};
use abstraction::tree::Budget;
use common::{err, ok, stud};
use solver::action::Bet;
use solver::cfr::Algorithm;
use solver::multiway::{nash_conv, reach_and_values, Solver};
use solver::session::multiway::write_policy;
use solver::strategy_file::policy::Policy;
use solver::values::policy::exact;
use std::collections::HashMap;

/// The exact solver's policy of `game` after `iterations` of CFR+, written and read back.
fn policy(game: &str, iterations: usize) -> Policy {
    let def = GameDef::preset(game).unwrap();
    let tree = HistoryTree::build(&def, Budget::nodes(1 << 25)).unwrap();
    let mut s = Solver::new(tree, Algorithm::CfrPlus);
    for _ in 0..iterations {
        s.iterate();
    }
    let nc = nash_conv(&s.tree, &s.average_strategy());
    let path =
        std::env::temp_dir().join(format!("stud-mw-values-{game}-{}.json", std::process::id()));
    write_policy(&path, &s, &def, &nc).unwrap();
    let p = Policy::open(&path).unwrap();
    std::fs::remove_file(&path).ok();
    // Read back as written: the JSON's numbers are the solver's, to their printed digits.
    let far = (p.strategy.iter().zip(&s.average_strategy()))
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(far < 1e-15, "{far}");
    p
}

/// The decision an information set's events lead to, replayed on the rules engine (down cards
/// unknown), and its betting.
fn spot(def: &GameDef, seen: &Seen) -> (State, Vec<Bet>) {
    let mut st = State::new(def).unwrap();
    let mut bets = Vec::new();
    let mut events = seen.events();
    loop {
        match st.next() {
            Next::Deal {
                deal: Deal::Down, ..
            } => st.deal_unknown().unwrap(),
            Next::Deal { .. } => match events.next() {
                Some(Event::Up { card, .. } | Event::Community(card)) => st.deal(card).unwrap(),
                e => panic!("{e:?} where a card is shown"),
            },
            Next::Act { .. } => match events.next() {
                None => return (st, bets),
                Some(Event::Act { kind, .. }) => {
                    let a = (st.legal_actions().into_iter())
                        .find(|&a| Move::of(a) == kind)
                        .unwrap();
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                }
                e => panic!("{e:?} where a seat acts"),
            },
            Next::Over => panic!("over before the decision"),
        }
    }
}

/// Each node's reach by `seat`'s own probabilities alone.
fn own_reach(tree: &HistoryTree, strategy: &[f64], seat: u8) -> Vec<f64> {
    let mut own = vec![0.0; tree.nodes.len()];
    own[0] = 1.0;
    for (i, n) in tree.nodes.iter().enumerate() {
        for (a, c) in n.children().enumerate() {
            own[c] = own[i];
            if n.kind == HistoryKind::Action && n.seat == seat {
                own[c] *= strategy[tree.infosets[n.index as usize].first_slot as usize + a];
            }
        }
    }
    own
}

/// The exact solver's value of each action over `nodes` (histories of one seat's decision,
/// each weighed by `weight`), plus `committed`.
fn expected(
    tree: &HistoryTree,
    nodes: &[usize],
    weight: &dyn Fn(usize) -> f64,
    values: &[f64],
    committed: f64,
) -> Vec<f64> {
    let k = tree.nodes[nodes[0]].num_children as usize;
    let den: f64 = nodes.iter().map(|&h| weight(h)).sum();
    (0..k)
        .map(|a| {
            let num: f64 = (nodes.iter())
                .map(|&h| weight(h) * values[tree.nodes[h].first_child as usize + a])
                .sum();
            num / den + committed
        })
        .collect()
}

/// Every `every`-th information set of each seat (its hand's values) and every `every`-th
/// public history (the range's) checked against the exact solver's sums; the checks made.
fn check(p: &Policy, every: usize) -> usize {
    let tree = &p.tree;
    let mut checked = 0;
    for seat in 0..tree.seats as u8 {
        let (reach, values) = reach_and_values(tree, &p.strategy, seat);
        let own = own_reach(tree, &p.strategy, seat);
        let mut by_set: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut by_public: HashMap<&[u8], Vec<usize>> = HashMap::new();
        for (h, n) in tree.nodes.iter().enumerate() {
            if n.kind == HistoryKind::Action && n.seat == seat && reach[h] > 0.0 {
                by_set.entry(n.index as usize).or_default().push(h);
                by_public
                    .entry(&tree.seen[n.index as usize].public)
                    .or_default()
                    .push(h);
            }
        }
        let mut sets: Vec<_> = by_set.into_iter().collect();
        sets.sort();
        for (set, nodes) in sets.iter().step_by(every) {
            let seen = &tree.seen[*set];
            let (state, bets) = spot(&p.game, seen);
            let hand: Vec<Card> = seen.cards.iter().collect();
            let v = exact(p, &state, &bets, Some(&hand)).unwrap();
            let want = expected(
                tree,
                nodes,
                &|h| reach[h],
                &values,
                state.committed(seat) as f64,
            );
            let got = &v.hand.unwrap().chips;
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() < 1e-9,
                    "{}: {got:?} against {want:?}",
                    seen.describe()
                );
            }
            checked += 1;
        }
        let mut publics: Vec<_> = by_public.into_iter().collect();
        publics.sort();
        for (_, nodes) in publics.iter().step_by(every) {
            let seen = &tree.seen[tree.nodes[nodes[0]].index as usize];
            if nodes.iter().all(|&h| own[h] == 0.0) {
                continue;
            }
            let (state, bets) = spot(&p.game, seen);
            let v = exact(p, &state, &bets, None).unwrap();
            let w = |h: usize| own[h] * reach[h];
            let want = expected(tree, nodes, &w, &values, state.committed(seat) as f64);
            let got = &v.range.unwrap().chips;
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() < 1e-9,
                    "{} (range): {got:?} against {want:?}",
                    seen.describe()
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn kuhn_3p_values_are_the_exact_solver_s_counterfactual_values() {
    let p = policy("kuhn-3p", 50);
    // Every information set of every seat and every public history.
    assert!(check(&p, 1) >= 48, "too few checked");
}

#[test]
fn leduc_3p_values_are_the_exact_solver_s_counterfactual_values() {
    let p = policy("leduc-3p", 5);
    assert!(check(&p, 211) >= 100, "too few checked");
}

#[test]
fn query_reads_a_policy_and_refuses_what_it_does_not_answer() {
    let dir = std::env::temp_dir().join(format!("stud-mw-values-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kuhn3.json");
    let f = file.to_str().unwrap();
    ok(&stud(
        &[
            "solve",
            "--game",
            "kuhn-3p",
            "--iterations",
            "200",
            "--out",
            f,
        ],
        "",
    ));
    let out = ok(&stud(
        &[
            "query",
            f,
            "p1 x p2 b",
            "--hand",
            "Kc",
            "--values",
            "--json",
        ],
        "",
    ));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["seat"], 2);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["action_names"].as_array().unwrap().len(), 2);
    // p3 with the king facing a bet: folding is worth 0 from here; calling wins the pot, 5
    // (antes, the bet and the call) or 6 if p1 calls too, less the call: between 4 and 5.
    let chips = v["hand"]["chips"].as_array().unwrap();
    let call = chips[1].as_f64().unwrap();
    assert_eq!(chips[0].as_f64(), Some(0.0), "{v}");
    assert!((4.0 - 1e-12..=5.0 + 1e-12).contains(&call), "{v}");
    let policy = Policy::open(&file).unwrap();
    let steps = solver::query::spot::parse_spot("p1 x p2 b").unwrap();
    let lib = solver::query::policy::values_json(&policy, &steps, Some("Kc")).unwrap();
    assert_eq!(lib["hand"], v["hand"]);

    let e = err(&stud(
        &["query", f, "p1 x p2 b", "--hand", "Ks", "--values"],
        "",
    ));
    assert!(e.contains("Ks is not a card of the game's deck"), "{e}");
    let e = err(&stud(&["query", f, "p1 x p2 b"], ""));
    assert!(e.contains("answers --values only"), "{e}");
    std::fs::write(dir.join("bad.json"), "{\"format\": \"other\"}").unwrap();
    let e = err(&stud(
        &[
            "query",
            dir.join("bad.json").to_str().unwrap(),
            "",
            "--values",
        ],
        "",
    ));
    assert!(e.contains("not a multiway policy"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
