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
    let s = solver(Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "best", RowFormat::Byte);
}

/// A table whose deck runs short (five seats on 32 cards): the file's lookup sees the community
/// card as the solve did, and plays every decision on its rows.
#[test]
fn a_solve_of_a_table_that_runs_short_plays_hundreds_of_hands_through_the_engine() {
    let s = crate::multiway::sampled::tests::short_solver(40, 2);
    let def = crate::multiway::sampled::tests::short_game();
    let short = plays_hundreds_of_hands(s, &def, "short", RowFormat::Byte);
    assert!(short > 10, "{short} hands with a community card");
}

#[test]
fn a_table_view_solve_plays_hundreds_of_hands_through_the_engine() {
    let s = solver_with(table_buckets(), Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "table", RowFormat::Byte);
}

/// The same at half a byte a probability: every row within its fourteenths' bound of the solve's.
#[test]
fn a_four_bit_table_view_file_plays_hundreds_of_hands_through_the_engine() {
    let s = solver_with(table_buckets(), Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "table4", RowFormat::Nibble);
}

#[test]
fn a_solve_recalling_betting_positions_plays_hundreds_of_hands_through_the_engine() {
    let within = WithinStreet::Position;
    let s = solver_recalling(within, table_buckets(), Algorithm::Linear, 30, 2);
    plays_hundreds_of_hands(s, &game(), "position", RowFormat::Byte);
}

