//! Node locking: a lock resolved on the walkable games' trees, held in the walk, and the exact
//! check that a player whose every row is locked is met by the other's exact best response.

use abstraction::rules::GameDef;
use abstraction::tree::{NodeKind, Tree, NONE};
use solver::best_response::{value, Play};
use solver::cfr::{Algorithm, Solver};
use solver::lock::{Lock, Locked};
use solver::session::{new_solver, Abstractions};

/// Every row of Kuhn's p2 fixed, far from an equilibrium (so that the best response to it is
/// not one): a bet after a check 40% of the time, a call of a bet 70%.
const KUHN_P2: &str = r#"
[[lock]]
player = 2
play = { check = 0.6, bet = 0.4 }

[[lock]]
player = 2
play = { fold = 0.3, call = 0.7 }
"#;

/// Leduc's p2 the same, and a raise 20% of the time where one is legal (the third rule
/// overrides the second there).
const LEDUC_P2: &str = r#"
[[lock]]
player = 2
play = { check = 0.6, bet = 0.4 }

[[lock]]
player = 2
play = { fold = 0.3, call = 0.7 }

[[lock]]
player = 2
play = { fold = 0.3, call = 0.5, raise = 0.2 }
"#;

fn solver(def: &GameDef, algorithm: Algorithm) -> Solver {
    new_solver(def, &Abstractions::for_game(def), algorithm, None).unwrap()
}

/// The rows of `seat` in `tree`: (node, bucket) of every hand reaching a decision.
fn rows_of(tree: &Tree, seat: u8) -> usize {
    let mut rows = 0;
    for node in tree.nodes.iter() {
        if node.kind == NodeKind::Action && node.seat == seat {
            let mut b: Vec<u32> = tree.bucket_table(node.board, seat).to_vec();
            b.retain(|&x| x != NONE);
            b.sort_unstable();
            b.dedup();
            rows += b.len();
        }
    }
    rows
}

/// Solves `def` with every row of p2 locked by `text` for `iterations`; returns how far the
/// free player's solved strategy is from its exact best response against the lock (the best
/// response's value less the strategy's), after checking that p2's average is the lock.
fn locked_gap(def: &GameDef, text: &str, algorithm: Algorithm, iterations: u64) -> f64 {
    let lock = Lock::parse(text, "every-row.toml").unwrap();
    let mut s = solver(def, algorithm);
    let locked = Locked::on_tree(&lock, def, &s.tree).unwrap();
    assert_eq!(locked.rows, rows_of(&s.tree, 1), "every row of p2 is fixed");
    s.set_lock(locked.clone()).unwrap();
    for _ in 0..iterations {
        s.iterate();
    }
    let mut fixed = s.average.clone();
    locked.fix_average(&mut fixed);
    assert_eq!(fixed, s.average, "the average of a fixed row is the lock");
    let follow = value(&s.tree, &s.average, 0, Play::Follow);
    let best = value(&s.tree, &s.average, 0, Play::Best);
    let gap = best - follow;
    eprintln!(
        "{} {iterations}: value {follow}, best response {best}, gap {gap:e}",
        algorithm.name()
    );
    gap
}

#[test]
fn kuhn_every_row_locked_gives_the_exact_best_response() {
    let def = GameDef::kuhn();
    let gap = locked_gap(&def, KUHN_P2, Algorithm::CfrPlus, 100_000);
    assert!((0.0..1e-9).contains(&gap.abs()), "gap {gap:e}");
    let gap = locked_gap(&def, KUHN_P2, Algorithm::DCFR, 3000);
    assert!(gap.abs() < 1e-9, "gap {gap:e}");
}

