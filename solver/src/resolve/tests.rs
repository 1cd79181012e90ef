//! Re-solving: card removal of several-card hands against a pair-by-pair sum, the ranges'
//! Bayesian weights, a lossless blueprint reproduced, the player and its spec.

use super::*;
use crate::bot::tests::PairRaiser;
use crate::bot::{passive, AlwaysCall, Player};
use crate::terminal::{terminal_values, HoldingIds};
use abstraction::cards::parse_cards;
use abstraction::rules::{GameDef, Next};
use abstraction::tree::Tree;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A hand of `def` dealt from `seed`, every seat checking and calling (`player` decides when
/// given), up to the last street's first decision, or `None` if the hand ended before.
fn last_street(def: &GameDef, seed: u64, player: Option<&dyn Player>) -> Option<(State, Vec<Bet>)> {
    street_spot(def, seed, player, def.streets.len() - 1)
}

/// [`last_street`] up to the first decision of street `last`.
pub(crate) fn street_spot(
    def: &GameDef,
    seed: u64,
    player: Option<&dyn Player>,
    last: usize,
) -> Option<(State, Vec<Bet>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut st = State::new(def).unwrap();
    let mut bets = Vec::new();
    loop {
        match st.next() {
            Next::Deal { .. } => {
                st.deal_random(&mut rng).unwrap();
            }
            Next::Act { .. } if st.street() == last => return Some((st, bets)),
            Next::Act { .. } => {
                let legal = st.legal_actions();
                let a = match player {
                    Some(p) => {
                        let mut probs = [0.0; 8];
                        crate::bot::choose(p, &st, &bets, &legal, &mut probs, &mut rng)
                            .unwrap()
                            .0
                    }
                    None => legal[passive(&legal)],
                };
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            Next::Over => return None,
        }
    }
}

/// Plays the hand of `def` dealt from `seed` to its end, `a` choosing every action, and gives
/// `at` each decision: the state and `a`'s and `b`'s rows there (`b`'s checked to sum to 1).
pub(crate) fn rows_side_by_side(
    def: &GameDef,
    seed: u64,
    a: &dyn Player,
    b: &dyn Player,
    mut at: impl FnMut(&State, &[f64], &[f64]),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut st = State::new(def).unwrap();
    let mut bets: Vec<Bet> = Vec::new();
    loop {
        match st.next() {
            Next::Over => return,
            Next::Deal { .. } => {
                st.deal_random(&mut rng).unwrap();
                continue;
            }
            Next::Act { .. } => {}
        }
        let (seat, legal) = (st.to_act().unwrap(), st.legal_actions());
        let (mut p, mut q) = (vec![0.0; legal.len()], vec![0.0; legal.len()]);
        a.policy(&st, &bets, seat, &legal, &mut p).unwrap();
        b.policy(&st, &bets, seat, &legal, &mut q).unwrap();
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{q:?}");
        at(&st, &p, &q);
        let mut probs = [0.0; 8];
        let action = crate::bot::choose(a, &st, &bets, &legal, &mut probs, &mut rng)
            .unwrap()
            .0;
        bets.push((st.street(), action));
        st.apply(action).unwrap();
    }
}

#[test]
fn three_card_hands_are_valued_as_the_sum_over_the_pairs_that_do_not_collide() {
    let def = GameDef::preset("7stud").unwrap();
    let (st, bets) = last_street(&def, 3, None).unwrap();
    let sub = Subgame::at(&AlwaysCall, &st, &bets, Options::default()).unwrap();
    assert_eq!(
        sub.tree.num_hands(),
        13_244,
        "C(44, 3) holdings of the unseen cards"
    );
    assert!(sub.tree.twins.is_empty());
    check_terminals_pair_by_pair(&sub, Some(40));
}

/// Seven-card stud with a deck of five ranks (20 cards): a sixth-street subgame small enough
/// to sum pair by pair, the seventh card private chance.
#[test]
fn sixth_street_hands_are_valued_as_the_sum_over_the_pairs_that_do_not_collide() {
    let mut def = GameDef::preset("7stud").unwrap();
    def.deck.ranks = (8..13).map(abstraction::cards::Rank::new).collect();
    let (st, bets) = (0..)
        .find_map(|seed| street_spot(&def, seed, None, 3))
        .unwrap();
    let sub = Subgame::at(&AlwaysCall, &st, &bets, Options::default()).unwrap();
    let t = &sub.tree;
    // 12 cards unseen: 66 pairs a seat on sixth street, each with 10 seventh cards.
    assert_eq!((sub.roots.len(), t.num_hands()), (66, 660));
    assert_eq!(t.num_buckets[3..], [66, 660]);
    assert!(t
        .nodes
        .iter()
        .any(|n| n.kind == NodeKind::Fold && n.street == 3));
    assert!(t
        .nodes
        .iter()
        .any(|n| n.kind == NodeKind::Action && n.street == 4));
    // Each set of three cards is three hands, twins of one another.
    for (h, tw) in t.twins.iter().enumerate() {
        let set = sub.hands[h];
        assert!(tw
            .iter()
            .all(|&o| sub.hands[o as usize] == set && o as usize != h));
        assert_ne!(tw[0], tw[1]);
    }
    for r in &sub.ranges {
        assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // A seat's hand from its cards in the order dealt; two cards: its pair's first hand.
    let h = 137;
    let pair: Vec<_> = sub.roots[sub.of_root[h] as usize].iter().collect();
    let mut cards = pair.clone();
    cards.extend(
        sub.hands[h]
            .minus(sub.roots[sub.of_root[h] as usize])
            .iter(),
    );
    assert_eq!(sub.hand_index(&cards), Some(h));
    assert_eq!(sub.of_root[sub.hand_index(&pair).unwrap()], sub.of_root[h]);
    check_terminals_pair_by_pair(&sub, None);
    // The pairs that do not collide weigh 1 in all once the terminals' scale is applied:
    // seat 0's value of each fold of seat 1 is what seat 1 put in, on either street.
    let mut out = vec![0.0; t.num_hands()];
    for (p, node) in t.nodes.iter().enumerate() {
        for c in t.children(p) {
            let fold = &t.nodes[c];
            if node.kind != NodeKind::Action || fold.kind != NodeKind::Fold || fold.seat != 1 {
                continue;
            }
            terminal_values(t, &HoldingIds::new(t), fold, 0, &sub.ranges[1], &mut out);
            let v: f64 = out.iter().zip(&sub.ranges[0]).map(|(a, b)| a * b).sum();
            let put_in = sub.state(p).unwrap().committed(1) as f64;
            assert!((v - put_in).abs() < 1e-9 * put_in, "{v} {put_in}");
        }
    }
    // The re-solve's rows on sixth street are a pair's: every hand of it plays them.
    let r = sub.solve(Budget::Iterations(5), None).unwrap();
    let same = sub.hand_index(&pair).unwrap();
    assert_eq!(r.strategy(0, h), r.strategy(0, same));
}

/// Every terminal of `sub`'s tree, both seats, against the sum over the opponent's hands
/// that share no card with the hand (`samples` hands drawn, or every one).
fn check_terminals_pair_by_pair(sub: &Subgame, samples: Option<usize>) {
    let t = &sub.tree;
    let n = t.num_hands();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // A reach with zeros and uneven weights, as deep in a solve.
    let reach: Vec<f64> = (0..n)
        .map(|_| {
            if rng.random_bool(0.2) {
                0.0
            } else {
                rng.random()
            }
        })
        .collect();
    let mut out = vec![0.0; n];
    let mut checked = [0; 2];
    let ids = HoldingIds::new(t);
    // What the memory estimate counts of them is what they hold.
    assert_eq!(ids.held_bytes(), HoldingIds::bytes(t));
    for node in t.nodes.iter().filter(|x| x.kind != NodeKind::Action) {
        for player in 0..2u8 {
            terminal_values(t, &ids, node, player, &reach, &mut out);
            let strength = |seat: u8, h: usize| {
                let off = t.boards[node.board as usize].showdown as usize;
                t.strength[off + seat as usize * n + h]
            };
            for i in 0..samples.unwrap_or(n) {
                let h = match samples {
                    Some(_) => abstraction::draw::below(&mut rng, n),
                    None => i,
                };
                let mut want = 0.0;
                for (o, &r) in reach.iter().enumerate() {
                    if !sub.hands[o].intersection(sub.hands[h]).is_empty() {
                        continue;
                    }
                    want += r * match node.kind {
                        NodeKind::Fold => 1.0,
                        _ => match strength(player, h).cmp(&strength(1 - player, o)) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Less => -1.0,
                            std::cmp::Ordering::Equal => 0.0,
                        },
                    };
                }
                let v = t.values[node.value_index() as usize];
                want *= match node.kind {
                    NodeKind::Fold if player == 1 => -v,
                    _ => v,
                };
                let tol = 1e-9 * want.abs().max(1e-3);
                assert!(
                    (out[h] - want).abs() < tol,
                    "{:?} {} {want}",
                    node.kind,
                    out[h]
                );
            }
            checked[(node.kind == NodeKind::Showdown) as usize] += 1;
        }
    }
    assert!(checked[0] > 0 && checked[1] > 0, "{checked:?}");
    // A fold beside a call valued together gives what each gives alone.
    let (mut fold, mut call) = (vec![0.0; n], vec![0.0; n]);
    let mut pairs = 0;
    for p in 0..t.nodes.len() {
        let c = t.children(p);
        for (f, s) in c.clone().zip(c.skip(1)) {
            let (f, s) = (&t.nodes[f], &t.nodes[s]);
            if f.kind != NodeKind::Fold || s.kind != NodeKind::Showdown {
                continue;
            }
            for player in 0..2u8 {
                crate::terminal::fold_and_showdown(
                    t,
                    &ids,
                    [f, s],
                    player,
                    &reach,
                    &mut fold,
                    &mut call,
                );
                for (node, got) in [(f, &fold), (s, &call)] {
                    terminal_values(t, &ids, node, player, &reach, &mut out);
                    for (a, b) in got.iter().zip(&out) {
                        assert!((a - b).abs() <= 1e-9 * b.abs().max(1e-3), "{a} {b}");
                    }
                }
            }
            pairs += 1;
        }
    }
    assert!(pairs > 0);
}

#[test]
fn ranges_sum_the_blueprint_s_bayesian_weights_over_the_ways_to_deal_each_holding() {
    let def = GameDef::preset("7stud").unwrap();
    // Seat 0 brings in with the 2c and calls; seat 1 completes with a pair in the hole.
    let mut st = State::new(&def).unwrap();
    let mut cards = [
        parse_cards("9s 8h 2c").unwrap(),
        parse_cards("Jh Jd 7s").unwrap(),
    ];
    let mut later = parse_cards("3d 4d 5s 6s Td Tc Qs Qh 8c").unwrap();
    let mut bets = Vec::new();
    loop {
        match st.next() {
            Next::Deal { seat: Some(s), .. } if st.street() == 0 => {
                st.deal(cards[s as usize].remove(0)).unwrap()
            }
            Next::Deal { .. } => st.deal(later.remove(0)).unwrap(),
            Next::Act { seat } if st.street() == 4 => {
                assert_eq!(seat, st.to_act().unwrap());
                break;
            }
            Next::Act { seat } => {
                let legal = st.legal_actions();
                let mut probs = vec![0.0; legal.len()];
                PairRaiser
                    .policy(&st, &bets, seat, &legal, &mut probs)
                    .unwrap();
                let a = legal[probs.iter().position(|&p| p == 1.0).unwrap()];
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            Next::Over => unreachable!(),
        }
    }
    assert!(bets
        .iter()
        .any(|b| b.0 == 0 && matches!(b.1, Action::CompleteBetRaise(_))));
    let exact = Options {
        floor: 0.0,
        ..Default::default()
    };
    let sub = Subgame::at(&PairRaiser, &st, &bets, exact).unwrap();
    let public: CardSet = [0, 1]
        .iter()
        .flat_map(|&s| st.up_cards(s).to_vec())
        .collect();
    assert!(sub
        .hands
        .iter()
        .all(|h| h.len() == 3 && h.intersection(public).is_empty()));
    for r in &sub.ranges {
        assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // Each three-card holding is dealt three ways (which card came on seventh street); the
    // raiser's weight counts the ways whose third-street pair is a pair: one for a pair and
    // a kicker, three for trips, none without a pair.
    let ways = |h: CardSet| {
        let c: Vec<Card> = h.iter().collect();
        [(0, 1), (0, 2), (1, 2)]
            .iter()
            .filter(|&&(i, j)| c[i].rank() == c[j].rank())
            .count() as f64
    };
    let r = &sub.ranges[1];
    let unit = sub
        .hands
        .iter()
        .zip(r)
        .find(|(h, _)| ways(**h) == 1.0)
        .map(|(_, &w)| w)
        .unwrap();
    for (h, &w) in sub.hands.iter().zip(r) {
        assert!((w - unit * ways(*h)).abs() < 1e-15, "{h:?}: {w} vs {unit}");
    }
    // The caller would have completed or raised with a pair in the hole: its weight counts
    // the ways without one.
    let r = &sub.ranges[0];
    let unit = r[sub.hands.iter().position(|h| ways(*h) == 0.0).unwrap()] / 3.0;
    for (h, &w) in sub.hands.iter().zip(r) {
        assert!(
            (w - unit * (3.0 - ways(*h))).abs() < 1e-15,
            "{h:?}: {w} vs {unit}"
        );
    }
    // Seen from seat 0's real cards: no holding sharing one, the rest summing to 1.
    let mine: CardSet = st.down_cards(0).iter().flatten().copied().collect();
    let seen = sub.opponent_range_seen_by(0, mine);
    assert!((seen.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    for (h, &w) in sub.hands.iter().zip(&seen) {
        assert!(h.intersection(mine).is_empty() || w == 0.0);
    }
    // With a floor, a holding without a pair keeps a hundredth of a pair's weight per way.
    let floored = Subgame::at(&PairRaiser, &st, &bets, Options::default()).unwrap();
    let r = &floored.ranges[1];
    let (pair, none) = (
        floored.hands.iter().position(|h| ways(*h) == 1.0).unwrap(),
        floored.hands.iter().position(|h| ways(*h) == 0.0).unwrap(),
    );
    assert!((r[none] / r[pair] - 3.0 * DEFAULT_FLOOR / (1.0 + 2.0 * DEFAULT_FLOOR)).abs() < 1e-12);
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn re_solving_a_lossless_blueprint_s_last_street_reproduces_its_strategy_and_value() {
    // Kings and aces ministud, solved exactly: on its last street the blueprint is already an
    // equilibrium of each subgame its ranges define.
    let mut def = GameDef::ministud();
    def.deck.ranks = vec![
        abstraction::cards::Rank::KING,
        abstraction::cards::Rank::ACE,
    ];
    let abs = crate::session::Abstractions::for_game(&def);
    let mut s = crate::session::new_solver(&def, &abs, Algorithm::CfrPlus, None).unwrap();
    for _ in 0..600 {
        s.iterate();
    }
    let e = crate::best_response::exploitability(&s.tree, &s.average);
    let dir = std::env::temp_dir().join(format!("stud-resolve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mini8.strat");
    crate::strategy_file::write(&path, &s, &def, "lossless", abs.betting, Some(e)).unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path.to_str().unwrap(), &def).unwrap();
    let (mut spots, mut same) = (0, 0);
    for seed in 0..40 {
        if spots == 12 {
            break;
        }
        let Some((st, bets)) = last_street(&def, seed, Some(&blueprint)) else {
            continue;
        };
        let sub = Subgame::at(
            &blueprint,
            &st,
            &bets,
            Options {
                floor: 0.0,
                ..Default::default()
            },
        )
        .unwrap();
        let blue = sub.policy_of(&blueprint).unwrap();
        let (blue_expl, blue_value) = sub.exploitability(&blue);
        let r = sub.solve(Budget::Iterations(2000), None).unwrap();
        // Chips per hand reaching the subgame; the ante is 1, a big bet 4.
        assert!(blue_expl < 0.02, "seed {seed}: the blueprint's {blue_expl}");
        assert!(
            r.report(&sub).exploitability < 0.002,
            "{:?}",
            r.report(&sub)
        );
        assert!(
            (r.report(&sub).value_0 - blue_value).abs() < 0.02,
            "seed {seed}: re-solved {} blueprint {blue_value}",
            r.report(&sub).value_0
        );
        // Where the subgame's equilibrium is unique the re-solve plays the blueprint's rows;
        // where it is not (a 4-hand game has ties), either seat's re-solved strategy is
        // interchangeable with the blueprint's: each against the other's is an equilibrium too.
        for seat in 0..2u8 {
            let mut mixed = blue.clone();
            for (i, node) in sub.tree.nodes.iter().enumerate() {
                if node.kind != NodeKind::Action || node.seat != seat {
                    continue;
                }
                let k = node.num_children as usize;
                for h in 0..sub.tree.num_hands() {
                    let at = node.first_slot() as usize + h * k;
                    mixed[at..at + k].copy_from_slice(&r.strategy(i, h));
                }
            }
            let (expl, value) = sub.exploitability(&mixed);
            assert!(expl < 0.02, "seed {seed} seat {seat}: {expl}");
            assert!((value - blue_value).abs() < 0.02, "seed {seed}: {value}");
        }
        let seat = sub.tree.nodes[0].seat as usize;
        let k = sub.tree.nodes[0].num_children as usize;
        let mut diff = 0.0;
        for h in 0..sub.tree.num_hands() {
            for (a, p) in r.strategy(0, h).iter().enumerate() {
                diff += sub.ranges[seat][h] * (p - blue[h * k + a]).abs();
            }
        }
        same += (diff < 0.01) as usize;
        spots += 1;
    }
    assert!(spots == 12, "{spots} spots reached the last street");
    // Seeds 0 to 4 measured: 3 of the 5 roots with the blueprint's rows to within 0.002.
    assert!(same >= 6, "{same} of {spots} roots played as the blueprint");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The gadget's promise, on seven real fifth-street subgames of five-card stud's shipped
/// blueprint: after a safe re-solve of a seat, no opponent hand's best response gains more than
/// it gained against the blueprint (to the solve's error), where the unsafe re-solve lets some
/// gain; and the safe re-solve still moves the seat's strategy.
#[test]
fn a_safe_re_solve_holds_every_opponent_hand_to_its_blueprint_value() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let def = GameDef::preset("5stud").unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path, &def).unwrap();
    let (mut spots, mut unsafe_gains, mut moved) = (0, 0, 0);
    for seed in 0..40 {
        if spots == 7 {
            break;
        }
        let Some((st, bets)) = last_street(&def, seed, Some(&blueprint)) else {
            continue;
        };
        spots += 1;
        let sub = Subgame::at(&blueprint, &st, &bets, Options::default()).unwrap();
        let seat = st.to_act().unwrap();
        let safety = sub
            .safety(&blueprint, seat, crate::gadget::GadgetKind::Resolve)
            .unwrap();
        let gains = |average: &[f64]| sub.opponent_gain(average, &safety);
        let blue = sub.policy_of(&blueprint).unwrap();
        assert!(gains(&blue).abs() < 1e-9, "the blueprint against itself");
        let safe = sub.solve(Budget::Iterations(1000), Some(&safety)).unwrap();
        let gain = gains(&safe.average());
        assert_eq!(safe.report(&sub).opponent_gain, Some(gain));
        // The pot here is tens of chips; measured: 0.001 at 1,000 iterations, below 0 at 4,000.
        assert!(
            gain < 0.005,
            "seed {seed}: an opponent hand gains {gain} chips"
        );
        let unsafe_solve = sub.solve(Budget::Iterations(1000), None).unwrap();
        unsafe_gains += (gains(&unsafe_solve.average()) > 0.05) as usize;
        // The seat's rows, weighed by its range, moved from the blueprint's.
        let mut diff = 0.0;
        for (i, node) in sub.tree.nodes.iter().enumerate() {
            if node.kind != NodeKind::Action || node.seat != seat {
                continue;
            }
            let k = node.num_children as usize;
            for h in 0..sub.tree.num_hands() {
                let at = node.first_slot() as usize + h * k;
                for (a, p) in safe.strategy(i, h).iter().enumerate() {
                    diff += sub.ranges[seat as usize][h] * (p - blue[at + a]).abs();
                }
            }
        }
        moved += (diff > 0.05) as usize;
    }
    assert_eq!(spots, 7);
    assert!(
        unsafe_gains > 0,
        "no unsafe re-solve let a hand gain: the test shows nothing"
    );
    assert!(moved > 0, "no safe re-solve moved from the blueprint");
}

#[test]
fn a_resolving_player_re_solves_the_last_street_only() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let def = GameDef::preset("5stud").unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path, &def).unwrap();
    let resolving = ResolvingPlayer::new(
        crate::bot::StrategyPlayer::open(path, &def).unwrap(),
        Budget::Iterations(50),
        Options::default(),
    )
    .unwrap();
    assert_eq!(resolving.name(), format!("{path}:resolve=50"));
    let (st, bets) = last_street(&def, 2, None).unwrap();
    let seat = st.to_act().unwrap();
    let legal = st.legal_actions();
    let mut p = vec![0.0; legal.len()];
    resolving.policy(&st, &bets, seat, &legal, &mut p).unwrap();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    // The same answer from the cache, and the subgame's row for the seat's card.
    let mut again = vec![0.0; legal.len()];
    resolving
        .policy(&st, &bets, seat, &legal, &mut again)
        .unwrap();
    assert_eq!(p, again);
    let sub = Subgame::at(&blueprint, &st, &bets, Options::default()).unwrap();
    assert_eq!(sub.hands.len(), 44, "one down card, 8 up cards showing");
    let r = sub.solve(Budget::Iterations(50), None).unwrap();
    // A stop that does not come leaves every bit as it was; one that has come ends the solve.
    let flag = std::sync::atomic::AtomicBool::new(false);
    let stop = super::Stop {
        cancelled: Some(&flag),
        limit: Some((std::time::Duration::from_secs(3600), "an hour")),
    };
    let watched = sub
        .solve_until(Budget::Iterations(50), None, &stop)
        .unwrap();
    for node in 0..sub.tree.nodes.len() {
        if sub.tree.nodes[node].kind == NodeKind::Action {
            for h in 0..sub.hands.len() {
                let bits = |r: &Resolved| {
                    r.strategy(node, h)
                        .iter()
                        .map(|x| x.to_bits())
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&r), bits(&watched));
            }
        }
    }
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    let e = match sub.solve_until(Budget::Iterations(50), None, &stop) {
        Ok(_) => panic!("the stop did not end the solve"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("cancelled after 1 iterations"), "{e}");
    let late = super::Stop {
        cancelled: None,
        limit: Some((std::time::Duration::ZERO, "--max-resolve-ms")),
    };
    let e = match sub.solve_until(Budget::Iterations(50), None, &late) {
        Ok(_) => panic!("the stop did not end the solve"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("--max-resolve-ms") && e.contains("stopped"),
        "{e}"
    );
    let down: CardSet = st.down_cards(seat).iter().flatten().copied().collect();
    let row = r.strategy(0, sub.hand_index(&down.iter().collect::<Vec<_>>()).unwrap());
    for (a, x) in sub.actions(0).iter().zip(&row) {
        let i = legal.iter().position(|l| l == a).unwrap();
        assert!((p[i] - x).abs() < 1e-12);
    }
    // Before the last street, the blueprint's answer.
    let mut early = State::new(&def).unwrap();
    while let Next::Deal { .. } = early.next() {
        early
            .deal_random(&mut ChaCha8Rng::seed_from_u64(9))
            .unwrap();
    }
    let legal = early.legal_actions();
    let seat = early.to_act().unwrap();
    let (mut a, mut b) = (vec![0.0; legal.len()], vec![0.0; legal.len()]);
    resolving.policy(&early, &[], seat, &legal, &mut a).unwrap();
    blueprint.policy(&early, &[], seat, &legal, &mut b).unwrap();
    assert_eq!(a, b);
}

#[test]
fn resolve_specs_name_iterations_or_milliseconds() {
    let parse = |s| resolve_spec(s).map(|r| r.map_err(|e| e.to_string()));
    let default = Budget::Iterations(DEFAULT_PLAYER_ITERATIONS);
    let opts = |method| Options {
        method,
        ..Default::default()
    };
    let two = Options {
        two_streets: true,
        ..Default::default()
    };
    assert_eq!(
        parse("f.strat:resolve2"),
        Some(Ok(("f.strat", default, two)))
    );
    assert_eq!(
        parse("f.strat:resolve2=12"),
        Some(Ok(("f.strat", Budget::Iterations(12), two)))
    );
    assert!(parse("f.strat:resolve2-safe")
        .unwrap()
        .unwrap_err()
        .contains("not built"));
    assert_eq!(
        parse("f.strat:resolve"),
        Some(Ok(("f.strat", default, opts(Method::Unsafe))))
    );
    assert_eq!(
        parse("f.strat:pure:resolve=80"),
        Some(Ok((
            "f.strat:pure",
            Budget::Iterations(80),
            opts(Method::Unsafe)
        )))
    );
    assert_eq!(
        parse("f.strat:resolve=250ms"),
        Some(Ok(("f.strat", Budget::Millis(250), opts(Method::Unsafe))))
    );
    assert_eq!(
        parse("f.strat:resolve-safe"),
        Some(Ok(("f.strat", default, opts(Method::Safe))))
    );
    assert_eq!(
        parse("f.strat:resolve-safe=40"),
        Some(Ok(("f.strat", Budget::Iterations(40), opts(Method::Safe))))
    );
    assert_eq!(
        parse("f.strat:resolve-maxmargin=40"),
        Some(Ok((
            "f.strat",
            Budget::Iterations(40),
            opts(Method::Maxmargin)
        )))
    );
    let floored = |method, floor| Options {
        method,
        floor,
        ..Default::default()
    };
    assert_eq!(
        parse("f.strat:resolve,floor=0.2"),
        Some(Ok(("f.strat", default, floored(Method::Unsafe, 0.2))))
    );
    assert_eq!(
        parse("f.strat:resolve-safe=40,floor=0"),
        Some(Ok((
            "f.strat",
            Budget::Iterations(40),
            floored(Method::Safe, 0.0)
        )))
    );
    assert_eq!(
        parse("f.strat:resolve-safe=40,fallback"),
        Some(Ok((
            "f.strat",
            Budget::Iterations(40),
            Options {
                fallback: true,
                ..opts(Method::Safe)
            }
        )))
    );
    assert!(parse("f.strat:resolve,fallback")
        .unwrap()
        .unwrap_err()
        .contains("write resolve-safe"));
    // Searching, the safe method is seventh street's nested re-solve's; sixth street's stays
    // unsafe (two streets).
    let search = |nested_method, fallback| Options {
        two_streets: true,
        nested: true,
        nested_method,
        fallback,
        ..Default::default()
    };
    assert_eq!(
        parse("f.strat:search"),
        Some(Ok(("f.strat", default, search(Method::Unsafe, false))))
    );
    assert_eq!(
        parse("f.strat:search-safe=12,fallback"),
        Some(Ok((
            "f.strat",
            Budget::Iterations(12),
            search(Method::Safe, true)
        )))
    );
    assert_eq!(
        parse("f.strat:search-maxmargin"),
        Some(Ok(("f.strat", default, search(Method::Maxmargin, false))))
    );
    assert!(parse("f.strat:search,fallback")
        .unwrap()
        .unwrap_err()
        .contains("search-safe"));
    assert_eq!(parse("f.strat:search2"), None);
    for bad in ["floor=1.5", "floor=-0.1", "floor=", "flor=0.2", "0.2"] {
        let spec = format!("f.strat:resolve=30,{bad}");
        let e = resolve_spec(&spec).unwrap().unwrap_err().to_string();
        assert!(e.contains("floor=F") && e.contains(bad), "{e}");
    }
    assert!(parse("f.strat:resolve=0").unwrap().is_err());
    // A budget with no end in sight is refused, naming the limit.
    for (spec, limit) in [
        ("f.strat:resolve=1000000000", "100000 iterations"),
        ("f.strat:resolve=18446744073709551615ms", "600000 ms"),
        ("f.strat:resolve=30,floor=1e-320", "floor=F"),
    ] {
        let e = parse(spec).unwrap().unwrap_err();
        assert!(e.contains(limit), "{spec}: {e}");
    }
    assert!(parse("f.strat:resolve=100000").unwrap().is_ok());
    assert!(parse("f.strat:resolve-safe=0").unwrap().is_err());
    assert!(parse("f.strat:resolve=soon").unwrap().is_err());
    assert_eq!(parse("f.strat:pure"), None);
    assert_eq!(parse("f.strat:resolve-unsafe"), None);
    // A command that opens the file alone (eval lbr) refuses rather than drop the re-solve.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let def = GameDef::preset("5stud").unwrap();
    let e = crate::players::open_strategy(&format!("{path}:resolve"), &def)
        .err()
        .unwrap();
    assert!(e.to_string().contains("without `:resolve`"), "{e}");
    assert!(crate::players::load(&format!("{path}:threshold=0.1:resolve=5"), &def).is_ok());
    // A bad budget or floor is refused for what it is wherever the spec is read (a command
    // guesses the game from the file's spec before it loads the player).
    for (bad, says) in [
        ("resolve=soon", "resolve=N"),
        ("resolve,floor=2", "floor=F"),
    ] {
        let spec = format!("{path}:{bad}");
        let e = crate::players::strategy_spec(&spec)
            .unwrap_err()
            .to_string();
        assert!(e.contains(bad) && e.contains(says), "{e}");
    }
    // A floor other than the default is in the name, which reads back as the same player.
    let floored = crate::players::load(&format!("{path}:resolve,floor=0.2"), &def).unwrap();
    assert_eq!(floored.name(), format!("{path}:resolve=30,floor=0.2"));
    let spec = format!("{path}:resolve,floor=0.2");
    let (_, _, options) = resolve_spec(&spec).unwrap().unwrap();
    assert_eq!(resolve_spec(floored.name()).unwrap().unwrap().2, options);
    assert_eq!(parse("f.strat:resolved"), None);
}

#[test]
fn spots_off_the_last_street_or_in_split_games_are_refused() {
    let def = GameDef::preset("7stud").unwrap();
    let mut st = State::new(&def).unwrap();
    while let Next::Deal { .. } = st.next() {
        st.deal_random(&mut ChaCha8Rng::seed_from_u64(1)).unwrap();
    }
    let e = Subgame::at(&AlwaysCall, &st, &[], Options::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("starts on the last street"), "{e}");
    let def = GameDef::preset("stud8").unwrap();
    let (st, bets) = last_street(&def, 1, None).unwrap();
    let e = Subgame::at(&AlwaysCall, &st, &bets, Options::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("not implemented"), "{e}");
}

/// Kings and aces ministud (8 cards), its lossless public tree, and a strategy file of it
/// solved by `iterations` of CFR+ (written under `name` in a fresh folder), as a player.
pub(crate) fn kings_and_aces_blueprint(
    iterations: u64,
    name: &str,
) -> (GameDef, Tree, crate::bot::StrategyPlayer, f64) {
    let mut def = GameDef::ministud();
    def.deck.ranks = vec![
        abstraction::cards::Rank::KING,
        abstraction::cards::Rank::ACE,
    ];
    let abs = crate::session::Abstractions::for_game(&def);
    let mut s = crate::session::new_solver(&def, &abs, Algorithm::CfrPlus, None).unwrap();
    for _ in 0..iterations {
        s.iterate();
    }
    let e = crate::best_response::exploitability(&s.tree, &s.average);
    let dir = std::env::temp_dir().join(format!("stud-verify-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.strat"));
    crate::strategy_file::write(&path, &s, &def, "lossless", abs.betting, Some(e)).unwrap();
    let player = crate::bot::StrategyPlayer::open(path.to_str().unwrap(), &def).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let tree = crate::ladder::lift_target(&def, None).unwrap();
    (def, tree, player, e.chips)
}

#[test]
fn the_lift_and_each_subgame_s_rows_are_the_player_s_own() {
    let (def, tree, player, solved) = kings_and_aces_blueprint(100, "lift");
    let (lifted, roots) = verify::lift(&def, &tree, &player).unwrap();
    // The player's rows lifted back onto the tree they were solved on: the solver's figure,
    // up to the file's 16-bit rows.
    let e = crate::best_response::exploitability(&tree, &lifted).chips;
    assert!((e - solved).abs() < 1e-3, "lifted {e} solved {solved}");
    assert!(roots.len() > 100, "{} last-street roots", roots.len());
    // Below a root, each (decision, hand) row of the public tree and of the subgame built
    // there are one: the lifted row equals the subgame's own reading of the player.
    let mut compared = 0;
    for root in roots.iter().step_by(roots.len() / 40) {
        let sub = Subgame::at(&player, &root.state, &root.bets, Options::default()).unwrap();
        let blue = sub.policy_of(&player).unwrap();
        for (at, sub_at, k) in verify::row_pairs(&tree, root.node, &sub).unwrap() {
            for a in 0..k {
                assert!((lifted[at + a] - blue[sub_at + a]).abs() < 1e-12);
            }
            compared += 1;
        }
    }
    assert!(compared > 400, "{compared} rows compared");
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn re_solving_every_last_street_solves_each_subgame_and_is_measured_whole() {
    let (def, tree, player, solved) = kings_and_aces_blueprint(600, "exact");
    let m = verify::measure(
        &def,
        &tree,
        &player,
        Budget::Iterations(1000),
        Options {
            floor: 0.0,
            ..Default::default()
        },
        &|_, _| {},
    )
    .unwrap();
    assert!((m.blueprint.chips - solved).abs() < 1e-3, "{m:?}");
    assert!(m.subgames > 100 && m.iterations == 1000.0, "{m:?}");
    assert!(m.mean_subgame_resolved < 0.005, "{m:?}");
    // Unsafe re-solving: each subgame solved from the blueprint's exact ranges, yet the whole
    // is more exploitable than the near-equilibrium blueprint (measured: 0.0190 against
    // 0.0005 chips per game): a best response steers into the subgames whose re-solved
    // strategy gives its hands more than the blueprint did (docs/notes/resolve.md).
    assert!(m.resolved.chips > 10.0 * m.blueprint.chips, "{m:?}");
    // The safe re-solve, each seat's subgame behind the gadget, is bounded by the blueprint.
    let safe = verify::measure(
        &def,
        &tree,
        &player,
        Budget::Iterations(1000),
        Options {
            floor: 0.0,
            method: Method::Safe,
            ..Default::default()
        },
        &|_, _| {},
    )
    .unwrap();
    assert!(safe.resolved.chips < 2.0 * safe.blueprint.chips, "{safe:?}");
}

#[test]
fn re_solving_a_weak_blueprint_s_last_streets_repairs_them_inside() {
    let (def, tree, player, solved) = kings_and_aces_blueprint(3, "weak");
    let m = verify::measure(
        &def,
        &tree,
        &player,
        Budget::Iterations(300),
        Options::default(),
        &|_, _| {},
    )
    .unwrap();
    assert!((m.blueprint.chips - solved).abs() < 1e-3, "{m:?}");
    assert!(
        m.mean_subgame_resolved < m.mean_subgame_blueprint / 10.0,
        "{m:?}"
    );
    assert_eq!(m.iterations, 300.0);
}

/// A player that counts its class lookups.
struct Counting<'a>(&'a dyn Player, std::sync::atomic::AtomicUsize);

impl Player for Counting<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<crate::bot::Answer> {
        self.0.policy(state, bets, seat, legal, probs)
    }

    fn card_class(&self, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.card_class(state, seat)
    }

    fn class_policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        class: u32,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        self.0.class_policy(state, bets, seat, class, legal, probs)
    }
}

#[test]
fn classes_warmed_on_the_earlier_streets_give_the_same_ranges_without_a_lookup() {
    use super::classes::{warm, Cached, ClassCache};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let def = GameDef::preset("5stud").unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path, &def).unwrap();
    let (st, bets) = (0..)
        .find_map(|seed| last_street(&def, seed, Some(&blueprint)))
        .unwrap();
    let cold = Subgame::at(&blueprint, &st, &bets, Options::default()).unwrap();
    let counting = Counting(&blueprint, 0.into());
    let cache = ClassCache::new();
    let cached = Cached {
        player: &counting,
        classes: &cache,
    };
    // A decision on each street before the last: the player's own, as it plays the hand.
    let mut streets = Vec::new();
    for i in 0..bets.len() {
        if !streets.contains(&bets[i].0) {
            streets.push(bets[i].0);
            warm(&cached, &st, &bets[..i], DEFAULT_FLOOR).unwrap();
        }
    }
    assert_eq!(streets.len(), def.streets.len() - 1);
    let looked_up = counting.1.load(std::sync::atomic::Ordering::Relaxed);
    assert!(looked_up > 0);
    let warmed = Subgame::at(&cached, &st, &bets, Options::default()).unwrap();
    assert_eq!(
        counting.1.load(std::sync::atomic::Ordering::Relaxed),
        looked_up,
        "the last street's replay looked a class up again"
    );
    assert_eq!(warmed.ranges, cold.ranges);
    assert_eq!(warmed.hands, cold.hands);
}

/// A seventh-street subgame of seven-card stud (13,244 holdings a seat) walks its root's
/// actions in parallel, and its re-solve has the same bits on one thread and on two.
#[test]
fn a_seventh_street_re_solve_has_the_same_bits_on_one_thread_and_two() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-hu.strat");
    let def = GameDef::preset("7stud").unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path, &def).unwrap();
    let (st, bets) = (0..)
        .find_map(|seed| last_street(&def, seed, Some(&blueprint)))
        .unwrap();
    let sub = Subgame::at(&blueprint, &st, &bets, Options::default()).unwrap();
    assert!(sub.tree.num_hands() >= crate::cfr::FORK_MIN_HANDS);
    assert!(sub.tree.nodes.iter().all(|n| n.kind != NodeKind::Chance));
    let solve = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| sub.solve(Budget::Iterations(3), None).unwrap())
    };
    let bits = |r: &Resolved| {
        let s = &r.solver;
        (s.regrets.iter().chain(&s.average))
            .map(|x| x.to_bits())
            .collect::<Vec<_>>()
    };
    let (one, two) = (solve(1), solve(2));
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(
        one.report(&sub).exploitability.to_bits(),
        two.report(&sub).exploitability.to_bits()
    );
}

