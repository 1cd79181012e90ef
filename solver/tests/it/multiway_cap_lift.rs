//! A capped abstraction's strategy measured exactly (docs/notes/multiway.md, "A cap for
//! multiway pots"): on a small doorstud of two bets a round (queens to aces, so that its whole
//! tree is quick to build), a strategy of the abstraction capped at one bet is lifted onto the
//! real, uncapped game as the file's player plays it: a full policy at every real decision, the
//! same as the player's at random hands (raises past the cap and folds after them included),
//! and a fold after a raise past the cap leaves the next street to the seats still in.

use abstraction::bucketing::{Bucketing, Size};
use abstraction::cards::Rank;
use abstraction::history_tree::{HistoryKind, HistoryTree, Move};
use abstraction::multiway_betting::{MultiwayCap, WithinStreet};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::{Action, GameDef, Next, State};
use abstraction::tree::Budget;
use solver::bot::check::check_player;
use solver::bot::{MultiwayPlayer, Player};
use solver::cfr::Algorithm;
use solver::checkpoint::Problem;
use solver::multiway::lift::{Lift, Play};
use solver::multiway::nash_conv;
use solver::multiway::sampled::SampledSolver;
use solver::session::sampled::{betting, write_strategy};
use solver::strategy_file::multiway::{MultiwayFile, RowFormat};
use std::sync::Arc;

const BATCH: usize = 192;

/// doorstud with two bets a round, its deck queens to aces in two suits.
fn game() -> GameDef {
    let mut def = GameDef::preset("doorstud").unwrap();
    def.max_bets = 2;
    def.deck.ranks = vec![Rank::QUEEN, Rank::KING, Rank::ACE];
    def
}

/// A sampled solve of `def` capped at `cap`, 20 batches in, its lift onto `tree`, and its
/// strategy file read back, with its player.
fn solved(
    def: &GameDef,
    tree: &HistoryTree,
    cap: &str,
) -> (SampledSolver, Lift, MultiwayFile, MultiwayPlayer) {
    let cap = MultiwayCap::parse(cap).unwrap();
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    let size = Size::parse("256", 2).unwrap();
    let bucketing = Bucketing::build(&heads_up, &size, &|_| {}).unwrap();
    let buckets = Arc::new(MultiwayBuckets::best_opponent(bucketing));
    let abstract_game = betting(def, WithinStreet::History, Some(cap), 1 << 20).unwrap();
    let mut s =
        SampledSolver::new(def, abstract_game, buckets, Algorithm::Linear, BATCH, 7).unwrap();
    while s.iterations < 20 {
        s.iterate().unwrap();
    }
    s.settle();
    let lift = Lift::new(tree, def, &s.betting, &s.buckets, &s.rows).unwrap();
    let file = std::env::temp_dir().join(format!(
        "stud-mw-cap-lift-{}-{}.strat",
        cap.name().replace('@', "at"),
        std::process::id()
    ));
    let problem = Problem::sampled(def, &s.buckets, WithinStreet::History).with_cap(Some(cap));
    write_strategy(&file, &s, &problem, RowFormat::Byte).unwrap();
    let read = MultiwayFile::open(&file).unwrap();
    let player = MultiwayPlayer::new(MultiwayFile::open(&file).unwrap(), "capped").rows_as_stored();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(read.betting.cap, Some(cap));
    (s, lift, read, player)
}

