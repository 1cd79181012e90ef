use super::matches::{play_match, play_table, summarize, MatchConfig};
use super::*;
use crate::players::load;
use abstraction::cards::parse_cards;
use abstraction::phh::{random_action, replay, HandHistory};
use abstraction::rules::{Action, GameDef, Next, Profile, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn bots() -> Vec<Box<dyn Player>> {
    let def = GameDef::preset("7stud").unwrap();
    BOT_NAMES.iter().map(|n| load(n, &def).unwrap()).collect()
}

#[test]
fn every_bot_gives_a_distribution_over_the_legal_actions_in_every_game() {
    let bots = bots();
    for game in [
        "7stud",
        "stud8",
        "razz",
        "5stud",
        "kuhn",
        "leduc",
        "ministud",
        "7stud-3p",
        "stud8-5p",
        "razz-8p",
        "7stud-8p",
        "5stud-10p",
        "kuhn-3p",
        "leduc-4p",
        "tristud",
        "doorstud",
    ] {
        let def = GameDef::preset(game).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..40 {
            let mut st = State::new(&def).unwrap();
            loop {
                match st.next() {
                    Next::Deal { .. } => {
                        st.deal_random(&mut rng).unwrap();
                    }
                    Next::Act { .. } => {
                        let legal = st.legal_actions();
                        for b in &bots {
                            let mut probs = [f64::NAN; 8];
                            let (a, answer) =
                                choose(b.as_ref(), &st, &[], &legal, &mut probs, &mut rng).unwrap();
                            assert_eq!(answer, Answer::Own);
                            let p = &probs[..legal.len()];
                            assert!(p.iter().all(|x| (0.0..=1.0).contains(x)), "{p:?}");
                            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{p:?}");
                            assert!(legal.contains(&a));
                        }
                        st.apply(random_action(&legal, &mut rng)).unwrap();
                    }
                    Next::Over => break,
                }
            }
        }
    }
}

#[test]
fn sampling_follows_the_probabilities() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let probs = [0.2, 0.0, 0.8];
    let mut counts = [0; 3];
    for _ in 0..10_000 {
        counts[sample(&probs, &mut rng)] += 1;
    }
    assert_eq!(counts[1], 0);
    assert!((1800..2200).contains(&counts[0]), "{counts:?}");
}

/// A seven-card stud state on fourth street dealt from `cards` (seat 0's two down and door,
/// seat 1's, then a fourth-street card each); seat 1's down cards unknown when `hide`.
fn fourth_street(variant: &str, cards: &str, hide: bool) -> State {
    let def = GameDef::preset(variant).unwrap();
    let cards = parse_cards(cards).unwrap();
    let mut st = State::new(&def).unwrap();
    let mut it = cards.into_iter();
    while st.street() == 0 || matches!(st.next(), Next::Deal { .. }) {
        match st.next() {
            Next::Deal { seat, .. } => {
                let c = it.next().unwrap();
                let down = st.down_cards(1).len() < 2;
                if hide && seat == Some(1) && down {
                    st.deal_unknown().unwrap();
                } else {
                    st.deal(c).unwrap();
                }
            }
            Next::Act { .. } => {
                let legal = st.legal_actions();
                let passive = legal
                    .iter()
                    .find(|a| matches!(a, Action::BringIn | Action::CheckCall));
                st.apply(*passive.unwrap()).unwrap();
            }
            Next::Over => unreachable!(),
        }
    }
    st
}

#[test]
fn heuristic_equity_ranks_hands_and_never_peeks() {
    let h = Heuristic::default();
    // Seat 0: rolled-up aces plus a king; seat 1 shows rags.
    let strong = fourth_street("7stud", "AsAh Ad 2c7d 3h Kc 9s", false);
    let e = h.equity(&strong, 0);
    assert!(e > 0.8, "trip aces: {e}");
    let weak_side = h.equity(&strong, 1);
    assert!(
        weak_side < 0.3,
        "rags against trips showing one ace: {weak_side}"
    );
    // Seat 1's view must not change when its opponent's down cards are known to the state.
    let hidden = fourth_street("7stud", "AsAh Ad 2c7d 3h Kc 9s", true);
    assert_eq!(h.equity(&strong, 0), h.equity(&hidden, 0));
    // Razz turns it round: a wheel draw beats the aces.
    let razz = fourth_street("razz", "AsAh Ad 2c3d 4h Kc 5s", false);
    assert!(h.equity(&razz, 1) > 0.8, "{}", h.equity(&razz, 1));
    // The same spot always gets the same answer.
    assert_eq!(h.equity(&razz, 1), h.equity(&razz.clone(), 1));
}

