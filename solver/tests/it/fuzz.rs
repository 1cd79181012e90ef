//! The fuzz harness of the strategy-file reader: proptest generators of damaged and forged
//! files, from small solved files of both kinds (a Kuhn public tree and a ministud betting tree,
//! format 4) and a format-3 Kuhn file.
//!
//! - Damaged (bytes flipped, overwritten, cut or added): a format-4 file is always refused; a
//!   format-3 file is refused or, when the damage fell where no checksum of that format looks
//!   (the padding), answers exactly as the intact file does. Never a panic.
//! - Forged (sections and header fields changed, then written again with matching checksums, as
//!   a buggy or hostile writer would): opening and every lookup give a value or an error, never a
//!   panic or an out-of-bounds read.
//!
//! CI runs a short pass as part of the normal test command (`STUD_FUZZ_CASES` unset: 256 cases
//! per property, seconds). A longer run:
//! `STUD_FUZZ_CASES=100000 cargo test --release -p solver --test it fuzz::` (see docs/notes/solver.md).
//! cargo-fuzz would need a nightly toolchain, which this project does not use.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingNodes, BettingTree};
use abstraction::bucketing::{Bucketing, CardView, Size};
use abstraction::cards::{parse_cards, CardSet, Rank};
use abstraction::rules::{Action, GameDef};
use proptest::prelude::*;
use proptest::test_runner::Config;
use solver::cfr::Algorithm;
use solver::container::{self, Container};
use solver::session::{new_solver, Abstractions};
use solver::strategy_file::{self, StrategyFile, StrategyHeader, TreeKind, Width, MAX_ACTIONS};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The cases per property: `STUD_FUZZ_CASES`, or 256.
fn cases() -> Config {
    let n = std::env::var("STUD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config::with_cases(n)
}

fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("stud-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

/// A fresh file name for each case (the properties run in parallel).
fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    dir().join(format!("{}.strat", N.fetch_add(1, Ordering::Relaxed)))
}

/// The files fuzzed: name, bytes, and whether their format has a whole-file checksum.
struct Base {
    name: &'static str,
    bytes: Vec<u8>,
    format4: bool,
}

fn bases() -> &'static [Base] {
    static BASES: OnceLock<Vec<Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        // Kuhn, exactly solved a little: a public tree with u16 rows.
        let def = GameDef::kuhn();
        let abs = Abstractions::for_game(&def);
        let mut s = new_solver(&def, &abs, Algorithm::CfrPlus, None).unwrap();
        for _ in 0..20 {
            s.iterate();
        }
        let kuhn = dir().join("kuhn.strat");
        strategy_file::write(&kuhn, &s, &def, &abs.card_name(), abs.betting, None).unwrap();
        // Ministud with kings and aces, deal-sampled on its betting tree: u8 rows and an
        // embedded bucketing.
        let mut def = GameDef::ministud();
        def.deck.ranks = vec![Rank::KING, Rank::ACE];
        let size = Size::parse("4", def.streets.len()).unwrap();
        let bucketing = Arc::new(Bucketing::build(&def, &size, &|_| {}).unwrap());
        let tree =
            BettingTree::build(&def, BettingAbstraction::for_game(&def), &size.buckets).unwrap();
        let mut d =
            solver::deal_cfr::DealSolver::new(&def, tree, Arc::clone(&bucketing), 16, 3).unwrap();
        for _ in 0..3 {
            d.iterate().unwrap();
        }
        let ministud = dir().join("ministud.strat");
        solver::session::deal::write_strategy(&ministud, &d, &def, &bucketing, Width::U8, None)
            .unwrap();
        let v3 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kuhn-v3.strat");
        vec![
            Base {
                name: "kuhn",
                bytes: std::fs::read(kuhn).unwrap(),
                format4: true,
            },
            Base {
                name: "ministud",
                bytes: std::fs::read(ministud).unwrap(),
                format4: true,
            },
            Base {
                name: "kuhn-v3",
                bytes: std::fs::read(v3).unwrap(),
                format4: false,
            },
        ]
    })
}

