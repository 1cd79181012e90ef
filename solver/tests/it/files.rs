//! Strategy files and checkpoints: round trips, refusal of damaged files, bit-identical resume,
//! and the same result whatever the number of threads.

use crate::common;

use abstraction::rules::GameDef;
use solver::best_response::exploitability;
use solver::cfr::{Algorithm, Solver};
use solver::checkpoint;
use solver::checkpoint::Problem;
use solver::container::{self, Container};
use solver::session::{self, new_solver, Abstractions};
use solver::strategy_file::{self, BettingFile, PublicFile, StrategyFile, StrategyHeader};
use std::path::{Path, PathBuf};

fn solved(def: &GameDef, alg: Algorithm, iterations: u64) -> Solver {
    let mut s = new_solver(def, &Abstractions::for_game(def), alg, None).unwrap();
    for _ in 0..iterations {
        s.iterate();
    }
    s
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The public-tree file at `path`.
fn public(path: &Path) -> PublicFile {
    match StrategyFile::open(path).unwrap() {
        StrategyFile::Public(f) => f,
        _ => panic!("{} is not a public-tree file", path.display()),
    }
}

/// The betting-tree file at `path`.
fn betting(path: &Path) -> BettingFile {
    match StrategyFile::open(path).unwrap() {
        StrategyFile::Betting(f) => f,
        _ => panic!("{} is not a betting-tree file", path.display()),
    }
}

fn write_leduc(path: &Path) -> Solver {
    let def = GameDef::leduc();
    let s = solved(&def, Algorithm::CfrPlus, 50);
    let e = exploitability(&s.tree, &s.average);
    let abs = Abstractions::for_game(&def);
    strategy_file::write(path, &s, &def, &abs.card_name(), abs.betting, Some(e)).unwrap();
    s
}

#[test]
fn strategy_file_round_trip() {
    let path = tmp("round.strat");
    let s = write_leduc(&path);
    let f = public(&path);
    assert_eq!(f.header().iterations, 50);
    assert_eq!(f.header().game, GameDef::leduc());
    assert_eq!(f.header().slots as usize, s.tree.num_slots);
    // Every stored row is the average strategy within the quantization step.
    let n = s.tree.num_hands();
    for (i, node) in s.tree.nodes.iter().enumerate() {
        if node.kind != abstraction::tree::NodeKind::Action {
            continue;
        }
        let k = node.num_children as usize;
        let public = s.tree.boards[node.board as usize].public;
        for h in 0..n {
            if public.contains(s.tree.hands[h]) {
                // No strategy for a hand that holds a public card: it cannot be there.
                let e = f.probabilities(i as u32, h as u32).unwrap_err();
                assert!(e.to_string().contains("public cards"), "{e}");
                continue;
            }
            let got = f.probabilities(i as u32, h as u32).unwrap();
            // The hand's row is its lossless bucket: its number among the possible hands.
            let r = s.tree.bucket_table(node.board, node.seat)[h] as usize;
            let row = &s.average
                [node.first_slot() as usize + r * k..node.first_slot() as usize + r * k + k];
            let sum: f64 = row.iter().sum();
            for a in 0..k {
                let want = if sum > 0.0 {
                    row[a] / sum
                } else {
                    1.0 / k as f64
                };
                assert!(
                    (got[a] - want).abs() < 1e-4,
                    "node {i} hand {h}: {got:?} vs {row:?}"
                );
            }
        }
    }
}

fn refused(bytes: &[u8], name: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, bytes).unwrap();
    match StrategyFile::open(&p) {
        Ok(_) => panic!("{name}: a damaged file was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn damaged_files_are_refused() {
    let path = tmp("good.strat");
    write_leduc(&path);
    let good = std::fs::read(&path).unwrap();
    // Truncated anywhere: in the prefix, the header, the data.
    for cut in [0, 10, 30, good.len() / 2, good.len() - 1] {
        let e = refused(&good[..cut], "cut.strat");
        assert!(e.contains("truncated"), "cut at {cut}: {e}");
    }
    // Longer than the header says.
    let mut long = good.clone();
    long.push(0);
    assert!(refused(&long, "long.strat").contains("damaged"));
    // A foreign file.
    let e = refused(
        b"PK\x03\x04 this is a zip file, not a strategy",
        "zip.strat",
    );
    assert!(e.contains("not a strategy file"), "{e}");
    // Another version.
    let mut v = good.clone();
    v[8] = solver::container::FORMAT_VERSION as u8 + 1;
    let e = refused(&v, "version.strat");
    assert!(e.contains(&format!("version {}", v[8])), "{e}");
    // A file of format 2 (before betting-tree files): refused as another version.
    v[8] = 2;
    let e = refused(&v, "v2.strat");
    assert!(e.contains("another version: format version 2"), "{e}");
    // A flipped byte in the header, then in each array.
    let mut h = good.clone();
    h[40] ^= 0x10;
    assert!(refused(&h, "head.strat").contains("damaged"));
    let mut d = good.clone();
    let last = d.len() - 3;
    d[last] ^= 0x01;
    let e = refused(&d, "data.strat");
    assert!(e.contains("checksum of section 4"), "{e}");
    // A checkpoint is not a strategy file.
    let ck = tmp("x.ckpt");
    let def = GameDef::kuhn();
    let abs = Abstractions::for_game(&def);
    session::save(
        &ck,
        &solved(&def, Algorithm::CfrPlus, 3),
        &Problem::walked(&def, &abs),
    )
    .unwrap();
    let e = format!("{:#}", StrategyFile::open(&ck).err().unwrap());
    assert!(e.contains("not a strategy file"), "{e}");
}

/// The header's bytes from the prefix of a version-4 file: where they start and how many.
fn header_span(bytes: &[u8]) -> std::ops::Range<usize> {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    32..32 + len
}

#[test]
fn a_header_edited_with_its_checksum_recomputed_is_refused() {
    // Version 3 accepted this: its header checksum sits in the prefix and covers the header
    // alone, so an edit that recomputed it changed the answers. The file checksum covers it.
    let path = tmp("edited-header.strat");
    write_leduc(&path);
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes[8], 5, "written in format version 5");
    let head = header_span(&bytes);
    // The game is stored as JSON text in the header: give it another ante.
    let text = &bytes[head.clone()];
    let at = head.start
        + text
            .windows(8)
            .position(|w| w == b"\"ante\":1")
            .expect("the game's ante in the header");
    bytes[at + 7] = b'2';
    let fnv = solver::container::fnv1a(&bytes[head]);
    bytes[16..24].copy_from_slice(&fnv.to_le_bytes());
    let e = refused(&bytes, "edited-header-2.strat");
    assert!(e.contains("file checksum does not match"), "{e}");
}

#[test]
fn version_3_files_still_open_and_answer() {
    // A Kuhn strategy written by the build before format 4 (kept as test data: the shipped
    // strategies are version 3 too, and tests/it/shipped.rs checks them through the binary).
    let v3 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kuhn-v3.strat");
    let f = public(&v3);
    assert_eq!(f.format_version(), 3);
    assert_eq!(f.header().game, GameDef::kuhn());
    // Jc, first to act: checks 80% of the time (as `stud query` printed when it was written).
    let p = f.probabilities(0, 0).unwrap();
    assert!((p[0] - 0.8).abs() < 0.01, "{p:?}");
    // A flipped byte of its strategy is refused on opening.
    let mut bytes = std::fs::read(&v3).unwrap();
    bytes[961] ^= 0xff;
    let e = refused(&bytes, "kuhn-v3-flipped.strat");
    assert!(e.contains("the checksum of section 4"), "{e}");
}

#[test]
fn damaged_tree_gives_errors_not_panics() {
    let path = tmp("tree.strat");
    write_leduc(&path);
    let f = public(&path);
    let nodes = f.header().nodes as u32;
    assert!(f.node(nodes).is_err());
    assert!(f.probabilities(nodes + 5, 0).is_err());
    assert!(f.probabilities(0, 1000).is_err());
    // Point the root's children past the end, and write the file again with checksums that
    // match (as a buggy or hostile writer would): opening accepts it, and every lookup is still
    // bounds-checked.
    let bytes = std::fs::read(&path).unwrap();
    let c = Container::<StrategyHeader>::open(&bytes, strategy_file::MAGIC, "strategy").unwrap();
    let mut sections: Vec<Vec<u8>> = (0..c.sections.len())
        .map(|i| c.section(&bytes, i).unwrap().to_vec())
        .collect();
    sections[0][4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let p2 = tmp("tree2.strat");
    let refs: Vec<&[u8]> = sections.iter().map(Vec::as_slice).collect();
    container::write(&p2, strategy_file::MAGIC, c.header.clone(), &refs).unwrap();
    let g = public(&p2);
    assert!(g.children(0).is_err());
    assert!(
        g.probabilities(0, 0).is_ok(),
        "the root's own row is intact"
    );
}

#[test]
fn resume_is_bit_identical() {
    for alg in [Algorithm::CfrPlus, Algorithm::DCFR] {
        let def = GameDef::leduc();
        let abs = Abstractions::for_game(&def);
        let straight = solved(&def, alg, 40);
        let half = solved(&def, alg, 17);
        let ck = tmp("resume.ckpt");
        let problem = Problem::walked(&def, &abs);
        session::save(&ck, &half, &problem).unwrap();
        let mut resumed = new_solver(&def, &abs, alg, None).unwrap();
        session::resume(&ck, &mut resumed, &problem).unwrap();
        assert_eq!(resumed.iterations, 17);
        while resumed.iterations < 40 {
            resumed.iterate();
        }
        assert_eq!(bits(&resumed.regrets), bits(&straight.regrets));
        assert_eq!(bits(&resumed.average), bits(&straight.average));
        // Another game or algorithm is refused.
        let mut s = new_solver(&def, &abs, Algorithm::Cfr, None).unwrap();
        let e = session::resume(&ck, &mut s, &problem).unwrap_err();
        assert!(format!("{e:#}").contains("another algorithm"), "{e:#}");
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn same_result_on_one_thread_or_many() {
    let mut def = GameDef::ministud();
    def.deck.suits = 2; // 6 cards: small, but with top-level chance nodes to split
    for alg in [Algorithm::CfrPlus, Algorithm::DCFR, Algorithm::Cfr] {
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| solved(&def, alg, 15))
        };
        let one = run(1);
        let four = run(4);
        assert_eq!(bits(&one.regrets), bits(&four.regrets));
        assert_eq!(bits(&one.average), bits(&four.average));
        let expl = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| exploitability(&one.tree, &one.average).chips.to_bits())
        };
        assert_eq!(expl(1), expl(4));
    }
}