#[test]
fn win_rate_and_interval_arithmetic() {
    // Pairs of 10, -10, 20, 0 chips at a big bet of 10: 500, -500, 1000, 0 mbb per hand.
    let r = summarize(&[10, -10, 20, 0], 10).unwrap();
    assert_eq!(r.hands, 8);
    assert_eq!(r.chips_a, 20);
    assert!((r.mbb_per_hand - 250.0).abs() < 1e-9);
    let sd = (((250.0f64).powi(2) * 2.0 + (750.0f64).powi(2) * 2.0) / 3.0).sqrt();
    assert!((r.ci95 - 1.96 * sd / 2.0).abs() < 1e-9);
    // Pairs at the bound of the game's chips (2 × 2^53 each): 512 of them fit, 513 do not.
    let pair = 1i64 << 54;
    let fits = summarize(&vec![pair; 511], 10).unwrap();
    assert_eq!(fits.chips_a, 511 * pair);
    let e = summarize(&vec![pair; 512], 10).unwrap_err().to_string();
    assert!(e.contains("512 deals") && e.contains("does not fit"), "{e}");
    // Sums that pass the bound on the way but end inside it are exact.
    assert_eq!(
        summarize(&[i64::MAX, 1, -2], 10).unwrap().chips_a,
        i64::MAX - 1
    );
}

#[test]
fn a_policy_without_legal_weight_falls_back_to_the_check_or_call() {
    let legal = [
        Action::Fold,
        Action::CheckCall,
        Action::CompleteBetRaise(10),
    ];
    let mut probs = [0.0, 2.0, 6.0];
    assert_eq!(normalize_or_fall_back(&legal, &mut probs), Answer::Own);
    assert_eq!(probs, [0.0, 0.25, 0.75]);
    let mut probs = [0.0; 3];
    assert_eq!(normalize_or_fall_back(&legal, &mut probs), Answer::Fallback);
    assert_eq!(probs, [0.0, 1.0, 0.0]);
    let mut probs = [0.0; 2];
    let bring_in = [Action::BringIn, Action::CompleteBetRaise(5)];
    assert_eq!(
        normalize_or_fall_back(&bring_in, &mut probs),
        Answer::Fallback
    );
    assert_eq!(probs, [1.0, 0.0]);
}

/// Gives no weight to anything after the first street: every later decision is a fallback.
struct Blank;

impl Player for Blank {
    fn name(&self) -> &str {
        "blank"
    }
    fn policy(
        &self,
        state: &State,
        _: &[Bet],
        _: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        probs.fill(0.0);
        if state.street() == 0 {
            probs[0] = 1.0;
        }
        Ok(normalize_or_fall_back(legal, probs))
    }
}

/// Counts `player`'s decisions after the first street, seat by seat, in the hands of a match.
struct Counting<'a>(&'a dyn Player, std::sync::atomic::AtomicU64);

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
    ) -> anyhow::Result<Answer> {
        if state.street() > 0 {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.0.policy(state, bets, seat, legal, probs)
    }
}

#[test]
fn a_match_counts_each_players_fallbacks_and_plays_on() {
    let call = AlwaysCall;
    let (a, b) = (
        Counting(&call, Default::default()),
        Counting(&Blank, Default::default()),
    );
    // Without the estimate, whose walks ask the players' policies at spots the match does not
    // reach: the counts are then the match's decisions.
    let cfg = MatchConfig {
        aivat: None,
        ..config("7stud", 30, 1)
    };
    let r = play_match(&a, &b, &cfg).unwrap();
    let later = b.1.load(std::sync::atomic::Ordering::Relaxed);
    assert!(later > 0);
    assert_eq!((r.fallbacks_a, r.fallbacks_b), (0, later));
    assert_eq!(r.hands, 60);
}

fn config(game: &str, deals: u64, seed: u64) -> MatchConfig {
    MatchConfig {
        def: Arc::new(GameDef::preset(game).unwrap()),
        deals,
        seed,
        phh_out: None,
        aivat: Some(Default::default()),
    }
}