#[test]
fn leduc_every_row_locked_gives_the_exact_best_response() {
    let def = GameDef::leduc();
    let gap = locked_gap(&def, LEDUC_P2, Algorithm::DCFR, 3000);
    assert!(gap.abs() < 1e-9, "gap {gap:e}");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn leduc_every_row_locked_gives_the_exact_best_response_by_cfr_plus() {
    let def = GameDef::leduc();
    let gap = locked_gap(&def, LEDUC_P2, Algorithm::CfrPlus, 100_000);
    assert!(gap.abs() < 1e-9, "gap {gap:e}");
}

/// Without the lock, the same solve's p2 is no lock: the check above can fail.
#[test]
fn an_unlocked_solve_is_not_its_lock() {
    let def = GameDef::kuhn();
    let lock = Lock::parse(KUHN_P2, "every-row.toml").unwrap();
    let mut s = solver(&def, Algorithm::CfrPlus);
    let locked = Locked::on_tree(&lock, &def, &s.tree).unwrap();
    for _ in 0..1000 {
        s.iterate();
    }
    let mut fixed = s.average.clone();
    locked.fix_average(&mut fixed);
    let gap = value(&s.tree, &fixed, 0, Play::Best) - value(&s.tree, &fixed, 0, Play::Follow);
    assert!(gap > 1e-3, "gap {gap:e}");
}

/// A rule at one spot fixes that decision's rows of the hands named, no other.
#[test]
fn a_spot_and_hands_fix_those_rows_only() {
    let def = GameDef::leduc();
    let text = "[[lock]]\nplayer = 2\nspot = \"cbr2 cc | Kd | cbr4\"\nhands = [\"Q\"]\n\
                play = { raise = 1 }\n";
    let lock = Lock::parse(text, "spot.toml").unwrap();
    let s = solver(&def, Algorithm::CfrPlus);
    let locked = Locked::on_tree(&lock, &def, &s.tree).unwrap();
    assert_eq!(locked.rows, 2, "the two queens");
    let nodes: Vec<usize> = (0..s.tree.nodes.len())
        .filter(|&i| locked.node(i))
        .collect();
    assert_eq!(nodes.len(), 1, "{nodes:?}");
}

/// In a bucketed abstraction a hand's row is its bucket's, shared with other hands: `hands`
/// is refused there, `buckets` taken.
#[test]
fn a_bucketed_tree_takes_buckets_not_hands() {
    use abstraction::bucketing::{Bucketing, Size};
    use solver::session::Cards;
    let def = GameDef::ministud();
    // One bucket a street: every hand shares its row.
    let size = Size::parse("1", def.streets.len()).unwrap();
    let cards = Cards::Buckets(Box::new(Bucketing::build(&def, &size, &|_| {}).unwrap()));
    let abs = Abstractions::with_cards(&def, cards);
    let tree = new_solver(&def, &abs, Algorithm::CfrPlus, None)
        .unwrap()
        .tree;
    let hands = "[[lock]]\nplayer = 1\nhands = [\"K\"]\nplay = { check = 1 }\n";
    let e = Locked::on_tree(&Lock::parse(hands, "b.toml").unwrap(), &def, &tree).unwrap_err();
    assert!(format!("{e:#}").contains("name `buckets`"), "{e:#}");
    let buckets = "[[lock]]\nplayer = 1\nbuckets = [0]\nplay = { check = 1 }\n";
    let locked = Locked::on_tree(&Lock::parse(buckets, "b.toml").unwrap(), &def, &tree).unwrap();
    assert!(locked.rows > 0);
}

/// Bad locks are refused with the file, the line and the key.
#[test]
fn bad_locks_name_the_line_and_key() {
    let def = GameDef::leduc();
    let tree = solver(&def, Algorithm::CfrPlus).tree;
    let refused = |text: &str| -> String {
        match Lock::parse(text, "bad.toml").and_then(|l| Locked::on_tree(&l, &def, &tree)) {
            Ok(_) => panic!("accepted {text}"),
            Err(e) => format!("{e:#}"),
        }
    };
    let e = refused("[[lock]]\nplayer = 2\n\nplay = { fold = 0.5, call = 0.4 }\n");
    assert!(
        e.contains("bad.toml line 4") && e.contains("`play`") && e.contains("0.9"),
        "{e}"
    );
    let e = refused("[[lock]]\nplayer = 2\nplay = { fold = 0.5, limp = 0.5 }\n");
    assert!(e.contains("line 3") && e.contains("`play.limp`"), "{e}");
    let e = refused("[[lock]]\nplayer = 2\nspot = \"cbr2 cc | Kd | cc\"\nplay = { fold = 1 }\n");
    assert!(
        e.contains("line 1") && e.contains("fold is not legal"),
        "{e}"
    );
    let e = refused("[[lock]]\nplayer = 2\nspot = \"cc cc | Kd | cc cc\"\nplay = { fold = 1 }\n");
    assert!(e.contains("fixes no row"), "{e}");
    let e = refused("[[lock]]\nplayer = 1\nspot = \"cbr2\"\nplay = { call = 1 }\n");
    assert!(e.contains("p2 acts there, not p1"), "{e}");
    let e = refused("[[lock]]\nplayer = 2\nstreet = \"7th\"\nplay = { call = 1 }\n");
    assert!(e.contains("round 1, round 2"), "{e}");
    let e = refused("[[lock]]\nplayer = 2\nseat = 1\nplay = { call = 1 }\n");
    assert!(e.contains("line 3") && e.contains("seat"), "{e}");
}

/// The deal-sampled solve of a real game, locked from the command line: the file it writes
/// stores the lock at every row fixed, and its report names the lock.
#[test]
fn a_locked_real_game_solve_writes_the_lock() {
    use abstraction::betting_abstraction::BettingAbstraction;
    use abstraction::betting_tree::BettingTree;
    use abstraction::recall::Recall;
    use solver::strategy_file::StrategyFile;
    let d = std::env::temp_dir().join(format!("stud-lock-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let lock_path = d.join("lock.toml");
    // 0.2 and 0.8 are stored exactly by a file's bytes (51 and 204 of 255).
    let text = "[[lock]]\nposition = \"second\"\nstreet = \"7th\"\nplay = { fold = 0, call = 1 }\n\n\
                [[lock]]\nspot = \"3c 8d pb\"\nbuckets = [7]\nplay = { call = 0.2, complete = 0.8 }\n";
    std::fs::write(&lock_path, text).unwrap();
    let out = d.join("locked.strat");
    let abst = d.join("abstractions");
    let args = [
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "64",
        "--iterations",
        "4",
        "--threads",
        "2",
        "--json",
        "--lock",
        lock_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let stdout = crate::common::ok(&crate::common::stud(&args, ""));
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["lock"]["rules"], 2, "{report}");
    assert_eq!(
        report["lock"]["file"],
        lock_path.to_str().unwrap(),
        "{report}"
    );
    let file = StrategyFile::open(&out).unwrap();
    let f = file.betting().unwrap();
    let def = file.game().clone();
    let nb: Vec<u32> = (0..def.streets.len())
        .map(|s| f.bucketing().buckets(s))
        .collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &nb).unwrap();
    let lock = Lock::parse(text, "lock.toml").unwrap();
    let locked = Locked::on_betting(&lock, &def, &tree, Recall::None, f.bucketing()).unwrap();
    assert!(locked.rows > 8, "{} rows", locked.rows);
    let mut checked = 0;
    for (i, node) in tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, _)| locked.node(*i))
    {
        let k = node.num_children as usize;
        for b in 0..tree.num_buckets[node.street as usize] {
            let Some(want) = locked.row(node.first_slot() as usize + b as usize * k, k) else {
                continue;
            };
            let mut got = vec![0.0; k];
            f.row_into(i as u32, b, &mut got).unwrap();
            assert_eq!(got, want, "node {i} bucket {b}");
            checked += 1;
        }
    }
    assert_eq!(checked, locked.rows);
}