/// Solves `s` (of `def`) for 5 iterations, writes it with its rows in `format`, reads it back
/// and plays 300 hands with it through the rules engine: every row on legal actions. Returns
/// the hands whose last street was a community card.
fn plays_hundreds_of_hands(
    mut s: SampledSolver,
    def: &GameDef,
    name: &str,
    format: RowFormat,
) -> usize {
    let dir = std::env::temp_dir().join(format!("stud-mw-file-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.strat");
    for _ in 0..5 {
        s.iterate().unwrap();
    }
    s.settle();
    let problem = Problem::sampled(def, &s.buckets, s.betting.within_street);
    write(&path, &s, &problem, format).unwrap();
    let file = MultiwayFile::open(&path).unwrap();
    assert_eq!(file.betting.within_street, s.betting.within_street);
    assert_eq!(file.buckets.view, s.buckets.view);
    assert_eq!(file.buckets.by_live.len(), s.buckets.by_live.len());
    assert_eq!(file.header.iterations, 5);
    assert_eq!(file.rows.slots, s.rows.slots);
    // The rows are the average strategy as solved, to a 255th (cumulative rounding: each
    // probability within one step, the row summing to 1) or a 15th (each rounded down or up),
    // k - 1 values a row, and exactly what `as_stored` rounds them to.
    let avg = s.average_strategy();
    let stored = as_stored(&s, format).unwrap();
    let values = s.rows.slots - s.rows.infosets;
    let want = StoredRows {
        encoding: format.name(),
        bits: format.bits(),
        values,
        bytes: format.section_len(values),
    };
    assert_eq!(file.stored(), want);
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
                    let step = match format {
                        RowFormat::Byte => 1.0 / 255.0,
                        RowFormat::Nibble => 1.0 / 14.0,
                    };
                    for (a, (&q, &p)) in out[..k].iter().zip(&avg[slot..slot + k]).enumerate() {
                        assert!((q - p as f64).abs() <= step + 1e-6, "{spot:?} {a}");
                        assert_eq!(q as f32, stored[slot + a], "{spot:?} {a}");
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
    let mut unreached = 0;
    let heuristic = crate::bot::Heuristic::default();
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
                    if answer == Answer::Unreached {
                        // A row reached in no pot class: the hand-strength bot's answer.
                        unreached += 1;
                        let mut theirs = [0.0; 8];
                        heuristic
                            .policy(&st, &bets, st.to_act().unwrap(), &legal, &mut theirs)
                            .unwrap();
                        let k = legal.len();
                        assert_eq!(probs[..k], theirs[..k], "{bets:?}");
                    }
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
    // A short solve leaves rows that no pot class reached, and random hands play into them.
    assert!(
        unreached > 0,
        "no row reached in no pot class in {decisions} decisions"
    );
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
        RowFormat::Byte,
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
        RowFormat::Byte,
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
        ("resolve-safe", "write :resolve"),
    ] {
        let e = format!("{:#}", load(&format!("{f}:{spec}")).err().unwrap());
        assert!(e.contains(says), "{spec}: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A 4-bit file forged (its checksums recomputed, so that only the rows' own checks can tell)
/// or cut short is refused with an error naming the rows; one whose row sums past 1 is refused
/// when that row is read.
#[test]
fn a_forged_or_truncated_four_bit_file_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("stud-mw-forged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.strat");
    let s = solver(Algorithm::Linear, 3, 2);
    let problem = Problem::sampled(&game(), &s.buckets, WithinStreet::History);
    write(&path, &s, &problem, RowFormat::Nibble).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let file = MultiwayFile::from_bytes(&bytes).unwrap();
    assert_eq!(file.stored().encoding, "4bit");
    let c: Container<MultiwayFileHeader> = Container::open(&bytes, MAGIC, WHAT).unwrap();
    let sections: Vec<Vec<u8>> = (0..c.sections.len())
        .map(|i| c.section(&bytes, i).unwrap().to_vec())
        .collect();
    // The file again with its rows section replaced by `rows` (every checksum right).
    let forged = |rows: Vec<u8>| {
        let mut all: Vec<&[u8]> = vec![&rows];
        all.extend(sections[1..].iter().map(Vec::as_slice));
        container::write(&path, MAGIC, c.header.clone(), &all).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        MultiwayFile::from_bytes(&bytes)
    };
    let rows = &sections[0];
    // Its own rows again: the same file.
    assert!(forged(rows.clone()).is_ok());
    // A byte short, a byte long, without the tag.
    for (what, bad) in [
        ("short", rows[..rows.len() - 1].to_vec()),
        ("long", [rows.as_slice(), &[0]].concat()),
        ("untagged", [b"ROWS8BIT".as_slice(), &rows[8..]].concat()),
    ] {
        let e = format!("{:#}", forged(bad).err().unwrap());
        assert!(
            e.contains("bytes of rows") && e.contains("4 bits"),
            "{what}: {e}"
        );
    }
    let e = format!(
        "{:#}",
        forged(rows[..rows.len() - 1].to_vec()).err().unwrap()
    );
    assert!(e.contains("beginning as 4-bit rows"), "{e}");
    // An odd count's padding nibble set.
    let values = s.rows.slots - s.rows.infosets;
    if values % 2 == 1 {
        let mut bad = rows.clone();
        *bad.last_mut().unwrap() |= 0x10;
        assert!(forged(bad).is_err());
    }
    // Every value 15: each row of three actions or more sums past 14, refused where it is
    // read (a row of two is the uniform row's code).
    let mut bad = rows.clone();
    bad[8..].fill(0xff);
    if values % 2 == 1 {
        *bad.last_mut().unwrap() = 0x0f;
    }
    let file = forged(bad).unwrap();
    let (mut out, mut refused) = ([0.0; MAX_ACTIONS], 0);
    each_row(&file.betting, &file.rows, |spot, bucket, k| {
        match file.row_into(spot, bucket, &mut out) {
            Ok(_) => assert!(k == 2 && out[..2] == [0.5, 0.5], "{spot:?}"),
            Err(e) => {
                assert!(k > 2 && e.to_string().contains("summing past 1"), "{e}");
                refused += 1;
            }
        }
        Ok(())
    })
    .unwrap();
    assert!(refused > 0);
    // Cut short on disk: the container refuses it.
    write(&path, &s, &problem, RowFormat::Nibble).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert!(MultiwayFile::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Re-encoding: 8 bits to 8 bits is the same bytes; 8 to 4 is each row's fourteenths of the
/// 8-bit row (so within 1/14 of it; a uniform row uniform), the rest of the file copied.
#[test]
fn converting_keeps_the_file_but_its_rows() {
    let dir = std::env::temp_dir().join(format!("stud-mw-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (eight, four, again) = (
        dir.join("8.strat"),
        dir.join("4.strat"),
        dir.join("88.strat"),
    );
    let s = solver_with(table_buckets(), Algorithm::Linear, 30, 2);
    let problem = Problem::sampled(&game(), &s.buckets, WithinStreet::History);
    write(&eight, &s, &problem, RowFormat::Byte).unwrap();
    let file = MultiwayFile::open(&eight).unwrap();
    convert(&file, &again, RowFormat::Byte).unwrap();
    assert!(std::fs::read(&eight).unwrap() == std::fs::read(&again).unwrap());
    convert(&file, &four, RowFormat::Nibble).unwrap();
    let converted = MultiwayFile::open(&four).unwrap();
    assert_eq!(converted.header, file.header);
    assert_eq!(converted.stored().encoding, "4bit");
    let d = file.largest_difference(&converted).unwrap();
    assert!(d < 1.0 / 14.0, "{d}");
    let (mut a, mut b, mut q) = ([0.0; MAX_ACTIONS], [0.0; MAX_ACTIONS], [0u8; MAX_ACTIONS]);
    each_row(&file.betting, &file.rows, |spot, bucket, k| {
        file.row_into(spot, bucket, &mut a)?;
        converted.row_into(spot, bucket, &mut b)?;
        fourteenths(&a[..k], &mut q[..k]);
        let uniform = a[..k].iter().all(|&p| p == a[0]);
        for (&x, &v) in b[..k].iter().zip(&q[..k]) {
            let want = if uniform {
                1.0 / k as f64
            } else {
                v as f64 / 14.0
            };
            assert_eq!(x, want);
        }
        Ok(())
    })
    .unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
