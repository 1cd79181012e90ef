//! Betting-tree strategy files (the real games): rows read back as written in both widths, the
//! embedded bucketing checked on open, and the strategy player answering real seven-card stud
//! hands with the rows of the right node and bucket, translated onto the real legal actions.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::{Bucketing, CardView, Size};
use abstraction::rules::{Action, GameDef, State};
use solver::bot::matches::{play_hand, stream, DealCards};
use solver::bot::{Answer, Bet, Player, StrategyPlayer, Uniform};
use solver::strategy_file::{self, BettingSolve, DealSampling, StrategyFile, Width};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-betting-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A known, uneven strategy: the weight of action `a` at (node, bucket); some rows have no mass.
fn weight(node: u32, bucket: u32, a: usize) -> f64 {
    ((node as u64 * 7919 + bucket as u64 * 104_729 + a as u64 * 31) % 5) as f64
}

/// The normalized row `weight` gives (uniform without mass).
fn expected_row(node: u32, bucket: u32, k: usize) -> Vec<f64> {
    let w: Vec<f64> = (0..k).map(|a| weight(node, bucket, a)).collect();
    let sum: f64 = w.iter().sum();
    w.iter()
        .map(|x| if sum > 0.0 { x / sum } else { 1.0 / k as f64 })
        .collect()
}

struct Fixture {
    def: GameDef,
    tree: BettingTree,
    bucketing: Bucketing,
}

fn seven_stud() -> Fixture {
    let def = GameDef::preset("7stud").unwrap();
    let size = Size::preset("tiny", def.streets.len()).unwrap();
    let bucketing = Bucketing::build(&def, &size, &|_| {}).unwrap();
    let nb: Vec<u32> = (0..def.streets.len())
        .map(|s| bucketing.buckets(s))
        .collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &nb).unwrap();
    Fixture {
        def,
        tree,
        bucketing,
    }
}

fn write(fx: &Fixture, width: Width, name: &str) -> PathBuf {
    let path = tmp(name);
    let solve = BettingSolve {
        game: &fx.def,
        betting: fx.tree.betting,
        bucketing: &fx.bucketing,
        algorithm: solver::cfr::Algorithm::CfrPlus,
        iterations: 7,
        sampling: DealSampling { batch: 3, seed: 5 },
        width,
        exploitability: None,
        recall: abstraction::recall::Recall::None,
    };
    strategy_file::write_betting(
        &path,
        &solve,
        &fx.tree.nodes,
        &fx.tree.edges,
        &fx.tree.num_buckets,
        fx.tree.num_slots,
        |node, bucket, out| {
            for (a, o) in out.iter_mut().enumerate() {
                *o = weight(node, bucket, a);
            }
            Ok(())
        },
    )
    .unwrap();
    path
}

#[test]
fn rows_read_back_as_written_in_both_widths() {
    let fx = seven_stud();
    for (width, tol) in [(Width::U16, 1e-4), (Width::U8, 0.01)] {
        let path = write(&fx, width, &format!("rows-{width:?}.strat"));
        let file = StrategyFile::open(&path).unwrap();
        // A betting-tree file has no lookup by private hand (`probabilities`): only the public
        // kind has it, so the kind is what is checked.
        let StrategyFile::Betting(f) = &file else {
            panic!("a betting-tree file opened as a public tree");
        };
        let h = f.header();
        assert_eq!(h.slots as usize, fx.tree.num_slots);
        assert_eq!(h.bucketing, Some(fx.bucketing.checksum()));
        assert_eq!(f.bucketing().checksum(), fx.bucketing.checksum());
        // A row of k actions stores k - 1 probabilities.
        let rows: u64 = fx
            .tree
            .nodes
            .iter()
            .filter(|n| n.kind == BettingKind::Action)
            .map(|n| fx.tree.num_buckets[n.street as usize] as u64 * (n.num_children as u64 - 1))
            .sum();
        assert_eq!(h.stored, rows);
        assert_eq!(h.stored, h.slots - fx.tree.infosets() as u64);
        let mut row = [0.0; 8];
        let mut checked = 0;
        for (i, n) in fx.tree.nodes.iter().enumerate() {
            if n.kind != BettingKind::Action {
                continue;
            }
            let k = n.num_children as usize;
            for b in 0..fx.tree.num_buckets[n.street as usize] {
                assert_eq!(f.row_into(i as u32, b, &mut row).unwrap(), k);
                let want = expected_row(i as u32, b, k);
                for a in 0..k {
                    assert!(
                        (row[a] - want[a]).abs() <= tol,
                        "{width:?} node {i} bucket {b}: {:?} vs {want:?}",
                        &row[..k]
                    );
                }
                checked += 1;
            }
        }
        assert_eq!(checked, fx.tree.infosets());
        // Out of range: an error, not a panic.
        let nb = fx.tree.num_buckets[0];
        assert!(f.row_into(0, nb, &mut row).is_err());
        assert!(f.row_into(fx.tree.nodes.len() as u32, 0, &mut row).is_err());
    }
}