#[test]
fn a_capped_strategy_lifted_is_a_full_policy_that_plays_as_the_file_s_player() {
    let def = game();
    let tree = HistoryTree::build(&def, Budget::nodes(1 << 24)).unwrap();
    for cap in ["1@3", "1@2"] {
        let (s, lift, _, player) = solved(&def, &tree, cap);
        let policy = lift.policy(&tree, &s.average_strategy());
        // A full policy at every real decision: probabilities in [0, 1] summing to 1.
        for (i, set) in tree.infosets.iter().enumerate() {
            let row = &policy[set.first_slot as usize..][..set.actions as usize];
            let sum: f64 = row.iter().sum();
            assert!(
                (sum - 1.0).abs() < 1e-5 && row.iter().all(|p| (0.0..=1.0).contains(p)),
                "{cap}: {} plays {row:?}",
                tree.seen[i].describe()
            );
        }
        // Some decisions are past the cap (they call) and some rows lack the real raise (at
        // the abstract cap), which is never played.
        assert!(lift.closed > 0, "{cap}");
        let mut lacking = 0;
        for (set, play) in tree.infosets.iter().zip(&lift.plays) {
            if let Play::Row { actions, onto, .. } = *play {
                if (actions as u32) < set.actions as u32 {
                    lacking += 1;
                    let s = set.first_slot as usize;
                    let raise = (0..set.actions as usize)
                        .find(|&a| matches!(tree.actions[s + a], Action::CompleteBetRaise(_)))
                        .unwrap();
                    assert!(!onto[..actions as usize].contains(&(raise as u8)), "{cap}");
                    assert_eq!(policy[s + raise], 0.0, "{cap}");
                }
            }
        }
        assert!(lacking > 0, "{cap}");
        // What `stud match`, `stud serve` and `stud query` play (the file's player, by real
        // states) is the lift, at every decision of random hands of every legal action.
        let checked = check_player(&tree, &def, &policy, &player, 400, 5).unwrap();
        assert!(
            checked.decisions > 1000 && checked.max_difference <= 1.0 / 255.0 + 1e-6,
            "{cap}: {checked:?}"
        );
        let nc = nash_conv(&tree, &policy).total();
        assert!(nc.is_finite() && nc > 0.0, "{cap}: {nc}");
    }
}

#[test]
fn a_fold_after_a_raise_past_the_cap_leaves_the_next_street_to_the_seats_still_in() {
    // Capped at one bet: the bring-in, a completion (the cap), a raise past it (the abstract
    // call), the bring-in calls (the abstract street closes with three in), and the completer
    // folds to the raise: absorbed in the abstract street, but two seats are in, and the next
    // street's decision is in the tree of two live seats, as the player finds it.
    let def = game();
    let tree = HistoryTree::build(&def, Budget::nodes(1 << 24)).unwrap();
    let (s, lift, file, player) = solved(&def, &tree, "1@3");
    let script = [
        Move::BringIn,
        Move::CompleteBetRaise,
        Move::CompleteBetRaise,
        Move::CheckCall,
        Move::Fold,
    ];
    let mut state = State::new(&def).unwrap();
    let (mut at, mut bets, mut played) = (0usize, Vec::new(), 0);
    let seat = loop {
        let node = tree.nodes[at];
        match state.next() {
            Next::Deal { .. } => {
                // The first card not dealt, the tree's first child.
                let card = state.unseen().iter().next().unwrap();
                state.deal(card).unwrap();
                at = node.first_child as usize;
            }
            Next::Act { seat } if played == script.len() => break seat,
            Next::Act { .. } => {
                let set = tree.infosets[node.index as usize];
                let s = set.first_slot as usize;
                let a = (0..set.actions as usize)
                    .find(|&a| Move::of(tree.actions[s + a]) == script[played])
                    .unwrap();
                bets.push((state.street(), tree.actions[s + a]));
                state.apply(tree.actions[s + a]).unwrap();
                at = node.first_child as usize + a;
                played += 1;
            }
            Next::Over => panic!("the hand ended"),
        }
    };
    assert_eq!((state.street(), state.live().count_ones()), (1, 2));
    let node = tree.nodes[at];
    assert_eq!(node.kind, HistoryKind::Action);
    let spot = file.locate(&state, &bets).unwrap();
    assert_eq!(file.betting.trees[spot.tree as usize].live, 2);
    let set = tree.infosets[node.index as usize];
    assert!(matches!(lift.plays[node.index as usize], Play::Row { .. }));
    let policy = lift.policy(&tree, &s.average_strategy());
    let legal = state.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    player
        .policy(&state, &bets, seat, &legal, &mut probs)
        .unwrap();
    for a in 0..set.actions as usize {
        let real = tree.actions[set.first_slot as usize + a];
        let i = legal.iter().position(|&l| l == real).unwrap();
        let lifted = policy[set.first_slot as usize + a];
        assert!(
            (probs[i] - lifted).abs() <= 1.0 / 255.0 + 1e-6,
            "{real}: {probs:?}"
        );
    }
}
