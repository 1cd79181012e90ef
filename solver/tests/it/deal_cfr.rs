//! The deal-sampled solver on a walkable stud game: its average strategy, lifted onto the public
//! tree, measured in the real game by the exact best response.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::card_abstraction::Lossless;
use abstraction::cards::Rank;
use abstraction::rules::GameDef;
use abstraction::tree::{Budget, Tree};
use solver::best_response::exploitability;
use solver::deal_cfr::DealSolver;
use std::sync::Arc;
use std::time::Instant;

/// The deal-sampled solve of `def` with `buckets` per street: the real-game exploitability
/// (chips per game) of the uniform strategy, then after each count of `iterations`.
fn climb(
    def: &GameDef,
    buckets: &str,
    batch: usize,
    iterations: &[u64],
    alternating: bool,
) -> Vec<(u64, f64, f64)> {
    let size = Size::parse(buckets, def.streets.len()).unwrap();
    let bucketing = Arc::new(Bucketing::build(def, &size, &|_| {}).unwrap());
    let betting = BettingAbstraction::for_game(def);
    let public = Tree::build(def, &Lossless, betting, Budget::nodes(1 << 24)).unwrap();
    let tree = BettingTree::build(def, betting, &size.buckets).unwrap();
    let mut s = DealSolver::new(def, tree, bucketing, batch, 7).unwrap();
    s.alternating = alternating;
    let mut rows = vec![(
        0,
        exploitability(&public, &s.lift(&public).unwrap()).chips,
        0.0,
    )];
    let mut secs = 0.0;
    for &n in iterations {
        let start = Instant::now();
        while s.iterations < n {
            s.iterate().unwrap();
        }
        secs += start.elapsed().as_secs_f64();
        let e = exploitability(&public, &s.lift(&public).unwrap()).chips;
        rows.push((n, e, secs));
    }
    rows
}

#[test]
fn real_exploitability_falls_with_iterations() {
    let mut def = GameDef::ministud();
    def.deck.ranks = vec![Rank::KING, Rank::ACE];
    let rows = climb(&def, "32", 64, &[50, 200], false);
    let (uniform, n, n4) = (rows[0].1, rows[1].1, rows[2].1);
    assert!(n < uniform / 4.0, "{rows:?}");
    assert!(n4 < n * 0.8, "{rows:?}");
}

/// The table of docs/notes/ladder.md:
/// `cargo test --release -p solver --test it deal_cfr:: -- --ignored --nocapture`
#[test]
#[ignore = "a minute of CPU; prints the ladder of docs/notes/ladder.md"]
fn ladder_of_the_deal_sampled_solver() {
    let def = GameDef::ministud();
    println!(
        "| buckets | iterations | deals | real game (chips) | real game (mbb) | iteration s |"
    );
    println!("|---|---|---|---|---|---|");
    for k in ["2", "8", "32", "128"] {
        for (n, chips, secs) in climb(&def, k, 256, &[25, 100, 400, 1600], false) {
            println!(
                "| k{k}-{k} | {n} | {} | {chips:.6} | {:.2} | {secs:.1} |",
                n * 256,
                chips / def.big_bet as f64 * 1000.0
            );
        }
    }
}

/// A deal-sampled checkpoint resumes; one whose header was edited (with the header's own
/// checksum recomputed) is refused as damaged, by the checksum of the whole file.
#[test]
fn an_edited_deal_checkpoint_is_refused() {
    use solver::checkpoint::Problem;
    use solver::session::{resume, save};
    let mut def = GameDef::ministud();
    def.deck.ranks = vec![Rank::KING, Rank::ACE];
    let size = Size::parse("4", def.streets.len()).unwrap();
    let bucketing = Arc::new(Bucketing::build(&def, &size, &|_| {}).unwrap());
    let betting = BettingAbstraction::for_game(&def);
    let fresh = || {
        let tree = BettingTree::build(&def, betting, &size.buckets).unwrap();
        DealSolver::new(&def, tree, Arc::clone(&bucketing), 16, 7).unwrap()
    };
    let mut s = fresh();
    for _ in 0..3 {
        s.iterate().unwrap();
    }
    let dir = std::env::temp_dir().join(format!("stud-deal-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.ckpt");
    let problem = Problem::deal(&def, &bucketing, abstraction::recall::Recall::None);
    save(&path, &s, &problem).unwrap();
    let mut back = fresh();
    resume(&path, &mut back, &problem).unwrap();
    assert_eq!(back.iterations, 3);
    assert_eq!(back.regrets, s.regrets);

    let mut bytes = std::fs::read(&path).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let head = 32..32 + len;
    let at = bytes[head.clone()]
        .windows(8)
        .position(|w| w == b"\"ante\":1")
        .expect("the game's ante in the header");
    bytes[head.start + at + 7] = b'2';
    let fnv = solver::container::fnv1a(&bytes[head]);
    bytes[16..24].copy_from_slice(&fnv.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = resume(&path, &mut fresh(), &problem).unwrap_err();
    assert!(
        format!("{e:#}").contains("file checksum does not match"),
        "{e:#}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
