//! Locks in the multiway solvers: on the exact one, two seats of three fixed at every row and
//! the third's solve met by its exact best response against them; on the sampled one, the
//! rows a lock names (counted by a walk of the rows of its own) played and written as the lock.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::multiway_betting::{pot_classes, MultiwayBetting, MwKind, WithinStreet};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::{Action, GameDef, Variant};
use abstraction::tree::Edge;
use solver::cfr::Algorithm;
use solver::lock::Lock;
use solver::multiway::sampled::{lock as sampled_lock, SampledSolver};
use solver::multiway::{lock::on_history, nash_conv, Solver};
use solver::session::multiway::build_tree;
use std::sync::Arc;

/// Solves `def` with p1 and p2 fixed by `text` for `iterations` of `algorithm`; checks that
/// every row of the two seats is fixed (counted from the tree's information sets) and that
/// their average is the lock, and returns p3's best response value less its solved value.
fn third_seat_gap(def: &GameDef, text: &str, algorithm: Algorithm, iterations: u64) -> f64 {
    let lock = Lock::parse(text, "two-seats.toml").unwrap();
    let (tree, _) = build_tree(def, None).unwrap();
    let locked = on_history(&lock, def, &tree).unwrap();
    let two_seats = tree.infosets.iter().filter(|s| s.seat < 2).count();
    assert_eq!(locked.rows, two_seats, "every row of p1 and p2");
    let mut s = Solver::new(tree, algorithm);
    s.set_lock(locked.clone()).unwrap();
    for _ in 0..iterations {
        s.iterate();
    }
    let avg = s.average_strategy();
    let mut fixed = avg.clone();
    locked.fix_average(&mut fixed);
    assert_eq!(fixed, avg, "the average of a fixed row is the lock");
    let nc = nash_conv(&s.tree, &avg);
    let gap = nc.best_response[2] - nc.on_policy[2];
    eprintln!(
        "{} {iterations}: p3 value {}, best response {}, gap {gap:e}",
        algorithm.name(),
        nc.on_policy[2],
        nc.best_response[2]
    );
    gap
}