/// A sixth-street subgame of seven-card stud from the shipped blueprint's ranges: 946 pairs a
/// seat, 39,732 hands on seventh street; its re-solve has the same bits on one thread and two,
/// and its exploitability inside the subgame falls with the iterations.
#[test]
fn a_sixth_street_re_solve_converges_with_the_same_bits_on_one_thread_and_two() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-hu.strat");
    let def = GameDef::preset("7stud").unwrap();
    let blueprint = crate::bot::StrategyPlayer::open(path, &def).unwrap();
    let (st, bets) = (0..)
        .find_map(|seed| street_spot(&def, seed, Some(&blueprint), 3))
        .unwrap();
    let sub = Subgame::at(&blueprint, &st, &bets, Options::default()).unwrap();
    assert_eq!((sub.roots.len(), sub.tree.num_hands()), (946, 39_732));
    // Its terminals sweep card sets, not hands: sampled hands against the sum pair by pair.
    check_terminals_pair_by_pair(&sub, Some(6));
    let solve = |threads, iterations| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| sub.solve(Budget::Iterations(iterations), None).unwrap())
    };
    let bits = |r: &Resolved| {
        let s = &r.solver;
        (s.regrets.iter().chain(&s.average))
            .map(|x| x.to_bits())
            .collect::<Vec<_>>()
    };
    let one = solve(1, 2);
    assert_eq!(bits(&one), bits(&solve(2, 2)));
    let later = solve(2, 12);
    let (e2, e12) = (
        one.report(&sub).exploitability,
        later.report(&sub).exploitability,
    );
    assert!(e12 < e2 / 3.0 && e12 > 0.0, "2 iterations: {e2}, 12: {e12}");
    assert_eq!(later.report(&sub).street, 3);
    assert!(later.report(&sub).memory_bytes > later.report(&sub).infoset_actions * 16);
}