/// `stud query --diff`: a locked Leduc solve against the unlocked one moves p2's locked rows
/// to the lock and p1's in answer, the biggest moves first; a file against itself moves none.
#[test]
fn diff_shows_how_the_locked_solve_moved() {
    use crate::common::{ok, stud};
    let d = std::env::temp_dir().join(format!("stud-lock-diff-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let lock = root.join("docs/guide/locks/leduc-calls-down.toml");
    let (a, b) = (d.join("a.strat"), d.join("b.strat"));
    let solve = |out: &std::path::Path, lock: Option<&std::path::Path>| {
        let mut args = vec!["solve", "--game", "leduc", "--iterations", "300", "--json"];
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(l) = lock {
            args.extend(["--lock", l.to_str().unwrap()]);
        }
        ok(&stud(&args, ""))
    };
    solve(&a, None);
    solve(&b, Some(&lock));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let v: serde_json::Value = serde_json::from_str(&ok(&stud(
        &["query", "--diff", a, b, "--top", "0", "--json"],
        "",
    )))
    .unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len() as u64, v["rows_compared"].as_u64().unwrap());
    assert!(v["rows_changed"].as_u64().unwrap() > 10, "{v}");
    let moved: Vec<f64> = rows.iter().map(|r| r["moved"].as_f64().unwrap()).collect();
    assert!(moved.windows(2).all(|w| w[0] >= w[1]), "biggest first");
    // The second rule: p2's kings at its spot raise for sure in the locked file.
    let king = rows
        .iter()
        .find(|r| r["spot"] == "cc cc Kd cbr4" && r["row"] == "Kc")
        .unwrap();
    assert_eq!(king["player"], "p2");
    assert_eq!(king["b"], serde_json::json!([0.0, 0.0, 1.0]), "{king}");
    assert!(rows
        .iter()
        .any(|r| r["player"] == "p1" && r["moved"].as_f64().unwrap() > 0.05));
    let text = ok(&stud(&["query", "--diff", a, a], ""));
    assert!(text.contains(" 0 changed"), "{text}");
}

/// The exact multiway solver locked from the command line: its report names the lock and
/// shows p3, the one seat free, at its best response; a rule of another game's streets is
/// refused before any work, naming the streets there are.
#[test]
fn a_multiway_solve_holds_its_lock_from_the_command_line() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let lock = root.join("docs/guide/locks/kuhn-3p-two-seats.toml");
    let out = std::env::temp_dir().join(format!("stud-lock-3p-{}.json", std::process::id()));
    let (lock, out) = (lock.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "solve",
        "--game",
        "kuhn-3p",
        "--iterations",
        "3000",
        "--json",
        "--lock",
        lock,
        "--out",
        out,
    ];
    let stdout = crate::common::ok(&crate::common::stud(&args, ""));
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["lock"]["rules"], 6, "{report}");
    let (best, value) = (
        report["best_response"][2].as_f64(),
        report["on_policy"][2].as_f64(),
    );
    assert!((best.unwrap() - value.unwrap()).abs() < 1e-4, "{report}");
    let other = root.join("docs/guide/locks/leduc-calls-down.toml");
    let args = ["solve", "--game", "kuhn-3p", "--iterations", "10", "--lock"];
    let args: Vec<&str> = args
        .iter()
        .copied()
        .chain([other.to_str().unwrap(), "--out", out])
        .collect();
    let e = crate::common::err(&crate::common::stud(&args, ""));
    assert!(
        e.contains("line 8") && e.contains("this game's streets are round 1"),
        "{e}"
    );
}