#[test]
fn a_solver_that_does_not_fit_is_refused_before_allocating() {
    let def = GameDef::leduc();
    let abs = Abstractions::for_game(&def);
    // Too small for the tree itself (with its slots' regrets and averages): stops while building.
    let e = new_solver(&def, &abs, Algorithm::CfrPlus, Some(1000))
        .err()
        .unwrap();
    assert!(
        format!("{e:#}").contains("outgrew the memory available"),
        "{e:#}"
    );
    // Room for the tree (465 nodes, 26 KB) and its 2,184 infoset-actions × 16 bytes, but not
    // for the scratch (109 KB) and the file writing as well: refused by the estimate.
    let e = new_solver(&def, &abs, Algorithm::CfrPlus, Some(100_000))
        .err()
        .unwrap();
    let msg = format!("{e:#}");
    assert!(
        msg.contains("2184 infoset-actions × 16 bytes") && msg.contains("0 MiB are available"),
        "{msg}"
    );
    new_solver(&def, &abs, Algorithm::CfrPlus, Some(300_000)).unwrap();
}

#[test]
fn a_file_that_cannot_be_written_is_found_before_the_work_and_leaves_nothing() {
    use solver::container::{check_writable, write};
    let d = tmp("unwritable");
    std::fs::create_dir_all(d.join("full")).unwrap();
    std::fs::write(d.join("full/x"), "").unwrap();
    // A directory as the output: refused up front; written anyway, the rename fails, the
    // error names the file and the temporary file is gone.
    let e = check_writable(&d.join("full")).unwrap_err().to_string();
    assert!(e.contains("full is a directory"), "{e}");
    let e = write(&d.join("full"), b"STUDTEST", 7u32, &[b"data"]).unwrap_err();
    assert!(format!("{e:#}").contains("full"), "{e:#}");
    assert!(!d.join("full.tmp").exists());
    // A folder that does not exist, and one where nothing can be created.
    let e = check_writable(&d.join("none/x.strat")).unwrap_err();
    assert!(format!("{e:#}").contains("none/x.strat.tmp"), "{e:#}");
    assert!(check_writable(Path::new("/proc/x.strat")).is_err());
    // A writable path: checked, and nothing is left behind.
    check_writable(&d.join("ok.strat")).unwrap();
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "only `full`");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_failed_strategy_write_keeps_the_checkpoint_and_each_failure_says_what_was_kept() {
    let d = tmp("results");
    std::fs::create_dir_all(&d).unwrap();
    let (ckpt, out) = (d.join("s.ckpt"), d.join("s.strat"));
    let order = std::cell::RefCell::new(Vec::new());
    let step = |name: &'static str, ok: bool| {
        let order = &order;
        move || {
            order.borrow_mut().push(name);
            if ok {
                Ok(())
            } else {
                Err(anyhow::anyhow!("{name} failed"))
            }
        }
    };
    let results = |keep, save, write| {
        order.borrow_mut().clear();
        checkpoint::write_results(&ckpt, &out, keep, save, write).map_err(|e| format!("{e:#}"))
    };
    // --keep-checkpoint: the checkpoint first, then the strategy file whatever became of it.
    let kept = results(true, step("ckpt", true), step("strat", true)).unwrap();
    assert_eq!(*order.borrow(), ["ckpt", "strat"]);
    assert!(kept.ends_with("s.ckpt"), "{kept}");
    let e = results(true, step("ckpt", true), step("strat", false)).unwrap_err();
    assert!(
        e.contains("s.strat was not written; the solve is kept in")
            && e.contains("--resume")
            && e.ends_with("strat failed"),
        "{e}"
    );
    let e = results(true, step("ckpt", false), step("strat", true)).unwrap_err();
    assert!(
        e.contains("s.ckpt was not written (the strategy file"),
        "{e}"
    );
    assert_eq!(*order.borrow(), ["ckpt", "strat"]);
    // Without: the strategy file alone, and a periodic checkpoint removed.
    std::fs::write(&ckpt, "periodic").unwrap();
    let kept = results(false, step("ckpt", true), step("strat", true)).unwrap();
    assert_eq!(*order.borrow(), ["strat"]);
    assert!(kept.starts_with("none kept"), "{kept}");
    assert!(!ckpt.exists());
    // ... unless the strategy file fails: then the checkpoint keeps the solve.
    let e = results(false, step("ckpt", true), step("strat", false)).unwrap_err();
    assert_eq!(*order.borrow(), ["strat", "ckpt"]);
    assert!(e.contains("the solve is kept in"), "{e}");
    // Both failed: lost, unless a periodic checkpoint is still there.
    let e = results(false, step("ckpt", false), step("strat", false)).unwrap_err();
    assert!(
        e.contains("the solve is lost): ckpt failed; strat failed"),
        "{e}"
    );
    std::fs::write(&ckpt, "periodic").unwrap();
    let e = results(true, step("ckpt", false), step("strat", false)).unwrap_err();
    assert!(e.contains("holds an earlier iteration"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn version_4_betting_files_open_and_answer_as_the_same_solve_in_version_5() {
    // A ministud deal-sampled strategy written by the build before format 5 (six sections, no
    // recall): `stud solve --game ministud --solver deal --abstraction 2 --iterations 20
    // --batch 16`. The same solve written now must give every row the same, bit for bit.
    let v4 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ministud-deal-v4.strat");
    let old = betting(&v4);
    assert_eq!(old.format_version(), 4);
    assert_eq!(old.recall(), abstraction::recall::Recall::None);
    let d = tmp("v4-again");
    std::fs::create_dir_all(&d).unwrap();
    let new = d.join("ministud.strat");
    let out = common::stud(
        &[
            "solve",
            "--game",
            "ministud",
            "--solver",
            "deal",
            "--abstraction",
            "2",
            "--iterations",
            "20",
            "--batch",
            "16",
            "--abstraction-dir",
            d.join("abs").to_str().unwrap(),
            "--out",
            new.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    common::ok(&out);
    let now = betting(&new);
    assert_eq!(now.format_version(), container::FORMAT_VERSION);
    assert_eq!(old.header().nodes, now.header().nodes);
    let buckets = old.bucketing();
    let (mut a, mut b) = ([0.0; 8], [0.0; 8]);
    let mut rows = 0;
    for i in 0..old.header().nodes as u32 {
        let n = old.node(i).unwrap();
        if n.kind != abstraction::tree::NodeKind::Action as u8 {
            continue;
        }
        for k in 0..buckets.buckets(n.street as usize) {
            let ka = old.row_into(i, k, &mut a).unwrap();
            let kb = now.row_into(i, k, &mut b).unwrap();
            assert_eq!(a[..ka], b[..kb], "node {i}, bucket {k}");
            rows += 1;
        }
    }
    assert!(rows > 50, "{rows}");
    std::fs::remove_dir_all(&d).unwrap();
}
