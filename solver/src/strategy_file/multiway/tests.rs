use super::*;
use crate::bot::{choose, Answer, MultiwayPlayer, Player};
use crate::cfr::Algorithm;
use crate::multiway::sampled::tests::{game, solver, solver_recalling, solver_with, table_buckets};
use abstraction::multiway_deal::MultiwayFacts;
use abstraction::rules::{Action, Next};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn a_short_solve_plays_hundreds_of_hands_through_the_engine() {
    plays_hundreds_of_hands(solver(Algorithm::Linear, 30, 2), &game(), "best");
}

/// A table whose deck runs short (five seats on 32 cards): the file's lookup sees the community
/// card as the solve did, and plays every decision on its rows.
#[test]
fn a_solve_of_a_table_that_runs_short_plays_hundreds_of_hands_through_the_engine() {
    let s = crate::multiway::sampled::tests::short_solver(40, 2);
    let short = plays_hundreds_of_hands(s, &crate::multiway::sampled::tests::short_game(), "short");
    assert!(short > 10, "{short} hands with a community card");
}

#[test]
fn a_table_view_solve_plays_hundreds_of_hands_through_the_engine() {
    let s = solver_with(table_buckets(), Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "table");
}

#[test]
fn a_solve_recalling_betting_positions_plays_hundreds_of_hands_through_the_engine() {
    let within = WithinStreet::Position;
    let s = solver_recalling(within, table_buckets(), Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "position");
}

/// Solves `s` (of `def`) for 5 iterations, writes it, reads it back and plays 300 hands with
/// it through the rules engine: every row on legal actions. Returns the hands whose last
/// street was a community card.
fn plays_hundreds_of_hands(mut s: SampledSolver, def: &GameDef, name: &str) -> usize {
    let dir = std::env::temp_dir().join(format!("stud-mw-file-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.strat");
    for _ in 0..5 {
        s.iterate().unwrap();
    }
    s.settle();
    let problem = Problem::sampled(def, &s.buckets, s.betting.within_street);
    write(&path, &s, &problem).unwrap();
    let file = MultiwayFile::open(&path).unwrap();
    assert_eq!(file.betting.within_street, s.betting.within_street);
    assert_eq!(file.buckets.view, s.buckets.view);
    assert_eq!(file.buckets.by_live.len(), s.buckets.by_live.len());
    assert_eq!(file.header.iterations, 5);
    assert_eq!(file.rows.slots, s.rows.slots);
    // The rows are the average strategy as solved, to a 255th (cumulative rounding: each
    // probability within one step, the row summing to 1), k - 1 bytes a row.
    let avg = s.average_strategy();
    assert_eq!(file.stored(), (1, s.rows.slots - s.rows.infosets));
    let mut out = [0.0; MAX_ACTIONS];
    let mut rows = std::collections::HashSet::new();
    for (ti, t) in s.betting.trees.iter().enumerate() {
        let street = t.street as usize;
        for node in t.root..t.end {
            let n = s.betting.nodes[node as usize];
            if n.kind != MwKind::Action {
                continue;
            }
            for pot_class in 0..abstraction::multiway_betting::pot_classes(street) as u8 {
                for bucket in 0..s.rows.buckets[street] {
                    let spot = Spot {
                        tree: ti as u32,
                        node,
                        pot_class,
                    };
                    let k = file.row_into(&spot, bucket, &mut out).unwrap();
                    let slot = s
                        .rows
                        .slot(&s.betting, spot.tree, pot_class, bucket, n.index);
                    for (a, (&q, &p)) in out[..k].iter().zip(&avg[slot..slot + k]).enumerate() {
                        assert!((q - p as f64).abs() <= 1.0 / 255.0 + 1e-6, "{spot:?} {a}");
                    }
                    assert!((out[..k].iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    rows.insert(slot);
                }
            }
        }
    }
    assert_eq!(rows.len(), s.rows.infosets, "every row read back");
    let player = MultiwayPlayer::new(file, "mw");
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (mut decisions, mut fallbacks, mut showdowns, mut short) = (0, 0, 0, 0);
    let short_deck = MultiwayFacts::new(def).unwrap().runs_short();
    for _ in 0..300 {
        let mut st = State::new(def).unwrap();
        let mut bets: Vec<Bet> = Vec::new();
        let mut probs = [0.0; 8];
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { .. } => {
                    let legal = st.legal_actions();
                    let (a, answer) = choose(&player, &st, &bets, &legal, &mut probs, &mut rng)
                        .unwrap_or_else(|e| panic!("{e:#} after {bets:?}"));
                    let sum: f64 = probs[..legal.len()].iter().sum();
                    assert!((sum - 1.0).abs() < 1e-9);
                    decisions += 1;
                    fallbacks += (answer == Answer::Fallback) as usize;
                    // A table that runs short: mostly calls, so that many hands reach the
                    // community card with every seat in (the row is asked all the same).
                    let call = legal.iter().position(|&c| c == Action::CheckCall);
                    let a = match call {
                        Some(c) if short_deck && abstraction::draw::below(&mut rng, 10) < 9 => {
                            legal[c]
                        }
                        _ => a,
                    };
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                }
                Next::Over => break,
            }
        }
        showdowns += (st.live().count_ones() > 1) as usize;
        short += st.short_of_cards() as usize;
    }
    assert!(decisions > 1000, "{decisions} decisions");
    assert!(showdowns > 0);
    // Every row puts its weight on legal actions, and past the cap (two players left, the
    // engine uncapped) the closed abstract street's call is the strategy's own answer.
    assert_eq!(fallbacks, 0, "{fallbacks} of {decisions}");
    std::fs::remove_dir_all(&dir).ok();
    short
}

#[test]
fn a_damaged_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("stud-mw-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.strat");
    let s = solver(Algorithm::Linear, 3, 2);
    write(
        &path,
        &s,
        &Problem::sampled(&game(), &s.buckets, WithinStreet::History),
    )
    .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(is_multiway(&bytes));
    assert!(MultiwayFile::from_bytes(&bytes).is_ok());
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    assert!(MultiwayFile::from_bytes(&bytes).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Random three-handed hands of `def` played by `player`: every decision's state, betting and
/// legal actions, for other players to be asked at the same spots.
fn decisions(player: &dyn Player, def: &GameDef, hands: usize) -> Vec<(State, Vec<Bet>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut out = Vec::new();
    let mut probs = [0.0; 8];
    for _ in 0..hands {
        let mut st = State::new(def).unwrap();
        let mut bets: Vec<Bet> = Vec::new();
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { .. } => {
                    out.push((st.clone(), bets.clone()));
                    let legal = st.legal_actions();
                    let (a, _) = choose(player, &st, &bets, &legal, &mut probs, &mut rng).unwrap();
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                }
                Next::Over => break,
            }
        }
    }
    out
}

