//! The table's estimates checked against the exact multiway solver's walk: `doorstud` (three
//! seats, eight cards), a strategy file solved on it by the sampling solver, and its whole game
//! tree. The file's player is asked at every decision of the tree for the profile; at a
//! decision of a hand dealt at random, each action's exact value for the seat's down cards is
//! the sum over the histories of its information set of the others' reach (chance's and the
//! other seats') times the value of the history's child by the action, over the sum of the
//! reach ([`crate::multiway::reach_and_values`]). The estimate's intervals must cover it; an
//! estimator drawing the other seats' holdings as if their betting had said nothing must not.

use super::*;
use crate::bot::Player;
use crate::checkpoint::Problem;
use crate::multiway::sampled::SampledSolver;
use crate::session::sampled::{betting, write_strategy};
use crate::strategy_file::multiway::{MultiwayFile, RowFormat};
use crate::strategy_file::StrategyFile;
use crate::values::Method;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::draw::below;
use abstraction::history_tree::{HistoryKind, HistoryTree};
use abstraction::multiway_betting::WithinStreet;
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::Action;
use abstraction::rules::{GameDef, Next};
use abstraction::tree::Budget;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A decision met in a hand: the tree's node, the state (every card known) and the betting.
struct At {
    node: usize,
    state: State,
    bets: Vec<Bet>,
}

/// [`solved`] once for the tests of this module (a solve and a bucketing: seconds).
fn shared() -> &'static (StrategyPlayer, HistoryTree) {
    static SOLVED: std::sync::OnceLock<(StrategyPlayer, HistoryTree)> = std::sync::OnceLock::new();
    SOLVED.get_or_init(|| solved("values-table"))
}

/// The doorstud file's player (rows as stored) after 20,000 traversals of the sampling
/// solver, and the game tree.
fn solved(name: &str) -> (StrategyPlayer, HistoryTree) {
    let def = GameDef::preset("doorstud").unwrap();
    let tree = HistoryTree::build(&def, Budget::nodes(1 << 24)).unwrap();
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    let size = Size::parse("64", 2).unwrap();
    let bucketing = Bucketing::build(&heads_up, &size, &|_| {}).unwrap();
    let buckets = Arc::new(MultiwayBuckets::best_opponent(bucketing));
    let abstract_game = betting(&def, WithinStreet::History, None, 1 << 20).unwrap();
    let batch = 192;
    let mut s = SampledSolver::new(
        &def,
        abstract_game,
        buckets,
        crate::cfr::Algorithm::Linear,
        batch,
        7,
    )
    .unwrap();
    while s.iterations * (batch as u64) < 20_000 {
        s.iterate().unwrap();
    }
    s.settle();
    let path = std::env::temp_dir().join(format!("stud-{name}-{}.strat", std::process::id()));
    let problem = Problem::sampled(&def, &s.buckets, WithinStreet::History);
    write_strategy(&path, &s, &problem, RowFormat::Byte).unwrap();
    let file = MultiwayFile::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let player = StrategyPlayer::of_file(StrategyFile::Multiway(Box::new(file)), name)
        .with_purification(crate::purify::Purification::Mixed);
    (player, tree)
}

/// The player's probability of every action of the tree, asked at each decision (walked with
/// the rules engine beside it, every card dealt).
fn profile(
    tree: &HistoryTree,
    player: &dyn Player,
    state: &State,
    bets: &mut Vec<Bet>,
    at: usize,
    out: &mut [f64],
) {
    let node = tree.nodes[at];
    match node.kind {
        HistoryKind::Terminal => {}
        HistoryKind::Chance => {
            for (j, card) in state.unseen().iter().enumerate() {
                let mut next = state.clone();
                next.deal(card).unwrap();
                profile(
                    tree,
                    player,
                    &next,
                    bets,
                    node.first_child as usize + j,
                    out,
                );
            }
        }
        HistoryKind::Action => {
            let legal = state.legal_actions();
            let mut probs = vec![0.0; legal.len()];
            player
                .policy(state, bets, node.seat, &legal, &mut probs)
                .unwrap();
            let slot = tree.infosets[node.index as usize].first_slot as usize;
            for (a, c) in node.children().enumerate() {
                let action = tree.actions[slot + a];
                let i = legal.iter().position(|&l| l == action).unwrap();
                out[slot + a] = probs[i];
                let mut next = state.clone();
                next.apply(action).unwrap();
                bets.push((state.street(), action));
                profile(tree, player, &next, bets, c, out);
                bets.pop();
            }
        }
    }
}

/// Every decision of `hands` hands dealt and played at random (every action alike).
fn decisions(tree: &HistoryTree, def: &GameDef, hands: usize, seed: u64) -> Vec<At> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..hands {
        let (mut state, mut bets, mut at) = (State::new(def).unwrap(), Vec::new(), 0usize);
        loop {
            let node = tree.nodes[at];
            match state.next() {
                Next::Over => break,
                Next::Deal { .. } => {
                    let unseen = state.unseen();
                    let j = below(&mut rng, unseen.len() as usize);
                    state.deal(unseen.iter().nth(j).unwrap()).unwrap();
                    at = node.first_child as usize + j;
                }
                Next::Act { .. } => {
                    out.push(At {
                        node: at,
                        state: state.clone(),
                        bets: bets.clone(),
                    });
                    let set = tree.infosets[node.index as usize];
                    let a = below(&mut rng, set.actions as usize);
                    let action = tree.actions[set.first_slot as usize + a];
                    bets.push((state.street(), action));
                    state.apply(action).unwrap();
                    at = node.first_child as usize + a;
                }
            }
        }
    }
    out
}