#[test]
fn kuhn_3p_two_seats_locked_gives_the_third_its_best_response() {
    let def = GameDef::preset("kuhn-3p").unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let text =
        std::fs::read_to_string(root.join("docs/guide/locks/kuhn-3p-two-seats.toml")).unwrap();
    let gap = third_seat_gap(&def, &text, Algorithm::CfrPlus, 20_000);
    assert!(gap.abs() < 1e-6, "gap {gap:e}");
    // Unlocked, the same solve's p3 is no best response to p1 and p2 as locked: the check can
    // fail.
    let (tree, _) = build_tree(&def, None).unwrap();
    let locked = on_history(&Lock::parse(&text, "t.toml").unwrap(), &def, &tree).unwrap();
    let mut s = Solver::new(tree, Algorithm::CfrPlus);
    for _ in 0..2000 {
        s.iterate();
    }
    let mut avg = s.average_strategy();
    locked.fix_average(&mut avg);
    let nc = nash_conv(&s.tree, &avg);
    assert!(nc.best_response[2] - nc.on_policy[2] > 1e-3, "{nc:?}");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn leduc_3p_two_seats_locked_gives_the_third_its_best_response() {
    let def = GameDef::preset("leduc-3p").unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let text =
        std::fs::read_to_string(root.join("docs/guide/locks/leduc-3p-two-seats.toml")).unwrap();
    let gap = third_seat_gap(&def, &text, Algorithm::DCFR, 1000);
    assert!(gap.abs() < 1e-6, "gap {gap:e}");
}

/// A rule the exact solver's rows cannot say is refused by line and key.
#[test]
fn the_exact_multiway_lock_refuses_positions_and_buckets() {
    let def = GameDef::preset("kuhn-3p").unwrap();
    let (tree, _) = build_tree(&def, None).unwrap();
    let refused = |text: &str| {
        let lock = Lock::parse(text, "bad.toml").unwrap();
        format!("{:#}", on_history(&lock, &def, &tree).unwrap_err())
    };
    let e = refused("[[lock]]\nposition = \"first\"\nplay = { call = 1 }\n");
    assert!(
        e.contains("bad.toml line 1") && e.contains("`player`"),
        "{e}"
    );
    let e = refused("[[lock]]\nplayer = 4\nplay = { call = 1 }\n");
    assert!(e.contains("this game has 3 seats"), "{e}");
    let e = refused("[[lock]]\nplayer = 1\nbuckets = [0]\nplay = { call = 1 }\n");
    assert!(e.contains("name `hands`"), "{e}");
}

/// Seven-card stud three-handed on the sampled solver, 4 buckets a street: "whoever acts second
/// on 7th street never folds" and a third-street rule by hand class. The rows fixed are counted
/// again from the rows' layout, the solve never adds to them, and its strategy is the lock there.
#[test]
fn a_sampled_multiway_solve_plays_and_writes_its_lock() {
    let def = GameDef::preset("7stud-3p").unwrap();
    let mut size = Size::preset("tiny", 5).unwrap();
    size.buckets = vec![4; 5];
    size.train = 300;
    let hu = Bucketing::build(&GameDef::stud(Variant::SevenStud), &size, &|_| {}).unwrap();
    // The classes of the strongest third-street bucket: more than half of its holdings are of
    // them (all are), so the class rule fixes it and whichever others are mostly of them.
    let described = solver::describe::sampled(&hu, 0).unwrap();
    let top = (0..described.len())
        .max_by(|&a, &b| described[a].ehs.total_cmp(&described[b].ehs))
        .unwrap();
    let names: Vec<String> = described[top]
        .classes
        .iter()
        .map(|s| s.class.clone())
        .collect();
    let classed: Vec<u32> = (0..described.len() as u32)
        .filter(|&b| {
            let d = &described[b as usize];
            let share: f64 = (d.classes.iter())
                .filter(|s| names.contains(&s.class))
                .map(|s| s.share)
                .sum();
            share > 0.5
        })
        .collect();
    assert!(classed.contains(&(top as u32)));
    let text = format!(
        "[[lock]]\nposition = \"second\"\nstreet = \"7th\"\nplay = {{ fold = 0, call = 1 }}\n\n\
         [[lock]]\nstreet = \"3rd\"\nclasses = {names:?}\nplay = {{ complete = 1 }}\n"
    );
    let lock = Lock::parse(&text, "3p.toml").unwrap();
    let betting = MultiwayBetting::build(
        &def,
        BettingAbstraction::for_game(&def),
        WithinStreet::History,
        usize::MAX,
    )
    .unwrap();
    let buckets = Arc::new(MultiwayBuckets::best_opponent(hu));
    let mut s = SampledSolver::new(&def, betting, buckets, Algorithm::CfrPlus, 12, 5).unwrap();
    let locked = sampled_lock::on_betting(&lock, &def, &s.betting, &s.rows, &s.buckets).unwrap();
    // The rows counted again: each decision's pot classes × buckets, at the row layout's slots.
    let mut want = vec![false; s.rows.slots];
    let mut counted = 0;
    for (ti, t) in s.betting.trees.iter().enumerate() {
        let st = t.street as usize;
        let nb = s.rows.buckets[st];
        for i in t.root as usize..t.end as usize {
            let n = s.betting.nodes[i];
            if n.kind != MwKind::Action {
                continue;
            }
            let legal = |f: &dyn Fn(&Action) -> bool| {
                s.betting
                    .children(i)
                    .any(|c| matches!(s.betting.edges[c], Edge::Action(a) if f(&a)))
            };
            let seventh = st == 4 && n.role == 1 && legal(&|a| *a == Action::Fold);
            let third = st == 0 && legal(&|a| matches!(a, Action::CompleteBetRaise(_)));
            for class in 0..pot_classes(st) {
                for b in 0..nb {
                    if seventh || (third && classed.contains(&b)) {
                        let row = (class * nb + b) as usize * t.actions as usize;
                        want[s.rows.base[ti] + row + n.index as usize] = true;
                        counted += 1;
                    }
                }
            }
        }
    }
    assert_eq!(locked.rows, counted);
    s.set_lock(locked.clone()).unwrap();
    for _ in 0..20 {
        s.iterate().unwrap();
    }
    s.settle();
    let played = s.average_strategy();
    let mut fixed = played.clone();
    locked.fix_average(&mut fixed);
    assert_eq!(fixed, played, "the strategy is the lock at its rows");
    // The first slot of every fixed row is where the count put one, and nothing was added there.
    let mut seen = 0;
    for slot in (0..s.rows.slots).filter(|&slot| want[slot]) {
        assert!(locked.row(slot, 1).is_some(), "slot {slot}");
        assert_eq!(
            (s.regrets[slot], s.average[slot]),
            (0.0, 0.0),
            "slot {slot}"
        );
        seen += 1;
    }
    assert_eq!(seen, counted);
}
