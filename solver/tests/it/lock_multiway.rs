//! Locks in the multiway solvers: on the exact one, two seats of three fixed at every row and
//! the third's solve met by its exact best response against them; on the sampled one, the
//! rows a lock names (counted by a walk of the rows of its own) played and written as the lock.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::{Bucketing, CardView, Size};
use abstraction::cards::Card;
use abstraction::multiway_betting::{
    pot_class, pot_classes, MultiwayBetting, MwKind, WithinStreet,
};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::{Action, GameDef, Variant};
use abstraction::tree::Edge;
use solver::cfr::Algorithm;
use solver::lock::{Kind, Lock};
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

/// Seven-card stud three-handed and its heads-up bucketing of 4 buckets a street (300
/// training views: built in a moment).
fn tiny_3p() -> (GameDef, Bucketing) {
    let def = GameDef::preset("7stud-3p").unwrap();
    let mut size = Size::preset("tiny", 5).unwrap();
    size.buckets = vec![4; 5];
    size.train = 300;
    let hu = Bucketing::build(&GameDef::stud(Variant::SevenStud), &size, &|_| {}).unwrap();
    (def, hu)
}

/// The sampled solver of `def` on the bucketing `hu` (the view against the best showing
/// opponent), 12 traversals a batch.
fn sampled_3p(def: &GameDef, hu: Bucketing) -> SampledSolver {
    let betting = MultiwayBetting::build(
        def,
        BettingAbstraction::for_game(def),
        WithinStreet::History,
        usize::MAX,
    )
    .unwrap();
    let buckets = Arc::new(MultiwayBuckets::best_opponent(hu));
    SampledSolver::new(def, betting, buckets, Algorithm::CfrPlus, 12, 5).unwrap()
}

/// The first slots of the rows `locked` fixes, every row of every decision looked at.
fn fixed_rows(s: &SampledSolver, locked: &solver::lock::Locked) -> Vec<usize> {
    let mut out = Vec::new();
    for (ti, t) in s.betting.trees.iter().enumerate() {
        let nb = s.rows.buckets[t.street as usize];
        for i in t.root as usize..t.end as usize {
            let n = s.betting.nodes[i];
            if n.kind != MwKind::Action {
                continue;
            }
            for row in 0..pot_classes(t.street as usize) * nb {
                let slot = s.rows.base[ti] + (row * t.actions + n.index) as usize;
                if locked.row(slot, n.num_children as usize).is_some() {
                    out.push(slot);
                }
            }
        }
    }
    out
}