/// The exact value of each of `actions` for the seat to act at `at`, given its cards: the
/// information set's histories' child values weighed by the others' reach, plus what the seat
/// has put in (a value is from the decision on).
fn exact(
    tree: &HistoryTree,
    reach: &[f64],
    values: &[f64],
    at: &At,
    actions: &[Action],
) -> Vec<f64> {
    let node = tree.nodes[at.node];
    let set = tree.infosets[node.index as usize];
    let committed = at.state.committed(node.seat) as f64;
    let (mut num, mut den) = (vec![0.0; actions.len()], 0.0);
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind != HistoryKind::Action || n.index != node.index {
            continue;
        }
        den += reach[i];
        for (a, c) in n.children().enumerate() {
            let k = actions
                .iter()
                .position(|&x| x == tree.actions[set.first_slot as usize + a])
                .unwrap();
            num[k] += reach[i] * values[c];
        }
    }
    num.iter().map(|x| x / den + committed).collect()
}

/// How many of `spots`' action values the estimate misses by more than its interval's width
/// (1.96 standard errors) times 2: never by chance at these counts; and how many it compared.
/// `per_seat`: each seat's [`crate::multiway::reach_and_values`] under the file's profile.
fn misses(
    player: &StrategyPlayer,
    tree: &HistoryTree,
    per_seat: &[(Vec<f64>, Vec<f64>)],
    spots: &[&At],
    uniform: bool,
) -> (usize, usize) {
    let (mut missed, mut compared) = (0, 0);
    for at in spots {
        let seat = tree.nodes[at.node].seat;
        let hand: Vec<Card> = at
            .state
            .down_cards(seat)
            .iter()
            .flatten()
            .copied()
            .collect();
        let options = Options {
            samples: 4_000,
            seed: 3,
        };
        let state = &at.state;
        let (reach, values) = &per_seat[seat as usize];
        let want = exact(tree, reach, values, at, &state.legal_actions());
        if want.iter().any(|w| w.is_nan()) {
            // The others' betting has no chance beside this hand: no value given it (the
            // estimate refuses it: a seat's range holds no hand).
            continue;
        }
        let StrategyFile::Multiway(f) = player.file() else {
            unreachable!("a multiway file")
        };
        let classes = Classes::of(f.bucketing_at(state), state.street());
        let mut spot = table(
            player,
            state,
            &at.bets,
            Some(&hand),
            Some(&classes),
            options,
        )
        .unwrap();
        spot.uniform = uniform;
        let v = estimate_with(spot, state, true, options, &|_, _| {}).unwrap();
        assert_eq!(v.actions, state.legal_actions());
        let line = v.hand.unwrap();
        let pm = line.plus_minus.as_ref().unwrap();
        for ((got, want), pm) in line.chips.iter().zip(&want).zip(pm) {
            compared += 1;
            if (got - want).abs() > 2.0 * pm + 1e-9 {
                missed += 1;
            }
        }
    }
    (missed, compared)
}

#[test]
fn table_estimates_cover_the_exact_solver_s_values_and_a_biased_estimate_does_not() {
    let (player, tree) = shared();
    let def = player.file().game().clone();
    let all = decisions(tree, &def, 60, 5);
    // The second street after another seat's action on it (where the ranges of the down
    // card dealt there are shaped), then others: the first street, after a fold.
    let (shaped, rest): (Vec<&At>, Vec<&At>) = all.iter().partition(|a| {
        let n = tree.nodes[a.node];
        a.state.street() == 1 && a.bets.last().is_some_and(|b| b.0 == 1) && n.seat != 0
    });
    let spots: Vec<&At> = (shaped.iter().take(14))
        .chain(rest.iter().step_by(4).take(8))
        .copied()
        .collect();
    assert!(spots.iter().any(|a| a.state.live().count_ones() == 2));
    let mut policy = vec![0.0; tree.num_slots];
    profile(
        tree,
        player,
        &State::new(&def).unwrap(),
        &mut Vec::new(),
        0,
        &mut policy,
    );
    let per_seat: Vec<_> = (0..tree.seats as u8)
        .map(|s| crate::multiway::reach_and_values(tree, &policy, s))
        .collect();
    let (missed, compared) = misses(player, tree, &per_seat, &spots, false);
    assert!(compared >= 24, "{compared} values compared");
    assert_eq!(
        missed, 0,
        "{missed} of {compared} values outside twice their interval"
    );
    let (missed, _) = misses(player, tree, &per_seat, &spots, true);
    assert!(
        missed >= 3,
        "the biased estimate missed only {missed} of {compared}"
    );
}