/// The pairs of third street (the classes of `stud query`'s chart).
const PAIRS: [&str; 4] = [
    "buried pair T-A",
    "split pair T-A",
    "buried pair 2-9",
    "split pair 2-9",
];

/// "Completes every pair on 3rd street" (docs/guide/locks/7stud-completes-pairs.toml) on a
/// deal-sampled solve of seven-card stud: the rows it fixes are counted again by a walk of the
/// betting tree of their own (every third-street decision where a complete or raise is legal,
/// every bucket more than half of whose sampled holdings are pairs, summed from `stud query`'s
/// descriptions), the file plays exactly the lock there, and no other row is fixed.
#[test]
fn completes_every_pair_on_third_street_fixes_those_rows_only() {
    use abstraction::betting_abstraction::BettingAbstraction;
    use abstraction::betting_tree::{BettingKind, BettingTree};
    use abstraction::recall::Recall;
    use abstraction::rules::Action;
    use abstraction::tree::Edge;
    use solver::strategy_file::StrategyFile;
    let d = std::env::temp_dir().join(format!("stud-lock-class-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let lock_path = root.join("docs/guide/locks/7stud-completes-pairs.toml");
    let (out, abst) = (d.join("pairs.strat"), d.join("abstractions"));
    let args = [
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "64",
        "--iterations",
        "4",
        "--threads",
        "2",
        "--json",
        "--lock",
        lock_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    crate::common::ok(&crate::common::stud(&args, ""));
    let file = StrategyFile::open(&out).unwrap();
    let f = file.betting().unwrap();
    let def = file.game().clone();
    let b = f.bucketing();
    let nb: Vec<u32> = (0..def.streets.len()).map(|s| b.buckets(s)).collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &nb).unwrap();
    // The pair buckets, from the descriptions `stud query 7stud.strat 3rd` prints.
    let pairs: Vec<u32> = (solver::describe::sampled(b, 0).unwrap().iter().enumerate())
        .filter(|(_, x)| {
            let share: f64 = (x.classes.iter())
                .filter(|s| PAIRS.contains(&s.class.as_str()))
                .map(|s| s.share)
                .sum();
            share > 0.5
        })
        .map(|(b, _)| b as u32)
        .collect();
    assert!(
        !pairs.is_empty() && pairs.len() < nb[0] as usize,
        "{pairs:?}"
    );
    let text = std::fs::read_to_string(&lock_path).unwrap();
    let lock = Lock::parse(&text, "pairs.toml").unwrap();
    let locked = Locked::on_betting(&lock, &def, &tree, Recall::None, b).unwrap();
    let mut counted = 0;
    for (i, node) in tree.nodes.iter().enumerate() {
        if node.kind != BettingKind::Action {
            continue;
        }
        let k = node.num_children as usize;
        let raise = (tree.children(i))
            .position(|c| matches!(tree.edges[c], Edge::Action(Action::CompleteBetRaise(_))));
        for bucket in 0..nb[node.street as usize] {
            let slot = node.first_slot() as usize + bucket as usize * k;
            let fixed = locked.row(slot, k);
            let want = node.street == 0 && raise.is_some() && pairs.contains(&bucket);
            assert_eq!(fixed.is_some(), want, "node {i} bucket {bucket}");
            if let (true, Some(r)) = (want, raise) {
                let mut lock_row = vec![0.0; k];
                lock_row[r] = 1.0;
                let mut got = vec![0.0; k];
                f.row_into(i as u32, bucket, &mut got).unwrap();
                assert_eq!(got, lock_row, "node {i} bucket {bucket}");
                counted += 1;
            }
        }
    }
    assert_eq!(locked.rows, counted);
    assert!(counted > 0);
}

/// A class that is not one is refused with the classes there are.
#[test]
fn an_unknown_class_lists_the_classes() {
    use abstraction::betting_abstraction::BettingAbstraction;
    use abstraction::betting_tree::BettingTree;
    use abstraction::bucketing::{Bucketing, Size};
    use abstraction::recall::Recall;
    let def = GameDef::preset("7stud").unwrap();
    let size = Size::parse("2", def.streets.len()).unwrap();
    let b = Bucketing::build(&def, &size, &|_| {}).unwrap();
    let nb: Vec<u32> = (0..def.streets.len()).map(|s| b.buckets(s)).collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &nb).unwrap();
    let text = "[[lock]]\nstreet = \"3rd\"\nclasses = [\"pair\"]\nplay = { complete = 1 }\n";
    let lock = Lock::parse(text, "pair.toml").unwrap();
    let e = Locked::on_betting(&lock, &def, &tree, Recall::None, &b).unwrap_err();
    let e = format!("{e:#}");
    assert!(
        e.contains("pair.toml line 1")
            && e.contains("\"pair\" is not a hand class")
            && e.contains("on 3rd street: rolled-up trips, buried pair T-A"),
        "{e}"
    );
    let both = "[[lock]]\nbuckets = [1]\nclasses = [\"two pair\"]\nplay = { call = 1 }\n";
    let e = format!("{:#}", Lock::parse(both, "both.toml").unwrap_err());
    assert!(e.contains("`buckets` and `classes`"), "{e}");
}

/// On a walkable heads-up game's public tree a spot's seat prefix must name the seat acting
/// (Kuhn: p1 checks first), and a seat the game has.
#[test]
fn a_spot_s_seat_prefix_names_the_seat_acting() {
    let def = GameDef::kuhn();
    let s = solver(&def, Algorithm::CfrPlus);
    let on_tree = |spot: &str| {
        let text = format!("[[lock]]\nplayer = 2\nspot = \"{spot}\"\nplay = {{ check = 1 }}\n");
        let lock = Lock::parse(&text, "kuhn.toml").unwrap();
        Locked::on_tree(&lock, &def, &s.tree).map_err(|e| format!("{e:#}"))
    };
    on_tree("p1 cc").unwrap();
    let e = on_tree("p2 cc").unwrap_err();
    assert!(
        e.contains("written for p2") && e.contains("p1's action"),
        "{e}"
    );
    let e = on_tree("p3 cc").unwrap_err();
    assert!(e.contains("p3 is no seat"), "{e}");
}
