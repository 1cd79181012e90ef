//! `stud aggregate`: each cell is the strategy of `stud query --ranges` at the cell's spot,
//! summed over the player's holdings (weighed by its range there); the help examples run on the
//! shipped files (slow: every pair of door cards).

use crate::common;
use crate::explore_browser::shipped;

use abstraction::cards::Card;
use abstraction::rules::{Action, Deal, Next, State};
use common::{err, ok, stud};
use serde_json::Value;
use solver::aggregate::later::{decision, later_street, Facing, LaterStreet};
use solver::aggregate::{cells_of, Boards, Spot};
use solver::bot::matches::{play_hand, stream, DealCards};
use solver::bot::Player;
use solver::bot::StrategyPlayer;
use solver::describe::Classes;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// `stud query FILE SPOT --ranges --json`'s rows of the player to act (p2), each with its
/// holdings and p2's mean reach over them: the frequencies of its actions, weighed by reach.
fn query_frequencies(file: &str, spot: &str) -> (Vec<String>, Vec<f64>) {
    let q: Value =
        serde_json::from_str(&ok(&stud(&["query", file, spot, "--ranges", "--json"], ""))).unwrap();
    assert_eq!(q["seat"], 1, "{spot}");
    let names: Vec<String> = (q["action_names"].as_array().unwrap().iter())
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let reach: Vec<(u64, f64, u64)> = (q["ranges"][1]["buckets"].as_array().unwrap().iter())
        .map(|b| {
            let (n, r) = (
                b["holdings"].as_u64().unwrap(),
                b["reach"].as_f64().unwrap(),
            );
            (b["bucket"].as_u64().unwrap(), r, n)
        })
        .collect();
    let mut sum = vec![0.0; names.len()];
    let mut total = 0.0;
    for (bucket, r, n) in reach {
        let w = r * n as f64;
        let probs = numbers(&q["hands"][bucket as usize]["probabilities"]);
        for (s, p) in sum.iter_mut().zip(&probs) {
            *s += w * p;
        }
        total += w;
    }
    (names, sum.iter().map(|s| s / total).collect())
}

#[test]
fn a_cell_is_the_query_s_rows_summed_over_the_player_s_range() {
    let file = shipped("7stud-hu.strat");
    let f = StrategyFile::open(std::path::Path::new(&file)).unwrap();
    let player = StrategyPlayer::open(&file, f.game())
        .unwrap()
        .with_purification(Purification::Mixed);
    let card = |s: &str| s.parse::<Card>().unwrap();
    // The 8d facing the 3c's bring-in: fold, call, complete over every holding alike.
    let cells = cells_of(&player, card("8d"), card("3c")).unwrap();
    assert_eq!(cells.len(), 1);
    let c = &cells[0];
    assert_eq!((c.spot, c.query.as_str()), (Spot::First, "3c 8d pb"));
    assert_eq!(c.holdings, 1225, "C(50, 2) holdings");
    let (names, want) = query_frequencies(&file, &c.query);
    assert_eq!(names, ["fold", "call 2", "complete to 5"]);
    let got = [c.frequencies[0], c.frequencies[2], c.frequencies[3]];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
    }
    assert_eq!((c.frequencies[1], c.frequencies[4]), (0.0, 0.0));
    // The 3d brings in against the Kc, which completes: fold, call, raise over the holdings
    // weighed by how likely the bring-in was with each.
    let cells = cells_of(&player, card("3d"), card("Kc")).unwrap();
    assert_eq!(cells.len(), 2);
    assert_eq!(cells[0].query, "Kc 3d");
    let first = cells[0].frequencies;
    assert!(
        (first[1] + first[3] - 1.0).abs() < 1e-9,
        "bring in or complete: {first:?}"
    );
    let c = &cells[1];
    assert_eq!(
        (c.spot, c.query.as_str()),
        (Spot::FacingCompletion, "Kc 3d pb cbr5")
    );
    let (names, want) = query_frequencies(&file, &c.query);
    assert_eq!(names, ["fold", "call 3", "raise to 10"]);
    let got = [c.frequencies[0], c.frequencies[2], c.frequencies[4]];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
    }
}