/// Each seat's reach by its own actions at every history of `tree` under `policy` (children
/// are numbered after their parent: one pass in index order).
fn own_reach(tree: &HistoryTree, policy: &[f64], seat: u8) -> Vec<f64> {
    let mut own = vec![1.0; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        for (a, c) in n.children().enumerate() {
            own[c] = own[i];
            if n.kind == HistoryKind::Action && n.seat == seat {
                let slot = tree.infosets[n.index as usize].first_slot as usize;
                own[c] *= policy[slot + a];
            }
        }
    }
    own
}

/// The range's exact value of each of `actions` at `at`: every history whose seat and public
/// events are the decision's (every holding of the seat), weighed by every seat's reach.
fn exact_range(
    tree: &HistoryTree,
    (reach, values): &(Vec<f64>, Vec<f64>),
    own: &[f64],
    at: &At,
    actions: &[Action],
) -> Vec<f64> {
    let node = tree.nodes[at.node];
    let public = &tree.seen[node.index as usize].public;
    let committed = at.state.committed(node.seat) as f64;
    let (mut num, mut den) = (vec![0.0; actions.len()], 0.0);
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind != HistoryKind::Action
            || n.seat != node.seat
            || tree.seen[n.index as usize].public != *public
        {
            continue;
        }
        let set = tree.infosets[n.index as usize];
        let w = reach[i] * own[i];
        den += w;
        for (a, c) in n.children().enumerate() {
            let k = (actions.iter())
                .position(|&x| x == tree.actions[set.first_slot as usize + a])
                .unwrap();
            num[k] += w * values[c];
        }
    }
    num.iter().map(|x| x / den + committed).collect()
}

/// On `doorstud` every table spot is walked: the values of a hand and of the range equal the
/// exact multiway solver's counterfactual values of the file's profile (the others' reach
/// times each history's child value, over the reach; the range's weighed by the seat's own
/// reach too) to 1e-9, at decisions of random hands on both streets; the classes' values
/// mixed by their shares are the range's.
#[test]
fn table_values_on_doorstud_are_the_exact_solver_s_counterfactual_values() {
    let (player, tree) = shared();
    let def = player.file().game().clone();
    let mut policy = vec![0.0; tree.num_slots];
    let root = State::new(&def).unwrap();
    profile(tree, player, &root, &mut Vec::new(), 0, &mut policy);
    let per_seat: Vec<_> = (0..tree.seats as u8)
        .map(|s| crate::multiway::reach_and_values(tree, &policy, s))
        .collect();
    let own: Vec<Vec<f64>> = (0..tree.seats as u8)
        .map(|s| own_reach(tree, &policy, s))
        .collect();
    let all = decisions(tree, &def, 40, 9);
    let (mut hands, mut ranges, mut streets) = (0, 0, [0; 2]);
    for at in all.iter().step_by(2) {
        let state = &at.state;
        let seat = tree.nodes[at.node].seat;
        assert!(super::super::table_exact::walkable(state));
        let actions = state.legal_actions();
        let hand: Vec<Card> = state.down_cards(seat).iter().flatten().copied().collect();
        let StrategyFile::Multiway(f) = player.file() else {
            unreachable!("a multiway file")
        };
        let classes = Classes::of(f.bucketing_at(state), state.street());
        let walked = |hand: Option<&[Card]>| {
            super::super::table_exact::exact(
                player,
                state,
                &at.bets,
                hand,
                Some(&classes),
                &|_, _| {},
            )
        };
        let want = exact(
            tree,
            &per_seat[seat as usize].0,
            &per_seat[seat as usize].1,
            at,
            &actions,
        );
        match walked(Some(&hand)) {
            Ok(v) => {
                assert_eq!(v.method, Method::Exact);
                let got = v.hand.unwrap();
                assert!(got.plus_minus.is_none());
                for (g, w) in got.chips.iter().zip(&want) {
                    assert!((g - w).abs() < 1e-9, "{:?}: {g} not {w}", at.bets);
                }
                hands += 1;
                streets[state.street()] += 1;
            }
            // The others' betting has no chance beside this hand: no value given it.
            Err(_) => assert!(want.iter().all(|w| w.is_nan()), "{want:?}"),
        }
        let want = exact_range(
            tree,
            &per_seat[seat as usize],
            &own[seat as usize],
            at,
            &actions,
        );
        let Ok(v) = walked(None) else {
            assert!(want.iter().all(|w| w.is_nan()), "{want:?}");
            continue;
        };
        let range = v.range.unwrap();
        for (g, w) in range.chips.iter().zip(&want) {
            assert!((g - w).abs() < 1e-9, "range {:?}: {g} not {w}", at.bets);
        }
        for a in 0..actions.len() {
            let mixed: f64 = v.classes.iter().map(|c| c.share * c.values.chips[a]).sum();
            assert!(
                (mixed - range.chips[a]).abs() < 1e-9,
                "classes {mixed} not {}",
                range.chips[a]
            );
        }
        ranges += 1;
    }
    assert!(
        hands >= 20 && ranges >= 20,
        "{hands} hands, {ranges} ranges"
    );
    assert!(streets[0] > 0 && streets[1] > 0, "{streets:?}");
}
