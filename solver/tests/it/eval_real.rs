//! Evaluating a real-game (betting-tree) strategy file end to end: LBR with the opponent's
//! hidden cards inferred through the file's buckets, the third-street chart, and
//! scripts/eval-strategy's table and JSON, which `stud report --results` draws.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::rules::{Action, GameDef, State};
use serde_json::Value;
use solver::bot::{Bet, Candidates, Lbr, Player, StrategyPlayer};
use solver::purify::Purification;
use solver::strategy_file::{self, BettingSolve, DealSampling, Width};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A tiny-bucket seven-card stud strategy file whose rows are a fixed uneven pattern (far from
/// equilibrium: it folds and raises without regard to its cards' strength).
fn synthetic_7stud(dir: &Path) -> PathBuf {
    let def = GameDef::preset("7stud").unwrap();
    let size = Size::preset("tiny", def.streets.len()).unwrap();
    let bucketing = Bucketing::build(&def, &size, &|_| {}).unwrap();
    let nb: Vec<u32> = (0..def.streets.len())
        .map(|s| bucketing.buckets(s))
        .collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &nb).unwrap();
    let path = dir.join("synthetic.strat");
    let solve = BettingSolve {
        game: &def,
        betting: tree.betting,
        bucketing: &bucketing,
        algorithm: solver::cfr::Algorithm::CfrPlus,
        iterations: 1,
        sampling: DealSampling { batch: 1, seed: 0 },
        width: Width::U8,
        exploitability: None,
        recall: abstraction::recall::Recall::None,
    };
    strategy_file::write_betting(
        &path,
        &solve,
        &tree.nodes,
        &tree.edges,
        &tree.num_buckets,
        tree.num_slots,
        |node, bucket, out| {
            for (a, o) in out.iter_mut().enumerate() {
                *o = 1.0 + ((node as usize * 31 + bucket as usize * 7 + a * 3) % 4) as f64;
            }
            Ok(())
        },
    )
    .unwrap();
    path
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_real_game_strategy_is_measured_by_lbr_the_script_and_the_report() {
    let dir = std::env::temp_dir().join(format!("stud-eval-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let strat = synthetic_7stud(&dir);
    let s = strat.to_str().unwrap();
    let stud = env!("CARGO_BIN_EXE_stud");
    let out = Command::new(stud)
        .args([
            "eval", "lbr", s, "--game", "7stud", "--hands", "40", "--seed", "2",
        ])
        .args(["--rollouts", "16", "--candidates", "64", "--json", "--nets"])
        .arg(dir.join("nets.txt"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (lbr, ci) = (
        v["lbr_mbb_per_hand"].as_f64().unwrap(),
        v["ci95"].as_f64().unwrap(),
    );
    assert!(
        lbr - ci > 0.0,
        "LBR beats a strategy blind to its cards: {v}"
    );
    let nets: Vec<i64> = std::fs::read_to_string(dir.join("nets.txt"))
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(nets.len(), 40);
    assert_eq!(nets.iter().sum::<i64>(), v["chips_a"].as_i64().unwrap());

    let json = dir.join("eval.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/eval-strategy");
    let out = Command::new("bash")
        .arg(script)
        .args([s, "7stud", "--deals", "20", "--lbr-deals", "4", "--out"])
        .arg(&json)
        .env("STUD", stud)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for row in [
        "vs random",
        "vs call",
        "vs raise",
        "vs heuristic",
        "LBR (its win rate)",
    ] {
        assert!(table.contains(row), "{table}");
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 5, "{v}");
    assert_eq!(v["results"][3]["hands"], 40);

    let out = Command::new(stud)
        .args([
            "report",
            s,
            "--game",
            "7stud",
            "--chart-hands",
            "2",
            "--results",
        ])
        .arg(&json)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        html.contains("3rd street") && html.contains("vs heuristic"),
        "{html}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A player that plays a strategy file but hides its buckets, so that LBR asks its policy for
/// every holding rather than once per bucket; it notes the last street it was asked about.
struct WithoutClasses<'a>(&'a StrategyPlayer, AtomicUsize);

impl Player for WithoutClasses<'_> {
    fn name(&self) -> &str {
        "without classes"
    }
    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<solver::bot::Answer> {
        self.1.fetch_max(state.street(), Ordering::Relaxed);
        self.0.policy(state, bets, seat, legal, probs)
    }
}

#[test]
fn exact_lbr_is_the_same_through_the_buckets_or_the_policy_and_on_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("stud-eval-exact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let strat = synthetic_7stud(&dir);
    let def = Arc::new(GameDef::preset("7stud").unwrap());
    let play = |player: &dyn Player, threads| {
        let lbr = Lbr::new(player, Arc::clone(&def), 4, Candidates::All).unwrap();
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| lbr.play(30, 3, &|| {}).unwrap())
    };
    // As solved, and as a real game's file plays by default (its rows thresholded).
    for rule in [Purification::Mixed, Purification::Threshold(0.15)] {
        let p = StrategyPlayer::open(strat.to_str().unwrap(), &def)
            .unwrap()
            .with_purification(rule);
        let by_bucket = play(&p, 1);
        let without = WithoutClasses(&p, AtomicUsize::new(0));
        for other in [play(&p, 2), play(&without, 2)] {
            assert_eq!(by_bucket.chips_a, other.chips_a, "{rule}");
            assert_eq!(by_bucket.ci95.to_bits(), other.ci95.to_bits(), "{rule}");
        }
        if rule == Purification::Mixed {
            // Some hand reached seventh street, where the opponent holds three hidden cards
            // (thresholded, no hand of these 30 deals gets there).
            assert_eq!(without.1.load(Ordering::Relaxed), 4);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/eval-strategy` of a re-solving player plays the four matches and says that LBR,
/// which `stud eval lbr` refuses for it, was not run (rather than failing after the matches).
#[test]
fn eval_strategy_measures_a_re_solving_player_against_the_bots() {
    let stud = env!("CARGO_BIN_EXE_stud");
    let dir = std::env::temp_dir().join(format!("stud-eval-resolve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("eval.json");
    let strat = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../strategies/5stud-hu.strat:resolve=5"
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/eval-strategy");
    let out = Command::new("bash")
        .arg(script)
        .args([strat, "5stud", "--deals", "4", "--out"])
        .arg(&json)
        .env("STUD", stud)
        .output()
        .unwrap();
    let (table, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(err.contains("LBR: not run"), "{err}");
    assert!(!table.contains("LBR"), "{table}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["vs random", "vs call", "vs raise", "vs heuristic"],
        "{v}"
    );
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["hands"] == 8));
    std::fs::remove_dir_all(&dir).unwrap();
}