#[test]
fn a_spec_says_how_the_rows_are_played_and_names_the_player() {
    let dir = std::env::temp_dir().join(format!("stud-mw-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.strat");
    let mut s = solver(Algorithm::Linear, 30, 2);
    for _ in 0..5 {
        s.iterate().unwrap();
    }
    s.settle();
    let def = game();
    write(
        &path,
        &s,
        &Problem::sampled(&def, &s.buckets, WithinStreet::History),
    )
    .unwrap();
    let f = path.to_str().unwrap();
    let load = |spec: &str| crate::players::load(spec, &def);
    let plain = load(f).unwrap();
    let mixed = load(&format!("{f}:mixed")).unwrap();
    let threshold = load(&format!("{f}:threshold=0.15")).unwrap();
    let pure = load(&format!("{f}:pure")).unwrap();
    assert_eq!(plain.name(), f);
    assert_eq!(mixed.name(), format!("{f}:mixed"));
    assert_eq!(threshold.name(), format!("{f}:threshold=0.15"));
    assert_eq!(pure.name(), format!("{f}:pure"));
    let (mut differ, mut asked) = (0, 0);
    let policy = |p: &dyn Player, st: &State, bets: &[Bet]| {
        let legal = st.legal_actions();
        let mut probs = vec![0.0; legal.len()];
        p.policy(st, bets, st.to_act().unwrap(), &legal, &mut probs)
            .unwrap();
        probs
    };
    for (st, bets) in decisions(mixed.as_ref(), &def, 100) {
        let m = policy(mixed.as_ref(), &st, &bets);
        let t = policy(threshold.as_ref(), &st, &bets);
        let p = policy(pure.as_ref(), &st, &bets);
        asked += 1;
        // The default is the measured one.
        assert_eq!(policy(plain.as_ref(), &st, &bets), m);
        // A threshold only drops actions.
        for (&x, &y) in m.iter().zip(&t) {
            assert!(y == 0.0 || x > 0.0, "{m:?} -> {t:?}");
        }
        differ += (m.iter().zip(&t).any(|(x, y)| (x - y).abs() > 1e-6)) as usize;
        // Pure play keeps only the most likely action, which a threshold keeps too.
        for (&x, &y) in t.iter().zip(&p) {
            assert!(y == 0.0 || x > 0.0, "{t:?} -> {p:?}");
        }
    }
    assert!(differ > 0, "no decision of {asked} differs");
    for (spec, says) in [
        ("threshold=1.5", "between 0 and 1"),
        ("thresh=0.1", "not a way to play a strategy"),
        ("resolve", "re-solving is heads-up"),
    ] {
        let e = load(&format!("{f}:{spec}")).err().unwrap().to_string();
        assert!(e.contains(says), "{spec}: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