#[test]
fn five_card_stud_s_second_street_is_its_door_grid() {
    let file = shipped("5stud-hu.strat");
    let f = StrategyFile::open(std::path::Path::new(&file)).unwrap();
    let player = StrategyPlayer::open(&file, f.game())
        .unwrap()
        .with_purification(Purification::Mixed);
    let card = |s: &str| s.parse::<Card>().unwrap();
    // One down card: the 8d facing the 3c's bring-in over each of the 50 cards left alike.
    let cells = cells_of(&player, card("8d"), card("3c")).unwrap();
    let c = &cells[0];
    assert_eq!(
        (c.spot, c.query.as_str(), c.holdings),
        (Spot::First, "3c 8d pb", 50)
    );
    let (names, want) = query_frequencies(&file, &c.query);
    assert_eq!(names, ["fold", "call 2", "complete to 5"]);
    let got = [c.frequencies[0], c.frequencies[2], c.frequencies[3]];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
    }
    // The command names the street as five-card stud players do.
    let out = ok(&stud(
        &["aggregate", &file, "--street", "2nd", "--json"],
        "",
    ));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["street"], "2nd street");
    assert_eq!(v["cells"].as_array().unwrap().len(), 169 + 78);
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_help_examples_run_on_the_shipped_files() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let help = ok(&stud(&["aggregate", "--help"], ""));
    let charts = std::env::temp_dir().join(format!("stud-aggregate-help-{}", std::process::id()));
    std::fs::create_dir_all(&charts).unwrap();
    let mut ran = 0;
    for line in help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("stud aggregate "))
    {
        let args: Vec<String> = line["stud ".len()..]
            .split_whitespace()
            .map(|a| match a.strip_prefix("strategies/") {
                Some(f) => root
                    .join("strategies")
                    .join(f)
                    .to_str()
                    .unwrap()
                    .to_string(),
                // The examples write their charts where they are typed: here, a folder of
                // this run's own.
                None if a.ends_with(".svg") => charts.join(a).to_str().unwrap().to_string(),
                None => a.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&stud(&args, ""));
        assert!(!out.is_empty(), "{line}");
        if line.contains("--street") {
            later_example(line, &out, &charts);
        } else if line.contains("--csv") {
            // A header and a line per spot and pair of doors: 169 first decisions, and a
            // completion faced wherever the player's door brought in: razz's 91 (the higher
            // rank, and the diamond above the club on equal ranks).
            let faced = if line.contains("razz") { 91 } else { 78 };
            assert_eq!(out.lines().count(), 1 + 169 + faced, "{line}");
        }
        if line.contains("--svg") && !line.contains("--street") {
            let svg = charts.join("third-street.svg");
            let text = std::fs::read_to_string(&svg).unwrap();
            assert!(text.starts_with("<svg") && text.matches("<rect").count() > 300);
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["cells"].as_array().unwrap().len(), 169 + 78);
        }
        ran += 1;
    }
    assert!(ran >= 3, "{ran} examples in\n{help}");
    std::fs::remove_dir_all(&charts).unwrap();
}

/// Checks the output of a help example of a later street.
fn later_example(line: &str, out: &str, charts: &std::path::Path) {
    if line.contains("--csv") {
        let header = out.lines().next().unwrap();
        assert_eq!(
            header,
            "facing,class,board,decisions,check,bet,fold,call,raise"
        );
        assert!(out.lines().count() > 5, "{line}");
    }
    if line.contains("--svg") {
        let svg = charts.join("4th-street.svg");
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.matches("<rect").count() > 20);
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["street_name"], "4th street");
    }
}

fn hu_player(name: &str) -> StrategyPlayer {
    let file = shipped(name);
    let f = StrategyFile::open(std::path::Path::new(&file)).unwrap();
    StrategyPlayer::open(&file, f.game())
        .unwrap()
        .with_purification(Purification::Mixed)
}

fn later(player: &StrategyPlayer, street: usize, deals: u64, seed: u64) -> LaterStreet {
    later_street(player, street, deals, seed, &|_| {}).unwrap()
}

#[test]
fn later_rows_are_distributions_and_count_the_deals() {
    let player = hu_player("7stud-hu.strat");
    let deals = 300;
    // An independent count: the same deals played to the end by the match code (the same
    // streams of the seed), a deal reaching the streets up to the one it ended on.
    let def = std::sync::Arc::new(player.file().game().clone());
    let ended: Vec<usize> = (0..deals)
        .map(|i| {
            let cards = DealCards::random(&def, &mut stream(11, i, 0));
            let seats: [&dyn Player; 2] = [&player, &player];
            let (st, _) = play_hand(&def, &seats, &cards, &mut stream(11, i, 1), None).unwrap();
            st.street()
        })
        .collect();
    let mut reached = deals;
    // The same seed plays the same deals whatever the street aggregated: a deal reaching a
    // street reached every one before it.
    for street in 1..=4 {
        let t = later(&player, street, deals, 11);
        assert_eq!((t.deals, t.seed, t.street), (deals, 11, street));
        assert!(
            t.reached <= reached,
            "street {street}: {} > {reached}",
            t.reached
        );
        let want = ended.iter().filter(|&&e| e >= street).count() as u64;
        assert_eq!(t.reached, want, "street {street}");
        assert!(t.reached > 0);
        reached = t.reached;
        // Every street reached has at least two decisions (check-check, or bet then call or
        // fold), and at most the four bets of a capped round and their answers.
        assert!(t.decisions >= 2 * t.reached && t.decisions <= 10 * t.reached);
        assert_eq!(t.rows.iter().map(|r| r.decisions).sum::<u64>(), t.decisions);
        for r in &t.rows {
            let sum: f64 = r.frequencies.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{r:?}");
            assert!(r.decisions > 0 && t.classes.contains(&r.class) && t.boards.contains(&r.board));
            let [check, bet, fold, call, raise] = r.frequencies;
            match r.facing {
                Facing::NoBet => assert_eq!((fold, call, raise), (0.0, 0.0, 0.0), "{r:?}"),
                _ => assert_eq!((check, bet), (0.0, 0.0), "{r:?}"),
            }
        }
    }
}