#[test]
fn duplicate_deals_cancel_the_cards_exactly_for_a_deterministic_bot_against_itself() {
    for name in ["call", "raise", "heuristic"] {
        let p = load(name, &GameDef::preset("7stud").unwrap()).unwrap();
        for game in ["7stud", "razz", "leduc"] {
            let r = play_match(p.as_ref(), p.as_ref(), &config(game, 50, 9)).unwrap();
            assert_eq!(r.chips_a, 0, "{name} against itself at {game}");
            // The variance-reduced estimate cancels too: both seatings reach the same cards and
            // the same equities, and a hand's estimates add up to 0 as its chips do.
            let e = r.aivat.unwrap();
            assert!(e.mbb_per_hand.abs() < 1e-9, "{name} at {game}: {e:?}");
        }
    }
}

#[test]
fn a_match_is_the_same_whatever_the_thread_count() {
    let (a, b) = (
        load("random", &GameDef::preset("7stud").unwrap()).unwrap(),
        load("heuristic", &GameDef::preset("7stud").unwrap()).unwrap(),
    );
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| play_match(a.as_ref(), b.as_ref(), &config("stud8", 60, 5)).unwrap())
    };
    let (one, three) = (run(1), run(3));
    assert_eq!(one.chips_a, three.chips_a);
    assert_eq!(one.ci95, three.ci95);
    assert_ne!(
        one.chips_a,
        play_match(a.as_ref(), b.as_ref(), &config("stud8", 60, 6))
            .unwrap()
            .chips_a,
        "another seed plays other hands"
    );
}