/// A rule at a spot of a three-handed table (`stud query`'s notation: the up cards p1's first,
/// then the betting) fixes that decision's rows in the pot class its spot enters the street
/// with, and no other row: the decision found again by a walk of the street's tree from its
/// root by the spot's actions, the pot class from the chips the spot put in, a hand's bucket
/// from its view against the best showing opponent.
#[test]
fn a_spot_at_a_table_fixes_that_decisions_rows_only() {
    let (def, hu) = tiny_3p();
    let s = sampled_3p(&def, hu.clone());
    let resolve = |text: &str| {
        let lock = Lock::parse(text, "spot.toml").unwrap();
        sampled_lock::on_betting(&lock, &def, &s.betting, &s.rows, &s.buckets)
    };
    // The node a street's actions reach from the root of the tree of `live` seats.
    let walk = |street: usize, actions: &[Action]| {
        let tree = s.betting.tree(street, 3).unwrap() as usize;
        let mut node = s.betting.trees[tree].root as usize;
        for &a in actions {
            node = (s.betting.children(node))
                .find(|&c| matches!(s.betting.edges[c], Edge::Action(b) if Kind::of(b) == Kind::of(a)))
                .unwrap();
        }
        (tree, node)
    };
    let slot = |(tree, node): (usize, usize), class: u32, bucket: u32| {
        let t = s.betting.trees[tree];
        let row = class * s.rows.buckets[t.street as usize] + bucket;
        s.rows.base[tree] + (row * t.actions + s.betting.nodes[node].index) as usize
    };
    // Third street: p1's 3c brings in; p2 (second to act) facing it, buckets 1 and 2.
    let text =
        "[[lock]]\nspot = \"3c 8d Kh pb\"\nbuckets = [2, 1]\nplay = { fold = 0, call = 1 }\n";
    let locked = resolve(text).unwrap();
    let at = walk(0, &[Action::BringIn]);
    assert_eq!(s.betting.nodes[at.1].role, 1);
    assert_eq!(
        fixed_rows(&s, &locked),
        vec![slot(at, 0, 1), slot(at, 0, 2)]
    );
    // Fourth street after every seat called the bring-in: the pot entering it is three antes
    // and three bring-ins; p3's K-Q shows best and checks, p1 (second) to act, every bucket.
    let text =
        "[[lock]]\nposition = \"second\"\nspot = \"p1 3c p2 8d p3 Kh pb cc cc | 9h Ts Qd x\"\n\
                street = \"4th\"\nplay = { check = 0.5, bet = 0.5 }\n";
    let locked = resolve(text).unwrap();
    let class = pot_class(&def, 1, 3 * def.ante + 3 * def.bring_in) as u32;
    assert!(class > 0);
    let at = walk(1, &[Action::CheckCall]);
    let want: Vec<usize> = (0..4).map(|b| slot(at, class, b)).collect();
    assert_eq!(fixed_rows(&s, &locked), want);
    assert_eq!(locked.row(want[0], 2), Some(&[0.5, 0.5][..]));
    // A hand: p2's aces against the king showing, the best showing opponent.
    let text = "[[lock]]\nspot = \"3c 8d Kh pb\"\nhands = [\"AsAd\"]\nplay = { complete = 1 }\n";
    let locked = resolve(text).unwrap();
    let view = CardView {
        street: 0,
        down: ["As".parse::<Card>().unwrap(), "Ad".parse::<Card>().unwrap()]
            .into_iter()
            .collect(),
        up: ["8d".parse::<Card>().unwrap()].into_iter().collect(),
        opp_up: ["Kh".parse::<Card>().unwrap()].into_iter().collect(),
    };
    let b = hu.bucket(&view).unwrap();
    assert_eq!(
        fixed_rows(&s, &locked),
        vec![slot(walk(0, &[Action::BringIn]), 0, b)]
    );
    // Refused by name: another position acts there; the spot stops before the up cards; a
    // hand of the wrong number of down cards; a hand without a spot.
    let refused = |text: &str| format!("{:#}", resolve(text).unwrap_err());
    let e =
        refused("[[lock]]\nposition = \"first\"\nspot = \"3c 8d Kh pb\"\nplay = { call = 1 }\n");
    assert!(
        e.contains("spot.toml line 1") && e.contains("second to act"),
        "{e}"
    );
    let e = refused("[[lock]]\nspot = \"pb\"\nplay = { call = 1 }\n");
    assert!(e.contains("p1's up card"), "{e}");
    let e =
        refused("[[lock]]\nspot = \"3c 8d Kh pb\"\nhands = [\"AsAdAh\"]\nplay = { call = 1 }\n");
    assert!(e.contains("holds 2 down cards"), "{e}");
    let e = refused("[[lock]]\nhands = [\"AsAd\"]\nplay = { call = 1 }\n");
    assert!(e.contains("or a `spot`"), "{e}");
}