#[test]
fn later_streets_are_the_same_for_a_seed_on_any_number_of_threads() {
    let player = hu_player("razz-hu.strat");
    let a = later(&player, 2, 200, 5);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let b = one.install(|| later(&player, 2, 200, 5));
    assert_eq!(a, b);
    let c = later(&player, 2, 200, 6);
    assert_ne!(a.rows, c.rows, "another seed, other deals");
}

#[test]
fn a_later_decision_is_the_query_s_row_of_the_hand() {
    let player = hu_player("7stud-hu.strat");
    let def = player.file().game();
    let card = |s: &str| s.parse::<abstraction::cards::Card>().unwrap();
    // "3c 8d pb cc | Qs 2h x b": p1 holds (As Kd) 3c Qs against p2's 8d 2h, facing a bet.
    let mut mine = ["As", "Kd", "3c", "Qs"].map(card).into_iter();
    let mut theirs = ["8d", "2h"].map(card).into_iter();
    let mut st = State::new(def).unwrap();
    let mut bets = Vec::new();
    let mut acts = ["pb", "cc", "x", "b"].into_iter();
    loop {
        match st.next() {
            Next::Deal { seat: Some(0), .. } => st.deal(mine.next().unwrap()).unwrap(),
            Next::Deal {
                seat: Some(1),
                deal: Deal::Down,
            } => st.deal_unknown().unwrap(),
            Next::Deal { seat: Some(1), .. } => st.deal(theirs.next().unwrap()).unwrap(),
            Next::Act { .. } => {
                let Some(w) = acts.next() else { break };
                let a = match w {
                    "pb" => Action::BringIn,
                    "cc" | "x" => Action::CheckCall,
                    _ => (st.legal_actions().into_iter())
                        .find(|a| matches!(a, Action::CompleteBetRaise(_)))
                        .unwrap(),
                };
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            n => panic!("{n:?}"),
        }
    }
    let legal = st.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    player.policy(&st, &bets, 0, &legal, &mut probs).unwrap();
    let classes = Classes::of(player.file().betting().unwrap().bucketing(), 1);
    let boards = Boards::of(def.variant.showdown());
    let d = decision(&classes, &boards, &st, &bets, &legal, &probs).unwrap();
    let q: Value = serde_json::from_str(&ok(&stud(
        &[
            "query",
            &shipped("7stud-hu.strat"),
            "3c 8d pb cc | Qs 2h x b",
            "--hand",
            "AsKd",
            "--json",
        ],
        "",
    )))
    .unwrap();
    let hand = &q["hands"][0];
    // The hand's bucket holds only this class here, so the class's row is the bucket's row.
    assert_eq!(hand["classes"].as_array().unwrap().len(), 1);
    assert_eq!(classes.names[d.class], hand["classes"][0]["class"]);
    assert_eq!(boards.names()[d.board], "queen high or less showing");
    assert_eq!(d.facing, Facing::Bet);
    let want = numbers(&hand["probabilities"]);
    assert_eq!(
        q["action_names"],
        serde_json::json!(["fold", "call 5", "raise to 10"])
    );
    let [check, bet, fold, call, raise] = d.frequencies;
    assert_eq!((check, bet), (0.0, 0.0));
    for (g, w) in [fold, call, raise].iter().zip(&want) {
        assert!((g - w).abs() < 1e-12, "{:?} vs {want:?}", d.frequencies);
    }
}

#[test]
fn a_later_street_prints_as_json_and_csv_and_bad_streets_are_refused() {
    let file = shipped("7stud-hu.strat");
    let json = ok(&stud(
        &[
            "aggregate",
            &file,
            "--street",
            "6th",
            "--deals",
            "40",
            "--json",
        ],
        "",
    ));
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (v["street"].as_u64(), v["deals"].as_u64()),
        (Some(3), Some(40))
    );
    let rows = v["rows"].as_array().unwrap();
    let csv = ok(&stud(
        &[
            "aggregate",
            &file,
            "--street",
            "6th street",
            "--deals",
            "40",
            "--csv",
        ],
        "",
    ));
    assert_eq!(csv.lines().count(), 1 + rows.len(), "the same rows");
    let text = ok(&stud(
        &["aggregate", &file, "--street", "6", "--deals", "40"],
        "",
    ));
    assert!(text.starts_with("6th street: 40 deals (seed 1)"), "{text}");
    for bad in ["9", "2nd", "fifth", ""] {
        let e = err(&stud(
            &["aggregate", &file, "--street", bad, "--deals", "40"],
            "",
        ));
        assert!(
            e.contains(&format!("--street {bad}:")) && e.contains("3rd street to 7th street"),
            "{e}"
        );
    }
    let e = err(&stud(
        &["aggregate", &file, "--street", "5", "--deals", "0"],
        "",
    ));
    assert!(e.contains("--deals"), "{e}");
}