#[test]
fn a_damaged_bucketing_is_refused_on_open() {
    let fx = seven_stud();
    let path = write(&fx, Width::U8, "damaged-bucketing.strat");
    let good = std::fs::read(&path).unwrap();
    // The bucketing is the file's last section: flip a byte in the middle of its centroids.
    let mut bad = good.clone();
    let at = good.len() - 200;
    bad[at] ^= 0x40;
    let p = tmp("damaged-bucketing-2.strat");
    std::fs::write(&p, &bad).unwrap();
    let e = format!("{:#}", StrategyFile::open(&p).err().unwrap());
    assert!(e.contains("the checksum of section 5"), "{e}");
}

/// Wraps the strategy player and checks each of its answers against the rows computed from the
/// tree in memory, the bucketing and the known strategy.
struct Checked<'a> {
    player: StrategyPlayer,
    fx: &'a Fixture,
    decisions: Mutex<[usize; 2]>,
}

impl Player for Checked<'_> {
    fn name(&self) -> &str {
        "checked"
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let answer = self.player.policy(state, bets, seat, legal, probs)?;
        assert_eq!(answer, Answer::Own, "{legal:?} after {bets:?}");
        let tree = &self.fx.tree;
        let node = tree.locate(bets).unwrap();
        let n = tree.nodes[node as usize];
        let mut want = vec![0.0; legal.len()];
        let street = state.street();
        if n.kind != BettingKind::Action || n.street as usize > street {
            // The abstract street closed (a raise past the cap): the strategy calls.
            want[legal.iter().position(|&a| a == Action::CheckCall).unwrap()] = 1.0;
            self.decisions.lock().unwrap()[1] += 1;
        } else {
            assert_eq!(n.role, (state.first_actor(street) != Some(seat)) as u8);
            let b = self
                .fx
                .bucketing
                .bucket(&CardView::of_state(state, seat).unwrap())
                .unwrap();
            let row = expected_row(node, b, n.num_children as usize);
            for (c, p) in row.iter().enumerate() {
                let a = tree.real_action(node, c, legal).unwrap();
                want[legal.iter().position(|&x| x == a).unwrap()] += p;
            }
            self.decisions.lock().unwrap()[0] += 1;
        }
        for (g, w) in probs.iter().zip(&want) {
            assert!((g - w).abs() < 0.01, "{legal:?}: {probs:?} vs {want:?}");
        }
        Ok(answer)
    }
}

#[test]
fn the_strategy_player_answers_real_hands_from_the_file() {
    let fx = seven_stud();
    let path = write(&fx, Width::U8, "player.strat");
    let checked = Checked {
        player: StrategyPlayer::open(path.to_str().unwrap(), &fx.def).unwrap(),
        fx: &fx,
        decisions: Mutex::new([0, 0]),
    };
    let def = Arc::new(fx.def.clone());
    // Against the random bot: raise wars past the cap happen, and every street is reached.
    for i in 0..300 {
        let cards = DealCards::random(&def, &mut stream(11, i, 0));
        let seats: [&dyn Player; 2] = if i % 2 == 0 {
            [&checked, &Uniform]
        } else {
            [&Uniform, &checked]
        };
        play_hand(&def, &seats, &cards, &mut stream(11, i, 1), None).unwrap();
    }
    let [on_tree, closed] = *checked.decisions.lock().unwrap();
    assert!(
        on_tree > 500 && closed > 0,
        "{on_tree} decisions, {closed} past the cap"
    );
    // Another game is refused.
    let razz = GameDef::preset("razz").unwrap();
    let e = StrategyPlayer::open(path.to_str().unwrap(), &razz)
        .err()
        .unwrap();
    assert!(e.to_string().contains("solved for"), "{e}");
}