/// Seven-card stud three-handed on the sampled solver, 4 buckets a street: "whoever acts second
/// on 7th street never folds" and a third-street rule by hand class. The rows fixed are counted
/// again from the rows' layout, the solve never adds to them, and its strategy is the lock there.
#[test]
fn a_sampled_multiway_solve_plays_and_writes_its_lock() {
    let (def, hu) = tiny_3p();
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
    let mut s = sampled_3p(&def, hu);
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

/// A sampled multiway solve locked from the command line, end to end: warm-started from an
/// unlocked solve's checkpoint, its checkpoint records the lock (a resume without it, or with
/// other rules, is refused by name; the same rules written otherwise resume), and `stud query
/// --diff` of the two files shows the rows the spot rule fixes moved to the lock, and none
/// moved from a file to itself.
#[test]
fn a_locked_table_solve_resumes_with_its_lock_only_and_diffs_against_the_unlocked() {
    use crate::common::{err, ok, stud};
    let d = std::env::temp_dir().join(format!("stud-mw-lock-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let abst = d.join("abstractions");
    let path = |name: &str| d.join(name).to_str().unwrap().to_string();
    let lock = "[[lock]]\nspot = \"3c 8d Kh pb\"\nplay = { fold = 0, call = 1 }\n";
    std::fs::write(d.join("lock.toml"), lock).unwrap();
    std::fs::write(
        d.join("same.toml"),
        format!("# the same rules\n{}", lock.replace("call = 1", "c = 1.0")),
    )
    .unwrap();
    std::fs::write(
        d.join("other.toml"),
        lock.replace("fold = 0, call = 1", "fold = 1"),
    )
    .unwrap();
    let solve = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "solve",
            "--game",
            "7stud-3p",
            "--abstraction",
            "tiny",
            "--batch",
            "12",
            "--threads",
            "2",
            "--json",
            "--keep-checkpoint",
            "--view",
            "best-opponent",
        ];
        let (abst, out) = (abst.to_str().unwrap().to_string(), path(out));
        args.extend(["--abstraction-dir", &abst, "--out", &out]);
        args.extend(extra);
        stud(&args, "")
    };
    ok(&solve("a.strat", &["--iterations", "3"]));
    std::fs::copy(d.join("a.ckpt"), d.join("b.ckpt")).unwrap();
    let (l, same, other) = (path("lock.toml"), path("same.toml"), path("other.toml"));
    let b = ok(&solve(
        "b.strat",
        &["--iterations", "5", "--resume", "--lock", &l],
    ));
    let report: serde_json::Value = serde_json::from_str(b.lines().last().unwrap()).unwrap();
    assert_eq!(report["resumed_from_iteration"], 3, "{report}");
    assert_eq!(report["lock"]["rules"], 1, "{report}");
    // The checkpoint holds the lock: refused without it and with other rules.
    let e = err(&solve("b.strat", &["--iterations", "6", "--resume"]));
    assert!(e.contains("locked by") && e.contains("no lock"), "{e}");
    let e = err(&solve(
        "b.strat",
        &["--iterations", "6", "--resume", "--lock", &other],
    ));
    assert!(e.contains("other rules"), "{e}");
    ok(&solve(
        "b.strat",
        &["--iterations", "6", "--resume", "--lock", &same],
    ));
    let (a, b) = (path("a.strat"), path("b.strat"));
    let v: serde_json::Value = serde_json::from_str(&ok(&stud(
        &["query", "--diff", &a, &b, "--top", "0", "--json"],
        "",
    )))
    .unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len() as u64, v["rows_compared"].as_u64().unwrap());
    let moved: Vec<f64> = rows.iter().map(|r| r["moved"].as_f64().unwrap()).collect();
    assert!(moved.windows(2).all(|w| w[0] >= w[1]), "biggest first");
    // The spot's rows: third street, every seat in, second to act after the bring-in.
    let at: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| {
            r["street"] == 0
                && r["position"] == "second"
                && r["betting_codes"] == serde_json::json!(["first pb"])
        })
        .collect();
    assert_eq!(at.len() as u32, 8, "a row per bucket");
    for r in &at {
        assert_eq!(r["actions"][1], "cc", "{r}");
        assert_eq!(r["b"][0].as_f64().unwrap(), 0.0, "{r}");
        assert_eq!(r["b"][1].as_f64().unwrap(), 1.0, "{r}");
    }
    assert!(
        at.iter().any(|r| r["moved"].as_f64().unwrap() > 0.1),
        "the lock moved them"
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&stud(&["query", "--diff", &a, &a, "--json"], ""))).unwrap();
    assert_eq!(v["rows_changed"], 0, "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// A `classes` rule on the table view fixes, at each decision, the buckets of the classes in
/// the bucketing of the seats live there, as the solver buckets a seat (not of the seats that
/// began the street): after a fold on third street the two seats left are bucketed by the
/// bucketing of two. The class is chosen so that the two bucketings name other buckets, so
/// that reading the street's bucketing would fail.
#[test]
fn a_class_rule_reads_the_bucketing_of_the_seats_live_at_the_decision() {
    let (def, hu) = tiny_3p();
    let mut size = Size::preset("tiny", 5).unwrap();
    size.buckets = vec![4; 5];
    size.train = 300;
    let stud = GameDef::stud(Variant::SevenStud);
    let by_live: Vec<Bucketing> = (2..=3)
        .map(|live| {
            let table = MultiwayBuckets::table_of(3, live);
            Bucketing::build_table(&stud, table, &size, &|_| {}).unwrap()
        })
        .collect();
    let buckets = Arc::new(MultiwayBuckets::table(hu, by_live, 3).unwrap());
    let betting = MultiwayBetting::build(
        &def,
        BettingAbstraction::for_game(&def),
        WithinStreet::History,
        usize::MAX,
    )
    .unwrap();
    let s = SampledSolver::new(&def, betting, buckets.clone(), Algorithm::CfrPlus, 12, 5).unwrap();
    let of = |live: usize, names: &[String]| {
        solver::lock::classes::of_classes(buckets.for_live(live), 0, names).unwrap()
    };
    let names = solver::describe::Classes::of(buckets.for_live(3), 0).names;
    let class = (names.iter())
        .map(|n| vec![n.clone()])
        .find(|n| !of(2, n).is_empty() && of(2, n) != of(3, n))
        .expect("a class whose buckets differ with two and three seats live");
    let text = format!("[[lock]]\nstreet = \"3rd\"\nclasses = {class:?}\nplay = {{ call = 1 }}\n");
    let lock = Lock::parse(&text, "class.toml").unwrap();
    let locked = sampled_lock::on_betting(&lock, &def, &s.betting, &s.rows, &s.buckets).unwrap();
    let mut after_fold = 0;
    for (ti, t) in s
        .betting
        .trees
        .iter()
        .enumerate()
        .filter(|(_, t)| t.street == 0)
    {
        let nb = s.rows.buckets[0];
        for i in t.root as usize..t.end as usize {
            let n = s.betting.nodes[i];
            let calls = (s.betting.children(i))
                .any(|c| matches!(s.betting.edges[c], Edge::Action(Action::CheckCall)));
            if n.kind != MwKind::Action || !calls {
                continue;
            }
            let live = n.live.count_ones() as usize;
            after_fold += usize::from(live < t.live as usize);
            let fixed: Vec<u32> = (0..nb)
                .filter(|&b| {
                    let slot = s.rows.base[ti] + (b * t.actions + n.index) as usize;
                    locked.row(slot, n.num_children as usize).is_some()
                })
                .collect();
            assert_eq!(fixed, of(live, &class), "node {i}, {live} live");
        }
    }
    assert!(after_fold > 0, "a third-street decision after a fold");
}

/// A seat prefix in a rule's spot must name the seat whose card or action follows, and a seat
/// the game has: anything else is refused by name (it was read past).
#[test]
fn a_spot_s_seat_prefixes_are_checked() {
    let (def, hu) = tiny_3p();
    let s = sampled_3p(&def, hu);
    let resolve = |spot: &str| {
        let text = format!("[[lock]]\nspot = \"{spot}\"\nplay = {{ call = 1 }}\n");
        let lock = Lock::parse(&text, "seats.toml").unwrap();
        sampled_lock::on_betting(&lock, &def, &s.betting, &s.rows, &s.buckets)
            .map_err(|e| format!("{e:#}"))
    };
    resolve("p1 3c p2 8d p3 Kh p1 pb").unwrap();
    let e = resolve("p2 3c 8d Kh pb").unwrap_err();
    assert!(
        e.contains("written for p2") && e.contains("p1's up card"),
        "{e}"
    );
    let e = resolve("3c 8d Kh p2 pb").unwrap_err();
    assert!(
        e.contains("written for p2") && e.contains("p1's action"),
        "{e}"
    );
    let e = resolve("3c 8d Kh p4 pb").unwrap_err();
    assert!(e.contains("p4 is no seat") && e.contains("3 seats"), "{e}");
    let e = resolve("3c 8d Kh p9 pb").unwrap_err();
    assert!(e.contains("\"p9\"") && e.contains("p1 to p8"), "{e}");
    let e = resolve("3c 8d Kh pb p2").unwrap_err();
    assert!(e.contains("nothing after it"), "{e}");
}

/// The spot (`stud query`'s notation, seat prefixes on) of an information set's public
/// events: its up cards and actions in order.
fn spot_of(seen: &abstraction::history_tree::Seen) -> String {
    use abstraction::history_tree::{Event, Move};
    let words: Vec<String> = seen
        .events()
        .map(|e| match e {
            Event::Up { seat, card } => format!("p{} {card}", seat + 1),
            Event::Community(card) => card.to_string(),
            Event::Act { seat, kind } => {
                let w = match kind {
                    Move::Fold => "f",
                    Move::CheckCall => "cc",
                    Move::BringIn => "pb",
                    Move::CompleteBetRaise => "b",
                };
                format!("p{} {w}", seat + 1)
            }
        })
        .collect();
    words.join(" ")
}

/// The exact multiway solver takes `spot` rules as the sampled one reads them: three-player
/// Kuhn's p1 and p2 locked spot by spot (every public history where they act, written from
/// the tree's information sets) is the lock of `kuhn-3p-two-seats.toml` row for row, and the
/// third seat's solve against it is its best response to 1e-6.
#[test]
fn spot_rules_lock_every_row_of_two_seats_in_the_exact_multiway_solver() {
    let def = GameDef::preset("kuhn-3p").unwrap();
    let (tree, _) = build_tree(&def, None).unwrap();
    let mut spots: Vec<(u8, String, bool)> = Vec::new();
    for (i, set) in tree.infosets.iter().enumerate() {
        let first = set.first_slot as usize;
        let facing = (tree.actions[first..first + set.actions as usize]).contains(&Action::Fold);
        let spot = (set.seat, spot_of(&tree.seen[i]), facing);
        if set.seat < 2 && !spots.contains(&spot) {
            spots.push(spot);
        }
    }
    let mut text = String::new();
    for (seat, spot, facing) in &spots {
        let p = seat + 1;
        if *facing {
            text += &format!(
                "[[lock]]\nplayer = {p}\nspot = \"{spot}\"\nplay = {{ fold = 0.3, call = 0.7 }}\n\n\
                 [[lock]]\nplayer = {p}\nspot = \"{spot}\"\nhands = [\"K\"]\nplay = {{ call = 1 }}\n\n"
            );
        } else {
            text += &format!(
                "[[lock]]\nplayer = {p}\nspot = \"{spot}\"\nplay = {{ check = 0.6, bet = 0.4 }}\n\n"
            );
        }
    }
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let by_player =
        std::fs::read_to_string(root.join("docs/guide/locks/kuhn-3p-two-seats.toml")).unwrap();
    let resolve = |text: &str| on_history(&Lock::parse(text, "t.toml").unwrap(), &def, &tree);
    // Row by row (a free slot is NaN, never equal to itself).
    let rows = |l: &solver::lock::Locked| -> Vec<Option<Vec<f64>>> {
        (tree.infosets.iter())
            .map(|s| (l.row(s.first_slot as usize, s.actions as usize)).map(<[f64]>::to_vec))
            .collect()
    };
    let (spots, players) = (resolve(&text).unwrap(), resolve(&by_player).unwrap());
    assert_eq!(spots.rows, players.rows);
    assert_eq!(rows(&spots), rows(&players));
    let gap = third_seat_gap(&def, &text, Algorithm::CfrPlus, 20_000);
    assert!(gap.abs() < 1e-6, "gap {gap:e}");
    // One spot fixes its decision's rows only: p2 facing p1's bet, every card.
    let one = resolve("[[lock]]\nplayer = 2\nspot = \"b\"\nplay = { call = 1 }\n").unwrap();
    assert_eq!(one.rows, 4, "p2's four cards (kuhn-3p deals T J Q K)");
    // Refused by name: another seat acts there; the street; an action not legal there.
    let refused = |text: &str| format!("{:#}", resolve(text).unwrap_err());
    let e = refused("[[lock]]\nplayer = 1\nspot = \"b\"\nplay = { call = 1 }\n");
    assert!(
        e.contains("t.toml line 1") && e.contains("p2 acts there, not p1"),
        "{e}"
    );
    let e = refused("[[lock]]\nplayer = 2\nspot = \"p3 b\"\nplay = { call = 1 }\n");
    assert!(
        e.contains("written for p3") && e.contains("p1's action"),
        "{e}"
    );
    let e = refused("[[lock]]\nplayer = 2\nspot = \"cc\"\nplay = { fold = 1 }\n");
    assert!(e.contains("fold is not legal"), "{e}");
}
