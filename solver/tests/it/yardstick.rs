//! The yardstick of docs/notes/ladder.md in small: `yardstud`'s structure (a down and an up card, two
//! more up cards, bring-in, best showing first, small/small/big bets) on 8 cards (J Q K A in two
//! suits) with one bet per round, so that the lossless public tree has 1.7M nodes. The real
//! games' pipeline (bucketing, betting tree, `DealSolver`, strategy file) runs on it through the
//! command line, and its strategy is measured in the real game by the exact best response.

use crate::common;

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Bucketing, CardView, Size};
use abstraction::card_abstraction::Lossless;
use abstraction::deal::HeadsUpDeal;
use abstraction::recall::Recall;
use abstraction::rules::{Action, Deal, GameDef, Next, State};
use abstraction::tree::{Budget, Edge, NodeKind, Tree};
use common::{err, ok, stud};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use solver::deal_cfr::DealSolver;
use std::path::PathBuf;
use std::sync::Arc;

const GAME: &str = "preset = \"yardstud\"\n\
                    deck = { ranks = [\"J\", \"Q\", \"K\", \"A\"], suits = 2 }\n\
                    max_bets = 1\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-yardstick-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The game file, written into `d`.
fn game_file(d: &std::path::Path) -> String {
    let g = d.join("yard8.toml");
    std::fs::write(&g, GAME).unwrap();
    g.to_str().unwrap().to_string()
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_deal_sampled_strategy_falls_with_deals_and_stays_above_the_lossless_solve() {
    let d = dir("ladder");
    let (game, cache) = (game_file(&d), d.join("abstractions"));
    let cache = cache.to_str().unwrap();
    let rows = json_lines(&ok(&stud(
        &[
            "eval",
            "ladder",
            "--game",
            &game,
            "--solver",
            "deal",
            "--abstractions",
            "16",
            "--iterations",
            "0",
            "50",
            "200",
            "--batch",
            "64",
            "--lossless",
            "30",
            "--abstraction-dir",
            cache,
            "--json",
        ],
        "",
    )));
    // The exact solver's rows measure in both games, the deal-sampled ones in the real game.
    let chips = |r: &Value| {
        let m = &r["rung"];
        let real = if r["solver"] == "tree" {
            &m["measure"]["real_game"]
        } else {
            &m["real_game"]
        };
        real["chips"].as_f64().unwrap()
    };
    let of = |solver: &str| -> Vec<f64> {
        (rows.iter())
            .filter(|r| r["solver"] == solver)
            .map(chips)
            .collect()
    };
    let (lossless, deal) = (of("tree"), of("deal"));
    // Measured: lossless 0.0345 at 30 full-width iterations; 16 buckets a street, batches of
    // 64 deals: 2.22 (uniform), 0.103 after 3,200 deals, 0.051 after 12,800.
    assert_eq!((lossless.len(), deal.len()), (1, 3), "{rows:?}");
    assert!(deal[1] < deal[0] / 4.0, "{deal:?}");
    assert!(deal[2] < deal[1] * 0.8, "{deal:?}");
    assert!(
        deal[2] > lossless[0] * 1.2,
        "{deal:?} vs lossless {lossless:?}"
    );
    let last = &rows.last().unwrap()["rung"];
    assert_eq!(last["deals"], 200 * 64);
    assert_eq!(last["knobs"]["batch"], 64);

    // `stud solve --solver deal` is the same solve (same seed, same deals): its strategy file
    // records the same exact exploitability, bit for bit.
    let out = d.join("yard8.strat");
    let solve = json_lines(&ok(&stud(
        &[
            "solve",
            "--game",
            &game,
            "--solver",
            "deal",
            "--abstraction",
            "16",
            "--batch",
            "64",
            "--iterations",
            "200",
            "--abstraction-dir",
            cache,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ],
        "",
    )));
    let fin = solve.last().unwrap();
    assert_eq!(fin["exploitability"].as_f64(), Some(deal[2]), "{fin}");
    let info = ok(&stud(&["info", out.to_str().unwrap(), "--json"], ""));
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(
        info["exploitability"]["chips"].as_f64(),
        Some(deal[2]),
        "{info}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A solve whose rows recall earlier streets runs through the whole pipeline: the ladder's solve
/// and `stud solve`'s are the same bits, the file records its recall, and a player of the file
/// (LBR plays it) finds its rows by key.
#[test]
fn a_recalling_solve_is_the_ladders_solve_and_its_file_plays() {
    let d = dir("recall");
    let (game, cache) = (game_file(&d), d.join("abstractions"));
    let cache = cache.to_str().unwrap();
    let common = ["--batch", "64", "--abstraction-dir", cache, "--json"];
    let ladder = |recall: &str| -> f64 {
        let mut a = vec![
            "eval",
            "ladder",
            "--game",
            &game,
            "--solver",
            "deal",
            "--abstractions",
            "4",
            "--iterations",
            "100",
            "--recall",
            recall,
        ];
        a.extend(common);
        let rows = json_lines(&ok(&stud(&a, "")));
        assert_eq!(rows[0]["rung"]["knobs"]["recall"], recall);
        rows[0]["rung"]["real_game"]["chips"].as_f64().unwrap()
    };
    let (none, both) = (ladder("none"), ladder("both"));
    assert!(none != both, "{none} {both}");
    let out = d.join("both.strat");
    let mut a = vec![
        "solve",
        "--game",
        &game,
        "--solver",
        "deal",
        "--abstraction",
        "4",
        "--iterations",
        "100",
        "--recall",
        "both",
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend(common);
    let solve = json_lines(&ok(&stud(&a, "")));
    assert_eq!(solve.last().unwrap()["exploitability"].as_f64(), Some(both));
    let info: Value =
        serde_json::from_str(&ok(&stud(&["info", out.to_str().unwrap(), "--json"], ""))).unwrap();
    assert_eq!(
        (info["recall"].as_str(), info["format_version"].as_u64()),
        (Some("both"), Some(5))
    );
    let lbr = ok(&stud(
        &[
            "eval",
            "lbr",
            out.to_str().unwrap(),
            "--hands",
            "20",
            "--seed",
            "1",
            "--json",
        ],
        "",
    ));
    let lbr: Value = serde_json::from_str(&lbr).unwrap();
    assert!(
        lbr["lbr_mbb_per_hand"].as_f64().is_some_and(f64::is_finite),
        "{lbr}"
    );
    assert_eq!(lbr["hands"].as_u64(), Some(40), "{lbr}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn solver_flags_are_refused_where_they_do_not_apply() {
    let d = dir("flags");
    let game = game_file(&d);
    let e = err(&stud(
        &["eval", "ladder", "--game", &game, "--batch", "64"],
        "",
    ));
    assert!(e.contains("--batch") && e.contains("--solver deal"), "{e}");
    let e = err(&stud(
        &[
            "eval",
            "ladder",
            "--game",
            &game,
            "--solver",
            "deal",
            "--abstractions",
            "lossless",
        ],
        "",
    ));
    assert!(e.contains("--lossless"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud",
            "--solver",
            "tree",
            "--iterations",
            "1",
        ],
        "",
    ));
    assert!(e.contains("cannot be walked"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            &game,
            "--solver",
            "deal",
            "--abstraction",
            "lossless",
        ],
        "",
    ));
    assert!(e.contains("--solver tree"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// `DealSolver::lift` against a hand played through the rules engine with its cards known: at
/// every decision, the lifted row of the actor's hand at the public node is the average row of
/// the actor's bucket (from its whole view) at the betting node of the real betting.
#[test]
fn the_lift_plays_each_hand_by_its_key_at_its_betting_node() {
    let def = GameDef::from_toml(GAME).unwrap();
    let size = Size::parse("4", def.streets.len()).unwrap();
    let bucketing = Arc::new(Bucketing::build(&def, &size, &|_| {}).unwrap());
    for recall in Recall::ALL {
        lift_plays_each_hand_by_its_key(&def, &size.buckets, &bucketing, recall);
    }
}

/// Plays random hands of `def` and checks that each decision's lifted row is the solver's row
/// of the actor's key: its bucket now and what `recall` adds, tracked here hand by hand.
fn lift_plays_each_hand_by_its_key(
    def: &GameDef,
    buckets: &[u32],
    bucketing: &Arc<Bucketing>,
    recall: Recall,
) {
    let betting = BettingAbstraction::for_game(def);
    let tree = BettingTree::build(def, betting, &recall.keys(buckets)).unwrap();
    let mut s = DealSolver::with_recall(def, tree, Arc::clone(bucketing), recall, 16, 3).unwrap();
    for _ in 0..100 {
        s.iterate().unwrap();
    }
    let public = Tree::build(def, &Lossless, betting, Budget::nodes(1 << 22)).unwrap();
    let lifted = s.lift(&public).unwrap();
    let def = Arc::new(def.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut decisions, mut learned) = (0, 0);
    for _ in 0..300 {
        let deal = HeadsUpDeal::sample(&def, &mut rng).unwrap();
        let mut st = State::with_def(def.clone()).unwrap();
        let (mut node, mut bets) = (0usize, Vec::<(usize, Action)>::new());
        // Per street and seat, the bucket at the street's first decision.
        let mut seen = vec![[u32::MAX; 2]; def.streets.len()];
        loop {
            match st.next() {
                Next::Deal { seat, deal: how } => {
                    let seat = seat.unwrap();
                    let held = st.up_cards(seat).len() + st.down_cards(seat).len();
                    let c = deal.cards(seat)[held];
                    st.deal(c).unwrap();
                    if how != Deal::Down {
                        node = (public.children(node))
                            .find(|&k| public.edges[k] == Edge::Card(c))
                            .unwrap();
                    }
                }
                Next::Act { seat } => {
                    let n = public.nodes[node];
                    assert_eq!((n.kind, n.seat), (NodeKind::Action, seat));
                    let k = n.num_children as usize;
                    let down = st.down_cards(seat)[0].unwrap();
                    let hand = public.hand_of_card[down.id() as usize] as usize;
                    let row = public.bucket_table(n.board, seat)[hand] as usize;
                    let got = &lifted[n.first_slot() as usize + row * k..][..k];
                    let street = st.street();
                    if seen[street][seat as usize] == u32::MAX {
                        for p in 0..2u8 {
                            seen[street][p as usize] = bucketing
                                .bucket(&CardView::of_state(&st, p).unwrap())
                                .unwrap();
                        }
                    }
                    let key = recall.key(
                        buckets,
                        street,
                        |j| seen[j][seat as usize],
                        |j| st.first_actor(j) == Some(seat),
                    );
                    // What a player of the strategy file computes from the state alone.
                    assert_eq!(recall.key_of_state(bucketing, &st, seat).unwrap(), key);
                    let mut want = vec![0.0; k];
                    s.average_row(s.tree.locate(&bets).unwrap(), key, &mut want)
                        .unwrap();
                    assert_eq!(got, &want[..], "{recall:?}: node {node}, p{}", seat + 1);
                    decisions += 1;
                    // A row the solve never reached is uniform everywhere: it would match
                    // under any key.
                    learned += usize::from(want.iter().any(|&p| (p - 1.0 / k as f64).abs() > 1e-9));
                    let child = public
                        .children(node)
                        .nth(abstraction::draw::below(&mut rng, k))
                        .unwrap();
                    let Edge::Action(a) = public.edges[child] else {
                        panic!("an action node's child is an action")
                    };
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                    node = child;
                }
                Next::Over => break,
            }
        }
    }
    assert!(decisions > 1000, "{decisions}");
    assert!(
        learned * 2 > decisions,
        "{recall:?}: {learned} of {decisions}"
    );
}