/// Everything a reader can ask a file, as text: nodes (and a few past the end), children, rows
/// for every hand or bucket (and one past), bucket look-ups and translations of betting. Any
/// panic in here fails the property.
fn answers(f: &StrategyFile) -> Vec<String> {
    // Errors as their messages (their Debug form carries a backtrace, which differs by caller).
    fn show<T: std::fmt::Debug>(r: anyhow::Result<T>) -> String {
        match r {
            Ok(v) => format!("{v:?}"),
            Err(e) => format!("error: {e:#}"),
        }
    }
    let h = f.header().expect("a heads-up file");
    let mut out = vec![format!("{h:?}")];
    let nodes = h.nodes.min(5_000) as u32;
    let mut row = [0.0; MAX_ACTIONS];
    let ids = (0..nodes).chain([nodes, nodes + 1, u32::MAX]);
    match f {
        StrategyFile::Public(f) => {
            for i in ids {
                out.push(format!("{} {}", show(f.node(i)), show(f.children(i))));
                if f.node(i).is_err() {
                    continue;
                }
                for hand in 0..(h.hands.min(64) as u32 + 1) {
                    out.push(show(f.probabilities(i, hand)));
                }
            }
        }
        StrategyFile::Betting(f) => {
            for i in ids {
                out.push(format!("{} {}", show(f.node(i)), show(f.children(i))));
                let Ok(n) = f.node(i) else { continue };
                let nb = f.bucketing().buckets(n.street as usize);
                for b in 0..nb.min(64) + 1 {
                    out.push(format!("{} {row:?}", show(f.row_into(i, b, &mut row))));
                }
            }
            let cards = |s: &str| parse_cards(s).unwrap().into_iter().collect::<CardSet>();
            for street in 0..3 {
                let view = CardView {
                    street,
                    down: cards("Kc"),
                    up: cards(["Ad", "Ad Kd", "Ad Kd Ah"][street]),
                    opp_up: cards(["Ks", "Ks As", "Ks As Kh"][street]),
                };
                out.push(show(f.bucket_of(&view)));
            }
            for bets in [
                vec![],
                vec![(0, Action::BringIn)],
                vec![(0, Action::BringIn), (0, Action::CheckCall)],
                vec![
                    (0, Action::CompleteBetRaise(2)),
                    (0, Action::CompleteBetRaise(4)),
                ],
            ] {
                out.push(format!("{:?}", f.locate(&bets)));
            }
        }
        StrategyFile::Multiway(_) => unreachable!("the header is a heads-up file's"),
    }
    out
}

/// The answers of the intact files.
fn intact(i: usize) -> &'static [String] {
    static INTACT: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    &INTACT.get_or_init(|| {
        bases()
            .iter()
            .map(|b| {
                let p = dir().join(format!("intact-{}.strat", b.name));
                std::fs::write(&p, &b.bytes).unwrap();
                answers(&StrategyFile::open(&p).unwrap())
            })
            .collect()
    })[i]
}

/// A change to a file's bytes.
#[derive(Clone, Debug)]
enum Damage {
    /// XOR a byte with a nonzero mask.
    Flip(prop::sample::Index, u8),
    /// Overwrite bytes from a position.
    Overwrite(prop::sample::Index, Vec<u8>),
    /// Cut the file.
    Truncate(prop::sample::Index),
    /// Add bytes at the end.
    Append(Vec<u8>),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        6 => (any::<prop::sample::Index>(), 1u8..=255).prop_map(|(i, m)| Damage::Flip(i, m)),
        2 => (any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(i, b)| Damage::Overwrite(i, b)),
        1 => any::<prop::sample::Index>().prop_map(Damage::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..80).prop_map(Damage::Append),
    ]
}

fn apply(bytes: &mut Vec<u8>, d: &Damage) {
    if bytes.is_empty() && !matches!(d, Damage::Append(_)) {
        return;
    }
    match d {
        Damage::Flip(i, m) => {
            let i = i.index(bytes.len());
            bytes[i] ^= m;
        }
        Damage::Overwrite(i, b) => {
            let i = i.index(bytes.len());
            let end = (i + b.len()).min(bytes.len());
            bytes[i..end].copy_from_slice(&b[..end - i]);
        }
        Damage::Truncate(i) => bytes.truncate(i.index(bytes.len())),
        Damage::Append(b) => bytes.extend_from_slice(b),
    }
}

/// A change to a forged file: a section's bytes, or a header field.
#[derive(Clone, Debug)]
enum Forgery {
    /// XOR a byte of a section (chosen by index) with a nonzero mask.
    Section(prop::sample::Index, prop::sample::Index, u8),
    /// Cut a section.
    CutSection(prop::sample::Index, prop::sample::Index),
    /// Set a count of the header to a value.
    Count(u8, u64),
    /// Swap the tree kind or the width.
    Kind(bool),
}

fn forgery() -> impl Strategy<Value = Forgery> {
    let value = prop_oneof![
        0u64..300,
        Just(u32::MAX as u64),
        Just(u64::MAX),
        any::<u64>()
    ];
    prop_oneof![
        8 => (any::<prop::sample::Index>(), any::<prop::sample::Index>(), 1u8..=255)
            .prop_map(|(s, i, m)| Forgery::Section(s, i, m)),
        1 => (any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(s, i)| Forgery::CutSection(s, i)),
        2 => (0u8..6, value).prop_map(|(f, v)| Forgery::Count(f, v)),
        1 => any::<bool>().prop_map(Forgery::Kind),
    ]
}