#[test]
fn written_hands_replay_to_the_chips_the_match_counted() {
    let dir = std::env::temp_dir().join(format!("stud-match-phh-{}", std::process::id()));
    let (a, b) = (
        load("heuristic", &GameDef::preset("7stud").unwrap()).unwrap(),
        load("random", &GameDef::preset("7stud").unwrap()).unwrap(),
    );
    let mut cfg = config("7stud", 20, 2);
    cfg.phh_out = Some(dir.clone());
    let r = play_match(a.as_ref(), b.as_ref(), &cfg).unwrap();
    let (mut total, mut showdowns) = (0, 0);
    for i in 0..20 {
        for (side, seat) in [('a', 0), ('b', 1)] {
            let text = std::fs::read_to_string(dir.join(format!("{i}{side}.phh"))).unwrap();
            let h = HandHistory::parse(&text).unwrap();
            let payoffs = replay(&h, Profile::CardRoom).unwrap().payoffs.unwrap();
            total += payoffs[seat];
            // Heads-up, a hand without a fold is a showdown.
            showdowns += u32::from(!text.contains(" f'"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(total, r.chips_a);
    assert!(
        0 < showdowns && showdowns < 40,
        "random folds some hands: {showdowns}"
    );
    assert_eq!(r.showdown_share, Some(f64::from(showdowns) / 40.0));
}

#[test]
fn two_players_who_never_fold_reach_every_showdown() {
    let call = AlwaysCall;
    let r = play_match(&call, &call, &config("7stud", 10, 3)).unwrap();
    assert_eq!(r.showdown_share, Some(1.0));
}

#[test]
fn public_events_follow_the_tree_order_of_stud_query_spots() {
    // `stud query`'s example spot for ministud: "Ah Kc pb c Qd As".
    let def = GameDef::preset("ministud").unwrap();
    let mut st = State::new(&def).unwrap();
    let mut bets = Vec::new();
    for c in parse_cards("QsAhKsKc").unwrap() {
        st.deal(c).unwrap();
    }
    for a in [Action::BringIn, Action::CheckCall] {
        bets.push((st.street(), a));
        st.apply(a).unwrap();
    }
    for c in parse_cards("QdAs").unwrap() {
        st.deal(c).unwrap();
    }
    let card = |s: &str| abstraction::tree::Edge::Card(s.parse().unwrap());
    let act = abstraction::tree::Edge::Action;
    assert_eq!(
        public_events(&st, &bets),
        vec![
            card("Ah"),
            card("Kc"),
            act(Action::BringIn),
            act(Action::CheckCall),
            card("Qd"),
            card("As")
        ]
    );
}

#[test]
fn lbr_is_the_same_whatever_the_thread_count() {
    // Razz against the heuristic: a sample of the holdings, drawn anew in each hand.
    let def = Arc::new(GameDef::preset("razz").unwrap());
    let h = Heuristic {
        rollouts: 16,
        strong: 1.25,
    };
    let lbr = Lbr::new(&h, Arc::clone(&def), 8, Candidates::Sample(32)).unwrap();
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    };
    let play = || lbr.play(12, 4, &|| {}).unwrap();
    let one = pool(1).install(play);
    let three = pool(3).install(play);
    assert_eq!(one.chips_a, three.chips_a);
    assert_eq!(one.ci95, three.ci95);
}

#[test]
fn with_one_hidden_card_a_large_enough_sample_is_the_exact_range_bit_for_bit() {
    // Five-card stud: one down card, at most 47 holdings.
    let def = Arc::new(GameDef::preset("5stud").unwrap());
    let h = Heuristic {
        rollouts: 16,
        strong: 1.25,
    };
    let play = |c| {
        Lbr::new(&h, Arc::clone(&def), 8, c)
            .unwrap()
            .play(30, 6, &|| {})
            .unwrap()
    };
    let all = play(Candidates::All);
    let sampled = play(Candidates::Sample(256));
    assert_eq!(all.chips_a, sampled.chips_a);
    assert_eq!(all.ci95.to_bits(), sampled.ci95.to_bits());
    // A sample smaller than the range is another LBR.
    assert_ne!(all.chips_a, play(Candidates::Sample(4)).chips_a);
}

#[test]
fn lbr_counts_the_opponents_fallbacks() {
    // Calls on the first street, then falls back at every decision; LBR's range inference asks
    // it too, so the count of its later policy calls bounds the fallbacks from above.
    struct CallThenBlank;
    impl Player for CallThenBlank {
        fn name(&self) -> &str {
            "call-then-blank"
        }
        fn policy(
            &self,
            state: &State,
            bets: &[Bet],
            seat: u8,
            legal: &[Action],
            probs: &mut [f64],
        ) -> anyhow::Result<Answer> {
            if state.street() == 0 {
                return AlwaysCall.policy(state, bets, seat, legal, probs);
            }
            Blank.policy(state, bets, seat, legal, probs)
        }
    }
    let def = Arc::new(GameDef::preset("7stud").unwrap());
    let blank = Counting(&CallThenBlank, Default::default());
    let lbr = Lbr::new(&blank, def, 4, Candidates::Sample(8)).unwrap();
    let r = lbr.play(10, 3, &|| {}).unwrap();
    let asked = blank.1.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(r.fallbacks_a, 0, "{r:?}");
    assert!(
        r.fallbacks_b > 0 && r.fallbacks_b <= asked,
        "{r:?}, {asked}"
    );
    let deals = lbr.play_deals(10, 3, &|| {}).unwrap();
    assert_eq!(deals.fallbacks, [0, r.fallbacks_b]);
    assert_eq!(deals.nets.iter().sum::<i64>(), r.chips_a);
}

#[test]
fn lbr_beats_the_calling_bot_in_seven_card_stud_with_three_hidden_cards() {
    let def = Arc::new(GameDef::preset("7stud").unwrap());
    let call = AlwaysCall;
    let lbr = Lbr::new(&call, def, 16, Candidates::Sample(64)).unwrap();
    let r = lbr.play(40, 5, &|| {}).unwrap();
    assert!(r.mbb_per_hand - r.ci95 > 0.0, "{r:?}");
}

#[test]
fn a_server_reply_from_the_fallback_is_marked() {
    let server = protocol::Server {
        def: GameDef::preset("7stud").unwrap(),
        profile: Profile::CardRoom,
        served: protocol::Served::Player(Box::new(Blank)),
        limits: Default::default(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let third = r#""d dh p1 9c9d7h","d dh p2 ????2c","p2 pb""#;
    let own = server.respond(
        format!(r#"{{"id":1,"actions":[{third}]}}"#).as_bytes(),
        &mut rng,
    );
    assert_eq!(own["action"], "f", "{own}");
    assert!(own.get("fallback").is_none(), "{own}");
    let fourth = format!(r#"{third},"p1 cbr 5","p2 cc","d dh p1 7s","d dh p2 Kd""#);
    let fell = server.respond(
        format!(r#"{{"id":2,"actions":[{fourth}]}}"#).as_bytes(),
        &mut rng,
    );
    assert_eq!(fell["action"], "cc", "{fell}");
    assert_eq!(fell["fallback"], true, "{fell}");
}

/// Completes on third street with a pair in the hole, otherwise plays passively: its range after
/// its first action is known exactly (the LBR and re-solving tests weigh holdings by it).
pub(crate) struct PairRaiser;

impl Player for PairRaiser {
    fn name(&self) -> &str {
        "pair-raiser"
    }
    fn policy(
        &self,
        state: &State,
        _: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let down = state.down_cards(seat);
        let pair = matches!(down, [Some(a), Some(b)] if a.rank() == b.rank());
        probs.fill(0.0);
        probs[if pair && state.street() == 0 {
            most_aggressive(legal)
        } else {
            passive(legal)
        }] = 1.0;
        Ok(Answer::Own)
    }
}

/// A hand of `game` dealt `cards` in the engine's order, every seat of `folds` folding at its
/// first decision where it may and every other seat checking or calling, stopped at the first
/// decision of `street`.
fn table(game: &str, cards: &str, folds: u16, street: usize) -> State {
    let def = GameDef::preset(game).unwrap();
    let mut st = State::new(&def).unwrap();
    let mut deck = parse_cards(cards).unwrap().into_iter();
    loop {
        match st.next() {
            Next::Deal { .. } => st.deal(deck.next().unwrap()).unwrap(),
            Next::Act { .. } if st.street() == street => return st,
            Next::Act { seat } => {
                let legal = st.legal_actions();
                let a = match legal.iter().find(|a| **a == Action::Fold) {
                    Some(f) if folds & (1 << seat) != 0 => *f,
                    _ => legal[passive(&legal)],
                };
                st.apply(a).unwrap();
            }
            Next::Over => panic!("the hand ended before street {street}"),
        }
    }
}

#[test]
fn heuristic_equity_counts_a_folded_seats_up_cards_dead() {
    // Seat 0 holds four hearts on fourth street; seat 2 folded on third street showing the
    // jack of hearts (one of seat 0's outs) or of spades. Seat 1 brings in with the 2c.
    let spot = |door: &str| {
        let cards = format!("AhKh9h 3d4d2c QsQc{door} 5h 8d");
        let st = table("7stud-3p", &cards, 0b100, 1);
        assert!(st.folded(2) && !st.folded(1), "{door}");
        super::heuristic::equity(&st, 0, None, 20_000)
    };
    let (dead_out, blank) = (spot("Jh"), spot("Js"));
    assert!(
        dead_out + 0.015 < blank,
        "a dead heart {dead_out}, a dead spade {blank}"
    );
}

#[test]
fn heuristic_equity_plays_a_full_table_that_runs_out_of_cards() {
    // Eight seats of seven-card stud: 56 cards for 52 if all stay, so the last street is one
    // community card. Seat 0 has rolled-up aces.
    let third = "AsAhAd 2c3c4c 5d6d7d 8h9hTh JsQsKs 2d3d4d 5h6h7h 8c9cTc";
    let st = table("7stud-8p", third, 0, 0);
    // Before, it found 56 cards to deal from 45 unseen and gave up: a fair share, 1/8.
    let aces = super::heuristic::equity(&st, 0, None, 4000);
    assert!(aces > 0.35, "rolled-up aces at eight: {aces}");
    let rags = super::heuristic::equity(&st, 5, None, 4000);
    assert!(rags < aces && rags != 0.125, "5h6h7h at eight: {rags}");
    // Everyone calls down to seventh street: the stub is short, one community card is turned.
    let rest = "Jd Qd Kd Ac 2h 3h 4h 5c 6c 7c 8d 9d Td Jh Qh Kh Jc 2s 3s 4s 5s 6s 7s 8s 9s";
    let st = table("7stud-8p", &format!("{third} {rest}"), 0, 4);
    assert!(st.short_of_cards() && st.community_cards().len() == 1);
    // Every hand is seven cards: its own six and the community card (an eighth would be
    // refused by the evaluator). Seat 0 has made a full house at least.
    let aces = super::heuristic::equity(&st, 0, None, 4000);
    assert!(
        aces > 0.5 && aces < 1.0,
        "aces full at seventh street: {aces}"
    );
}

#[test]
fn a_table_of_identical_deterministic_bots_scores_exactly_zero_each_deal() {
    // Eight seats of seven-card stud run short of cards: `call` turns a community card on the
    // last street, `heuristic` folds some seats and deals the rest from the folded seats' cards.
    for (name, game, deals) in [
        ("call", "7stud-3p", 40),
        ("raise", "razz-4p", 30),
        ("heuristic", "stud8-3p", 30),
        ("heuristic", "7stud-8p", 12),
        ("call", "7stud-8p", 12),
        ("heuristic", "leduc-3p", 40),
    ] {
        let def = GameDef::preset(game).unwrap();
        let p = load(name, &def).unwrap();
        let players = vec![p.as_ref(); def.seats as usize];
        let t = play_table(&players, &config(game, deals, 4), &|| {}).unwrap();
        assert_eq!(t.per_deal.len(), deals as usize);
        // A deck that may run short has no variance-reduced estimate.
        assert_eq!(t.estimated.is_none(), game == "7stud-8p", "{game}");
        for d in &t.per_deal {
            assert!(d.iter().all(|&x| x == 0), "{name} at {game}: {d:?}");
        }
    }
}

#[test]
fn a_table_is_zero_sum_repeats_its_seed_and_ignores_the_thread_count() {
    let def = GameDef::preset("7stud-3p").unwrap();
    let (raise, call) = (load("raise", &def).unwrap(), load("call", &def).unwrap());
    // Neither folds: every seat reaches the showdown having put in as much as the others, so
    // each deal's rotations even out and every result is 0, and their sum.
    let players = [raise.as_ref(), call.as_ref(), call.as_ref()];
    let t = play_table(&players, &config("7stud-3p", 200, 11), &|| {}).unwrap();
    for d in &t.per_deal {
        assert_eq!(d.iter().sum::<i64>(), 0, "{d:?}");
    }
    // The random bot folds: it loses, and what it loses the calls win.
    let random = load("random", &def).unwrap();
    let players = [random.as_ref(), call.as_ref(), call.as_ref()];
    let run = |threads, seed| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| play_table(&players, &config("7stud-3p", 200, seed), &|| {}).unwrap())
    };
    let t = run(1, 11);
    for d in &t.per_deal {
        assert_eq!(d.iter().sum::<i64>(), 0, "{d:?}");
    }
    let r: Vec<_> = (0..3)
        .map(|p| t.win_rate(&[p], def.big_bet).unwrap())
        .collect();
    assert_eq!(r.iter().map(|r| r.chips).sum::<i64>(), 0);
    assert!(r[0].chips < 0 && r[0].hands == 600, "{r:?}");
    // The two calls pooled: their chips together, over twice the hands.
    let calls = t.win_rate(&[1, 2], def.big_bet).unwrap();
    assert_eq!(calls.chips, -r[0].chips);
    assert_eq!(calls.hands, 1200);
    assert!((calls.mbb_per_hand + r[0].mbb_per_hand / 2.0).abs() < 1e-9);
    // The variance-reduced estimates add up to 0 deal by deal, as the chips do.
    for d in t.estimated.as_ref().unwrap() {
        assert!(d.0.iter().sum::<f64>().abs() < 1e-6, "{d:?}");
    }
    assert_eq!(run(3, 11).estimated, t.estimated);
    assert_eq!(run(3, 11).per_deal, t.per_deal);
    assert_ne!(
        run(2, 12).per_deal,
        t.per_deal,
        "another seed plays other hands"
    );
    // A player per seat, no fewer.
    let e = play_table(&players[..2], &config("7stud-3p", 10, 1), &|| {}).unwrap_err();
    assert!(e.to_string().contains("one player per seat"), "{e}");
}

#[test]
fn a_tables_written_hands_replay_to_the_chips_it_counted() {
    let dir = std::env::temp_dir().join(format!("stud-table-phh-{}", std::process::id()));
    let def = GameDef::preset("7stud-8p").unwrap();
    let names = ["heuristic", "random", "call", "raise"];
    let bots: Vec<_> = (0..8).map(|s| load(names[s % 4], &def).unwrap()).collect();
    let players: Vec<&dyn Player> = bots.iter().map(|b| b.as_ref()).collect();
    let mut cfg = config("7stud-8p", 6, 2);
    cfg.phh_out = Some(dir.clone());
    let t = play_table(&players, &cfg, &|| {}).unwrap();
    for (i, deal) in t.per_deal.iter().enumerate() {
        let mut net = [0i64; 8];
        // Seating r puts player p in seat (p + r) mod 8.
        for r in 0..8 {
            let name = format!("{i}{}.phh", char::from(b'a' + r as u8));
            let h = HandHistory::parse(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
            let payoffs = replay(&h, Profile::CardRoom).unwrap().payoffs.unwrap();
            for (p, x) in net.iter_mut().enumerate() {
                *x += payoffs[(p + r) % 8];
            }
        }
        assert_eq!(&net[..], &deal[..8]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