fn forge(header: &mut StrategyHeader, sections: &mut [Vec<u8>], f: &Forgery) {
    let nonempty: Vec<usize> = (0..sections.len())
        .filter(|&i| !sections[i].is_empty())
        .collect();
    if nonempty.is_empty() && matches!(f, Forgery::Section(..) | Forgery::CutSection(..)) {
        return;
    }
    match f {
        Forgery::Section(s, i, m) => {
            let s = &mut sections[nonempty[s.index(nonempty.len())]];
            let i = i.index(s.len());
            s[i] ^= m;
        }
        Forgery::CutSection(s, i) => {
            let s = &mut sections[nonempty[s.index(nonempty.len())]];
            let i = i.index(s.len());
            s.truncate(i);
        }
        Forgery::Count(f, v) => match f {
            0 => header.nodes = *v,
            1 => header.stored = *v,
            2 => header.hands = *v,
            3 => header.boards = *v,
            4 => header.bucketing = Some(*v),
            _ => header.slots = *v,
        },
        Forgery::Kind(tree) => {
            if *tree {
                header.tree = match header.tree {
                    TreeKind::Public => TreeKind::Betting,
                    TreeKind::Betting => TreeKind::Public,
                };
            } else {
                header.width = match header.width {
                    Width::U16 => Width::U8,
                    Width::U8 => Width::U16,
                };
            }
        }
    }
}

proptest! {
    #![proptest_config(cases())]

    /// Damaged bytes: refused (format 4 always), or the same answers as the intact file.
    #[test]
    fn damaged_files_are_refused(
        which in 0usize..3,
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        let base = &bases()[which];
        let mut bytes = base.bytes.clone();
        for d in &damages {
            apply(&mut bytes, d);
        }
        prop_assume!(bytes != base.bytes);
        let p = scratch();
        std::fs::write(&p, &bytes).unwrap();
        match StrategyFile::open(&p) {
            Err(_) => {}
            Ok(f) => {
                prop_assert!(!base.format4, "{}: a damaged format-4 file was accepted", base.name);
                let got = answers(&f);
                let differ = got.iter().zip(intact(which)).find(|(a, b)| a != b);
                prop_assert!(
                    differ.is_none() && got.len() == intact(which).len(),
                    "{}: a damaged file accepted with other answers: {:?}",
                    base.name,
                    differ
                );
            }
        }
        std::fs::remove_file(&p).ok();
    }

    /// Forged files (damage with checksums to match): values or errors, never a panic.
    #[test]
    fn forged_files_never_panic(
        which in 0usize..3,
        forgeries in prop::collection::vec(forgery(), 1..4),
    ) {
        let bytes = &bases()[which].bytes;
        let c = Container::<StrategyHeader>::open(bytes, strategy_file::MAGIC, "strategy file")
            .unwrap();
        let mut header = c.header.clone();
        let mut sections: Vec<Vec<u8>> = (0..c.sections.len())
            .map(|i| c.section(bytes, i).unwrap().to_vec())
            .collect();
        for f in &forgeries {
            forge(&mut header, &mut sections, f);
        }
        let p = scratch();
        let refs: Vec<&[u8]> = sections.iter().map(Vec::as_slice).collect();
        container::write(&p, strategy_file::MAGIC, header, &refs).unwrap();
        if let Ok(f) = StrategyFile::open(&p) {
            answers(&f);
        }
        std::fs::remove_file(&p).ok();
    }
}

/// A header's game edited on purpose, both checksums recomputed (which they guard against
/// damage, not malice): each edit of the stakes, the stacks or the cap changes the betting
/// tree rebuilt from the header, which is then not the file's, and the file is refused instead
/// of being played at stakes it was not solved for. The unedited header written the same way
/// opens.
#[test]
fn a_header_whose_game_was_edited_with_checksums_recomputed_is_refused() {
    let bytes = &bases()[1].bytes;
    let c =
        Container::<StrategyHeader>::open(bytes, strategy_file::MAGIC, "strategy file").unwrap();
    let sections: Vec<&[u8]> = (0..c.sections.len())
        .map(|i| c.section(bytes, i).unwrap())
        .collect();
    let write = |header: StrategyHeader| {
        let p = scratch();
        container::write(&p, strategy_file::MAGIC, header, &sections).unwrap();
        let opened = StrategyFile::open(&p).map(|_| ());
        std::fs::remove_file(&p).ok();
        opened
    };
    write(c.header.clone()).expect("the same header written again opens");
    type Edit = fn(&mut StrategyHeader);
    let edits: [(&str, Edit); 7] = [
        ("ante", |h| h.game.ante += 1),
        ("bring-in", |h| h.game.bring_in += 1),
        ("small bet", |h| h.game.small_bet += 1),
        ("big bet", |h| h.game.big_bet += 1),
        ("stacks", |h| h.game.starting_stacks = vec![12; 2]),
        ("the game's cap", |h| h.game.max_bets -= 1),
        ("the abstraction's cap", |h| h.betting.max_bets -= 1),
    ];
    for (what, edit) in edits {
        let mut h = c.header.clone();
        edit(&mut h);
        let e = match write(h) {
            Ok(()) => panic!("a header with its {what} edited was accepted"),
            Err(e) => format!("{e:#}"),
        };
        assert!(
            e.contains("not those of the betting tree of the game in its header")
                || e.contains("builds no betting tree"),
            "{what}: {e}"
        );
    }
}
